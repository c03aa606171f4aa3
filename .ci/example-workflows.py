#!/usr/bin/env python3
"""Runs each example workflow's steps (examples/github-actions/) as GitHub would.

For every example, in a fresh directory laid out as the example's comment
tells a user to lay out their repository (the adapter of its language copied
where the workflow expects it), this runs the workflow's `run:` steps with
bash, and its conformance step the way the action runs it: the action's own
run step (.github/actions/conformance/run.sh) with the step's `with:` inputs
and the action's defaults for the rest. It then checks that every report the
step names was written. A copied workflow that would fail on its first run
(a report directory nobody makes, a build command that no longer matches
the adapter's files) fails here first.

What it does not run: `actions/checkout` (the layout is the checkout),
`actions/setup-*` and `sudo apt-get` lines (the toolchains are CI's, installed
by conformance/adapters/ci.sh), and the action's install step (its own CI
step runs install.sh); the runner comes from RUNNER_DIR.

Usage: example-workflows.py RUNNER_DIR. Stdlib only: CI has no YAML library,
so the workflows are read in the layout they are written in (steps as `- `
items, `with:` as a flat map, `run:` inline or as a `|` block).
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples/github-actions"
ACTION = ROOT / ".github/actions/conformance"
ADAPTERS = ROOT / "conformance/adapters"
ACTION_USE = "wow-guid/wow-guid/.github/actions/conformance@"

# Where each example expects its adapter, as a user lays it out: the files
# of conformance/adapters/SOURCE copied to DESTINATION (a file or a folder).
LAYOUT = {
    "conformance.yml": [("python/adapter.py", "tests/guid_adapter.py")],
    "cpp.yml": [("cpp", "tests/guid")],
    "csharp.yml": [("csharp", "tests/guid")],
    "go.yml": [("go", "tests/guid-adapter")],
    "java.yml": [("java", "tests/guid")],
}


def fail(message):
    print(f"example-workflows: {message}", file=sys.stderr)
    sys.exit(1)


def scalar(text):
    """A YAML scalar as the examples write them: bare, or in quotes."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def indent_of(line):
    return len(line) - len(line.lstrip())


def steps(path):
    """The workflow's steps, each a dict of its keys (`with` a dict)."""
    lines = path.read_text().splitlines()
    start = next((i for i, l in enumerate(lines) if l.strip() == "steps:"), None)
    if start is None:
        fail(f"{path}: no `steps:`")
    found, current, i = [], None, start + 1
    item_indent = None
    while i < len(lines):
        line = lines[i]
        if not line.strip() or line.lstrip().startswith("#"):
            i += 1
            continue
        if item_indent is None:
            item_indent = indent_of(line)
        if indent_of(line) < item_indent:
            break
        body = line.strip()
        if indent_of(line) == item_indent and body.startswith("- "):
            current = {}
            found.append(current)
            body = body[2:]
        elif current is None:
            fail(f"{path}:{i + 1}: expected a `- ` step")
        key_indent = indent_of(line) if not line.strip().startswith("- ") else item_indent + 2
        key, _, value = body.partition(":")
        key, value = key.strip(), value.strip()
        i += 1
        if key == "with":
            current["with"] = {}
            while i < len(lines) and (not lines[i].strip() or indent_of(lines[i]) > key_indent):
                entry = lines[i].strip()
                if entry and not entry.startswith("#"):
                    k, _, v = entry.partition(":")
                    current["with"][k.strip()] = scalar(v)
                i += 1
        elif value == "|":
            block = []
            while i < len(lines) and (not lines[i].strip() or indent_of(lines[i]) > key_indent):
                block.append(lines[i].strip())
                i += 1
            current[key] = "\n".join(block).strip() + "\n"
        else:
            current[key] = scalar(value)
    return found


def action_defaults():
    """The action's inputs and their defaults, from action.yml."""
    lines = (ACTION / "action.yml").read_text().splitlines()
    defaults, name, inside = {}, None, False
    for line in lines:
        if line.startswith("inputs:"):
            inside = True
            continue
        if inside and line and not line.startswith(" "):
            break
        if inside and re.match(r"^  [a-z-]+:$", line):
            name = line.strip()[:-1]
            defaults[name] = ""
        elif inside and name and line.strip().startswith("default:"):
            defaults[name] = scalar(line.strip()[len("default:"):])
    return defaults


def expand(text, runner_temp, where):
    """`${{ runner.temp }}` as GitHub expands it; any other expression is an error."""
    text = re.sub(r"\$\{\{\s*runner\.temp\s*\}\}", str(runner_temp), text)
    if "${{" in text:
        fail(f"{where}: an expression this script cannot expand: {text.strip()}")
    return text


def lay_out(example, checkout):
    for source, destination in LAYOUT[example]:
        source, destination = ADAPTERS / source, checkout / destination
        if source.is_dir():
            shutil.copytree(source, destination)
        else:
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, destination)


def run_example(path, runner_dir, defaults):
    print(f"\n== {path.relative_to(ROOT)}", flush=True)
    if path.name not in LAYOUT:
        fail(f"{path.name}: no layout in .ci/example-workflows.py; add where its adapter goes")
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="example-workflow-"))
    try:
        checkout, runner_temp = scratch / "checkout", scratch / "runner-temp"
        checkout.mkdir()
        runner_temp.mkdir()
        lay_out(path.name, checkout)
        env = dict(os.environ)
        env["PATH"] = f"{runner_dir}{os.pathsep}{env['PATH']}"
        env["RUNNER_TEMP"] = str(runner_temp)
        env["GOPROXY"] = "off"
        # Go writes its build cache under HOME; a scratch one where HOME
        # cannot be written (as conformance/adapters/ci.sh does).
        if not os.access(env.get("HOME") or "/nonexistent", os.W_OK):
            env["GOCACHE"] = str(scratch / "go-cache")
            env["GOPATH"] = str(scratch / "go-path")
        ran_action = False
        for number, step in enumerate(steps(path), 1):
            where = f"{path.name} step {number} ({step.get('name') or step.get('uses') or 'run'})"
            workdir = checkout / expand(step.get("working-directory", "."), runner_temp, where)
            uses = step.get("uses", "")
            if uses.startswith(ACTION_USE):
                inputs = dict(defaults)
                for key, value in step.get("with", {}).items():
                    if key not in inputs:
                        fail(f"{where}: the action has no input `{key}`")
                    inputs[key] = expand(value, runner_temp, where)
                for input_path in ("expect-fail",):
                    # The user's list: an empty one (comments only) here.
                    if inputs[input_path]:
                        listed = checkout / inputs["working-directory"] / inputs[input_path]
                        listed.parent.mkdir(parents=True, exist_ok=True)
                        listed.write_text("# vectors this implementation knowingly fails\n")
                action_env = dict(env)
                action_env.update(
                    ADAPTER=inputs["adapter"],
                    STRICT_ERRORS=inputs["strict-errors"],
                    EXPECT_FAIL=inputs["expect-fail"],
                    JUNIT=inputs["junit"],
                    REPORT_JSON=inputs["report-json"],
                    ARGS=inputs["args"],
                    GITHUB_OUTPUT=str(runner_temp / "github-output"),
                )
                cwd = checkout / inputs["working-directory"]
                print(f"-- {where}: the action's run step", flush=True)
                result = subprocess.run(["bash", str(ACTION / "run.sh")], cwd=cwd, env=action_env)
                if result.returncode != 0:
                    fail(f"{where}: the action's run step exited with {result.returncode}")
                for report in ("junit", "report-json"):
                    if not (cwd / inputs[report]).is_file():
                        fail(f"{where}: the {report} report {inputs[report]} was not written")
                ran_action = True
            elif uses:
                print(f"-- {where}: skipped (the checkout is the layout; toolchains are CI's)")
            elif "run" in step:
                script = "\n".join(
                    line for line in expand(step["run"], runner_temp, where).splitlines()
                    if not line.startswith("sudo apt-get")
                )
                print(f"-- {where}: {script.strip()}", flush=True)
                result = subprocess.run(
                    ["bash", "-euo", "pipefail", "-c", script], cwd=workdir, env=env
                )
                if result.returncode != 0:
                    fail(f"{where}: exited with {result.returncode}")
        if not ran_action:
            fail(f"{path.name}: no step uses the conformance action ({ACTION_USE}...)")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main():
    if len(sys.argv) != 2:
        fail("usage: example-workflows.py RUNNER_DIR")
    runner_dir = pathlib.Path(sys.argv[1]).resolve()
    if not (runner_dir / "wow-guid-conformance").exists():
        fail(f"no wow-guid-conformance in {runner_dir}")
    defaults = action_defaults()
    examples = sorted(EXAMPLES.glob("*.yml"))
    if not examples:
        fail(f"no example workflows in {EXAMPLES}")
    for path in examples:
        run_example(path, runner_dir, defaults)
    print(f"\nexample-workflows: all {len(examples)} example workflows ran green")


if __name__ == "__main__":
    main()
