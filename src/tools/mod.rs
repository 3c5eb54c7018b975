//! The subcommands of the `tarpon` program: tools for people (play, serve, analyse, epd) and for
//! developers (bench, perft, book, datagen, tune, train), and the data formats they share.
pub mod analyse;
pub mod bench;
pub mod book;
pub mod bulletformat;
pub mod datagen;
pub mod diagram;
pub mod engine;
pub mod epd;
pub mod perft;
pub mod pgn;
pub mod play;
pub mod serve;
pub mod train;
pub mod tune;
