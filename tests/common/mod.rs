//! Helpers shared by the integration tests: a seeded random generator, temporary files,
//! test positions, the test data in `tests/data` (EPD suites, Syzygy tables), and what a
//! test does when a program it needs from outside Rust is missing. `engine` runs the
//! `tarpon` program; `pgn_check` replays PGN with shakmaty.
//!
//! Cargo builds every file directly under `tests/` (and every `tests/<dir>/main.rs`) as its
//! own test crate; a file in a subdirectory such as this one is not, so each test crate
//! includes it: `tests/all/main.rs` and `tests/tablebase_alloc.rs`.

// Every test crate compiles its own copy, and `tablebase_alloc` uses only some of the helpers.
#![allow(dead_code)]

pub mod engine;
pub mod http;
pub mod pgn_check;
pub mod webdriver;

use std::io::Write;
use std::path::PathBuf;
use tarpon::chess::movegen::{legal_moves, noisy_moves};
use tarpon::chess::{Board, Position, fen};

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

/// A path in the system's temporary folder for a test's file `name` (unique in its test
/// file), named after this process and the calling test file, so that test runs at the same
/// time, and test files that use the same name in one test binary, do not collide.
#[track_caller]
pub fn temp_path(name: &str) -> PathBuf {
    let caller = std::path::Path::new(std::panic::Location::caller().file());
    let file = caller.file_stem().unwrap_or_default().to_string_lossy();
    std::env::temp_dir().join(format!("tarpon-{}-{file}-{name}", std::process::id()))
}

/// A temporary file (see [`temp_path`]) holding `text`.
#[track_caller]
pub fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = temp_path(name);
    std::fs::write(&path, text).expect("write a temporary file");
    path
}

/// A fresh, empty temporary folder (see [`temp_path`]) for one test's files.
#[track_caller]
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = temp_path(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a temporary folder");
    dir
}

/// The position of a test's FEN (standard chess); panics, naming it, if it is not one.
pub fn position(fen: &str) -> Position {
    Position::from_fen(fen, false).unwrap_or_else(|e| panic!("bad test FEN {fen:?}: {e}"))
}

/// The board of a test's FEN (standard chess); panics, naming it, if it is not one.
pub fn board(fen: &str) -> Board {
    fen::parse(fen, false).unwrap_or_else(|e| panic!("bad test FEN {fen:?}: {e}"))
}

/// The repository's test data, `tests/data` (its README says where each file came from).
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// The text of a file in `tests/data`. Panics when it cannot be read: the file is part of
/// the repository, and a test must fail, not pass without having checked anything.
pub fn data_file(name: &str) -> String {
    let path = data_dir().join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read the test data file {}: {e}", path.display()))
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

/// The Syzygy tables the tests probe: the 3-4-piece tables in `tests/data/syzygy`, or the
/// directory in `TARPON_SYZYGY` when it is set (larger tables, with a `probes.epd` of
/// positions they cover, such as `../shared/data/syzygy`, which adds 5-piece tables).
pub fn syzygy_dir() -> PathBuf {
    std::env::var_os("TARPON_SYZYGY")
        .map(PathBuf::from)
        .unwrap_or_else(|| data_dir().join("syzygy"))
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

// --- Programs from outside Rust ------------------------------------------------------------

/// The one command that installs every program the tests need (Debian's `polyglot`,
/// python-chess) and runs the whole suite with nothing skipped.
pub const FULL_TEST_COMMAND: &str = "make test";

/// What a test does when a program it needs from outside Rust (`missing`: its name and how
/// to install it) is not there. Under `make test`, which installs everything and sets
/// `TARPON_NO_SKIP`, it fails. Under plain `cargo test` it says on the terminal that the test
/// is skipped and which command would run it, written to stderr directly, past the test
/// harness's output capture, so that a skipped test never passes unnoticed as if it had
/// checked something. Returns `None` for the test to return early with.
pub fn skip<T>(test: &str, missing: &str) -> Option<T> {
    if std::env::var_os("TARPON_NO_SKIP").is_some() {
        panic!("{test} needs {missing}, and TARPON_NO_SKIP forbids skipping it");
    }
    // One write of the whole line, so that parallel tests do not interleave it.
    let line = format!(
        "\nSKIPPED {test}: needs {missing}; `{FULL_TEST_COMMAND}` installs it and runs every test\n"
    );
    let _ = std::io::stderr().write_all(line.as_bytes());
    None
}

/// A Python with python-chess for `test`: `TARPON_PYTHON` when set, else `python3`, else the
/// virtual environment `make test` makes when the system's Python lacks python-chess
/// (`target/test-python`). `None`, after the skip notice, when none imports `chess`.
pub fn python_chess(test: &str) -> Option<PathBuf> {
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/test-python/bin/python3");
    let candidates = match std::env::var_os("TARPON_PYTHON") {
        Some(python) => vec![PathBuf::from(python)],
        None => vec![PathBuf::from("python3"), venv],
    };
    let imports_chess = |python: &PathBuf| {
        std::process::Command::new(python)
            .args(["-c", "import chess.engine, chess.polyglot"])
            .output()
            .is_ok_and(|out| out.status.success())
    };
    match candidates.into_iter().find(imports_chess) {
        Some(python) => Some(python),
        None => skip(test, "python3 with python-chess (pip install chess)"),
    }
}

// --- Positions for evaluation tests (colour symmetry, NNUE) ---------------------------------

/// The colour-flipped mirror of a FEN: ranks in reverse order with the piece colours
/// swapped, the other side to move, castling rights and the en-passant square mirrored.
/// Built from the text alone, independent of the engine's board code.
pub fn flip_fen(text: &str) -> String {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let swap_case = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let placement: Vec<String> = fields[0].split('/').rev().map(swap_case).collect();
    let side = match fields[1] {
        "w" => "b",
        "b" => "w",
        other => panic!("bad side to move {other}"),
    };
    // Swapped, then White's rights first again as FEN writes them (KQkq stays KQkq).
    let castling = if fields[2] == "-" {
        "-".to_string()
    } else {
        let swapped = swap_case(fields[2]);
        let (white, black): (String, String) =
            swapped.chars().partition(|c| c.is_ascii_uppercase());
        white + &black
    };
    let ep = if fields[3] == "-" {
        "-".to_string()
    } else {
        let b = fields[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    let mut out = format!("{} {side} {castling} {ep}", placement.join("/"));
    for rest in &fields[4..] {
        out.push(' ');
        out.push_str(rest);
    }
    out
}

/// The opening positions of `openings.epd` (400 balanced openings), plus positions
/// reached from each by a random walk, so endgames, promotions and en-passant squares
/// are covered as well.
pub fn sample_positions() -> Vec<String> {
    let text = data_file("openings.epd");
    let openings: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(400)
        .map(|l| {
            // EPD may carry operations after the four position fields; keep the FEN part.
            let f: Vec<&str> = l.split_whitespace().collect();
            let n = f.iter().take(6).take_while(|s| !s.ends_with(';')).count();
            f[..n.max(4)].join(" ")
        })
        .collect();
    assert!(openings.len() >= 100, "too few positions in openings.epd");

    let mut out = openings.clone();
    let mut rng = Rng::new(0xE7A1_5EED);
    for start in &openings {
        let mut b = fen::parse(start, false).unwrap_or_else(|e| panic!("{start}: {e}"));
        for ply in 0..160 {
            let moves = legal_moves(&b);
            if moves.is_empty() {
                break;
            }
            // Half the time take a capture or promotion when there is one, so material
            // actually comes off (and goes on) the board.
            let noisy = noisy_moves(&b);
            let m = if !noisy.is_empty() && rng.chance(50) {
                *rng.pick(noisy.as_slice())
            } else {
                *rng.pick(moves.as_slice())
            };
            b.play(m);
            if ply % 20 == 19 {
                out.push(fen::to_fen(&b));
            }
        }
        out.push(fen::to_fen(&b));
    }
    out
}

/// Every position of the perft suites, standard and Chess960.
pub fn perft_positions() -> Vec<(String, bool)> {
    let standard = suite_fens("perft.epd").into_iter().map(|f| (f, false));
    let chess960 = suite_fens("perft960.epd").into_iter().map(|f| (f, true));
    standard.chain(chess960).collect()
}
