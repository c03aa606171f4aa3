#!/usr/bin/env python3
"""Broken adapter: writes a DEBUG line to STDOUT before its answer, to every
request or, when $BROKEN_ON is set, to that request only.

Every request is forwarded to the command given as arguments (the reference
`wow-guid-conformance serve`) and its answer follows the debug line. The
runner must say that a line that is not a response came before the answer
and that debug output belongs on stderr, not that the adapter never
answered.
"""
import os
import subprocess
import sys

BROKEN_ON = os.environ.get("BROKEN_ON", "").encode()
serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

for line in sys.stdin.buffer:
    request_id = line.split(b" ", 1)[0]
    if not BROKEN_ON or request_id == BROKEN_ON:
        sys.stdout.buffer.write(b"DEBUG: handling " + request_id + b"\n")
    serve.stdin.write(line)
    serve.stdin.flush()
    sys.stdout.buffer.write(serve.stdout.readline())
    sys.stdout.buffer.flush()
