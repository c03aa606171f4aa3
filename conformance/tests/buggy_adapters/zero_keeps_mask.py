#!/usr/bin/env python3
"""PLANTED BUG: the packed encoder writes into one output buffer kept between
calls and sets its mask byte only when a byte is present, so GUID 0 comes out
as the mask byte of the encoding before it.

Each request alone is encoded correctly; only GUID 0 after another encode
shows the bug. In the corpus's order that happens inside the stateful
sequence alone (`packed.encode.stateful.03-zero` and `06-zero-again`), so
`run` and `repro` fail exactly these two: `tests/adapters.rs` holds them to
that. Minimal sequence: encode packed_guid 0000000000000001 (01 01, correct),
then encode packed_guid 0000000000000000 (expected 00, this gives 01).
"""

import sys

from _base import adapter

_buffer = bytearray(9)


def encode_packed_guid(guid):
    end = 1
    mask = 0
    for i in range(8):
        byte = (guid >> (8 * i)) & 0xFF
        if byte:
            mask |= 1 << i
            _buffer[end] = byte
            end += 1
    if mask:
        _buffer[0] = mask
    return ("ok", adapter.format_bytes(bytes(_buffer[:end])))


adapter.encode_packed_guid = encode_packed_guid
sys.exit(adapter.main())
