//! NNUE: an efficiently updatable neural-network evaluation.
//!
//! - [`network`]: the architecture, the quantisation and the file format (the contract
//!   with the trainer).
//! - [`net`]: a network laid out for evaluation; the embedded default and `EvalFile`.
//! - [`accumulator`]: the hidden layer's values of a position, and what a move changes.
//! - [`stack`]: one accumulator per ply of the search's line, updated lazily.
//! - [`simd`]: the inner loops, portable, AVX2 and AVX-512, chosen at run time.
//!
//! The search evaluates with NNUE when `SearchOptions::nnue` holds a network (the UCI
//! option `Use NNUE`) and with the hand-crafted evaluation otherwise. `Use NNUE` is off by
//! default until a network beats the hand-crafted evaluation in games: the embedded one,
//! trained on 5.6 million positions, is level with it (+18 ± 37 Elo, docs/nnue.md).

pub mod accumulator;
pub mod net;
pub mod network;
pub mod simd;
pub mod stack;

pub use accumulator::{Accumulator, Delta};
pub use net::{EMBEDDED_NAME, LoadError, Net};
pub use stack::AccumulatorStack;

use crate::chess::Board;

/// The text of the `eval` command (UCI and `tarpon eval`): the hand-crafted evaluation's
/// table, then the network's score of the position from White's point of view, and last,
/// unchanged, the table's `Final evaluation: <cp> (white side)` line, which stays the
/// hand-crafted evaluation's (scripts and tests read it). `in_use` says whether the search
/// evaluates with `net` (`Use NNUE`).
pub fn eval_text(board: &Board, net: &Net, in_use: bool) -> String {
    let table = crate::eval::trace(board);
    let (body, last) = table
        .rsplit_once('\n')
        .expect("the table has lines before its final one");
    let usage = if in_use {
        "the search evaluates with it; the final evaluation below is the hand-crafted one"
    } else {
        "not in use: Use NNUE is false, the search uses the hand-crafted evaluation below"
    };
    format!(
        "{body}\nNNUE network: {} ({usage})\nNNUE evaluation: {} (white side)\n{last}",
        net.name(),
        net.evaluate_white(board)
    )
}
