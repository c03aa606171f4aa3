//! Byte strings and GUIDs as text: the one spelling shared by the YAML files
//! and the runner's protocol.
//!
//! - A byte string is pairs of hex digits, either case on input, lowercase on
//!   output. Whitespace may separate bytes (never split one); `""` and `"-"`
//!   both mean the empty byte string. [`format()`] writes the protocol form (no
//!   spaces, `-` when empty); [`format_spaced`] the YAML form.
//! - A GUID is exactly 16 hex digits, most significant first, no `0x`.
//!
//! This module only converts text; it never looks at what the bytes mean.

use core::fmt;
use core::fmt::Write as _;

/// Why a byte string is not valid hex. Offsets are byte offsets into the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HexError {
    /// A character that is neither a hex digit nor whitespace.
    InvalidChar {
        /// Byte offset of the character.
        offset: usize,
        /// The character.
        ch: char,
    },
    /// A run of digits between whitespace has an odd length, so one byte is
    /// split or a digit is missing.
    OddDigits {
        /// Byte offset of the run's last digit (the one without a partner).
        offset: usize,
        /// How many digits the run has.
        digits: usize,
    },
}

impl HexError {
    /// Byte offset in the text of the character the error is about.
    #[must_use]
    pub const fn offset(&self) -> usize {
        match *self {
            HexError::InvalidChar { offset, .. } | HexError::OddDigits { offset, .. } => offset,
        }
    }
}

impl fmt::Display for HexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            HexError::InvalidChar { offset, ch } => write!(
                f,
                "`{}` at offset {offset} is not a hex digit (bytes are written as pairs of 0-9, a-f)",
                ch.escape_debug()
            ),
            HexError::OddDigits { offset, digits: 1 } => write!(
                f,
                "the hex digit at offset {offset} has no partner: every byte needs exactly \
                 two digits, and spaces may only go between bytes"
            ),
            HexError::OddDigits { offset, digits } => write!(
                f,
                "the group of {digits} hex digits ending at offset {offset} has an odd length: \
                 every byte needs exactly two digits, and spaces may only go between bytes"
            ),
        }
    }
}

impl std::error::Error for HexError {}

/// Why a GUID is not exactly 16 hex digits. Offsets are byte offsets into the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GuidTextError {
    /// A character that is not a hex digit.
    InvalidChar {
        /// Byte offset of the character.
        offset: usize,
        /// The character.
        ch: char,
    },
    /// Only hex digits, but not 16 of them.
    WrongLength {
        /// How many digits there are.
        digits: usize,
    },
}

impl fmt::Display for GuidTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GuidTextError::InvalidChar { offset, ch } => write!(
                f,
                "`{}` at offset {offset} is not a hex digit; a GUID is exactly 16 hex digits, \
                 most significant first, without `0x` or spaces",
                ch.escape_debug()
            ),
            GuidTextError::WrongLength { digits } => write!(
                f,
                "a GUID is exactly 16 hex digits (zero-padded, most significant first), \
                 this one has {digits}"
            ),
        }
    }
}

impl std::error::Error for GuidTextError {}

/// The protocol form of a byte string: lowercase hex without spaces, `-` when empty.
#[must_use]
pub fn format(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "-".to_owned();
    }
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        // Writing to a String cannot fail.
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// The YAML form of a byte string: lowercase hex bytes separated by single
/// spaces, the empty string when empty.
#[must_use]
pub fn format_spaced(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// Parses a byte string: pairs of hex digits in either case, optionally
/// separated by whitespace between bytes; `""` and `"-"` are empty.
///
/// # Errors
/// [`HexError`] with the byte offset of the first offending character.
pub fn parse(s: &str) -> Result<Vec<u8>, HexError> {
    if s == "-" {
        return Ok(Vec::new());
    }
    let mut out = Vec::with_capacity(s.len() / 2);
    let mut high: Option<(usize, u8)> = None;
    for (offset, ch) in s.char_indices() {
        if ch.is_whitespace() {
            if let Some((pending, _)) = high {
                return Err(odd_run(s, pending));
            }
            continue;
        }
        let Some(digit) = ch.to_digit(16) else {
            return Err(HexError::InvalidChar { offset, ch });
        };
        // to_digit(16) is at most 15, so this never truncates.
        let digit = digit as u8;
        match high.take() {
            None => high = Some((offset, digit)),
            Some((_, h)) => out.push(h << 4 | digit),
        }
    }
    match high {
        Some((pending, _)) => Err(odd_run(s, pending)),
        None => Ok(out),
    }
}

/// Builds the error for a digit left without a partner at `offset`.
fn odd_run(s: &str, offset: usize) -> HexError {
    let start = s[..offset].rfind(char::is_whitespace).map_or(0, |ws| {
        ws + s[ws..].chars().next().map_or(1, char::len_utf8)
    });
    HexError::OddDigits {
        offset,
        digits: offset - start + 1,
    }
}

/// A GUID as 16 lowercase hex digits, most significant first.
#[must_use]
pub fn format_guid(guid: u64) -> String {
    format!("{guid:016x}")
}

/// Parses a GUID written as exactly 16 hex digits (either case), most
/// significant first.
///
/// # Errors
/// [`GuidTextError`] for any other character or any other length.
pub fn parse_guid(s: &str) -> Result<u64, GuidTextError> {
    if let Some((offset, ch)) = s.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
        return Err(GuidTextError::InvalidChar { offset, ch });
    }
    if s.len() != 16 {
        return Err(GuidTextError::WrongLength { digits: s.len() });
    }
    // 16 checked hex digits always fit in a u64; map the impossible error
    // rather than unwrap so this function has no panic path.
    u64::from_str_radix(s, 16).map_err(|_| GuidTextError::WrongLength { digits: s.len() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_protocol_and_yaml_forms() {
        assert_eq!(format(&[]), "-");
        assert_eq!(format(&[0x0a, 0xde, 0xad]), "0adead");
        assert_eq!(format_spaced(&[]), "");
        assert_eq!(format_spaced(&[0x0a, 0xde, 0xad]), "0a de ad");
        assert_eq!(format_guid(0xad00de00), "00000000ad00de00");
    }

    #[test]
    fn parses_any_spacing_between_bytes_and_either_case() {
        assert_eq!(parse("0a de ad"), Ok(vec![0x0a, 0xde, 0xad]));
        assert_eq!(parse("0ADEad"), Ok(vec![0x0a, 0xde, 0xad]));
        assert_eq!(parse(" 0a\n\tde  ad "), Ok(vec![0x0a, 0xde, 0xad]));
        assert_eq!(parse(""), Ok(vec![]));
        assert_eq!(parse("-"), Ok(vec![]));
        assert_eq!(parse("   "), Ok(vec![]));
    }

    #[test]
    fn rejects_split_bytes_and_odd_digits_with_offsets() {
        assert_eq!(
            parse("0a d ead"),
            Err(HexError::OddDigits {
                offset: 3,
                digits: 1
            })
        );
        assert_eq!(
            parse("0a dea"),
            Err(HexError::OddDigits {
                offset: 5,
                digits: 3
            })
        );
        assert_eq!(
            parse("0a zz"),
            Err(HexError::InvalidChar { offset: 3, ch: 'z' })
        );
        assert_eq!(
            parse("0x0a"),
            Err(HexError::InvalidChar { offset: 1, ch: 'x' })
        );
        assert_eq!(
            parse("0é"),
            Err(HexError::InvalidChar {
                offset: 1, ch: 'é'
            })
        );
        assert_eq!(parse("-0a").unwrap_err().offset(), 0);
    }

    #[test]
    fn guid_is_exactly_sixteen_digits() {
        assert_eq!(parse_guid("00000000AD00de00"), Ok(0xad00de00));
        assert_eq!(parse_guid("ffffffffffffffff"), Ok(u64::MAX));
        assert_eq!(
            parse_guid("ad00de00"),
            Err(GuidTextError::WrongLength { digits: 8 })
        );
        assert_eq!(
            parse_guid("0x00000000ad00de00"),
            Err(GuidTextError::InvalidChar { offset: 1, ch: 'x' })
        );
        assert_eq!(
            parse_guid("00000000 ad00de00"),
            Err(GuidTextError::InvalidChar { offset: 8, ch: ' ' })
        );
        assert_eq!(
            parse_guid("+0000000ad00de00"),
            Err(GuidTextError::InvalidChar { offset: 0, ch: '+' })
        );
        assert_eq!(
            parse_guid(""),
            Err(GuidTextError::WrongLength { digits: 0 })
        );
    }
}
