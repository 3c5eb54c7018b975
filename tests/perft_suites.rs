//! Perft against the shared suites: every position of `perft.epd` and `perft960.epd`.
//!
//! The suites live in `../shared/data` (override with `TARPON_SHARED_DATA`). Depths are
//! limited by a node budget per position so the whole file runs in about a minute on two
//! cores in the (optimised) test profile; well-known positions are checked to depth 5-6.

use std::path::PathBuf;
use tarpon::chess::{fen, perft::perft};

fn data_file(name: &str) -> String {
    let dir = std::env::var("TARPON_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    let path = dir.join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}); set TARPON_SHARED_DATA to the shared data folder",
            path.display()
        )
    })
}

/// (fen, [(depth, nodes)]) for every line of an EPD perft suite.
fn suite(name: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    data_file(name)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let p = p.trim();
                    let (d, n) = p[1..].split_once(' ').expect("';Dk n' field");
                    (d.parse().unwrap(), n.trim().parse().unwrap())
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

/// Runs every listed depth whose node count is within `budget`, and always depth 1.
fn run_suite(name: &str, chess960: bool, budget: u64, every_nth_deeper: usize, deeper_budget: u64) {
    let mut checked = 0;
    for (i, (fen, counts)) in suite(name).iter().enumerate() {
        let mut board = fen::parse(fen, chess960).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let limit = if every_nth_deeper > 0 && i % every_nth_deeper == 0 {
            deeper_budget
        } else {
            budget
        };
        for &(depth, nodes) in counts.iter().filter(|&&(d, n)| d == 1 || n <= limit) {
            assert_eq!(perft(&mut board, depth), nodes, "perft {depth} of {fen}");
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn standard_suite() {
    // Every listed depth of every position (6.5 billion nodes in all).
    run_suite("perft.epd", false, u64::MAX, 0, 0);
}

#[test]
fn chess960_suite() {
    // All 960 positions to every depth under ten million nodes, every 8th position to every
    // depth under 300 million (11 billion nodes in all).
    run_suite("perft960.epd", true, 10_000_000, 8, 300_000_000);
}

#[test]
fn perft_deep_well_known_positions() {
    let cases: [(&str, u32, u64); 6] = [
        (fen::START_FEN, 6, 119_060_324),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            5,
            193_690_690,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6, 11_030_083),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            5,
            15_833_292,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            5,
            89_941_194,
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            5,
            164_075_551,
        ),
    ];
    for (fen, depth, nodes) in cases {
        let mut board = fen::parse(fen, false).unwrap();
        assert_eq!(perft(&mut board, depth), nodes, "perft {depth} of {fen}");
    }
}
