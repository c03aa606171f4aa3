#!/usr/bin/env python3
"""Broken adapter: CRASHES (exit status 3, output buffer lost) on the request
whose id is $BROKEN_ON.

It answers like a well-behaved pipelining adapter: it reads whatever input
is available, answers every complete line in it, and flushes once per batch.
So when it dies, answers to earlier requests of the same batch are lost with
it. The runner must not blame the first unanswered request but find the one
that crashes it, by re-running the in-flight requests one at a time. Other
requests are forwarded to the command given as arguments (the reference
`wow-guid-conformance serve`). With $READ_LOG set, it appends "PID BATCH ID"
to that file for every request line it reads (BATCH counts its reads), so a
test can tell which process saw which request, and which were lost together.
With $CRASH_STDERR set, it writes that text to stderr before it dies.
"""
import os
import subprocess
import sys

BROKEN_ON = os.environ.get("BROKEN_ON", "").encode()
READ_LOG = os.environ.get("READ_LOG")
serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
pending = b""
answers = []
batch = 0

while True:
    data = os.read(0, 65536)
    if not data:
        break
    pending += data
    *lines, pending = pending.split(b"\n")
    batch += 1
    if READ_LOG:
        with open(READ_LOG, "a") as log:
            for line in lines:
                log.write("%d %d %s\n" % (os.getpid(), batch, line.split(b" ", 1)[0].decode()))
    for line in lines:
        if line.split(b" ", 1)[0] == BROKEN_ON:
            os.write(2, os.environ.get("CRASH_STDERR", "").encode())
            os.write(2, b"crash.py: giving up on " + BROKEN_ON + b"\n")
            os._exit(3)  # the answers of this batch were never written
        serve.stdin.write(line + b"\n")
        serve.stdin.flush()
        answers.append(serve.stdout.readline())
    os.write(1, b"".join(answers))
    answers = []
