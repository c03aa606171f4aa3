#!/usr/bin/env python3
"""Broken adapter: correct for the first $WRONG_AFTER requests (default 200)
a process reads, then WRONG on every one after (it answers `error eof`, as a
decoder whose cursor state outlived its input would).

Every answer comes from the command given as arguments (the reference
`wow-guid-conformance serve`), changed once the count is passed. Sent alone
to a fresh process, every vector passes: each failure needs the earlier
requests, which is what makes checking failures alone expensive. With
$WRONG_DELAY set (seconds), a process that has read fewer requests than
that takes as long for each answer: replays, which start fresh processes
with few requests, are slow while the run is not.
"""
import os
import subprocess
import sys
import time

WRONG_AFTER = int(os.environ.get("WRONG_AFTER", "200"))
DELAY = float(os.environ.get("WRONG_DELAY", "0"))
serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
seen = 0

for line in sys.stdin.buffer:
    seen += 1
    serve.stdin.write(line)
    serve.stdin.flush()
    answer = serve.stdout.readline()
    if seen > WRONG_AFTER:
        answer = answer.split(b" ", 1)[0] + b" error eof\n"
    elif DELAY and seen < WRONG_AFTER:
        time.sleep(DELAY)
    sys.stdout.buffer.write(answer)
    sys.stdout.buffer.flush()
