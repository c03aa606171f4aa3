#!/usr/bin/env python3
"""PLANTED BUG: the mask read as a count of GUID bytes, the misreading the spec
warns against ("not that two bytes will be sent").

Minimal vectors: decode packed_guid `02 00` (one byte follows mask 02; this
wants two and says eof) and `02 00 00` (this consumes 3 bytes, not 2).
"""

import sys

from _base import adapter


def decode_packed_guid(data):
    if not data:
        return ("error", "eof")
    count = data[0]
    if len(data) < 1 + count:
        return ("error", "eof")
    guid = int.from_bytes(data[1:1 + count], "little") & 0xFFFFFFFFFFFFFFFF
    return ("ok", adapter.format_guid(guid), str(1 + count))


adapter.decode_packed_guid = decode_packed_guid
sys.exit(adapter.main())
