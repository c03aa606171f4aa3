#!/usr/bin/env bash
# Installs the wow-guid conformance runner for the action's run step: the
# action's install step is this script and nothing else, and .ci/run runs it
# in a fresh directory exactly so, which is how CI proves the default works.
#
# Environment (the action sets each from its inputs):
#   INSTALL_FROM    auto (default), pypi, crates-io or source
#   RUNNER_VERSION  a version for pypi and crates-io; empty for the newest
#   ACTION_PATH     the action's directory (its repository's source is three
#                   levels up: .github/actions/conformance)
#   INSTALL_ROOT    where to install (a directory the action caches)
#   GITHUB_PATH     the file the runner's directory is appended to
#
# `auto` takes the wheel from PyPI when the index has one; when it has none
# (before the first release, or for a version never published) it builds
# the runner from the action's own source with cargo, once: the build lands
# in INSTALL_ROOT, which the action caches under a hash of that source, so
# later runs reuse it. `source` always builds from the action's source.
set -euo pipefail

install_from=${INSTALL_FROM:-auto}
version=${RUNNER_VERSION:-}
action_path=${ACTION_PATH:?"ACTION_PATH must name the action directory"}
root=${INSTALL_ROOT:?INSTALL_ROOT must name a directory to install into}
path_file=${GITHUB_PATH:?GITHUB_PATH must name a file}
source_dir=$(cd "$action_path/../../.." && pwd)

note() { printf '%s\n' "$*" >&2; }

from_pypi() {
    # A virtual environment of its own: system Pythons may refuse
    # `pip install` (PEP 668).
    local venv=$root/venv
    python3 -m venv "$venv" || return 1
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "wow-guid-conformance${version:+==$version}" || return 1
    echo "$venv/bin" >>"$path_file"
}

from_crates_io() {
    cargo install --locked --root "$root/cargo" wow-guid-conformance ${version:+--version "$version"}
    echo "$root/cargo/bin" >>"$path_file"
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
        cargo install --locked --force --root "$root/source" --path "$source_dir/conformance"
    fi
    echo "$root/source/bin" >>"$path_file"
}

mkdir -p "$root"
case $install_from in
auto)
    if from_pypi; then
        note "installed the runner from PyPI"
    else
        echo "::notice::no wow-guid-conformance${version:+ $version} release could be installed from PyPI; building it from the action's own source instead"
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
