//! Perft against the suites in `tests/data`: every position of `perft.epd` and
//! `perft960.epd`.
//!
//! Chess960 depths are limited by a node budget per position; the Chess960 suite is split
//! into two tests so that `cargo test` can run the halves on two cores at once (the tests of
//! one test binary run in parallel threads). The standard suite and the well-known
//! positions (depth 5-6) count with the plain `perft`; the Chess960 suite, 48.7 billion
//! leaves, with a perft that remembers the counts of positions it has met (`HashedPerft`),
//! which visits every distinct position of the tree and counts the same leaves in a
//! fraction of the time. It also checks the hash keys: two positions with one key would
//! share a count and miss the suite's numbers.

use crate::common;

use common::perft_suite;
use std::ops::Range;
use tarpon::chess::movegen::legal_moves;
use tarpon::chess::{Board, fen, perft::perft};

/// Perft with a table of the counts already known, by position key and depth.
struct HashedPerft {
    /// `(key, depth, leaves)`, replaced whenever another position lands on the slot.
    table: Vec<(u64, u32, u64)>,
    /// Mixed into every key, and changed for each root position: in Chess960 two positions
    /// of different starts can show the same board and rights with other castling rooks.
    salt: u64,
}

impl HashedPerft {
    fn new() -> HashedPerft {
        // 2^22 slots of 24 bytes: 96 MB a test thread.
        HashedPerft {
            table: vec![(0, 0, 0); 1 << 22],
            salt: 0,
        }
    }

    /// Forgets every count, for a new root position.
    fn new_root(&mut self) {
        self.salt = self.salt.wrapping_add(0x9E37_79B9_7F4A_7C15);
    }

    fn count(&mut self, board: &Board, depth: u32) -> u64 {
        // Near the leaves counting is cheaper than looking up.
        if depth <= 1 {
            return perft(board, depth);
        }
        let key = board.key() ^ self.salt;
        let slot = (key as usize ^ depth as usize) & (self.table.len() - 1);
        let (k, d, leaves) = self.table[slot];
        if k == key && d == depth {
            return leaves;
        }
        let mut leaves = 0;
        for &m in legal_moves(board).iter() {
            let mut child = *board;
            child.play(m);
            leaves += self.count(&child, depth - 1);
        }
        self.table[slot] = (key, depth, leaves);
        leaves
    }
}

/// Checks the positions of `suite` whose index is in `positions`: every listed depth whose
/// node count is within `budget` (always depth 1), or within `deeper_budget` for every
/// `every_nth_deeper`-th position of the whole suite (0: none).
fn run_suite(
    suite: &[(String, Vec<(u32, u64)>)],
    positions: Range<usize>,
    chess960: bool,
    budget: u64,
    every_nth_deeper: usize,
    deeper_budget: u64,
) {
    // The plain perft for the standard suite, the hashed one for Chess960 (see above).
    let mut hashed = chess960.then(HashedPerft::new);
    let mut checked = 0;
    for (i, (fen, counts)) in suite
        .iter()
        .enumerate()
        .filter(|(i, _)| positions.contains(i))
    {
        let board = fen::parse(fen, chess960).unwrap_or_else(|e| panic!("{fen}: {e}"));
        if let Some(hashed) = hashed.as_mut() {
            hashed.new_root();
        }
        let limit = if every_nth_deeper > 0 && i % every_nth_deeper == 0 {
            deeper_budget
        } else {
            budget
        };
        for &(depth, nodes) in counts.iter().filter(|&&(d, n)| d == 1 || n <= limit) {
            let counted = match hashed.as_mut() {
                Some(hashed) => hashed.count(&board, depth),
                None => perft(&board, depth),
            };
            assert_eq!(counted, nodes, "perft {depth} of {fen}");
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn standard_suite() {
    // Every listed depth of every position (6.5 billion nodes in all).
    let suite = perft_suite("perft.epd");
    run_suite(&suite, 0..suite.len(), false, u64::MAX, 0, 0);
}

/// Half `half` (0 or 1) of the Chess960 suite: all positions to every depth under 20
/// million nodes, every 8th position (counted over the whole suite, so the split does not
/// move them) to every depth under 700 million.
fn chess960_half(half: usize) {
    let suite = perft_suite("perft960.epd");
    // The halves are fixed ranges, so a suite of another size would leave positions out.
    assert_eq!(
        suite.len(),
        960,
        "perft960.epd should list all 960 start positions"
    );
    run_suite(
        &suite,
        half * 480..(half + 1) * 480,
        true,
        20_000_000,
        8,
        700_000_000,
    );
}

#[test]
fn chess960_suite_first_half() {
    // Positions 0-479: 25.4 billion nodes (48.7 billion for both halves).
    chess960_half(0);
}

#[test]
fn chess960_suite_second_half() {
    // Positions 480-959: 23.3 billion nodes.
    chess960_half(1);
}

/// The hashed perft counts what the plain one counts, also where transpositions abound.
#[test]
fn the_hashed_perft_counts_as_the_plain_one() {
    let mut hashed = HashedPerft::new();
    for fen in [
        fen::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let board = fen::parse(fen, false).unwrap();
        for depth in 1..=4 {
            assert_eq!(
                hashed.count(&board, depth),
                perft(&board, depth),
                "{fen} {depth}"
            );
        }
    }
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
        let board = fen::parse(fen, false).unwrap();
        assert_eq!(perft(&board, depth), nodes, "perft {depth} of {fen}");
    }
}
