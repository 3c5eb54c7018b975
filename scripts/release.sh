#!/usr/bin/env bash
# Binaries to copy to other machines (`make release`): one per x86-64 level, in dist/.
#
#   scripts/release.sh                  dist/tarpon-<version>-x86-64-v2, -v3 and -v4
#   scripts/release.sh x86-64-v3 ...    only the levels named (x86-64 is the oldest)
#   PGO=0 scripts/release.sh            plain builds only (no profile-guided step)
#
# The plain build (`cargo build --release`) uses every instruction of the processor it is
# built on (-C target-cpu=native, .cargo/config.toml), so elsewhere it can die with
# "illegal instruction". These are built with RUSTFLAGS="-C target-cpu=<level>", which
# cargo uses instead of the configured rustflags (not in addition to them), each in its own
# target folder, so that they and the native build do not rebuild one another.
#
# Each level is built profile-guided (scripts/pgo.sh: 2-8 % more nodes a second, the
# same tree, which pgo.sh checks) when this processor can run that level, since the
# profiling run has to run here; a level it cannot run is built plain, and the script says
# so. Every binary is checked to be of the level asked for: by `tarpon --version` where it
# runs here (its bench's node count is printed too), by build.rs's report otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(x86-64-v2 x86-64-v3 x86-64-v4)
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
pgo=${PGO:-1}
# Cargo prefers this one to RUSTFLAGS.
unset CARGO_ENCODED_RUSTFLAGS

# Whether this processor runs binaries of level $1 (glibc's loader lists the levels).
runs_here() {
    [ "$1" = x86-64 ] && return 0
    /lib64/ld-linux-x86-64.so.2 --help 2>/dev/null | grep -q "$1 (supported"
}

mkdir -p dist
for level in "${levels[@]}"; do
    case $level in
    x86-64 | x86-64-v2 | x86-64-v3 | x86-64-v4) ;;
    *)
        echo "release: $level is not x86-64, x86-64-v2, x86-64-v3 or x86-64-v4" >&2
        exit 2
        ;;
    esac
    out="dist/tarpon-$version-$level"
    if [ "$pgo" != 0 ] && runs_here "$level"; then
        scripts/pgo.sh "$level" >&2
        cp "target/pgo/tarpon-$level" "$out"
    else
        if [ "$pgo" != 0 ]; then
            echo "release: this processor cannot run $level binaries, so $out is a plain" \
                "build (a profile-guided one needs a profiling run here)" >&2
        fi
        # The JSON messages include what build.rs found (the level the compiler assumed);
        # the compiler's own messages still go to standard error as text.
        built=$(RUSTFLAGS="-C target-cpu=$level" cargo build --release --bin tarpon \
            --target-dir "target/$level" --message-format=json-render-diagnostics |
            grep -o '"TARPON_CPU_LEVEL","[^"]*"' | cut -d'"' -f4 | tail -n 1)
        if [ "$built" != "$level" ]; then
            echo "release: asked for $level, the build was for '$built'" >&2
            exit 1
        fi
        cp "target/$level/release/tarpon" "$out"
    fi
    if runs_here "$level"; then
        reported=$("$out" --version | sed -n 's/^cpu: *\([^ ,;]*\).*/\1/p')
        if [ "$reported" != "$level" ]; then
            echo "release: asked for $level, $out says '$reported'" >&2
            exit 1
        fi
        nodes=$("$out" bench 2>/dev/null | tail -n 1 | cut -d' ' -f1)
        echo "$out ($("$out" --version | sed -n 's/^cpu: *//p'); bench $nodes nodes)"
    else
        echo "$out (not started here: this processor lacks $level)"
    fi
done
