#!/usr/bin/env python3
"""How well each engine of a match played the tablebase positions it started from:
reads the PGN that `match.py --openings <fens from probes.epd> --pgn FILE` wrote and, with
the WDL that probes.epd lists for each start position, counts per engine the won positions
converted (mate within the fifty-move rule), the drawn ones held or lost, and the lost ones
saved.

Usage: scripts/tb_conversion.py GAMES.pgn PROBES.epd   (needs `pip install chess`)

The measurement in the tablebase commits, from the repository root:
    cut -d';' -f1 ../shared/data/syzygy/probes.epd | sed 's/ *$//' > /tmp/probes.fen
    python3 ../shared/tools/match.py --engine tarpon-tb=target/release/tarpon \\
        --engine tarpon=target/release/tarpon \\
        --option tarpon-tb:SyzygyPath=$PWD/../shared/data/syzygy \\
        --nodes 4000 --openings /tmp/probes.fen --games 400 --pgn /tmp/tb.pgn
    scripts/tb_conversion.py /tmp/tb.pgn ../shared/data/syzygy/probes.epd
"""
import collections
import sys

import chess
import chess.pgn


def expected_wdl(path):
    """FEN -> WDL for the side to move, from a `FEN ; wdl W ; dtz D` file."""
    table = {}
    for line in open(path):
        if line.strip():
            fen, wdl, _ = (part.strip() for part in line.split(";"))
            table[fen] = int(wdl.split()[1])
    return table


def verdict(wdl, stm, color, winner):
    """What `color` made of a start position with `wdl` for the side to move `stm`."""
    if wdl == 0:
        kind = "drawn"
    else:
        kind = "won" if (wdl > 0) == (stm == color) else "lost"
    if winner is None:
        outcome = "draw"
    else:
        outcome = "win" if winner == color else "loss"
    return kind, outcome


def main():
    pgn_path, epd_path = sys.argv[1], sys.argv[2]
    wdl = expected_wdl(epd_path)
    counts = collections.Counter()
    with open(pgn_path) as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            fen = game.headers["FEN"]
            stm = chess.Board(fen).turn
            winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(game.headers["Result"])
            for color, name in ((chess.WHITE, game.headers["White"]), (chess.BLACK, game.headers["Black"])):
                counts[(name,) + verdict(wdl[fen], stm, color, winner)] += 1
    for name in sorted({key[0] for key in counts}):
        print(f"{name}:")
        for kind in ("won", "drawn", "lost"):
            row = {o: counts[(name, kind, o)] for o in ("win", "draw", "loss")}
            total = sum(row.values())
            print(f"  {kind:>5} positions {total:>4}: win {row['win']:>4}  draw {row['draw']:>4}  loss {row['loss']:>4}")


if __name__ == "__main__":
    main()
