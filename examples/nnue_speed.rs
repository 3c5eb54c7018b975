//! Speed of the NNUE kernels: `cargo run --release --example nnue_speed`.
//!
//! Plays random games from the start position once, then replays every move through an
//! accumulator stack with each set of kernels the CPU has (portable, AVX2, ...), timing an
//! incremental update plus the output for every position (as the search does when it
//! evaluates after each move; the time to make the moves is measured apart and taken off),
//! and the output alone. Best of several rounds, since the machine may be busy.

use std::time::Instant;
use tarpon::chess::movegen::legal_moves;
use tarpon::chess::{Move, Position};
use tarpon::eval::nnue::simd::Kernels;
use tarpon::eval::nnue::{AccumulatorStack, Net};
use tarpon::rng::SplitMix64;

const GAMES: usize = 2000;
const PLIES: usize = 120;
const ROUNDS: usize = 15;

fn main() {
    let net = Net::embedded();
    let mut rng = SplitMix64::new(2024);
    let games: Vec<Vec<Move>> = (0..GAMES)
        .map(|_| {
            let mut pos = Position::startpos();
            let mut moves = Vec::new();
            for _ in 0..PLIES {
                let legal = legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.below(legal.len() as u64) as usize];
                moves.push(m);
                pos.make(m);
            }
            moves
        })
        .collect();
    let positions: usize = games.iter().map(Vec::len).sum();
    println!("{GAMES} random games, {positions} positions; best of {ROUNDS} rounds");
    let kernels = Kernels::available();
    // Rounds go over every set of kernels in turn, so that a busy moment of the machine
    // does not favour one of them.
    let mut best = vec![(f64::MAX, f64::MAX); kernels.len()];
    let mut make_only = f64::MAX;
    let mut checksum = 0i64;
    for _ in 0..ROUNDS {
        let start = Instant::now();
        for moves in &games {
            let mut pos = Position::startpos();
            for &m in moves {
                pos.make(m);
                checksum += i64::from(pos.halfmove_clock());
            }
        }
        make_only = make_only.min(start.elapsed().as_secs_f64());
        for (k, times) in kernels.iter().zip(&mut best) {
            let mut stack = AccumulatorStack::with_kernels(*k);
            let start = Instant::now();
            for moves in &games {
                let mut pos = Position::startpos();
                stack.reset(&pos, &net);
                for &m in moves {
                    stack.push(&pos, m);
                    pos.make(m);
                    checksum += i64::from(stack.evaluate(&pos, &net));
                }
            }
            times.0 = times.0.min(start.elapsed().as_secs_f64());
            // The output again on a position already computed: the output kernel alone.
            let start = Instant::now();
            for moves in &games {
                let pos = Position::startpos();
                stack.reset(&pos, &net);
                for _ in moves {
                    checksum += i64::from(stack.evaluate(&pos, &net));
                }
            }
            times.1 = times.1.min(start.elapsed().as_secs_f64());
        }
    }
    let ns = |seconds: f64| seconds * 1e9 / positions as f64;
    println!(
        "making the moves alone: {:.1} ns (checksum {checksum})",
        ns(make_only)
    );
    for (k, (both, output)) in kernels.iter().zip(best) {
        println!(
            "{:>9}: update + output {:6.1} ns, output alone {:6.1} ns",
            k.name(),
            ns(both - make_only),
            ns(output)
        );
    }
}
