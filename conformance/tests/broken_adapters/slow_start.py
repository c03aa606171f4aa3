#!/usr/bin/env python3
"""Slow but conforming adapter: SLOW START-UP, it sleeps $SLOW_START seconds
(default 2) before reading its first request, like a virtual machine or a big
interpreter warming up.

Every request is then forwarded to the command given as arguments (the
reference `wow-guid-conformance serve`). The per-request timeout must not
count start-up, so with a timeout shorter than the sleep every vector must
still pass.
"""
import os
import subprocess
import sys
import time

time.sleep(float(os.environ.get("SLOW_START", "2")))
serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

for line in sys.stdin.buffer:
    serve.stdin.write(line)
    serve.stdin.flush()
    sys.stdout.buffer.write(serve.stdout.readline())
    sys.stdout.buffer.flush()
