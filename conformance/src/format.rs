//! Formats chosen by name on the command line (`--format json`): each
//! command that has several lists them in one table of [`Named`] formats,
//! each a type implementing the harness's one shape of an output format
//! ([`wow_guid_harness::report::Format`]), so a new format is its file, one
//! line in its command's table, and a test.

/// A format in a command's table of formats, chosen by its name (`--format
/// json`): a new format is its file, one line in the table, and a test.
pub struct Named<F: ?Sized + 'static> {
    /// The name a command line chooses it by.
    pub name: &'static str,
    /// What it writes, in a few words, for the command's help.
    pub about: &'static str,
    /// The format.
    pub format: &'static F,
}

impl<F: ?Sized> Named<F> {
    /// The format named `name` in `table`.
    ///
    /// # Errors
    /// [`UnknownFormat`], naming every format of the table.
    pub fn find(table: &'static [Named<F>], name: &str) -> Result<&'static Self, UnknownFormat> {
        table
            .iter()
            .find(|named| named.name == name)
            .ok_or_else(|| UnknownFormat {
                name: name.to_owned(),
                known: table.iter().map(|n| (n.name, n.about)).collect(),
            })
    }
}

impl<F: ?Sized> std::fmt::Debug for Named<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// A format name that is not in a command's table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown format `{}`; expected {}", .name.escape_debug(), known_list(.known))]
pub struct UnknownFormat {
    /// The name given.
    pub name: String,
    /// The table's formats: name and what each writes.
    pub known: Vec<(&'static str, &'static str)>,
}

/// The formats of a table as a message lists them: `` `name` (what it
/// writes) ``, joined with "or".
fn known_list(known: &[(&str, &str)]) -> String {
    let known: Vec<String> = known
        .iter()
        .map(|(name, about)| format!("`{name}` ({about})"))
        .collect();
    known.join(" or ")
}
