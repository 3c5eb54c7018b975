//! Developer tools behind the command-line subcommands.
pub mod bench;
pub mod book;
pub mod bulletformat;
pub mod datagen;
pub mod perft;
pub mod tune;
