#!/usr/bin/env bash
# The fault model's population, fuzzed for a long time: every shipped
# adapter and every deliberately buggy one of conformance/tests/buggy_adapters/,
# each for SECONDS (default 150) under `fuzz --strict-errors`, JOBS (default 2)
# at a time. A correct implementation must get no finding; a buggy one at
# least one, none of them new (the corpus already fails it the same way).
# Prints one line per implementation and a total; exits 1 when the rule
# does not hold. docs/fuzzing.md ("Proven on a population") has the figures
# of a run of an hour.
#
#   matrix/build-adapters.sh                      # builds what this runs
#   conformance/adapters/population.sh [SECONDS] [JOBS] [SEED]
#
# Timeouts are generous (--timeout 20s, --startup-timeout 60s) so that a
# loaded machine cannot turn a slow answer into a finding.
set -euo pipefail
seconds=${1:-150}
jobs=${2:-2}
seed=${3:-1}
cd "$(dirname "$0")/../.."
root=$PWD
target=${CARGO_TARGET_DIR:-target}
[[ $target == /* ]] || target=$root/$target
runner=$target/release/wow-guid-conformance
[[ -x $runner ]] || { echo "no runner at $runner: run matrix/build-adapters.sh first" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# name|expect (correct or buggy)|command
members=(
    "reference|correct|"
    "python|correct|python3 $root/conformance/adapters/python/adapter.py"
    "javascript|correct|node $root/conformance/adapters/js/adapter.js"
    "c|correct|$target/matrix/adapter-c"
    "rust|correct|$target/release/examples/adapter-rust"
    "cpp|correct|$target/matrix/adapter-cpp"
    "csharp|correct|mono $target/matrix/adapter-csharp.exe"
    "java|correct|java -cp $target/matrix/adapter-java Adapter"
    "go|correct|$target/matrix/adapter-go"
    "packed_only|correct|python3 $root/conformance/tests/buggy_adapters/packed_only.py"
)
for script in "$root"/conformance/tests/buggy_adapters/*.py; do
    name=$(basename "$script" .py)
    case $name in _base | packed_only) continue ;; esac
    members+=("$name|buggy|python3 $script")
done

fuzz_one() { # fuzz_one NAME EXPECT COMMAND...: writes $out/NAME.{txt,line}
    local name=$1 expect=$2
    shift 2
    local cmd=("$runner" fuzz --strict-errors --seed "$seed" --time "$seconds"
        --timeout 20s --startup-timeout 60s --out "$out/$name.yaml" --out-all)
    [[ $# -gt 0 ]] && cmd+=(-- "$@")
    "${cmd[@]}" >"$out/$name.txt" 2>&1 || true
    local requests findings new verdict
    requests=$(sed -n 's/^# fuzz: \([0-9]*\) requests.*/\1/p' "$out/$name.txt" | head -1)
    findings=$(sed -n 's/^# \([0-9]*\) finding(s), \([0-9]*\) new.*/\1/p' "$out/$name.txt" | head -1)
    new=$(sed -n 's/^# \([0-9]*\) finding(s), \([0-9]*\) new.*/\2/p' "$out/$name.txt" | head -1)
    if grep -q '^# no disagreement with the reference codec' "$out/$name.txt"; then
        findings=0 new=0
    fi
    if [[ -z $requests || -z $findings ]]; then
        verdict="ERROR (see below)"
    elif [[ $expect == correct ]]; then
        [[ $findings == 0 ]] && verdict=ok || verdict="WRONG: a correct implementation got findings"
    else
        if [[ $findings -ge 1 && $new == 0 ]]; then verdict=ok
        elif [[ $findings == 0 ]]; then verdict="WRONG: no finding"
        else verdict="WRONG: $new new finding(s)"; fi
    fi
    printf '%-22s %-8s %9s %9s %5s  %s\n' "$name" "$expect" "${requests:-?}" "${findings:-?}" "${new:-?}" "$verdict" >"$out/$name.line"
}

started=$(date +%s)
printf 'population: %d implementations, %d s each, %d at a time, seed %d\n' "${#members[@]}" "$seconds" "$jobs" "$seed"
printf '%-22s %-8s %9s %9s %5s  %s\n' implementation expected requests findings new verdict
for member in "${members[@]}"; do
    IFS='|' read -r name expect command <<<"$member"
    while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do wait -n || true; done
    # shellcheck disable=SC2086 # the command is words
    fuzz_one "$name" "$expect" $command &
done
wait
failed=0
for member in "${members[@]}"; do
    name=${member%%|*}
    cat "$out/$name.line"
    if ! grep -q '  ok$' "$out/$name.line"; then
        failed=1
        sed 's/^/    /' "$out/$name.txt" | tail -n 15
    fi
done
total=0
for f in "$out"/*.line; do total=$((total + $(awk '{print $3}' "$f" | tr -d '?' | sed 's/^$/0/'))); done
printf 'total: %d requests in %d s of wall time (%d s of fuzzing)\n' "$total" "$(( $(date +%s) - started ))" "$(( seconds * ${#members[@]} ))"
exit $failed
