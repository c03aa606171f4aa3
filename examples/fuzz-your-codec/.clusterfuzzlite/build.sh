#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build for a crate fuzzed with wow-guid-testkit.
#
# Runs in the builder image with the repository at $SRC/project (or, with
# PROJECT set, wherever that says) and writes every cargo-fuzz target of
# fuzz/Cargo.toml to $OUT, built with `cargo fuzz build -O` (the sanitizer
# comes from the builder's flags). No seeds are needed: the testkit's
# generators build structured inputs from any bytes.

project=${PROJECT:-$SRC/project}
cd "$project/fuzz"
cargo fuzz build -O ${FUZZ_FEATURES:+--features "$FUZZ_FEATURES"}

# cargo-fuzz builds for the host triple.
triple=$(rustc -vV | sed -n 's/^host: //p')
bin_dir=${CARGO_TARGET_DIR:-$project/fuzz/target}/$triple/release
for target in $(cargo fuzz list); do
    cp "$bin_dir/$target" "$OUT/"
done
