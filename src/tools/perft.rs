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
