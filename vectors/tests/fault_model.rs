//! The corpus holds the fault model: every cell of `fault-model.yaml` has a
//! vector (hand-written or generated, told apart by nothing but bytes), and
//! every vector with faults expects the code the model gives them.

use std::path::Path;

use wow_guid_vectors::fault_model::{coordinates, FaultModel};
use wow_guid_vectors::Corpus;

fn corpus() -> Corpus {
    Corpus::load_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|errors| panic!("{errors}"))
}

#[test]
fn every_cell_of_the_fault_model_has_a_vector() {
    let model = FaultModel::load().unwrap_or_else(|e| panic!("{e}"));
    let corpus = corpus();
    let missing = model.missing(&corpus.vectors);
    assert!(
        missing.is_empty(),
        "{} of {} cells of vectors/fault-model.yaml have no vector:\n{}",
        missing.len(),
        model.cells().len(),
        missing
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn a_missing_vector_leaves_its_cell_uncovered() {
    // The test above can fail: take away the vectors of one cell and it is
    // reported.
    let model = FaultModel::load().unwrap_or_else(|e| panic!("{e}"));
    let corpus = corpus();
    let cell = model
        .cells()
        .into_iter()
        .find(|c| c.grid == "named-decode-classes" && c.values.iter().any(|(_, v)| v == "bom"))
        .expect("the model asks for a BOM");
    let without: Vec<_> = corpus
        .vectors
        .into_iter()
        .filter(|v| !(v.request.kind() == cell.request && coordinates(&v.request).covers(&cell)))
        .collect();
    assert!(model.missing(&without).contains(&cell));
}

#[test]
fn every_vector_with_faults_expects_the_models_code() {
    let model = FaultModel::load().unwrap_or_else(|e| panic!("{e}"));
    let wrong = model.disagreements(&corpus().vectors);
    assert!(
        wrong.is_empty(),
        "vectors whose expected error is not the fault model's:\n{}",
        wrong
            .iter()
            .map(|(id, why)| format!("{id}: {why}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_corpus_stays_lean() {
    // A cell needs one vector, not many: the corpus stays under about
    // 5,000 vectors, so an adapter's CI run stays short.
    let count = corpus().vectors.len();
    assert!(count < 5_000, "{count} vectors");
}
