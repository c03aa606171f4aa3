#!/usr/bin/env bash
# test-build-sh.sh: runs ../.clusterfuzzlite/build.sh the way the builder
# image does, with SRC and OUT in temporary directories, and checks that
# every fuzz target, its dictionary and (where it has regressions) its seed
# corpus land in OUT, and that each binary starts.
#
# FUZZ_SEEDS is passed through to build.sh (smoke.sh sets it).
set -euo pipefail

fuzz_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$fuzz_dir/.." && pwd)
source "$fuzz_dir/common.sh"

tmp=$(mktemp -d -t wow-guid-build-sh.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src" "$tmp/out"
ln -s "$repo" "$tmp/src/wow-guid"

# The builder image's default toolchain is nightly; match it.
if cargo +nightly --version >/dev/null 2>&1; then
    export RUSTUP_TOOLCHAIN=nightly
else
    export RUSTC_BOOTSTRAP=1
fi

SRC=$tmp/src OUT=$tmp/out bash "$repo/.clusterfuzzlite/build.sh"

problems=0
fail() {
    echo "test-build-sh: $*" >&2
    problems=$((problems + 1))
}
count=0
for target in $(fuzz_targets); do
    count=$((count + 1))
    bin=$tmp/out/$target
    if [ ! -x "$bin" ]; then
        fail "$target: no executable at \$OUT/$target"
        continue
    fi
    [ -s "$tmp/out/$target.dict" ] || fail "$target: no dictionary at \$OUT/$target.dict"
    if [ -d "$fuzz_dir/regressions/$target" ]; then
        zip=$tmp/out/${target}_seed_corpus.zip
        want=$(find "$fuzz_dir/regressions/$target" -maxdepth 1 -type f | wc -l)
        have=$(unzip -Z1 "$zip" 2>/dev/null | wc -l || true)
        [ "$have" -ge "$want" ] || fail "$target: seed corpus zip has $have files, regressions alone are $want"
    fi
    # Only that it starts, reads its dictionary and runs an input: finding
    # bugs is smoke.sh's fuzzing step, which reports them with reproducers.
    if ! "$bin" -runs=0 -dict="$tmp/out/$target.dict" -artifact_prefix="$tmp/" \
        >"$tmp/$target.log" 2>&1; then
        tail -n 20 "$tmp/$target.log" >&2
        fail "$target: the built binary does not start"
    fi
done
[ "$count" -gt 0 ] || fail "no fuzz targets listed in fuzz/Cargo.toml"

if [ "$problems" -gt 0 ]; then
    echo "test-build-sh: $problems problem(s)" >&2
    exit 1
fi
echo "test-build-sh: build.sh put $count targets, dictionaries and seed corpora in OUT; each starts"
