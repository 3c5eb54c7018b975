//! `tarpon bench` (and `bench` in the UCI loop): a fixed-depth search of fixed positions
//! with a fresh 16 MB table. The node total is the engine's signature: it changes exactly
//! when the search's behaviour changes, so a commit meant to change nothing must keep it,
//! and a functional commit states the new one (`Bench: <nodes>`), as OpenBench expects.
//!
//! With more threads (`tarpon bench 11 2`) it measures the parallel search instead: its
//! node count varies from run to run, but the speed (nps) and the time each position takes
//! to reach the depth (time to depth) compare with one thread.
//!
//! `tarpon bench` evaluates as the engine does by default (the embedded network: `Use
//! NNUE` is on by default); `bench` in the UCI loop follows the session's `Use NNUE` and
//! `EvalFile` (`setoption name Use NNUE value false` then `bench` gives the hand-crafted
//! evaluation's signature).

use crate::chess::Position;
use crate::eval::nnue::Net;
use crate::search::threads::SearchThreads;
use crate::search::timeman::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{SearchControl, SearchOptions};
use std::sync::Arc;
use std::time::Instant;

pub const DEFAULT_DEPTH: i32 = 11;
/// The table size of the signature run.
pub const DEFAULT_HASH_MB: usize = 16;

/// `tarpon bench`'s arguments.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  tarpon bench\n  tarpon bench 13\n  tarpon bench 13 2        # two threads: nps and time to depth\n  tarpon bench 13 2 64     # ... with a 64 MB table\n\nThe node total is the search's signature with one thread; with more it varies from run to run."
)]
pub struct BenchArgs {
    /// Search depth
    #[arg(default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(1..=64))]
    depth: i32,
    /// Search threads
    #[arg(default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
    /// Transposition table size in MB
    #[arg(default_value_t = DEFAULT_HASH_MB as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
}

impl BenchArgs {
    /// `tarpon bench`.
    pub fn run(self) -> std::process::ExitCode {
        let (threads, hash_mb) = (self.threads.into(), self.hash as usize);
        run_with(self.depth, threads, hash_mb, &mut |line| {
            crate::outln!("{line}")
        });
        std::process::ExitCode::SUCCESS
    }
}

/// Openings, middlegames and endgames, some with mates, some with few pieces.
pub const POSITIONS: [&str; 50] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rn2kb1r/pp3ppp/2p1pn2/3p3b/8/1P1P1NPP/PBPqPPB1/RN2K2R w KQkq - 0 9",
    "r2q1rk1/1ppbbppp/p1np1n2/4p3/4P3/2P2N2/PPBPQPPP/RNB2RK1 w - - 3 9",
    "r3k2r/pp1nbppp/1qp1pn2/3p1b2/3P1B2/4PN1P/PPPNBPP1/R1Q1K2R w KQkq - 1 9",
    "r1bq1rk1/pp2b1pp/n1p1pn2/3p1p2/2PP4/6PN/PPQNPPBP/R1B2RK1 w - - 6 9",
    "rn1q1rk1/pp2ppbp/2p2np1/5b2/2QP4/5NP1/PP2PPBP/RNB2RK1 w - - 1 9",
    "rnb1k2r/ppp1q1pp/3p1n2/5p2/2PPp3/8/PP2PPPP/RNBQKB1R w KQkq - 0 9",
    "2kr1b1r/pppq1ppp/2n2n2/4pb2/8/P1NP1N2/1PP1BPPP/R1BQ1RK1 w - - 7 9",
    "1rbq1rk1/2ppbppp/p1n2n2/1p2p3/4P3/1B3N1P/PPPP1PP1/RNBQR1K1 w - - 1 9",
    "rnbqkbnr/5ppp/p3p3/2p5/1p2pPP1/3P1N2/PPP1Q2P/R1BNKB1R w KQkq - 0 9",
    "rnbq1rk1/pp3pbp/3p1np1/2pP4/4P3/2N2P2/PP4PP/RNBQKB1R w KQ - 4 9",
    "rnbq1rk1/pp5p/2pbpnp1/3p1pB1/2PP2P1/2N4P/PPQ1PP2/R3KBNR w KQ - 4 9",
    "r2qkbnr/ppp2ppp/2b1p3/4N3/4P3/3n4/PPPN1PPP/R1BQ1RK1 w kq - 0 9",
    "r1bqk2r/1ppp1pp1/p1n3n1/2b1p3/2P3Pp/2NP1N1P/PP2PPB1/R1BQK2R w KQkq - 0 9",
    "rnb2rk1/p1q1ppbp/2pp1np1/1p6/3PPP2/2P1BN1P/PP1N2P1/R2QKB1R w KQ - 2 9",
    "r1b1k2r/pp1n1ppp/2pbpn2/q2p4/2PP4/2N1PN2/PPQ1BPPP/R1B1K2R w KQkq - 2 8",
    "2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/R3K2R b KQ - 8 11",
    "r1bq1rk1/pppn1pbp/3p1np1/4p3/2PPP3/2N2NP1/PP3PBP/R1BQ1RK1 b - - 1 8",
    "r4rk1/pp2qppp/2n1b3/3pP3/3P4/P1Q2N2/5PPP/R3KB1R b KQ - 0 15",
    "3r2k1/pp3pp1/2p1b2p/8/4P3/1P3N1P/P4PP1/3R2K1 w - - 0 26",
    "2r3k1/1q3ppp/p3p3/1p1nP3/3P4/P4N2/1Q3PPP/2R3K1 w - - 0 24",
    "r1b2rk1/1p2qppp/p1n1p3/2b5/4P3/2N2N2/PPB2PPP/R2Q1RK1 w - - 2 13",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
    "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
    "8/8/8/4k3/8/8/3KP3/8 w - - 0 1",
    "1K6/1P6/8/8/8/8/r7/2k5 w - - 0 1",
    "3k4/8/3K4/3P4/8/8/8/8 w - - 0 1",
    "8/3k4/8/8/8/8/R7/4K3 w - - 0 1",
    "8/8/8/8/8/2k5/8/K5Q1 w - - 0 1",
    "8/8/k7/8/2N5/1B6/8/4K3 w - - 0 1",
    "5k2/8/5K2/4B3/8/8/8/6B1 w - - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
    "r1bq2r1/b4pk1/p1pp1p2/1p2pP2/1P2P1PB/3P4/1PPQ2P1/R3K2R w - - 0 1",
    "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
    "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1",
    "6k1/5p1p/6p1/8/8/8/5PPP/4Q1K1 w - - 0 1",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1",
    "4k3/3q4/8/8/8/8/3Q4/4K3 w - - 0 1",
];

/// Runs the benchmark with one thread, the default table and the default evaluation (the
/// embedded network), calling `print` with each line of output: one per position and,
/// last, `<nodes> nodes <nps> nps`. Returns the node total: the signature.
pub fn run(depth: i32, print: &mut dyn FnMut(&str)) -> u64 {
    run_with(depth, 1, DEFAULT_HASH_MB, print)
}

/// [`run`] with `threads` search threads and a table of `hash_mb` MiB. Each position line
/// shows the time it took to reach `depth`.
pub fn run_with(depth: i32, threads: usize, hash_mb: usize, print: &mut dyn FnMut(&str)) -> u64 {
    let nnue = SearchOptions::default().nnue;
    run_with_eval(depth, threads, hash_mb, nnue, print)
}

/// [`run_with`] evaluating with the network `nnue`, or with the hand-crafted evaluation
/// for `None` (the UCI `bench` passes the session's `Use NNUE` and `EvalFile`).
pub fn run_with_eval(
    depth: i32,
    threads: usize,
    hash_mb: usize,
    nnue: Option<Arc<Net>>,
    print: &mut dyn FnMut(&str),
) -> u64 {
    let tt = TranspositionTable::new(hash_mb);
    let mut threads = SearchThreads::new(threads);
    let control = SearchControl::default();
    let options = SearchOptions {
        report: None,
        nnue,
        ..SearchOptions::default()
    };
    // The king-and-pawn ending is solved once per process (some tens of milliseconds): here,
    // before the clock starts, as the UCI loop does when it starts, so that the speed
    // measured is the search's and not the first probe's wait for the solution.
    crate::eval::kpk::prepare();
    let start = Instant::now();
    let mut total = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen, false).expect("bench positions are valid");
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let searched = Instant::now();
        let result = threads.search(&pos, limits, &[], options.clone(), &tt, &control);
        total += result.nodes;
        print(&format!(
            "Position {:2}/{}: {:>10} nodes {:>7} ms  {}",
            i + 1,
            POSITIONS.len(),
            result.nodes,
            searched.elapsed().as_millis(),
            fen
        ));
    }
    let elapsed = start.elapsed().as_secs_f64().max(1e-6);
    print(&format!(
        "{total} nodes {} nps",
        (total as f64 / elapsed) as u64
    ));
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::movegen::legal_moves;

    #[test]
    fn positions_are_valid_and_distinct() {
        let mut keys = std::collections::HashSet::new();
        for fen in POSITIONS {
            let pos = Position::from_fen(fen, false).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(!legal_moves(&pos).is_empty(), "{fen} has no legal move");
            assert!(keys.insert(pos.key()), "{fen} appears twice");
        }
    }
}
