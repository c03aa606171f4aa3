#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script for the wow-guid fuzz targets.
#
# Runs in the builder image with the repository at $SRC/wow-guid and writes
# to $OUT, for every target in fuzz/Cargo.toml:
#   $OUT/TARGET                   the libFuzzer binary (`cargo fuzz build -O`;
#                                 the sanitizer comes from the builder's flags)
#   $OUT/TARGET.dict              its dictionary (fuzz/dict/)
#   $OUT/TARGET_seed_corpus.zip   seeds from vectors/ (the codec's targets) or
#                                 fuzz/seeds/TARGET (the runner's), plus
#                                 fuzz/regressions/TARGET
#
# FUZZ_SEEDS, when set, is a seed directory already made by
# fuzz/seed-corpus.sh (fuzz/test-build-sh.sh passes one to save a build).

project=${SRC}/wow-guid
cd "$project/fuzz"
source ./common.sh

cargo fuzz build -O

# cargo-fuzz builds for the host triple.
triple=$(rustc -vV | sed -n 's/^host: //p')
bin_dir=${CARGO_TARGET_DIR:-$project/fuzz/target}/$triple/release

seeds=${FUZZ_SEEDS:-}
if [ -z "$seeds" ]; then
    seeds=$(mktemp -d)
    # The seed generator is an ordinary program: build it without the
    # sanitizer flags the builder exports for the fuzz targets.
    if ! env -u RUSTFLAGS -u RUSTDOCFLAGS ./seed-corpus.sh "$seeds"; then
        echo "build.sh: warning: no seeds from vectors/; the seed corpora hold only fuzz/regressions" >&2
    fi
fi

for target in $(fuzz_targets); do
    cp "$bin_dir/$target" "$OUT/"
    write_dict "$target" "$OUT/$target.dict"
    corpus=$(mktemp -d)
    seed_subdir=$(seed_dir "$target")
    for dir in ${seed_subdir:+"$seeds/$seed_subdir"} "seeds/$target" "regressions/$target"; do
        if [ -d "$dir" ]; then
            find "$dir" -maxdepth 1 -type f -exec cp {} "$corpus/" \;
        fi
    done
    rm -f "$OUT/${target}_seed_corpus.zip"
    if [ -n "$(ls -A "$corpus")" ]; then
        (cd "$corpus" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
    fi
    rm -rf "$corpus"
done
