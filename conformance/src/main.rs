//! Conformance runner (filled in by the runner issue).
fn main() {}
