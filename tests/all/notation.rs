//! Move notation: UCI text in its standard and Chess960 castling forms, SAN writing
//! (disambiguation, captures, promotions, check and mate marks, castling) and SAN reading
//! with the leniency real files need, plus robustness against arbitrary input.

use crate::common;

use common::Rng;
use tarpon::chess::fen::{self, START_FEN};
use tarpon::chess::movegen::legal_moves;
use tarpon::chess::notation::{MoveError, parse_san, parse_uci, to_san, to_uci};
use tarpon::chess::{Board, Move, MoveKind, PieceType, Square};

fn board(text: &str, chess960: bool) -> Board {
    fen::parse(text, chess960).unwrap_or_else(|e| panic!("bad test FEN {text:?}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).expect("test square name")
}

/// The legal move given in UCI text; the test fails if it is not legal.
fn uci(b: &Board, text: &str) -> Move {
    parse_uci(b, text).unwrap_or_else(|e| panic!("{text}: {e} in {}", fen::to_fen(b)))
}

/// The SAN of the move given in UCI text.
fn san_of(fen_text: &str, uci_text: &str) -> String {
    let b = board(fen_text, false);
    to_san(&b, uci(&b, uci_text))
}

/// The legal castling moves, short first.
fn castlings(b: &Board) -> Vec<Move> {
    let mut moves: Vec<Move> = legal_moves(b)
        .iter()
        .copied()
        .filter(|m| m.kind() == MoveKind::Castling)
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.to() > m.from()));
    moves
}

// ----- UCI -----

const CASTLE_FEN: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

#[test]
fn castling_is_written_king_to_destination_in_standard_chess() {
    let b = board(CASTLE_FEN, false);
    let texts: Vec<String> = castlings(&b).iter().map(|&m| to_uci(&b, m)).collect();
    assert_eq!(texts, ["e1g1", "e1c1"]);
    let b = board("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false);
    let texts: Vec<String> = castlings(&b).iter().map(|&m| to_uci(&b, m)).collect();
    assert_eq!(texts, ["e8g8", "e8c8"]);
}

#[test]
fn castling_is_written_king_takes_rook_in_chess960() {
    let b = board(CASTLE_FEN, true);
    let texts: Vec<String> = castlings(&b).iter().map(|&m| to_uci(&b, m)).collect();
    assert_eq!(texts, ["e1h1", "e1a1"]);
    // Rooks on b1 and g1: short castling happens to read like the standard form, since
    // the king lands on the rook's square.
    let b = board(
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        true,
    );
    let texts: Vec<String> = castlings(&b).iter().map(|&m| to_uci(&b, m)).collect();
    assert_eq!(texts, ["e1g1", "e1b1"]);
}

#[test]
fn both_castling_forms_are_read_in_both_modes() {
    for chess960 in [false, true] {
        let b = board(CASTLE_FEN, chess960);
        let [short, long] = castlings(&b)[..] else {
            panic!("two castlings expected")
        };
        assert_eq!(uci(&b, "e1g1"), short);
        assert_eq!(uci(&b, "e1h1"), short);
        assert_eq!(uci(&b, "e1c1"), long);
        assert_eq!(uci(&b, "e1a1"), long);
        // The move itself is stored the same way in both modes: king takes own rook.
        assert_eq!((short.from(), short.to()), (sq("e1"), sq("h1")));
        assert_eq!((long.from(), long.to()), (sq("e1"), sq("a1")));
        // Writing it and reading it back gives the same move.
        assert_eq!(uci(&b, &to_uci(&b, short)), short);
        assert_eq!(uci(&b, &to_uci(&b, long)), long);
    }
}

#[test]
fn chess960_castling_where_the_king_does_not_move_or_lands_on_a_plain_move_square() {
    // King g1, rook h1: castling short leaves the king where it is and puts the rook on f1.
    let b = board("6k1/8/8/8/8/8/8/6KR w H - 0 1", true);
    let castle = uci(&b, "g1h1");
    assert_eq!(castle.kind(), MoveKind::Castling);
    assert_eq!(to_uci(&b, castle), "g1h1");
    assert_eq!(to_san(&b, castle), "O-O");
    let mut after = b;
    after.play(castle);
    assert_eq!(fen::to_fen(&after), "6k1/8/8/8/8/8/8/5RK1 b - - 1 1");

    // King b1, rook a1: castling long takes the king to c1, which a plain king step also
    // reaches. The text "b1c1" is that ordinary step; castling is "b1a1".
    let b = board("1k6/8/8/8/8/8/8/RK6 w A - 0 1", true);
    let step = uci(&b, "b1c1");
    assert_eq!(step.kind(), MoveKind::Normal);
    let castle = uci(&b, "b1a1");
    assert_eq!(castle.kind(), MoveKind::Castling);
    assert_eq!(to_uci(&b, castle), "b1a1");
    assert_eq!(to_san(&b, castle), "O-O-O");
}

#[test]
fn promotions() {
    let b = board("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", false);
    for (text, piece) in [
        ("e7e8q", PieceType::Queen),
        ("e7e8r", PieceType::Rook),
        ("e7e8b", PieceType::Bishop),
        ("e7e8n", PieceType::Knight),
    ] {
        let m = uci(&b, text);
        assert_eq!(m.kind(), MoveKind::Promotion);
        assert_eq!(m.promotion_piece(), Some(piece));
        assert_eq!(to_uci(&b, m), text);
    }
    // Without the piece letter the move is well formed but no legal move matches it.
    assert_eq!(
        parse_uci(&b, "e7e8"),
        Err(MoveError::Illegal("e7e8".into()))
    );
    // A promotion letter on a move that does not promote.
    assert_eq!(
        parse_uci(&b, "e1e2q"),
        Err(MoveError::Illegal("e1e2q".into()))
    );
    // Kings and pawns are not promotion pieces: that is a syntax error.
    assert_eq!(
        parse_uci(&b, "e7e8k"),
        Err(MoveError::Syntax("e7e8k".into()))
    );
    assert_eq!(
        parse_uci(&b, "e7e8p"),
        Err(MoveError::Syntax("e7e8p".into()))
    );
}

#[test]
fn malformed_uci_is_a_syntax_error() {
    let b = board(START_FEN, false);
    for text in [
        "", "e", "e2", "e2e", "e2e4e4", "e2-e4", "e2e9", "i2i4", "E2E4", "e2 e4", " e2e4", "e2e4 ",
        "Nf3", "O-O", "0000", "e2e4x", "é2e4", "e2é4", "e2e4é", "e2eé", "€€", "ée4",
    ] {
        assert_eq!(
            parse_uci(&b, text),
            Err(MoveError::Syntax(text.into())),
            "{text:?}"
        );
    }
}

#[test]
fn well_formed_but_illegal_uci() {
    let b = board(START_FEN, false);
    for text in [
        "e2e5", "e1e2", "a1a1", "e7e5", "g1g3", "d1h5", "e1g1", "e1c1", "e1h1", "a2b3",
    ] {
        assert_eq!(
            parse_uci(&b, text),
            Err(MoveError::Illegal(text.into())),
            "{text:?}"
        );
    }
    assert_eq!(uci(&b, "e2e4"), Move::new(sq("e2"), sq("e4")));
    assert_eq!(uci(&b, "g1f3"), Move::new(sq("g1"), sq("f3")));
}

#[test]
fn errors_display_the_text() {
    let b = board(START_FEN, false);
    let syntax = parse_uci(&b, "zz").unwrap_err().to_string();
    let illegal = parse_uci(&b, "e2e5").unwrap_err().to_string();
    assert!(
        syntax.contains("zz") && syntax.contains("not a move"),
        "{syntax}"
    );
    assert!(
        illegal.contains("e2e5") && illegal.contains("illegal"),
        "{illegal}"
    );
    let b = board("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", false);
    let ambiguous = parse_san(&b, "Nd2").unwrap_err().to_string();
    assert!(
        ambiguous.contains("Nd2") && ambiguous.contains("ambiguous"),
        "{ambiguous}"
    );
}

#[test]
fn the_null_move_is_written_as_four_zeros() {
    let b = board(START_FEN, false);
    assert_eq!(to_uci(&b, Move::NULL), "0000");
    assert_eq!(to_uci(&b, Move::NONE), "0000");
}

// ----- SAN writing -----

#[test]
fn san_of_ordinary_moves_and_captures() {
    assert_eq!(san_of(START_FEN, "g1f3"), "Nf3");
    assert_eq!(san_of(START_FEN, "e2e4"), "e4");
    assert_eq!(san_of(START_FEN, "b2b3"), "b3");
    assert_eq!(san_of("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5"), "Nxe5");
    assert_eq!(san_of("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), "exd5");
    assert_eq!(san_of("4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1", "d5e4"), "dxe4");
    assert_eq!(san_of("4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1", "e8d7"), "Kd7");
}

#[test]
fn san_of_en_passant_is_a_pawn_capture() {
    // The target square is empty, yet the move is written as a capture.
    let fen_text = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    let b = board(fen_text, false);
    let m = uci(&b, "e5d6");
    assert_eq!(m.kind(), MoveKind::EnPassant);
    assert_eq!(to_san(&b, m), "exd6");
    assert_eq!(parse_san(&b, "exd6"), Ok(m));
    assert_eq!(
        parse_san(&b, "exd6e.p."),
        Err(MoveError::Syntax("exd6e.p.".into()))
    );
}

#[test]
fn san_disambiguates_by_file() {
    // Knights on b1 and f3 both reach d2; their files differ.
    let fen_text = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
    assert_eq!(san_of(fen_text, "b1d2"), "Nbd2");
    assert_eq!(san_of(fen_text, "f3d2"), "Nfd2");
    // c3 is reachable from b1 only.
    assert_eq!(san_of(fen_text, "b1c3"), "Nc3");
}

#[test]
fn san_disambiguates_by_rank_when_the_file_is_shared() {
    let fen_text = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
    assert_eq!(san_of(fen_text, "a1a3"), "R1a3");
    assert_eq!(san_of(fen_text, "a5a3"), "R5a3");
    assert_eq!(san_of(fen_text, "a1b1"), "Rb1");
    // Only the a5 rook reaches e5, where it checks along the e-file.
    assert_eq!(san_of(fen_text, "a5e5"), "Re5+");
    // Knights on g1 and g5 both reach f3.
    let fen_text = "4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1";
    assert_eq!(san_of(fen_text, "g1f3"), "N1f3");
    assert_eq!(san_of(fen_text, "g5f3"), "N5f3");
}

#[test]
fn san_disambiguates_by_both_with_three_queens() {
    // Queens on a1, a3 and c1 all reach b2. The a1 queen shares its file with a3 and its
    // rank with c1, so only the full square names it; for the other two one part suffices.
    let fen_text = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
    assert_eq!(san_of(fen_text, "a1b2"), "Qa1b2");
    assert_eq!(san_of(fen_text, "a3b2"), "Q3b2");
    assert_eq!(san_of(fen_text, "c1b2"), "Qcb2");
    let b = board(fen_text, false);
    for text in ["Qa1b2", "Q3b2", "Qcb2"] {
        let m = parse_san(&b, text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(to_san(&b, m), text);
    }
    for text in ["Qb2", "Qab2", "Q1b2"] {
        assert_eq!(parse_san(&b, text), Err(MoveError::Ambiguous(text.into())));
    }
}

#[test]
fn san_ignores_rivals_that_cannot_legally_move() {
    // The e2 knight is pinned by the e7 rook, so Nb1-c3 needs no disambiguation.
    let fen_text = "7k/4r3/8/8/8/8/4N3/1N2K3 w - - 0 1";
    assert_eq!(san_of(fen_text, "b1c3"), "Nc3");
    let b = board(fen_text, false);
    assert_eq!(parse_san(&b, "Nc3"), Ok(uci(&b, "b1c3")));
}

#[test]
fn san_of_promotions_with_check_and_mate() {
    // Black's king is walled in by its own pawns: a new queen or rook on e8 mates.
    let walled = "k7/pp2P3/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(san_of(walled, "e7e8q"), "e8=Q#");
    assert_eq!(san_of(walled, "e7e8r"), "e8=R#");
    assert_eq!(san_of(walled, "e7e8b"), "e8=B");
    assert_eq!(san_of(walled, "e7e8n"), "e8=N");
    // With b7 free the king escapes: check only.
    let open = "k7/p3P3/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(san_of(open, "e7e8q"), "e8=Q+");
    // A capturing promotion names the pawn's file; the knight on d8 shields the king from
    // a queen on c8, but a queen that captures on d8 gives check.
    let capture = "3nk3/2P5/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(san_of(capture, "c7d8q"), "cxd8=Q+");
    assert_eq!(san_of(capture, "c7c8q"), "c8=Q");
    assert_eq!(san_of(capture, "c7d8n"), "cxd8=N");
}

#[test]
fn san_check_and_mate_marks() {
    // Fool's mate.
    let b = board(
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        false,
    );
    assert_eq!(to_san(&b, uci(&b, "d8h4")), "Qh4#");
    // A check that can be answered.
    assert_eq!(san_of("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8"), "Ra8+");
    // A discovered check: the bishop moves, the rook behind it checks.
    assert_eq!(san_of("4k3/8/8/8/4B3/8/8/4RK2 w - - 0 1", "e4b7"), "Bb7+");
}

#[test]
fn san_of_castling() {
    let b = board(CASTLE_FEN, false);
    let [short, long] = castlings(&b)[..] else {
        panic!("two castlings expected")
    };
    assert_eq!(to_san(&b, short), "O-O");
    assert_eq!(to_san(&b, long), "O-O-O");
    // Castling can give check: the rook lands on f1, facing the king on f8.
    assert_eq!(san_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");
    assert_eq!(san_of("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"), "O-O-O+");
    // Chess960: the same words, whatever squares the king and rook use.
    let b = board(
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        true,
    );
    let [short, long] = castlings(&b)[..] else {
        panic!("two castlings expected")
    };
    assert_eq!(to_san(&b, short), "O-O");
    assert_eq!(to_san(&b, long), "O-O-O");
}

// ----- SAN reading -----

#[test]
fn san_reading_is_lenient() {
    let b = board(CASTLE_FEN, false);
    let [short, long] = castlings(&b)[..] else {
        panic!("two castlings expected")
    };
    for text in ["O-O", "0-0", "O-O+", "0-0#", "O-O!", "O-O?!"] {
        assert_eq!(parse_san(&b, text), Ok(short), "{text}");
    }
    for text in ["O-O-O", "0-0-0", "O-O-O+", "0-0-0!!"] {
        assert_eq!(parse_san(&b, text), Ok(long), "{text}");
    }

    let b = board(START_FEN, false);
    let nf3 = uci(&b, "g1f3");
    for text in [
        "Nf3", "Nf3+", "Nf3#", "Nf3!", "Nf3?", "Nf3!?", "Nf3?!", "Ngf3", "N1f3", "Ng1f3",
    ] {
        assert_eq!(parse_san(&b, text), Ok(nf3), "{text}");
    }

    // The capture sign may be left out, for pieces and for pawns.
    let b = board("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1", false);
    let nxe5 = uci(&b, "f3e5");
    assert_eq!(parse_san(&b, "Nxe5"), Ok(nxe5));
    assert_eq!(parse_san(&b, "Ne5"), Ok(nxe5));
    assert_eq!(parse_san(&b, "Nfe5"), Ok(nxe5));
    let b = board("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", false);
    assert_eq!(parse_san(&b, "ed5"), Ok(uci(&b, "e4d5")));
    assert_eq!(parse_san(&b, "exd5"), Ok(uci(&b, "e4d5")));

    // The promotion '=' may be left out.
    let b = board("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", false);
    let queen = uci(&b, "e7e8q");
    for text in ["e8=Q", "e8Q", "e8=Q+", "e8Q+", "e8=Q!"] {
        assert_eq!(parse_san(&b, text), Ok(queen), "{text}");
    }
    assert_eq!(parse_san(&b, "e8N"), Ok(uci(&b, "e7e8n")));
    // Without a piece there is no legal move to e8.
    assert_eq!(parse_san(&b, "e8"), Err(MoveError::Illegal("e8".into())));
}

#[test]
fn long_algebraic_and_figurine_san_are_read() {
    let b = board(START_FEN, false);
    let nf3 = uci(&b, "g1f3");
    for text in ["Ng1-f3", "Ng1xf3", "♘f3", "♞f3", "♘g1-f3+"] {
        assert_eq!(parse_san(&b, text), Ok(nf3), "{text}");
    }
    let e4 = uci(&b, "e2e4");
    for text in ["e2-e4", "e2e4", "♙e4", "♙e2-e4"] {
        assert_eq!(parse_san(&b, text), Ok(e4), "{text}");
    }
    // A figurine names its piece: a knight figurine is never read as a pawn move.
    assert_eq!(parse_san(&b, "♘e4"), Err(MoveError::Illegal("♘e4".into())));
    let b = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", false);
    assert_eq!(parse_san(&b, "e5xd6"), Ok(uci(&b, "e5d6")));
    assert_eq!(parse_san(&b, "e5-d6"), Ok(uci(&b, "e5d6")));
}

#[test]
fn a_pawn_move_without_a_file_is_an_advance_not_a_capture() {
    // The only pawn move to d5 is the capture from e4. "d5" would be a d-pawn advancing,
    // which does not exist here: reading it as exd5 would silently play another move.
    let b = board("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", false);
    assert_eq!(parse_san(&b, "d5"), Err(MoveError::Illegal("d5".into())));
    assert_eq!(parse_san(&b, "e5"), Ok(uci(&b, "e4e5")));
    // Likewise for a capturing promotion and for en passant.
    let b = board("3nk3/2P5/8/8/8/8/8/4K3 w - - 0 1", false);
    assert_eq!(
        parse_san(&b, "d8=Q"),
        Err(MoveError::Illegal("d8=Q".into()))
    );
    assert_eq!(parse_san(&b, "cd8=Q"), Ok(uci(&b, "c7d8q")));
    let b = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", false);
    assert_eq!(parse_san(&b, "d6"), Err(MoveError::Illegal("d6".into())));
    assert_eq!(parse_san(&b, "e6"), Ok(uci(&b, "e5e6")));
}

#[test]
fn ambiguous_san_is_an_error() {
    let b = board("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", false);
    assert_eq!(
        parse_san(&b, "Nd2"),
        Err(MoveError::Ambiguous("Nd2".into()))
    );
    assert_eq!(
        parse_san(&b, "Nd2+"),
        Err(MoveError::Ambiguous("Nd2+".into()))
    );
    assert_eq!(parse_san(&b, "Nbd2"), Ok(uci(&b, "b1d2")));
    assert_eq!(parse_san(&b, "Nfd2"), Ok(uci(&b, "f3d2")));
    let b = board("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", false);
    assert_eq!(
        parse_san(&b, "Ra3"),
        Err(MoveError::Ambiguous("Ra3".into()))
    );
    assert_eq!(
        parse_san(&b, "Raa3"),
        Err(MoveError::Ambiguous("Raa3".into()))
    );
    assert_eq!(parse_san(&b, "R1a3"), Ok(uci(&b, "a1a3")));
}

#[test]
fn illegal_and_malformed_san() {
    let b = board(START_FEN, false);
    for text in [
        "Nf6", "e5", "O-O", "O-O-O", "Ke2", "Qxd7", "exd3", "Nbd2", "Bb5", "e8=Q",
    ] {
        assert_eq!(
            parse_san(&b, text),
            Err(MoveError::Illegal(text.into())),
            "{text}"
        );
    }
    for text in [
        "", "x", "e", "Z4", "Nf", "e9", "Nz3", "i4", "O-O-O-O", "N", "Nf3x4", "==", "e4e4e4", "é4",
        "Nf3é", "e8=", "+", "#",
    ] {
        assert_eq!(
            parse_san(&b, text),
            Err(MoveError::Syntax(text.into())),
            "{text:?}"
        );
    }
}

// ----- Whole-game round trips -----

/// Positions with every kind of move: castling both ways, en passant, promotions (some
/// capturing, some checking), pins, and Chess960 castling.
const GAME_STARTS: [(&str, bool); 6] = [
    (START_FEN, false),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    ),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        true,
    ),
    (
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        true,
    ),
];

#[test]
fn every_legal_move_round_trips_through_san_and_uci() {
    let mut rng = Rng::new(0x5A11_0CE5);
    let mut checked = 0usize;
    for (start, chess960) in GAME_STARTS {
        for _game in 0..12 {
            let mut b = board(start, chess960);
            for _ply in 0..80 {
                let moves = legal_moves(&b);
                if moves.is_empty() {
                    break;
                }
                let mut seen = std::collections::HashSet::new();
                for &m in moves.iter() {
                    let san = to_san(&b, m);
                    assert!(
                        seen.insert(san.clone()),
                        "two moves written {san} in {}",
                        fen::to_fen(&b)
                    );
                    assert_eq!(parse_san(&b, &san), Ok(m), "{san} in {}", fen::to_fen(&b));
                    let text = to_uci(&b, m);
                    assert_eq!(parse_uci(&b, &text), Ok(m), "{text} in {}", fen::to_fen(&b));
                    // The mark at the end agrees with the position after the move.
                    let mut after = b;
                    after.play(m);
                    let mark = match (after.in_check(), legal_moves(&after).is_empty()) {
                        (true, true) => Some('#'),
                        (true, false) => Some('+'),
                        _ => None,
                    };
                    assert_eq!(
                        san.chars().last().filter(|c| "+#".contains(*c)),
                        mark,
                        "{san}"
                    );
                    checked += 1;
                }
                b.play(moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(checked > 10_000, "only {checked} moves checked");
}

// ----- Never panics -----

/// Characters of move notation, plus others (several of them multi-byte in UTF-8).
const ALPHABET: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', '1', '2', '3', '4', '5', '8', '9', '0', 'N', 'B',
    'R', 'Q', 'K', 'P', 'O', 'n', 'b', 'q', 'k', 'x', ':', '=', '+', '#', '!', '?', '-', ' ', 'é',
    'ü', '€', '♔', '♘', '𝄞', '\u{0}', '\u{301}', '\u{200B}',
];

/// Feeds `text` to both readers in several positions; they may refuse it but not panic,
/// and what they accept must be a legal move that they read back from its own notation.
fn try_text(boards: &[Board], text: &str) {
    for b in boards {
        if let Ok(m) = parse_uci(b, text) {
            assert!(legal_moves(b).contains(m), "{text:?}");
            assert_eq!(parse_uci(b, &to_uci(b, m)), Ok(m));
        }
        if let Ok(m) = parse_san(b, text) {
            assert!(legal_moves(b).contains(m), "{text:?}");
            assert_eq!(parse_san(b, &to_san(b, m)), Ok(m));
        }
    }
}

#[test]
fn random_text_never_panics() {
    let boards: Vec<Board> = GAME_STARTS
        .iter()
        .map(|&(text, chess960)| board(text, chess960))
        .chain([
            board("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", false),
            board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", false),
            board("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", false),
        ])
        .collect();
    let mut rng = Rng::new(0xBAD_C0DE);
    // Random bytes, read lossily into text.
    for _ in 0..3000 {
        let len = rng.below(9);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        try_text(&boards, &String::from_utf8_lossy(&bytes));
    }
    // Random characters of the notation alphabet, short enough to look like moves.
    for _ in 0..6000 {
        let len = rng.below(8);
        let text: String = (0..len)
            .map(|_| ALPHABET[rng.below(ALPHABET.len())])
            .collect();
        try_text(&boards, &text);
    }
    // Real move texts with one character damaged or a multi-byte character inserted:
    // byte-length checks alone would then slice through the middle of a character.
    let mut texts = Vec::new();
    for b in &boards {
        for &m in legal_moves(b).iter() {
            texts.push(to_uci(b, m));
            texts.push(to_san(b, m));
        }
    }
    for _ in 0..6000 {
        let mut chars: Vec<char> = texts[rng.below(texts.len())].chars().collect();
        let at = rng.below(chars.len() + 1);
        let c = ALPHABET[rng.below(ALPHABET.len())];
        match rng.below(3) {
            0 => chars.insert(at, c),
            1 if at < chars.len() => chars[at] = c,
            _ if at < chars.len() => {
                chars.remove(at);
            }
            _ => chars.push(c),
        }
        try_text(&boards, &chars.into_iter().collect::<String>());
    }
}
