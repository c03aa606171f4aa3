#!/usr/bin/env python3
"""Broken adapter: on the request whose id is $BROKEN_ON it FLOODS stdout with
unsolicited lines, as fast as it can, forever.

Every other request is forwarded to the command given as arguments (the
reference `wow-guid-conformance serve`). The runner must fail the vector,
kill the flood, and keep its memory bounded while doing so (it reads stdout
through a bounded queue, so a flood fills the pipe and blocks, nothing more).
"""
import os
import subprocess
import sys

BROKEN_ON = os.environ.get("BROKEN_ON", "").encode()
serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
out = sys.stdout.buffer

for line in sys.stdin.buffer:
    if line.split(b" ", 1)[0] == BROKEN_ON:
        block = b"flood flood flood flood flood flood flood flood\n" * 1000
        while True:
            out.write(block)
    serve.stdin.write(line)
    serve.stdin.flush()
    out.write(serve.stdout.readline())
    out.flush()
