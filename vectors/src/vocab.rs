//! The closed word lists of the format: GUID types, operations, outcomes,
//! error codes, protocol versions and flags.
//!
//! Each list is a Rust enum whose `as_str` spelling is the word used in the
//! YAML files, in `schema.json` and on the runner's protocol, so the three can
//! never drift apart silently: the schema test compares them with
//! [`GuidType::WORDS`] and friends. This module only defines words; it knows
//! nothing about YAML or files.

/// A word that is not in one of the format's word lists.
///
/// Returned by the `FromStr` impls of every word enum; the message names the
/// word and lists the allowed ones so a spec author can fix a typo at once.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error(
    "unknown {what} `{}`; {}expected one of: {}",
    .word.escape_debug(),
    crate::near_miss::closest(.word, .allowed)
        .map_or_else(String::new, |near| format!("did you mean `{near}`? ")),
    .allowed.join(", ")
)]
pub struct ParseWordError {
    /// What kind of word was expected, for example `"flag"`.
    pub what: &'static str,
    /// The word that was given.
    pub word: String,
    /// Every allowed word, in the list's order.
    pub allowed: &'static [&'static str],
}

/// Defines a word enum: the variants with their spelling, `ALL`, `WORDS`,
/// `as_str`, `Display`, `FromStr` and serde's `Deserialize` (from the
/// word, so a YAML file that misspells one is refused at its line). One
/// macro keeps every word list identical in shape, which the schema test,
/// the fault model and the runner rely on.
macro_rules! word_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident ($what:literal) {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every value, in the order the format documents them.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The spelling of every value, in the same order as `ALL`.
            pub const WORDS: &'static [&'static str] = &[$($text,)+];

            /// The value's spelling in YAML files and on the protocol.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::core::str::FromStr for $name {
            type Err = $crate::ParseWordError;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err($crate::ParseWordError {
                        what: $what,
                        word: s.to_owned(),
                        allowed: Self::WORDS,
                    }),
                }
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let word = <::std::string::String as ::serde::Deserialize>::deserialize(deserializer)?;
                word.parse().map_err(::serde::de::Error::custom)
            }
        }
    };
}

pub(crate) use word_enum;

word_enum! {
    /// Which wire type a vector exercises (YAML field `type`).
    pub enum GuidType ("GUID type") {
        /// `packed_guid`: a mask byte, then one byte for each set mask bit.
        PackedGuid = "packed_guid",
        /// `named_guid`: a little-endian `u64`, then a NUL-terminated UTF-8
        /// name when the GUID is not zero.
        NamedGuid = "named_guid",
    }
}

word_enum! {
    /// What the implementation under test is asked to do (YAML field `op`).
    pub enum Op ("operation") {
        /// `decode`: read one value from the front of the input bytes.
        Decode = "decode",
        /// `encode`: write one value.
        Encode = "encode",
        /// `size`: say how many bytes the encoding of one value takes,
        /// without writing it (the value as `encode` takes it; refused
        /// where `encode` refuses it).
        Size = "size",
    }
}

word_enum! {
    /// How an implementation's answer is judged (YAML field `outcome`).
    pub enum Outcome ("outcome") {
        /// `valid`: the implementation must succeed with exactly the expected value.
        Valid = "valid",
        /// `invalid`: the implementation must fail (with the expected error
        /// code when error codes are checked strictly).
        Invalid = "invalid",
        /// `acceptable`: the spec is silent; succeeding with the expected value
        /// and failing with any error are both conformant.
        Acceptable = "acceptable",
    }
}

word_enum! {
    /// Why an operation failed: the error vocabulary shared by the vectors and
    /// the runner's protocol.
    pub enum ErrorCode ("error code") {
        /// `eof`: the input ended inside the value (empty input, a mask that
        /// promises more bytes than there are, a GUID shorter than 8 bytes, a
        /// name without its terminating NUL).
        Eof = "eof",
        /// `invalid_utf8`: a name is not valid UTF-8.
        InvalidUtf8 = "invalid_utf8",
        /// `interior_nul`: a name to encode contains a NUL byte.
        InteriorNul = "interior_nul",
        /// `name_without_guid`: a name was given with GUID 0, which never
        /// carries one.
        NameWithoutGuid = "name_without_guid",
        /// `name_too_long`: a name is longer than the implementation's bound.
        /// Only names of [`crate::NAME_BOUND_FLOOR`] bytes or more may be
        /// refused this way (see [`crate::Request::may_refuse_as_too_long`]).
        NameTooLong = "name_too_long",
        /// `other`: any other failure.
        Other = "other",
    }
}

word_enum! {
    /// A client version whose protocol uses the type as the vector exercises
    /// it (YAML field `versions`).
    pub enum Version ("version") {
        /// `vanilla`: 1.12.
        Vanilla = "vanilla",
        /// `tbc`: 2.4.3.
        Tbc = "tbc",
        /// `wrath`: 3.3.5.
        Wrath = "wrath",
    }
}

impl GuidType {
    /// The versions whose messages contain this type: `PackedGuid` is used by
    /// all three, `NamedGuid` only by TBC and Wrath (`SMSG_MESSAGECHAT`,
    /// `SMSG_GM_MESSAGECHAT`). A vector may not claim any other version.
    #[must_use]
    pub const fn versions(self) -> &'static [Version] {
        match self {
            GuidType::PackedGuid => &[Version::Vanilla, Version::Tbc, Version::Wrath],
            GuidType::NamedGuid => &[Version::Tbc, Version::Wrath],
        }
    }
}

word_enum! {
    /// What a vector is about (YAML field `flags`), so a runner can select or
    /// report by topic and a reader can find every vector that guards against
    /// one bug.
    pub enum Flag ("flag") {
        /// `doc-example`: the worked example of the spec text, or its twin.
        DocExample = "doc-example",
        /// `zero-guid`: GUID 0 (packed: the single byte `00`; named: no name follows).
        ZeroGuid = "zero-guid",
        /// `max-guid`: GUID `ffffffffffffffff`, every byte present.
        MaxGuid = "max-guid",
        /// `single-byte`: exactly one GUID byte is present (a one-bit mask).
        SingleByte = "single-byte",
        /// `mask-sweep`: part of the sweep over all 256 mask values.
        MaskSweep = "mask-sweep",
        /// `non-canonical`: packed input that is not the shortest form (a mask
        /// bit set for a `00` byte); decoders accept it, encoders never write it.
        NonCanonical = "non-canonical",
        /// `trailing-bytes`: the input goes on after the value; those bytes
        /// belong to the next field and must be left alone.
        TrailingBytes = "trailing-bytes",
        /// `truncated`: the input ends inside the value.
        Truncated = "truncated",
        /// `empty-input`: the input has no bytes at all.
        EmptyInput = "empty-input",
        /// `sign-bit`: a GUID byte `>= 0x80`, which the spec's C snippet
        /// sign-extends (int promotion before the shift).
        SignBit = "sign-bit",
        /// `mask-as-count`: tells a correct decoder from one that reads the
        /// mask as a byte count instead of a bit set.
        MaskAsCount = "mask-as-count",
        /// `stateful`: one step of an ordered sequence that catches
        /// implementations keeping state between calls; the vector names
        /// its sequence in [`Vector::sequence`](crate::Vector::sequence).
        Stateful = "stateful",
        /// `empty-name`: a non-zero GUID whose name has no bytes.
        EmptyName = "empty-name",
        /// `utf8`: a name with multi-byte UTF-8 characters.
        Utf8 = "utf8",
        /// `invalid-utf8`: a name that is not valid UTF-8.
        InvalidUtf8 = "invalid-utf8",
        /// `missing-nul`: a name that is not terminated before the input ends.
        MissingNul = "missing-nul",
        /// `long-name`: a name of 255 bytes or more, around the 256-byte cap
        /// that one widely used implementation applies (and then swallows a byte).
        LongName = "long-name",
        /// `interior-nul`: a name to encode that contains a NUL byte.
        InteriorNul = "interior-nul",
        /// `name-without-guid`: a name given with GUID 0.
        NameWithoutGuid = "name-without-guid",
        /// `no-name`: a non-zero GUID given without any name.
        NoName = "no-name",
        /// `nul-in-guid`: a named GUID whose bytes hold a `00` before a
        /// non-zero byte, which a decoder must not take for the zero GUID or
        /// the name's terminator.
        NulInGuid = "nul-in-guid",
        /// `fault-cell`: built for a cell of the fault model
        /// (`vectors/fault-model.yaml`): one class, one fault or pair of
        /// faults, one length.
        FaultCell = "fault-cell",
        /// `generated`: written by the generator (`vectors/generated/`), not by hand.
        Generated = "generated",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_round_trips() {
        for flag in Flag::ALL {
            assert_eq!(flag.as_str().parse::<Flag>(), Ok(*flag));
            assert_eq!(flag.to_string(), flag.as_str());
        }
        for version in Version::ALL {
            assert_eq!(version.as_str().parse::<Version>(), Ok(*version));
        }
        for code in ErrorCode::ALL {
            assert_eq!(code.as_str().parse::<ErrorCode>(), Ok(*code));
        }
        assert_eq!(Flag::ALL.len(), Flag::WORDS.len());
    }

    #[test]
    fn unknown_word_names_it_and_the_allowed_ones() {
        let err = "dcode".parse::<Op>().unwrap_err();
        assert_eq!(err.word, "dcode");
        assert_eq!(
            err.to_string(),
            "unknown operation `dcode`; did you mean `decode`? expected one of: decode, encode, size"
        );
        let err = "nul-in-gud".parse::<Flag>().unwrap_err();
        assert!(
            err.to_string().starts_with(
                "unknown flag `nul-in-gud`; did you mean `nul-in-guid`? expected one of: "
            ),
            "{err}"
        );
        let err = "frobnicate".parse::<Flag>().unwrap_err();
        assert!(!err.to_string().contains("did you mean"), "{err}");
    }

    #[test]
    fn words_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for word in Flag::WORDS {
            assert!(seen.insert(*word), "flag {word} listed twice");
            assert!(word
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'-' || b.is_ascii_digit()));
        }
    }
}
