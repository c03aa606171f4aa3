//! How many lines a YAML text has, for the targets that check an error's
//! line lies inside the file.

/// The lines of `text` as YAML counts them: `\n`, `\r\n` and a lone `\r`
/// each end one.
pub fn yaml_lines(text: &[u8]) -> usize {
    let mut lines = 1;
    for (i, &b) in text.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && text.get(i + 1) != Some(&b'\n')) {
            lines += 1;
        }
    }
    lines
}
