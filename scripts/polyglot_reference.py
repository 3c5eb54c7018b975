#!/usr/bin/env python3
"""Reference answers from python-chess's Polyglot reader, for tests/all/book_polyglot.rs.

usage: polyglot_reference.py BOOK PGN

Walks every game of PGN and prints one tab-separated line for every distinct position on
the way (the game's start position, then after each move):

    start FEN | UCI moves from it | FEN | key | raw entries | legal moves

- FEN is written with its en-passant square after every double push (python-chess's
  en_passant="fen"), so that a reader of the FEN alone can apply Polyglot's rule;
- key is chess.polyglot.zobrist_hash, 16 hex digits;
- raw entries are the book's entries for the key, in file order, as raw_move:weight:learn
  (numbers), comma-separated, weight-0 entries included;
- legal moves are python-chess's reading of the same entries for the position: the moves
  it accepts as legal, in UCI (castling as e1g1), as uci:weight, comma-separated.

Needs python-chess (pip install chess).
"""

import sys

import chess
import chess.pgn
import chess.polyglot


def entries_text(reader, board):
    key = chess.polyglot.zobrist_hash(board)
    raw = ",".join(f"{e.raw_move}:{e.weight}:{e.learn}" for e in reader.find_all(key, minimum_weight=0))
    legal = ",".join(f"{e.move.uci()}:{e.weight}" for e in reader.find_all(board, minimum_weight=0))
    return key, raw, legal


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    book, pgn_path = sys.argv[1], sys.argv[2]
    seen = set()
    out = sys.stdout
    with chess.polyglot.open_reader(book) as reader, open(pgn_path) as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            board = game.board()
            start = board.fen(en_passant="fen")
            moves = []
            for move in [None, *game.mainline_moves()]:
                if move is not None:
                    board.push(move)
                    moves.append(move.uci())
                line = (start, " ".join(moves))
                if line in seen:
                    continue
                seen.add(line)
                key, raw, legal = entries_text(reader, board)
                out.write(f"{start}\t{line[1]}\t{board.fen(en_passant='fen')}\t{key:016x}\t{raw}\t{legal}\n")


if __name__ == "__main__":
    main()
