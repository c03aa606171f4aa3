#!/usr/bin/env python3
"""PLANTED BUG: a packed decoder that loops forever on mask ff (a cursor that
wraps, say). The runner must time out, restart it, and go on.

Minimal vector: decode packed_guid `ff` (expected eof).
"""

import sys
import time

from _base import adapter

_correct = adapter.decode_packed_guid


def decode_packed_guid(data):
    if data and data[0] == 0xFF:
        while True:
            time.sleep(1)
    return _correct(data)


adapter.decode_packed_guid = decode_packed_guid
sys.exit(adapter.main())
