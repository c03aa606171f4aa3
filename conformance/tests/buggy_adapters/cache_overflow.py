#!/usr/bin/env python3
"""PLANTED BUG: the named decoder keeps each input it decodes in a cache of
8 slots that nothing ever empties, as a cache without eviction would; the
9th named decode of a process overflows it (IndexError) and the process
ends.

Each request alone is answered correctly; a process crashes only after 8
named decodes. `run` must blame state kept between requests, not pipelining,
and its reproduce line must send the earlier requests first
(`tests/stateful.rs`).
"""

import sys

from _base import adapter

_cache = [None] * 8
_cached = 0
_decode_named_guid = adapter.decode_named_guid


def decode_named_guid(data):
    global _cached
    _cache[_cached] = data
    _cached += 1
    return _decode_named_guid(data)


adapter.decode_named_guid = decode_named_guid
sys.exit(adapter.main())
