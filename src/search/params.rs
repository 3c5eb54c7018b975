//! Every tunable number of the search, in one place, with a name and a reason.
//!
//! Depths are in plies, margins in centipawns. The numbers declared with
//! `tunable!(NAME = default, min, max)` are read as `NAME.get()`: constants like the rest,
//! except in a build with `--features tune`, where SPSA sets them as UCI options
//! (`tunable.rs`, `scripts/spsa.py`).
//!
//! Each number that was measured cites the row of docs/log/search.md that measured it,
//! "(S-ID)"; how it was measured, and what was tried and not kept, is there. What a step
//! is worth, "(~N Elo, S-ID)", is said once, beside the step in `alphabeta.rs` (whose
//! head states the conditions); numbers used elsewhere carry their figure here.

use super::tunable::{Tunable, tunable};

/// The numbers declared with `tunable!` (see `tunable.rs`): constants in a normal build,
/// UCI options in a build with `--features tune`, for SPSA. Their values are SPSA's
/// (~19 Elo over the values before, S-27; tuned again with seven more: ~18 Elo, S-54).
pub static TUNABLES: [&Tunable; 28] = [
    &ASPIRATION_WINDOW,
    &RFP_MARGIN,
    &RAZOR_MARGIN,
    &NMP_EVAL_DIVISOR,
    &SE_MARGIN_PER_DEPTH,
    &SE_DOUBLE_MARGIN,
    &FUTILITY_BASE,
    &FUTILITY_PER_DEPTH,
    &HISTORY_PRUNE_MARGIN,
    &SEE_QUIET_MARGIN,
    &SEE_CAPTURE_MARGIN,
    &LMR_BASE_HUNDREDTHS,
    &LMR_DIVISOR_HUNDREDTHS,
    &LMR_HISTORY_DIVISOR,
    &CAPTURE_LMR_HISTORY_DIVISOR,
    &HISTORY_BONUS_PER_DEPTH,
    &HISTORY_BONUS_MAX,
    &CORRECTION_PAWN_WEIGHT,
    &CORRECTION_NON_PAWN_WEIGHT,
    &CORRECTION_CONTINUATION_WEIGHT,
    &DELTA_MARGIN,
    &QUIET_ESCAPE_MINOR,
    &QUIET_ESCAPE_ROOK,
    &QUIET_ESCAPE_QUEEN,
    &EVAL_DIFF_HISTORY_MULT,
    &EVAL_DIFF_HISTORY_MAX,
    &CAPTURE_ORDER_VALUE_SCALE,
    &QS_FUTILITY_MARGIN,
];

/// Aspiration windows start this far either side of the previous iteration's score, from
/// this depth on, and widen by half of themselves after each failure (~53 Elo, S-12).
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
tunable!(ASPIRATION_WINDOW = 19, 5, 60);

/// Reverse futility pruning: at shallow depth, a static evaluation this far above beta per
/// ply of depth is assumed to hold (the opponent cannot catch up in so few moves)
/// (S-3).
pub const RFP_MAX_DEPTH: i32 = 8;
tunable!(RFP_MARGIN = 75, 30, 150);

/// Razoring: at this depth and below, a node whose evaluation is `RAZOR_MARGIN` per ply
/// below alpha is settled by a quiescence search when that cannot reach alpha either
/// (S-15).
pub const RAZOR_MAX_DEPTH: i32 = 3;
tunable!(RAZOR_MARGIN = 294, 100, 600);

/// Null-move pruning: give the opponent a free move; if a reduced search still beats beta,
/// the position is good enough to cut. Reduction `BASE + depth / DIVISOR`, plus more when
/// the static evaluation is far above beta. At high depth the cut is verified by a normal
/// reduced search, to guard against zugzwang (S-1).
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 3;
tunable!(NMP_EVAL_DIVISOR = 196, 80, 400);
pub const NMP_MAX_EVAL_REDUCTION: i32 = 3;
pub const NMP_VERIFY_DEPTH: i32 = 12;
/// After a deep cut, null moves stay off for this many quarters of the verification
/// search's depth (counted in plies from the node), so that the null move cannot verify
/// itself.
pub const NMP_VERIFY_OFF_QUARTERS: i32 = 3;

/// Singular extensions: at this depth and more, a hash move whose lower bound was searched
/// at most `SE_TT_DEPTH_MARGIN` plies shallower is tested for being the only good move: the
/// other moves are searched to `(depth - 1) / SE_DEPTH_DIVISOR` against a bound
/// `SE_MARGIN_PER_DEPTH * depth / SE_MARGIN_DIVISOR` below the hash score. If none reaches
/// it, the hash move is extended one ply, or two when all stay `SE_DOUBLE_MARGIN` below (at
/// most `SE_MAX_DOUBLE` times on a line). The test is left out on lines already
/// `SE_MAX_LINE_FACTOR` times as long as the iteration's depth (S-14).
pub const SE_MIN_DEPTH: i32 = 8;
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
pub const SE_DEPTH_DIVISOR: i32 = 2;
tunable!(SE_MARGIN_PER_DEPTH = 25, 8, 64);
/// `SE_MARGIN_PER_DEPTH` is in sixteenths of a centipawn per ply.
pub const SE_MARGIN_DIVISOR: i32 = 16;
tunable!(SE_DOUBLE_MARGIN = 22, 0, 60);
pub const SE_MAX_DOUBLE: i32 = 6;
pub const SE_MAX_LINE_FACTOR: i32 = 2;

/// Internal iterative reduction: a node without a hash move is searched one ply shallower
/// (S-5).
pub const IIR_MIN_DEPTH: i32 = 4;
/// From this depth, an expected cut node without a hash move is searched two plies
/// shallower instead of one (with the two quiescence numbers below: S-41).
pub const IIR_CUT_MIN_DEPTH: i32 = 8;

/// Futility pruning of quiet moves outside PV nodes: when the static evaluation plus
/// `BASE + PER_DEPTH * d` cannot reach alpha, where `d` is the depth the move would get
/// after its late-move reduction, no quiet move is likely to lift the score enough, and
/// the remaining quiets are skipped (S-8).
pub const FUTILITY_MAX_DEPTH: i32 = 6;
tunable!(FUTILITY_BASE = 75, 20, 200);
tunable!(FUTILITY_PER_DEPTH = 78, 30, 200);

/// History pruning: a quiet move whose history is below `-HISTORY_PRUNE_MARGIN` per ply of
/// depth is skipped when its reduced depth is at most `HISTORY_PRUNE_MAX_DEPTH` (S-15).
pub const HISTORY_PRUNE_MAX_DEPTH: i32 = 3;
tunable!(HISTORY_PRUNE_MARGIN = 4158, 1000, 10000);

/// Late move pruning: after `LMP_BASE + depth * depth` quiet moves, the rest are skipped;
/// after that many divided by `LMP_NOT_IMPROVING_DIVISOR` when the position is not
/// improving (S-4).
pub const LMP_MAX_DEPTH: i32 = 8;
pub const LMP_BASE: i32 = 3;
pub const LMP_NOT_IMPROVING_DIVISOR: i32 = 2;

/// SEE pruning: moves that lose more than this many centipawns per ply of depth in the
/// static exchange are skipped (quiet moves are held to a stricter margin) (S-6).
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;
tunable!(SEE_QUIET_MARGIN = 59, 20, 150);
tunable!(SEE_CAPTURE_MARGIN = 91, 30, 250);

/// Late move reductions: `LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR` plies (both in
/// hundredths in `LMR_*_HUNDREDTHS`, so that they can be tuned as integers), for moves
/// after the first `LMR_MIN_MOVES`, at depth `LMR_MIN_DEPTH` and above; history adjusts it
/// by one ply per `LMR_HISTORY_DIVISOR` points (S-2).
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 2;
tunable!(LMR_BASE_HUNDREDTHS = 78, 25, 150);
tunable!(LMR_DIVISOR_HUNDREDTHS = 221, 150, 400);
tunable!(LMR_HISTORY_DIVISOR = 8420, 2048, 32768);
/// The reductions are computed once per search into a table of this many depths by this
/// many move numbers; deeper nodes and later moves read its last row and column.
pub const LMR_TABLE_SIZE: usize = 64;
/// Late captures are reduced `CAPTURE_LMR_LESS` plies less than quiet moves, and one ply
/// less (more) per `CAPTURE_LMR_HISTORY_DIVISOR` points of capture history (S-16).
pub const CAPTURE_LMR_LESS: i32 = 1;
tunable!(CAPTURE_LMR_HISTORY_DIVISOR = 4117, 1024, 16384);

tunable!(
    /// Quiet moves that take a piece out of an attack by a cheaper piece are ordered this
    /// much higher, those that walk into one this much lower, by the piece moved (~14 Elo,
    /// S-50).
    QUIET_ESCAPE_MINOR = 7217, 2000, 20000
);
tunable!(QUIET_ESCAPE_ROOK = 12273, 4000, 30000);
tunable!(QUIET_ESCAPE_QUEEN = 25143, 8000, 50000);

/// History tables saturate at this magnitude ("gravity": each update is scaled by how far
/// the entry still is from the limit, so old information fades).
pub const HISTORY_MAX: i32 = 16384;
tunable!(
    /// A quiet move's history also moves by this much per centipawn the static evaluation
    /// gained for its mover across it, at most `EVAL_DIFF_HISTORY_MAX` either way (S-40).
    EVAL_DIFF_HISTORY_MULT = 20, 4, 60
);
tunable!(EVAL_DIFF_HISTORY_MAX = 1578, 400, 4000);
tunable!(
    /// The bonus (and malus) for a move that caused (or failed before) a beta cutoff.
    HISTORY_BONUS_PER_DEPTH = 164, 50, 400
);
tunable!(HISTORY_BONUS_MAX = 1635, 500, 4000);

tunable!(
    /// Correction history (`correction.rs`): the static evaluation is corrected by the mean
    /// error the search found in positions with the same pawns, the same pieces of each side,
    /// and after the same two moves; each table's mean counts with this weight (in 1/256).
    /// Errors beyond `CORRECTION_MAX` centipawns are clipped before they are learned
    /// (S-13).
    CORRECTION_PAWN_WEIGHT = 130, 32, 256
);
tunable!(CORRECTION_NON_PAWN_WEIGHT = 104, 16, 256);
tunable!(CORRECTION_CONTINUATION_WEIGHT = 67, 8, 256);
pub const CORRECTION_MAX: i32 = 256;

/// The network's score as the search takes it: times `(BASE + material) / DIVISOR`, the
/// material counted without pawns and kings at the weights below, 1.07 with every piece on
/// the board and 0.81 with none (S-48).
pub const MATERIAL_SCALE_BASE: i32 = 26_500;
pub const MATERIAL_SCALE_DIVISOR: i32 = 32_768;
pub const MATERIAL_SCALE_MINOR: i32 = 450;
pub const MATERIAL_SCALE_ROOK: i32 = 650;
pub const MATERIAL_SCALE_QUEEN: i32 = 1250;

tunable!(
    /// Captures are ordered by `CAPTURE_ORDER_VALUE_SCALE * (victim value)` plus their
    /// capture history (at most `HISTORY_MAX`).
    CAPTURE_ORDER_VALUE_SCALE = 8, 2, 24
);

tunable!(
    /// Quiescence: delta pruning skips captures that cannot lift the score to alpha even if
    /// the captured piece were free, with this safety margin.
    DELTA_MARGIN = 226, 50, 400
);

tunable!(
    /// Quiescence out of check: captures that win nothing by SEE are skipped when the stand
    /// pat plus this margin cannot reach alpha. In check: after `QS_QUIET_EVASIONS` quiet
    /// evasions (the best by history), the others are skipped once a reply has shown we
    /// are not mated (with `IIR_CUT_MIN_DEPTH`: S-41).
    QS_FUTILITY_MARGIN = 153, 50, 300
);
/// Quiescence in check: the quiet evasions searched once a reply has shown we are not
/// mated (see `QS_FUTILITY_MARGIN`).
pub const QS_QUIET_EVASIONS: i32 = 2;

/// Time management: how many moves the clock must last when the GUI does not say, the
/// hard limit as a multiple of the soft one, and the most of the remaining time one move
/// may ever use.
pub const DEFAULT_MOVES_TO_GO: u64 = 30;
pub const HARD_LIMIT_FACTOR: u64 = 4;
pub const MAX_TIME_SHARE_PERCENT: u64 = 50;
/// Soft-limit scaling by how many iterations the best move has stayed the same (0, 1, 2,
/// 3, 4+), in percent, and the extra time when the score dropped since the last iteration.
pub const STABILITY_SCALE_PERCENT: [u64; 5] = [200, 140, 110, 90, 80];
pub const SCORE_DROP_MARGIN: i32 = 30;
pub const SCORE_DROP_SCALE_PERCENT: u64 = 130;
/// Soft-limit scaling by the share of the root's nodes (over all iterations so far) that
/// went into the best move: `(NODE_SHARE_BASE - share) * NODE_SHARE_FACTOR / 100` percent,
/// share in percent. A best move that took nearly all the effort has little competition
/// (about 67 % of the time); one that took half of it is contested (about 135 %)
/// (~14 Elo at 3+0.03, S-26).
pub const NODE_SHARE_BASE: u64 = 150;
pub const NODE_SHARE_FACTOR: u64 = 135;
/// A single legal move under a clock is searched only this deep: the move is forced, but
/// the GUI still gets a real score and a ponder move (and `analyse` a real evaluation).
pub const FORCED_MOVE_DEPTH: i32 = 6;
/// Iterations past twice a mate's length (in plies) before the mate counts as settled and
/// the deepening stops (`Searcher::mates_are_settled`).
pub const MATE_SETTLED_MARGIN: i32 = 4;
/// After this long, the root reports each move it starts (`info currmove`).
pub const CURRMOVE_AFTER: std::time::Duration = std::time::Duration::from_secs(3);
/// The search looks at the clock every this many nodes.
pub const CLOCK_CHECK_NODES: u64 = 1024;

/// Tablebase results are exact whatever the depth, so they are stored in the hash table
/// this many plies deeper than the node's depth, where deeper searches keep them
/// (Stockfish's choice).
pub const TB_STORE_DEPTH_BONUS: i32 = 6;
/// Under the fifty-move rule, a cursed win (blessed loss) from the tables is a draw, scored
/// this many centipawns above (below) zero so that the search still prefers the better
/// side of it.
pub const TB_CURSED_SCORE: i32 = 2;

/// A node this many plies short of `MAX_PLY` returns its static evaluation instead of
/// searching: a node writes the stack frames up to two plies ahead of its own, and the
/// stacks end a few plies past `MAX_PLY`.
pub const PLY_HEADROOM: usize = 4;
