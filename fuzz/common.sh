# Shared by smoke.sh and ../.clusterfuzzlite/build.sh; source it, don't run it.
#
# fuzz_targets: the cargo-fuzz targets, one per line, from Cargo.toml.
# write_dict TARGET FILE: the libFuzzer dictionary for TARGET. The codec's
#   targets whose name says packed or named get that dictionary; the ones
#   that see both types (differential, stream) get both, and the list
#   targets (differential_*_many) the packed one. The runner's targets each
#   have their own (response, duration, list, report, yaml, implementations,
#   pipeline).
# seed_dir TARGET: the subdirectory of seed-corpus.sh's output that seeds
#   TARGET, or nothing when no seed fits its input (the list targets start
#   with a two-byte selector; the structured ones read through arbitrary).
#   The runner's targets have committed seeds in seeds/TARGET/ instead.
# fuzz_args TARGET: extra libFuzzer options for TARGET (below).

FUZZ_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

fuzz_targets() {
    # The [[bin]] names; read from the manifest so a new target needs no edit here.
    awk '/^\[\[bin\]\]/ { in_bin = 1; next }
         /^\[/ { in_bin = 0 }
         in_bin && /^name *=/ { gsub(/.*= *"|".*/, ""); print }' "$FUZZ_DIR/Cargo.toml"
}

write_dict() {
    local target=$1 out=$2
    case "$target" in
        response_line) cat "$FUZZ_DIR/dict/response.dict" ;;
        duration) cat "$FUZZ_DIR/dict/duration.dict" ;;
        expect_fail_list | id_file) cat "$FUZZ_DIR/dict/list.dict" ;;
        report_reader) cat "$FUZZ_DIR/dict/report.dict" ;;
        corpus_yaml) cat "$FUZZ_DIR/dict/yaml.dict" ;;
        implementations_file) cat "$FUZZ_DIR/dict/implementations.dict" "$FUZZ_DIR/dict/yaml.dict" ;;
        pipeline) cat "$FUZZ_DIR/dict/pipeline.dict" ;;
        *packed* | *_many) cat "$FUZZ_DIR/dict/packed.dict" ;;
        *named*) cat "$FUZZ_DIR/dict/named.dict" ;;
        *) cat "$FUZZ_DIR/dict/packed.dict" "$FUZZ_DIR/dict/named.dict" ;;
    esac >"$out"
}

seed_dir() {
    case "$1" in
        decode_packed_guid | decode_named_guid | differential | roundtrip_packed_guid | roundtrip_named_guid) echo "$1" ;;
        decode_named_guid_limit) echo decode_named_guid ;;
    esac
}

# fuzz_args TARGET: libFuzzer options a target needs on every run. The
# runner's line parsers read short lines, so their inputs are kept short
# (longer ones only repeat lines); the corpus loader runs under memory
# limits, which make an input that costs more than its size allows a
# finding (see README.md, "The runner's parsers").
fuzz_args() {
    case "$1" in
        response_line | duration | expect_fail_list | id_file) echo "-max_len=512" ;;
        corpus_yaml | implementations_file) echo "-rss_limit_mb=2048 -malloc_limit_mb=128" ;;
    esac
}
