//! Every tunable number of the search, in one place, with a name and a reason.
//!
//! Depths are in plies, margins in centipawns. The numbers declared with
//! `tunable!(NAME = default, min, max)` are read as `NAME.get()`: constants like the rest,
//! except in a build with `--features tune`, where SPSA sets them as UCI options
//! (`tunable.rs`, `scripts/spsa.py`).
//!
//! Experiments from 2026-11-28 on are in docs/log/search.md.
//!
//! What each pruning technique is worth, measured by turning it off (full engine against
//! the engine without it, Elo of the full engine with 95% error). At 2+0.02, 100 games each:
//! null move +108 +- 57, LMR +78 +- 58, reverse futility +56 +- 53, late move pruning
//! +131 +- 60. At 25,000 nodes a move: IIR +19 +- 24 (600 games), SEE pruning +84 +- 33
//! (292 games, SPRT [0, 10] accepted). Futility pruning of quiet moves (static eval plus
//! 100 + 100 per ply below alpha skips the remaining quiets) measured -21 +- 53 (100 games,
//! 2+0.02) and +2 +- 28 (394 games, 60,000 nodes); judged at the LMR-reduced depth and
//! outside PV nodes instead, it scored +72 +- 31 (400 games at 10,000 nodes) and stays.
//! Move ordering by countermove (the quiet move that last refuted the previous move,
//! tried after the killers) measured -11 +- 30 (400 games at 10,000 nodes) and was removed.
//! In the same runs (400 games each at 10,000 nodes): continuation history +38 +- 29,
//! check extension +29 +- 30, aspiration windows +53 +- 31.
//!
//! Search 2.0 (fastchess SPRT [0, 10] at 20,000 nodes a move, UHO openings, each step
//! against the build before it): correction history (pawn, non-pawn and continuation)
//! +21.4 +- 18.1 (960 games; stopped at LLR 1.67 of 2.94, the interval above zero);
//! singular extensions with multi-cut and negative extension, together with capture
//! history, +30.9 +- 16.7 (1,060 games, H1 accepted); then together razoring, history
//! pruning, the hash score as the evaluation where its bound allows, and quiet checks
//! spared by late-move and futility pruning, +26.5 +- 15.4 (1,316 games, H1 accepted).
//! The quiet checks: the mate in two 3r3k/6pp/7N/8/2Q5/8/6PP/6K1 w is found at depth 5
//! after 424 nodes (depth 10, 17,729 nodes without). Then together ProbCut, reductions
//! of late captures by capture history, and continuation history four plies back:
//! +10.6 +- 10.3 (2,960 games; stopped at LLR 1.92 of 2.94, the interval above zero).
//! ProbCut was then taken out again (a capture that beats beta + 200 in a search 4 plies
//! shallower cut the node, from depth 5): the same build without it scored +12.2 +- 17.4
//! (1,000 games) and +9.6 +- 19.3 (800 games) against it, and on WAC at 200,000 nodes a
//! position it solved 252 of 300 against 269 without. Retuned closer to Stockfish's form
//! (3 plies shallower, the score returned less the margin) it solved 256 and scored
//! -9.3 +- 22.9 against no ProbCut (560 games); a margin of 300 solved 259 and a start at
//! depth 8 253. Nothing here earned it a place.
//! Then, together, the hash table's PV flag (positions on or once on a principal
//! variation reduce their late moves one ply less, in place of PV nodes only) and one ply
//! more reduction of quiet moves when the hash move is a capture: +11.3 +- 14.4 (1,540
//! games; stopped at LLR 1.09 of 2.94, the interval above zero); WAC at 200,000 nodes 269.
//! Re-searching a reduced move that beat alpha one ply deeper (by 40 + 2 per ply over the
//! best score) or shallower (by less than 10), with cut nodes reduced two plies more
//! instead of one, measured +1.9 +- 18.1 (940 games, LLR -0.21; WAC 267): not kept.
//! Then, together, the hash score as the stand-pat evaluation in quiescence where its
//! bound allows, fail-high scores blended towards beta (`(score * depth + beta) / (depth +
//! 1)`, depth 1 in quiescence), and a history bonus for a quiet hash move whose table
//! entry cuts the node: +13.7 +- 12.6 (2,080 games; stopped at LLR 1.94 of 2.94, the
//! interval above zero). WAC at 200,000 nodes 266, mates in two 220/221, in three 162/162.
//! But it was taken out again before landing: after a mate is found, each deeper iteration
//! grew instead of costing the same few thousand nodes (the king hunt in tests/limits.rs
//! reached depth 80 after 980,000 nodes where 225,000 had been enough, and `go depth 255`
//! no longer finished in a minute). Taking the parts out one by one on that position: the
//! growth stays without either fail-high blend and goes with the hash score as the stand
//! pat of quiescence (with only the history bonus left, depth 200 took 615,134 nodes, as
//! before). So the blend and the bonus can come back, measured on their own, and the stand
//! pat needs a look first.
//! The blends and the bonus without the stand pat: +0.3 +- 15.0 (1,320 games): not kept.
//! The growth came from singular extensions: a node whose window is at mate scores (is
//! there a mate, or none) but whose hash score is a lower bound short of a mate tested
//! the hash move with a window below that score, which no mate distance bounds, at half
//! the node's depth, so that search grew with every iteration. The stand pat had only made
//! such hash scores common. Singular extensions are now left out where beta is a mate
//! score, and quiescence no longer stores a stand pat taken from the table that no capture
//! beat (at depth 0 it would overwrite the deeper result it came from). With both, the
//! hash score as the stand pat: +11.0 +- 9.9 (3,080 games; stopped at LLR 2.18 of 2.94,
//! the interval above zero); WAC 266, mates in two 221/221, in three 162/162 at 200,000
//! nodes; the king hunt reaches depth 200 after 615,548 nodes.
//! Then a history bonus for the opponent's quiet move when every move of ours failed low
//! after it (half the cutoff bonus of the depth; the parent rewards only a move that cuts
//! there): -4.1 +- 12.1 (2,140 games, LLR -1.76): not kept (local branch `prior`).
//! Node-share time management (the soft limit scaled by the best move's share of the root
//! nodes) measured +15.8 +- 32.8 at 8+0.08 (220 games, on a machine loaded well beyond its
//! two cores): not enough to keep it then. Measured again on an otherwise idle machine
//! (datagen paused) at 3+0.03: +14.1 +- 11.6 (1,460 games; stopped at LLR 2.00 of 2.94,
//! the interval above zero, no time losses): kept (`NODE_SHARE_*` below).
//! Then the 21 `tunable!` numbers, tuned by SPSA (`scripts/spsa.py`, docs/spsa.md: 550
//! iterations of 8 game pairs at 8,000 nodes a move, 8,800 games, UHO openings, defaults
//! c_end 5 % of each range and r_end 0.002). Most moved by a few percent (LMR base 0.75 to
//! 0.79, history pruning margin 4,000 to 4,251, history bonus cap 1,500 to 1,603, delta
//! margin 200 to 215); measured apart from the tune's own games, the tuned numbers against
//! the ones before: +19.1 +- 12.7 (1,982 games, H1 accepted).
//! Then continuation history six plies back as well, on the tuned search: -8.2 +- 16.4
//! (1,140 games, stopped at LLR -1.43, the interval below +10): not kept (branch `c6t`).
//! All of search 2.0 together (bench 2,025,423) against the search before it (dfebf89),
//! same network, at 10+0.1 with the balanced `openings.epd`, each opening with both
//! colours (`scripts/milestone.sh`, step 1): +122.4 +- 19.8 (600 games, W-D-L 262-279-59,
//! pentanomial [1, 23, 108, 108, 60], no time losses). Against other engines at 10+0.1,
//! 100 games each: Ethereal 12 57.5 % (+52.5 +- 46.8; dfebf89 scored 33 %), Stockfish 15.1
//! 6.5 % (13 draws, no win; dfebf89 one draw in 42 games), Stockfish at a quarter of the
//! time 20.5 % (-235 +- 58; dfebf89 11 %). WAC at 200 ms a position 275/300 (dfebf89 259
//! in the same run), mates in two 220/221 and in three 162/162 (dfebf89 the same).
//! After the milestone, on that build (fastchess SPRT [0, 10], 20,000 nodes a move, UHO):
//! triple singular extensions (a third ply when every other move stays 100 below
//! the singular bound, counted against `SE_MAX_DOUBLE` like a double) together with a
//! negative extension of a hash move that is not singular at an expected cut node:
//! +3.2 +- 13.5 (1,620 games, stopped at LLR -0.13): not kept (branch `se3`).

use super::tunable::{Tunable, tunable};

/// The numbers declared with `tunable!` (see `tunable.rs`): constants in a normal build,
/// UCI options in a build with `--features tune`, for SPSA.
pub static TUNABLES: [&Tunable; 21] = [
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
];

/// Aspiration windows start this far either side of the previous iteration's score, from
/// this depth on, and widen by half of themselves after each failure.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
tunable!(ASPIRATION_WINDOW = 20, 5, 60);

/// Reverse futility pruning: at shallow depth, a static evaluation this far above beta per
/// ply of depth is assumed to hold (the opponent cannot catch up in so few moves).
pub const RFP_MAX_DEPTH: i32 = 8;
tunable!(RFP_MARGIN = 74, 30, 150);

/// Razoring: at this depth and below, a node whose evaluation is `RAZOR_MARGIN` per ply
/// below alpha is settled by a quiescence search when that cannot reach alpha either.
pub const RAZOR_MAX_DEPTH: i32 = 3;
tunable!(RAZOR_MARGIN = 294, 100, 600);

/// Null-move pruning: give the opponent a free move; if a reduced search still beats beta,
/// the position is good enough to cut. Reduction `BASE + depth / DIVISOR`, plus more when
/// the static evaluation is far above beta. At high depth the cut is verified by a normal
/// reduced search, to guard against zugzwang.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 3;
tunable!(NMP_EVAL_DIVISOR = 198, 80, 400);
pub const NMP_MAX_EVAL_REDUCTION: i32 = 3;
pub const NMP_VERIFY_DEPTH: i32 = 12;

/// Singular extensions: at this depth and more, a hash move whose lower bound was searched
/// at most `SE_TT_DEPTH_MARGIN` plies shallower is tested for being the only good move: the
/// other moves are searched (half as deep) against a bound `SE_MARGIN_PER_DEPTH * depth /
/// 16` below the hash score. If none reaches it, the hash move is extended one ply, or two
/// when all stay `SE_DOUBLE_MARGIN` below (at most `SE_MAX_DOUBLE` times on a line).
pub const SE_MIN_DEPTH: i32 = 8;
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
tunable!(SE_MARGIN_PER_DEPTH = 24, 8, 64);
tunable!(SE_DOUBLE_MARGIN = 21, 0, 60);
pub const SE_MAX_DOUBLE: i32 = 6;

/// Internal iterative reduction: a node without a hash move is searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Futility pruning of quiet moves outside PV nodes: when the static evaluation plus
/// `BASE + PER_DEPTH * d` cannot reach alpha, where `d` is the depth the move would get
/// after its late-move reduction, no quiet move is likely to lift the score enough, and
/// the remaining quiets are skipped.
pub const FUTILITY_MAX_DEPTH: i32 = 6;
tunable!(FUTILITY_BASE = 77, 20, 200);
tunable!(FUTILITY_PER_DEPTH = 80, 30, 200);

/// History pruning: a quiet move whose history is below `-HISTORY_PRUNE_MARGIN` per ply of
/// depth is skipped when its reduced depth is at most `HISTORY_PRUNE_MAX_DEPTH`.
pub const HISTORY_PRUNE_MAX_DEPTH: i32 = 3;
tunable!(HISTORY_PRUNE_MARGIN = 4251, 1000, 10000);

/// Late move pruning: after this many quiet moves (a function of depth), the rest are
/// skipped; fewer when the position is not improving.
pub const LMP_MAX_DEPTH: i32 = 8;
pub const LMP_BASE: i32 = 3;

/// SEE pruning: moves that lose more than this many centipawns per ply of depth in the
/// static exchange are skipped (quiet moves are held to a stricter margin).
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;
tunable!(SEE_QUIET_MARGIN = 59, 20, 150);
tunable!(SEE_CAPTURE_MARGIN = 93, 30, 250);

/// Late move reductions: `LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR` plies (both in
/// hundredths in `LMR_*_HUNDREDTHS`, so that they can be tuned as integers), for moves
/// after the first `LMR_MIN_MOVES`, at depth `LMR_MIN_DEPTH` and above; history adjusts it
/// by one ply per `LMR_HISTORY_DIVISOR` points.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 2;
tunable!(LMR_BASE_HUNDREDTHS = 79, 25, 150);
tunable!(LMR_DIVISOR_HUNDREDTHS = 222, 150, 400);
tunable!(LMR_HISTORY_DIVISOR = 8541, 2048, 32768);
/// Late captures are reduced `CAPTURE_LMR_LESS` plies less than quiet moves, and one ply
/// less (more) per `CAPTURE_LMR_HISTORY_DIVISOR` points of capture history.
pub const CAPTURE_LMR_LESS: i32 = 1;
tunable!(CAPTURE_LMR_HISTORY_DIVISOR = 4118, 1024, 16384);

/// History tables saturate at this magnitude ("gravity": each update is scaled by how far
/// the entry still is from the limit, so old information fades).
pub const HISTORY_MAX: i32 = 16384;
tunable!(
    /// The bonus (and malus) for a move that caused (or failed before) a beta cutoff.
    HISTORY_BONUS_PER_DEPTH = 157, 50, 400
);
tunable!(HISTORY_BONUS_MAX = 1603, 500, 4000);

tunable!(
    /// Correction history (`correction.rs`): the static evaluation is corrected by the mean
    /// error the search found in positions with the same pawns, the same pieces of each side,
    /// and after the same two moves; each table's mean counts with this weight (in 1/256).
    /// Errors beyond `CORRECTION_MAX` centipawns are clipped before they are learned.
    CORRECTION_PAWN_WEIGHT = 129, 32, 256
);
tunable!(CORRECTION_NON_PAWN_WEIGHT = 101, 16, 256);
tunable!(CORRECTION_CONTINUATION_WEIGHT = 62, 8, 256);
pub const CORRECTION_MAX: i32 = 256;

/// Captures are ordered by `CAPTURE_ORDER_VALUE_SCALE * (victim value)` plus their capture
/// history (at most `HISTORY_MAX`).
pub const CAPTURE_ORDER_VALUE_SCALE: i32 = 8;

tunable!(
    /// Quiescence: delta pruning skips captures that cannot lift the score to alpha even if
    /// the captured piece were free, with this safety margin.
    DELTA_MARGIN = 215, 50, 400
);

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
/// (about 67 % of the time); one that took half of it is contested (about 135 %).
pub const NODE_SHARE_BASE: u64 = 150;
pub const NODE_SHARE_FACTOR: u64 = 135;
/// A single legal move under a clock is searched only this deep: the move is forced, but
/// the GUI still gets a real score and a ponder move (and `analyse` a real evaluation).
pub const FORCED_MOVE_DEPTH: i32 = 6;
/// After this long, the root reports each move it starts (`info currmove`).
pub const CURRMOVE_AFTER: std::time::Duration = std::time::Duration::from_secs(3);
/// The search looks at the clock every this many nodes.
pub const CLOCK_CHECK_NODES: u64 = 1024;

/// Tablebase results are exact whatever the depth, so they are stored in the hash table
/// this many plies deeper than the node's depth, where deeper searches keep them
/// (Stockfish's choice).
pub const TB_STORE_DEPTH_BONUS: i32 = 6;
