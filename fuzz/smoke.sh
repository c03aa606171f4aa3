#!/usr/bin/env bash
# smoke.sh: the CI fuzz smoke run.
#
# Builds every cargo-fuzz target with the address sanitizer, checks the
# ClusterFuzzLite build script, seeds each target from the vectors and its
# committed regressions, and runs each for FUZZ_SECONDS (default 10) with
# its dictionary. A crash fails the run; the log then shows the reproducer's
# path, its bytes, and the command that replays it.
#
# Environment:
#   FUZZ_SECONDS   seconds per codec target (default 10; ten targets)
#   FUZZ_RUNNER_SECONDS  seconds per target of the runner's parsers and
#                  pipeline (default 3; eight targets)
#   FUZZ_WORK      scratch directory for corpora and dictionaries (default: a temp
#                  dir, removed when every target ran clean)
#   FUZZ_TARGETS   space-separated subset of targets (default: all)
#   FUZZ_LANES     targets fuzzed at a time (default 2)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
source ./common.sh

seconds=${FUZZ_SECONDS:-10}
runner_seconds=${FUZZ_RUNNER_SECONDS:-3}
work=${FUZZ_WORK:-$(mktemp -d -t wow-guid-fuzz.XXXXXX)}
targets=${FUZZ_TARGETS:-$(fuzz_targets)}

log() { printf '==> %s\n' "$*"; }

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    log "installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi

# cargo-fuzz needs nightly flags (sanitizers, -Z options). Prefer a nightly
# toolchain; otherwise let stable accept them.
if cargo +nightly --version >/dev/null 2>&1; then
    fuzz=(cargo +nightly fuzz)
    toolchain=nightly
else
    export RUSTC_BOOTSTRAP=1
    fuzz=(cargo fuzz)
    toolchain="stable with RUSTC_BOOTSTRAP=1"
fi
log "toolchain: $toolchain; $seconds s per target; work dir $work"

# -O with the address sanitizer: the same build as ClusterFuzzLite's, so the
# build-script check below reuses it. Debug assertions and overflow checks
# stay on through [profile.release] in Cargo.toml.
log "building every target with the address sanitizer"
"${fuzz[@]}" build -O --sanitizer address

log "generating the seed corpus from vectors/"
./seed-corpus.sh "$work/seeds"

log "checking the ClusterFuzzLite build script"
FUZZ_SEEDS=$work/seeds ./test-build-sh.sh

# fuzz_one TARGET: seeds, dictionary and one timed run of TARGET; its
# report (the final stats, or the failure with its reproducer) on stdout.
# Fails when the target found a crash.
fuzz_one() {
    local target=$1 corpus seeds extra dict args secs artifact
    corpus=$work/corpus/$target
    mkdir -p "$corpus" "artifacts/$target"
    seeds=$(seed_dir "$target")
    if [ -n "$seeds" ] && [ -d "$work/seeds/$seeds" ]; then
        cp "$work/seeds/$seeds"/* "$corpus"/ 2>/dev/null || true
    fi
    # The runner's targets: committed seeds, and no regressions/ directory
    # until one has a finding.
    [ -d "seeds/$target" ] && cp "seeds/$target"/* "$corpus"/
    extra=()
    [ -d "regressions/$target" ] && extra+=("regressions/$target")
    write_dict "$target" "$work/$target.dict"
    dict=()
    [ -s "$work/$target.dict" ] && dict=(-dict="$work/$target.dict")
    # shellcheck disable=SC2207 # fuzz_args prints plain words
    args=($(fuzz_args "$target"))
    secs=$seconds
    [ -d "seeds/$target" ] && secs=$runner_seconds
    log "fuzzing $target for $secs s ($(find "$corpus" -type f | wc -l) seeds${extra:+ + ${extra[*]}})"
    # The first corpus directory collects new inputs; regressions/ is read only.
    if "${fuzz[@]}" run -O --sanitizer address "$target" "$corpus" "${extra[@]}" -- \
        "${dict[@]}" "${args[@]}" -max_total_time="$secs" -print_final_stats=1 \
        >"$work/$target.log" 2>&1; then
        grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::average_exec_per_sec)' "$work/$target.log" || true
        return 0
    fi
    tail -n 40 "$work/$target.log"
    # libFuzzer names the file it saved: "... Test unit written to PATH".
    artifact=$(grep -o 'Test unit written to .*' "$work/$target.log" | tail -n 1 | sed 's/^Test unit written to //')
    if [ -n "$artifact" ] && [ -f "$artifact" ]; then
        echo
        echo "FUZZ FAILURE in $target"
        grep -A 2 -m 1 'panicked at' "$work/$target.log" | sed 's/^/  /' || true
        echo "  reproducer: $artifact ($(wc -c <"$artifact") bytes)"
        echo "  bytes (hex): $(xxd -p "$artifact" | tr -d '\n')"
        echo "  reproduce:   cd fuzz && cargo +nightly fuzz run -O $target $artifact"
        echo "  recreate it from this log: echo HEX | xxd -r -p > crash"
        echo "  minimise:    cd fuzz && cargo +nightly fuzz tmin $target $artifact"
        echo "  then commit it under fuzz/regressions/$target/ (see fuzz/README.md)"
    else
        echo "FUZZ FAILURE in $target without a reproducer; full log: $work/$target.log"
    fi
    return 1
}

# The targets run FUZZ_LANES at a time (default 2: each is one process on
# one core); each lane takes every FUZZ_LANES-th target, and the reports
# are printed in the targets' order once all have run.
lanes=${FUZZ_LANES:-2}
# One word a target, whether newlines or spaces separate them.
read -r -d '' -a all <<<"$targets" || true
pids=()
for ((lane = 0; lane < lanes; lane++)); do
    (
        for ((i = lane; i < ${#all[@]}; i += lanes)); do
            t=${all[i]}
            if fuzz_one "$t" >"$work/$t.report" 2>&1; then
                echo ok >"$work/$t.status"
            else
                echo failed >"$work/$t.status"
            fi
        done
    ) &
    pids+=($!)
done
wait "${pids[@]}"
failed=()
for t in "${all[@]}"; do
    cat "$work/$t.report"
    [ "$(cat "$work/$t.status" 2>/dev/null)" = ok ] || failed+=("$t")
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz smoke: ${#failed[@]} target(s) failed: ${failed[*]}"
    exit 1
fi
echo "fuzz smoke: all targets ran clean ($seconds s each for the codec's, $runner_seconds s for the runner's)"
# A work dir of its own goes once every target ran clean; after a failure it
# stays, as the reproducers and logs the report names are in it.
[ -n "${FUZZ_WORK:-}" ] || rm -rf "$work"
