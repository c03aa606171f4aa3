//! Untrusted text made safe for a terminal: the one place that decides how.
//!
//! Much of what the runner prints was written by someone else (an
//! implementation's stderr and answers, an implementations file, an
//! expected-failure list or id file, a `--vectors` corpus), and may hold
//! escape sequences (a window title, a clipboard write, a cleared screen) or
//! invisible controls that make one text look like another. Every such
//! string is escaped here ([`escape_bounded`] for one that may be long)
//! before it is printed or put in an error message, terminal or not (a log
//! is read on one later). HTML and Markdown have their own escapers.

/// Spells out every character of `text` that could act on a terminal: every
/// control character but newline and tab (as `\r`, `\xNN`, or `\u{NN}` for
/// the C1 range), and the invisible controls that reorder or hide text
/// (bidirectional embeddings, overrides, isolates and marks, the Unicode
/// line and paragraph separators). The text stays readable; nothing in it
/// can move the cursor, recolour output or pass for another text.
#[must_use]
pub(crate) fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            '\r' => out.push_str("\\r"),
            '\0'..='\x1f' | '\x7f' => out.push_str(&format!("\\x{:02x}", u32::from(c))),
            '\u{80}'..='\u{9f}'
            | '\u{061c}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}' => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            _ => out.push(c),
        }
    }
    out
}

/// [`escape_controls`] for a one-line field (a name, an id, a comment):
/// newlines and tabs are spelled out too, so the text cannot start a line
/// of its own that looks like the runner's.
#[must_use]
pub(crate) fn escape_line(text: &str) -> String {
    escape_controls(text)
        .replace('\n', "\\n")
        .replace('\t', "\\t")
}

/// `text` escaped for one line of a terminal (newlines and tabs too), cut after
/// `max_chars` characters with its length, so a 100 MB id costs a line.
#[must_use]
pub fn escape_bounded(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        None => escape_line(text),
        Some((cut, _)) => format!(
            "{}... ({} bytes in all)",
            escape_line(&text[..cut]),
            text.len()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_that_would_act_on_a_terminal_are_spelled_out() {
        let written = "ok\tfine\n\x1b[2J\x1b]0;title\x07cleared\rover\x08x\n\
                       \u{202e}txt.exe\u{2066}\u{9b}31m é\n";
        assert_eq!(
            escape_controls(written),
            "ok\tfine\n\\x1b[2J\\x1b]0;title\\x07cleared\\rover\\x08x\n\
             \\u{202e}txt.exe\\u{2066}\\u{9b}31m é\n"
        );
    }

    #[test]
    fn one_line_fields_keep_to_one_line() {
        assert_eq!(
            escape_line("a\nb\tc\x1b]52;c;aGk=\x07"),
            "a\\nb\\tc\\x1b]52;c;aGk=\\x07"
        );
    }

    #[test]
    fn long_text_is_cut_with_its_length() {
        let id = "\0".repeat(1000);
        let shown = escape_bounded(&id, 8);
        assert_eq!(
            shown,
            format!("{}... (1000 bytes in all)", "\\x00".repeat(8))
        );
        assert_eq!(escape_bounded("short", 8), "short");
        assert_eq!(escape_bounded("ééé", 2), "éé... (6 bytes in all)");
    }
}
