//! Zobrist hashing: a position's key is the XOR of one random number per feature it has
//! (a piece on a square, each castling right, the en-passant file, Black to move). Making a
//! move XORs out the old features and XORs in the new ones, so keys update incrementally.
//!
//! The numbers come from a fixed-seed generator evaluated at compile time, so keys are the
//! same in every build (saved tables and test expectations stay valid).

use super::types::{Piece, Square};
use crate::rng::splitmix;

pub struct Keys {
    pub piece_square: [[u64; 64]; 12],
    /// Indexed by the 4-bit set of castling rights: the XOR of one random number per right
    /// held (White short, White long, Black short, Black long).
    pub castling: [u64; 16],
    pub en_passant_file: [u64; 8],
    pub black_to_move: u64,
}

const fn generate() -> Keys {
    let mut keys = Keys {
        piece_square: [[0; 64]; 12],
        castling: [0; 16],
        en_passant_file: [0; 8],
        black_to_move: 0,
    };
    let mut state = 0x7A17_0B0E_5EED_u64;
    let mut value;
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            (state, value) = splitmix(state);
            keys.piece_square[p][sq] = value;
            sq += 1;
        }
        p += 1;
    }
    let mut bit = 0;
    while bit < 4 {
        (state, value) = splitmix(state);
        let mut rights = 0;
        while rights < 16 {
            if rights & (1 << bit) != 0 {
                keys.castling[rights] ^= value;
            }
            rights += 1;
        }
        bit += 1;
    }
    let mut f = 0;
    while f < 8 {
        (state, value) = splitmix(state);
        keys.en_passant_file[f] = value;
        f += 1;
    }
    (_, value) = splitmix(state);
    keys.black_to_move = value;
    keys
}

pub static KEYS: Keys = generate();

#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    KEYS.piece_square[piece.index()][sq.index()]
}

/// The XOR of the keys of every castling right in the 4-bit set `rights`.
#[inline(always)]
pub fn castling(rights: u8) -> u64 {
    KEYS.castling[rights as usize & 15]
}

#[inline(always)]
pub fn en_passant(sq: Square) -> u64 {
    KEYS.en_passant_file[sq.file() as usize]
}

#[inline(always)]
pub fn side() -> u64 {
    KEYS.black_to_move
}
