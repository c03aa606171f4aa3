#!/usr/bin/env python3
"""PLANTED BUG: an encoder that writes what its own decoder refuses. The
decoder bounds names at 256 bytes (`name_too_long` past that, as the corpus
allows), but the encoder writes longer names all the same. No vector can show
it, nor any oracle that judges one request at a time: only the
implementation's own round trip, which `run` and `fuzz` check.

Minimal finding: `encode named_guid` of GUID 1 with a 257-byte name, answered
with its bytes, then `decode named_guid` of those bytes refused.
"""

import sys

from _base import adapter

BOUND = 256
unbounded = adapter.decode_named_guid


def decode_named_guid(data):
    answer = unbounded(data)
    if answer[0] == "ok" and len(answer) == 4 and len(answer[3]) // 2 > BOUND:
        return ("error", "name_too_long")
    return answer


adapter.decode_named_guid = decode_named_guid
sys.exit(adapter.main())
