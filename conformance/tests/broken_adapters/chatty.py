#!/usr/bin/env python3
"""Broken adapter: CHATTY on stderr, 16 KiB of log per request, far more than
a pipe holds, and it answers the request whose id is $BROKEN_ON with
`error other` so that a failure report has a stderr tail to show.

Every request is forwarded to the command given as arguments (the reference
`wow-guid-conformance serve`). If the runner did not drain stderr all the
time, this adapter would block on a full stderr pipe and look hung.
"""
import os
import subprocess
import sys
import time

BROKEN_ON = os.environ.get("BROKEN_ON", "").encode()
serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
log = sys.stderr.buffer

for line in sys.stdin.buffer:
    request_id = line.split(b" ", 1)[0]
    log.write(b"chatty: debug noise " + b"." * 200 + b"\n")
    log.write((b"chatty: " + b"x" * 120 + b"\n") * 128)
    log.write(b"chatty: handling " + request_id + b"\n")
    log.flush()
    serve.stdin.write(line)
    serve.stdin.flush()
    answer = serve.stdout.readline()
    broken = request_id == BROKEN_ON
    if broken:
        answer = request_id + b" error other\n"
        # stderr and stdout are separate pipes, read by separate threads, so
        # the runner's stderr tail is only as of about when the answer came.
        # Pause around this answer so that the tail certainly holds this
        # request's log line and none of the next request's.
        time.sleep(0.1)
    sys.stdout.buffer.write(answer)
    sys.stdout.buffer.flush()
    if broken:
        time.sleep(0.1)
