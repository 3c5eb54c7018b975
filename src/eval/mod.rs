//! Static evaluation: a tapered, hand-crafted evaluation whose weights `tarpon tune` fits
//! to game results. With `Use NNUE` on, the search evaluates with the neural network of
//! [`nnue`] instead (the default: the embedded network beats this evaluation in games); the
//! hand-crafted evaluation stays as an option, the evaluation of strength-limited play,
//! `datagen`'s default (the network's training data) and the `eval` breakdown.
//!
//! Every term adds a middlegame/endgame pair ([`S`]) to the side that has the feature:
//! material and piece-square tables, pawn structure ([`pawns`]), piece activity
//! ([`pieces`]), king safety ([`king`]), threats, space and tempo ([`threats`]) and mating
//! patterns ([`endgame`]). At the end the two halves are blended by the game phase
//! ([`taper`]), scaled down in drawish endings ([`endgame::scale_factor`]) and as the
//! fifty-move counter runs up, and returned from the side to move's point of view.
//!
//! The numbers are in [`weights`] (a generated file) and described in [`params`]. The
//! evaluation is generic over a [`Tracer`] that is told every weight used and how often:
//! the engine passes [`NoTrace`], whose empty methods compile away, while the `eval`
//! table and the tuner pass a [`Trace`] that records the coefficients.
//!
//! The evaluation is exactly colour-symmetric: every term is computed the same way for
//! either colour in colour-relative terms, and every division rounds towards zero, so a
//! position and its colour-flipped mirror get the same score for the side to move.

pub mod endgame;
pub mod king;
pub mod kpk;
pub mod masks;
pub mod nnue;
pub mod params;
pub mod pawns;
pub mod pieces;
mod tapered;
pub mod threats;
pub mod trace;
pub mod weights;

pub use tapered::S;
pub use trace::{Trace, trace, traced};

use crate::chess::attacks::king_attacks;
use crate::chess::{Bitboard, Board, Color, PieceType, Square};
use params::{Weight, w};
use pawns::{PawnEntry, PawnTable};

/// How much each piece type contributes to the game phase: minors 1, rooks 2, queens 4.
/// The full starting set adds up to [`MAX_PHASE`].
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The phase of the starting position, and the clamp for positions with promoted pieces.
/// Phase `MAX_PHASE` is pure middlegame, phase 0 pure endgame.
pub const MAX_PHASE: i32 = 24;

/// Scale factors are fractions of this (see [`endgame::scale_factor`]).
pub const SCALE_MAX: i32 = 64;

/// The fifty-move scaling multiplies the score by `(FIFTY_MOVE_BASE - clock) / FIFTY_MOVE_BASE`
/// (clock in plies, at most 100): nothing changes at a fresh capture or pawn move, and the
/// score is halved when a draw can be claimed. The shrinking tells the search that an
/// advantage it cannot turn into progress is worth less and less.
pub const FIFTY_MOVE_BASE: i32 = 200;

/// The halfmove clock as the fifty-move scaling counts it: in plies, at most 100.
#[inline(always)]
pub fn fifty_move_clock(board: &Board) -> i32 {
    i32::from(board.halfmove_clock()).min(100)
}

/// `score` shrunk as the fifty-move counter runs up (see [`FIFTY_MOVE_BASE`]); both the
/// hand-crafted evaluation and the network's score go through it. Rounds towards zero.
#[inline(always)]
pub fn fifty_move_scaled(score: i32, board: &Board) -> i32 {
    score * (FIFTY_MOVE_BASE - fifty_move_clock(board)) / FIFTY_MOVE_BASE
}

/// Static scores stay well inside the range of real (non-mate) search scores.
pub const EVAL_LIMIT: i32 = 10_000;

/// Receives every weight the evaluation uses: `add(color, index, count)` means the weight
/// with flat index `index` ([`params`]) was counted `count` times for `color` (for a
/// [`params::Kind::Danger`] weight: towards the danger of `color`'s king). `finish` gets
/// the final blend. A traced evaluation computes the pawn terms afresh instead of taking
/// them from the pawn hash table, whose entries cannot replay the weights that made them.
pub trait Tracer {
    fn add(&mut self, color: Color, index: usize, count: i32);
    fn king_danger(&mut self, color: Color, danger: S, penalty: S);
    fn finish(&mut self, result: &Blend);
}

/// The engine's tracer: records nothing, and compiles to nothing.
pub struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: Color, _: usize, _: i32) {}
    #[inline(always)]
    fn king_danger(&mut self, _: Color, _: S, _: S) {}
    #[inline(always)]
    fn finish(&mut self, _: &Blend) {}
}

/// How the final score came out of the middlegame and endgame totals.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Blend {
    /// White's total minus Black's, king danger included.
    pub total: S,
    pub phase: i32,
    /// [`taper`] of `total` by `phase`.
    pub tapered: i32,
    /// The scale factor (out of [`SCALE_MAX`]) for the side ahead, the sign of `tapered`
    /// saying which.
    pub scale: i32,
    /// The halfmove clock, capped at 100.
    pub halfmove: i32,
    /// The final score from White's point of view.
    pub white: i32,
}

/// Per-thread evaluation state: the pawn hash table. Each search thread owns one.
#[derive(Default)]
pub struct EvalCache {
    pawns: PawnTable,
}

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
pub fn evaluate_white(board: &Board, cache: &mut EvalCache) -> i32 {
    let pawns = cache.pawns.get(board);
    run(board, pawns, &mut NoTrace)
}

/// [`evaluate`] for callers that evaluate a single position and keep no cache.
pub fn evaluate_without_cache(board: &Board) -> i32 {
    let pawns = pawns::compute(board, &mut NoTrace);
    from_side_to_move(board, run(board, pawns, &mut NoTrace))
}

/// A score for White as one for the side to move, or back: the same flip either way.
pub(crate) fn from_side_to_move(board: &Board, white: i32) -> i32 {
    match board.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// The evaluation proper, from White's point of view, given the pawn entry (which the
/// caller computed with the same tracer, or took from the cache when not tracing).
fn run<T: Tracer>(board: &Board, pawns: PawnEntry, t: &mut T) -> i32 {
    let mut e = Eval::new(board, pawns, t);
    e.material_and_squares();
    pieces::evaluate(&mut e);
    king::evaluate(&mut e);
    pawns::passed(&mut e);
    threats::evaluate(&mut e);
    endgame::mating(&mut e);
    e.blend()
}

/// The pieces other than pawns and king, knight to queen: the ones with mobility, phase
/// weight and checks, which the evaluation terms loop over.
pub(crate) const MINORS_AND_MAJORS: [PieceType; 4] = [
    PieceType::Knight,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Queen,
];

/// The game phase: 24 (`MAX_PHASE`) with all minor and major pieces on the board, falling
/// to 0 as they come off (knight or bishop 1, rook 2, queen 4). Clamped to `MAX_PHASE`, so
/// extra promoted pieces cannot push it past pure middlegame.
pub fn phase(board: &Board) -> i32 {
    let mut phase = 0;
    for kind in MINORS_AND_MAJORS {
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

/// The running state of one evaluation: the score of each side so far, the danger to
/// each king, and the attack maps that later terms consult.
pub struct Eval<'a, T: Tracer> {
    pub board: &'a Board,
    t: &'a mut T,
    /// Each colour's total so far, from its own point of view.
    pub score: [S; 2],
    /// The danger inputs against each colour's king (see `king.rs`).
    pub danger: [S; 2],
    pub pawns: PawnEntry,
    pub king: [Square; 2],
    /// Squares attacked by each colour, by each of its piece types, and at least twice.
    pub attacked: [Bitboard; 2],
    pub attacked_by: [[Bitboard; 6]; 2],
    pub attacked_twice: [Bitboard; 2],
    /// The squares around each king that attacks are counted on.
    pub king_zone: [Bitboard; 2],
}

impl<'a, T: Tracer> Eval<'a, T> {
    fn new(board: &'a Board, pawns: PawnEntry, t: &'a mut T) -> Eval<'a, T> {
        let king = [
            board.king_square(Color::White),
            board.king_square(Color::Black),
        ];
        let mut e = Eval {
            board,
            t,
            score: [pawns.score[0], pawns.score[1]],
            danger: [S::ZERO; 2],
            pawns,
            king,
            attacked: [Bitboard::EMPTY; 2],
            attacked_by: [[Bitboard::EMPTY; 6]; 2],
            attacked_twice: [Bitboard::EMPTY; 2],
            king_zone: [Bitboard::EMPTY; 2],
        };
        for color in Color::ALL {
            let c = color.index();
            let around_king = king_attacks(king[c]);
            let pawn_attacks = pawns.attacks[c];
            e.attacked_by[c][PieceType::Pawn.index()] = pawn_attacks;
            e.attacked_by[c][PieceType::King.index()] = around_king;
            e.attacked[c] = pawn_attacks | around_king;
            e.attacked_twice[c] = pawns.double_attacks[c] | (pawn_attacks & around_king);
            let zone = around_king.with(king[c]);
            e.king_zone[c] = zone | masks::forward(color, zone);
        }
        e
    }

    /// Counts weight `w` `n` times for `color`.
    #[inline(always)]
    pub fn add(&mut self, color: Color, w: Weight, n: i32) {
        self.score[color.index()] += w.value * n;
        self.t.add(color, w.index, n);
    }

    /// Counts danger weight `w` `n` times against `color`'s king.
    #[inline(always)]
    pub fn add_danger(&mut self, color: Color, w: Weight, n: i32) {
        self.danger[color.index()] += w.value * n;
        self.t.add(color, w.index, n);
    }

    /// Records `attacks` of a piece of `color` and `kind` in the attack maps.
    #[inline(always)]
    pub fn record_attacks(&mut self, color: Color, kind: PieceType, attacks: Bitboard) {
        let c = color.index();
        self.attacked_twice[c] |= self.attacked[c] & attacks;
        self.attacked[c] |= attacks;
        self.attacked_by[c][kind.index()] |= attacks;
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

    /// Passes the king-safety result to the tracer.
    pub fn trace_king_danger(&mut self, color: Color, danger: S, penalty: S) {
        self.t.king_danger(color, danger, penalty);
    }

    /// Blends the totals into the final score from White's point of view.
    fn blend(self) -> i32 {
        let total = self.score[0] - self.score[1];
        let phase = phase(self.board);
        let tapered = taper(total.mg(), total.eg(), phase);
        let ahead = if tapered >= 0 {
            Color::White
        } else {
            Color::Black
        };
        let scale = endgame::scale_factor(self.board, ahead);
        let halfmove = fifty_move_clock(self.board);
        let white = fifty_move_scaled(tapered * scale / SCALE_MAX, self.board)
            .clamp(-EVAL_LIMIT, EVAL_LIMIT);
        self.t.finish(&Blend {
            total,
            phase,
            tapered,
            scale,
            halfmove,
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

/// Evaluates with tracer `t`, computing the pawn terms afresh so that they are traced too.
pub(crate) fn run_traced<T: Tracer>(board: &Board, t: &mut T) -> i32 {
    let pawns = pawns::compute(board, t);
    run(board, pawns, t)
}
