#!/usr/bin/env python3
"""Runs actionlint on every workflow and action file of the repository.

actionlint reads workflows. Workflow files (.github/workflows/*.yml and the
examples in examples/github-actions/) are given to it as they are; a local
action is checked twice: its metadata (inputs, required ones) through the
workflows that use it, and its steps through a workflow written here that
runs them in one job, with the action's inputs declared as workflow_dispatch
inputs so `inputs.*` resolves. Line numbers in findings about that workflow
are mapped back to the action file.

Usage: actionlint.py ACTIONLINT [SHELLCHECK]. Stdlib only: CI has no YAML
library. The action files are expected in the layout actionlint itself
needs (top-level `inputs:` and `runs:` with `steps:` at two spaces).
"""

import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def block(lines, start):
    """Lines after `start` up to the next line indented no deeper than it."""
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines):
        line = lines[end]
        if line.strip() and not line.lstrip().startswith("#"):
            if len(line) - len(line.lstrip()) <= indent:
                break
        end += 1
    return end


def as_workflow(action: pathlib.Path):
    """A workflow running the action's steps, and a map from its lines to the action's."""
    lines = action.read_text().splitlines()
    find = lambda pattern: next((i for i, l in enumerate(lines) if re.fullmatch(pattern, l)), None)
    inputs, runs = find(r"inputs:\s*"), find(r"runs:\s*")
    if runs is None:
        sys.exit(f"{action}: no top-level `runs:`")
    steps = next((i for i in range(runs + 1, block(lines, runs)) if re.fullmatch(r"  steps:\s*", lines[i])), None)
    if steps is None:
        sys.exit(f"{action}: no `steps:` under `runs:` (only composite actions are checked)")
    out, origin = ["on:", "  workflow_dispatch:"], [0, 0]
    if inputs is not None:
        out.append("    inputs:")
        origin.append(inputs + 1)
        for i in range(inputs + 1, block(lines, inputs)):
            out.append("    " + lines[i] if lines[i].strip() else "")
            origin.append(i + 1)
    out += ["permissions:", "  contents: read", "jobs:", "  action:", "    runs-on: ubuntu-latest", "    steps:"]
    origin += [0] * 6
    for i in range(steps + 1, block(lines, steps)):
        out.append("  " + lines[i] if lines[i].strip() else "")
        origin.append(i + 1)
    return "\n".join(out) + "\n", origin


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    actionlint = sys.argv[1]
    flags = ["-shellcheck", sys.argv[2]] if len(sys.argv) == 3 else ["-shellcheck", ""]
    workflows = sorted(ROOT.glob(".github/workflows/*.yml")) + sorted(ROOT.glob("examples/github-actions/*.yml"))
    actions = sorted(ROOT.glob(".github/actions/*/action.yml"))
    failed = subprocess.run([actionlint, *flags, *map(str, workflows)], cwd=ROOT).returncode != 0
    for action in actions:
        text, origin = as_workflow(action)
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp, "action-steps.yml")
            path.write_text(text)
            result = subprocess.run(
                [actionlint, *flags, "-format", "{{range $e := .}}{{$e.Line}}\t{{$e.Column}}\t{{$e.Message}}\n{{end}}", str(path)],
                cwd=ROOT, capture_output=True, text=True)
        for finding in result.stdout.splitlines():
            line, column, message = finding.split("\t", 2)
            print(f"{action.relative_to(ROOT)}:{origin[int(line) - 1] if int(line) <= len(origin) else '?'}:{column}: {message}")
        if result.returncode != 0:
            failed = True
            print(result.stderr, end="", file=sys.stderr)
    print(f"actionlint: {len(workflows)} workflow file(s), {len(actions)} action file(s): {'FAILED' if failed else 'ok'}")
    sys.exit(1 if failed else 0)


main()
