#!/usr/bin/env python3
"""PLANTED BUGS, two of one request kind (decode named_guid):

1. an input that ends right after a non-zero GUID is taken for an empty
   name, as if "no bytes left" and "a name of no bytes" were the same thing
   (expected eof). Minimal vector: the 8 bytes 00 00 00 00 00 00 00 01;
2. no UTF-8 check on names (expected invalid_utf8). Minimal vector: those 8
   bytes, the name byte 80 (the smallest byte that is not UTF-8 on its own)
   and the NUL: 10 bytes.

Both accept invalid input, so a fuzzer that groups findings by "a value
instead of an error" reports whichever it meets first and hides the other.
"""

import sys

from _base import adapter


def decode_named_guid(data):
    if len(data) < 8:
        return ("error", "eof")
    guid = int.from_bytes(data[:8], "little")
    if guid == 0:
        return ("ok", adapter.format_guid(0), "8")
    if len(data) == 8:
        return ("ok", adapter.format_guid(guid), "8", adapter.format_bytes(b""))
    nul = data.find(b"\x00", 8)
    if nul < 0:
        return ("error", "eof")
    return ("ok", adapter.format_guid(guid), str(nul + 1), adapter.format_bytes(data[8:nul]))


adapter.decode_named_guid = decode_named_guid
sys.exit(adapter.main())
