#!/usr/bin/env bash
# Mutation testing: how many deliberately planted bugs a test suite catches.
#
#   .ci/mutants.sh SUITE [CARGO-MUTANTS-ARGS...]
#
# SUITE is `codec` (the codec's implementations against the vector corpus
# alone) or `harness` (the harness's judging code against its own unit
# tests). Each suite's settings sit next to its crate, in DIR (`codec` or
# `conformance/harness`): DIR/mutants.toml (what is mutated, which tests run)
# and DIR/mutants-equivalent.txt (the reviewed equivalent mutants, each with
# its reason). Extra arguments go to
# cargo-mutants, for example `--in-diff change.diff` to mutate only the lines
# a change touches, or `-j 2`. Needs cargo-mutants
# (`cargo install cargo-mutants --locked`) and python3.
#
# Prints every mutant the suite missed, then the score: killed mutants (a
# test failed, or it hung past the timeout) over the viable ones that are not
# listed as equivalent. Exits 0 when every viable mutant is killed or listed,
# 1 when one is missed and not listed or a listed one was killed (the list is
# stale), 2 when cargo-mutants itself fails. Runs at nice 10: a mutant is a
# full build and test run, CPU-bound for the whole session.
set -euo pipefail

suite=${1:-}
case $suite in
codec) dir=codec ;;
harness) dir=conformance/harness ;;
*)
    echo "usage: .ci/mutants.sh codec|harness [CARGO-MUTANTS-ARGS...]" >&2
    exit 2
    ;;
esac
shift

cd "$(dirname "$0")/.."
command -v cargo-mutants >/dev/null || {
    echo ".ci/mutants.sh: cargo-mutants is not installed: cargo install cargo-mutants --locked" >&2
    exit 2
}
target_dir=$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
out=$target_dir/mutation/$suite
mkdir -p "$out"
rm -rf "$out/mutants.out"

start=$(date +%s)
status=0
# One job at a time builds in CARGO_TARGET_DIR (when set), where the
# dependencies stay built from one run to the next. Parallel jobs (`-j N`,
# `--jobs N`) must not share it: they would rebuild over each other and time
# out, so each of cargo-mutants' copies of the tree then builds in a target
# directory of its own, from scratch.
env=()
for arg in "$@"; do
    case $arg in
    -j | --jobs | -j[0-9]* | --jobs=*) env=(-u CARGO_TARGET_DIR) ;;
    esac
done
env "${env[@]}" nice -n 10 cargo mutants --config "$dir/mutants.toml" --output "$out" --no-shuffle "$@" || status=$?
seconds=$(($(date +%s) - start))
# 0: nothing missed; 2: missed mutants; 3: timeouts (which count as killed).
# Anything else (a usage error, a baseline that does not pass) is a failure
# of the run itself.
case $status in
0 | 2 | 3) ;;
*)
    echo ".ci/mutants.sh: cargo-mutants failed (exit $status); see $out/mutants.out/debug.log" >&2
    exit 2
    ;;
esac

python3 - "$suite" "$out/mutants.out/outcomes.json" "$dir/mutants-equivalent.txt" "$seconds" <<'EOF'
import json, re, sys

suite, outcomes_path, listed_path, seconds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

def key(name):
    """A mutant's name without its line and column, which move with every edit."""
    return re.sub(r"^([^:]+):\d+:\d+: ", r"\1: ", name)

# The listed equivalents: blocks of `#` lines saying why, then the names
# (without position) of the mutants they explain; a blank line ends a block.
listed, reason, names_seen = {}, [], False
for number, line in enumerate(open(listed_path), 1):
    line = line.rstrip("\n")
    if line.startswith("#"):
        if names_seen:
            reason, names_seen = [], False
        reason.append(line.lstrip("# ").strip())
    elif line.strip():
        if not reason:
            sys.exit(f"{listed_path}:{number}: `{line}` has no `#` line above it saying why it is equivalent")
        listed[key(line.strip())] = " ".join(reason)
        names_seen = True
    else:
        reason, names_seen = [], False

try:
    with open(outcomes_path) as f:
        outcomes = json.load(f)["outcomes"]
except FileNotFoundError:
    # cargo-mutants found nothing to mutate (say, a diff that touches none of
    # the suite's files) and wrote no outcomes.
    outcomes = []
counts = {"caught": 0, "timeout": 0, "unviable": 0, "equivalent": 0, "missed": 0}
missed, killed_keys, equivalent_keys = [], set(), set()
for outcome in outcomes:
    scenario = outcome["scenario"]
    if not isinstance(scenario, dict):
        continue  # the unmutated baseline
    name = scenario["Mutant"]["name"]
    summary = outcome["summary"]
    if summary == "CaughtMutant":
        counts["caught"] += 1
        killed_keys.add(key(name))
    elif summary == "Timeout":
        counts["timeout"] += 1
        killed_keys.add(key(name))
    elif summary == "Unviable":
        counts["unviable"] += 1
    elif summary == "MissedMutant" and key(name) in listed:
        counts["equivalent"] += 1
        equivalent_keys.add(key(name))
    elif summary == "MissedMutant":
        counts["missed"] += 1
        missed.append(name)
    else:
        sys.exit(f".ci/mutants.sh: unexpected outcome {summary!r} for {name}")

# A listed mutant that was tested and killed every time is no longer
# equivalent: the list is wrong and must lose it.
stale = sorted(k for k in listed if k in killed_keys and k not in equivalent_keys)

for name in missed:
    print(f"MISSED      {name}")
for k in stale:
    print(f"NOT EQUIVALENT (killed, remove it from {listed_path}): {k}")

killed = counts["caught"] + counts["timeout"]
scored = killed + counts["missed"]
total = scored + counts["equivalent"] + counts["unviable"]
score = 100.0 * killed / scored if scored else 100.0
minutes, secs = divmod(seconds, 60)
print(
    f"{suite}: {total} mutant{'' if total == 1 else 's'} in {minutes}m{secs:02d}s: {killed} killed "
    f"({counts['caught']} by a failing test, {counts['timeout']} by a timeout), "
    f"{counts['missed']} missed, {counts['equivalent']} equivalent (listed in {listed_path}), "
    f"{counts['unviable']} unviable (do not build)"
)
print(f"{suite} mutation score: {score:.1f}% ({killed} of {scored} non-equivalent viable mutants killed)")
sys.exit(1 if missed or stale else 0)
EOF
