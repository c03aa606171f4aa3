#!/usr/bin/env bash
# Runs the packed-GUID benchmarks and prints a table of ratios against the
# naive loop and the floor walk, each ratio taken within one run.
#
#   codec/benches/report.sh [RUNS] [-- CRITERION-ARGS...]
#
# RUNS (default 3) repeats the whole benchmark; the table shows the median of
# each time and of each ratio over the runs. Extra arguments after `--` go to
# criterion (for example a filter such as `decode/`). Needs cargo and python3.
# Measure on a quiet machine (`uptime`): other work on the cores shows up as
# noise, mostly in the naive loop's times. On a shared machine, set
# QUIET_LOAD (say 0.5) to wait before each run until the one-minute load
# average is below it.
set -euo pipefail

runs=3
if [[ $# -gt 0 && $1 != -- ]]; then
    runs=$1
    shift
fi
[[ ${1:-} == -- ]] && shift
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
    echo "report.sh: RUNS must be a positive whole number, got '$runs'" >&2
    exit 2
fi

cd "$(dirname "$0")/../.."
if [[ -n ${RUSTFLAGS:-}${CARGO_BUILD_RUSTFLAGS:-}${CARGO_ENCODED_RUSTFLAGS:-} ]]; then
    echo "report.sh: warning: RUSTFLAGS is set; the figures are meant for the default target, as a dependent crate builds this one" >&2
fi

target_dir=$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
# Build first, so that compiling is not part of any run's load.
cargo bench -p wow-guid-codec --bench packed --no-run >&2
results=$(mktemp)
trap 'rm -f "$results"' EXIT

for run in $(seq 1 "$runs"); do
    if [[ -n ${QUIET_LOAD:-} ]]; then
        while ! python3 -c 'import os, sys; sys.exit(os.getloadavg()[0] >= float(sys.argv[1]))' "$QUIET_LOAD"; do
            echo "report.sh: load $(cut -d' ' -f1 /proc/loadavg) >= $QUIET_LOAD, waiting" >&2
            sleep 20
        done
    fi
    echo "report.sh: run $run of $runs" >&2
    stamp=$(python3 -c 'import time; print(time.time())')
    cargo bench -p wow-guid-codec --bench packed -- --noplot "$@" >&2
    # Collect what this run wrote (older results of other ids stay behind in
    # target/criterion, so go by modification time).
    python3 - "$target_dir/criterion" "$stamp" "$run" >>"$results" <<'EOF'
import json, os, sys
root, stamp, run = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
for dirpath, _, files in os.walk(root):
    if os.path.basename(dirpath) != "new" or "estimates.json" not in files:
        continue
    path = os.path.join(dirpath, "estimates.json")
    if os.path.getmtime(path) < stamp:
        continue
    with open(os.path.join(dirpath, "benchmark.json")) as f:
        bench = json.load(f)
    with open(path) as f:
        estimates = json.load(f)
    elements = (bench.get("throughput") or {}).get("Elements")
    if not elements:
        continue
    print(json.dumps({
        "run": run,
        "group": bench["group_id"],
        "function": bench["function_id"],
        "ns": estimates["median"]["point_estimate"] / elements,
    }))
EOF
done

python3 - "$results" "$runs" <<'EOF'
import json, statistics, subprocess, sys
from collections import defaultdict

path, runs = sys.argv[1], int(sys.argv[2])
times = defaultdict(dict)  # (group, function) -> run -> ns per value
for line in open(path):
    r = json.loads(line)
    times[(r["group"], r["function"])][r["run"]] = r["ns"]
if not times:
    sys.exit("report.sh: no benchmark results were written")

def median(values):
    return statistics.median(values) if values else None

def ratio(group, function, baseline, invert=False):
    """Median over runs of the per-run ratio between two functions."""
    mine, base = times.get((group, function), {}), times.get((group, baseline), {})
    values = [(mine[r] / base[r]) if invert else (base[r] / mine[r])
              for r in mine if r in base]
    return median(values)

def cpu():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"

rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
print()
print(f"Packed GUID, ns per value (median of {runs} run(s)); {cpu()}; {rustc}")
print("'x naive' = naive time / this time (higher is better); "
      "'x floor' = this time / floor time (1.00 is the floor).")
print()
print("| benchmark | implementation | ns/value | x naive | x floor |")
print("|---|---|---:|---:|---:|")
# The one-value rows, then `many` (the dispatcher), the SIMD loops it
# chooses between (whatever the registry lists, by name), then the portable
# `many-table` it falls back to.
order = ["naive", "floor", "floor-count-ones", "default", "table", "portable", "many"]
def rank(function):
    if function in order:
        return (order.index(function), function)
    if function == "many-table":
        return (len(order) + 1, function)
    return (len(order), function)
groups = sorted({g for g, _ in times}, key=lambda g: (not g.startswith("decode"), g))
for group in groups:
    functions = sorted({f for g, f in times if g == group}, key=rank)
    has_floor = (group, "floor") in times
    for function in functions:
        ns = median(list(times[(group, function)].values()))
        vs_naive = ratio(group, function, "naive")
        vs_floor = ratio(group, function, "floor", invert=True) if has_floor else None
        cells = [f"{ns:.2f}",
                 f"{vs_naive:.2f}x" if vs_naive else "",
                 f"{vs_floor:.2f}x" if vs_floor else ""]
        print(f"| {group} | {function} | " + " | ".join(cells) + " |")

print()
print("Targets (issue 7), for the list functions (`many`: packed::decode_many,")
print("packed::encode_many):")
checks = [
    ("decode/random-masks", "naive", 8.0, "decode >= 8x naive on random masks"),
    ("decode/realistic", "naive", 3.0, "decode >= 3x naive on the realistic mix"),
    ("decode/random-masks", "floor", 1.25, "decode within 1.25x of the floor on random masks"),
    ("decode/realistic", "floor", 1.25, "decode within 1.25x of the floor on the realistic mix"),
    ("encode/uniform", "naive", 4.0, "encode >= 4x naive on uniform GUIDs"),
]
for group, baseline, bound, text in checks:
    if baseline == "floor":
        value = ratio(group, "many", "floor", invert=True)
        met = value is not None and value <= bound
    else:
        value = ratio(group, "many", "naive")
        met = value is not None and value >= bound
    shown = f"{value:.2f}x" if value is not None else "not measured"
    status = "skipped" if value is None else "met    " if met else "NOT MET"
    print(f"  {status}  {text}: {shown}")

print()
print("The AVX-512 list loops (`many-avx512`: packed::avx512, where this CPU runs them),")
print("issue 37's targets: the decoder toward 0.25x the floor, the encoder at least 2x")
print("the SSSE3 list encoder (at most 0.50x its time):")
for group in ["decode/random-masks", "decode/realistic", "encode/uniform", "encode/realistic"]:
    decoding = group.startswith("decode")
    baseline = "floor" if decoding else "many-ssse3"
    value = ratio(group, "many-avx512", baseline, invert=True)
    if value is None:
        print(f"  skipped  {group}: not measured (no AVX-512 list loop, or no {baseline}, on this CPU)")
        continue
    bound = 0.25 if decoding else 0.5
    status = "met    " if value <= bound else "NOT MET"
    line = f"  {status}  {group}: {value:.2f}x the {'floor' if decoding else 'SSSE3 loop'}'s time"
    if decoding:
        vs_ssse3 = ratio(group, "many-avx512", "many-ssse3", invert=True)
        if vs_ssse3 is not None:
            line += f", {vs_ssse3:.2f}x the SSSE3 loop's"
    else:
        line += f" ({1 / value:.2f}x as fast)"
    print(line)

print()
print("One value at a time (`default`: PackedGuid::decode, PackedGuid::encode_into),")
print("inlined table path; a decoder cannot beat the floor, so its ratio to naive")
print("is the floor's:")
for group in ["decode/random-masks", "decode/realistic", "encode/uniform", "encode/realistic"]:
    vs_naive = ratio(group, "default", "naive")
    if vs_naive is None:
        continue
    line = f"  {group}: {vs_naive:.2f}x naive"
    vs_floor = ratio(group, "default", "floor", invert=True)
    if vs_floor is not None:
        floor_vs_naive = ratio(group, "floor", "naive")
        line += f", {vs_floor:.2f}x the floor (the floor is {floor_vs_naive:.2f}x naive)"
    print(line)
EOF
