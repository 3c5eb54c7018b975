//! Probe speed of the Syzygy tables: `cargo run --release --example syzygy_speed -- <dir>`
//! with a directory holding tables and `probes.epd` (such as ../shared/data/syzygy).
//! Times WDL probes (what the search does), DTZ probes (the root) and the board
//! conversion alone, each over every listed position many times; the file pages are in
//! the page cache after the first round, as they are for an engine that has been probing.

use std::time::Instant;
use tarpon::chess::Position;
use tarpon::tablebase::{self, to_chess};

const ROUNDS: usize = 200;

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/data/syzygy".to_string());
    let start = Instant::now();
    let (tables, notes) = tablebase::load(&dir);
    let load_ms = start.elapsed().as_secs_f64() * 1e3;
    notes.iter().for_each(|n| println!("{n}"));
    let Some(tables) = tables else { return };
    println!("load and open: {load_ms:.1} ms");
    let text = std::fs::read_to_string(format!("{dir}/probes.epd")).expect("probes.epd");
    let positions: Vec<Position> = text
        .lines()
        .filter_map(|l| Position::from_fen(l.split(';').next()?.trim(), false).ok())
        .collect();
    let rate = |name: &str, f: &dyn Fn(&Position) -> bool| {
        let start = Instant::now();
        let mut ok = 0;
        for _ in 0..ROUNDS {
            ok += positions.iter().filter(|p| f(p)).count();
        }
        let seconds = start.elapsed().as_secs_f64();
        let n = (ROUNDS * positions.len()) as f64;
        println!(
            "{name:>12}: {:>10.0} per second, {:>6.2} us each ({ok} of {n} answered)",
            n / seconds,
            seconds / n * 1e6
        );
    };
    rate("conversion", &|p| to_chess(p).is_some());
    rate("WDL probe", &|p| tables.probe_wdl(p).is_ok());
    rate("DTZ probe", &|p| tables.probe_dtz(p).is_ok());
}
