#!/usr/bin/env python3
"""Unusual but conforming adapter: ends every response with CRLF and writes
hex in UPPERCASE.

Every request is forwarded to the command given as arguments (the reference
`wow-guid-conformance serve`). The protocol lets the runner accept both, so
every vector must pass.
"""
import subprocess
import sys

serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

for line in sys.stdin.buffer:
    serve.stdin.write(line)
    serve.stdin.flush()
    fields = serve.stdout.readline().rstrip(b"\n").split(b" ")
    if fields[1] == b"ok":
        # Words stay lowercase; only the values are hex.
        fields = fields[:2] + [f.upper() for f in fields[2:]]
    answer = b" ".join(fields)
    sys.stdout.buffer.write(answer + b"\r\n")
    sys.stdout.buffer.flush()
