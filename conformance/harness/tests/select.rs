//! The unit tests of `select`, through the crate's API.

use crate::fixtures::{sample, with_a_sequence};
use wow_guid_harness::select::*;
use wow_guid_vectors::{Flag, GuidType, Op, Vector, Version};

fn ids(sel: &Selection, vectors: &[Vector]) -> Vec<String> {
    sel.apply(vectors).iter().map(|v| v.id.clone()).collect()
}

#[test]
fn filters_combine_with_and_across_kinds_and_or_within() {
    let vectors = sample();
    assert_eq!(ids(&Selection::all(), &vectors).len(), 5);
    let sel = Selection::all()
        .with_id_patterns(&["packed.*".into()])
        .unwrap();
    assert_eq!(ids(&sel, &vectors).len(), 3);
    let mut sel = sel;
    sel.ops = vec![Op::Encode];
    assert_eq!(ids(&sel, &vectors), ["packed.encode.zero"]);
    let mut sel = Selection::all()
        .with_id_patterns(&["*.zero".into(), "*.empty".into()])
        .unwrap();
    assert_eq!(ids(&sel, &vectors).len(), 3);
    sel.types = vec![GuidType::NamedGuid];
    assert_eq!(ids(&sel, &vectors), ["named.decode.zero"]);
    let mut sel = Selection::all();
    sel.versions = vec![Version::Vanilla];
    assert_eq!(ids(&sel, &vectors).len(), 3);
    let mut sel = Selection::all();
    sel.flags = vec![Flag::ALL[0]];
    assert_eq!(ids(&sel, &vectors), ["packed.decode.doc-example"]);
}

#[test]
fn every_id_list_must_hold_the_id() {
    let vectors = sample();
    let set = |ids: &[&str]| IdSet {
        origin: "test".into(),
        ids: ids.iter().map(|&id| id.to_owned()).collect(),
    };
    let mut sel = Selection::all();
    sel.id_sets = vec![set(&["packed.decode.empty", "named.decode.zero"])];
    assert_eq!(
        ids(&sel, &vectors),
        ["packed.decode.empty", "named.decode.zero"]
    );
    sel.id_sets
        .push(set(&["named.decode.zero", "packed.encode.zero"]));
    assert_eq!(ids(&sel, &vectors), ["named.decode.zero"]);
    sel.types = vec![GuidType::PackedGuid];
    assert!(ids(&sel, &vectors).is_empty());
}

#[test]
fn sequences_are_selected_whole_and_only_by_name() {
    let vectors = with_a_sequence();
    let sel = Selection::all()
        .with_id_patterns(&["packed.encode.zero".into()])
        .unwrap();
    assert_eq!(
        ids(&sel, &vectors),
        ["packed.decode.empty", "packed.encode.zero"]
    );
    // Neighbours flagged alike, but not named alike, are not pulled in.
    let mut vectors = vectors;
    vectors[0].flags = [Flag::Stateful].into();
    vectors[0].sequence = Some("t".into());
    assert_eq!(
        ids(&sel, &vectors),
        ["packed.decode.empty", "packed.encode.zero"]
    );
}

/// The corpus's packed sequences sit side by side in one file; selecting
/// encodes takes the encode sequence and nothing of the decode one.
#[test]
fn an_encode_selection_pulls_no_decode_into_a_sequence() {
    let corpus = wow_guid_vectors::Corpus::embedded().unwrap();
    let mut sel = Selection::all()
        .with_id_patterns(&["packed.encode.stateful.03-zero".into()])
        .unwrap();
    sel.ops = vec![Op::Encode];
    let chosen = sel.apply(&corpus.vectors);
    assert_eq!(chosen.len(), 8);
    assert!(chosen.iter().all(|v| v.request.op() == Op::Encode));
    let mut sel = Selection::all();
    sel.ops = vec![Op::Encode];
    assert!(sel
        .apply(&corpus.vectors)
        .iter()
        .all(|v| v.request.op() == Op::Encode));
}

#[test]
fn a_bad_glob_is_an_error() {
    let err = Selection::all()
        .with_id_patterns(&["packed.[".into()])
        .unwrap_err();
    assert_eq!(err.pattern, "packed.[");
    assert!(err.to_string().starts_with("bad id pattern `packed.[`"));
}
