#!/usr/bin/env python3
"""Checks the Python adapter's codec functions against the exported corpus,
without the runner: the way an implementer loads the vectors into their own
test suite.

    wow-guid-conformance export --format json --out vectors.json
    python3 conformance/adapters/python/test_export.py vectors.json

Every vector's request is taken from its raw bytes (`request.bytes`,
`request.guid`, `request.name`), handed to the matching function of
adapter.py, and the answer compared with `expect` as the runner judges it
with --strict-errors: `valid` needs exactly the expected value, `invalid`
the expected error code, `acceptable` either. Then the same checks run
against a codec with the spec's C-snippet bug (bytes shifted as a signed
32-bit int) to show that they catch it. Standard library only; prints
`N passed, N failed` and exits 1 on any failure.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter  # noqa: E402  (the codec under test, beside this file)


def hex_bytes(data):
    """Bytes as adapter.py answers them: lowercase hex, '-' when empty."""
    return bytes(data).hex() if data else "-"


def call(codec, vector):
    """The codec's answer to the vector's request, as a tuple of fields."""
    request = vector["request"]
    kind = (vector["op"], vector["type"])
    if kind == ("decode", "packed_guid"):
        return codec.decode_packed_guid(bytes(request["bytes"]))
    if kind == ("decode", "named_guid"):
        return codec.decode_named_guid(bytes(request["bytes"]))
    guid = int(request["guid"], 16)
    if kind == ("encode", "packed_guid"):
        return codec.encode_packed_guid(guid)
    if kind == ("size", "packed_guid"):
        return codec.size_packed_guid(guid)
    name = bytes(request["name"]) if request["has_name"] else None
    if kind == ("size", "named_guid"):
        return codec.size_named_guid(guid, name)
    return codec.encode_named_guid(guid, name)


def expected_fields(vector):
    """The fields of a successful answer, as adapter.py writes them."""
    expect = vector["expect"]
    if vector["op"] == "encode":
        return ("ok", hex_bytes(expect["bytes"]))
    if vector["op"] == "size":
        return ("ok", str(expect["size"]))
    fields = ("ok", expect["guid"], str(expect["consumed"]))
    if expect["name"] is not None:
        fields += (hex_bytes(expect["name"]),)
    return fields


def judge(vector, answer):
    """None when the answer is conformant, otherwise what is wrong."""
    outcome = vector["outcome"]
    if outcome == "invalid":
        wanted = ("error", vector["expect"]["error"])
        return None if tuple(answer) == wanted else "expected %s, got %s" % (wanted, answer)
    wanted = expected_fields(vector)
    if tuple(answer) == wanted:
        return None
    if outcome == "acceptable" and answer[0] == "error":
        return None
    return "expected %s%s, got %s" % (wanted, " or an error" if outcome == "acceptable" else "", answer)


def check(codec, vectors):
    """(passed, failures) of `codec` over `vectors`, in order."""
    failures = []
    for vector in vectors:
        problem = judge(vector, call(codec, vector))
        if problem:
            failures.append((vector, problem))
    return len(vectors) - len(failures), failures


class SignExtending:
    """adapter.py's codec with the spec's C snippet bug in the packed decoder:
    each byte is shifted as a signed 32-bit int, so a byte >= 0x80 at
    position 3 sets the high 32 bits (what the snippet does on the usual
    compilers; positions 4 to 7 are undefined behaviour in C, taken here as
    x86's shift count modulo 32)."""

    encode_packed_guid = staticmethod(adapter.encode_packed_guid)
    decode_named_guid = staticmethod(adapter.decode_named_guid)
    encode_named_guid = staticmethod(adapter.encode_named_guid)
    size_packed_guid = staticmethod(adapter.size_packed_guid)
    size_named_guid = staticmethod(adapter.size_named_guid)

    @staticmethod
    def decode_packed_guid(data):
        answer = adapter.decode_packed_guid(data)
        if answer[0] != "ok":
            return answer
        guid, cursor = 0, 1
        for i in range(8):
            if data[0] & (1 << i):
                shifted = (data[cursor] << ((8 * i) % 32)) & 0xFFFFFFFF
                if shifted & 0x80000000:
                    shifted -= 1 << 32  # an int that went negative
                guid |= shifted & 0xFFFFFFFFFFFFFFFF  # widened with its sign
                cursor += 1
        return ("ok", "%016x" % guid, answer[2])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: test_export.py EXPORT.json  (from `wow-guid-conformance export --format json`)")
    with open(sys.argv[1], encoding="utf-8") as f:
        document = json.load(f)
    if document.get("format") != "wow-guid-vectors" or document.get("format_version") != 1:
        sys.exit("%s: not a version 1 wow-guid-vectors export" % sys.argv[1])
    vectors = document["vectors"]
    if len(vectors) != document["vector_count"] or not vectors:
        sys.exit("%s: vector_count says %s, the file has %d vectors"
                 % (sys.argv[1], document["vector_count"], len(vectors)))

    # The checks must be able to fail: the snippet's decoder gets the spec's
    # own worked example wrong (ffffffffad00de00), and every vector that
    # catches it is about a byte >= 0x80 or a byte at position 4 to 7.
    _, caught = check(SignExtending, vectors)
    caught_ids = {v["id"] for v, _ in caught}
    if "packed.decode.doc-example" not in caught_ids:
        print("self-check failed: the sign-extending decoder passed packed.decode.doc-example")
        sys.exit(1)

    passed, failures = check(adapter, vectors)
    for vector, problem in failures:
        print("FAIL %s (%s:%d): %s" % (vector["id"], vector["file"], vector["line"], problem))
    print("adapter.py against the exported corpus (the spec's sign extension is caught by %d vectors):"
          % len(caught))
    print("%d passed, %d failed" % (passed, len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
