//! `tarpon eval`: the static evaluation of a position, the hand-crafted one term by term
//! and the network's (`eval::nnue::eval_text`, which the UCI `eval` command prints too).

use crate::chess::fen;
use crate::eval::nnue::{Net, eval_text};
use crate::search::SearchOptions;
use std::process::ExitCode;

/// `tarpon eval`'s arguments.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  tarpon eval\n  tarpon eval '8/8/4k3/8/8/4K3/4P3/8 w - - 0 1'\n\nThe line before the last gives the embedded network's score (what the search uses by\ndefault); the last line, 'Final evaluation', is the hand-crafted evaluation's (Use NNUE off)."
)]
pub struct EvalArgs {
    /// Position as FEN (default: the start position); quoting is optional
    fen: Vec<String>,
}

impl EvalArgs {
    /// `tarpon eval`.
    pub fn run(self) -> ExitCode {
        match fen::parse(&super::fen_or_start(&self.fen), false) {
            Ok(board) => {
                let in_use = SearchOptions::default().nnue.is_some();
                crate::stdout::text(eval_text(&board, &Net::embedded(), in_use));
                ExitCode::SUCCESS
            }
            Err(e) => super::exit_status::<()>(Err(e.to_string())),
        }
    }
}
