//! The accumulator: the hidden layer's values before activation, one set per perspective,
//! and how a move changes it.
//!
//! A perspective's values are the hidden biases plus the weight column of every active
//! input feature (a piece on a square). Computing that from scratch ([`Accumulator::refresh`])
//! adds some thirty columns; after a move only two to four features change, so the search
//! instead copies the parent's values and adds or subtracts those few columns
//! ([`Accumulator::apply`]). The arithmetic wraps in `i16` in both paths; since wrapping
//! addition is exact modulo 2¹⁶, the incremental values always equal the refreshed ones,
//! however many moves deep (and a network the trainer wrote never wraps at all).
//!
//! Each perspective sees the pieces through its [`View`] (its king bucket and mirror half,
//! `format.rs`): an update applies a move's changes through the view of the position,
//! which must be the parent's too; a king move that changes its side's view is handled
//! by a refresh instead (`stack.rs`).

use super::format::{HIDDEN, View};
use super::network::Net;
use super::simd::{Kernels, Lanes};
use crate::chess::{Board, Color, Move, MoveKind, Piece, PieceType, Square};

/// The accumulator of one position: White's perspective, then Black's (`Color::index`),
/// `H` values each. Aligned to a cache line, like the weight columns it is added to.
#[repr(C, align(64))]
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Accumulator<const H: usize = HIDDEN> {
    values: [Lanes<H>; 2],
}

impl<const H: usize> Default for Accumulator<H> {
    fn default() -> Self {
        Accumulator {
            values: [[0; H]; 2],
        }
    }
}

impl<const H: usize> Accumulator<H> {
    /// The accumulator of `board`, computed from scratch.
    pub fn from_board(board: &Board, net: &Net<H>) -> Accumulator<H> {
        let mut acc = Accumulator::default();
        acc.refresh(board, net);
        acc
    }

    /// Recomputes the values from scratch: the biases plus one column per piece, each
    /// perspective through the view its own king selects. Plain loops on purpose: this
    /// is the reference the incremental updates are tested against, and it runs only at
    /// the root of a search.
    pub fn refresh(&mut self, board: &Board, net: &Net<H>) {
        for perspective in Color::ALL {
            let view = net
                .king_buckets()
                .view(perspective, board.king_square(perspective));
            let values = &mut self.values[perspective.index()];
            values.copy_from_slice(net.biases());
            for sq in board.occupied() {
                let piece = board.piece_on(sq).expect("an occupied square has a piece");
                let column = net.column(view.index(piece.color(), piece.kind(), sq));
                for (v, w) in values.iter_mut().zip(column) {
                    *v = v.wrapping_add(*w);
                }
            }
        }
    }

    /// The values of one perspective.
    #[inline(always)]
    pub fn perspective(&self, color: Color) -> &Lanes<H> {
        &self.values[color.index()]
    }

    /// The values of one perspective, to be written.
    #[inline(always)]
    pub fn perspective_mut(&mut self, color: Color) -> &mut Lanes<H> {
        &mut self.values[color.index()]
    }

    /// Sets `view`'s perspective of this accumulator to `parent`'s changed by `delta`,
    /// whose pieces that perspective sees through `view` (the same view as the parent's:
    /// a move that changes it needs a refresh instead, see `stack.rs`).
    #[inline(always)]
    pub fn apply(
        &mut self,
        parent: &Accumulator<H>,
        delta: &Delta,
        view: View,
        net: &Net<H>,
        kernels: Kernels,
    ) {
        let p = view.perspective().index();
        let column = |&(piece, sq): &(Piece, Square)| {
            net.column(view.index(piece.color(), piece.kind(), sq))
        };
        let (dst, src) = (&mut self.values[p], &parent.values[p]);
        let (a, r) = (&delta.added, &delta.removed);
        match (delta.added_count, delta.removed_count) {
            (0, 0) => kernels.update(dst, src, [], []),
            (1, 1) => kernels.update(dst, src, [column(&a[0])], [column(&r[0])]),
            (1, 2) => kernels.update(dst, src, [column(&a[0])], [column(&r[0]), column(&r[1])]),
            (2, 2) => kernels.update(
                dst,
                src,
                [column(&a[0]), column(&a[1])],
                [column(&r[0]), column(&r[1])],
            ),
            counts => unreachable!("no move changes features {counts:?}"),
        }
    }
}

/// The input features a move turns on (`added`) and off (`removed`), as pieces on squares
/// (the feature index depends on the perspective, so it is worked out when applied).
/// Only the first `added_count` and `removed_count` entries count.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Delta {
    added: [(Piece, Square); 2],
    removed: [(Piece, Square); 2],
    added_count: u8,
    removed_count: u8,
}

impl Delta {
    /// No change: a null move.
    pub const NONE: Delta = Delta {
        added: [(Piece::WhitePawn, Square::A1); 2],
        removed: [(Piece::WhitePawn, Square::A1); 2],
        added_count: 0,
        removed_count: 0,
    };

    fn add(&mut self, piece: Piece, sq: Square) {
        self.added[self.added_count as usize] = (piece, sq);
        self.added_count += 1;
    }

    fn remove(&mut self, piece: Piece, sq: Square) {
        self.removed[self.removed_count as usize] = (piece, sq);
        self.removed_count += 1;
    }

    /// The side and destination of the king this change moves, if it moves one (the
    /// first piece added is the moving piece, castling's king included).
    #[inline(always)]
    pub fn king_move(&self) -> Option<(Color, Square)> {
        let (piece, to) = self.added[0];
        (self.added_count > 0 && piece.kind() == PieceType::King).then_some((piece.color(), to))
    }

    /// The changes of legal move `m` on `board`, the board *before* the move (the moved
    /// and captured pieces are read from it).
    pub fn of_move(board: &Board, m: Move) -> Delta {
        let (from, to) = (m.from(), m.to());
        let piece = board.piece_on(from).expect("a move starts on a piece");
        let mut delta = Delta::NONE;
        match m.kind() {
            MoveKind::Castling => {
                // Stored as king takes own rook. In Chess960 the king or the rook may end
                // on its own starting square, or on the other's; the columns added and
                // subtracted for such a square cancel exactly, so no special case.
                let rook = board.piece_on(to).expect("castling moves a rook");
                let (king_to, rook_to) = board.castling_destinations(from, to);
                delta.remove(piece, from);
                delta.remove(rook, to);
                delta.add(piece, king_to);
                delta.add(rook, rook_to);
            }
            kind => {
                delta.remove(piece, from);
                let captured_sq = if kind == MoveKind::EnPassant {
                    to.offset(-8 * piece.color().forward())
                } else {
                    to
                };
                if let Some(captured) = board.piece_on(captured_sq) {
                    delta.remove(captured, captured_sq);
                }
                let arriving = match m.promotion_piece() {
                    Some(kind) => Piece::new(piece.color(), kind),
                    None => piece,
                };
                delta.add(arriving, to);
            }
        }
        delta
    }
}
