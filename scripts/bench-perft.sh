#!/usr/bin/env bash
# Perft speed of Tarpon against Debian's Stockfish, measured in the same run.
#
# Times `perft 6` from the start position and `perft 5` from Kiwipete for both engines
# (Stockfish through `go perft` in its UCI loop), each as a whole process, best of
# RUNS runs interleaved (default 3), and prints nodes per second and the ratio.
# Usage: scripts/bench-perft.sh [path/to/stockfish]
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
SF=${1:-$(command -v stockfish || echo /usr/games/stockfish)}
if [ ! -x "$SF" ]; then
    echo "Stockfish not found; installing Debian's package (needs root)..." >&2
    apt-get install -y stockfish >/dev/null
    SF=/usr/games/stockfish
fi
cargo build --release --quiet
TARPON=target/release/tarpon

KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

now_ns() { date +%s%N; }

# Prints the wall-clock seconds of the fastest of $RUNS runs of a command string.
best_seconds() {
    local best=""
    for _ in $(seq "$RUNS"); do
        local t0 t1
        t0=$(now_ns)
        eval "$1" >/dev/null
        t1=$(now_ns)
        local s
        s=$(echo "scale=6; ($t1 - $t0) / 1000000000" | bc)
        if [ -z "$best" ] || [ "$(echo "$s < $best" | bc)" = 1 ]; then best=$s; fi
    done
    echo "$best"
}

bench() {
    local name=$1 fen=$2 depth=$3 nodes=$4
    local tarpon_cmd sf_cmd
    if [ "$fen" = startpos ]; then
        tarpon_cmd="$TARPON perft $depth"
        sf_cmd="printf 'position startpos\ngo perft $depth\nquit\n' | $SF"
    else
        tarpon_cmd="$TARPON perft $depth '$fen'"
        sf_cmd="printf 'position fen $fen\ngo perft $depth\nquit\n' | $SF"
    fi
    # Check both count the same tree before timing them.
    local tn sn
    tn=$(eval "$tarpon_cmd" | awk '/^Nodes searched/ {print $3}')
    sn=$(eval "$sf_cmd" | awk '/^Nodes searched/ {print $3}')
    if [ "$tn" != "$nodes" ] || [ "$sn" != "$nodes" ]; then
        echo "node count mismatch on $name: tarpon $tn, stockfish $sn, expected $nodes" >&2
        exit 1
    fi
    local ts ss
    ts=$(best_seconds "$tarpon_cmd")
    ss=$(best_seconds "$sf_cmd")
    local tnps snps
    tnps=$(echo "$nodes / $ts / 1000000" | bc)
    snps=$(echo "$nodes / $ss / 1000000" | bc)
    printf '%-10s depth %d  %11d nodes  tarpon %6.3f s %5d Mnps  stockfish %6.3f s %5d Mnps  ratio %.2f\n' \
        "$name" "$depth" "$nodes" "$ts" "$tnps" "$ss" "$snps" "$(echo "scale=4; $ss / $ts" | bc)"
}

command -v bc >/dev/null || apt-get install -y bc >/dev/null
echo "Stockfish: $("$SF" <<<quit | head -1)"
bench startpos startpos 6 119060324
bench kiwipete "$KIWIPETE" 5 193690690
