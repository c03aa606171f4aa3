//! Hand-built vectors for the tests of the harness and of the runner (whose
//! tests include this file by path).

use wow_guid_vectors::{ErrorCode, Expectation, Location, Request, Value};
use wow_guid_vectors::{Flag, Vector, Version};

/// A small hand-built corpus for unit tests across the crates.
pub fn sample() -> Vec<Vector> {
    let v = |id: &str,
             request: Request,
             expect: Expectation,
             flags: Vec<Flag>,
             versions: Vec<Version>| Vector {
        id: id.into(),
        sequence: None,
        description: format!("sample {id}"),
        request,
        expect,
        flags: flags.into(),
        versions: versions.into(),
        source: None,
        location: Location {
            file: "sample.yaml".into(),
            line: 1,
            column: 5,
        },
    };
    let all = || vec![Version::Vanilla, Version::Tbc, Version::Wrath];
    vec![
        v(
            "packed.decode.doc-example",
            Request::DecodePacked {
                bytes: vec![0x0a, 0xde, 0xad],
            },
            Expectation::Valid(Value::Packed {
                guid: 0xad00_de00,
                consumed: 3,
            }),
            Flag::ALL.iter().take(1).copied().collect(),
            all(),
        ),
        v(
            "packed.decode.empty",
            Request::DecodePacked { bytes: vec![] },
            Expectation::Invalid(ErrorCode::Eof),
            vec![],
            all(),
        ),
        v(
            "packed.encode.zero",
            Request::EncodePacked { guid: 0 },
            Expectation::Valid(Value::Encoded { bytes: vec![0] }),
            vec![],
            all(),
        ),
        v(
            "named.decode.zero",
            Request::DecodeNamed { bytes: vec![0; 8] },
            Expectation::Valid(Value::Named {
                guid: 0,
                consumed: 8,
                name: None,
            }),
            vec![],
            vec![Version::Tbc, Version::Wrath],
        ),
        v(
            "named.encode.name-without-guid",
            Request::EncodeNamed {
                guid: 0,
                name: Some(b"x".to_vec()),
            },
            Expectation::Invalid(ErrorCode::NameWithoutGuid),
            vec![],
            vec![Version::Tbc, Version::Wrath],
        ),
    ]
}

/// Steps 1 and 2 form sequence `s`; step 3 of another file is alone.
pub fn with_a_sequence() -> Vec<Vector> {
    let mut vectors = sample();
    for v in &mut vectors[1..3] {
        v.flags = [Flag::Stateful].into();
        v.sequence = Some("s".into());
    }
    vectors[3].location.file = "other.yaml".into();
    vectors
}
