#!/usr/bin/env python3
"""Broken adapter: assumes LOCK-STEP. Each read from stdin is taken to be
exactly one request; any further lines that arrived in the same read are
silently dropped.

Every request it does see is forwarded to the command given as arguments
(the reference `wow-guid-conformance serve`). Sent one at a time, every
request is answered; with several in flight, answers go missing. The runner
must report that the fault only happens with pipelined requests.
"""
import os
import subprocess
import sys

serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

while True:
    data = os.read(0, 65536)
    if not data:
        break
    first = data.split(b"\n", 1)[0] + b"\n"
    serve.stdin.write(first)
    serve.stdin.flush()
    sys.stdout.buffer.write(serve.stdout.readline())
    sys.stdout.buffer.flush()
