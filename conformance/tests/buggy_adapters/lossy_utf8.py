#!/usr/bin/env python3
"""PLANTED BUG: names are decoded as text with invalid bytes replaced by
U+FFFD (Python's errors="replace", what C#'s Encoding.UTF8.GetString and
Java's new String(bytes, UTF_8) do by default), and the name given back is
that text encoded again. vectors/NOTES.md#names-are-strict-utf-8 says a
name that is not UTF-8 is the error invalid_utf8.

Minimal vector: GUID bytes 01 00 00 00 00 00 00 00, the name 80, the NUL:
expected invalid_utf8, this answers the name ef bf bd.
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
    name = data[8:nul].decode("utf-8", errors="replace").encode("utf-8")
    return ("ok", adapter.format_guid(guid), str(nul + 1), adapter.format_bytes(name))


adapter.decode_named_guid = decode_named_guid
sys.exit(adapter.main())
