#!/usr/bin/env python3
"""Broken adapter: answers the request whose id is $BROKEN_ON under a WRONG ID
(the right answer, but labelled `someone-else`).

Every other request is forwarded to the command given as arguments (the
reference `wow-guid-conformance serve`). The runner must fail that vector
and resynchronise by restarting, so later vectors are not judged against
answers meant for others.
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
        answer = b"someone-else " + answer.split(b" ", 1)[1]
    sys.stdout.buffer.write(answer)
    sys.stdout.buffer.flush()
