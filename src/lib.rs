//! Tarpon, a UCI chess engine.
//!
//! - [`chess`]: the rules: board, attacks, legal move generation, notation, perft.
//! - [`book`]: Polyglot opening books.
//! - [`uci`]: the Universal Chess Interface loop that GUIs talk to.
//! - [`tools`]: the developer subcommands (`perft`, ...).
//! - [`tablebase`]: Syzygy endgame tablebases (loading, probing, root move ranking).
pub mod book;
pub mod chess;
pub mod eval;
pub mod search;
pub mod tablebase;
pub mod tools;
pub mod uci;
