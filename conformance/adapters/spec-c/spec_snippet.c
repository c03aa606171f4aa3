/*
 * The C snippet from the PackedGuid specification: the wowm language
 * documentation of gtker/wow_messages, page
 * wowm_language/src/types/packed-guid.md (wowm_language/src/spec/packed-guid.md
 * until commit bdf2af6c, the same text), section "Examples"; read at commit
 * e1c9e15a8b94fce76cbd433cf49bd67c376a99d7.
 *
 * Copyright 2020 Gtker. Licensed under either of the MIT license or the
 * Apache License 2.0, at your option (wow_messages' LICENSE-MIT and
 * LICENSE-APACHE).
 *
 * Copied UNCHANGED: the function parse_packed_guid is byte for byte the
 * spec's, from its first line to its closing brace, and tests/adapters.rs
 * checks that against the spec text.
 * The spec's example main() is left out (adapter.c has the real one); its two
 * #include lines are kept so this file compiles on its own.
 *
 * The snippet is wrong, and that is the point of this example: data[cursor]
 * is promoted to a 32-bit int before `<< (i * 8)`, so a byte >= 0x80 at
 * position 3 is sign-extended into the upper 32 bits, and positions 4 to 7
 * shift an int by 32 or more, which is undefined behaviour. The snippet also
 * trusts the caller to have checked the length. Do not fix it here:
 * adapter.c and expected-failures.txt exist to show the conformance runner
 * catching exactly this bug.
 */
#include <stdint.h>
#include <stdio.h>

uint64_t parse_packed_guid(uint8_t byte_mask, uint8_t* data) {
    uint64_t guid = 0;
    // We can't use i because only set bits move the cursor
    uint8_t cursor = 0;

    for (uint8_t i = 0; i < 8; ++i) {
        if (byte_mask & (1 << i)) {
            guid |= (data[cursor] << (i * 8));

            ++cursor;
        }
    }

    return guid;
}
