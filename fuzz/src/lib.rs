//! What more than one of the runner's fuzz targets needs: a counting
//! allocator, so a target can bound what an input costs on the heap
//! ([`peak`]), and YAML's count of a text's lines ([`yaml_lines`]).
//!
//! The targets themselves are the `[[bin]]`s in `fuzz_targets/`.

pub mod peak;
pub mod yaml_lines;
