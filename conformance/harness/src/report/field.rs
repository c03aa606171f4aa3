//! How a long field (a request, the expected response, the response) is
//! shown in a text report, the one rule of `run`, `repro` and `fuzz`: a
//! 4 KiB name costs a line, not three walls of hex. JSON and JUnit keep
//! fields whole.
//!
//! A field of at most 200 characters is shown whole; a longer one keeps its
//! first 80 (the id and the request's words), then from 24 characters
//! before its first difference from the field it is compared with to 40
//! past it, `…` where characters are left out, and in brackets what was
//! shown, where the first difference is, and both lengths.

/// Fields up to this many characters are shown whole.
const MAX_CHARS: usize = 200;
/// Characters kept from the start of a long field.
const HEAD: usize = 80;
/// Characters of context kept before the first difference.
const BEFORE: usize = 24;
/// Characters kept from the first difference on.
const AFTER: usize = 40;

/// `text` as a text report shows it; `other` is the field it is compared
/// with, by name (`("expected", line)`), if any.
#[must_use]
pub fn shown(text: &str, other: Option<(&str, &str)>) -> String {
    let chars: Vec<char> = text.chars().collect();
    let len = chars.len();
    if len <= MAX_CHARS {
        return text.to_owned();
    }
    let difference = other.map(|(name, other)| {
        let other: Vec<char> = other.chars().collect();
        let at = chars
            .iter()
            .zip(&other)
            .position(|(a, b)| a != b)
            .unwrap_or(len.min(other.len()));
        (name, at, other.len())
    });
    let span = |from: usize, to: usize| chars[from..to].iter().collect::<String>();
    let mut out = String::new();
    let mut note = format!("{len} characters; shown:");
    match difference {
        Some((_, at, _)) if at > HEAD + BEFORE => {
            let (from, to) = (at - BEFORE, (at + AFTER).min(len));
            out.push_str(&span(0, HEAD));
            out.push('…');
            out.push_str(&span(from, to));
            note.push_str(&format!(" 0-{HEAD}, {from}-{to}"));
            if to < len {
                out.push('…');
            }
        }
        _ => {
            let at = difference.map_or(0, |(_, at, _)| at);
            let to = HEAD.max(at + AFTER).min(len);
            out.push_str(&span(0, to));
            out.push('…');
            note.push_str(&format!(" 0-{to}"));
        }
    }
    if let Some((name, at, other_len)) = difference {
        note.push_str(&format!(
            "; first difference from {name} at {at}, which has {other_len}"
        ));
    }
    format!("{out} [{note}]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_field_is_whole() {
        let text = "a".repeat(MAX_CHARS);
        assert_eq!(shown(&text, None), text);
        assert_eq!(shown(&text, Some(("expected", "b"))), text);
    }

    #[test]
    fn a_long_field_shows_its_head_and_the_window_around_the_difference() {
        let expected = format!("id ok {}", "41".repeat(4096));
        let mut got = expected.clone();
        got.replace_range(6001..6002, "2");
        let text = shown(&got, Some(("expected", &expected)));
        assert!(text.len() < 260, "{text}");
        assert!(text.starts_with(&got[..HEAD]), "{text}");
        assert!(
            text.contains(&format!("…{}…", &got[6001 - BEFORE..6001 + AFTER])),
            "{text}"
        );
        assert!(
            text.ends_with(&format!(
                "[{} characters; shown: 0-{HEAD}, {}-{}; first difference from expected at 6001, which has {}]",
                got.len(),
                6001 - BEFORE,
                6001 + AFTER,
                expected.len()
            )),
            "{text}"
        );
    }

    #[test]
    fn a_difference_near_the_start_or_end_and_no_difference() {
        let long = "x".repeat(500);
        let early = format!("y{}", &long[1..]);
        assert_eq!(
            shown(&early, Some(("got", &long))),
            format!(
                "y{}… [500 characters; shown: 0-{HEAD}; first difference from got at 0, which has 500]",
                &long[1..HEAD]
            )
        );
        // Equal up to where the shorter ends: the window reaches the end.
        let longer = format!("{long}zz");
        let text = shown(&longer, Some(("expected", &long)));
        assert!(text.ends_with(&format!("{}zz [502 characters; shown: 0-{HEAD}, {}-502; first difference from expected at 500, which has 500]", &long[500 - BEFORE..], 500 - BEFORE)), "{text}");
        assert_eq!(
            shown(&long, None),
            format!("{}… [500 characters; shown: 0-{HEAD}]", &long[..HEAD])
        );
    }
}
