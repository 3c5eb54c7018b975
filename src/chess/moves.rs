//! Moves in 16 bits, and a fixed-capacity list of them.
//!
//! Layout: bits 0-5 from-square, 6-11 to-square, 12-13 promotion piece (knight, bishop,
//! rook, queen), 14-15 kind (normal, promotion, en passant, castling). Castling is stored as
//! "king takes own rook" (from = king square, to = rook square): that one form works for
//! standard chess and Chess960 alike; notation converts it to `e1g1` where needed.

use super::types::{PieceType, Square};
use arrayvec::ArrayVec;
use std::fmt;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum MoveKind {
    Normal = 0,
    Promotion = 1,
    EnPassant = 2,
    Castling = 3,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// "No move": a1 to a1, which no real move is.
    pub const NONE: Move = Move(0);
    /// The null move (passing), b1 to b1: distinct from `NONE` so that tables can store it.
    pub const NULL: Move = Move(1 | 1 << 6);

    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    #[inline(always)]
    pub const fn with_kind(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(Move::new(from, to).0 | (kind as u16) << 14)
    }

    /// A promotion to `piece` (knight, bishop, rook or queen).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, piece: PieceType) -> Move {
        debug_assert!(matches!(
            piece,
            PieceType::Knight | PieceType::Bishop | PieceType::Rook | PieceType::Queen
        ));
        Move(
            Move::new(from, to).0
                | (piece as u16 - PieceType::Knight as u16) << 12
                | (MoveKind::Promotion as u16) << 14,
        )
    }

    /// Rebuilds a move from its 16 bits (as stored in a hash table).
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    pub const fn bits(self) -> u16 {
        self.0
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// The piece a promotion makes, or `None` for other moves.
    #[inline(always)]
    pub const fn promotion_piece(self) -> Option<PieceType> {
        match self.kind() {
            MoveKind::Promotion => Some(match self.0 >> 12 & 3 {
                0 => PieceType::Knight,
                1 => PieceType::Bishop,
                2 => PieceType::Rook,
                _ => PieceType::Queen,
            }),
            _ => None,
        }
    }

    pub const fn is_some(self) -> bool {
        self.0 != Move::NONE.0
    }

    pub const fn is_none(self) -> bool {
        self.0 == Move::NONE.0
    }
}

/// Debug output is the internal UCI-like text (castling shown as king takes rook).
impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            Move::NONE => write!(f, "0000"),
            Move::NULL => write!(f, "null"),
            m => {
                write!(f, "{}{}", m.from(), m.to())?;
                if let Some(p) = m.promotion_piece() {
                    write!(f, "{}", p.char())?;
                }
                Ok(())
            }
        }
    }
}

/// Room for every legal move of any position (the known maximum is 218).
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack, filled by the move generator.
///
/// An `ArrayVec` leaves the slots past its length uninitialised: the search makes one or
/// two lists at every node, and filling 256 slots that are never read cost about 2 % of
/// its instructions (callgrind, `tarpon bench`: 7.46 G before, 7.32 G after).
#[derive(Clone)]
pub struct MoveList {
    moves: ArrayVec<Move, MAX_MOVES>,
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: ArrayVec::new(),
        }
    }

    /// Adds `m`; no position has more than [`MAX_MOVES`] moves, so a full list is a bug.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.moves.push(m);
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cleared list shows only what was pushed since.
    #[test]
    fn a_cleared_list_holds_only_new_moves() {
        let mut list = MoveList::new();
        assert!(list.is_empty());
        for to in 8..40 {
            list.push(Move::new(Square::A1, Square::new(to)));
        }
        assert_eq!(list.len(), 32);
        list.clear();
        list.push(Move::new(Square::H1, Square::H8));
        assert_eq!(list.as_slice(), &[Move::new(Square::H1, Square::H8)]);
        list.as_mut_slice()[0] = Move::new(Square::E1, Square::E8);
        assert!(list.contains(Move::new(Square::E1, Square::E8)));
        assert_eq!(list.clone().iter().count(), 1);
    }
}
