//! The integration tests, as one test binary: each file of this folder is a module, named
//! as the file, that tests the library or runs the `tarpon` program. One binary links the
//! library once instead of once per file, which is most of the time a first `cargo test`
//! spends building. Run one file's tests with a filter on its module:
//!
//! ```text
//! cargo test --test all perft_suites::
//! ```
//!
//! Its tests run in parallel threads of one process, so nothing here may change what the
//! whole process shares: environment variables, the current directory, the allocator.
//! A test that must (`tests/tablebase_alloc.rs`, with a counting global allocator) is a
//! test binary of its own, directly under `tests/`. Both include the helpers of
//! `tests/common`. The methods that files add to a shared helper type (`impl Engine`) share
//! one namespace across the modules, so each needs a name no other file gives one, and
//! temporary files are named after the test file that makes them (`common::temp_path`).

#[path = "../common/mod.rs"]
mod common;

mod analyse;
mod book;
mod book_polyglot;
mod cli;
mod contempt;
mod datagen;
mod differential;
mod docs_commands;
mod epd;
mod eval;
mod fen;
mod fuzz_replay;
mod help;
mod limits;
mod log_ids;
mod make_unmake;
mod minimal_search;
mod nnue;
mod notation;
mod openbench;
mod perft_suites;
mod pgn_speed;
mod play;
mod ponder;
mod rules;
mod search;
mod see;
mod serve_api;
mod serve_browser;
mod smp;
mod strength_wdl;
mod tablebase;
mod train;
mod uci_answers;
mod uci_input;
mod uci_session;
