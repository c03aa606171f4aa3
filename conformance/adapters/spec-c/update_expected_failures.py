#!/usr/bin/env python3
"""Writes expected-failures.txt for the spec-C adapter from a real run.

    gcc -std=c99 -O0 -o target/spec-c-adapter \\
        conformance/adapters/spec-c/adapter.c conformance/adapters/spec-c/spec_snippet.c
    cargo run -p wow-guid-conformance -- run --report-json target/spec-c.json -- target/spec-c-adapter
    python3 conformance/adapters/spec-c/update_expected_failures.py target/spec-c.json \\
        > conformance/adapters/spec-c/expected-failures.txt

The ids come from the run (its failed vectors, plus any it reported as
expected failures if a list was given), so the list is exact by
construction. The reason on each line is worked out from the request's
bytes: which of the snippet's two faults the vector trips. A failure that
neither fault explains stops the script: that would be a third bug, or a
broken adapter, and must be looked at rather than listed.
"""

import json
import sys

HEADER = """\
# Vectors that the spec's own C snippet (spec_snippet.c, unchanged) fails,
# one id per line with the reason. The runner fails a run in which a listed
# vector passes (stale) or an unlisted one fails, so this list is exact.
#
# Built with: gcc 12.2, x86-64 Linux, `gcc -std=c99 -O0` (see adapter.c).
# The snippet shifts `data[cursor]` after C promotes it to a 32-bit int:
#  - byte 3 >= 0x80 lands in the int's sign bit, and converting the negative
#    int to uint64_t sign-extends it: bits 32..63 become ones;
#  - bytes 4..7 are shifted by 32..56, undefined behaviour for a 32-bit int;
#    x86-64 takes the count modulo 32, so byte k lands on byte k-4 (and byte
#    7 >= 0x80 is sign-extended too). Another compiler, target or -O level
#    may fail other vectors: rebuild the list with update_expected_failures.py.
# Vectors whose high bytes are all zero, or whose wrong bits happen to cancel
# out (all bytes ff: byte 3's sign extension supplies the ones bytes 4..7
# should), pass and are not listed.
"""


def reason(request_line):
    """Why the snippet gets this `decode packed_guid` request wrong."""
    fields = request_line.split(" ")
    if fields[1:3] != ["decode", "packed_guid"] or len(fields) != 4:
        raise ValueError("not a decode packed_guid request: %r" % request_line)
    data = bytes.fromhex(fields[3]) if fields[3] != "-" else b""
    mask, rest = data[0], data[1:]
    position_of = [i for i in range(8) if mask & (1 << i)]
    by_position = dict(zip(position_of, rest))
    faults = []
    if by_position.get(3, 0) >= 0x80:
        faults.append("byte 3 = %02x sign-extended" % by_position[3])
    high = [k for k in range(4, 8) if by_position.get(k, 0) != 0]
    if high:
        faults.append(
            "byte%s %s shifted by >= 32 on an int (UB)"
            % ("s" if len(high) > 1 else "", ", ".join(map(str, high))))
    if by_position.get(7, 0) >= 0x80:
        faults.append("byte 7 = %02x sign-extended after the wrapped shift" % by_position[7])
    if not faults:
        raise ValueError("no known fault explains the failure of %r" % request_line)
    return "; ".join(faults)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: update_expected_failures.py REPORT.json > expected-failures.txt")
    with open(sys.argv[1]) as f:
        report = json.load(f)
    lines = []
    for result in report["results"]:
        if result["outcome"] not in ("fail", "xfail"):
            continue
        try:
            lines.append("%s  # %s" % (result["id"], reason(result["request"])))
        except ValueError as problem:
            sys.exit("update_expected_failures.py: %s (vector %s)" % (problem, result["id"]))
    sys.stdout.write(HEADER + "\n" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
