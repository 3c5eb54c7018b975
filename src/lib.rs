//! Tarpon, a UCI chess engine.
pub mod chess;
