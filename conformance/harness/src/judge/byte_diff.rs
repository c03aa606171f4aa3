//! Where two byte strings part, for the wording of a
//! [`Mismatch`](super::Mismatch): the first differing offset and a short
//! window of hex around it, so a wrong 255-byte name reads as one short
//! line, not two walls of hex. Pure.

use std::fmt;

use hex::encode as hex;

/// Bytes of context shown before the first difference.
const BEFORE: usize = 8;
/// Bytes shown from the first difference on (the differing byte included).
const FROM: usize = 8;

/// How `got` differs from `expected`, or `None` when they are equal.
///
/// Displays as `differ from byte N (expected A bytes, got B): expected
/// …ctx[xx]rest…, got …ctx[yy]rest…`: the bytes before the difference once
/// (they are equal on both sides), then each side from the differing byte
/// on, `[end]` where a side has ended, and `…` wherever bytes are left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FirstDifference<'a> {
    expected: &'a [u8],
    got: &'a [u8],
    offset: usize,
}

impl<'a> FirstDifference<'a> {
    /// Compares the two strings; `None` when they are equal.
    pub(crate) fn between(expected: &'a [u8], got: &'a [u8]) -> Option<Self> {
        let offset = expected
            .iter()
            .zip(got)
            .position(|(e, g)| e != g)
            .unwrap_or(expected.len().min(got.len()));
        (expected != got).then_some(Self {
            expected,
            got,
            offset,
        })
    }

    /// One side from the first difference on, at most [`FROM`] bytes.
    fn side(&self, bytes: &[u8], f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let start = self.offset.saturating_sub(BEFORE);
        if start > 0 {
            f.write_str("…")?;
        }
        f.write_str(&hex(&bytes[start..self.offset]))?;
        let rest = &bytes[self.offset..];
        match rest.split_first() {
            None => f.write_str("[end]"),
            Some((first, more)) => {
                write!(f, "[{first:02x}]")?;
                let shown = &more[..more.len().min(FROM - 1)];
                f.write_str(&hex(shown))?;
                if shown.len() < more.len() {
                    f.write_str("…")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for FirstDifference<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "differ from byte {}", self.offset)?;
        if self.expected.len() == self.got.len() {
            write!(f, " (both {} bytes)", self.expected.len())?;
        } else {
            write!(
                f,
                " (expected {} bytes, got {})",
                self.expected.len(),
                self.got.len()
            )?;
        }
        f.write_str(": expected ")?;
        self.side(self.expected, f)?;
        f.write_str(", got ")?;
        self.side(self.got, f)
    }
}

#[cfg(test)]
mod tests {
    use super::FirstDifference;

    #[test]
    fn equal_strings_have_no_difference() {
        assert_eq!(FirstDifference::between(b"abc", b"abc"), None);
        assert_eq!(FirstDifference::between(b"", b""), None);
    }

    #[test]
    fn a_difference_reads_as_one_short_line() {
        // A 255-byte cap: the implementation stops a 300-byte name early.
        let capped = [vec![b'a'; 300], vec![0]].concat();
        let cap = [vec![b'a'; 255], vec![0]].concat();
        // Near the front, the window starts at the front.
        let counting: Vec<u8> = (0..40).collect();
        let mut near_front = counting.clone();
        near_front[3] = 0xff;
        for (expected, got, text) in [
            (
                &[0x0a, 0xde, 0xad][..],
                &[0x0a, 0xde, 0xae][..],
                "differ from byte 2 (both 3 bytes): expected 0ade[ad], got 0ade[ae]",
            ),
            // A side that ends early says so.
            (
                b"Bob\0",
                b"Bob",
                "differ from byte 3 (expected 4 bytes, got 3): expected 426f62[00], got 426f62[end]",
            ),
            (
                b"",
                b"\x01",
                "differ from byte 0 (expected 0 bytes, got 1): expected [end], got [01]",
            ),
            (
                &capped,
                &cap,
                "differ from byte 255 (expected 301 bytes, got 256): \
                 expected …6161616161616161[61]61616161616161…, got …6161616161616161[00]",
            ),
            (
                &counting,
                &near_front,
                "differ from byte 3 (both 40 bytes): expected 000102[03]0405060708090a…, \
                 got 000102[ff]0405060708090a…",
            ),
        ] {
            let difference = FirstDifference::between(expected, got).expect("differ");
            assert_eq!(difference.to_string(), text);
        }
        let difference = FirstDifference::between(&capped, &cap).unwrap();
        assert_eq!(difference.offset, 255);
        assert!(difference.to_string().len() < 150);
    }
}
