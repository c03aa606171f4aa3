//! Spelling commands so that a person can paste them into a POSIX shell:
//! reports show the implementation's command and a reproduction command for
//! every failure. Pure string work.

use std::ffi::OsString;

/// Quotes `word` for a POSIX shell, leaving plain words as they are.
#[must_use]
pub fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// A command line as a shell user would type it.
#[must_use]
pub fn words(command: &[OsString]) -> String {
    command
        .iter()
        .map(|w| quote(&w.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_what_needs_it() {
        assert_eq!(quote("python3"), "python3");
        assert_eq!(
            quote("adapters/python/adapter.py"),
            "adapters/python/adapter.py"
        );
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(
            words(&["python3".into(), "my adapter.py".into()]),
            "python3 'my adapter.py'"
        );
    }
}
