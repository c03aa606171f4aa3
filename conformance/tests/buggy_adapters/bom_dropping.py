#!/usr/bin/env python3
"""PLANTED BUG: names are decoded as text with Python's `utf-8-sig` codec,
which drops a leading U+FEFF (what a default JavaScript TextDecoder does
too), and the name given back is the text encoded again: the BOM is lost.
vectors/NOTES.md says a name's bytes are kept as they are.

Minimal vector: GUID bytes 01 00 00 00 00 00 00 00, the name ef bb bf (a
BOM alone), the NUL: expected the 3-byte name, this answers an empty one.
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
        return ("error", "eof")
    try:
        text = data[8:nul].decode("utf-8-sig")
    except UnicodeDecodeError:
        return ("error", "invalid_utf8")
    name = text.encode("utf-8")
    return ("ok", adapter.format_guid(guid), str(nul + 1), adapter.format_bytes(name))


adapter.decode_named_guid = decode_named_guid
sys.exit(adapter.main())
