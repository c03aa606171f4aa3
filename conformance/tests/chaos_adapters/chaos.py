#!/usr/bin/env python3
"""One adapter, many ways to misbehave: the zoo of the chaos suite.

$CHAOS_MODE picks the misbehaviour, which happens on the request whose id is
$BROKEN_ON, or, for the modes that need no such id, at start, on every
request, or (crash_after_n) on the request after the first $CRASH_AFTER.
Every other request is forwarded to the command given as arguments (the
reference `wow-guid-conformance serve`), one line at a time, answered and
flushed, so only the chosen request goes wrong.

Floods are written in blocks, so this adapter's own memory stays small: the
suite measures the runner's memory, not Python's.
"""
import os
import signal
import subprocess
import sys
import time

MODE = os.environ.get("CHAOS_MODE", "")
BROKEN_ON = os.environ.get("BROKEN_ON", "").encode()
out = sys.stdout.buffer
err = sys.stderr.buffer


def forever():
    while True:
        time.sleep(3600)


def flood(stream, block, total=None):
    """Writes `block` again and again, `total` bytes in all or forever."""
    written = 0
    while total is None or written < total:
        stream.write(block)
        written += len(block)
    stream.flush()


# Modes that misbehave from the start, before any request.
if MODE == "crash_at_once":
    sys.exit(3)
if MODE == "never_read":
    forever()
if MODE == "ignore_sigterm":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
if MODE == "grandchild":
    # A descendant in the same process group holds stdout open.
    subprocess.Popen(["sleep", "300"])
if MODE == "setsid_holder":
    # Every process leaves behind a descendant in a session of its own that
    # holds all three pipes open for two minutes, and otherwise answers
    # correctly: the chaos suite kills these by their CHAOS_TAG.
    subprocess.Popen(["sleep", "120"], start_new_session=True)
if MODE == "setsid_grandchild":
    # A descendant that leaves the process group holds stdout and stderr
    # open; it cannot be killed with the group, so it ends by itself.
    subprocess.Popen(["sleep", "3"], start_new_session=True)

serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def answer(line):
    serve.stdin.write(line)
    serve.stdin.flush()
    return serve.stdout.readline()


held = None  # an answer held back, for out-of-order answers
crash_after = int(os.environ.get("CRASH_AFTER", "5"))
seen = 0
for line in sys.stdin.buffer:
    request_id = line.split(b" ", 1)[0]
    seen += 1
    if MODE == "crash_after_n" and seen > crash_after:
        os._exit(3)
    if MODE == "hang_all":
        forever()
    if MODE == "slow":
        time.sleep(0.02)
    if MODE == "flood_no_newline_all" and request_id != b"liveness-probe":
        # Every request but the runner's liveness probe: 1.25 MiB, no newline.
        out.write(request_id + b" ok ")
        flood(out, b"ab" * 32768, 20 * 65536)
        forever()
    if MODE == "chatty":
        err.write(b"chatty: working on " + request_id + b"\n" * 50)
        err.flush()
    if MODE == "stderr_then_wrong":
        # A line on stderr, then at once a wrong answer (no request is
        # answered `error other` by the reference's decoder for valid bytes).
        err.write(b"about to answer " + request_id + b"\n")
        err.flush()
        out.write(request_id + b" error other\n")
        out.flush()
        continue
    if request_id != BROKEN_ON or not BROKEN_ON:
        out.write(answer(line))
        if held is not None:
            out.write(held)
            held = None
        out.flush()
        continue
    good = answer(line)
    if MODE in ("hang_one", "ignore_sigterm"):
        forever()
    elif MODE == "crash_mid_line":
        out.write(good[: len(good) // 2])
        out.flush()
        os._exit(3)
    elif MODE in ("grandchild", "setsid_grandchild"):
        os._exit(4)
    elif MODE == "flood_no_newline":
        out.write(request_id + b" ok ")
        flood(out, b"ab" * 32768, 1 << 30)
        forever()
    elif MODE == "endless_lines":
        flood(out, good * 1000)
    elif MODE == "stderr_flood":
        flood(err, b"e" * 65535 + b"\n", 200 << 20)
        out.write(good)
    elif MODE == "nul":
        out.write(request_id + b" ok \x00\x00\x00\n")
    elif MODE == "invalid_utf8":
        out.write(request_id + b" ok \xff\xfe\xc3\x28\n")
    elif MODE == "escapes":
        out.write(b"\x1b[2J\x1b[31m" + request_id + b" ok \x1b]0;owned\x07\n")
    elif MODE == "huge_id":
        out.write(b"x" * 500_000 + b" ok 00\n")
    elif MODE == "wrong_id":
        out.write(b"not." + good)
    elif MODE == "duplicate":
        out.write(good + good)
    elif MODE == "out_of_order":
        held = good
        continue
    else:
        sys.exit("chaos.py: unknown CHAOS_MODE " + MODE)
    out.flush()

if MODE == "extra_line":
    out.write(b"unsolicited line after the last answer\n")
    out.flush()
