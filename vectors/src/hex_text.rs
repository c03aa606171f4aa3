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
//! The digits themselves are the `hex` crate's work; what is ours is the
//! spelling around them (spaces, `-`) and errors that say where the text
//! goes wrong.

use hex::FromHexError;

/// Why a byte string is not valid hex. Offsets are byte offsets into the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum HexError {
    /// A character that is neither a hex digit nor whitespace.
    #[error(
        "`{}` at offset {offset} is not a hex digit (bytes are written as pairs of 0-9, a-f)",
        .ch.escape_debug()
    )]
    InvalidChar {
        /// Byte offset of the character.
        offset: usize,
        /// The character.
        ch: char,
    },
    /// A run of digits between whitespace has an odd length, so one byte is
    /// split or a digit is missing.
    #[error("{}", odd_digits(*.offset, *.digits))]
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

/// [`HexError::OddDigits`]'s message: a lone digit is said in words of its own.
fn odd_digits(offset: usize, digits: usize) -> String {
    if digits == 1 {
        format!(
            "the hex digit at offset {offset} has no partner: every byte needs exactly \
             two digits, and spaces may only go between bytes"
        )
    } else {
        format!(
            "the group of {digits} hex digits ending at offset {offset} has an odd length: \
             every byte needs exactly two digits, and spaces may only go between bytes"
        )
    }
}

/// Why a GUID is not exactly 16 hex digits. Offsets are byte offsets into the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum GuidTextError {
    /// A character that is not a hex digit.
    #[error(
        "`{}` at offset {offset} is not a hex digit; a GUID is exactly 16 hex digits, \
         most significant first, without `0x` or spaces",
        .ch.escape_debug()
    )]
    InvalidChar {
        /// Byte offset of the character.
        offset: usize,
        /// The character.
        ch: char,
    },
    /// Only hex digits, but not 16 of them.
    #[error(
        "a GUID is exactly 16 hex digits (zero-padded, most significant first), \
         this one has {digits}"
    )]
    WrongLength {
        /// How many digits there are.
        digits: usize,
    },
}

/// The protocol form of a byte string: lowercase hex without spaces, `-` when empty.
#[must_use]
pub fn format(bytes: &[u8]) -> String {
    let mut out = Vec::with_capacity(bytes.len() * 2);
    write(&mut out, bytes);
    // Only hex digits and `-` were written.
    String::from_utf8(out).unwrap_or_default()
}

/// Appends the protocol form of `bytes` ([`format()`]) to `out`, without
/// allocating: the runner writes every request this way.
pub fn write(out: &mut Vec<u8>, bytes: &[u8]) {
    if bytes.is_empty() {
        out.push(b'-');
        return;
    }
    let start = out.len();
    out.resize(start + bytes.len() * 2, 0);
    let encoded = hex::encode_to_slice(bytes, &mut out[start..]);
    // Its only error is a slice of the wrong length, and this one is exact.
    debug_assert!(encoded.is_ok(), "{encoded:?}");
}

/// Appends a GUID ([`format_guid`]) to `out`, without allocating.
pub fn write_guid(out: &mut Vec<u8>, guid: u64) {
    let mut digits = [0u8; 16];
    let encoded = hex::encode_to_slice(guid.to_be_bytes(), &mut digits);
    debug_assert!(encoded.is_ok(), "{encoded:?}");
    out.extend_from_slice(&digits);
}

/// Parses a byte string in the protocol form, one field of a line: hex
/// pairs in either case, no whitespace, `-` for empty. Offsets in the error
/// are into `field`.
///
/// # Errors
/// [`HexError`] at the first character that is not a hex digit (a byte
/// that is not text is [`char::REPLACEMENT_CHARACTER`]), or for a digit
/// left without its partner.
pub fn parse_field(field: &[u8]) -> Result<Vec<u8>, HexError> {
    if field == b"-" {
        return Ok(Vec::new());
    }
    let mut out = Vec::with_capacity(field.len() / 2);
    parse_run(field, 0, field, &mut out)?;
    Ok(out)
}

/// Parses a GUID in the protocol form, one field of a line, as
/// [`parse_guid`] does.
///
/// # Errors
/// [`GuidTextError`] as for [`parse_guid`].
pub fn parse_guid_field(field: &[u8]) -> Result<u64, GuidTextError> {
    let mut be = [0u8; 8];
    let invalid = |offset| GuidTextError::InvalidChar {
        offset,
        ch: char_at(field, offset),
    };
    match hex::decode_to_slice(field, &mut be) {
        Ok(()) => Ok(u64::from_be_bytes(be)),
        Err(FromHexError::InvalidHexCharacter { index, .. }) => Err(invalid(index)),
        // A wrong length: `hex` says so before it looks at the digits, but a
        // bad character is the likelier mistake, so it is named first.
        Err(FromHexError::OddLength | FromHexError::InvalidStringLength) => {
            match field.iter().position(|b| !b.is_ascii_hexdigit()) {
                Some(offset) => Err(invalid(offset)),
                None => Err(GuidTextError::WrongLength {
                    digits: field.len(),
                }),
            }
        }
    }
}

/// The YAML form of a byte string: lowercase hex bytes separated by single
/// spaces, the empty string when empty.
#[must_use]
pub fn format_spaced(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 3);
    for (i, digit) in hex::encode(bytes).chars().enumerate() {
        if i > 0 && i % 2 == 0 {
            out.push(' ');
        }
        out.push(digit);
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
    let mut offset = 0;
    // Each piece is a run of digits and the whitespace character ending it.
    for piece in s.split_inclusive(char::is_whitespace) {
        let run = piece.strip_suffix(char::is_whitespace).unwrap_or(piece);
        parse_run(s.as_bytes(), offset, run.as_bytes(), &mut out)?;
        offset += piece.len();
    }
    Ok(out)
}

/// Appends the bytes of `run` to `out`: the text between two whitespace
/// characters, at byte `offset` of `s`.
fn parse_run(s: &[u8], offset: usize, run: &[u8], out: &mut Vec<u8>) -> Result<(), HexError> {
    // `hex` rejects an odd length before it looks at the digits, but a bad
    // character is the error to report wherever it is: decode the pairs,
    // then look at a digit left over.
    let pairs = run.len() & !1;
    let start = out.len();
    out.resize(start + pairs / 2, 0);
    let decoded = hex::decode_to_slice(&run[..pairs], &mut out[start..]);
    if let Err(FromHexError::InvalidHexCharacter { index, .. }) = decoded {
        return Err(invalid_char(s, offset + index));
    }
    // Its other errors are about lengths, right here by construction.
    debug_assert!(decoded.is_ok(), "{decoded:?}");
    match run.get(pairs) {
        None => Ok(()),
        Some(last) if last.is_ascii_hexdigit() => Err(HexError::OddDigits {
            offset: offset + pairs,
            digits: run.len(),
        }),
        Some(_) => Err(invalid_char(s, offset + pairs)),
    }
}

/// The error for the character at byte `offset`. The callers' offsets
/// follow hex digits or whole whitespace characters only, so a character
/// starts there.
fn invalid_char(s: &[u8], offset: usize) -> HexError {
    HexError::InvalidChar {
        offset,
        ch: char_at(s, offset),
    }
}

/// The character at byte `offset` of `s`, or the replacement character
/// where the bytes there are not UTF-8.
fn char_at(s: &[u8], offset: usize) -> char {
    let rest = s.get(offset..).unwrap_or_default();
    let valid = rest.utf8_chunks().next().map_or("", |chunk| chunk.valid());
    valid.chars().next().unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// A GUID as 16 lowercase hex digits, most significant first.
#[must_use]
pub fn format_guid(guid: u64) -> String {
    let mut out = Vec::with_capacity(16);
    write_guid(&mut out, guid);
    String::from_utf8(out).unwrap_or_default()
}

/// Parses a GUID written as exactly 16 hex digits (either case), most
/// significant first.
///
/// # Errors
/// [`GuidTextError`] for any other character or any other length.
pub fn parse_guid(s: &str) -> Result<u64, GuidTextError> {
    parse_guid_field(s.as_bytes())
}
