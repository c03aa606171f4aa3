//! The SIMD backends, one folder per architecture (as memchr lays out its
//! `arch` tree), and the one registry of their list loops.
//!
//! Each backend is a module under `arch/<architecture>/` that compiles its
//! loops for CPU features and hands each out (`encoder()`, `decoder()`)
//! only when this CPU has them. [`ENCODE_MANY`] and [`DECODE_MANY`] list
//! every such loop compiled for this target, fastest first, with its name,
//! its features and the shortest list it is chosen for. Everything that
//! needs to know which backends exist reads these two lists: the dispatcher
//! (which takes the first loop this CPU runs, else the portable
//! `table` loops, which are always compiled), the implementation lists of
//! [`super`] (and through them the tests, the fuzz targets and the
//! benchmarks), and the test below that holds each loop's features to what
//! the CPU reports. A new backend is therefore files inside this folder
//! only.
//!
//! One layer with [`super::portable`] and [`super::table`]: the backends
//! build on `generic`, `value` and `error` and never call one another.

pub(super) mod cpu;
#[cfg(target_arch = "x86_64")]
pub mod x86_64;

use cpu::Loop;

use super::generic::{DecodeManyFn, EncodeManyFn};

/// Every SIMD list encoder compiled for this target, fastest first.
#[cfg(target_arch = "x86_64")]
pub(super) const ENCODE_MANY: &[Loop<EncodeManyFn>] = x86_64::ENCODE_MANY;
/// Every SIMD list encoder compiled for this target: none here.
#[cfg(not(target_arch = "x86_64"))]
pub(super) const ENCODE_MANY: &[Loop<EncodeManyFn>] = &[];

/// Every SIMD list decoder compiled for this target, fastest first.
#[cfg(target_arch = "x86_64")]
pub(super) const DECODE_MANY: &[Loop<DecodeManyFn>] = x86_64::DECODE_MANY;
/// Every SIMD list decoder compiled for this target: none here.
#[cfg(not(target_arch = "x86_64"))]
pub(super) const DECODE_MANY: &[Loop<DecodeManyFn>] = &[];

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;
    use std::vec::Vec;

    /// Each loop's name, features and availability, for both directions.
    fn loops() -> Vec<(&'static str, cpu::Features, bool)> {
        let encoders = ENCODE_MANY
            .iter()
            .map(|l| (l.name, l.features, (l.get)().is_some()));
        let decoders = DECODE_MANY
            .iter()
            .map(|l| (l.name, l.features, (l.get)().is_some()));
        encoders.chain(decoders).collect()
    }

    /// A loop is handed out exactly when its features are there: `get`
    /// checks the features the registry lists for it.
    #[test]
    fn each_loop_is_there_when_its_features_are() {
        for (name, features, there) in loops() {
            assert_eq!(there, (features.detect)(), "loop {name:?}");
        }
    }

    /// The registry against the CPU's own report: a loop whose features
    /// the kernel lists for this CPU is handed out (so no test or fuzz run
    /// here skips it), and one whose features it does not list is not.
    /// `/proc/cpuinfo` spells some features with underscores
    /// (`avx512_vbmi2`) where Rust has none (`avx512vbmi2`).
    #[cfg(target_os = "linux")]
    #[test]
    fn each_loop_is_there_when_the_cpu_reports_its_features() {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").expect("/proc/cpuinfo is readable");
        let flags: Vec<String> = cpuinfo
            .lines()
            .find_map(|line| line.strip_prefix("flags"))
            .and_then(|rest| rest.split_once(':'))
            .map(|(_, flags)| {
                flags
                    .split_whitespace()
                    .map(|f| f.replace('_', ""))
                    .collect()
            })
            .expect("/proc/cpuinfo has a flags line");
        for (name, features, there) in loops() {
            let reported = features
                .names
                .iter()
                .all(|f| flags.iter().any(|flag| flag == &f.replace(['_', '.'], "")));
            assert_eq!(
                there, reported,
                "loop {name:?} needs {:?}; /proc/cpuinfo reports all of them: {reported}",
                features.names
            );
        }
    }
}
