#!/usr/bin/env python3
"""Broken adapter (in its surroundings, not its answers): ONE INSTANCE AT A
TIME, SLOW TO START. It takes an exclusive lock on the file $LOCK_FILE (by
default one in the temporary directory) (waiting for it as long as it takes, as a program that opens a device or a
database would), then spends $START_SECONDS (default 3) starting, then
answers every request through the command given as arguments (the
reference `wow-guid-conformance serve`), flushing each answer.

A second copy started while the first runs waits on the lock: the runner
must not wait for such a copy once the first has answered.
"""
import fcntl
import os
import subprocess
import sys
import tempfile
import time

path = os.environ.get("LOCK_FILE") or os.path.join(tempfile.gettempdir(), "wow-guid-locked-slow")
lock = open(path, "a")
fcntl.flock(lock, fcntl.LOCK_EX)
time.sleep(float(os.environ.get("START_SECONDS", "3")))
serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

for line in sys.stdin.buffer:
    serve.stdin.write(line)
    serve.stdin.flush()
    sys.stdout.buffer.write(serve.stdout.readline())
    sys.stdout.buffer.flush()
