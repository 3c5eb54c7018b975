#!/usr/bin/env bash
# Regenerates tests/data/selfplay.pgn, the games that tests/all/book_polyglot.rs builds its
# Polyglot book from: Tarpon against itself from the start position at 1+0.01 (the clock
# makes games differ, so the book branches; --nodes would repeat one game). The time margin
# keeps a busy machine from ending games on time: the book wants openings, not forfeits.
# Comments (scores, times) and the Site/Date/FEN headers are dropped to keep the file small.
#
# usage: scripts/make-selfplay-pgn.sh [games]      (default 200; needs python-chess and
#        ../shared/tools/match.py, or SHARED=<path to shared>)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
shared=${SHARED:-../shared}
cargo build --release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp target/release/tarpon "$tmp/tarpon"
python3 "$shared/tools/match.py" --engine a="$tmp/tarpon" --engine b="$tmp/tarpon" \
    --tc 1+0.01 --timemargin 1000 --openings none --games "$games" \
    --adjudicate-win --adjudicate-draw --pgn "$tmp/games.pgn"
python3 - "$tmp/games.pgn" > tests/data/selfplay.pgn <<'PY'
import sys
import chess.pgn

KEEP = ["Event", "Round", "White", "Black", "Result", "TimeControl", "Termination"]
with open(sys.argv[1]) as pgn:
    while (game := chess.pgn.read_game(pgn)) is not None:
        assert game.board().fen() == chess.STARTING_FEN
        for name in list(game.headers):
            if name not in KEEP:
                del game.headers[name]
        print(game.accept(chess.pgn.StringExporter(comments=False, variations=False)), end="\n\n")
PY
ls -l tests/data/selfplay.pgn
