#!/usr/bin/env python3
"""PLANTED BUG: the spec's Python snippet, which indexes past the end of
truncated input; the IndexError ends the process (a crash, to the runner).

Minimal vector: decode packed_guid with empty input (expected eof).
"""

import sys

from _base import adapter


def parse_packed_guid(byte_mask, data):
    guid = 0
    cursor = 0
    for i in range(0, 8):
        if byte_mask & (1 << i):
            guid |= data[cursor] << (i * 8)
            cursor += 1
    return guid


def decode_packed_guid(data):
    byte_mask = data[0]
    guid = parse_packed_guid(byte_mask, data[1:])
    return ("ok", adapter.format_guid(guid), str(1 + bin(byte_mask).count("1")))


adapter.decode_packed_guid = decode_packed_guid
sys.exit(adapter.main())
