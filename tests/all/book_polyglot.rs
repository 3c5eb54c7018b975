//! Tarpon's book probes against an independent implementation, on a real book: Debian's
//! `polyglot make-book` builds a book from a PGN of Tarpon's own games
//! (`tests/data/selfplay.pgn`, see `scripts/make-selfplay-pgn.sh`), and python-chess's
//! `chess.polyglot` reads it (`scripts/polyglot_reference.py`). For every position of
//! every game, Tarpon must compute the same key (both from the moves and from the FEN), find
//! the same entries, and read them as the same moves with the same weights.
//!
//! This test needs Debian's `polyglot` (in `/usr/games`) and python-chess, which `make test`
//! installs (and there the test fails without them). Plain `cargo test` without them says
//! on the terminal that the test is skipped and names that command (see `common::skip`):
//! never a silent pass that compared nothing.

use std::path::{Path, PathBuf};
use std::process::Command;
use tarpon::book::{self, Book};
use tarpon::chess::Position;
use tarpon::chess::notation::{parse_uci, to_uci};

use crate::common;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The `polyglot` program: on the PATH, or where Debian installs it; `None`, after the
/// skip notice, when there is none.
fn polyglot(test: &str) -> Option<PathBuf> {
    let found = ["polyglot", "/usr/games/polyglot"].into_iter().find(|p| {
        Command::new(p)
            .arg("help")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("PolyGlot"))
    });
    match found {
        Some(p) => Some(PathBuf::from(p)),
        None => common::skip(test, "Debian's polyglot (apt-get install polyglot)"),
    }
}

/// Builds the test book from the self-play PGN in `dir` with `polyglot`. `-min-game 1`
/// keeps every position of every game, so the book holds thousands of positions, most with
/// one or a few moves.
fn make_book(polyglot: &Path, dir: &Path) -> PathBuf {
    let pgn = Path::new(ROOT).join("tests/data/selfplay.pgn");
    let bin = dir.join("selfplay.bin");
    let out = Command::new(polyglot)
        .current_dir(dir)
        .args(["make-book", "-min-game", "1", "-pgn"])
        .arg(&pgn)
        .arg("-bin")
        .arg(&bin)
        .output()
        .expect("run polyglot make-book");
    assert!(
        out.status.success() && bin.exists(),
        "polyglot make-book failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    bin
}

/// python-chess's answers (run by `python`), one line per position (see the script for
/// the format).
fn reference(python: &Path, bin: &Path) -> String {
    let pgn = Path::new(ROOT).join("tests/data/selfplay.pgn");
    let script = Path::new(ROOT).join("scripts/polyglot_reference.py");
    let out = Command::new(python)
        .arg(&script)
        .arg(bin)
        .arg(&pgn)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", python.display()));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{} failed:\n{err}", script.display());
    String::from_utf8(out.stdout).expect("UTF-8 from the reference script")
}

/// One position as python-chess saw it.
struct Expected<'a> {
    start: &'a str,
    moves: &'a str,
    fen: &'a str,
    key: u64,
    raw: &'a str,
    legal: &'a str,
}

fn parse_line(line: &str) -> Expected<'_> {
    let f: Vec<&str> = line.split('\t').collect();
    assert_eq!(f.len(), 6, "bad reference line {line:?}");
    Expected {
        start: f[0],
        moves: f[1],
        fen: f[2],
        key: u64::from_str_radix(f[3], 16).expect("hex key"),
        raw: f[4],
        legal: f[5],
    }
}

/// Compares Tarpon with one reference line; returns the differences found (empty if none)
/// and the number of entries compared.
fn compare(book: &Book, e: &Expected) -> (Vec<String>, usize) {
    let mut diffs = Vec::new();
    let mut position = Position::from_fen(e.start, false).expect("reference start FEN");
    for text in e.moves.split_whitespace() {
        let m = parse_uci(&position, text).expect("reference move");
        position.make(m);
    }
    let key = book::position_key(&position, book::fen_en_passant(e.start));
    if key != e.key {
        diffs.push(format!("key from moves {key:016x}, python {:016x}", e.key));
    }
    let from_fen = Position::from_fen(e.fen, false).expect("reference FEN");
    let fen_key = book::position_key(&from_fen, book::fen_en_passant(e.fen));
    if fen_key != e.key {
        diffs.push(format!(
            "key from FEN {fen_key:016x}, python {:016x}",
            e.key
        ));
    }
    let raw: Vec<String> = book
        .entries(e.key)
        .iter()
        .map(|x| format!("{}:{}:{}", x.raw_move, x.weight, x.learn))
        .collect();
    if raw.join(",") != e.raw {
        diffs.push(format!("entries {raw:?}, python {:?}", e.raw));
    }
    let python_legal = e.legal.split(',').filter(|s| !s.is_empty()).count();
    match book.probe(&position, book::fen_en_passant(e.start)) {
        Ok(moves) => {
            let legal: Vec<String> = moves
                .iter()
                .map(|(m, x)| format!("{}:{}", to_uci(&position, *m), x.weight))
                .collect();
            if legal.join(",") != e.legal {
                diffs.push(format!("moves {legal:?}, python {:?}", e.legal));
            }
        }
        // Tarpon refuses a position with an illegal move; python-chess leaves such moves out.
        Err(_) if python_legal < raw.len() => {}
        Err(err) => diffs.push(format!("probe failed ({err}), python {:?}", e.legal)),
    }
    (diffs, raw.len())
}

#[test]
fn probes_match_python_chess_on_a_polyglot_built_book() {
    const TEST: &str = "probes_match_python_chess_on_a_polyglot_built_book";
    let (Some(polyglot), Some(python)) = (polyglot(TEST), common::python_chess(TEST)) else {
        return;
    };
    let dir = common::temp_dir("book");
    let bin = make_book(&polyglot, &dir);
    let book = Book::load(&bin).expect("the book polyglot built");
    let reference = reference(&python, &bin);

    let (mut positions, mut in_book, mut entries) = (0, 0, 0);
    let mut failures = Vec::new();
    for line in reference.lines() {
        let expected = parse_line(line);
        let (diffs, n) = compare(&book, &expected);
        positions += 1;
        entries += n;
        in_book += usize::from(n > 0);
        for d in diffs {
            failures.push(format!(
                "{} moves [{}]: {d}",
                expected.start, expected.moves
            ));
        }
    }
    println!(
        "{positions} positions compared with python-chess ({in_book} with book moves, \
         {entries} entries; the book holds {}): {} differences",
        book.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} differences, the first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    assert!(
        positions >= 5000 && in_book >= 2000,
        "too few positions compared: {positions} ({in_book} in the book)"
    );
    engine_plays_the_best_book_moves(&bin, &reference);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The engine itself, with `OwnBook` and `BookBestMove` on, answers `go` in a sample of the
/// book's positions with python-chess's main entry (the first of the highest weight),
/// reaching the positions both ways: from the FEN and by the moves of the game.
fn engine_plays_the_best_book_moves(bin: &Path, reference: &str) {
    let sample: Vec<(Expected, &str)> = reference
        .lines()
        .map(parse_line)
        .filter_map(|e| python_best(e.legal).map(|best| (e, best)))
        .step_by(40)
        .collect();
    let mut input = format!(
        "setoption name OwnBook value true\nsetoption name BookFile value {}\n\
         setoption name BookBestMove value true\nsetoption name BookDepth value 1024\n",
        bin.display()
    );
    for (i, (e, _)) in sample.iter().enumerate() {
        if i % 2 == 0 {
            input.push_str(&format!("position fen {}\ngo depth 1\n", e.fen));
        } else {
            let (start, moves) = (e.start, e.moves);
            input.push_str(&format!("position fen {start} moves {moves}\ngo depth 1\n"));
        }
    }
    input.push_str("quit\n");
    let (ok, out, err) = common::engine::run_with_input(&[], &input);
    assert!(ok, "{err}");
    let answers: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    let played: Vec<&str> = answers
        .iter()
        .map(|a| a.split(' ').next().unwrap_or(""))
        .collect();
    let expected: Vec<&str> = sample.iter().map(|(_, best)| *best).collect();
    assert_eq!(played, expected, "engine output:\n{out}");
    let book_moves = out
        .lines()
        .filter(|l| l.starts_with("info string book move"))
        .count();
    assert_eq!(book_moves, sample.len(), "engine output:\n{out}");
    println!(
        "{} positions answered from the book by the engine",
        sample.len()
    );
}

/// python-chess's choice with the highest weight: the first entry of the greatest weight
/// among the legal ones, if that weight is above 0.
fn python_best(legal: &str) -> Option<&str> {
    let mut best: Option<(&str, u32)> = None;
    for item in legal.split(',').filter(|s| !s.is_empty()) {
        let (m, w) = item.split_once(':')?;
        let w: u32 = w.parse().ok()?;
        if w > 0 && best.is_none_or(|(_, b)| w > b) {
            best = Some((m, w));
        }
    }
    best.map(|(m, _)| m)
}
