"""What is mutated in each independent codec, and how a mutant is built and run.

The boundary between codec and protocol glue is a list of function names:
only the bodies of these functions are mutated, whole, and nothing else of the
file. Where codec and glue share a file (python/adapter.py, js/adapter.js,
c/adapter.c), the listed functions are the ones under the file's "The codec"
banner that turn values into bytes and back; the printing helpers there
(`print_bytes`, `print_guid`) and everything under "The protocol" are glue.
mutate.py fails when a listed function is not found, so a rename cannot
silently shrink the measurement.

In the commands, {src} is a scratch copy of the adapter's folder with the
mutant written over the codec file, and {build} an empty folder for the build; the build runs in {src}.
Mutants are built without -Werror or -Xlint (a mutant that only warns is still
a mutant), but otherwise as conformance/adapters/ci.sh and .ci/run build them.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    """One independent codec."""

    name: str
    folder: str  # under conformance/adapters/
    codec: str  # the mutated file, in that folder
    functions: tuple
    mutator: str  # "clike", "mutmut" or "stryker"
    build: tuple = ()  # one command, or none (interpreted languages)
    run: tuple = ()
    go: bool = False  # Go's statements end at line ends


LANGUAGES = {
    language.name: language
    for language in (
        Language(
            "python", "python", "adapter.py",
            ("decode_packed_guid", "encode_packed_guid", "decode_named_guid", "encode_named_guid", "is_utf8"),
            "mutmut", run=("python3", "{src}/adapter.py"),
        ),
        Language(
            "js", "js", "adapter.js",
            ("decodePackedGuid", "encodePackedGuid", "decodeNamedGuid", "encodeNamedGuid"),
            "stryker", run=("node", "adapter.js"),
        ),
        Language(
            "go", "go", "codec.go",
            ("ReadPackedGuid", "AppendPackedGuid", "ReadNamedGuid", "AppendNamedGuid"),
            "clike", build=("go", "build", "-o", "{build}/adapter", "."),
            run=("{build}/adapter",), go=True,
        ),
        Language(
            "c", "c", "adapter.c",
            ("is_utf8", "decode_packed_guid", "encode_packed_guid", "decode_named_guid", "encode_named_guid"),
            "clike", build=("gcc", "-std=c99", "-O2", "-w", "-o", "{build}/adapter", "{src}/adapter.c"),
            run=("{build}/adapter",),
        ),
        Language(
            "cpp", "cpp", "wowguid_codec.hpp",
            ("is_valid_utf8", "read_packed_guid", "append_packed_guid", "read_named_guid", "append_named_guid"),
            "clike", build=("g++", "-std=c++17", "-O2", "-w", "-o", "{build}/adapter", "{src}/adapter.cpp"),
            run=("{build}/adapter",),
        ),
        Language(
            "java", "java", "WowGuidCodec.java",
            ("readPackedGuid", "writePackedGuid", "readNamedGuid", "writeNamedGuid", "isValidUtf8"),
            "clike", build=("javac", "-nowarn", "-d", "{build}", "{src}/Adapter.java", "{src}/WowGuidCodec.java"),
            run=("java", "-XX:TieredStopAtLevel=1", "-cp", "{build}", "Adapter"),
        ),
        Language(
            "csharp", "csharp", "WowGuidCodec.cs",
            ("ReadPackedGuid", "WritePackedGuid", "ReadNamedGuid", "WriteNamedGuid", "Fail", "IsValidUtf8"),
            "clike", build=("mcs", "-langversion:7", "-nowarn:162,219,168,1717", "-out:{build}/adapter.exe",
                            "{src}/Adapter.cs", "{src}/WowGuidCodec.cs"),
            run=("mono", "{build}/adapter.exe"),
        ),
    )
}
