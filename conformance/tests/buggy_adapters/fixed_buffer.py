#!/usr/bin/env python3
"""PLANTED BUG: names are read into a fixed buffer of 512 bytes; a reader
that fills the buffer before it meets a NUL takes the end of the buffer for
the end of the name, so a long name that runs to the end of the input
without its NUL is accepted, cut. Names that end within the buffer are read
correctly (every short "missing NUL" vector still passes).

Minimal vector: GUID bytes 01 00 00 00 00 00 00 00 and a name of 512 bytes
without a NUL: expected eof, this answers a 512-byte name.
"""

import sys

from _base import adapter

BUFFER = 512


def decode_named_guid(data):
    if len(data) < 8:
        return ("error", "eof")
    guid = int.from_bytes(data[:8], "little")
    if guid == 0:
        return ("ok", adapter.format_guid(0), "8")
    nul = data.find(b"\x00", 8)
    if nul < 0:
        if len(data) - 8 < BUFFER:
            return ("error", "eof")
        # The buffer is full: its end is taken for the end of the name.
        nul = 8 + BUFFER
        consumed = nul
    elif nul - 8 >= BUFFER:
        nul = 8 + BUFFER
        consumed = nul
    else:
        consumed = nul + 1
    name = data[8:nul]
    if not adapter.is_utf8(name):
        return ("error", "invalid_utf8")
    return ("ok", adapter.format_guid(guid), str(consumed), adapter.format_bytes(name))


adapter.decode_named_guid = decode_named_guid
sys.exit(adapter.main())
