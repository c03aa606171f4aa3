//! A vector's `input`: the request an implementation is sent, whose fields
//! depend on the vector's type and operation.

use serde_saphyr::Spanned;

use super::super::fields::{input_fields, INPUT_FIELDS};
use super::super::tree::Node;
use super::Reader;
use crate::error::Section;
use crate::model::Request;
use crate::vocab::{GuidType, Op};

impl Reader<'_> {
    /// The `input` mapping; without a known type and op only its keys are checked.
    pub(super) fn input(
        &mut self,
        node: &Spanned<Node>,
        kind: Option<(GuidType, Op)>,
    ) -> Option<Request> {
        let allowed = kind.map_or(INPUT_FIELDS, |(t, o)| input_fields(t, o));
        let fields = self.fields(node, "input", Section::Input(kind), INPUT_FIELDS, allowed)?;
        let (guid_type, op) = kind?;
        match op {
            Op::Decode => {
                let bytes = self.required_as(&fields, "bytes", Self::hex)?;
                Some(match guid_type {
                    GuidType::PackedGuid => Request::DecodePacked { bytes },
                    GuidType::NamedGuid => Request::DecodeNamed { bytes },
                })
            }
            Op::Encode | Op::Size => {
                let guid = self.required_as(&fields, "guid", Self::guid);
                let name = self.optional(&fields, "name", Self::hex)?;
                let guid = guid?;
                Some(match (guid_type, op) {
                    (GuidType::PackedGuid, Op::Size) => Request::SizePacked { guid },
                    (GuidType::NamedGuid, Op::Size) => Request::SizeNamed { guid, name },
                    (GuidType::PackedGuid, _) => Request::EncodePacked { guid },
                    (GuidType::NamedGuid, _) => Request::EncodeNamed { guid, name },
                })
            }
        }
    }
}
