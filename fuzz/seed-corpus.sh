#!/usr/bin/env bash
# seed-corpus.sh OUT_DIR
#
# Writes the fuzz seed corpus, generated from the vector corpus in vectors/
# by the conformance runner: one file per decode vector in
# OUT_DIR/decode_packed_guid/, OUT_DIR/decode_named_guid/ and
# OUT_DIR/differential/. The seeds are never copied by hand, so a new vector
# is a new seed on the next run.
#
# The runner is built in release, as CI and the README's main job build it,
# so that a run after either of them builds nothing (a debug build of its
# own took CI 18 s).
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 OUT_DIR" >&2
    exit 2
fi
out=$1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$out"

if ! (cd "$root" && cargo run --quiet --release -p wow-guid-conformance -- seed-corpus --out "$out"); then
    echo "seed-corpus.sh: \`wow-guid-conformance seed-corpus --out $out\` failed." >&2
    echo "  The seed corpus comes from vectors/ through that subcommand of the conformance runner." >&2
    exit 1
fi

count=$(find "$out" -type f | wc -l)
if [ "$count" -eq 0 ]; then
    echo "seed-corpus.sh: the runner wrote no seeds to $out" >&2
    exit 1
fi
echo "seed-corpus.sh: $count seed files in $out"
