//! Developer tools behind the command-line subcommands.
pub mod perft;
