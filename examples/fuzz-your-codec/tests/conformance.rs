//! The codec against the wow-guid corpus and the testkit's properties.
//! Run with `cargo test --features testkit`.

use std::sync::atomic::{AtomicUsize, Ordering};

use my_guid_codec::testkit::MyCodec;
use wow_guid_testkit::generate::AnyRequest;
use wow_guid_testkit::properties::{decode, differential, round_trip};
use wow_guid_vectors::Request;

/// Every vector, judged as the runner's `run` judges, failures grouped by
/// cause; then every encode's own round trip.
#[test]
fn corpus() {
    wow_guid_testkit::corpus::assert_corpus(&MyCodec);
}

/// The properties on requests from the fault model, with bolero (under
/// `cargo test`, a few thousand random inputs; `cargo bolero test` fuzzes).
#[test]
fn properties() {
    static LONGEST_NAME: AtomicUsize = AtomicUsize::new(0);
    bolero::check!()
        .with_arbitrary::<AnyRequest>()
        .for_each(|AnyRequest(request)| {
            if let Request::EncodeNamed {
                name: Some(name), ..
            } = request
            {
                LONGEST_NAME.fetch_max(name.len(), Ordering::Relaxed);
            }
            decode(&MyCodec, request);
            round_trip(&MyCodec, request);
            differential(&MyCodec, request);
        });
    let longest = LONGEST_NAME.load(Ordering::Relaxed);
    println!("longest name encoded: {longest} bytes");
    assert!(
        longest > my_guid_codec::MAX_NAME,
        "names past the bound: {longest}"
    );
}
