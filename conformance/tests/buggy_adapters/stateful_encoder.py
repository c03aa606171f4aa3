#!/usr/bin/env python3
"""PLANTED BUG: the packed encoder writes into one output buffer kept between
calls, and ORs each mask bit into its first byte without clearing it first,
so every mask bit ever set stays set.

Each request alone is encoded correctly; only a sequence shows the bug.
Minimal sequence: encode packed_guid 0000000000000001 (01 01, correct), then
encode packed_guid 0000000000000000 (expected 00, this gives 01).
"""

import sys

from _base import adapter

_buffer = bytearray(9)


def encode_packed_guid(guid):
    end = 1
    for i in range(8):
        byte = (guid >> (8 * i)) & 0xFF
        if byte:
            _buffer[0] |= 1 << i
            _buffer[end] = byte
            end += 1
    return ("ok", adapter.format_bytes(bytes(_buffer[:end])))


adapter.encode_packed_guid = encode_packed_guid
sys.exit(adapter.main())
