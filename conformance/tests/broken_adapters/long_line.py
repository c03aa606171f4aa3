#!/usr/bin/env python3
"""Broken adapter: answers the request whose id is $BROKEN_ON with an ENDLESS
LINE: hex digits forever, never a newline.

Every other request is forwarded to the command given as arguments (the
reference `wow-guid-conformance serve`). The runner must stop reading at its
bound (1 MiB) and fail the vector, not grow its memory until it dies.
"""
import os
import subprocess
import sys

BROKEN_ON = os.environ.get("BROKEN_ON", "").encode()
serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
out = sys.stdout.buffer

for line in sys.stdin.buffer:
    if line.split(b" ", 1)[0] == BROKEN_ON:
        out.write(BROKEN_ON + b" ok ")
        chunk = b"ab" * 32768
        while True:
            out.write(chunk)
    serve.stdin.write(line)
    serve.stdin.flush()
    out.write(serve.stdout.readline())
    out.flush()
