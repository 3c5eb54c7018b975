#!/usr/bin/env python3
"""python-chess drives Tarpon with pondering on, as a GUI does: after each move Tarpon
ponders on the reply it expects; the "opponent" (this script) plays that reply about half
the time, so that python-chess sends `ponderhit`, and another legal move otherwise, so that
it sends `stop` and a new search. Every move and every ponder move Tarpon gives must be
legal, and python-chess must find nothing wrong with the engine's output.

Usage: scripts/ponder_check.py [path/to/tarpon] [moves per game]   (needs `pip install chess`)
Exit status 0 when all is well; otherwise a message says what went wrong.
"""
import logging
import random
import sys

import chess
import chess.engine

ENGINE = sys.argv[1] if len(sys.argv) > 1 else "target/release/tarpon"
MOVES = int(sys.argv[2]) if len(sys.argv) > 2 else 12


class Complaints(logging.Handler):
    """Collects what python-chess logs about the engine's output (unexpected lines,
    unparsable info): each one is a protocol error."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record.getMessage())


def limit_for(move_number, clocks):
    """Mostly a clock, as in a game; now and then a depth or a fixed time."""
    kind = move_number % 5
    if kind == 3:
        return chess.engine.Limit(depth=4)
    if kind == 4:
        return chess.engine.Limit(time=0.05)
    return chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                              white_inc=0.02, black_inc=0.02)


def play_game(engine, threads, seed):
    """Tarpon plays White; returns (ponderhits, stops) the opponent caused."""
    rng = random.Random(seed)
    engine.configure({"Threads": threads, "Hash": 16})
    game = f"ponder-check-{threads}-{seed}"
    board = chess.Board()
    clocks = {chess.WHITE: 3.0, chess.BLACK: 3.0}
    hits = stops = 0
    for number in range(MOVES):
        if board.is_game_over():
            break
        # The same `game` object every move: python-chess sends `ponderhit` when the
        # position it pondered on is the one it is asked about next.
        result = engine.play(board, limit_for(number, clocks), ponder=True, game=game,
                             info=chess.engine.INFO_ALL)
        if result.move is None or result.move not in board.legal_moves:
            raise SystemExit(f"illegal or missing move {result.move} in {board.fen()}")
        board.push(result.move)
        if result.ponder is not None and result.ponder not in board.legal_moves:
            raise SystemExit(f"illegal ponder move {result.ponder} after {result.move}: {board.fen()}")
        if board.is_game_over():
            break
        replies = list(board.legal_moves)
        if result.ponder is not None and rng.random() < 0.5:
            reply = result.ponder
            hits += 1
        else:
            reply = rng.choice(replies)
            stops += reply != result.ponder
        board.push(reply)
    return hits, stops


def main():
    complaints = Complaints()
    logging.getLogger("chess.engine").addHandler(complaints)
    engine = chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=30)
    try:
        if "Ponder" not in engine.options:
            raise SystemExit("the engine declares no Ponder option")
        total_hits = total_stops = 0
        for threads, seed in [(1, 1), (2, 2), (1, 3), (2, 4)]:
            hits, stops = play_game(engine, threads, seed)
            total_hits += hits
            total_stops += stops
            print(f"Threads {threads}, seed {seed}: {hits} ponderhits, {stops} ponder misses")
    finally:
        engine.quit()
    if complaints.records:
        raise SystemExit("protocol errors:\n" + "\n".join(complaints.records[:20]))
    if total_hits == 0 or total_stops == 0:
        raise SystemExit(f"the games did not exercise both ponderhit ({total_hits}) and stop ({total_stops})")
    print("all moves and ponder moves legal, no protocol errors")


if __name__ == "__main__":
    main()
