//! Tarpon, a UCI chess engine.
//!
//! - [`chess`]: the rules: board, attacks, legal move generation, notation, perft.
//! - [`search`]: finding the best move: alpha-beta, move ordering, transposition table, time.
//! - [`eval`]: the static evaluation, term by term, with its weights.
//! - [`book`]: Polyglot opening books.
//! - [`uci`]: the Universal Chess Interface loop that GUIs talk to.
//! - [`tools`]: the tools people use (`play`, `analyse`, `epd`, `bench`, `perft`, ...).
//! - [`learn`]: the pipeline that makes the evaluation: self-play data, the Texel tuner,
//!   the NNUE trainer.
//! - [`tablebase`]: Syzygy endgame tablebases (loading, probing, root move ranking).
//! - [`rng`]: SplitMix64, the one pseudo-random generator.
//! - [`stdout`]: output that ends the program quietly when its reader is gone.
//! - [`version`]: what a build is (release, commit, processor level, network).
pub mod book;
pub mod chess;
pub mod eval;
pub mod learn;
pub mod rng;
pub mod search;
pub mod stdout;
pub mod tablebase;
pub mod tools;
pub mod uci;
pub mod version;
