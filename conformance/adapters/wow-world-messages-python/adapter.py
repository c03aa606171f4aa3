#!/usr/bin/env python3
"""Conformance adapter for the published package wow-world-messages 0.1.0
(PyPI), Wrath (3.3.5) module `wow_world_messages.wrath`.

It calls only what that module exports in `__all__`, and asyncio's public
StreamReader API:

  decode packed_guid  SMSG_BREAK_TARGET.read(reader, body_size): the message
                      is one PackedGuid, so the bytes it leaves in the reader
                      give the length the package read.
  encode packed_guid  SMSG_BREAK_TARGET(guid).write_encrypted_server(writer,
                      crypto), the only writer the package has for server
                      messages; the header (4 bytes, encrypted) is dropped
                      and the body is the value.
  decode named_guid   NamedGuid.read(reader) (NamedGuid is exported).
  encode named_guid   NamedGuid(guid, name).write(fmt, data), packed as the
                      package's messages pack their bodies:
                      struct.pack(fmt, *data) with fmt starting "<".

The package has no PackedGuid type: the helpers in wow_world_messages.util
are not exported by any module's __all__, so the adapter goes through a
message that carries the type, as a user of the package would.

Errors: the package has no error types of its own; it lets asyncio's and
Python's exceptions through. An input that ends early raises
asyncio.IncompleteReadError (answered `error eof`) and a name that is not
UTF-8 raises UnicodeDecodeError (`error invalid_utf8`). Any other exception
is a bug in the package, not a verdict on the input: the adapter answers
what it has answered so far, prints the traceback on stderr and exits, so
the runner records the request as `crashed` and restarts the adapter.

See README.md beside this file for every deviation and its place in the
package's source.
"""

import asyncio
import os
import struct
import sys
import traceback

import wow_srp
from wow_world_messages.wrath import SMSG_BREAK_TARGET, NamedGuid

# --------------------------------------------------------------------------
# The package.
# --------------------------------------------------------------------------

LOOP = asyncio.new_event_loop()


def run(coroutine):
    return LOOP.run_until_complete(coroutine)


async def read_from(data, read):
    """Runs `read(reader)` on a reader holding `data`; returns the value and
    how many bytes it took from the reader."""
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    value = await read(reader)
    left = await reader.read()
    return value, len(data) - len(left)


def package_error(error):
    """The protocol code for an exception the package raises on bad input,
    or None for any other exception (a bug in the package)."""
    if isinstance(error, asyncio.IncompleteReadError):
        return "eof"
    if isinstance(error, UnicodeDecodeError):
        return "invalid_utf8"
    return None


def decode_packed_guid(data):
    message, consumed = run(read_from(data, lambda r: SMSG_BREAK_TARGET.read(r, len(data))))
    return ("ok", format_guid(message.guid), str(consumed))


class BodyWriter:
    """A stream writer for write_encrypted_server: keeps what it is given."""

    def __init__(self):
        self.data = b""

    def write(self, data):
        self.data += data


def server_header_crypto():
    """A real Wrath server header cipher, from wow_srp (the package's own
    dependency): a client and a server seed agree on a session key."""
    username, session_key = "ADAPTER", bytes(range(40))
    server_seed, client_seed = wow_srp.WrathProofSeed(), wow_srp.WrathProofSeed()
    client_proof, _ = client_seed.into_client_header_crypto(username, session_key, server_seed.seed())
    return server_seed.into_server_header_crypto(username, session_key, client_proof, client_seed.seed())


CRYPTO = server_header_crypto()
SERVER_HEADER_LENGTH = 4  # a u16 size and a u16 opcode, encrypted


def encode_packed_guid(guid):
    writer = BodyWriter()
    SMSG_BREAK_TARGET(guid=guid).write_encrypted_server(writer, CRYPTO)
    return ("ok", format_bytes(writer.data[SERVER_HEADER_LENGTH:]))


def decode_named_guid(data):
    value, consumed = run(read_from(data, NamedGuid.read))
    # Reached only if NamedGuid.read returns; see README.md.
    if value.guid == 0:
        return ("ok", format_guid(0), str(consumed))
    return ("ok", format_guid(value.guid), str(consumed), format_bytes(value.name.encode("utf-8")))


def encode_named_guid(guid, name):
    # The name goes in as bytes: NamedGuid.write hands it to struct's "s"
    # format, which takes bytes only (a str raises struct.error).
    fmt, data = NamedGuid(guid=guid, name=name).write("<", [])
    return ("ok", format_bytes(struct.pack(fmt, *data)))


# --------------------------------------------------------------------------
# The protocol (as in ../python/adapter.py).
# --------------------------------------------------------------------------

HEX_DIGITS = set(b"0123456789abcdefABCDEF")


class BadRequest(Exception):
    """A request line that cannot be understood; the message says why."""


class PackageCrashed(Exception):
    """The package raised something that is not a verdict on the input."""


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


HANDLERS = {
    (b"decode", b"packed_guid"): (lambda a: decode_packed_guid(parse_bytes(a[0])), 1, 1),
    (b"encode", b"packed_guid"): (lambda a: encode_packed_guid(parse_guid(a[0])), 1, 1),
    (b"decode", b"named_guid"): (lambda a: decode_named_guid(parse_bytes(a[0])), 1, 1),
    (b"encode", b"named_guid"): (
        lambda a: encode_named_guid(parse_guid(a[0]), parse_bytes(a[1]) if len(a) > 1 else None),
        1, 2),
}


def handle(op, kind, args):
    if (op, kind) not in HANDLERS:
        return ("unsupported",)
    handler, min_args, max_args = HANDLERS[(op, kind)]
    if not min_args <= len(args) <= max_args:
        raise BadRequest("%s %s takes %d to %d argument(s), got %d"
                         % (op.decode(), kind.decode(), min_args, max_args, len(args)))
    try:
        return handler(args)
    except BadRequest:
        raise
    except Exception as error:  # the package's exceptions, whatever they are
        code = package_error(error)
        if code is None:
            raise PackageCrashed() from error
        sys.stderr.write("wow_world_messages: %s: %s\n" % (type(error).__name__, error))
        return ("error", code)


def respond(line):
    fields = line.split(b" ")
    try:
        if len(fields) < 3:
            raise BadRequest("expected '<id> <op> <type> [args...]'")
        answer = handle(fields[1], fields[2], fields[3:])
    except BadRequest as problem:
        sys.stderr.write("adapter: bad request %r: %s\n" % (line.decode("latin-1"), problem))
        answer = ("error", "other")
    return fields[0] + b" " + " ".join(answer).encode("ascii") + b"\n"


def write_all(data):
    while data:
        data = data[os.write(1, data):]


def main():
    pending = b""
    while True:
        chunk = os.read(0, 1 << 16)
        if chunk:
            *lines, pending = (pending + chunk).split(b"\n")
        else:
            lines, pending = ([pending] if pending else []), b""
        answers = []
        crashed = None
        for line in lines:
            line = line.rstrip(b"\r")
            if not line:
                sys.stderr.write("adapter: ignoring an empty line\n")
                continue
            try:
                answers.append(respond(line))
            except PackageCrashed as crash:
                crashed = (line, crash.__cause__)
                break
        try:
            write_all(b"".join(answers))
        except BrokenPipeError:
            return 0
        if crashed:
            line, error = crashed
            sys.stderr.write("adapter: the package raised an exception on %r:\n"
                             % line.decode("latin-1"))
            traceback.print_exception(error)
            return 70  # EX_SOFTWARE: the request that caused it gets no answer
        if not chunk:
            return 0


if __name__ == "__main__":
    sys.exit(main())
