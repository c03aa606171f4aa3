//! The unit tests of `reference`, through the crate's API.

use wow_guid_harness::protocol::Response;
use wow_guid_harness::reference::*;
use wow_guid_vectors::{ErrorCode, Request, Value};

#[test]
fn answers_the_spec_example_and_maps_errors() {
    assert_eq!(
        answer(&Request::DecodePacked {
            bytes: vec![0x0a, 0xde, 0xad]
        }),
        Response::Ok(Value::Packed {
            guid: 0xad00_de00,
            consumed: 3
        })
    );
    assert_eq!(
        answer(&Request::DecodePacked {
            bytes: vec![0x03, 1]
        }),
        Response::Error(ErrorCode::Eof)
    );
    assert_eq!(
        answer(&Request::EncodePacked { guid: 0 }),
        Response::Ok(Value::Encoded { bytes: vec![0] })
    );
    assert_eq!(
        answer(&Request::DecodeNamed {
            bytes: vec![1, 0, 0, 0, 0, 0, 0, 0, b'a']
        }),
        Response::Error(ErrorCode::Eof)
    );
    assert_eq!(
        answer(&Request::DecodeNamed {
            bytes: vec![1, 0, 0, 0, 0, 0, 0, 0, 0xff, 0]
        }),
        Response::Error(ErrorCode::InvalidUtf8)
    );
    assert_eq!(
        answer(&Request::DecodeNamed { bytes: vec![0; 8] }),
        Response::Ok(Value::Named {
            guid: 0,
            consumed: 8,
            name: None
        })
    );
    let enc = |guid, name: Option<&[u8]>| {
        answer(&Request::EncodeNamed {
            guid,
            name: name.map(<[u8]>::to_vec),
        })
    };
    assert_eq!(
        enc(0, Some(b"x")),
        Response::Error(ErrorCode::NameWithoutGuid)
    );
    assert_eq!(enc(1, None), Response::Error(ErrorCode::Other));
    assert_eq!(
        enc(1, Some(b"a\0")),
        Response::Error(ErrorCode::InteriorNul)
    );
    assert_eq!(
        enc(1, Some(b"\xff")),
        Response::Error(ErrorCode::InvalidUtf8)
    );
    assert_eq!(
        enc(2, Some(b"")),
        Response::Ok(Value::Encoded {
            bytes: vec![2, 0, 0, 0, 0, 0, 0, 0, 0]
        })
    );
    assert_eq!(
        enc(0, None),
        Response::Ok(Value::Encoded { bytes: vec![0; 8] })
    );
}
