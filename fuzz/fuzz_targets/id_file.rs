//! Raw bytes as an id file (`--id-file`), read as the runner reads it (the
//! expected-failure list's syntax) and turned into the selection it makes
//! over a small corpus: it selects exactly the listed ids, and errors, when
//! there are some, stay bounded.
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;
use wow_guid_harness::{
    expect_fail::ExpectedFailures,
    select::{IdSet, Selection},
};
use wow_guid_vectors::{Corpus, Vector};

/// A dozen vectors of the embedded corpus: enough for the selection to
/// have something to leave out, few enough to keep each input cheap.
static VECTORS: LazyLock<Vec<Vector>> = LazyLock::new(|| {
    let corpus = Corpus::embedded().expect("the embedded corpus loads");
    corpus.vectors.into_iter().take(12).collect()
});

fuzz_target!(|input: &[u8]| {
    let Ok(text) = std::str::from_utf8(input) else {
        return;
    };
    let vectors = &*VECTORS;
    let ids = vectors.iter().map(|v| v.id.as_str());
    match ExpectedFailures::parse("ids.txt", text, ids) {
        Ok(list) => {
            let listed: HashSet<String> = list.entries.into_keys().collect();
            let mut selection = Selection::all();
            selection.id_sets.push(IdSet {
                origin: "--id-file ids.txt".into(),
                ids: listed.clone(),
            });
            let selected: HashSet<String> = selection
                .apply(vectors)
                .into_iter()
                .map(|v| v.id.clone())
                .collect();
            assert_eq!(selected, listed);
        }
        Err(errors) => {
            let message = errors.to_string();
            assert!(
                message.len() <= 16 * 1024,
                "{} bytes of message",
                message.len()
            );
        }
    }
});
