//! Raw bytes as a vector file of a corpus passed with `--vectors`: any bytes
//! give a corpus or errors, each located inside the file (a line of the
//! text, a column of that line), and never a panic. The memory a file may
//! cost is bounded by its size: the target counts the Rust heap
//! (`src/peak.rs`) and fails an input that holds more than 2 MiB and
//! 1 KiB per input byte at once, with or without a sanitizer; libFuzzer's
//! `-rss_limit_mb` and `-malloc_limit_mb` (`fuzz_args` in `../common.sh`)
//! stay as a backstop.
#![no_main]

#[global_allocator]
static ALLOC: wow_guid_fuzz::peak::Counting = wow_guid_fuzz::peak::Counting;

use libfuzzer_sys::fuzz_target;
use wow_guid_fuzz::{peak, yaml_lines::yaml_lines};
use wow_guid_vectors::Corpus;

const NAME: &str = "fuzz.yaml";

fuzz_target!(|input: &[u8]| {
    let lines = yaml_lines(input);
    let loaded = peak::bounded(input.len(), || Corpus::from_byte_sources(&[(NAME, input)]));
    match loaded {
        Ok(corpus) => {
            for vector in &corpus.vectors {
                assert!(!vector.id.is_empty());
            }
        }
        Err(errors) => {
            assert!(!errors.is_empty());
            for error in errors.iter() {
                assert_eq!(&*error.location.file, NAME, "{error}");
                assert!(
                    error.location.line <= lines + 1,
                    "line {} of {lines}: {error}",
                    error.location.line
                );
                let _ = error.to_string();
            }
        }
    }
});
