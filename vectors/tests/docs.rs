//! Keeps README.md honest: every word of the format's lists and the
//! regeneration commands appear in it, so a spec author reading only the
//! README sees the whole vocabulary.

use wow_guid_vectors::{generate, ErrorCode, Flag, GuidType, Op, Outcome, Version};

const README: &str = include_str!("../README.md");

fn mentions(word: &str) -> bool {
    README.contains(&format!("`{word}`"))
}

#[test]
fn readme_lists_every_word() {
    let lists: [&[&str]; 6] = [
        Flag::WORDS,
        ErrorCode::WORDS,
        GuidType::WORDS,
        Op::WORDS,
        Outcome::WORDS,
        Version::WORDS,
    ];
    for word in lists.into_iter().flatten() {
        assert!(mentions(word), "README.md does not mention `{word}`");
    }
}

#[test]
fn readme_gives_the_regeneration_commands() {
    assert!(README.contains(generate::COMMAND));
    assert!(README.contains(
        generate::CHECK_COMMAND.trim_start_matches("cargo run -p wow-guid-conformance -- ")
    ));
    assert!(README.contains("VECTORS_REGENERATE=1 cargo test -p wow-guid-vectors --test main corpus::generated_files_are_up_to_date"));
}

#[test]
fn readme_layout_names_every_hand_written_file() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in ["packed_guid", "named_guid"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let path = format!("`{dir}/{name}`");
            assert!(README.contains(&path), "README.md layout lacks {path}");
        }
    }
}
