#!/usr/bin/env python3
"""Whether Tarpon's strength limits convert the basic mates: K+Q v K, K+R v K, K+B+B v K.

Each setting plays the stronger side from random positions (a fixed seed) against a
defender at full strength (Stockfish by default), and the script reports for every setting
and ending how many games were mated, in how many moves, and how the others ended. A person
of 1200 mates with the queen, one of 1600 with the rook; the settings should, well inside
the fifty moves.

    python3 scripts/level_endgames.py --tarpon target/release/tarpon --elo 1200 1600 2000

Needs python-chess (`pip install chess`) and a UCI defender (`--defender`).
"""
import argparse
import random
import chess
import chess.engine

ENDINGS = {"KQK": "Q", "KRK": "R", "KBBK": "BB"}


def random_position(rng, pieces):
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), 2 + len(pieces))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq, p in zip(squares[2:], pieces):
            board.set_piece_at(sq, chess.Piece.from_symbol(p))
        board.turn = chess.WHITE
        if pieces == "BB":
            colours = {(chess.square_file(s) + chess.square_rank(s)) % 2 for s in squares[2:]}
            if len(colours) != 2:
                continue
        if board.is_valid() and not board.is_game_over() and not board.is_check():
            return board


def play(tarpon, defender, board, go, defend_ms):
    start = board.copy()
    while not board.is_game_over(claim_draw=True):
        if board.turn == chess.WHITE:
            result = tarpon.play(board, go)
        else:
            result = defender.play(board, chess.engine.Limit(time=defend_ms / 1000))
        board.push(result.move)
        if board.fullmove_number - start.fullmove_number > 60:
            return "over 60 moves", None
    outcome = board.outcome(claim_draw=True)
    moves = board.fullmove_number - start.fullmove_number + (board.turn == chess.WHITE)
    if outcome.winner == chess.WHITE:
        return "mate", moves
    return outcome.termination.name.lower(), moves


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tarpon", default="target/release/tarpon")
    ap.add_argument("--defender", default="/usr/games/stockfish")
    ap.add_argument("--elo", type=int, nargs="+", default=[1200, 1600, 2000])
    ap.add_argument("--endings", nargs="+", default=list(ENDINGS))
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clock", default="60+1", help="Tarpon's clock, minutes... seconds+increment")
    ap.add_argument("--defend-ms", type=int, default=50)
    args = ap.parse_args()
    base, inc = (float(x) for x in args.clock.split("+"))
    go = chess.engine.Limit(white_clock=base, black_clock=base, white_inc=inc, black_inc=inc)
    defender = chess.engine.SimpleEngine.popen_uci(args.defender)
    for elo in args.elo:
        tarpon = chess.engine.SimpleEngine.popen_uci(args.tarpon)
        tarpon.configure({"UCI_LimitStrength": True, "UCI_Elo": elo})
        for ending in args.endings:
            rng = random.Random(args.seed)
            results = []
            for _ in range(args.positions):
                board = random_position(rng, ENDINGS[ending])
                results.append(play(tarpon, defender, board, go, args.defend_ms))
            mates = sorted(m for r, m in results if r == "mate")
            others = [r for r, _ in results if r != "mate"]
            print(f"UCI_Elo {elo} {ending}: mated {len(mates)}/{len(results)}, moves {mates}, "
                  f"longest {max(mates, default='-')}; others {others}", flush=True)
        tarpon.quit()
    defender.quit()


if __name__ == "__main__":
    main()
