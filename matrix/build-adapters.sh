#!/usr/bin/env bash
# Builds every implementation that matrix/implementations.yaml runs, into the
# cargo target directory (CARGO_TARGET_DIR, or target/ at the repository
# root), where that file looks for them. Run from anywhere; .ci/run runs it
# too. A relative CARGO_TARGET_DIR is relative to the directory this is run
# from, as for cargo and for `matrix`, which reads the same variable. Needs cargo, gcc and python3 (with venv); for the C++, C#, Java and Go
# adapters g++, mcs (mono-mcs), javac (default-jdk-headless) and go (golang-go).
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/.."
if [[ -n ${CARGO_TARGET_DIR:-} ]]; then
    target=$CARGO_TARGET_DIR
    [[ $target == /* ]] || target=$caller/$target
else
    target=$PWD/target
fi
mkdir -p "$target/matrix"

# The runner and the Rust example adapter.
cargo build --release --quiet -p wow-guid-conformance --bins --example adapter-rust
# The C adapter, and the spec's C snippet at -O0 (its expected failures are
# those of gcc at -O0; see conformance/adapters/spec-c/).
gcc -std=c99 -Wall -Wextra -pedantic -O2 -o "$target/matrix/adapter-c" conformance/adapters/c/adapter.c
gcc -std=c99 -O0 -o "$target/matrix/spec-c-adapter" \
    conformance/adapters/spec-c/adapter.c conformance/adapters/spec-c/spec_snippet.c
# The published crate, in its own workspace.
CARGO_TARGET_DIR=$target cargo build --release --quiet --locked \
    --manifest-path conformance/adapters/wow-world-messages-rust/Cargo.toml
# The published Python package, in its own virtual environment.
venv=$target/wow-world-messages-venv
if [[ ! -x $venv/bin/python ]]; then
    # Debian's python3 makes environments only with python3-venv installed.
    python3 -c 'import ensurepip' 2>/dev/null || { apt-get update -qq && apt-get install -y -qq python3-venv; }
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check \
    -r conformance/adapters/wow-world-messages-python/requirements.txt
# The C++, C#, Java and Go adapters (conformance/adapters/ci.sh also tests them).
g++ -std=c++17 -Wall -Wextra -pedantic -Werror -O2 -o "$target/matrix/adapter-cpp" \
    conformance/adapters/cpp/adapter.cpp
mcs -langversion:7 -warnaserror+ -out:"$target/matrix/adapter-csharp.exe" \
    conformance/adapters/csharp/Adapter.cs conformance/adapters/csharp/WowGuidCodec.cs
rm -rf "$target/matrix/adapter-java"
javac -d "$target/matrix/adapter-java" \
    conformance/adapters/java/Adapter.java conformance/adapters/java/WowGuidCodec.java
# Go caches builds under HOME; use the target directory when HOME cannot be written.
if [[ -z ${HOME:-} || ! -w ${HOME:-/nonexistent} ]]; then
    export GOCACHE=$target/go-cache GOPATH=$target/go-path
fi
(cd conformance/adapters/go && GOPROXY=off go build -o "$target/matrix/adapter-go" .)
echo "built the matrix's implementations under $target"
