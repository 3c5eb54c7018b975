//! Developer tools behind the command-line subcommands.
pub mod bench;
pub mod perft;
pub mod tune;
