//! The rules of chess: board representation, attacks, legal move generation, notation
//! and perft. Everything above this module (search, evaluation, UCI) talks to the board
//! through [`Position`] and the move generator.
pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod chess960;
pub mod fen;
pub mod magics;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, GradedAttacks};
pub use moves::{MAX_MOVES, Move, MoveKind, MoveList};
pub use position::{Outcome, Position};
pub use types::{Color, Piece, PieceType, Square};
