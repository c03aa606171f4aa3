#!/usr/bin/env bash
# ci.sh: what CI (.ci/run) checks of this sample crate, in seconds.
#
# 1. `cargo test --features testkit` passes: the corpus, run as the
#    conformance runner runs it, and the bolero harness, which must reach
#    names over 256 bytes.
# 2. With the planted bugs, the corpus test fails with its failures grouped
#    by cause and the round trip named.
# 3. With the planted bugs, the differential and the round-trip fuzz targets
#    each find theirs within FUZZ_LIMIT seconds (default 60), and the
#    panic-freedom target runs clean for a few seconds.
#
# Environment: CARGO_TARGET_DIR (each workspace gets a folder below it),
# FUZZ_LIMIT.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
limit=${FUZZ_LIMIT:-60}
target=${CARGO_TARGET_DIR:-$PWD/target}
[[ $target == /* ]] || target=$PWD/$target
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "--> cargo test --features testkit"
CARGO_TARGET_DIR=$target/fuzz-your-codec cargo test --features testkit -- --nocapture 2>&1 | tee "$log" | tail -n 12
grep -q 'verdict: PASS' "$log"
grep -Eq 'longest name encoded: ([3-9][0-9]{2}|2[6-9][0-9]|25[7-9]|[0-9]{4,}) bytes' "$log" \
    || { echo "the bolero harness reached no name over 256 bytes" >&2; exit 1; }

echo "--> cargo test --features testkit,planted-bugs (must fail, grouped)"
if CARGO_TARGET_DIR=$target/fuzz-your-codec cargo test --features testkit,planted-bugs --test conformance corpus >"$log" 2>&1; then
    echo "the corpus test passed a codec with planted bugs" >&2
    exit 1
fi
grep -E 'failing vector\(s\), [0-9]+ cause\(s\):' "$log"
grep -m 1 'decode packed_guid: wrong GUID' "$log"
grep -m 1 -o 'FAIL named\.encode\.[a-z0-9.-]*\.read-back' "$log"
grep -m 1 -o 'writes what it cannot read, if this fails' "$log"

if cargo +nightly --version >/dev/null 2>&1; then
    fuzz=(cargo +nightly fuzz)
else
    export RUSTC_BOOTSTRAP=1
    fuzz=(cargo fuzz)
fi
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
cd fuzz
export CARGO_TARGET_DIR=$target/fuzz-your-codec-fuzz
# Finds its planted bug: TARGET, the bug's feature, the words the failure
# must say.
finds() {
    local name=$1 bug=$2 words=$3
    "${fuzz[@]}" build -O --features "$bug" "$name"
    local corpus start=$SECONDS
    corpus=$(mktemp -d)
    if "${fuzz[@]}" run -O --features "$bug" "$name" "$corpus" -- \
        -max_total_time="$limit" -seed=1 -artifact_prefix="$corpus/" >"$log" 2>&1; then
        echo "$name: no failure within $limit s" >&2
        exit 1
    fi
    rm -rf "$corpus"
    grep -m 1 -o "$words.\{0,80\}" "$log" || { tail -n 30 "$log"; exit 1; }
    echo "$name: found its planted bug ($bug) in $((SECONDS - start)) s (cargo fuzz run included)"
}
finds differential planted-decode-bug 'differs from the reference codec: wrong value'
# The bound mismatch, and not the decode bug: a named encode read back.
finds round_trip planted-bound-bug 'writes what it cannot read: `encode named_guid'
corpus=$(mktemp -d)
"${fuzz[@]}" build -O --features planted-bugs decode
"${fuzz[@]}" run -O --features planted-bugs decode "$corpus" -- -max_total_time=3 -seed=1 \
    -artifact_prefix="$corpus/" >"$log" 2>&1 \
    || { tail -n 30 "$log"; exit 1; }
rm -rf "$corpus"
echo "decode: no panic in 3 s"
