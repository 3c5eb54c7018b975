//! The subcommands of the `tarpon` program that people use: play, serve (the board in
//! the browser), analyse and epd, and for developers bench, perft and book. (The learning
//! pipeline, datagen, tune and train, is in `crate::learn`.)
pub mod analyse;
pub mod bench;
pub mod book;
pub mod diagram;
pub mod engine;
pub mod epd;
pub mod perft;
pub mod pgn;
pub mod play;
pub mod serve;
