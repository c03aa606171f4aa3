#!/usr/bin/env python3
"""PLANTED BUG: a name that runs into the end of the input is accepted as if
the NUL were there (vectors/NOTES.md#a-name-must-end-with-its-nul: emulators
tolerate it; the spec does not).

Minimal vector: the 8 bytes 00 00 00 00 00 00 00 01 (a non-zero GUID, then
nothing): expected eof, this answers the GUID with an empty name.
"""

import sys

from _base import adapter


def decode_named_guid(data):
    if len(data) < 8:
        return ("error", "eof")
    guid = int.from_bytes(data[:8], "little")
    if guid == 0:
        return ("ok", adapter.format_guid(0), "8")
    nul = data.find(b"\x00", 8)
    if nul < 0:
        nul = len(data)
        consumed = len(data)
    else:
        consumed = nul + 1
    name = data[8:nul]
    if not adapter.is_utf8(name):
        return ("error", "invalid_utf8")
    return ("ok", adapter.format_guid(guid), str(consumed), adapter.format_bytes(name))


adapter.decode_named_guid = decode_named_guid
sys.exit(adapter.main())
