#!/usr/bin/env python3
"""PLANTED BUG: a NamedGuid decoder that stops a name after 256 bytes and then
swallows the next byte as if it were the NUL (vectors/NOTES.md#names-have-no-length-limit: what wow_messages
does), so the rest of the message is read out of step.

Minimal vector (wrong byte count): GUID bytes 00 00 00 00 00 00 00 01, a name
of 257 bytes 01, the NUL: 266 bytes, consumed 266, not 265.
"""

import sys

from _base import adapter


def decode_named_guid(data):
    if len(data) < 8:
        return ("error", "eof")
    guid = int.from_bytes(data[:8], "little")
    if guid == 0:
        return ("ok", adapter.format_guid(0), "8")
    end = 8
    while end < len(data) and data[end] != 0 and end - 8 < 256:
        end += 1
    if end >= len(data):
        return ("error", "eof")
    name = data[8:end]
    if not adapter.is_utf8(name):
        return ("error", "invalid_utf8")
    # data[end] is taken for the NUL, whatever it is.
    return ("ok", adapter.format_guid(guid), str(end + 1), adapter.format_bytes(name))


adapter.decode_named_guid = decode_named_guid
sys.exit(adapter.main())
