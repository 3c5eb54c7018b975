//! Forsyth-Edwards Notation: reading and writing positions.
//!
//! Castling rights may be written as `KQkq` (standard; in Chess960 the X-FEN reading: the
//! outermost rook on that side), or as rook files in Shredder-FEN (`HAha`), also mixed
//! (X-FEN uses a file letter only when the rook is not the outermost one). Parsing checks
//! everything a position needs to be playable and reports the first problem it finds,
//! naming the field; it never panics.

use super::bitboard::Bitboard;
use super::board::{Board, CastlingSetup, rights};
use super::types::{Color, Piece, PieceType, Square};
use std::fmt;

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// A FEN has 4 to 6 space-separated fields (the two clocks may be left out).
    FieldCount { found: usize },
    /// The placement field must describe 8 ranks separated by `/`.
    RankCount { found: usize },
    /// A character in the placement field that is neither a piece letter nor a digit 1-8.
    UnknownPiece { rank: u8, found: char },
    /// A rank that describes more or fewer than 8 squares.
    RankLength { rank: u8, squares: usize },
    /// Each side needs exactly one king.
    KingCount { color: Color, found: u32 },
    /// Pawns cannot stand on the first or last rank.
    PawnOnBackRank { square: Square },
    /// More material than a game can produce: more than 8 pawns, or more pieces beyond
    /// the starting set (9 queens, 3 rooks, ...) than pawns have gone missing to promote.
    TooMuchMaterial { color: Color },
    /// The side-to-move field must be `w` or `b`.
    SideToMove { found: String },
    /// The side that is not to move is in check: its opponent could capture the king.
    OpponentInCheck,
    /// A character that is not a castling right, or a right given twice.
    CastlingSyntax { found: String },
    /// A castling right whose king or rook is not where that right needs it.
    CastlingMismatch { right: char, reason: &'static str },
    /// The en-passant field is neither `-` nor a square name.
    EnPassantSyntax { found: String },
    /// An en-passant square that no double pawn push could have produced.
    EnPassantImpossible {
        square: Square,
        reason: &'static str,
    },
    /// The halfmove clock is not a number from 0 to 65535.
    HalfmoveClock { found: String },
    /// The fullmove number is not a number from 0 to 65535.
    FullmoveNumber { found: String },
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        use FenError::*;
        match self {
            FieldCount { found } => write!(f, "expected 4 to 6 fields, found {found}"),
            RankCount { found } => {
                write!(f, "field 1 (placement): expected 8 ranks, found {found}")
            }
            UnknownPiece { rank, found } => {
                write!(
                    f,
                    "field 1 (placement): unknown piece letter '{found}' on rank {}",
                    rank + 1
                )
            }
            RankLength { rank, squares } => write!(
                f,
                "field 1 (placement): rank {} describes {squares} squares instead of 8",
                rank + 1
            ),
            KingCount { color, found } => {
                write!(
                    f,
                    "field 1 (placement): {color:?} has {found} kings instead of 1"
                )
            }
            PawnOnBackRank { square } => {
                write!(
                    f,
                    "field 1 (placement): pawn on {square}, on the first or last rank"
                )
            }
            TooMuchMaterial { color } => write!(
                f,
                "field 1 (placement): {color:?} has more pawns and promoted pieces than \
                 8 pawns could give"
            ),
            SideToMove { found } => write!(
                f,
                "field 2 (side to move): expected 'w' or 'b', found '{found}'"
            ),
            OpponentInCheck => write!(
                f,
                "field 2 (side to move): the side not to move is in check"
            ),
            CastlingSyntax { found } => {
                write!(f, "field 3 (castling): invalid castling rights '{found}'")
            }
            CastlingMismatch { right, reason } => {
                write!(f, "field 3 (castling): right '{right}': {reason}")
            }
            EnPassantSyntax { found } => write!(
                f,
                "field 4 (en passant): expected '-' or a square, found '{found}'"
            ),
            EnPassantImpossible { square, reason } => {
                write!(f, "field 4 (en passant): {square}: {reason}")
            }
            HalfmoveClock { found } => {
                write!(
                    f,
                    "field 5 (halfmove clock): expected a number 0-65535, found '{found}'"
                )
            }
            FullmoveNumber { found } => {
                write!(
                    f,
                    "field 6 (fullmove number): expected a number 0-65535, found '{found}'"
                )
            }
        }
    }
}

impl std::error::Error for FenError {}

/// Parses a FEN. `chess960` selects Chess960 castling rules and notation: castling rooks may
/// stand anywhere on the first rank. Without it, castling rights must be the standard ones
/// (king on e1/e8, rooks in the corners).
pub fn parse(fen: &str, chess960: bool) -> Result<Board, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(FenError::FieldCount {
            found: fields.len(),
        });
    }
    let mut board = Board::empty();
    parse_placement(&mut board, fields[0])?;

    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(FenError::SideToMove {
                found: other.to_string(),
            });
        }
    };
    let opponent_king = board.king_square(side.flip());
    if board.is_attacked(opponent_king, side, board.occupied()) {
        return Err(FenError::OpponentInCheck);
    }

    let (castling, setup) = parse_castling(&board, fields[2], chess960)?;
    let halfmove =
        parse_clock(fields.get(4), |found| FenError::HalfmoveClock { found })?.unwrap_or(0);
    let fullmove =
        parse_clock(fields.get(5), |found| FenError::FullmoveNumber { found })?.unwrap_or(1);
    board.set_up_state(side, castling, setup, halfmove, fullmove.max(1));

    if fields[3] != "-" {
        let ep = Square::parse(fields[3]).ok_or_else(|| FenError::EnPassantSyntax {
            found: fields[3].to_string(),
        })?;
        check_en_passant(&board, ep)?;
        board.set_up_en_passant(ep);
    }
    Ok(board)
}

fn parse_placement(board: &mut Board, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount { found: ranks.len() });
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
            } else {
                let piece = Piece::from_char(c).ok_or(FenError::UnknownPiece { rank, found: c })?;
                if file < 8 {
                    board.set_up_piece(piece, Square::from_coords(file as u8, rank));
                }
                file += 1;
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank,
                squares: file,
            });
        }
    }
    for color in Color::ALL {
        let found = board.pieces(color, PieceType::King).count();
        if found != 1 {
            return Err(FenError::KingCount { color, found });
        }
    }
    let back_ranks = Bitboard::rank(0) | Bitboard::rank(7);
    if let Some(square) = (board.kind(PieceType::Pawn) & back_ranks).next() {
        return Err(FenError::PawnOnBackRank { square });
    }
    for color in Color::ALL {
        if promoted_pieces(board, color) + board.pieces(color, PieceType::Pawn).count() > 8 {
            return Err(FenError::TooMuchMaterial { color });
        }
    }
    Ok(())
}

/// How many of `color`'s pieces must have come from promotions: those beyond the starting
/// set of one queen and two each of rooks, bishops and knights. Each used up a pawn, so
/// pawns and promoted pieces together are at most 8.
///
/// This is what keeps move lists from overflowing: with the material of a real game no
/// position has more than 218 legal moves, well within the 256 a `MoveList` holds, but a
/// FEN such as a board full of queens has far more and would crash the move generator.
fn promoted_pieces(board: &Board, color: Color) -> u32 {
    [
        (PieceType::Queen, 1),
        (PieceType::Rook, 2),
        (PieceType::Bishop, 2),
        (PieceType::Knight, 2),
    ]
    .into_iter()
    .map(|(kind, start)| board.pieces(color, kind).count().saturating_sub(start))
    .sum()
}

fn parse_clock(
    field: Option<&&str>,
    error: impl Fn(String) -> FenError,
) -> Result<Option<u16>, FenError> {
    match field {
        None => Ok(None),
        Some(text) => text
            .parse::<u16>()
            .map(Some)
            .map_err(|_| error(text.to_string())),
    }
}

/// Reads the castling field into a set of rights and the rook squares behind them.
fn parse_castling(
    board: &Board,
    field: &str,
    chess960: bool,
) -> Result<(u8, CastlingSetup), FenError> {
    let mut setup = CastlingSetup {
        chess960,
        ..CastlingSetup::NONE
    };
    let mut held = 0u8;
    if field == "-" {
        return Ok((0, setup));
    }
    for c in field.chars() {
        // A character that names no right makes the field malformed, whatever the board
        // shows: check it before judging the king and rooks it would refer to.
        if !matches!(c.to_ascii_lowercase(), 'k' | 'q' | 'a'..='h') {
            return Err(FenError::CastlingSyntax {
                found: field.to_string(),
            });
        }
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back_rank = color.relative_rank(0);
        let king = board.king_square(color);
        let rooks: Vec<Square> = board
            .pieces(color, PieceType::Rook)
            .filter(|sq| sq.rank() == back_rank)
            .collect();
        if king.rank() != back_rank {
            return Err(FenError::CastlingMismatch {
                right: c,
                reason: "the king is not on its first rank",
            });
        }
        let rook = match c.to_ascii_lowercase() {
            // The outermost rook on that side of the king (X-FEN).
            'k' => rooks.iter().copied().filter(|r| *r > king).max(),
            'q' => rooks.iter().copied().filter(|r| *r < king).min(),
            'a'..='h' => {
                let file = c.to_ascii_lowercase() as u8 - b'a';
                rooks.iter().copied().find(|r| r.file() == file)
            }
            _ => {
                return Err(FenError::CastlingSyntax {
                    found: field.to_string(),
                });
            }
        };
        let Some(rook) = rook else {
            return Err(FenError::CastlingMismatch {
                right: c,
                reason: "no rook of that colour on that square or side",
            });
        };
        let right = rights::of(color, rook > king);
        if held & right != 0 {
            return Err(FenError::CastlingSyntax {
                found: field.to_string(),
            });
        }
        if !chess960 {
            let corner_file = if rook > king { 7 } else { 0 };
            if king.file() != 4 || rook.file() != corner_file {
                return Err(FenError::CastlingMismatch {
                    right: c,
                    reason: "standard chess needs the king on the e-file and the rook in the corner (Chess960 is off)",
                });
            }
        }
        held |= right;
        setup.rook[rights::index(right)] = rook;
    }
    Ok((held, setup))
}

/// An en-passant square must lie behind a pawn of the side not to move that could just
/// have advanced two squares: on the sixth rank (from the mover's view), with that pawn in
/// front and the square itself and the pawn's starting square empty.
fn check_en_passant(board: &Board, ep: Square) -> Result<(), FenError> {
    let us = board.side_to_move();
    let impossible = |reason| Err(FenError::EnPassantImpossible { square: ep, reason });
    if ep.rank() != us.relative_rank(5) {
        return impossible("not on the sixth rank of the side to move");
    }
    let pawn_square = ep.offset(-8 * us.forward());
    let origin = ep.offset(8 * us.forward());
    if board.piece_on(pawn_square) != Some(Piece::new(us.flip(), PieceType::Pawn)) {
        return impossible("no enemy pawn in front of it");
    }
    if board.piece_on(ep).is_some() || board.piece_on(origin).is_some() {
        return impossible("the square or the pawn's starting square is occupied");
    }
    Ok(())
}

/// Writes the position as FEN. Castling is `KQkq` in standard chess; in Chess960 it is
/// X-FEN (a rook file letter only when the castling rook is not the outermost one).
pub fn to_fen(board: &Board) -> String {
    write_fen(board, false)
}

/// Writes the position as Shredder-FEN in Chess960: castling rights always as the rook's
/// file (`HAha`), as Stockfish's `d` and Chess960 GUIs write it. Standard chess keeps
/// `KQkq`.
pub fn to_shredder_fen(board: &Board) -> String {
    write_fen(board, board.is_chess960())
}

fn write_fen(board: &Board, shredder: bool) -> String {
    let mut fen = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board.piece_on(Square::from_coords(file, rank)) {
                Some(piece) => {
                    if empty > 0 {
                        fen.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    fen.push(piece.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push((b'0' + empty) as char);
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if board.side_to_move() == Color::White {
        " w "
    } else {
        " b "
    });
    fen.push_str(&castling_text(board, shredder));
    match board.en_passant() {
        Some(ep) => fen.push_str(&format!(" {ep}")),
        None => fen.push_str(" -"),
    }
    fen.push_str(&format!(
        " {} {}",
        board.halfmove_clock(),
        board.fullmove_number()
    ));
    fen
}

fn castling_text(board: &Board, shredder: bool) -> String {
    let mut text = String::new();
    for color in Color::ALL {
        for short in [true, false] {
            let Some(rook) = board.castling_rook(rights::of(color, short)) else {
                continue;
            };
            let king = board.king_square(color);
            // Is there another rook of ours further out on the same side? Then `K`/`Q` would
            // name that one, and the file letter is needed.
            let outside = board
                .pieces(color, PieceType::Rook)
                .filter(|r| r.rank() == rook.rank())
                .any(|r| {
                    if short {
                        r > rook
                    } else {
                        r < rook && r < king
                    }
                });
            let letter = if shredder || (board.is_chess960() && outside) {
                (b'a' + rook.file()) as char
            } else if short {
                'k'
            } else {
                'q'
            };
            text.push(if color == Color::White {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
    }
    if text.is_empty() {
        "-".to_string()
    } else {
        text
    }
}
