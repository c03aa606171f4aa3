//! The one way the request generators draw a weighted choice, shared by
//! the request and name generators.

use arbitrary::Unstructured;

/// A drawn value, or the generator's input ran out.
pub type Draw<T> = arbitrary::Result<T>;

/// One of `table`'s values, each as likely as its weight.
pub fn weighted<T: Copy>(u: &mut Unstructured<'_>, table: &[(u32, T)]) -> Draw<T> {
    let total: u32 = table.iter().map(|(w, _)| w).sum();
    let mut x = u.int_in_range(0..=total.saturating_sub(1))?;
    for &(w, value) in table {
        if x < w {
            return Ok(value);
        }
        x -= w;
    }
    Ok(table[table.len() - 1].1)
}
