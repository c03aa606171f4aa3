//! The generic properties hold on the reference and catch planted bugs.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};

use wow_guid_testkit::generate::{AnyRequest, EncodeRequest};
use wow_guid_testkit::properties::{decode, differential, round_trip};
use wow_guid_testkit::Reference;
use wow_guid_vectors::Request;

use crate::codecs::{Bounded, TopByteLost, BOUND};

#[test]
fn the_reference_holds_every_property_on_generated_requests() {
    bolero::check!()
        .with_arbitrary::<AnyRequest>()
        .for_each(|AnyRequest(request)| {
            let request = &request;
            decode(&Reference, request);
            round_trip(&Reference, request);
            differential(&Reference, request);
        });
}

/// bolero's inputs under `cargo test` reach names past 256 bytes through
/// the generators (its default inputs alone never do).
#[test]
fn bolero_reaches_names_past_the_bound() {
    static LONGEST: AtomicUsize = AtomicUsize::new(0);
    bolero::check!()
        .with_arbitrary::<EncodeRequest>()
        .for_each(|EncodeRequest(request)| {
            if let Request::EncodeNamed {
                name: Some(name), ..
            } = request
            {
                LONGEST.fetch_max(name.len(), Ordering::Relaxed);
            }
        });
    assert!(LONGEST.load(Ordering::Relaxed) > BOUND);
}

#[test]
fn round_trip_finds_the_bound_mismatch_and_differential_does_not() {
    let request = Request::EncodeNamed {
        guid: 1,
        name: Some(vec![b'a'; BOUND + 1]),
    };
    differential(&Bounded, &request);
    let panic = catch_unwind(AssertUnwindSafe(|| round_trip(&Bounded, &request)))
        .expect_err("the round trip fails");
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("writes what it cannot read"), "{message}");
}

#[test]
fn differential_finds_a_wrong_decoder() {
    let request = Request::DecodePacked {
        bytes: vec![0x80, 0x01],
    };
    decode(&TopByteLost, &request);
    let panic = catch_unwind(AssertUnwindSafe(|| differential(&TopByteLost, &request)))
        .expect_err("the answer differs");
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        message.contains("differs from the reference codec"),
        "{message}"
    );
}
