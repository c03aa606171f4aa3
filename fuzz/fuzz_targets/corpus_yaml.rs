//! Raw bytes as a vector file of a corpus passed with `--vectors`: any bytes
//! give a corpus or errors, each located inside the file (a line of the
//! text, a column of that line), and never a panic. The memory a file may
//! cost is bounded by its size: run this target with libFuzzer's
//! `-rss_limit_mb` and `-malloc_limit_mb` (see `../README.md`), which fail
//! any input that allocates past them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wow_guid_vectors::Corpus;

const NAME: &str = "fuzz.yaml";

fuzz_target!(|input: &[u8]| {
    let lines = yaml_lines(input);
    match Corpus::from_byte_sources(&[(NAME, input)]) {
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

/// The lines of `text` as YAML counts them: `\n`, `\r\n` and a lone `\r`
/// each end one.
fn yaml_lines(text: &[u8]) -> usize {
    let mut lines = 1;
    for (i, &b) in text.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && text.get(i + 1) != Some(&b'\n')) {
            lines += 1;
        }
    }
    lines
}
