#!/usr/bin/env python3
"""Broken adapter: HANGS (sleeps for an hour) on every request but the
runner's liveness probes (id `liveness-probe`), which it answers through
the command given as arguments (the reference `wow-guid-conformance
serve`): a command that works, and hangs on every vector of the corpus.
"""
import subprocess
import sys
import time

serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

for line in sys.stdin.buffer:
    if line.split(b" ", 1)[0] != b"liveness-probe":
        time.sleep(3600)
    serve.stdin.write(line)
    serve.stdin.flush()
    sys.stdout.buffer.write(serve.stdout.readline())
    sys.stdout.buffer.flush()
