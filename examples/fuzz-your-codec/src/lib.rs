//! A small `PackedGuid`/`NamedGuid` codec: the kind of crate
//! `wow-guid-testkit` is for. Replace it with yours; keep `testkit.rs`, the
//! tests and the fuzz targets.
//!
//! Its decoder bounds names at [`MAX_NAME`] bytes, as the corpus allows;
//! its encoder must then refuse longer names too, or it writes what it
//! cannot read (the `planted-bound-bug` feature leaves that check out).

#[cfg(feature = "testkit")]
pub mod testkit;

/// The longest name decoded, in bytes without the NUL.
pub const MAX_NAME: usize = 256;

/// Why a value cannot be read or written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// The input ends before the value does.
    Eof,
    /// The name is not UTF-8.
    InvalidUtf8,
    /// The name holds a NUL.
    InteriorNul,
    /// A name after GUID 0, which the format cannot write.
    NameWithoutGuid,
    /// A name longer than [`MAX_NAME`] bytes.
    NameTooLong,
    /// A non-zero GUID without a name.
    MissingName,
}

/// Decodes a packed GUID from the front of `bytes`: the GUID and the bytes
/// it took.
///
/// # Errors
/// [`Error::Eof`] when the mask names more bytes than there are.
pub fn decode_packed(bytes: &[u8]) -> Result<(u64, usize), Error> {
    let (&mask, rest) = bytes.split_first().ok_or(Error::Eof)?;
    let mut guid = 0u64;
    let mut taken = 0;
    for bit in 0..8 {
        if mask & (1 << bit) != 0 {
            let mut byte = *rest.get(taken).ok_or(Error::Eof)?;
            if cfg!(feature = "planted-decode-bug") && bit == 7 {
                byte &= 0x7f;
            }
            guid |= u64::from(byte) << (8 * bit);
            taken += 1;
        }
    }
    Ok((guid, 1 + taken))
}

/// Encodes `guid` as a packed GUID: a mask of its non-zero bytes, then
/// those bytes.
#[must_use]
pub fn encode_packed(guid: u64) -> Vec<u8> {
    let mut out = vec![0];
    for (bit, byte) in guid.to_le_bytes().into_iter().enumerate() {
        if byte != 0 {
            out[0] |= 1 << bit;
            out.push(byte);
        }
    }
    out
}

/// Decodes a named GUID from the front of `bytes`: the GUID, its name (none
/// after GUID 0) and the bytes it took.
///
/// # Errors
/// [`Error::Eof`] for a short GUID or a name without its NUL,
/// [`Error::NameTooLong`] past [`MAX_NAME`], [`Error::InvalidUtf8`].
pub fn decode_named(bytes: &[u8]) -> Result<(u64, Option<&str>, usize), Error> {
    let guid_bytes: [u8; 8] = bytes
        .get(..8)
        .and_then(|b| b.try_into().ok())
        .ok_or(Error::Eof)?;
    let guid = u64::from_le_bytes(guid_bytes);
    if guid == 0 {
        return Ok((0, None, 8));
    }
    let rest = &bytes[8..];
    let nul = rest.iter().position(|&b| b == 0).ok_or(Error::Eof)?;
    if nul > MAX_NAME {
        return Err(Error::NameTooLong);
    }
    let name = std::str::from_utf8(&rest[..nul]).map_err(|_| Error::InvalidUtf8)?;
    Ok((guid, Some(name), 8 + nul + 1))
}

/// Encodes `guid` and `name` as a named GUID: the GUID's eight bytes, then
/// (for a non-zero GUID) the name and a NUL.
///
/// # Errors
/// [`Error::NameWithoutGuid`], [`Error::MissingName`],
/// [`Error::InteriorNul`], [`Error::NameTooLong`].
pub fn encode_named(guid: u64, name: Option<&str>) -> Result<Vec<u8>, Error> {
    let mut out = guid.to_le_bytes().to_vec();
    match (guid, name) {
        (0, None) => Ok(out),
        (0, Some(_)) => Err(Error::NameWithoutGuid),
        (_, None) => Err(Error::MissingName),
        (_, Some(name)) => {
            if name.contains('\0') {
                return Err(Error::InteriorNul);
            }
            if name.len() > MAX_NAME && !cfg!(feature = "planted-bound-bug") {
                return Err(Error::NameTooLong);
            }
            out.extend_from_slice(name.as_bytes());
            out.push(0);
            Ok(out)
        }
    }
}
