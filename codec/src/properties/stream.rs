//! Values encoded back to back decode back to the same sequence.

use alloc::vec::Vec;

use crate::PackedGuidError;
use crate::{NamedGuidDecodeError, NamedGuidRef, PackedGuid};

use super::message::violated;

/// One value of a message in the [`stream`] property: a packed GUID, or a
/// named GUID that borrows its name (from the fuzzer's input, in
/// [`stream_input`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamItem<'a> {
    /// A packed GUID field.
    Packed(PackedGuid),
    /// A named GUID field.
    Named(NamedGuidRef<'a>),
}

impl StreamItem<'_> {
    fn encoded_len(&self) -> usize {
        match self {
            Self::Packed(guid) => guid.encoded_len(),
            Self::Named(named) => named.encoded_len(),
        }
    }

    fn encode_to_vec(&self, message: &mut Vec<u8>) {
        match self {
            Self::Packed(guid) => guid.encode_to_vec(message),
            Self::Named(named) => named.encode_to_vec(message),
        }
    }
}

/// Reads an item as `derive(Arbitrary)` on an enum of [`PackedGuid`] and
/// [`NamedGuid`](crate::NamedGuid) would (a `u32` picks the variant, then the value as that
/// type's own impl reads it), except that the name is borrowed from the
/// input instead of copied: a name with a NUL in it is cut at its first NUL
/// (the owned [`Name`](crate::Name) drops every NUL, which needs a copy).
#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for StreamItem<'a> {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        if (u64::from(<u32 as arbitrary::Arbitrary>::arbitrary(u)?) * 2) >> 32 == 0 {
            return Ok(Self::Packed(u.arbitrary()?));
        }
        Ok(Self::Named(
            match core::num::NonZeroU64::new(u.arbitrary()?) {
                None => NamedGuidRef::Zero,
                Some(guid) => {
                    let name: &str = u.arbitrary()?;
                    let name = name.find('\0').map_or(name, |end| &name[..end]);
                    NamedGuidRef::Named { guid, name }
                }
            },
        ))
    }

    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        arbitrary::size_hint::and(
            <u32 as arbitrary::Arbitrary>::size_hint(depth),
            <u64 as arbitrary::Arbitrary>::size_hint(depth),
        )
    }
}

/// Encodes `items` back to back, as fields of one message, and checks that
/// decoding them one after the other, each from where the previous one
/// stopped, gives back the same values and ends exactly at the end.
///
/// The `io::Write` helpers append exactly what `encode_to_vec` appends, so a
/// message written through them is the same; [`packed_roundtrip`](super::packed_roundtrip) and
/// [`named_roundtrip`](super::named_roundtrip) check that for each value. The owned [`NamedGuid`](crate::NamedGuid)
/// encodes through the borrowed [`NamedGuidRef`], which is what is used
/// here.
///
/// # Panics
/// When a value comes back different, or decoding stops early or late.
pub fn stream(items: &[StreamItem<'_>]) {
    let mut message = Vec::with_capacity(items.iter().map(StreamItem::encoded_len).sum());
    for item in items {
        item.encode_to_vec(&mut message);
    }
    stream_decodes(items.iter().copied(), items.len(), &message);
}

/// Scratch space for [`stream_input`]: the message and what was read from
/// the input. A harness that keeps one between inputs allocates nothing per
/// input once it has grown.
#[cfg(feature = "arbitrary")]
#[derive(Debug, Default)]
pub struct StreamScratch {
    message: Vec<u8>,
    items: Vec<ItemInInput>,
}

/// A [`StreamItem`] read from an input, with its name as a range of the
/// input instead of a borrow, so that [`StreamScratch`] outlives the input.
#[cfg(feature = "arbitrary")]
#[derive(Debug)]
enum ItemInInput {
    Packed(PackedGuid),
    Zero,
    Named {
        guid: core::num::NonZeroU64,
        name: core::ops::Range<usize>,
    },
}

/// [`stream`] on a fuzzer's raw input, the items read from it exactly as
/// `Vec<StreamItem>` would read them (`arbitrary_take_rest`). An input that
/// does not make a list of items is skipped, as `fuzz_target!` skips it.
///
/// The message and the list of items are kept in `scratch`, so that a
/// harness allocates nothing per input. The message's spare capacity hides
/// nothing from the address sanitizer: the single-value decoders read
/// through bounds-checked slices only.
///
/// # Panics
/// As [`stream`].
#[cfg(feature = "arbitrary")]
pub fn stream_input(input: &[u8], scratch: &mut StreamScratch) {
    let Ok(items) =
        arbitrary::Unstructured::new(input).arbitrary_take_rest_iter::<StreamItem<'_>>()
    else {
        return;
    };
    scratch.message.clear();
    scratch.items.clear();
    for item in items {
        let Ok(item) = item else { return };
        item.encode_to_vec(&mut scratch.message);
        scratch.items.push(match item {
            StreamItem::Packed(guid) => ItemInInput::Packed(guid),
            StreamItem::Named(NamedGuidRef::Zero) => ItemInInput::Zero,
            StreamItem::Named(NamedGuidRef::Named { guid, name }) => {
                // A name is borrowed from the input: where it starts there
                // (an empty one may point anywhere).
                let start = if name.is_empty() {
                    0
                } else {
                    name.as_ptr() as usize - input.as_ptr() as usize
                };
                ItemInInput::Named {
                    guid,
                    name: start..start + name.len(),
                }
            }
        });
    }
    let items = scratch.items.iter().map(|item| match item {
        ItemInInput::Packed(guid) => StreamItem::Packed(*guid),
        ItemInInput::Zero => StreamItem::Named(NamedGuidRef::Zero),
        ItemInInput::Named { guid, name } => StreamItem::Named(NamedGuidRef::Named {
            guid: *guid,
            name: core::str::from_utf8(&input[name.clone()]).expect("a name read as UTF-8"),
        }),
    });
    stream_decodes(items, scratch.items.len(), &scratch.message);
}

/// The decoding half of [`stream`]: `items` (`count` of them) decode one
/// after the other from `message`, which ends exactly where the last one
/// does.
fn stream_decodes<'a>(items: impl Iterator<Item = StreamItem<'a>>, count: usize, message: &[u8]) {
    let mut offset = 0;
    for (index, item) in items.enumerate() {
        let rest = &message[offset..];
        // Named values are decoded borrowed: the owned decoder is the same
        // plus a copy of the name, and `named_decode` checks that the two
        // agree.
        let (same, consumed) = match item {
            StreamItem::Packed(guid) => match PackedGuid::decode(rest) {
                Ok(d) => (d.value == guid, d.consumed),
                Err(_) => (false, 0),
            },
            StreamItem::Named(named) => match NamedGuidRef::decode(rest) {
                Ok(d) => (d.value == named, d.consumed),
                Err(_) => (false, 0),
            },
        };
        if !same {
            stream_mismatch(message, index, offset, &item);
        }
        offset += consumed;
    }
    if offset != message.len() {
        violated(
            "stream.length",
            message,
            format_args!(
                "decoding {count} items stopped at offset {offset} of {}",
                message.len()
            ),
        );
    }
}

/// Reports item `index` of a stream, at `offset` of `message`, decoding to
/// something other than `item`.
#[cold]
fn stream_mismatch(message: &[u8], index: usize, offset: usize, item: &StreamItem<'_>) -> ! {
    let rest = &message[offset..];
    let decoded = match item {
        StreamItem::Packed(_) => PackedGuid::decode(rest)
            .map(|d| StreamItem::Packed(d.value))
            .map_err(DecodeFailure::Packed),
        StreamItem::Named(_) => NamedGuidRef::decode(rest)
            .map(|d| StreamItem::Named(d.value))
            .map_err(DecodeFailure::Named),
    };
    violated(
        "stream.roundtrip",
        message,
        format_args!("item {index} at offset {offset} decodes to {decoded:?}, expected {item:?}"),
    )
}

/// An error from either decoder, so a stream step can report what failed.
#[derive(Debug, PartialEq, Eq)]
enum DecodeFailure {
    Packed(PackedGuidError),
    Named(NamedGuidDecodeError),
}
