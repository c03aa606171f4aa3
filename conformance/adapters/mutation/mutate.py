#!/usr/bin/env python3
"""Mutation testing of the independent codecs, judged through the protocol.

Plants one small bug at a time in an adapter's codec (never in its protocol
glue), builds the mutant as CI builds the adapter, and judges it with
`wow-guid-conformance run --strict-errors -- <the mutant adapter>`: a mutant
that does not build is unviable, a run that fails kills it, a run that does
not end in time kills it by timeout, and a run that passes is a survivor.
Every survivor must be listed, with a proof that no wire input tells it from
the original, in survivors/<language>.txt; any other survivor is a case the
corpus lacks.

    conformance/adapters/mutation/mutate.py [LANGUAGE...] [--sample N] [--vectors DIR]

README.md beside this file has the operators, the survivor lists' format and
the commands; docs/checking-the-suite.md has the scores.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import clike  # noqa: E402
from languages import LANGUAGES  # noqa: E402

ROOT = HERE.parent.parent.parent
ADAPTERS = ROOT / "conformance" / "adapters"
MUTMUT = "mutmut==3.8.1"
STRYKER = "@stryker-mutator/core@9.6.1"
VERDICTS = ("killed", "timeout", "unviable", "survived", "error")
QUICK_EVERY = 20
TABLE_HEAD = ("| codec | mutants | unviable | killed | listed survivors | other survivors | score | duration |\n"
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
KINDS = ("equivalent", "acceptable", "unobservable")  # of a listed survivor: README.md, "Survivor lists"


@dataclass
class Mutant:
    """One mutant: its id, what it changes, and (once judged) its verdict."""

    id: str
    function: str
    description: str
    source: str = ""  # the whole mutated codec file (not kept for Stryker's)
    verdict: str = ""
    seconds: float = 0.0
    detail: str = ""


@dataclass
class Listed:
    """One entry of a survivor list."""

    id: str
    kind: str  # equivalent or acceptable
    proof: str
    line: int


@dataclass
class Outcome:
    language: str
    mutants: list
    sampled: bool
    seconds: float
    listed: dict = field(default_factory=dict)


class Failure(Exception):
    """The campaign cannot run (a missing tool, a baseline that fails)."""


# --- Ids and descriptions ---------------------------------------------------


def describe(original, mutated):
    """`line N: before => after`, for the lines a mutant changes."""
    a, b = original.splitlines(), mutated.splitlines()
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a -= 1
        end_b -= 1
    before = " / ".join(line.strip() for line in a[start:end_a]) or "(nothing)"
    after = " / ".join(line.strip() for line in b[start:end_b]) or "(nothing)"
    return "line %d: %s => %s" % (start + 1, before, after)


def assign_ids(language, original, mutants):
    """Ids from what a mutant changes, not from its place in the list: the
    same mutant keeps its id when other code moves, and a listed survivor whose
    line is edited no longer matches (its proof must be read again)."""
    seen = {}
    for mutant in mutants:
        text = mutant.description.split(": ", 1)[1]
        key = (mutant.function, text)
        seen[key] = seen.get(key, 0) + 1
        digest = hashlib.sha1(("%s\0%s\0%d" % (mutant.function, text, seen[key])).encode()).hexdigest()
        mutant.id = "%s:%s:%s" % (language, mutant.function, digest[:6])
    return mutants


# --- Making the mutants ------------------------------------------------------


def clike_mutants(language, original):
    found = []
    for mutation in clike.mutations(original, language.functions, go=language.go):
        source = clike.apply(original, mutation)
        found.append(Mutant("", mutation.function, describe(original, source), source))
    return found


def mutmut_mutants(language, original, tools):
    python = ensure_mutmut(tools)
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copy(ADAPTERS / language.folder / language.codec, scratch)
        # mutmut reads its settings before it parses anything.
        Path(scratch, "setup.cfg").write_text("[mutmut]\nsource_paths = %s\n" % language.codec)
        made = subprocess.run([str(python), str(HERE / "mutmut_mutants.py"), language.codec, *language.functions],
                              cwd=scratch, capture_output=True, text=True)
    if made.returncode != 0:
        raise Failure("mutmut could not make the mutants:\n" + made.stderr)
    return [Mutant("", m["function"], describe(original, m["source"]), m["source"])
            for m in json.loads(made.stdout)]


def ensure_mutmut(tools):
    venv = tools / "mutmut-venv"
    python = venv / "bin" / "python"
    if not (venv / "bin" / "mutmut").exists():
        print("installing %s into %s" % (MUTMUT, venv), file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", MUTMUT],
                       check=True)
    return python


def ensure_stryker(tools):
    prefix = tools / "stryker"
    stryker = prefix / "node_modules" / ".bin" / "stryker"
    if not stryker.exists():
        print("installing %s into %s" % (STRYKER, prefix), file=sys.stderr)
        prefix.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--loglevel=error",
                        STRYKER], check=True, stdout=sys.stderr)
    return stryker


# --- Judging -----------------------------------------------------------------


def fill(words, slot):
    """The command with the slot's folders in it; `python3` is this Python
    (a version manager's `python3` may be a script that costs a tenth of a
    second to start, once per mutant and once per crash)."""
    words = [w.replace("{src}", str(slot / "src")).replace("{build}", str(slot / "build")) for w in words]
    return [sys.executable if w == "python3" else w for w in words]


def kill_leftovers(slot):
    """Ends the processes still running a mutant of this slot (found by the
    slot's path in their command line: only processes this script started)."""
    mark = str(slot)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if mark in command and int(entry.name) != os.getpid():
            try:
                os.kill(int(entry.name), signal.SIGKILL)
            except OSError:
                pass


def run_limited(command, limit, cwd=None):
    """(exit code or None on timeout, output) of a command given `limit` s."""
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True)
    try:
        output, _ = process.communicate(timeout=limit)
        return process.returncode, output.decode(errors="replace")
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return None, output.decode(errors="replace")


def quick_ids(command):
    """One vector in QUICK_EVERY of the corpus (no step of a stateful
    sequence), as an id file: the first of the two runs that judge a mutant."""
    listing = subprocess.run([command[0], "list"] + command[4:], capture_output=True, text=True, check=True)
    rows = [line.split() for line in listing.stdout.splitlines() if line.strip()]
    ids = [r[0] for r in rows if "stateful" not in (r[3] if len(r) > 3 else "")]
    return "".join(i + "\n" for i in ids[::QUICK_EVERY])


def judge(language, source, slot, runner, limit):
    """(verdict, detail) of one version of the codec. `runner` is the two
    runs that judge it: one vector in QUICK_EVERY first, so that a mutant that
    fails almost everything (and may crash on every request, each a fresh
    process) is killed in a second, then the whole corpus. A failure of the
    first is a failure of the second: the codecs answer each request alone."""
    src, build = slot / "src", slot / "build"
    shutil.rmtree(build, ignore_errors=True)
    build.mkdir(parents=True)
    (src / language.codec).write_text(source)
    if language.build:
        code, output = run_limited(fill(language.build, slot), 600, cwd=src)
        if code != 0:
            return "unviable", output.strip().splitlines()[0] if output.strip() else "the build failed"
    for stage in runner:
        code, output = run_limited(stage + ["--"] + fill(language.run, slot), limit)
        kill_leftovers(slot)
        if code != 0:
            break
    summary = " ".join(line.strip() for line in output.splitlines() if line.strip())[-300:]
    if code is None:
        return "timeout", "no verdict after %d s" % limit
    if code == 0:
        return "survived", summary
    if code == 1:
        return "killed", summary
    return "error", "exit %s: %s" % (code, summary)


def prepare_slot(language, scratch, index):
    slot = scratch / ("slot%d" % index)
    shutil.copytree(ADAPTERS / language.folder, slot / "src", dirs_exist_ok=True)
    return slot


def judge_all(language, original, mutants, runner, jobs, scratch, progress):
    slots = [prepare_slot(language, scratch, i) for i in range(jobs)]
    started = time.monotonic()
    verdict, detail = judge(language, original, slots[0], runner, 600)
    baseline = time.monotonic() - started
    if verdict != "survived":
        raise Failure("%s: the unmutated adapter does not pass (%s): %s" % (language.name, verdict, detail))
    limit = max(30.0, 20 * baseline)
    free = list(slots)

    def one(mutant):
        slot = free.pop()
        try:
            begun = time.monotonic()
            mutant.verdict, mutant.detail = judge(language, mutant.source, slot, runner, limit)
            mutant.seconds = time.monotonic() - begun
        finally:
            free.append(slot)
        progress(mutant)

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, mutants))


def stryker_campaign(language, original, runner, jobs, scratch, tools, sample, progress):
    """Stryker judges the JavaScript mutants itself: its command test runner
    runs our runner once per mutant, with the mutant switched on in the
    instrumented adapter by the environment it passes down."""
    stryker = ensure_stryker(tools)
    spans = function_lines(language, original)
    ranges = spans
    if sample:
        lines = [n for a, b in ranges for n in range(a, b + 1)
                 if original.splitlines()[n - 1].strip() not in ("", "}") and
                 not original.splitlines()[n - 1].strip().startswith("//")]
        ranges = [(n, n) for n in pick(lines, sample)]
    work = scratch / "stryker"
    work.mkdir()
    shutil.copy(ADAPTERS / language.folder / language.codec, work)
    config = {
        "testRunner": "command",
        "commandRunner": {"command": " && ".join(shlex.join(stage + ["--"] + list(language.run))
                                                 for stage in runner)},
        "mutate": ["%s:%d-%d" % (language.codec, a, b) for a, b in ranges],
        "coverageAnalysis": "off",
        "reporters": ["json"],
        "jsonReporter": {"fileName": "report.json"},
        "concurrency": jobs,
        "timeoutMS": 30000,
        "tempDirName": "stryker-tmp",
        "cleanTempDir": "always",
    }
    (work / "stryker.config.json").write_text(json.dumps(config, indent=2))
    ran = subprocess.run([str(stryker), "run", "stryker.config.json"], cwd=work, capture_output=True, text=True)
    if ran.returncode != 0 or not (work / "report.json").exists():
        raise Failure("stryker failed:\n" + (ran.stdout + ran.stderr)[-3000:])
    report = json.loads((work / "report.json").read_text())
    status = {"Killed": "killed", "Timeout": "timeout", "Survived": "survived", "NoCoverage": "survived",
              "CompileError": "unviable", "RuntimeError": "unviable"}
    mutants = []
    lines = original.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    found = report["files"][language.codec]["mutants"]
    for m in sorted(found, key=lambda m: int(m["id"])):
        if m["status"] == "Ignored":
            continue
        start, end = m["location"]["start"], m["location"]["end"]
        a = offsets[start["line"] - 1] + start["column"] - 1
        b = offsets[end["line"] - 1] + end["column"] - 1
        source = original[:a] + m.get("replacement", "") + original[b:]
        function = next(name for name, (lo, hi) in zip(language.functions, spans)
                        if lo <= start["line"] <= hi)
        mutant = Mutant("", function, describe(original, source) + "  [%s]" % m["mutatorName"], source,
                        status[m["status"]], 0.0, m.get("statusReason", "")[-300:])
        mutants.append(mutant)
    assign_ids(language.name, original, mutants)
    for mutant in mutants:
        progress(mutant)
    return mutants


def function_lines(language, original):
    """(first, last) line of each listed function's body, from its braces."""
    tokens = clike.tokenize(original)
    spans = []
    for name in language.functions:
        first, last = clike.function_body(tokens, name)
        spans.append((original.count("\n", 0, tokens[first].start) + 1,
                      original.count("\n", 0, tokens[last].start) + 1))
    return spans


def pick(items, count):
    """`count` items spread evenly over the list, always the same ones."""
    if count >= len(items):
        return list(items)
    if count == 1:
        return [items[len(items) // 2]]
    return [items[round(i * (len(items) - 1) / (count - 1))] for i in range(count)]


# --- Survivor lists ----------------------------------------------------------


def read_survivors(path):
    listed = {}
    if not path.exists():
        return listed
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        kind, _, proof = parts[1].partition(": ") if len(parts) > 1 else ("", "", "")
        if kind not in KINDS or not proof.strip():
            raise Failure("%s:%d: expected `ID KIND: PROOF`, KIND one of %s" % (path, number, ", ".join(KINDS)))
        if parts[0] in listed:
            raise Failure("%s:%d: %s is listed twice" % (path, number, parts[0]))
        listed[parts[0]] = Listed(parts[0], kind, proof.strip(), number)
    return listed


# --- The campaign ------------------------------------------------------------


def campaign(language, args, runner, scratch, tools):
    original = (ADAPTERS / language.folder / language.codec).read_text()
    listed = read_survivors(HERE / "survivors" / ("%s.txt" % language.name))
    started = time.monotonic()

    def progress(mutant):
        if args.verbose or mutant.verdict in ("survived", "error"):
            print("  %-9s %s  %s" % (mutant.verdict, mutant.id, mutant.description), flush=True)

    if language.mutator == "stryker":
        mutants = stryker_campaign(language, original, runner, args.jobs, scratch, tools, args.sample, progress)
    else:
        if language.mutator == "mutmut":
            mutants = mutmut_mutants(language, original, tools)
        else:
            mutants = clike_mutants(language, original)
        assign_ids(language.name, original, mutants)
        if args.list:
            for mutant in mutants:
                print("%s  %s" % (mutant.id, mutant.description))
            return None
        if args.only is not None:
            mutants = [m for m in mutants if m.id in args.only]
        if args.sample:
            mutants = pick(mutants, args.sample)
        judge_all(language, original, mutants, runner, args.jobs, scratch, progress)
    outcome = Outcome(language.name, mutants, bool(args.sample or args.only), time.monotonic() - started)
    outcome.listed = listed
    return outcome


def check(outcome):
    """The problems of one language's outcome: unlisted survivors, listed
    mutants that were killed, entries that name no mutant, errors."""
    problems = []
    ids = {m.id for m in outcome.mutants}
    for mutant in outcome.mutants:
        entry = outcome.listed.get(mutant.id)
        if mutant.verdict == "survived" and entry is None:
            problems.append("survivor not listed: %s  %s" % (mutant.id, mutant.description))
        elif mutant.verdict != "survived" and entry is not None:
            problems.append("listed in survivors/%s.txt:%d but %s: %s  %s" % (
                outcome.language, entry.line, mutant.verdict, mutant.id, mutant.description))
        if mutant.verdict == "error":
            problems.append("the runner could not judge %s: %s" % (mutant.id, mutant.detail))
    if not outcome.sampled:
        for entry in outcome.listed.values():
            if entry.id not in ids:
                problems.append("survivors/%s.txt:%d names no mutant: %s (the code changed: review it)" % (
                    outcome.language, entry.line, entry.id))
    return problems


def row(outcome):
    counts = {v: sum(m.verdict == v for m in outcome.mutants) for v in VERDICTS}
    listed = sum(m.verdict == "survived" and m.id in outcome.listed for m in outcome.mutants)
    acceptable = sum(m.verdict == "survived" and m.id in outcome.listed
                     and outcome.listed[m.id].kind == "acceptable" for m in outcome.mutants)
    missed = counts["survived"] - listed
    killed = counts["killed"] + counts["timeout"]
    must = killed + missed
    score = "%.1f%%" % (100.0 * killed / must) if must else "-"
    minutes, seconds = divmod(int(round(outcome.seconds)), 60)
    return "| %s | %d | %d | %d (%d by timeout) | %d (%d acceptable) | %d | %s | %dm%02ds |" % (
        outcome.language, len(outcome.mutants), counts["unviable"], killed, counts["timeout"], listed,
        acceptable, missed, score, minutes, seconds)


def write_json(path, outcomes):
    Path(path).write_text(json.dumps({o.language: {"seconds": round(o.seconds, 1), "mutants": [
        {"id": m.id, "function": m.function, "description": m.description, "verdict": m.verdict,
         "listed": m.id in o.listed, "seconds": round(m.seconds, 2), "detail": m.detail}
        for m in o.mutants]} for o in outcomes}, indent=1))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("languages", nargs="*", metavar="LANGUAGE",
                        help="any of %s (default: all)" % ", ".join(LANGUAGES))
    parser.add_argument("--runner", help="the wow-guid-conformance binary "
                        "(default: release/wow-guid-conformance in $CARGO_TARGET_DIR or target/)")
    parser.add_argument("--vectors", help="judge against the corpus in DIR (run --vectors) instead of the embedded one")
    parser.add_argument("--sample", type=int, default=0, metavar="N",
                        help="judge only N mutants per language, spread evenly over its list (JavaScript: "
                             "the mutants of N lines); the same ones every time")
    parser.add_argument("--only", metavar="FILE", help="judge only the mutants whose ids FILE lists (the first "
                        "word of each line, as in the survivor lists or this script's output; not for js)")
    parser.add_argument("--jobs", type=int, default=1, help="mutants judged side by side (default 1)")
    parser.add_argument("--list", action="store_true", help="list the mutants (id and change) without judging "
                        "them (not for js, whose mutants Stryker lists only by running them)")
    parser.add_argument("--json", metavar="FILE", help="also write every verdict as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every verdict, not just survivors")
    args = parser.parse_args(argv)
    if args.only:
        words = (line.split() for line in Path(args.only).read_text().splitlines())
        args.only = {w[0] for w in words if w and not w[0].startswith("#")}
    unknown = [name for name in args.languages if name not in LANGUAGES]
    if unknown:
        parser.error("unknown language(s): %s" % ", ".join(unknown))
    target = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
    target = target if target.is_absolute() else ROOT / target
    runner = Path(args.runner) if args.runner else target / "release" / "wow-guid-conformance"
    if not args.list and not os.access(runner, os.X_OK):
        print("no runner at %s: build it with `cargo build --release -p wow-guid-conformance`" % runner,
              file=sys.stderr)
        return 2
    command = [str(runner.resolve()), "run", "--strict-errors", "--quiet"]
    if args.vectors:
        command += ["--vectors", str(Path(args.vectors).resolve())]
    tools = target / "mutation-tools"
    outcomes, problems = [], []
    quick_list = tempfile.NamedTemporaryFile("w", prefix="wow-guid-mutation-quick-", suffix=".txt")
    try:
        if not args.list:
            quick_list.write(quick_ids(command))
            quick_list.flush()
        stages = [command[:2] + ["--id-file", quick_list.name] + command[2:], command]
        for name in args.languages or list(LANGUAGES):
            language = LANGUAGES[name]
            print("== %s: %s/%s (%s)" % (name, language.folder, language.codec, language.mutator), flush=True)
            with tempfile.TemporaryDirectory(prefix="wow-guid-mutation-") as scratch:
                outcome = campaign(language, args, stages, Path(scratch), tools)
            if outcome is None:
                continue
            outcomes.append(outcome)
            problems += ["%s: %s" % (name, p) for p in check(outcome)]
            print(row(outcome), flush=True)
            if args.json:
                write_json(args.json, outcomes)
    except Failure as failure:
        print("error: %s" % failure, file=sys.stderr)
        return 2
    finally:
        quick_list.close()
    if not outcomes:
        return 0
    print("\n" + TABLE_HEAD)
    for outcome in outcomes:
        print(row(outcome))
    for problem in problems:
        print("FAIL " + problem)
    print("\n" + ("every mutant judged is killed, unviable or listed" if not problems
                  else "%d problem(s)" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
