//! `tarpon perft` and `go perft`: leaf counts per root move, then the total.

use crate::chess::Board;
use crate::chess::fen::{self, FenError};
use crate::chess::notation::to_uci;
use crate::chess::perft::divide;
use std::time::Instant;

/// The per-move counts ("e2e4: 9771632"), sorted by move text, and the total.
pub fn divide_lines(board: &Board, depth: u32) -> (Vec<String>, u64) {
    if depth == 0 {
        return (Vec::new(), 1);
    }
    let mut counts: Vec<(String, u64)> = divide(board, depth)
        .into_iter()
        .map(|(m, n)| (to_uci(board, m), n))
        .collect();
    counts.sort();
    let total = counts.iter().map(|(_, n)| n).sum();
    (
        counts
            .into_iter()
            .map(|(m, n)| format!("{m}: {n}"))
            .collect(),
        total,
    )
}

/// `tarpon perft`'s arguments.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  tarpon perft 6\n  tarpon perft 5 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'\n  tarpon perft 4 --chess960 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'"
)]
pub struct PerftArgs {
    /// Depth in plies
    #[arg(value_parser = clap::value_parser!(u32).range(0..=32))]
    depth: u32,
    /// Position as FEN (default: the start position); quoting is optional
    fen: Vec<String>,
    /// Chess960 castling rules and notation
    #[arg(long)]
    chess960: bool,
}

impl PerftArgs {
    /// `tarpon perft`.
    pub fn run(self) -> std::process::ExitCode {
        let fen = super::fen_or_start(&self.fen);
        super::exit_status(run(&fen, self.depth, self.chess960).map_err(|e| e.to_string()))
    }
}

/// Runs perft on a FEN and prints the counts, the total, the time and the speed.
pub fn run(fen_text: &str, depth: u32, chess960: bool) -> Result<(), FenError> {
    let board = fen::parse(fen_text, chess960)?;
    let start = Instant::now();
    let (lines, total) = divide_lines(&board, depth);
    let elapsed = start.elapsed();
    for line in lines {
        crate::outln!("{line}");
    }
    crate::outln!();
    crate::outln!("Nodes searched: {total}");
    crate::outln!("Time: {} ms", elapsed.as_millis());
    crate::outln!(
        "Nodes/second: {}",
        (total as f64 / elapsed.as_secs_f64().max(1e-9)) as u64
    );
    Ok(())
}
