#!/usr/bin/env python3
"""Broken adapter: answers the request whose id is $BROKEN_ON correctly but
WITHOUT A NEWLINE, then exits.

Every other request is forwarded to the command given as arguments (the
reference `wow-guid-conformance serve`). A line is only complete at its
newline, so the runner must fail the vector (showing the unterminated bytes)
rather than take the fragment as an answer.
"""
import os
import subprocess
import sys

BROKEN_ON = os.environ.get("BROKEN_ON", "").encode()
serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

for line in sys.stdin.buffer:
    serve.stdin.write(line)
    serve.stdin.flush()
    answer = serve.stdout.readline()
    if line.split(b" ", 1)[0] == BROKEN_ON:
        sys.stdout.buffer.write(answer.rstrip(b"\n"))
        sys.stdout.buffer.flush()
        sys.exit(0)
    sys.stdout.buffer.write(answer)
    sys.stdout.buffer.flush()
