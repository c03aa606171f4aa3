#!/usr/bin/env bash
# Installs the wow-guid conformance runner for the action's run step: the
# action's install step is this script and nothing else, and .ci/run runs it
# in a fresh directory exactly so, which is how CI proves the default works.
# It also works outside GitHub (docs/ci.md, "The action's install script
# elsewhere"): every variable has a default there, and the last line it
# prints says where the runner is.
#
# Environment (the action sets each from its inputs):
#   INSTALL_FROM    auto (default), pypi, crates-io or source
#   RUNNER_VERSION  a version for pypi and crates-io; empty for the newest
#   ACTION_PATH     the action's directory (its repository's source is three
#                   levels up: .github/actions/conformance); default: this
#                   script's directory
#   INSTALL_ROOT    where to install (a directory the action caches);
#                   default: $XDG_CACHE_HOME/wow-guid-conformance (or
#                   ~/.cache/wow-guid-conformance)
#   GITHUB_PATH     a file the runner's directory is appended to (GitHub
#                   puts it on PATH for later steps); unset: none
#
# `install.sh --source-hash` prints a hash of the files the runner is built
# from (the action's cache key), and installs nothing.
#
# `auto` takes the wheel from PyPI when the index has one; when it has none
# (before the first release, or for a version never published) it says so
# in one line and builds the runner from the action's own source with
# cargo, once: the build lands in INSTALL_ROOT, which the action caches
# under the source hash, so later runs reuse it. `source` always builds
# from the action's source.
set -euo pipefail

install_from=${INSTALL_FROM:-auto}
version=${RUNNER_VERSION:-}
action_path=${ACTION_PATH:-$(dirname "${BASH_SOURCE[0]}")}
source_dir=$(cd "$action_path/../../.." && pwd)

# What `cargo install --path conformance` builds the runner from: the
# workspace's manifests and lock file, the four crates' sources and build
# scripts, and the data they embed. Tests, benches, adapters and docs are
# not in it, so changing them keeps the cached runner.
source_files() {
    local crate path
    local paths=(Cargo.toml Cargo.lock vectors/packed_guid vectors/named_guid vectors/generated
        vectors/releases vectors/fault-model.yaml vectors/schema.json conformance/matrix.schema.json)
    for crate in codec vectors conformance/harness conformance; do
        paths+=("$crate/Cargo.toml" "$crate/build.rs" "$crate/README.md" "$crate/src")
    done
    cd "$source_dir"
    for path in "${paths[@]}"; do
        if [[ -e $path ]]; then find "$path" -type f; fi
    done | LC_ALL=C sort
}

if [[ ${1:-} == --source-hash ]]; then
    source_files | (cd "$source_dir" && xargs sha256sum) | sha256sum | cut -c1-32
    exit 0
fi

root=${INSTALL_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/wow-guid-conformance}
path_file=${GITHUB_PATH:-}

note() { printf '%s\n' "$*" >&2; }

# Puts `dir` on the job's PATH (when GITHUB_PATH names a file) and says
# where the runner is, as the last line on stdout.
installed() {
    local dir=$1
    if [[ -n $path_file ]]; then
        echo "$dir" >>"$path_file"
    fi
    echo "installed the runner: $dir/wow-guid-conformance${path_file:+ (on PATH for the next steps)}"
}

from_pypi() { # from_pypi [quiet-if-absent]
    # A virtual environment of its own: system Pythons may refuse
    # `pip install` (PEP 668).
    local quiet_if_absent=${1:-}
    local venv=$root/venv
    local log=$root/pip.log
    python3 -m venv "$venv" || return 1
    if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "wow-guid-conformance${version:+==$version}" >"$log" 2>&1; then
        # For `auto`, no release (or not this version) is the expected case
        # before the first release, said in one plain line by the caller;
        # anything else (no network, a broken index) is shown as pip said it.
        if [[ -z $quiet_if_absent ]] ||
            ! grep -q -e 'Could not find a version that satisfies' -e 'No matching distribution found' "$log"; then
            cat "$log" >&2
        fi
        return 1
    fi
    installed "$venv/bin"
}

from_crates_io() {
    cargo install --locked --root "$root/cargo" wow-guid-conformance ${version:+--version "$version"}
    installed "$root/cargo/bin"
}

from_source() {
    local bin=$root/source/bin/wow-guid-conformance
    local want
    want=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$source_dir/conformance/Cargo.toml" | head -n 1)
    if [[ -x $bin ]] && [[ $("$bin" --version) == "wow-guid-conformance $want" ]]; then
        note "the runner $want built from the action's source is cached: $bin"
    else
        if ! command -v cargo >/dev/null; then
            echo "::error::building the runner from source needs a Rust toolchain (cargo); install one first, e.g. with dtolnay/rust-toolchain" >&2
            return 2
        fi
        note "building the runner $want from the action's source (once; the action caches it)"
        # cargo's closing warning that the root is not on PATH is answered
        # by the line `installed` prints after it.
        cargo install --locked --force --root "$root/source" --path "$source_dir/conformance"
    fi
    installed "$root/source/bin"
}

mkdir -p "$root"
case $install_from in
auto)
    if ! from_pypi quiet-if-absent; then
        # A notice, not an error: before the first release this is the
        # normal way in. On GitHub it is an annotation as well.
        message="no wow-guid-conformance${version:+ $version} release on PyPI yet: building from source (cached)"
        if [[ ${GITHUB_ACTIONS:-} == true ]]; then
            echo "::notice::$message"
        else
            note "$message"
        fi
        from_source
    fi
    ;;
pypi) from_pypi ;;
crates-io) from_crates_io ;;
source) from_source ;;
*)
    echo "::error::install-from must be auto, pypi, crates-io or source, not '$install_from'"
    exit 2
    ;;
esac
