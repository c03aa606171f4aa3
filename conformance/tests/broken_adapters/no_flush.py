#!/usr/bin/env python3
"""Broken adapter: NEVER FLUSHES; its answers only come out when its output
buffer fills up or its input ends.

Every request is forwarded to the command given as arguments (the reference
`wow-guid-conformance serve`). In persistent mode the runner times out
waiting; `doctor` must explain that stdout is not flushed, and the adapter
does work with `--one-shot`, where input ends after one line.
"""
import subprocess
import sys

serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
out = open(sys.stdout.fileno(), "wb", buffering=1 << 20, closefd=False)

for line in sys.stdin.buffer:
    serve.stdin.write(line)
    serve.stdin.flush()
    out.write(serve.stdout.readline())
out.flush()
