//! Helpers shared by the integration tests: a seeded random generator and access to the
//! shared data folder (the EPD suites).
//!
//! Cargo builds every file directly under `tests/` as its own test crate; a file in a
//! subdirectory such as this one is not, so each test includes it with `mod common;`.

// Every test crate compiles its own copy and uses only some of the helpers.
#![allow(dead_code)]

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
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
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
