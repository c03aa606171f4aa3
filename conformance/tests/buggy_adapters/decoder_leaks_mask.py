#!/usr/bin/env python3
"""PLANTED BUG: the packed decoder ORs each mask byte it reads into a
module-level variable that is never cleared, and the packed encoder starts
its mask from that variable's top bit instead of from 0, so once any decoded
mask had bit 7 set, every later encoding of a GUID whose top byte is 0 gets
bit 7 in its mask.

Each request alone is answered correctly; the failures show on ordinary
corpus vectors (not the steps of a sequence), after an unrelated decode
request. Minimal sequence: decode packed_guid 80 01 (GUID
0100000000000000, correct), then encode packed_guid 0000000000000001
(expected 01 01, this gives 81 01).
"""

import sys

from _base import adapter

_last_mask = [0]
_decode = adapter.decode_packed_guid
_encode = adapter.encode_packed_guid


def decode_packed_guid(data):
    if data:
        _last_mask[0] |= data[0]
    return _decode(data)


def encode_packed_guid(guid):
    answer = _encode(guid)
    if answer[0] != "ok" or answer[1] == "-":
        return answer
    encoded = bytearray(bytes.fromhex(answer[1]))
    encoded[0] |= _last_mask[0] & 0x80
    return ("ok", adapter.format_bytes(bytes(encoded)))


adapter.decode_packed_guid = decode_packed_guid
adapter.encode_packed_guid = encode_packed_guid
sys.exit(adapter.main())
