# Shared by smoke.sh and ../.clusterfuzzlite/build.sh; source it, don't run it.
#
# fuzz_targets: the cargo-fuzz targets, one per line, from Cargo.toml.
# write_dict TARGET FILE: the libFuzzer dictionary for TARGET. Targets whose
#   name says packed or named get that dictionary; the ones that see both
#   types (differential, stream) get both, and the list targets
#   (differential_*_many) the packed one.
# seed_dir TARGET: the subdirectory of seed-corpus.sh's output that seeds
#   TARGET, or nothing when no seed fits its input (the list targets start
#   with a two-byte selector; the structured ones read through arbitrary).

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
        *packed* | *_many) cat "$FUZZ_DIR/dict/packed.dict" ;;
        *named*) cat "$FUZZ_DIR/dict/named.dict" ;;
        *) cat "$FUZZ_DIR/dict/packed.dict" "$FUZZ_DIR/dict/named.dict" ;;
    esac >"$out"
}

seed_dir() {
    case "$1" in
        decode_packed_guid | decode_named_guid | differential) echo "$1" ;;
        decode_named_guid_limit) echo decode_named_guid ;;
    esac
}
