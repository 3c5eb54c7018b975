//! A position in a game: the board plus the moves that led to it, which the rules need
//! (threefold repetition) and which let the search take moves back.

use super::board::Board;
use super::fen::{self, FenError};
use super::movegen;
use super::moves::Move;
use super::types::{Color, PieceType};
use std::ops::Deref;

/// How a game ended, judged from the current position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The side to move is checkmated; `winner` is the other side.
    Checkmate {
        winner: Color,
    },
    Stalemate,
    /// The same position (same side to move, castling and en-passant rights) for the third time.
    ThreefoldRepetition,
    /// One hundred plies without a capture or pawn move (and no checkmate on the last one).
    FiftyMoveRule,
    /// Neither side has the material to checkmate by any sequence of legal moves.
    InsufficientMaterial,
}

#[derive(Clone, Debug)]
pub struct Position {
    board: Board,
    /// For each move played since setup, oldest first: the board before it and the move.
    /// Unmaking a move restores the saved board (copy-make, see `board.rs`).
    history: Vec<(Board, Move)>,
}

/// Reading a `Position` reads its current board.
impl Deref for Position {
    type Target = Board;
    fn deref(&self) -> &Board {
        &self.board
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    pub fn startpos() -> Position {
        Position::from_fen(fen::START_FEN, false).expect("the start position is a valid FEN")
    }

    pub fn from_fen(text: &str, chess960: bool) -> Result<Position, FenError> {
        Ok(Position {
            board: fen::parse(text, chess960)?,
            history: Vec::new(),
        })
    }

    pub fn from_board(board: Board) -> Position {
        Position {
            board,
            history: Vec::new(),
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn fen(&self) -> String {
        fen::to_fen(&self.board)
    }

    /// The FEN with Shredder-FEN castling in Chess960 (`fen::to_shredder_fen`).
    pub fn shredder_fen(&self) -> String {
        fen::to_shredder_fen(&self.board)
    }

    /// Makes a legal move (see `movegen::is_legal` for moves of unknown origin).
    #[inline(always)]
    pub fn make(&mut self, m: Move) {
        self.history.push((self.board, m));
        self.board.play(m);
    }

    /// Takes back the last move (or null move). Does nothing when there is none.
    #[inline(always)]
    pub fn unmake(&mut self) {
        if let Some((saved, _)) = self.history.last() {
            restore(&mut self.board, saved);
            self.history.pop();
        }
    }

    /// Passes the turn to the opponent; the side to move must not be in check.
    pub fn make_null(&mut self) {
        self.history.push((self.board, Move::NULL));
        self.board.play_null();
    }

    /// The moves played since setup, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|&(_, m)| m)
    }

    /// Number of moves (plies) played since setup.
    pub fn plies_played(&self) -> usize {
        self.history.len()
    }

    /// How many times the current position occurred before, within the plies since the
    /// last capture or pawn move (earlier positions cannot repeat). Positions are compared
    /// by key; same-side positions are two plies apart, so only every other one is checked.
    pub fn repetitions(&self) -> usize {
        let window = (self.board.halfmove_clock() as usize).min(self.history.len());
        let key = self.board.key();
        self.history[self.history.len() - window..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|(board, _)| board.key() == key)
            .count()
    }

    /// Whether the search should score this position as a draw by repetition. `ply` is
    /// the distance from the root of the search: a position that already occurred inside
    /// the search tree is a draw (repeating it is always possible), while one that occurred
    /// only in the game before the root must have occurred twice (threefold repetition).
    /// Null moves end the look back: a position before one is not reached again by moves.
    pub fn is_repetition_draw(&self, ply: usize) -> bool {
        let n = self.history.len();
        let window = (self.board.halfmove_clock() as usize).min(n);
        let key = self.board.key();
        let mut earlier = 0;
        for distance in (2..=window).step_by(2) {
            let (board, m) = &self.history[n - distance];
            if *m == Move::NULL || self.history[n - distance + 1].1 == Move::NULL {
                return false;
            }
            if board.key() == key {
                if distance <= ply {
                    return true;
                }
                earlier += 1;
                if earlier >= 2 {
                    return true;
                }
            }
        }
        false
    }

    /// Whether any position since the last capture or pawn move occurred more than once
    /// (the current one included). Tablebase play at the root takes it as a sign of going
    /// round in circles and then insists on the fastest progress.
    pub fn has_repetition_since_zeroing(&self) -> bool {
        let window = (self.board.halfmove_clock() as usize).min(self.history.len());
        let keys: Vec<u64> = self.history[self.history.len() - window..]
            .iter()
            .map(|(board, _)| board.key())
            .chain(std::iter::once(self.board.key()))
            .collect();
        keys.iter()
            .enumerate()
            .any(|(i, key)| keys[..i].contains(key))
    }

    /// Whether the position has occurred at least twice before (threefold repetition).
    pub fn is_threefold_repetition(&self) -> bool {
        self.repetitions() >= 2
    }

    /// The fifty-move rule: a hundred plies without capture or pawn move. A checkmate given
    /// on the hundredth ply still wins, so it is excluded here.
    pub fn is_fifty_move_draw(&self) -> bool {
        self.board.halfmove_clock() >= 100
            && !(self.board.in_check() && movegen::legal_moves(&self.board).is_empty())
    }

    /// Whether `color` lacks the material to ever checkmate, against any defence. A single
    /// knight or bishop can still mate if the opponent has pieces that can block its own
    /// king in; bishops all on squares of one colour cannot mate unless the opponent has a
    /// knight or a bishop of the other colour (or pawns, which may promote to one).
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let b = &self.board;
        let ours = b.color(color);
        if (ours & (b.kind(PieceType::Pawn) | b.kind(PieceType::Rook) | b.kind(PieceType::Queen)))
            .is_nonempty()
        {
            return false;
        }
        let them = b.color(color.flip());
        let knights = b.pieces(color, PieceType::Knight);
        let bishops = b.pieces(color, PieceType::Bishop);
        if knights.is_nonempty() {
            // A lone knight mates only with help: an enemy piece other than a queen
            // hemming the king in (a queen next to a cornered king would be captured
            // or give the king an escape). Two minor pieces can force or help mate.
            let helpers = them & !b.kind(PieceType::King) & !b.kind(PieceType::Queen);
            return ours.count() <= 2 && bishops.is_empty() && helpers.is_empty();
        }
        if bishops.is_nonempty() {
            // Bishops of one square colour can mate only if the opponent has a knight, a
            // pawn, or a bishop on the other colour to block with.
            let dark = super::bitboard::Bitboard::DARK_SQUARES;
            let all_bishops = b.kind(PieceType::Bishop);
            let one_colour = (all_bishops & dark).is_empty() || (all_bishops & !dark).is_empty();
            let blockers =
                b.pieces(color.flip(), PieceType::Knight) | b.pieces(color.flip(), PieceType::Pawn);
            return one_colour && blockers.is_empty();
        }
        true
    }

    /// A dead position by material: neither side can possibly checkmate.
    pub fn is_insufficient_material(&self) -> bool {
        self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black)
    }

    /// The result of the game if it is over in this position, by the rules (threefold
    /// repetition and the fifty-move rule are treated as claimed).
    pub fn outcome(&self) -> Option<Outcome> {
        if movegen::legal_moves(&self.board).is_empty() {
            return Some(if self.board.in_check() {
                Outcome::Checkmate {
                    winner: self.board.side_to_move().flip(),
                }
            } else {
                Outcome::Stalemate
            });
        }
        if self.is_insufficient_material() {
            Some(Outcome::InsufficientMaterial)
        } else if self.board.halfmove_clock() >= 100 {
            Some(Outcome::FiftyMoveRule)
        } else if self.is_threefold_repetition() {
            Some(Outcome::ThreefoldRepetition)
        } else {
            None
        }
    }
}

/// Copies `saved` over `board`: the board taken back from the history. Out of line on
/// purpose: inlined into `unmake`, the copy became a call to the C library's `memmove`
/// (the compiler could not tell that the history's buffer and the current board never
/// overlap); as a function of two distinct references it is six vector moves (the plain
/// build about 1 % faster at the same tree, the profile-guided one within the noise, S-146).
#[inline(never)]
fn restore(board: &mut Board, saved: &Board) {
    *board = *saved;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_uci;

    fn play(pos: &mut Position, moves: &str) {
        for text in moves.split_whitespace() {
            let m = parse_uci(pos, text).unwrap();
            pos.make(m);
        }
    }

    /// The knights out and back is a repetition; the same with null moves in place of
    /// White's moves is not: no game reaches the start position again that way.
    #[test]
    fn a_repetition_does_not_reach_across_a_null_move() {
        let mut pos = Position::startpos();
        play(&mut pos, "g1f3 g8f6 f3g1 f6g8");
        assert!(pos.is_repetition_draw(10));
        let mut pos = Position::startpos();
        pos.make_null();
        play(&mut pos, "g8f6");
        pos.make_null();
        play(&mut pos, "f6g8");
        assert_eq!(pos.key(), Position::startpos().key());
        assert!(!pos.is_repetition_draw(10));
    }
}
