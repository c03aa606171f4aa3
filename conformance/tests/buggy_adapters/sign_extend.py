#!/usr/bin/env python3
"""PLANTED BUG: the spec's C snippet, `guid |= (data[cursor] << (i * 8))`.

`data[cursor]` is promoted to a 32-bit int before the shift, so at position 3
a byte >= 0x80 sets bit 31 and the value is sign-extended into the upper 32
bits, and at positions 4 to 7 the shift count is taken modulo 32 (what x86
does with the undefined shift). Minimal vector: decode packed_guid `08 80`
(expected 0000000080000000, this gives ffffffff80000000).
"""

import sys

from _base import adapter


def decode_packed_guid(data):
    if not data:
        return ("error", "eof")
    mask = data[0]
    consumed = 1 + bin(mask).count("1")
    if len(data) < consumed:
        return ("error", "eof")
    guid = 0
    cursor = 1
    for i in range(8):
        if mask & (1 << i):
            shifted = (data[cursor] << ((i * 8) % 32)) & 0xFFFFFFFF
            if shifted & 0x80000000:
                shifted |= 0xFFFFFFFF00000000  # the int, sign-extended to 64 bits
            guid |= shifted
            cursor += 1
    return ("ok", adapter.format_guid(guid), str(consumed))


adapter.decode_packed_guid = decode_packed_guid
sys.exit(adapter.main())
