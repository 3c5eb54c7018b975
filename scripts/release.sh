#!/usr/bin/env bash
# Binaries to copy to other machines (`make release`): one per x86-64 level, in dist/.
#
#   scripts/release.sh                  dist/tarpon-<version>-x86-64-v2, -v3 and -v4
#   scripts/release.sh x86-64-v3 ...    only the levels named (x86-64 is the oldest)
#
# The plain build (`cargo build --release`) uses every instruction of the processor it is
# built on (-C target-cpu=native, .cargo/config.toml), so elsewhere it can die with
# "illegal instruction". These are built with RUSTFLAGS="-C target-cpu=<level>", which
# cargo uses instead of the configured rustflags (not in addition to them), each in its own
# target/<level>, so that they and the native build do not rebuild one another. Each
# build's level, as `tarpon --version` will report it, is checked against the one asked for.
set -euo pipefail
cd "$(dirname "$0")/.."

levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(x86-64-v2 x86-64-v3 x86-64-v4)
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
# Cargo prefers this one to RUSTFLAGS.
unset CARGO_ENCODED_RUSTFLAGS
mkdir -p dist
for level in "${levels[@]}"; do
    case $level in
    x86-64 | x86-64-v2 | x86-64-v3 | x86-64-v4) ;;
    *)
        echo "release: $level is not x86-64, x86-64-v2, x86-64-v3 or x86-64-v4" >&2
        exit 2
        ;;
    esac
    # The JSON messages include what build.rs found; the compiler's own messages still go
    # to standard error as text.
    built=$(RUSTFLAGS="-C target-cpu=$level" cargo build --release --bin tarpon \
        --target-dir "target/$level" --message-format=json-render-diagnostics |
        grep -o '"TARPON_CPU_LEVEL","[^"]*"' | cut -d'"' -f4 | tail -n 1)
    if [ "$built" != "$level" ]; then
        echo "release: asked for $level, the build was for '$built'" >&2
        exit 1
    fi
    out="dist/tarpon-$version-$level"
    cp "target/$level/release/tarpon" "$out"
    echo "$out"
done
