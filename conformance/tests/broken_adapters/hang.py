#!/usr/bin/env python3
"""Broken adapter: HANGS (sleeps for an hour) on the request whose id is $BROKEN_ON.

Every other request is forwarded to the command given as arguments (the
reference `wow-guid-conformance serve`) and its answer relayed, so the rest
of a run passes. That child process shares this one's process group: the
runner must kill the whole group, not just this script. If $BROKEN_PIDS
names a file, this script appends "<own pid> <child pid>" to it so a test
can check that both are gone afterwards.
"""
import os
import subprocess
import sys
import time

BROKEN_ON = os.environ.get("BROKEN_ON", "").encode()
serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
if os.environ.get("BROKEN_PIDS"):
    with open(os.environ["BROKEN_PIDS"], "a") as pids:
        pids.write(f"{os.getpid()} {serve.pid}\n")

for line in sys.stdin.buffer:
    if line.split(b" ", 1)[0] == BROKEN_ON:
        time.sleep(3600)
    serve.stdin.write(line)
    serve.stdin.flush()
    sys.stdout.buffer.write(serve.stdout.readline())
    sys.stdout.buffer.flush()
