//! One copy of each flag list, version list and source text in a corpus.
//!
//! Why this exists: most vectors repeat a handful of flag lists, version lists
//! and `source` citations (the generated files write the same three for
//! hundreds of vectors). Kept per vector, they were about a sixth of a loaded
//! vector's memory (122 of 681 bytes); kept once and shared, `lint` over a
//! million vectors peaks about 117 MiB lower (the scale benchmark,
//! `conformance/benches/scale.rs`). The loader owns one [`Interner`] for a
//! whole load, so equal values in different files are shared too.
//!
//! It touches nothing but its own sets: values go in, shared handles come out,
//! and equality of the handles is equality of the values, so sharing is never
//! visible to a reader of a [`Vector`](crate::Vector).

use std::collections::HashSet;
use std::hash::Hash;
use std::sync::Arc;

use crate::vocab::{Flag, Version};

/// The shared copies made so far during one load.
#[derive(Debug, Default)]
pub(crate) struct Interner {
    flags: HashSet<Arc<[Flag]>>,
    versions: HashSet<Arc<[Version]>>,
    sources: HashSet<Arc<str>>,
}

/// The shared copy of `value` in `set`, made on first sight.
fn shared<T: ?Sized + Eq + Hash>(set: &mut HashSet<Arc<T>>, value: &T) -> Arc<T>
where
    for<'a> &'a T: Into<Arc<T>>,
{
    if let Some(existing) = set.get(value) {
        return Arc::clone(existing);
    }
    let fresh: Arc<T> = value.into();
    set.insert(Arc::clone(&fresh));
    fresh
}

impl Interner {
    /// The shared copy of a flag list.
    pub(crate) fn flags(&mut self, flags: &[Flag]) -> Arc<[Flag]> {
        shared(&mut self.flags, flags)
    }

    /// The shared copy of a version list.
    pub(crate) fn versions(&mut self, versions: &[Version]) -> Arc<[Version]> {
        shared(&mut self.versions, versions)
    }

    /// The shared copy of a source text.
    pub(crate) fn source(&mut self, source: &str) -> Arc<str> {
        shared(&mut self.sources, source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_values_share_one_copy_and_different_ones_do_not() {
        let mut interner = Interner::default();
        let a = interner.flags(&[Flag::Truncated, Flag::EmptyInput]);
        let b = interner.flags(&[Flag::Truncated, Flag::EmptyInput]);
        let reordered = interner.flags(&[Flag::EmptyInput, Flag::Truncated]);
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &reordered), "order is kept as written");
        assert_eq!(&*reordered, &[Flag::EmptyInput, Flag::Truncated]);

        let v = interner.versions(&[Version::Tbc, Version::Wrath]);
        assert!(Arc::ptr_eq(
            &v,
            &interner.versions(&[Version::Tbc, Version::Wrath])
        ));
        assert!(!Arc::ptr_eq(&v, &interner.versions(&[Version::Tbc])));

        let s = interner.source("a spec sentence");
        assert!(Arc::ptr_eq(&s, &interner.source("a spec sentence")));
        assert_eq!(&*interner.source("another sentence"), "another sentence");
    }
}
