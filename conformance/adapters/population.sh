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
# With POPULATION_ONLY=NAME,NAME only those members run (the names are the
# first column of the output).
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

# name|expect (correct or buggy); each one's command is member_command's.
members=("reference|correct" "python|correct" "javascript|correct" "c|correct"
         "rust|correct" "cpp|correct" "csharp|correct" "java|correct" "go|correct"
         "packed_only|correct")
for script in "$root"/conformance/tests/buggy_adapters/*.py; do
    name=$(basename "$script" .py)
    case $name in _base | packed_only) continue ;; esac
    members+=("$name|buggy")
done
# With POPULATION_ONLY set (names separated by commas), only those members.
if [[ -n ${POPULATION_ONLY:-} ]]; then
    chosen=()
    for member in "${members[@]}"; do
        [[ ,$POPULATION_ONLY, == *,${member%%|*},* ]] && chosen+=("$member")
    done
    members=("${chosen[@]}")
fi

# Each command as words, kept as an array, so that a checkout or target
# directory with a space in its path stays one word.
member_command() { # member_command NAME: sets command
    case $1 in
        reference) command=() ;;
        python) command=(python3 "$root/conformance/adapters/python/adapter.py") ;;
        javascript) command=(node "$root/conformance/adapters/js/adapter.js") ;;
        c) command=("$target/matrix/adapter-c") ;;
        rust) command=("$target/release/examples/adapter-rust") ;;
        cpp) command=("$target/matrix/adapter-cpp") ;;
        csharp) command=(mono "$target/matrix/adapter-csharp.exe") ;;
        java) command=(java -cp "$target/matrix/adapter-java" Adapter) ;;
        go) command=("$target/matrix/adapter-go") ;;
        *) command=(python3 "$root/conformance/tests/buggy_adapters/$1.py") ;;
    esac
}

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
    IFS='|' read -r name expect <<<"$member"
    member_command "$name"
    while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do wait -n || true; done
    fuzz_one "$name" "$expect" "${command[@]}" &
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
