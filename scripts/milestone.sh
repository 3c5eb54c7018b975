#!/usr/bin/env bash
# The milestone figures of a search or network change, with fastchess:
#
#   1. NEW against BASE at 10+0.1, GAMES games (default 600), balanced openings
#      (../shared/data/openings.epd), each opening played with both colours;
#   2. NEW against Ethereal 12 at 10+0.1, SPARRING games (default 100);
#   3. NEW against Stockfish 15.1 at 10+0.1, SPARRING games;
#   4. NEW at 10+0.1 against Stockfish at a quarter of the time (2.5+0.025), SPARRING games;
#   5. Chess960 at 3+0.03: a round robin of NEW, BASE and Stockfish limited to UCI_Elo 2400,
#      SPARRING games a pairing, from the 960 starts (`examples/chess960_openings.rs`, made
#      into OUT/chess960.epd), each with both colours: a network should score more against
#      Stockfish than the one it replaces.
#
# Each prints fastchess's final Elo, error and game counts; PGNs go to OUT (default
# target/milestone), each move with its score, depth, time, nodes and nodes/s, so that
# `scripts/pgn-speed.py` can say how fast and how deep each engine searched in the games.
# Ethereal and Stockfish are Debian's packages, installed when missing (root).
# CONCURRENCY defaults to the number of cores less one; on two cores use 2 and pause other
# work (timed games on a busy machine lose on time and measure the load).
#
#   scripts/milestone.sh NEW BASE            # steps 1-4
#   ONLY="1" scripts/milestone.sh NEW BASE   # just the first (a space-separated list)
#   ONLY="5" scripts/milestone.sh NEW BASE   # the Chess960 round robin
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

# match NAME ROUNDS ENGINE-ARGS...: ROUNDS pairs of games, colours reversed in each pair,
# from opening_args (the balanced openings unless a step sets others).
balanced_openings=(-openings file="$OPENINGS" format=epd order=random -srand 20261125)
opening_args=("${balanced_openings[@]}")
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
            "${opening_args[@]}" \
            -repeat -rounds "$rounds" -concurrency "$CONCURRENCY" -recover \
            -config outname="$state" -autosaveinterval 1 \
            -pgnout file="$OUT/$name.pgn" nodes=true nps=true >"$OUT/$name.log" 2>&1 || true
    fi
    # A match of two prints these lines; a round robin prints a table instead (step 5).
    grep -E "^(Elo|Games|Ptnml)" "$OUT/$name.log" | tail -3 || true
    echo "time losses: $(grep -c "loses on time" "$OUT/$name.log" || true)"
}

# pairings PGN: each engine's score against each other one, from the games' tags.
pairings() {
    awk '
        /^\[White "/ { split($0, f, "\""); white = f[2] }
        /^\[Black "/ { split($0, f, "\""); black = f[2] }
        /^\[Result "/ {
            split($0, f, "\""); if (f[2] == "*") next
            w = (f[2] == "1-0") ? 1 : (f[2] == "0-1") ? 0 : 0.5
            score[white " against " black] += w; games[white " against " black]++
            score[black " against " white] += 1 - w; games[black " against " white]++
        }
        END {
            for (k in games)
                printf "%s: %.1f of %d (%.1f %%)\n", k, score[k], games[k], 100 * score[k] / games[k]
        }' "$1" | sort
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
        5)
            need "$STOCKFISH" stockfish
            starts="$OUT/chess960.epd"
            cargo run --release --quiet --example chess960_openings >"$starts"
            opening_args=(-variant fischerandom -openings file="$starts" format=epd
                order=random -srand 9607)
            match chess960-round-robin $((SPARRING / 2)) \
                -engine cmd="$NEW" name=new tc=3+0.03 -engine cmd="$BASE" name=base tc=3+0.03 \
                -engine cmd="$STOCKFISH" name=stockfish2400 tc=3+0.03 \
                option.UCI_LimitStrength=true option.UCI_Elo=2400
            opening_args=("${balanced_openings[@]}")
            grep -A3 "^Rank Name" "$OUT/chess960-round-robin.log" | tail -4 || true
            pairings "$OUT/chess960-round-robin.pgn"
            ;;
        *) echo "milestone: no step $step (1-5)" >&2; exit 1 ;;
    esac
done
