#!/usr/bin/env bash
# A folder that runs Tarpon's long jobs on another x86-64 Linux machine without Rust (a
# lent many-core machine, say): data generation on every core, and the sparring matches of
# scripts/milestone.sh.
#
#   scripts/portable.sh DIR               the engine, fastchess, the openings
#   OPPONENTS=1 scripts/portable.sh DIR   also Debian's stockfish and ethereal-chess
#                                         (installed here when missing; about 40 MB more)
#   BASE_BIN=B scripts/portable.sh DIR    also tarpon build B, the other side of versus.sh
#
# The engine is built for x86-64-v3 (AVX2 but no AVX-512, since the other machine's
# processor is unknown) unless TARPON_BIN names a binary. Every program starts through the
# dynamic loader and the C libraries copied from this machine, so whatever libraries the
# other machine has do not matter. Then, on the other machine, in DIR:
#
#   ./datagen.sh SEED [SECONDS]   self-play on every core into DIR/games (game shards hold
#                                 whole games only: stopping loses the games in progress)
#   ./sparring.sh [SECONDS]       milestone steps 2-4 (Ethereal 12, Stockfish 15.1, and
#                                 Stockfish at a quarter of the time; SPARRING games each,
#                                 default 100) side by side on all but one core; state in
#                                 DIR/matches, so a second run goes on where the first stopped
#   ./versus.sh [SECONDS]         milestone step 1 (the engine against BASE_BIN at 10+0.1,
#                                 GAMES games, default 600) on all but one core; state in
#                                 DIR/matches too, so it also goes on where it stopped
set -euo pipefail
cd "$(dirname "$0")/.."

DIR=${1:?usage: scripts/portable.sh DIR}
SHARED=${SHARED:-../shared}
mkdir -p "$DIR/bin" "$DIR/lib"

if [ -z "${TARPON_BIN:-}" ]; then
    RUSTFLAGS="-C target-cpu=x86-64-v3" cargo build --release --quiet --target-dir target/portable
    TARPON_BIN=target/portable/release/tarpon
fi
cp "$TARPON_BIN" "$DIR/bin/tarpon"
# The layout of ../shared, so that milestone.sh finds them with SHARED=DIR.
mkdir -p "$DIR/tools" "$DIR/data"
cp "$SHARED/tools/fastchess" "$DIR/tools/"
cp "$SHARED/data/openings.epd" "$DIR/data/"
cp scripts/milestone.sh "$DIR/"
programs=(tarpon)
binaries=("$TARPON_BIN")
if [ -n "${BASE_BIN:-}" ]; then
    cp "$BASE_BIN" "$DIR/bin/tarpon-base"
    programs+=(tarpon-base)
    binaries+=("$BASE_BIN")
fi

if [ -n "${OPPONENTS:-}" ]; then
    for p in stockfish:stockfish ethereal-chess:ethereal-chess; do
        [ -x "/usr/games/${p%%:*}" ] || apt-get install -y -qq "${p#*:}" >/dev/null
    done
    # Stockfish's embedded network makes it 47 MB; compressed, half of that travels.
    xz -T0 -6 -c /usr/games/stockfish >"$DIR/bin/stockfish.xz"
    cp /usr/games/ethereal-chess "$DIR/bin/"
    programs+=(stockfish ethereal-chess)
    binaries+=(/usr/games/stockfish /usr/games/ethereal-chess)
fi

# The libraries each program loads, and the loader itself.
for p in "${binaries[@]}"; do
    ldd "$p" | awk '/=> \// { print $3 }' | xargs -r cp -L -t "$DIR/lib/"
done
cp -L /lib64/ld-linux-x86-64.so.2 "$DIR/lib/"

for p in "${programs[@]}"; do
    cat >"$DIR/$p" <<EOF
#!/bin/sh
D=\$(dirname "\$(readlink -f "\$0")")
exec "\$D/lib/ld-linux-x86-64.so.2" --library-path "\$D/lib" "\$D/bin/$p" "\$@"
EOF
    chmod +x "$DIR/$p"
done

cat >"$DIR/datagen.sh" <<'EOF'
#!/bin/bash
# ./datagen.sh SEED [SECONDS]: tarpon datagen on every core (5,000 nodes a move, the
# embedded network) into games/, for SECONDS (default: until 1,000,000 games).
set -u
cd "$(dirname "$(readlink -f "$0")")"
seed=${1:?usage: ./datagen.sh SEED [SECONDS]}
mkdir -p games
limit=()
[ -n "${2:-}" ] && limit=(timeout -s INT "$2")
"${limit[@]}" ./tarpon datagen --output games --nnue embedded --threads "$(nproc)" \
    --games 1000000 --seed "$seed"
ls -l games
EOF

cat >"$DIR/sparring.sh" <<'EOF'
#!/bin/bash
# ./sparring.sh [SECONDS]: the three sparring matches of scripts/milestone.sh side by side,
# stopped after SECONDS (default: when done); a later run resumes each from matches/.
set -u
D=$(dirname "$(readlink -f "$0")")
cd "$D"
limit=${1:-}
[ -x stockfish ] || { echo "sparring: made without OPPONENTS=1" >&2; exit 1; }
[ -f bin/stockfish ] || { xz -dc bin/stockfish.xz >bin/stockfish 2>/dev/null ||
    python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('bin/stockfish.xz'), open('bin/stockfish','wb'))"; }
chmod +x bin/*
cores=$(( $(nproc) > 4 ? $(nproc) - 1 : 3 ))
# Cores in proportion to the work, so that the three end together: on 16 cores 6, 5 and 4
# games at a time played 80 games each in the same 520 s (games against Ethereal are the
# longest, against Stockfish at a quarter of the time the shortest).
ethereal=$(( cores * 2 / 5 )) quarter=$(( cores * 4 / 15 ))
[ "$quarter" -ge 1 ] || ethereal=1 quarter=1
stockfish=$(( cores - ethereal - quarter ))
# milestone.sh's steps (SPARRING games each), each with its share of the cores; state
# and PGNs in matches/.
matches=()
for step in "2 $ethereal" "3 $stockfish" "4 $quarter"; do
    set -- $step
    ONLY=$1 CONCURRENCY=$2 SHARED="$D" OUT="$D/matches" STOCKFISH="$D/stockfish" \
        ETHEREAL="$D/ethereal-chess" ./milestone.sh "$D/tarpon" "$D/tarpon" >/dev/null &
    matches+=($!)
done
if [ -n "$limit" ]; then
    # Each match saves its state after every game, so an interrupted one loses only
    # the games in progress. Only this script's matches are stopped: the fastchess that
    # each milestone.sh started (its child), never a process found by name.
    (sleep "$limit"; for m in "${matches[@]}"; do pkill -INT -P "$m"; done) &
    stopper=$!
fi
wait "${matches[@]}"
[ -n "$limit" ] && kill "$stopper" 2>/dev/null
for name in new-vs-ethereal new-vs-stockfish new-vs-stockfish-quarter; do
    echo "== $name"
    grep -E "^(Elo|Games|Ptnml)" "matches/$name.log" | tail -3
    echo "time losses: $(grep -c "loses on time" "matches/$name.log")"
done
EOF
cat >"$DIR/versus.sh" <<'EOF'
#!/bin/bash
# ./versus.sh [SECONDS]: milestone step 1, tarpon (the candidate) against tarpon-base at
# 10+0.1 on all but one core, stopped after SECONDS (default: when done); a later run
# resumes it from matches/ (bring matches/ back to this folder to go on elsewhere).
set -u
D=$(dirname "$(readlink -f "$0")")
cd "$D"
[ -x tarpon-base ] || { echo "versus: made without BASE_BIN" >&2; exit 1; }
chmod +x bin/*
limit=${1:-}
ONLY=1 CONCURRENCY=$(( $(nproc) > 2 ? $(nproc) - 1 : 2 )) SHARED="$D" OUT="$D/matches" \
    ./milestone.sh "$D/tarpon" "$D/tarpon-base" &
match=$!
if [ -n "$limit" ]; then
    # The state is saved after every game, but a pair of games (one opening, both
    # colours) counts only once both are played: stopping loses the pairs in progress.
    # Only this match's fastchess (milestone.sh's child) is stopped, never one by name.
    (sleep "$limit"; pkill -INT -P "$match") &
    stopper=$!
fi
wait "$match"
[ -n "$limit" ] && kill "$stopper" 2>/dev/null
EOF
chmod +x "$DIR/datagen.sh" "$DIR/sparring.sh" "$DIR/versus.sh"
du -sh "$DIR"
