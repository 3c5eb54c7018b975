//! FEN reading and writing: every way a FEN can be rejected yields its own `FenError`
//! variant, accepted FENs survive a write/read round trip, and no input, however mangled,
//! makes the parser panic.

use crate::common;

use common::{Rng, suite_fens};
use tarpon::chess::board::rights;
use tarpon::chess::fen::{self, FenError, START_FEN};
use tarpon::chess::{Board, Color, Square};

/// A square from its name, for readable expectations.
fn sq(name: &str) -> Square {
    Square::parse(name).expect("test square name")
}

/// Parses in standard mode and returns the error, failing the test if the FEN is accepted.
fn reject(text: &str) -> FenError {
    reject_in(text, false)
}

fn reject_in(text: &str, chess960: bool) -> FenError {
    match fen::parse(text, chess960) {
        Ok(board) => panic!("accepted {text:?} as {}", fen::to_fen(&board)),
        Err(e) => e,
    }
}

fn accept(text: &str, chess960: bool) -> Board {
    fen::parse(text, chess960).unwrap_or_else(|e| panic!("rejected {text:?}: {e}"))
}

/// The `CastlingMismatch` right, whatever the reason text.
fn mismatched_right(e: FenError) -> char {
    match e {
        FenError::CastlingMismatch { right, .. } => right,
        other => panic!("expected CastlingMismatch, got {other:?}"),
    }
}

/// The `EnPassantImpossible` square and reason.
fn impossible_ep(e: FenError) -> (Square, &'static str) {
    match e {
        FenError::EnPassantImpossible { square, reason } => (square, reason),
        other => panic!("expected EnPassantImpossible, got {other:?}"),
    }
}

// ----- Field count -----

#[test]
fn too_few_fields() {
    assert_eq!(reject(""), FenError::FieldCount { found: 0 });
    assert_eq!(reject("   \t "), FenError::FieldCount { found: 0 });
    assert_eq!(reject("8/8/8/8/8/8/8/8"), FenError::FieldCount { found: 1 });
    assert_eq!(
        reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq"),
        FenError::FieldCount { found: 3 }
    );
}

#[test]
fn too_many_fields() {
    assert_eq!(
        reject(&format!("{START_FEN} 7")),
        FenError::FieldCount { found: 7 }
    );
    assert_eq!(
        reject(&format!("{START_FEN} extra words here")),
        FenError::FieldCount { found: 9 }
    );
}

#[test]
fn clocks_may_be_left_out() {
    // Four fields (as in EPD): both clocks take their defaults, 0 and move 1.
    let four = accept(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
        false,
    );
    assert_eq!(four, accept(START_FEN, false));
    // Five fields: the halfmove clock is given, the move number defaults to 1.
    let five = accept(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7",
        false,
    );
    assert_eq!(five.halfmove_clock(), 7);
    assert_eq!(five.fullmove_number(), 1);
    // Any run of whitespace separates fields.
    let spaced = accept(
        "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR \t w  KQkq - 0   1\n",
        false,
    );
    assert_eq!(spaced, accept(START_FEN, false));
}

// ----- Piece placement -----

#[test]
fn unknown_piece_letters() {
    assert_eq!(
        reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"),
        FenError::UnknownPiece {
            rank: 0,
            found: 'X'
        }
    );
    assert_eq!(
        reject("rnbqkbnr/pppxpppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::UnknownPiece {
            rank: 6,
            found: 'x'
        }
    );
    // Digits count empty squares only from 1 to 8; 0 and 9 are not run lengths.
    assert_eq!(
        reject("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::UnknownPiece {
            rank: 5,
            found: '9'
        }
    );
    assert_eq!(
        reject("rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::UnknownPiece {
            rank: 5,
            found: '0'
        }
    );
    // A non-ASCII letter is reported as the whole character, not as one byte of it.
    assert_eq!(
        reject("rnbqkbnr/pppppppp/8/8/8/7é/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::UnknownPiece {
            rank: 2,
            found: 'é'
        }
    );
}

#[test]
fn rank_with_too_many_squares() {
    assert_eq!(
        reject("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankLength {
            rank: 6,
            squares: 9
        }
    );
    assert_eq!(
        reject("rnbqkbnr/pppppppp/8/8/8/44p/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankLength {
            rank: 2,
            squares: 9
        }
    );
    // Very long ranks are counted, not written past the edge of the board.
    assert_eq!(
        reject("rnbqkbnr/pppppppp/8/8/8888/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankLength {
            rank: 3,
            squares: 32
        }
    );
}

#[test]
fn rank_with_too_few_squares() {
    assert_eq!(
        reject("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankLength {
            rank: 6,
            squares: 7
        }
    );
    assert_eq!(
        reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"),
        FenError::RankLength {
            rank: 0,
            squares: 7
        }
    );
    // An empty rank between two slashes describes no squares at all.
    assert_eq!(
        reject("rnbqkbnr//8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankLength {
            rank: 6,
            squares: 0
        }
    );
}

#[test]
fn wrong_number_of_ranks() {
    assert_eq!(
        reject("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankCount { found: 7 }
    );
    assert_eq!(
        reject("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankCount { found: 9 }
    );
    // A trailing slash opens a ninth, empty rank.
    assert_eq!(
        reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1"),
        FenError::RankCount { found: 9 }
    );
    assert_eq!(reject("8 w - - 0 1"), FenError::RankCount { found: 1 });
}

#[test]
fn each_side_needs_exactly_one_king() {
    assert_eq!(
        reject("4k3/8/8/8/8/8/8/8 w - - 0 1"),
        FenError::KingCount {
            color: Color::White,
            found: 0
        }
    );
    assert_eq!(
        reject("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::KingCount {
            color: Color::Black,
            found: 0
        }
    );
    assert_eq!(
        reject("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
        FenError::KingCount {
            color: Color::White,
            found: 2
        }
    );
    assert_eq!(
        reject("k3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::KingCount {
            color: Color::Black,
            found: 2
        }
    );
    assert_eq!(
        reject("kkk5/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::KingCount {
            color: Color::Black,
            found: 3
        }
    );
    // An empty board lacks both kings; White is reported first.
    assert_eq!(
        reject("8/8/8/8/8/8/8/8 w - - 0 1"),
        FenError::KingCount {
            color: Color::White,
            found: 0
        }
    );
}

#[test]
fn pawns_cannot_stand_on_the_back_ranks() {
    // Neither colour's pawns may be on rank 1 (they start on their 2nd rank and never
    // move backwards) nor rank 8 (they would have promoted).
    assert_eq!(
        reject("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
        FenError::PawnOnBackRank { square: sq("a1") }
    );
    assert_eq!(
        reject("4k2P/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::PawnOnBackRank { square: sq("h8") }
    );
    assert_eq!(
        reject("4k3/8/8/8/8/8/8/4K1p1 w - - 0 1"),
        FenError::PawnOnBackRank { square: sq("g1") }
    );
    assert_eq!(
        reject("3pk3/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::PawnOnBackRank { square: sq("d8") }
    );
}

#[test]
fn material_must_be_what_eight_pawns_can_promote_to() {
    // 259 legal moves: more than any real game position has, and more than the move
    // generator's lists hold. It used to crash `go` and `go perft`.
    assert_eq!(
        reject("QQQQQQnk/Q5RP/Q6Q/1Q5Q/1Q5Q/2Q4Q/Q6Q/KQQQQQQQ w - - 0 1"),
        FenError::TooMuchMaterial {
            color: Color::White
        }
    );
    // Nine pawns; eight pawns and a second queen; three black knights with eight pawns.
    for (text, color) in [
        ("4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1", Color::White),
        ("4k3/8/8/8/1Q6/8/PPPPPPPP/3QK3 w - - 0 1", Color::White),
        ("nnn1k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1", Color::Black),
    ] {
        assert_eq!(reject(text), FenError::TooMuchMaterial { color }, "{text}");
    }
    // The same extra pieces with a pawn gone for each are fine: the record position with
    // 218 legal moves (eight promoted queens), and three knights with seven pawns.
    let record = accept(
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
        false,
    );
    assert_eq!(tarpon::chess::movegen::legal_moves(&record).len(), 218);
    accept("nnn1k3/ppppppp1/8/8/8/8/8/4K3 w - - 0 1", false);
    accept("4k3/8/8/8/1Q6/8/PPPPPPP1/3QK3 w - - 0 1", false);
}

// ----- Side to move -----

#[test]
fn bad_side_to_move() {
    for side in ["W", "B", "white", "x", "-", "wb"] {
        assert_eq!(
            reject(&format!(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR {side} KQkq - 0 1"
            )),
            FenError::SideToMove {
                found: side.to_string()
            }
        );
    }
}

#[test]
fn the_side_not_to_move_may_not_be_in_check() {
    // Black's king on e8 faces the rook on e2: fine with Black to move, but with White to
    // move White could simply capture the king.
    accept("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1", false);
    assert_eq!(
        reject("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1"),
        FenError::OpponentInCheck
    );
    // Touching kings always leave the side not to move in check.
    assert_eq!(
        reject("8/8/8/8/8/8/3k4/4K3 w - - 0 1"),
        FenError::OpponentInCheck
    );
    assert_eq!(
        reject("8/8/8/8/8/8/3k4/4K3 b - - 0 1"),
        FenError::OpponentInCheck
    );
    // A pawn check counts too: the black pawn on d2 attacks e1.
    assert_eq!(
        reject("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1"),
        FenError::OpponentInCheck
    );
}

#[test]
fn a_double_check_by_bishops_on_one_diagonal_is_accepted() {
    // perft.epd line 51: the black king on f3 is checked along the long diagonal from both
    // ends at once, by the bishops on a8 and h1. No game can reach that, but the perft
    // suite uses it, so the parser must not reject it as impossible.
    let board = accept("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1", false);
    assert!(board.in_check());
    assert_eq!(fen::to_fen(&board), "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1");
}

// ----- Castling -----

#[test]
fn standard_castling_needs_king_on_e_file_and_rooks_in_corners() {
    // The white king has stepped to f1: on its rank, but not where standard castling starts.
    let e = reject("r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1");
    assert_eq!(mismatched_right(e), 'K');
    // The white king has left the first rank altogether.
    let e = reject("r3k2r/8/8/8/8/8/4K3/R6R w KQkq - 0 1");
    assert_eq!(
        e,
        FenError::CastlingMismatch {
            right: 'K',
            reason: "the king is not on its first rank"
        }
    );
    // Black's king moved off e8.
    let e = reject("r2k3r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(mismatched_right(e), 'k');
    // The h8 rook is missing, so Black cannot hold the short right.
    let e = reject("r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(mismatched_right(e), 'k');
    // A rook on the king's side, but not in the corner: fine in Chess960, not here.
    let e = reject("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1");
    assert_eq!(mismatched_right(e), 'K');
    accept("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", true);
    let e = reject("4k3/8/8/8/8/8/8/1R2K3 w Q - 0 1");
    assert_eq!(mismatched_right(e), 'Q');
}

#[test]
fn castling_right_needs_a_rook_on_that_side() {
    // Both white rooks are on the queen's side: 'K' names no rook, in either mode.
    for chess960 in [false, true] {
        let e = reject_in("4k3/8/8/8/8/8/8/RR2K3 w K - 0 1", chess960);
        assert_eq!(
            e,
            FenError::CastlingMismatch {
                right: 'K',
                reason: "no rook of that colour on that square or side"
            }
        );
    }
    // An enemy rook on h1 does not lend White a short right.
    let e = reject("4k3/8/8/8/8/8/8/4K2r w K - 0 1");
    assert_eq!(mismatched_right(e), 'K');
    // A Shredder file letter must name a square with one of our rooks.
    let e = reject_in("4k3/8/8/8/8/8/8/R3K2R w G - 0 1", true);
    assert_eq!(mismatched_right(e), 'G');
    let e = reject_in("r3k2r/8/8/8/8/8/8/R3K2R w b - 0 1", true);
    assert_eq!(mismatched_right(e), 'b');
}

#[test]
fn chess960_castling_accepts_files_and_xfen() {
    // King on g1 between rooks f1 and h1 (a real Chess960 setup).
    let shredder = accept(
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        true,
    );
    let xfen = accept(
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
        true,
    );
    assert_eq!(shredder, xfen);
    assert_eq!(shredder.castling_rights(), rights::ALL);
    assert_eq!(shredder.castling_rook(rights::WHITE_SHORT), Some(sq("h1")));
    assert_eq!(shredder.castling_rook(rights::WHITE_LONG), Some(sq("f1")));
    assert_eq!(shredder.castling_rook(rights::BLACK_SHORT), Some(sq("h8")));
    assert_eq!(shredder.castling_rook(rights::BLACK_LONG), Some(sq("f8")));
    // Mixed forms and any order are fine.
    assert_eq!(
        accept(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w fKhQ - 2 9",
            true
        ),
        shredder
    );
    // Every file letter, upper case for White and lower case for Black, names its rook.
    for file in 0..8u8 {
        let mut rank = ['1'; 8];
        rank[file as usize] = 'R';
        // Put the king next to the rook, on whichever side has room.
        let king_file = if file < 7 { file + 1 } else { 6 };
        rank[king_file as usize] = 'K';
        let white: String = rank.iter().collect();
        let black = white.to_ascii_lowercase();
        let letter = (b'a' + file) as char;
        let text = format!(
            "{black}/8/8/8/8/8/8/{white} w {}{letter} - 0 1",
            letter.to_ascii_uppercase()
        );
        let board = accept(&text, true);
        let short = file > king_file;
        assert_eq!(
            board.castling_rook(rights::of(Color::White, short)),
            Some(Square::from_coords(file, 0)),
            "{text}"
        );
        assert_eq!(
            board.castling_rook(rights::of(Color::Black, short)),
            Some(Square::from_coords(file, 7)),
            "{text}"
        );
    }
}

#[test]
fn xfen_letters_name_the_outermost_rook() {
    // Rooks on g1 and h1 beside a king on e1: 'K' is the h1 rook, 'G' the inner one.
    let k = accept("4k3/8/8/8/8/8/8/4K1RR w K - 0 1", true);
    assert_eq!(k.castling_rook(rights::WHITE_SHORT), Some(sq("h1")));
    let g = accept("4k3/8/8/8/8/8/8/4K1RR w G - 0 1", true);
    assert_eq!(g.castling_rook(rights::WHITE_SHORT), Some(sq("g1")));
    // Writing keeps them apart: 'K' for the outer rook, the file letter for the inner one.
    assert_eq!(fen::to_fen(&k), "4k3/8/8/8/8/8/8/4K1RR w K - 0 1");
    assert_eq!(fen::to_fen(&g), "4k3/8/8/8/8/8/8/4K1RR w G - 0 1");
}

#[test]
fn malformed_castling_field() {
    for field in ["KQkqx", "K1", "KQ-", "Kz", "KQkq?", "Kñ"] {
        assert_eq!(
            reject(&format!("r3k2r/8/8/8/8/8/8/R3K2R w {field} - 0 1")),
            FenError::CastlingSyntax {
                found: field.to_string()
            },
            "{field}"
        );
    }
    // A right given twice, by the same letter or by an X-FEN letter and a file letter.
    for (field, chess960) in [
        ("KK", false),
        ("KQkqk", false),
        ("KH", false),
        ("KH", true),
        ("AQ", true),
    ] {
        assert_eq!(
            reject_in(
                &format!("r3k2r/8/8/8/8/8/8/R3K2R w {field} - 0 1"),
                chess960
            ),
            FenError::CastlingSyntax {
                found: field.to_string()
            },
            "{field}"
        );
    }
}

#[test]
fn unknown_castling_character_is_a_syntax_error_even_with_the_king_displaced() {
    // The characters are not castling rights at all, so where the king stands is beside
    // the point: the field is malformed, not inconsistent with the board.
    for field in ["z", "Z", "1", "é"] {
        assert_eq!(
            reject(&format!("8/4k3/8/8/8/8/4K3/8 w {field} - 0 1")),
            FenError::CastlingSyntax {
                found: field.to_string()
            },
            "{field}"
        );
    }
}

// ----- En passant -----

#[test]
fn en_passant_field_syntax() {
    for field in ["e9", "i6", "e", "e66", "E6", "66", "é6"] {
        assert_eq!(
            reject(&format!("4k3/8/8/3Pp3/8/8/8/4K3 w - {field} 0 1")),
            FenError::EnPassantSyntax {
                found: field.to_string()
            },
            "{field}"
        );
    }
}

#[test]
fn impossible_en_passant_squares() {
    // The square must be on the sixth rank from the mover's point of view.
    let (square, reason) = impossible_ep(reject("4k3/8/8/3Pp3/8/8/8/4K3 w - e3 0 1"));
    assert_eq!(square, sq("e3"));
    assert!(reason.contains("sixth rank"), "{reason}");
    let (square, _) = impossible_ep(reject("4k3/8/8/3Pp3/8/8/8/4K3 w - e5 0 1"));
    assert_eq!(square, sq("e5"));
    // Black to move: the square must be on the third rank.
    let (square, _) = impossible_ep(reject("4k3/8/8/8/3pP3/8/8/4K3 b - e6 0 1"));
    assert_eq!(square, sq("e6"));

    // No black pawn on e5 that could just have made the double step.
    let (_, reason) = impossible_ep(reject("4k3/8/8/3P4/8/8/8/4K3 w - e6 0 1"));
    assert!(reason.contains("no enemy pawn"), "{reason}");
    // A white pawn on e5 is not one that Black could have moved.
    let (_, reason) = impossible_ep(reject("4k3/8/8/3PP3/8/8/8/4K3 w - e6 0 1"));
    assert!(reason.contains("no enemy pawn"), "{reason}");
    // A black knight on e5 is not a pawn.
    let (_, reason) = impossible_ep(reject("4k3/8/8/3Pn3/8/8/8/4K3 w - e6 0 1"));
    assert!(reason.contains("no enemy pawn"), "{reason}");

    // The square the pawn crossed (e6) and the one it left (e7) must both be empty.
    let (_, reason) = impossible_ep(reject("4k3/8/4n3/3Pp3/8/8/8/4K3 w - e6 0 1"));
    assert!(reason.contains("occupied"), "{reason}");
    let (_, reason) = impossible_ep(reject("4k3/4n3/8/3Pp3/8/8/8/4K3 w - e6 0 1"));
    assert!(reason.contains("occupied"), "{reason}");
    let (square, reason) = impossible_ep(reject("4k3/8/8/8/3pP3/8/4N3/4K3 b - e3 0 1"));
    assert_eq!(square, sq("e3"));
    assert!(reason.contains("occupied"), "{reason}");
}

#[test]
fn en_passant_square_without_a_legal_capture_is_dropped() {
    // After 1. e4 no black pawn can capture on e3: the square is accepted but not kept,
    // so the position equals (and hashes like) the same one written with '-'.
    let with = accept(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        false,
    );
    let without = accept(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        false,
    );
    assert_eq!(with.en_passant(), None);
    assert_eq!(with, without);
    assert_eq!(with.key(), without.key());
    assert_eq!(
        fen::to_fen(&with),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );

    // A capturer exists on d5 but is pinned along the rank: taking would expose the king on
    // a5 to the rook on h5 once both pawns leave the rank. Still dropped.
    let pinned = accept("4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1", false);
    assert_eq!(pinned.en_passant(), None);
    assert_eq!(fen::to_fen(&pinned), "4k3/8/8/K2pP2r/8/8/8/8 w - - 0 1");
}

#[test]
fn en_passant_square_with_a_legal_capture_is_kept() {
    let board = accept(
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
        false,
    );
    assert_eq!(board.en_passant(), Some(sq("e3")));
    assert_eq!(
        fen::to_fen(&board),
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"
    );
    // The en-passant right is part of the position's identity.
    let without = accept(
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3",
        false,
    );
    assert_ne!(board.key(), without.key());

    let white = accept("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", false);
    assert_eq!(white.en_passant(), Some(sq("e6")));
}

// ----- Clocks -----

#[test]
fn bad_clocks() {
    for clock in ["x", "-1", "1.5", "65536", "99999999999999999999", "½"] {
        assert_eq!(
            reject(&format!("4k3/8/8/8/8/8/8/4K3 w - - {clock} 1")),
            FenError::HalfmoveClock {
                found: clock.to_string()
            },
            "{clock}"
        );
        assert_eq!(
            reject(&format!("4k3/8/8/8/8/8/8/4K3 w - - 0 {clock}")),
            FenError::FullmoveNumber {
                found: clock.to_string()
            },
            "{clock}"
        );
    }
    // Only with five fields: the halfmove clock alone.
    assert_eq!(
        reject("4k3/8/8/8/8/8/8/4K3 w - - -3"),
        FenError::HalfmoveClock {
            found: "-3".to_string()
        }
    );
}

#[test]
fn clock_limits() {
    let board = accept("4k3/8/8/8/8/8/8/4K3 w - - 65535 65535", false);
    assert_eq!(board.halfmove_clock(), 65535);
    assert_eq!(board.fullmove_number(), 65535);
    // Move number 0 (written by some tools) is read as move 1.
    let board = accept("4k3/8/8/8/8/8/8/4K3 w - - 0 0", false);
    assert_eq!(board.fullmove_number(), 1);
}

// ----- Error messages -----

#[test]
fn error_messages_name_the_field() {
    let cases: [(&str, &str); 16] = [
        ("8/8/8/8/8/8/8/8", "fields"),
        (
            "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "field 1 (placement)",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "field 1 (placement)",
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "field 1 (placement)",
        ),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "field 1 (placement)"),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "field 1 (placement)"),
        (
            "4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1",
            "field 1 (placement)",
        ),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "field 2 (side to move)"),
        ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "field 2 (side to move)"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "field 3 (castling)"),
        ("r3k3/8/8/8/8/8/8/R3K2R w k - 0 1", "field 3 (castling)"),
        ("4k3/8/8/3Pp3/8/8/8/4K3 w - e9 0 1", "field 4 (en passant)"),
        ("4k3/8/8/3Pp3/8/8/8/4K3 w - e3 0 1", "field 4 (en passant)"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "field 5 (halfmove clock)"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 x", "field 6 (fullmove number)"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 2", "fields"),
    ];
    for (text, field) in cases {
        let message = reject(text).to_string();
        assert!(
            message.contains(field),
            "{text:?}: {message:?} should mention {field:?}"
        );
    }
    // The messages show the offending text, with ranks counted from 1 as on a board.
    let message = reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1").to_string();
    assert!(
        message.contains("'X'") && message.contains("rank 1"),
        "{message}"
    );
    let message = reject("4k3/8/8/8/8/8/8/4K3 w - - 0 1x").to_string();
    assert!(message.contains("1x"), "{message}");
    // FenError is a std error, so it can travel in a Box<dyn Error>.
    let boxed: Box<dyn std::error::Error> = Box::new(reject(""));
    assert!(!boxed.to_string().is_empty());
}

// ----- Round trips -----

#[test]
fn standard_fens_round_trip() {
    let fens = [
        START_FEN,
        // Kiwipete: every kind of move is available.
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
        "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 17 42",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "4k3/8/8/8/8/8/8/4K3 b - - 99 200",
        "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
    ];
    for text in fens {
        let board = accept(text, false);
        assert_eq!(fen::to_fen(&board), text);
        assert_eq!(accept(&fen::to_fen(&board), false), board);
        // The incrementally built key is the key computed from scratch.
        assert_eq!(
            (board.key(), board.pawn_key()),
            board.compute_key(),
            "{text}"
        );
    }
}

#[test]
fn chess960_fens_round_trip_in_xfen() {
    // (input, what to_fen writes): Shredder-FEN comes back as X-FEN, which uses a file
    // letter only for a castling rook that has another rook of its colour further out.
    let fens = [
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
        ),
        (
            "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
            "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w KQkq - 1 9",
        ),
        (
            "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
            "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w KQ - 1 9",
        ),
        (
            "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
            "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w kq - 0 9",
        ),
        // The king between two rooks on one side: the inner rook keeps its file letter.
        (
            "1k6/8/8/8/8/8/8/1KR4R w C - 0 1",
            "1k6/8/8/8/8/8/8/1KR4R w C - 0 1",
        ),
        // White castles long with the inner b1 rook ('B'); Black's long rook on b8 is the
        // outermost one ('q') and its short one on e8 is inner ('e'). Rights are written
        // White before Black, short before long.
        (
            "1r1kr2r/8/8/8/8/8/8/RR1K3R w Bbe - 0 1",
            "1r1kr2r/8/8/8/8/8/8/RR1K3R w Beq - 0 1",
        ),
        (
            "rr1k3r/8/8/8/8/8/8/1R1KR2R w EBha - 0 1",
            "rr1k3r/8/8/8/8/8/8/1R1KR2R w EQkq - 0 1",
        ),
        (
            "rr1k3r/8/8/8/8/8/8/1R1KR2R w Eb - 0 1",
            "rr1k3r/8/8/8/8/8/8/1R1KR2R w Eb - 0 1",
        ),
        // Standard-looking setups read in Chess960 mode.
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        ),
    ];
    for (input, written) in fens {
        let board = accept(input, true);
        assert!(board.is_chess960());
        assert_eq!(fen::to_fen(&board), written, "{input}");
        assert_eq!(accept(written, true), board, "{input}");
        assert_eq!(
            (board.key(), board.pawn_key()),
            board.compute_key(),
            "{input}"
        );
    }
}

#[test]
fn standard_mode_writes_kqkq() {
    let board = accept("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", false);
    assert!(!board.is_chess960());
    assert_eq!(fen::to_fen(&board), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
}

#[test]
fn every_line_of_the_perft_suite_round_trips() {
    // The suites are the widest set of real positions at hand (Chess960 castling rights,
    // en-passant squares, odd clocks), so a missing data folder fails the test rather than
    // letting it pass without reading a single line.
    for (name, chess960) in [("perft.epd", false), ("perft960.epd", true)] {
        let fens = suite_fens(name);
        assert!(!fens.is_empty(), "{name} is empty");
        for fen_text in &fens {
            let board = accept(fen_text, chess960);
            assert_eq!(accept(&fen::to_fen(&board), chess960), board, "{fen_text}");
        }
    }
}

// ----- Never panics -----

/// Characters a FEN is made of, plus a few that are not (multi-byte ones included).
const ALPHABET: &[char] = &[
    'p',
    'n',
    'b',
    'r',
    'q',
    'k',
    'P',
    'N',
    'B',
    'R',
    'Q',
    'K',
    '1',
    '2',
    '3',
    '4',
    '5',
    '6',
    '7',
    '8',
    '9',
    '0',
    '/',
    ' ',
    '-',
    'w',
    'a',
    'c',
    'd',
    'e',
    'f',
    'g',
    'h',
    'x',
    '+',
    '\t',
    'é',
    'ß',
    '♔',
    '\u{0}',
    '\u{10FFFF}',
];

/// A FEN assembled from plausible parts: one king each and a few other men on random
/// squares, sometimes the castling setup, and mostly sensible other fields. Now and then a
/// part is wrong in a way the parser must notice; often the whole is acceptable, so that
/// the round trip gets exercised too.
fn random_fen(rng: &mut Rng) -> String {
    let mut squares = [None::<char>; 64];
    let castling_setup = rng.chance(30);
    if castling_setup {
        // Kings on e1/e8 and rooks in the corners, so that castling rights can be valid.
        for (at, c) in [
            (4, 'K'),
            (60, 'k'),
            (0, 'R'),
            (7, 'R'),
            (56, 'r'),
            (63, 'r'),
        ] {
            squares[at] = Some(c);
        }
    } else {
        let white_king = rng.below(64);
        let mut black_king = rng.below(64);
        while black_king == white_king {
            black_king = rng.below(64);
        }
        squares[white_king] = Some('K');
        squares[black_king] = Some('k');
    }
    for _ in 0..rng.below(8) {
        let c = *rng.pick(&['P', 'N', 'B', 'R', 'Q', 'p', 'n', 'b', 'r', 'q']);
        // Pawns go on ranks 2-7 here; the damage below may still put one on a back rank.
        let at = if c.eq_ignore_ascii_case(&'p') {
            8 + rng.below(48)
        } else {
            rng.below(64)
        };
        if squares[at].is_none() {
            squares[at] = Some(c);
        }
    }
    if rng.chance(5) {
        squares[rng.below(64)] = Some(*rng.pick(&['K', 'k', 'P', 'p']));
    }
    let mut placement = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        placement.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    placement.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            placement.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let side = if rng.chance(3) {
        "x"
    } else {
        *rng.pick(&["w", "b"])
    };
    let castling: String = if castling_setup && rng.chance(80) {
        let rights: String = "KQkq".chars().filter(|_| rng.chance(60)).collect();
        if rights.is_empty() {
            "-".to_string()
        } else {
            rights
        }
    } else if rng.chance(70) {
        "-".to_string()
    } else {
        let letters = ['K', 'Q', 'k', 'q', 'A', 'C', 'H', 'a', 'f', 'h', '-', 'z'];
        (0..1 + rng.below(4)).map(|_| *rng.pick(&letters)).collect()
    };
    let ep = if rng.chance(85) {
        "-".to_string()
    } else {
        format!(
            "{}{}",
            rng.pick(&['a', 'c', 'd', 'e', 'h', 'i']),
            rng.pick(&['3', '6', '3', '6', '1', '4', '9'])
        )
    };
    let clocks = if rng.chance(80) {
        *rng.pick(&["0 1", "5 30", "", "12", "65535 65535", "0 0", "+3 4"])
    } else {
        *rng.pick(&["65536 1", "-1 1", "1 x", "0 -0", "3 99999"])
    };
    format!("{placement} {side} {castling} {ep} {clocks}")
}

/// Deletes, duplicates, replaces or swaps a few characters of `text`.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        if chars.is_empty() {
            chars.push(*rng.pick(ALPHABET));
            continue;
        }
        let at = rng.below(chars.len());
        match rng.below(5) {
            0 => {
                chars.remove(at);
            }
            1 => chars.insert(at, chars[at]),
            2 => chars[at] = *rng.pick(ALPHABET),
            3 => chars.insert(at, *rng.pick(ALPHABET)),
            _ => {
                let other = rng.below(chars.len());
                chars.swap(at, other);
            }
        }
    }
    chars.into_iter().collect()
}

/// Parses `text` in both modes; whatever is accepted must be written and read back to the
/// same board. Returns how many of the two parses succeeded.
fn check_parse(text: &str) -> usize {
    let mut accepted = 0;
    for chess960 in [false, true] {
        if let Ok(board) = fen::parse(text, chess960) {
            accepted += 1;
            let written = fen::to_fen(&board);
            match fen::parse(&written, chess960) {
                Ok(again) => assert_eq!(again, board, "{text:?} -> {written:?}"),
                Err(e) => panic!("{text:?} was accepted but its FEN {written:?} is not: {e}"),
            }
            assert_eq!(
                (board.key(), board.pawn_key()),
                board.compute_key(),
                "{text:?}"
            );
        }
    }
    accepted
}

#[test]
fn random_input_never_panics_and_accepted_boards_round_trip() {
    let mut rng = Rng::new(0x7A4F_0E11);
    let seeds = [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1",
        "1k6/8/8/8/8/8/8/1KR4R w C - 0 1",
    ];
    // Random bytes, made into text the way a careless caller might (lossily).
    for _ in 0..3000 {
        let len = rng.below(90);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        check_parse(&String::from_utf8_lossy(&bytes));
    }
    // Random characters from the FEN alphabet.
    for _ in 0..3000 {
        let len = rng.below(90);
        let text: String = (0..len).map(|_| *rng.pick(ALPHABET)).collect();
        check_parse(&text);
    }
    // FEN-shaped strings with random contents. These must often be acceptable, or the
    // round-trip half of the test would be checking nothing.
    let mut accepted = 0;
    for _ in 0..6000 {
        accepted += check_parse(&random_fen(&mut rng));
    }
    assert!(
        accepted > 6000 / 4,
        "only {accepted} of 12000 random FENs were accepted"
    );
    // Valid FENs with a few characters damaged, and random FENs damaged further.
    let mut accepted = 0;
    for _ in 0..6000 {
        let base = if rng.chance(50) {
            rng.pick(&seeds).to_string()
        } else {
            random_fen(&mut rng)
        };
        accepted += check_parse(&mutate(&mut rng, &base));
    }
    // Most damage breaks a FEN, but a fair number survive (a digit for a digit, a dropped
    // castling letter), and those must round-trip as well.
    assert!(
        accepted > 100,
        "only {accepted} of 12000 damaged FENs were accepted"
    );
    // Field-level damage: whole fields dropped, doubled or swapped.
    for _ in 0..2000 {
        let base = rng.pick(&seeds);
        let mut fields: Vec<&str> = base.split(' ').collect();
        match rng.below(3) {
            0 => {
                let at = rng.below(fields.len());
                fields.remove(at);
            }
            1 => {
                let at = rng.below(fields.len());
                fields.insert(at, fields[at]);
            }
            _ => {
                let (a, b) = (rng.below(fields.len()), rng.below(fields.len()));
                fields.swap(a, b);
            }
        }
        check_parse(&fields.join(" "));
    }
}
