//! NNUE: an efficiently updatable neural-network evaluation.
//!
//! - [`shape`]: the embedded network's architecture as constants (inputs, king buckets,
//!   hidden width, outputs), checked against the embedded file by `build.rs`.
//! - [`format`](mod@format): the network file format, with the architecture (king input
//!   buckets included) and the quantisation it encodes: the contract with the trainer.
//! - [`network`]: the network the engine evaluates with, its weights laid out for the
//!   kernels; the embedded default and `EvalFile`.
//! - [`accumulator`]: the hidden layer's values of a position, and what a move changes.
//! - [`stack`]: one accumulator per ply of the search's line, updated lazily, and the
//!   refresh table for king moves that change a perspective's inputs.
//! - [`simd`]: the inner loops, portable, AVX2 and AVX-512, chosen at run time.
//!
//! The search evaluates with NNUE when `SearchOptions::nnue` holds a network (the UCI
//! option `Use NNUE`, on by default: the embedded network beats the hand-crafted
//! evaluation in games, docs/nnue.md) and with the hand-crafted evaluation otherwise. A
//! strength limit evaluates with the network whatever `Use NNUE` says (the limits were
//! calibrated with it).

pub mod accumulator;
pub mod format;
pub mod network;
pub mod shape;
pub mod simd;
pub mod stack;

pub use accumulator::{Accumulator, Delta};
pub use network::{EMBEDDED_NAME, LoadError, Net};
pub use stack::AccumulatorStack;

use crate::chess::{Board, Color};
use crate::eval::fifty_move_scaled;
use format::{OUTPUT_BUCKETS, output_bucket};
use simd::Kernels;

/// A position's evaluation: the network's output over the position's accumulator. It is
/// here, above both, so that the network does not depend on the accumulators built from it.
impl<const H: usize> Net<H> {
    /// The evaluation of `board` for the side to move, given its up-to-date accumulator:
    /// the output of the position's bucket, shrunk as the fifty-move counter runs up (the
    /// network cannot see the counter; the hand-crafted evaluation shrinks the same way).
    #[inline]
    pub fn score(&self, acc: &Accumulator<H>, board: &Board, kernels: Kernels) -> i32 {
        let bucket = output_bucket(board.occupied().count() as usize, OUTPUT_BUCKETS);
        let side = board.side_to_move();
        let (us, them) = (acc.perspective(side), acc.perspective(side.flip()));
        fifty_move_scaled(self.output(us, them, bucket, kernels), board)
    }

    /// The score of `board` for the side to move, computed from scratch (no accumulator
    /// stack): for `eval` and for checking the incremental path.
    pub fn evaluate(&self, board: &Board) -> i32 {
        let acc = Accumulator::from_board(board, self);
        self.score(&acc, board, Kernels::best())
    }

    /// [`Net::evaluate`] from White's point of view.
    pub fn evaluate_white(&self, board: &Board) -> i32 {
        match board.side_to_move() {
            Color::White => self.evaluate(board),
            Color::Black => -self.evaluate(board),
        }
    }
}

/// The text of the `eval` command (UCI and `tarpon eval`): the hand-crafted evaluation's
/// table, then the network's score of the position from White's point of view, and last,
/// unchanged, the table's `Final evaluation: <cp> (white side)` line, which stays the
/// hand-crafted evaluation's (scripts and tests read it). `in_use` says whether the search
/// evaluates with `net` (`Use NNUE`, and no strength limit).
pub fn eval_text(board: &Board, net: &Net, in_use: bool) -> String {
    let table = crate::eval::trace(board);
    let (body, last) = table
        .rsplit_once('\n')
        .expect("the table has lines before its final one");
    let known_win = crate::eval::endgame::known_win_score(board);
    let usage = if let Some(score) = known_win {
        let white = crate::eval::from_side_to_move(board, score);
        format!(
            "not used here: the search scores a lone king against mating material as a known win, {white} cp (white side), driving the lone king to where it can be mated"
        )
    } else if in_use {
        "the search evaluates with it; the final evaluation below is the hand-crafted one"
            .to_string()
    } else {
        "not in use: the search uses the hand-crafted evaluation below (Use NNUE is false)"
            .to_string()
    };
    format!(
        "{body}\nNNUE network: {} ({usage})\nNNUE evaluation: {} (white side)\n{last}",
        net.name(),
        net.evaluate_white(board)
    )
}
