#!/usr/bin/env python3
"""A real UCI client plays Tarpon: python-chess's engine module drives short games of
Tarpon against itself and fails on any protocol error or illegal move.

Usage: scripts/client_check.py [path/to/tarpon] [games]   (needs `pip install chess`)
"""
import logging
import sys

import chess
import chess.engine

ENGINE = sys.argv[1] if len(sys.argv) > 1 else "target/release/tarpon"
GAMES = int(sys.argv[2]) if len(sys.argv) > 2 else 10
OPENINGS = ["", "e2e4 e7e5", "d2d4 d7d5 c2c4", "e2e4 c7c5 g1f3", "g1f3 d7d5", "c2c4 e7e5"]


def play_game(white, black, index):
    board = chess.Board()
    for uci in OPENINGS[index % len(OPENINGS)].split():
        board.push_uci(uci)
    clocks = {chess.WHITE: 2.0, chess.BLACK: 2.0}
    increment = 0.02
    while not board.is_game_over(claim_draw=True) and board.fullmove_number < 80:
        engine = white if board.turn == chess.WHITE else black
        # Alternate the ways a GUI asks for a move: clock, fixed time, depth, nodes.
        kind = board.ply() % 4
        if kind == 0:
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                       white_inc=increment, black_inc=increment)
        elif kind == 1:
            limit = chess.engine.Limit(time=0.02)
        elif kind == 2:
            limit = chess.engine.Limit(depth=3)
        else:
            limit = chess.engine.Limit(nodes=2000)
        result = engine.play(board, limit, info=chess.engine.INFO_ALL)
        if result.move is None or result.move not in board.legal_moves:
            raise SystemExit(f"game {index}: illegal or missing move {result.move} in {board.fen()}")
        board.push(result.move)
    return board.result(claim_draw=True)


class Complaints(logging.Handler):
    """Collects what python-chess logs about the engine's output (unexpected lines,
    unparsable info): each one is a protocol error."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record.getMessage())


def main():
    complaints = Complaints()
    logging.getLogger("chess.engine").addHandler(complaints)
    white = chess.engine.SimpleEngine.popen_uci(ENGINE)
    black = chess.engine.SimpleEngine.popen_uci(ENGINE)
    try:
        for engine in (white, black):
            engine.configure({"Hash": 8, "Move Overhead": 10})
        # MultiPV analysis through the client, which parses every info line.
        infos = white.analyse(chess.Board(), chess.engine.Limit(depth=6), multipv=3)
        if len(infos) != 3 or any("score" not in info or "pv" not in info for info in infos):
            raise SystemExit(f"bad MultiPV analysis: {infos}")
        results = []
        for i in range(GAMES):
            results.append(play_game(white, black, i) if i % 2 == 0 else play_game(black, white, i))
            print(f"game {i + 1}: {results[-1]}")
    finally:
        white.quit()
        black.quit()
    if complaints.records:
        raise SystemExit("protocol errors:\n" + "\n".join(complaints.records[:20]))
    print(f"{GAMES} games, no protocol errors, no illegal moves")


if __name__ == "__main__":
    main()
