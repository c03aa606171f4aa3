#!/usr/bin/env bash
# Builds the C++, C#, Java and Go adapters, runs the corpus (`run
# --strict-errors`) and ten seconds of differential fuzzing against each, and
# runs each one's example test over vectors/vectors.json.
#
#   conformance/adapters/ci.sh RUNNER BUILD_DIR      (from the repository root)
#
# RUNNER is the wow-guid-conformance binary; BUILD_DIR a scratch directory for
# the builds (created if missing). Toolchains come from Debian's packages and
# are installed only when missing.
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 RUNNER BUILD_DIR   (run from the repository root)" >&2
    exit 2
fi
runner=$1
build=$2
[[ -f vectors/vectors.json && -d conformance/adapters ]] || {
    echo "$0: run me from the repository root" >&2
    exit 2
}
[[ $runner == */* && $runner != /* ]] && runner=$PWD/$runner
[[ -x $runner ]] || command -v "$runner" >/dev/null || { echo "$0: no runner at $runner" >&2; exit 2; }
mkdir -p "$build"
build=$(cd "$build" && pwd)
adapters=$PWD/conformance/adapters
vectors=$PWD/vectors/vectors.json
java_lib=/usr/share/java

step() { printf '\n== %s\n' "$*"; }

# --- Toolchains: install only the packages that are missing. -------------
packages=(g++ mono-mcs mono-runtime default-jdk-headless golang-go junit5
          libgoogle-gson-java libgtest-dev nlohmann-json3-dev)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
    step "installing ${missing[*]}"
    sudo=()
    [[ $(id -u) -eq 0 ]] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}"
fi

# Go writes its build cache under HOME; use the build directory when HOME
# cannot be written. Go needs no network here (the module has no dependency).
if [[ -z ${HOME:-} || ! -w ${HOME:-/nonexistent} ]]; then
    export GOCACHE=$build/go-cache GOPATH=$build/go-path
fi
export GOPROXY=off

# --- Build. ---------------------------------------------------------------
step "build: C++"
g++ -std=c++17 -Wall -Wextra -pedantic -Werror -O2 -o "$build/adapter-cpp" "$adapters/cpp/adapter.cpp"
g++ -std=c++17 -Wall -Wextra -pedantic -Werror -O2 -o "$build/corpus-test-cpp" \
    "$adapters/cpp/corpus_test.cpp" -lgtest -lgtest_main -pthread

step "build: C#"
mcs -langversion:7 -warnaserror+ -out:"$build/adapter-csharp.exe" \
    "$adapters/csharp/Adapter.cs" "$adapters/csharp/WowGuidCodec.cs"
mcs -langversion:7 -warnaserror+ -main:WowGuid.CorpusTest -out:"$build/corpus-test-csharp.exe" \
    "$adapters/csharp/Adapter.cs" "$adapters/csharp/WowGuidCodec.cs" "$adapters/csharp/CorpusTest.cs"

step "build: Java"
rm -rf "$build/java" "$build/java-test"
javac -Xlint:all -Werror -d "$build/java" "$adapters/java/Adapter.java" "$adapters/java/WowGuidCodec.java"
javac -Xlint:all -Werror -d "$build/java-test" \
    -cp "$build/java:$java_lib/junit-platform-console-standalone.jar:$java_lib/gson.jar" \
    "$adapters/java/CorpusTest.java"

step "build: Go"
(cd "$adapters/go" && go vet ./... && go build -o "$build/adapter-go" .)
if [[ -n $(cd "$adapters/go" && gofmt -l .) ]]; then
    echo "gofmt would change: $(cd "$adapters/go" && gofmt -l .)" >&2
    exit 1
fi

# The Go README says to replace codec.go with your own file: a minimal one
# (every method unsupported) in its place must build, with the example test.
step "build: Go, with a minimal codec file in codec.go's place"
rm -rf "$build/go-swapped"
mkdir -p "$build/go-swapped"
cp "$adapters/go/main.go" "$adapters/go/corpus_test.go" "$adapters/go/go.mod" "$build/go-swapped/"
cat >"$build/go-swapped/codec.go" <<'GO'
package main

var codecUnderTest Codec = minimalCodec{}

type minimalCodec struct{}

func (minimalCodec) ReadPackedGuid(in []byte) (uint64, int, error) { return 0, 0, ErrUnsupported }

func (minimalCodec) ReadNamedGuid(in []byte) (uint64, []byte, int, error) {
	return 0, nil, 0, &GuidError{"other"}
}

func (minimalCodec) AppendPackedGuid(out []byte, guid uint64) ([]byte, error) {
	return nil, ErrUnsupported
}

func (minimalCodec) AppendNamedGuid(out []byte, guid uint64, name []byte, hasName bool) ([]byte, error) {
	return nil, ErrUnsupported
}
GO
(cd "$build/go-swapped" && go vet ./... && go build -o "$build/adapter-go-swapped" .)

# --- The example tests over vectors/vectors.json. -------------------------
step "test: C++ (GoogleTest)"
WOWGUID_VECTORS=$vectors "$build/corpus-test-cpp"
step "test: C#"
mono "$build/corpus-test-csharp.exe" "$vectors"
step "test: Java (JUnit 5)"
WOWGUID_VECTORS=$vectors java -jar "$java_lib/junit-platform-console-standalone.jar" \
    -cp "$build/java:$build/java-test:$java_lib/gson.jar" \
    --select-class CorpusTest --disable-banner --details=summary
step "test: Go (go test)"
(cd "$adapters/go" && WOWGUID_VECTORS=$vectors go test -v -count=1 ./...)

# --- The runner: the corpus, then differential fuzzing. -------------------
# Each command as words, kept as an array, so that a build directory with a
# space in its path stays one word.
adapter_command() { # adapter_command LANG: sets cmd
    case $1 in
        cpp) cmd=("$build/adapter-cpp") ;;
        csharp) cmd=(mono "$build/adapter-csharp.exe") ;;
        java) cmd=(java -cp "$build/java" Adapter) ;;
        go) cmd=("$build/adapter-go") ;;
    esac
}
for lang in cpp csharp java go; do
    adapter_command "$lang"
    step "run --strict-errors: $lang"
    "$runner" run --strict-errors -- "${cmd[@]}"
    step "fuzz --strict-errors --seed 1 --time 10: $lang"
    "$runner" fuzz --strict-errors --seed 1 --time 10 -- "${cmd[@]}"
done

step "all four adapters pass"
