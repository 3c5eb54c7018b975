#!/usr/bin/env python3
"""Writes the starting inputs of the fuzz targets into fuzz/seeds/<target>/.

The seeds are committed; this script only documents where they come from and rebuilds
them. Run from the repository root: python3 fuzz/make_seeds.py [SYZYGY_DIR]
(the Syzygy seeds are the small test tables, by default ../shared/data/syzygy).
Needs python-chess (pip install chess) for the Polyglot keys."""

import hashlib
import struct
import sys
from pathlib import Path

import chess
import chess.polyglot

ROOT = Path(__file__).resolve().parent
SEEDS = ROOT / "seeds"

START = chess.STARTING_FEN
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CHESS960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"


def write(target, data):
    if isinstance(data, str):
        data = data.encode()
    folder = SEEDS / target
    folder.mkdir(parents=True, exist_ok=True)
    # Named by content, like libFuzzer's corpus files, so rerunning adds no duplicates.
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def fen_seeds():
    for text, chess960 in [
        (START, 0),
        (KIWIPETE, 0),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0),
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0),
        ("r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1", 0),
        ("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", 0),
        (CHESS960, 1),
        ("1rk2r2/pppppppp/8/8/8/8/PPPPPPPP/1RK2R2 w BFbf - 0 1", 1),
        ("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", 1),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 65535 65535", 0),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", 0),
    ]:
        write("fen", bytes([chess960]) + text.encode())


def moves_seeds():
    for pick, text in [
        (0, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 e1g1"),
        (0, "e4 e5 Nf3 Nc6 Bb5 a6 O-O Nf6 Re1 b5 Bb3 d6 c3 O-O"),
        (0, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3"),
        (1, "e1g1 e1h1 O-O-O e1c1 a2a3 d5e6 e5f7 Qxf6"),
        (2, "b7b8q b7a8n g7g8r bxa8=N e5d6 O-O-O b2a1q"),
        (3, "e5f6 exf6 e5d6 Ke2"),
        (4, "c1b1 c1f1 O-O O-O-O c1d1 b1a1"),
        (6, "g1h1 O-O g1f1 f1f2 h8g8 O-O-O"),
        (7, "g2g7 Qg7+ Qh3 Kb2 Qg7#"),
    ]:
        write("moves", bytes([pick]) + text.encode())


def uci_seeds():
    shuffle = " ".join(["g1f3 g8f6 f3g1 f6g8"] * 40)
    sessions = [
        "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5\n"
        "go wtime 1000 btime 1000 winc 10 binc 10\nstop\nisready\n",
        "setoption name UCI_Chess960 value true\n"
        f"position fen {CHESS960} moves g1f1\ngo movetime 10\n",
        f"setoption name MultiPV value 3\nposition fen {KIWIPETE}\ngo depth 3\n",
        "setoption name OwnBook value true\nsetoption name BookFile value book.bin\n"
        "position startpos\ngo\nposition startpos moves e2e4\ngo\n",
        "position startpos\ngo ponder wtime 100 btime 100\nponderhit\n",
        "go infinite\nisready\nstop\nquit\n",
        "position startpos moves e2e4\ngo perft 2\nd\neval\n",
        "setoption name Hash value 8\nsetoption name Clear Hash\nsetoption name Threads value 2\n"
        "go nodes 500\n",
        "go searchmoves e2e4 d2d4 depth 1\n",
        f"position startpos moves {shuffle}\ngo depth 3\n",
        "go wtime -5 btime -100000\n",
        "go wtime 99999999999999 movestogo 0 mate 2\n",
        "position fen 7k/8/6K1/8/8/8/8/Q7 w - - 0 1\ngo mate 2\n",
        "setoption name SyzygyPath value /tb\nsetoption name Move Overhead value 5000\n"
        "go movetime 1\n",
        "bench 1\n",
        "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 5\n",
    ]
    for session in sessions:
        write("uci", session)


def book_entry(board, uci, weight, learn=0):
    move = chess.Move.from_uci(uci)
    # Polyglot writes castling as the king taking its own rook.
    if board.is_castling(move):
        move = chess.Move(move.from_square, {chess.G1: chess.H1, chess.C1: chess.A1,
                                             chess.G8: chess.H8, chess.C8: chess.A8}[move.to_square])
    promotion = {None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3,
                 chess.QUEEN: 4}[move.promotion]
    raw = (move.to_square | move.from_square << 6 | promotion << 12)
    return chess.polyglot.zobrist_hash(board), raw, weight, learn


def polyglot_seeds():
    start = chess.Board()
    after_e4 = chess.Board()
    after_e4.push_uci("e2e4")
    kiwipete = chess.Board(KIWIPETE)
    entries = [
        book_entry(start, "e2e4", 10),
        book_entry(start, "d2d4", 5),
        book_entry(start, "g1f3", 0),
        book_entry(after_e4, "e7e5", 3, 7),
        book_entry(after_e4, "c7c5", 2),
        book_entry(kiwipete, "e1g1", 1),
        book_entry(kiwipete, "e1c1", 1),
        book_entry(kiwipete, "d5e6", 4),
    ]
    entries.sort()
    pack = lambda es: b"".join(struct.pack(">QHHI", *e) for e in es)
    write("polyglot", pack(entries))
    write("polyglot", pack(entries[:3]))
    write("polyglot", pack(reversed(entries)))
    write("polyglot", pack(entries)[:-3])
    promotions = chess.Board("r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1")
    write("polyglot", pack(sorted([book_entry(promotions, "b7a8q", 1),
                                   book_entry(promotions, "g7g8n", 1),
                                   book_entry(promotions, "e5d6", 2)])))


def syzygy_seeds(tables):
    materials = ["KQvK", "KRvK", "KPvK", "KBNvK", "KRvKR", "KNvK"]  # as in src/lib.rs
    for pick, material in enumerate(materials):
        wdl = (tables / f"{material}.rtbw").read_bytes()
        write("syzygy", bytes([pick, 0]) + wdl)
        dtz_path = tables / f"{material}.rtbz"
        if dtz_path.exists() and dtz_path.stat().st_size < 20000:
            write("syzygy", bytes([pick, 1]) + struct.pack("<I", len(wdl)) + wdl
                  + dtz_path.read_bytes())


def network_seeds():
    """Headers of network files (the body lays them over a valid 32-neuron file), each
    followed by bytes that choose a line of moves (kings walking, castling)."""
    moves = bytes(range(0, 240, 7))
    v3_map = bytes(0 if square < 8 else 1 for square in range(64))
    v3 = b"TARPNNUE" + struct.pack("<IIIII", 3, 32, 8, 2, 1) + v3_map
    write("network", v3 + moves)
    # One bucket, not mirrored: the version 2 inputs in a version 3 file.
    write("network", b"TARPNNUE" + struct.pack("<IIIII", 3, 32, 8, 1, 0) + bytes(64) + moves)
    # A version 2 header (20 bytes), and one cut short.
    write("network", b"TARPNNUE" + struct.pack("<III", 2, 32, 8) + moves)
    write("network", v3[:40])


def pgn_seeds():
    """PGN files as people and programs write them: tags, comments of both kinds, NAGs and
    suffixes, nested variations, a FEN start, Chess960, long algebraic and figurine moves,
    an escape line, a null move in a variation, Latin-1 text, a game that cannot be read
    before one that can, and comments that wrap."""
    write(
        "pgn",
        '[Event "Casual"]\n[Site "?"]\n[Date "2026.12.07"]\n[Round "1"]\n'
        '[White "A \\"quoted\\" name"]\n[Black "B"]\n[Result "1-0"]\n\n'
        "{Opening comment} 1. e4 e5 $1 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6 "
        "3. Bb5 a6?! 4. Ba4 ; a line comment\nNf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 "
        "8. c3 O-O 9. h3 1-0\n",
    )
    write(
        "pgn",
        '[Event "Ending"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40"]\n\n'
        "40. e4 Kd7 41. e5 *\n",
    )
    write(
        "pgn",
        '[Variant "Chess960"]\n[SetUp "1"]\n'
        '[FEN "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1"]\n\n'
        "1. b3 g5 2. c4 Ng6 3. h4 Nf4 4. Bc2 Nb6 5. O-O-O!? 1/2-1/2\n",
    )
    write(
        "pgn",
        "1. e2-e4 e7-e5 2. \u2658g1-f3 \u265eb8-c6 3. d4 exd4 4. Nxd4 Nxd4 5. Qxd4 "
        "(5. -- Nf3+) d6 6. e5 dxe5 7. Qxe5+ Be7 *\n"
        "%an escape line\n\n"
        "1. e4 d5 2. exd5 e5 3. dxe6 e.p. $4 fxe6 0-1\n",
    )
    write(
        "pgn",
        '[White "Zoltan"]\n\n1. d4 d5 2. Bz9 Nf6 *\n\n[White "Ok"]\n\n1. c4 e5 *\n',
    )
    write("pgn", '[White "R\xe9ti"]\n\n1. Nf3 d5 2. c4 *\n'.encode("latin-1"))
    write("pgn", "1. f3 e5 2. g4 Qh4# 0-1\n")
    # Comments whose words the writer wraps: a `%` (an escape only at a line's start), a
    # tag's bracket and a `}` (from a `;` comment) must stay inside the comment.
    words = "word " * 14
    write("pgn", "1. e4 {" + words + "%escape more words to wrap the line} e5 *\n")
    write("pgn", "1. e4 {" + words + '[Event "x"] more words here} e5 *\n')
    write("pgn", "1. e4 ; " + "w " * 30 + "} closing brace %x\n e5 *\n")
    write("pgn", "1. e4 (1. d4 {" + "long " * 20 + "%x} d5) e5 *\n")


def epd_seeds():
    """Test suites as `tarpon epd` reads them: best and avoided moves in SAN and UCI, a
    mate, the clocks as fields and as operations, quoted operands with spaces and
    semicolons, and lines that cannot be read beside ones that can."""
    write(
        "epd",
        "# a suite\n"
        '2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";\n'
        '8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2 b3b2; am Kg6; id "WAC.002";\n',
    )
    write(
        "epd",
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w - - bm Nf6+; dm 2; "
        'id "m8n2.001"; c0 "Henry Buckle vs NN; London, 1840";\n',
    )
    write(
        "epd",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 20 bm O-O-O e1g1; id clocks\n"
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - hmvc 3; fmvn 12; am O-O; id ops\n",
    )
    write(
        "epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - bm e4;\n"
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e5;\n"
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"open;\n"
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - dm 0;\n"
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id nothing;\n"
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Nf3;\n",
    )


def pack_record(fen, score, result, game_start=False):
    """A 32-byte record as Tarpon packs it (src/learn/bulletformat.rs): the side to move's
    view (Black's mirrored), occupancy, piece nibbles, score, result for the side to move
    (0 loss, 1 draw, 2 win), both kings, flags, halfmove clock, the tag 'T'."""
    board = chess.Board(fen)
    us = board.turn

    def stored(square):
        return square if us == chess.WHITE else square ^ 56

    occ, nibbles = 0, []
    for s in range(64):
        piece = board.piece_at(stored(s))
        if piece is None:
            continue
        occ |= 1 << s
        nibbles.append((0 if piece.color == us else 8) | (piece.piece_type - 1))
    pcs = bytearray(16)
    for n, nibble in enumerate(nibbles):
        pcs[n // 2] |= nibble << (4 * (n % 2))
    ksq = stored(board.king(us))
    opp_ksq = stored(board.king(not us)) ^ 56
    flags = (0 if us == chess.WHITE else 1) | (2 if game_start else 0)
    return (
        struct.pack("<Q", occ)
        + bytes(pcs)
        + struct.pack("<hBBBBB", score, result, ksq, opp_ksq, flags, min(board.halfmove_clock, 255))
        + b"T"
    )


def records_seeds():
    """Training records: the start of a game, middlegame and endgame positions with each
    side to move, and a record of another program (no tag: White to move as stored)."""
    write(
        "records",
        pack_record(START, 20, 1, game_start=True)
        + pack_record(KIWIPETE, -35, 2)
        + pack_record("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 3 40", 110, 0),
    )
    write(
        "records",
        pack_record("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", 15, 1)
        + pack_record("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", -400, 0)[:31]
        + b"\x00",
    )


def main():
    tables = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "../../shared/data/syzygy"
    fen_seeds()
    moves_seeds()
    uci_seeds()
    pgn_seeds()
    epd_seeds()
    records_seeds()
    polyglot_seeds()
    network_seeds()
    syzygy_seeds(tables)


if __name__ == "__main__":
    main()
