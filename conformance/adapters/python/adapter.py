#!/usr/bin/env python3
"""PackedGuid / NamedGuid conformance adapter in Python (standard library only).

The conformance runner starts this program and talks to it over pipes: one
request line on stdin, one response line on stdout, in order. It also works
when it gets a single line and then end of input (one-shot mode), so you can
try it by hand:

    echo "t1 decode packed_guid 0adead" | python3 adapter.py
    t1 ok 00000000ad00de00 3

Requests                                      Responses
  <id> decode packed_guid <bytes>               <id> ok <guid> <consumed>
  <id> encode packed_guid <guid>                <id> ok <bytes>
  <id> decode named_guid <bytes>                <id> ok <guid> <consumed> [<name>]
  <id> encode named_guid <guid> [<name>]        <id> ok <bytes>
  <id> size packed_guid <guid>                  <id> ok <size>
  <id> size named_guid <guid> [<name>]          <id> ok <size>
                                                <id> error <code>
                                                <id> unsupported

Bytes are hex ("-" is the empty string), GUIDs exactly 16 hex digits, most
significant first. Error codes: eof, invalid_utf8, interior_nul,
name_without_guid, name_too_long, other.

To test your own codec, copy this file and replace the functions under
"The codec" with calls into your implementation; the protocol half stays.
The two size functions (how many bytes the encoding takes) are optional:
without them, leave them out of HANDLERS and the runner skips those vectors.
"""

import os
import sys

# --------------------------------------------------------------------------
# The codec. Each function returns ("ok", fields...) or ("error", code).
# --------------------------------------------------------------------------


def decode_packed_guid(data):
    if not data:
        return ("error", "eof")  # not even the mask byte
    mask = data[0]
    # The mask's *bits* say which GUID bytes follow, least significant first;
    # its numeric value is not a count.
    consumed = 1 + bin(mask).count("1")
    if len(data) < consumed:
        return ("error", "eof")
    guid = 0
    cursor = 1
    for i in range(8):
        if mask & (1 << i):
            guid |= data[cursor] << (8 * i)
            cursor += 1
    # Bytes after `consumed` belong to the next field of the message: not an error.
    return ("ok", format_guid(guid), str(consumed))


def encode_packed_guid(guid):
    # The shortest form: a mask bit and a byte exactly for each non-zero byte.
    mask = 0
    body = bytearray()
    for i in range(8):
        byte = (guid >> (8 * i)) & 0xFF
        if byte:
            mask |= 1 << i
            body.append(byte)
    return ("ok", format_bytes(bytes([mask]) + bytes(body)))


def decode_named_guid(data):
    if len(data) < 8:
        return ("error", "eof")
    guid = int.from_bytes(data[:8], "little")
    if guid == 0:
        return ("ok", format_guid(0), "8")  # GUID 0 has no name on the wire
    nul = data.find(b"\x00", 8)
    if nul < 0:
        return ("error", "eof")  # the name runs into the end of the input
    name = data[8:nul]
    if not is_utf8(name):
        return ("error", "invalid_utf8")
    return ("ok", format_guid(guid), str(nul + 1), format_bytes(name))


def encode_named_guid(guid, name):
    # Checked in this order so that a request breaking several rules gets the
    # one code vectors/NOTES.md gives it ("Two faults in one input").
    if name is not None:
        if b"\x00" in name:
            return ("error", "interior_nul")
        if not is_utf8(name):
            return ("error", "invalid_utf8")
    if guid == 0 and name is not None:
        return ("error", "name_without_guid")
    if guid != 0 and name is None:
        return ("error", "other")  # a non-zero GUID always carries a name
    out = guid.to_bytes(8, "little")
    if guid != 0:
        out += name + b"\x00"
    return ("ok", format_bytes(out))


def size_packed_guid(guid):
    # The mask byte and one byte for each non-zero GUID byte.
    present = sum(1 for i in range(8) if (guid >> (8 * i)) & 0xFF)
    return ("ok", str(1 + present))


def size_named_guid(guid, name):
    # A value encode_named_guid refuses has no size: the same refusal.
    answer = encode_named_guid(guid, name)
    if answer[0] == "error":
        return answer
    # The GUID, then the name in bytes (never characters) and its NUL.
    return ("ok", str(8 + (len(name) + 1 if guid != 0 else 0)))


def is_utf8(data):
    # Python's decoder is strict: it rejects overlong forms, surrogates,
    # code points above U+10FFFF and cut-off sequences.
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# --------------------------------------------------------------------------
# The protocol.
# --------------------------------------------------------------------------

HEX_DIGITS = set(b"0123456789abcdefABCDEF")


class BadRequest(Exception):
    """A request line that cannot be understood; the message says why."""


def parse_bytes(field):
    if field == b"-":
        return b""
    if not field or len(field) % 2 or not set(field) <= HEX_DIGITS:
        raise BadRequest("expected hex bytes or '-', got %r" % field.decode("latin-1"))
    return bytes.fromhex(field.decode("ascii"))


def parse_guid(field):
    if len(field) != 16 or not set(field) <= HEX_DIGITS:
        raise BadRequest("expected a GUID of 16 hex digits, got %r" % field.decode("latin-1"))
    return int(field, 16)


def format_bytes(data):
    return data.hex() if data else "-"


def format_guid(guid):
    return "%016x" % guid


def handle(op, kind, args):
    """Answers one request (everything after the id); returns the fields to print."""
    if (op, kind) not in HANDLERS:
        # A request kind this adapter does not know (a newer protocol, say):
        # the runner counts it as skipped, not failed.
        return ("unsupported",)
    handler, min_args, max_args = HANDLERS[(op, kind)]
    if not min_args <= len(args) <= max_args:
        raise BadRequest(
            "%s %s takes %s argument(s), got %d"
            % (op.decode(), kind.decode(),
               min_args if min_args == max_args else "%d or %d" % (min_args, max_args),
               len(args)))
    return handler(args)


HANDLERS = {
    (b"decode", b"packed_guid"): (lambda a: decode_packed_guid(parse_bytes(a[0])), 1, 1),
    (b"encode", b"packed_guid"): (lambda a: encode_packed_guid(parse_guid(a[0])), 1, 1),
    (b"decode", b"named_guid"): (lambda a: decode_named_guid(parse_bytes(a[0])), 1, 1),
    (b"encode", b"named_guid"): (
        lambda a: encode_named_guid(parse_guid(a[0]), parse_bytes(a[1]) if len(a) > 1 else None),
        1, 2),
    (b"size", b"packed_guid"): (lambda a: size_packed_guid(parse_guid(a[0])), 1, 1),
    (b"size", b"named_guid"): (
        lambda a: size_named_guid(parse_guid(a[0]), parse_bytes(a[1]) if len(a) > 1 else None),
        1, 2),
}


def respond(line):
    """Turns one request line (bytes, no line ending) into one response line (bytes)."""
    fields = line.split(b" ")
    try:
        if len(fields) < 3:
            raise BadRequest("expected '<id> <op> <type> [args...]'")
        answer = handle(fields[1], fields[2], fields[3:])
    except BadRequest as problem:
        # Say what was wrong on stderr (the runner keeps its tail for the
        # failure report), and still answer so the conversation stays in step.
        sys.stderr.write("adapter.py: bad request %r: %s\n" % (line.decode("latin-1"), problem))
        answer = ("error", "other")
    # The id goes back byte for byte, whatever it is.
    return fields[0] + b" " + " ".join(answer).encode("ascii") + b"\n"


def write_all(data):
    while data:
        data = data[os.write(1, data):]


def main():
    pending = b""
    while True:
        # os.read returns whatever has arrived (at least one byte, or b"" at
        # the end of input), so every complete line in it is answered at once
        # and the answers are written together: output is flushed exactly when
        # no more input is waiting. os.write is unbuffered, so nothing waits
        # in a buffer for a flush that never comes.
        chunk = os.read(0, 1 << 16)
        if chunk:
            *lines, pending = (pending + chunk).split(b"\n")
        else:
            # End of input: a last line without a newline (one-shot mode
            # allows it) still gets its answer.
            lines, pending = ([pending] if pending else []), b""
        answers = []
        for line in lines:
            line = line.rstrip(b"\r")
            if line:
                answers.append(respond(line))
            else:
                sys.stderr.write("adapter.py: ignoring an empty line\n")
        try:
            write_all(b"".join(answers))
        except BrokenPipeError:
            return 0  # the runner has gone away: nobody is left to answer
        if not chunk:
            return 0


if __name__ == "__main__":
    sys.exit(main())
