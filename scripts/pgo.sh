#!/usr/bin/env bash
# A profile-guided build (`make pgo`): the fastest Tarpon for this processor.
#
#   scripts/pgo.sh              target/pgo/tarpon, for this processor (target-cpu=native)
#   scripts/pgo.sh x86-64-v3    target/pgo/tarpon-x86-64-v3, to copy to others of that level
#
# The compiler inlines and lays out the code by guesses about which branches are taken; a
# profile of real searches replaces the guesses. On the bench it runs about 8 % fewer
# instructions a node (cachegrind), and `scripts/bench-pair.sh` measured it 2 % faster in
# nodes/s than the plain build at first and 6-8 % on 2026-12-04 (20 rounds; docs/log/search.md,
# S-126).
# The steps:
#
#   1. build with instrumentation (-C profile-generate);
#   2. run `tarpon bench 13` (bench's positions two plies deeper than its signature run,
#      nearer a game's searches: the build is 1-2 % faster than with a profile of the plain
#      bench, S-135), which writes the profile (which code ran, how often);
#   3. merge it with `llvm-profdata` (rustup's `llvm-tools` component, added if missing;
#      or an `llvm-profdata` on the PATH of the compiler's LLVM version);
#   4. build again with the profile (-C profile-use, and the two layout passes that
#      need one) and check that the result searches the same tree as the instrumented
#      build: a profile changes speed, never moves.
#
# The level's binary has to run here for step 2, so only levels this processor has can be
# built (`/lib64/ld-linux-x86-64.so.2 --help` lists them). TARPON_NET works as for cargo.
set -euo pipefail
cd "$(dirname "$0")/.."

level=${1:-native}
case $level in
native | x86-64 | x86-64-v2 | x86-64-v3 | x86-64-v4) ;;
*)
    echo "pgo: $level is not native, x86-64, x86-64-v2, x86-64-v3 or x86-64-v4" >&2
    exit 2
    ;;
esac
dir=target/pgo/$level
profiles=$PWD/$dir/profiles
out=target/pgo/tarpon
[ "$level" = native ] || out=target/pgo/tarpon-$level
# Cargo prefers this one to RUSTFLAGS, which replaces .cargo/config.toml's flags.
unset CARGO_ENCODED_RUSTFLAGS

# The llvm-profdata that reads this compiler's profiles: the same LLVM major version.
llvm_major=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
find_profdata() {
    local tool
    tool=$(ls "$(rustc --print sysroot)"/lib/rustlib/*/bin/llvm-profdata 2>/dev/null | head -n 1)
    if [ -n "$tool" ]; then
        echo "$tool"
        return
    fi
    for tool in llvm-profdata-"$llvm_major" llvm-profdata; do
        if command -v "$tool" >/dev/null &&
            "$tool" --version | grep -q "LLVM version $llvm_major\."; then
            command -v "$tool"
            return
        fi
    done
}
profdata=$(find_profdata)
if [ -z "$profdata" ] && command -v rustup >/dev/null; then
    echo "pgo: adding rustup's llvm-tools component (llvm-profdata)" >&2
    rustup component add llvm-tools >&2
    profdata=$(find_profdata)
fi
if [ -z "$profdata" ]; then
    echo "pgo: no llvm-profdata for LLVM $llvm_major: 'rustup component add llvm-tools'," \
        "or install llvm-$llvm_major" >&2
    exit 1
fi

build() { # build FLAGS TARGET_DIR
    RUSTFLAGS="-C target-cpu=$level $1" cargo build --release --bin tarpon --target-dir "$2" >&2
}
signature() { # the bench's node count
    "$1" bench 2>/dev/null | tail -n 1 | cut -d' ' -f1
}

echo "pgo: 1. instrumented build" >&2
build "-C profile-generate=$profiles" "$dir/generate"
rm -rf "$profiles"
echo "pgo: 2. profiling run (tarpon bench 13)" >&2
"$dir/generate/release/tarpon" bench 13 >/dev/null 2>&1
nodes=$(signature "$dir/generate/release/tarpon")
echo "pgo: 3. merging the profile" >&2
"$profdata" merge -o "$dir/merged.profdata" "$profiles"
echo "pgo: 4. optimised build" >&2
# (The build's description differs between the two builds, `profile-guided` in `tarpon
# --version`; the compiler would warn that those few functions changed since profiling.)
# Two of LLVM's code-layout passes that only pay with a profile: blocks ordered for the
# hot paths' fall-through and locality (ext-TSP, in place of the default chain placement),
# and the cold blocks of hot functions moved out to their own section (machine function
# splitting), so that the hot code shares fewer cache lines and pages with code that
# rarely runs. On the bench, with datagen paused: +2.0 % and then +1.5 % nodes/s
# (`scripts/bench-pair.sh`, 60 and 50 rounds, the same tree; docs/log/search.md, S-149).
layout="-C llvm-args=-enable-ext-tsp-block-placement -C llvm-args=-enable-split-machine-functions"
build "-C profile-use=$PWD/$dir/merged.profdata -C llvm-args=-no-pgo-warn-mismatch $layout" "$dir/use"
if [ "$(signature "$dir/use/release/tarpon")" != "$nodes" ]; then
    echo "pgo: the profiled build's bench differs from the instrumented one's ($nodes nodes)" >&2
    exit 1
fi
cp "$dir/use/release/tarpon" "$out"
echo "$out (bench $nodes nodes)"
