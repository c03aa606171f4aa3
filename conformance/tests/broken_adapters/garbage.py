#!/usr/bin/env python3
"""Broken adapter: answers the request whose id is $BROKEN_ON with GARBAGE,
a line of binary junk that is no response at all.

Every other request is forwarded to the command given as arguments (the
reference `wow-guid-conformance serve`). The runner must fail that one
vector as malformed, restart to resynchronise, and go on.
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
        answer = b"\x00\xff\xfe garbage \x1b[31m not a response\n"
    sys.stdout.buffer.write(answer)
    sys.stdout.buffer.flush()
