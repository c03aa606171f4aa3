#!/usr/bin/env python3
"""PLANTED BUG (a precedence, not a crash): the encoder checks a name's UTF-8
before it looks for a NUL, so a name with both faults gets invalid_utf8
where vectors/NOTES.md#two-faults-in-one-input pins interior_nul. Only
`--strict-errors` tells it from the reference; `run` and `fuzz` must agree
on it.

Minimal vector: encode GUID 0000000000000001 with the name 00 80: expected
interior_nul, this answers invalid_utf8.
"""

import sys

from _base import adapter


def encode_named_guid(guid, name):
    if name is not None:
        if not adapter.is_utf8(name):
            return ("error", "invalid_utf8")
        if b"\x00" in name:
            return ("error", "interior_nul")
    if guid == 0 and name is not None:
        return ("error", "name_without_guid")
    if guid != 0 and name is None:
        return ("error", "other")
    out = guid.to_bytes(8, "little")
    if guid != 0:
        out += name + b"\x00"
    return ("ok", adapter.format_bytes(out))


adapter.encode_named_guid = encode_named_guid
sys.exit(adapter.main())
