//! Helpers shared by the integration tests: a seeded random generator and access to the
//! shared data folder (the EPD suites).
//!
//! Cargo builds every file directly under `tests/` as its own test crate; a file in a
//! subdirectory such as this one is not, so each test includes it with `mod common;`.

// Every test crate compiles its own copy and uses only some of the helpers.
#![allow(dead_code)]

pub mod engine;
pub mod pgn_check;

use std::io::Write;
use std::path::PathBuf;

/// SplitMix64: a tiny, fast, seeded generator, good enough to pick random moves and build
/// random inputs. The same seed gives the same sequence on every run and platform, so a
/// failure reproduces exactly and the tests check the same cases every time.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = tarpon::rng::splitmix(self.0);
        self.0 = state;
        out
    }

    /// A number in `0..n` (the slight modulo bias does not matter for tests).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "Rng::below(0)");
        (self.next_u64() % n as u64) as usize
    }

    /// One of `items`, chosen uniformly.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// True with the given probability in percent.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// The shared data folder: `TARPON_SHARED_DATA` if set, else `../shared/data` next to the
/// crate (where the project keeps it).
pub fn data_dir() -> PathBuf {
    std::env::var_os("TARPON_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

/// The text of a file in the shared data folder. Panics when it cannot be read: a test
/// that needs the suites must fail, not pass without having checked anything.
pub fn data_file(name: &str) -> String {
    let path = data_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}): this test needs the shared data folder; \
             set TARPON_SHARED_DATA to it",
            path.display()
        )
    })
}

/// Every line of an EPD perft suite (`fen ;D1 n1 ;D2 n2 ...`) as (fen, [(depth, nodes)]).
pub fn perft_suite(name: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    data_file(name)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or("").trim().to_string();
            let counts = parts
                .map(|field| {
                    parse_count(field)
                        .unwrap_or_else(|| panic!("{name}: bad field {field:?} in {line:?}"))
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

/// A `Dk n` field of a perft suite line.
fn parse_count(field: &str) -> Option<(u32, u64)> {
    let (depth, nodes) = field.trim().strip_prefix('D')?.split_once(' ')?;
    Some((depth.parse().ok()?, nodes.trim().parse().ok()?))
}

/// The FEN of every position of an EPD perft suite.
pub fn suite_fens(name: &str) -> Vec<String> {
    perft_suite(name).into_iter().map(|(fen, _)| fen).collect()
}

/// The Syzygy test tables: the directory in `TARPON_SYZYGY` (`.ci/run` sets it to
/// `../shared/data/syzygy`). When it is unset, returns `None` after saying on the terminal
/// that `test` is skipped: written to stderr directly, past the test harness's output
/// capture, so that a skipped test never passes unnoticed as if it had checked something.
pub fn syzygy_dir(test: &str) -> Option<PathBuf> {
    match std::env::var_os("TARPON_SYZYGY") {
        Some(dir) => Some(PathBuf::from(dir)),
        None => {
            // One write of the whole line, so that parallel tests do not interleave it.
            let line = format!(
                "\nSKIPPED {test}: set TARPON_SYZYGY to the Syzygy test tables \
                 (../shared/data/syzygy) to run it\n"
            );
            let _ = std::io::stderr().write_all(line.as_bytes());
            None
        }
    }
}

/// One line of the Syzygy `probes.epd`: `FEN ; wdl W ; dtz D`.
pub struct TablebaseProbe {
    pub fen: String,
    pub wdl: i32,
    pub dtz: i32,
}

/// Every position of `probes.epd` in the directory `dir`.
pub fn tablebase_probes(dir: &std::path::Path) -> Vec<TablebaseProbe> {
    let path = dir.join("probes.epd");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            let number = |key: &str| -> i32 {
                fields
                    .iter()
                    .find_map(|f| f.strip_prefix(key))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or_else(|| panic!("no {key} in {line:?}"))
            };
            TablebaseProbe {
                fen: fields[0].to_string(),
                wdl: number("wdl "),
                dtz: number("dtz "),
            }
        })
        .collect()
}
