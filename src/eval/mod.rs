//! Static evaluation: a tapered evaluation whose weights `tarpon tune` will fit to game
//! results.
//!
//! Every term adds a middlegame/endgame pair ([`S`]) to the side that has the feature; so
//! far the terms are material and piece-square tables (PeSTO's numbers). At the end the two
//! halves are blended by the game phase ([`taper`]) and returned from the side to move's
//! point of view. There is no side-to-move (tempo) bonus yet: the start position scores 0.
//!
//! The numbers are in [`weights`] (a generated file) and described in [`params`]. The
//! evaluation is generic over a [`Tracer`] that is told every weight used and how often:
//! the engine passes [`NoTrace`], whose empty methods compile away, while the `eval`
//! table and the tuner pass a [`Trace`] that records the coefficients.
//!
//! The evaluation is exactly colour-symmetric: every term is computed the same way for
//! either colour in colour-relative terms, and every division rounds towards zero, so a
//! position and its colour-flipped mirror get the same score for the side to move.

pub mod params;
mod tapered;
pub mod trace;
pub mod weights;

pub use tapered::S;
pub use trace::{Trace, trace, traced};

use crate::chess::{Board, Color, PieceType, Square};
use params::{Weight, w};

/// How much each piece type contributes to the game phase: minors 1, rooks 2, queens 4.
/// The full starting set adds up to [`MAX_PHASE`].
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The phase of the starting position, and the clamp for positions with promoted pieces.
/// Phase `MAX_PHASE` is pure middlegame, phase 0 pure endgame.
pub const MAX_PHASE: i32 = 24;

/// Receives every weight the evaluation uses: `add(color, index, count)` means the weight
/// with flat index `index` ([`params`]) was counted `count` times for `color` (for a
/// `finish` gets the final blend.
pub trait Tracer {
    fn add(&mut self, color: Color, index: usize, count: i32);
    fn finish(&mut self, result: &Blend);
}

/// The engine's tracer: records nothing, and compiles to nothing.
pub struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: Color, _: usize, _: i32) {}
    #[inline(always)]
    fn finish(&mut self, _: &Blend) {}
}

/// How the final score came out of the middlegame and endgame totals.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Blend {
    /// White's total minus Black's.
    pub total: S,
    pub phase: i32,
    /// The final score from White's point of view: [`taper`] of `total` by `phase`.
    pub white: i32,
}

/// Per-thread evaluation state. Each search thread owns one; it is empty for now and will
/// hold the pawn hash table.
#[derive(Default)]
pub struct EvalCache {}

impl EvalCache {
    pub fn new() -> EvalCache {
        EvalCache::default()
    }
}

/// The score of the position in centipawns from the side to move's point of view
/// (positive: good for the side to move).
#[inline]
pub fn evaluate(board: &Board, cache: &mut EvalCache) -> i32 {
    from_side_to_move(board, evaluate_white(board, cache))
}

/// The score in centipawns from White's point of view, whoever is to move.
pub fn evaluate_white(board: &Board, _cache: &mut EvalCache) -> i32 {
    run(board, &mut NoTrace)
}

/// [`evaluate`] for callers that evaluate a single position and keep no cache.
pub fn evaluate_without_cache(board: &Board) -> i32 {
    from_side_to_move(board, run(board, &mut NoTrace))
}

fn from_side_to_move(board: &Board, white: i32) -> i32 {
    match board.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// The evaluation proper, from White's point of view.
fn run<T: Tracer>(board: &Board, t: &mut T) -> i32 {
    let mut e = Eval::new(board, t);
    e.material_and_squares();
    e.blend()
}

/// The game phase: 24 (`MAX_PHASE`) with all minor and major pieces on the board, falling
/// to 0 as they come off (knight or bishop 1, rook 2, queen 4). Clamped to `MAX_PHASE`, so
/// extra promoted pieces cannot push it past pure middlegame.
pub fn phase(board: &Board) -> i32 {
    let mut phase = 0;
    for kind in [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ] {
        phase += PHASE_WEIGHT[kind.index()] * board.kind(kind).count() as i32;
    }
    phase.min(MAX_PHASE)
}

/// Blends a middlegame and an endgame score by `phase` (0..=`MAX_PHASE`). Division rounds
/// towards zero, which treats a score and its negation alike, keeping colour symmetry.
#[inline(always)]
pub fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// The entry of a piece-square table (laid out a8-first from White's side, as printed in
/// `weights.rs`) for a piece of `color` on `sq`.
#[inline(always)]
pub const fn table_index(color: Color, sq: Square) -> usize {
    match color {
        // Flip the rank: Tarpon's a1 (0) is the printed table's last row (56).
        Color::White => sq.index() ^ 56,
        // Black's a8 plays the role of White's a1; mirrored then flipped, the two flips
        // cancel and the square indexes the table directly.
        Color::Black => sq.index(),
    }
}

/// The running state of one evaluation: the score of each side so far.
pub struct Eval<'a, T: Tracer> {
    pub board: &'a Board,
    t: &'a mut T,
    /// Each colour's total so far, from its own point of view.
    pub score: [S; 2],
}

impl<'a, T: Tracer> Eval<'a, T> {
    fn new(board: &'a Board, t: &'a mut T) -> Eval<'a, T> {
        Eval {
            board,
            t,
            score: [S::ZERO; 2],
        }
    }

    /// Counts weight `w` `n` times for `color`.
    #[inline(always)]
    pub fn add(&mut self, color: Color, w: Weight, n: i32) {
        self.score[color.index()] += w.value * n;
        self.t.add(color, w.index, n);
    }

    /// Material and piece-square bonuses of every piece.
    fn material_and_squares(&mut self) {
        for color in Color::ALL {
            for kind in PieceType::ALL {
                let pieces = self.board.pieces(color, kind);
                if kind != PieceType::King {
                    self.add(color, w!(PIECE_VALUE[kind.index()]), pieces.count() as i32);
                }
                for sq in pieces {
                    self.add(color, square_weight(kind, table_index(color, sq)), 1);
                }
            }
        }
    }

    /// Blends the totals into the final score from White's point of view.
    fn blend(self) -> i32 {
        let total = self.score[0] - self.score[1];
        let phase = phase(self.board);
        let white = taper(total.mg(), total.eg(), phase);
        self.t.finish(&Blend {
            total,
            phase,
            white,
        });
        white
    }
}

/// The piece-square weight of a piece of `kind` on table entry `i`.
#[inline(always)]
fn square_weight(kind: PieceType, i: usize) -> Weight {
    match kind {
        PieceType::Pawn => w!(PAWN_PST[i]),
        PieceType::Knight => w!(KNIGHT_PST[i]),
        PieceType::Bishop => w!(BISHOP_PST[i]),
        PieceType::Rook => w!(ROOK_PST[i]),
        PieceType::Queen => w!(QUEEN_PST[i]),
        PieceType::King => w!(KING_PST[i]),
    }
}

/// Evaluates with tracer `t`.
pub(crate) fn run_traced<T: Tracer>(board: &Board, t: &mut T) -> i32 {
    run(board, t)
}
