//! What a SIMD list loop needs of the CPU, and the entry every loop has in
//! the registry.
//!
//! A loop compiled for CPU features may only run where the CPU has them, so
//! each backend states its features once, in one [`x86_features!`] call:
//! the same list is what the backend's `encoder()` or `decoder()` checks
//! before handing the loop out, and what the registry's tests compare with
//! the CPU's own report (`/proc/cpuinfo` on Linux).
//!
//! The bottom of `arch`: the backends and the per-architecture lists build
//! on it, and it imports nothing from them.

/// The CPU features one loop is compiled for, and how to ask this CPU for
/// all of them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Features {
    /// The features as `#[target_feature]` and `is_x86_feature_detected!`
    /// spell them.
    #[cfg_attr(not(test), expect(dead_code, reason = "the registry's tests read it"))]
    pub(crate) names: &'static [&'static str],
    /// Whether this CPU has every one of them. Always true when the crate is
    /// compiled for all of them; asked at run time (and cached by std)
    /// otherwise; false without `std`, which cannot ask.
    pub(crate) detect: fn() -> bool,
}

/// One list loop of a SIMD backend, as the registry lists it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Loop<F> {
    /// The backend's name: its module under `arch/<architecture>/`, and the
    /// name the implementation lists and the benchmarks give it.
    pub(crate) name: &'static str,
    /// What [`Loop::get`] checks.
    #[cfg_attr(not(test), expect(dead_code, reason = "the registry's tests read it"))]
    pub(crate) features: Features,
    /// The loop when this CPU runs it: the backend's public `encoder()` or
    /// `decoder()`.
    pub(crate) get: fn() -> Option<F>,
    /// The shortest list the dispatcher gives the loop: below it a loop
    /// later in the list is as fast (`codec/benches/README.md` has the
    /// measurements).
    pub(crate) min_len: usize,
}

/// [`Features`] for x86 feature names given once: the list, and a check
/// that is `true` at compile time when the crate is built for all of them,
/// `is_x86_feature_detected!` for each otherwise (with `std`), and `false`
/// without `std`.
#[cfg(target_arch = "x86_64")]
macro_rules! x86_features {
    ($($feature:tt),+ $(,)?) => {
        $crate::packed::arch::cpu::Features {
            names: &[$($feature),+],
            detect: || {
                #[cfg(all($(target_feature = $feature),+))]
                {
                    true
                }
                #[cfg(all(not(all($(target_feature = $feature),+)), feature = "std"))]
                {
                    // std caches the answers after the first call.
                    $(std::is_x86_feature_detected!($feature))&&+
                }
                #[cfg(all(not(all($(target_feature = $feature),+)), not(feature = "std")))]
                {
                    false
                }
            },
        }
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use x86_features;
