//! NNUE: an efficiently updatable neural-network evaluation.
//!
//! - [`network`]: the architecture, the quantisation and the file format (the contract
//!   with the trainer).
//! - [`net`]: a network laid out for evaluation; the embedded default and `EvalFile`.
//! - [`accumulator`]: the hidden layer's values of a position, and what a move changes.
//! - [`stack`]: one accumulator per ply of the search's line, updated lazily.
//! - [`simd`]: the inner loops, portable and AVX2, chosen at run time.
//!
//! The search evaluates with NNUE when `SearchOptions::nnue` holds a network (the UCI
//! option `Use NNUE`, on by default) and with the hand-crafted evaluation otherwise.

pub mod accumulator;
pub mod net;
pub mod network;
pub mod simd;
pub mod stack;

pub use accumulator::{Accumulator, Delta};
pub use net::{EMBEDDED_NAME, LoadError, Net};
pub use stack::AccumulatorStack;
