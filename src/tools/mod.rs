//! Developer tools behind the command-line subcommands.
pub mod bench;
pub mod book;
pub mod perft;
