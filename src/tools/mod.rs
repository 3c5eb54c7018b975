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

/// The exit status of `analyse` and `epd` when they skipped games or positions they could
/// not read (each reported on standard error) and did the rest. Not 1, which means an
/// error that stopped everything, nor 2, which clap gives bad arguments: a script can
/// tell "done, but not all of it" apart.
pub const EXIT_SKIPPED: u8 = 3;
