#!/usr/bin/env bash
# The milestone figures of a search or network change, with fastchess:
#
#   1. NEW against BASE at 10+0.1, GAMES games (default 600), balanced openings
#      (../shared/data/openings.epd), each opening played with both colours;
#   2. NEW against Ethereal 12 at 10+0.1, SPARRING games (default 100);
#   3. NEW against Stockfish 15.1 at 10+0.1, SPARRING games;
#   4. NEW at 10+0.1 against Stockfish at a quarter of the time (2.5+0.025), SPARRING games.
#
# Each prints fastchess's final Elo, error and game counts; PGNs go to OUT (default
# target/milestone), each move with its score, depth, time, nodes and nodes/s, so that
# `scripts/pgn-speed.py` can say how fast and how deep each engine searched in the games.
# Ethereal and Stockfish are Debian's packages, installed when missing (root).
# CONCURRENCY defaults to the number of cores less one; on two cores use 2 and pause other
# work (timed games on a busy machine lose on time and measure the load).
#
#   scripts/milestone.sh NEW BASE            # all four
#   ONLY="1" scripts/milestone.sh NEW BASE   # just the first (a space-separated list)
#
# On two cores 600 games at 10+0.1 take about three hours (33 s a game), so each match
# can stop and go on: fastchess saves its state after
# every game to OUT/NAME.json, and a later run with the same OUT resumes each match whose
# state is there (at most the games in progress are played again). Start afresh with a new
# OUT, or by deleting the state files.
#
# Steps 2-4 can run on a bigger machine without Rust instead: `OPPONENTS=1
# scripts/portable.sh DIR` makes a folder with the engine, both opponents (STOCKFISH and
# ETHEREAL name them), this script and what they need, and `DIR/sparring.sh` there runs
# the three steps side by side.
set -euo pipefail
cd "$(dirname "$0")/.."

NEW=${1:?usage: scripts/milestone.sh NEW_BINARY BASE_BINARY}
BASE=${2:?usage: scripts/milestone.sh NEW_BINARY BASE_BINARY}
GAMES=${GAMES:-600}
SPARRING=${SPARRING:-100}
OUT=${OUT:-target/milestone}
SHARED=${SHARED:-../shared}
CONCURRENCY=${CONCURRENCY:-$(($(nproc) > 2 ? $(nproc) - 1 : 2))}
ONLY=${ONLY:-1 2 3 4}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
ETHEREAL=${ETHEREAL:-/usr/games/ethereal-chess}
FASTCHESS=$SHARED/tools/fastchess
OPENINGS=$SHARED/data/openings.epd
mkdir -p "$OUT"

for f in "$NEW" "$BASE" "$FASTCHESS" "$OPENINGS"; do
    [ -e "$f" ] || { echo "milestone: $f not found" >&2; exit 1; }
done

need() { # need BINARY PACKAGE
    [ -x "$1" ] && return
    echo "milestone: installing $2 (apt-get)" >&2
    apt-get install -y -qq "$2" >/dev/null
}

# match NAME ROUNDS ENGINE-ARGS...: ROUNDS pairs of games, colours reversed in each pair.
match() {
    local name=$1 rounds=$2
    shift 2
    local state="$OUT/$name.json"
    echo "== $name"
    if [ -f "$state" ]; then
        # The state holds the engines, the settings and the score so far.
        echo "(resuming from $state)"
        "$FASTCHESS" -config file="$state" >>"$OUT/$name.log" 2>&1 || true
    else
        "$FASTCHESS" "$@" \
            -each option.Hash=16 option.Threads=1 \
            -openings file="$OPENINGS" format=epd order=random -srand 20261125 \
            -repeat -rounds "$rounds" -concurrency "$CONCURRENCY" -recover \
            -config outname="$state" -autosaveinterval 1 \
            -pgnout file="$OUT/$name.pgn" nodes=true nps=true >"$OUT/$name.log" 2>&1 || true
    fi
    grep -E "^(Elo|Games|Ptnml)" "$OUT/$name.log" | tail -3
    echo "time losses: $(grep -c "loses on time" "$OUT/$name.log" || true)"
}

new=(-engine cmd="$NEW" name=new tc=10+0.1)
for step in $ONLY; do
    case $step in
        1) match new-vs-base $((GAMES / 2)) "${new[@]}" -engine cmd="$BASE" name=base tc=10+0.1 ;;
        2)
            need "$ETHEREAL" ethereal-chess
            match new-vs-ethereal $((SPARRING / 2)) "${new[@]}" \
                -engine cmd="$ETHEREAL" name=ethereal tc=10+0.1
            ;;
        3)
            need "$STOCKFISH" stockfish
            match new-vs-stockfish $((SPARRING / 2)) "${new[@]}" \
                -engine cmd="$STOCKFISH" name=stockfish tc=10+0.1
            ;;
        4)
            need "$STOCKFISH" stockfish
            match new-vs-stockfish-quarter $((SPARRING / 2)) "${new[@]}" \
                -engine cmd="$STOCKFISH" name=stockfish-quarter tc=2.5+0.025
            ;;
        *) echo "milestone: no step $step (1-4)" >&2; exit 1 ;;
    esac
done
