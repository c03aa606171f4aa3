#!/usr/bin/env python3
"""Broken adapter: LOSES ITS OUTPUT AT EXIT; its answers wait in a 4 MB
buffer it never flushes, and it leaves with `os._exit(0)` at end of input,
which skips the flush (as a JVM's `System.exit` does with a buffered
writer).

Every request is forwarded to the command given as arguments (the reference
`wow-guid-conformance serve`). No mode gets an answer out of it; the runner
must say, within seconds, that its output is most likely lost unflushed.
"""
import os
import subprocess
import sys

serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
out = open(sys.stdout.fileno(), "wb", buffering=4 << 20, closefd=False)

for line in sys.stdin.buffer:
    serve.stdin.write(line)
    serve.stdin.flush()
    out.write(serve.stdout.readline())
serve.kill()
os._exit(0)
