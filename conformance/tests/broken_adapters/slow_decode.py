#!/usr/bin/env python3
"""Broken adapter: right on every request, but slow to decode: each decode
request takes $DECODE_DELAY seconds (default 0.2) before its answer.

Every answer comes from the command given as arguments (the reference
`wow-guid-conformance serve`). A run of encodes alone is fast, and what
`run` adds after it on its own, the read-back of every encode (a decode of
each answer), is slow: the check must stop at its budget, not take minutes.
"""
import os
import subprocess
import sys
import time

DELAY = float(os.environ.get("DECODE_DELAY", "0.2"))
serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

for line in sys.stdin.buffer:
    serve.stdin.write(line)
    serve.stdin.flush()
    answer = serve.stdout.readline()
    if line.split(b" ")[1:2] == [b"decode"]:
        time.sleep(DELAY)
    sys.stdout.buffer.write(answer)
    sys.stdout.buffer.flush()
