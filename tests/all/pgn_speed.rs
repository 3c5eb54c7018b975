//! `scripts/pgn-speed.py`, which reads how deep and how fast each engine searched from a
//! fastchess PGN's move comments (the networks' speed in the games themselves, in
//! docs/log/networks.md): its means on a two-game sample worked out by hand, and its errors.

use std::path::PathBuf;
use std::process::{Command, Output};

use crate::common;

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/pgn-speed.py")
}

/// The two-game sample, `tests/data/speed-sample.pgn`.
fn sample() -> String {
    common::data_dir()
        .join("speed-sample.pgn")
        .to_string_lossy()
        .into_owned()
}

/// Runs the script with `args`, or `None` (after the skip notice) without a `python3`.
fn run(test: &str, args: &[&str]) -> Option<Output> {
    match Command::new("python3").arg(script()).args(args).output() {
        Ok(out) => Some(out),
        Err(_) => common::skip(test, "python3"),
    }
}

/// The first line of the script's output about `engine` (its first stretch of the game).
fn engine_line<'a>(text: &'a str, engine: &str) -> &'a str {
    text.lines()
        .find(|l| l.trim_start().starts_with(engine))
        .unwrap_or_else(|| panic!("no line for {engine} in:\n{text}"))
}

#[test]
fn means_per_engine_and_stretch_of_the_game() {
    let pgn = sample();
    let Some(out) = run("means_per_engine", &[&pgn]) else {
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // new: 10, 14 and 8 plies in 0.1 + 0.3 + 0.1 s with 6,000 nodes (the second game starts
    // with Black, so its first comment is new's); base: 12 and 10 in 0.3 s with 5,000.
    // The move without a search (`/0`) and the mate score are left out.
    let new = engine_line(&text, "new");
    assert!(new.contains("3 moves, depth 10.67,  0.167 s"), "{new}");
    assert!(
        new.contains("2000 nodes") && new.contains("12000 nodes/s"),
        "{new}"
    );
    let base = engine_line(&text, "base");
    assert!(base.contains("2 moves, depth 11.00,  0.150 s"), "{base}");
    assert!(
        base.contains("2500 nodes") && base.contains("16667 nodes/s"),
        "{base}"
    );
    assert!(
        text.contains("nodes/s over all moves: base 16667, new 12000; new/base 0.7200"),
        "{text}"
    );
}

#[test]
fn stretches_follow_the_band() {
    let pgn = sample();
    let Some(out) = run("stretches_follow_the_band", &[&pgn, "--band", "2"]) else {
        return;
    };
    // Columns are padded: compare with the runs of spaces made single.
    let text = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    // With two plies a stretch, new's plies 1 and 3 of game one fall in different ones.
    assert!(
        text.contains("new plies 1-2: 2 moves, depth 9.00"),
        "{text}"
    );
    assert!(
        text.contains("new plies 3-4: 1 moves, depth 14.00"),
        "{text}"
    );
}

#[test]
fn files_without_searches_and_bad_arguments_are_refused_by_name() {
    let not_pgn = common::temp_file(
        "speed-not-a-pgn.pgn",
        "[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5\n",
    );
    let path = not_pgn.to_string_lossy().to_string();
    let missing = common::temp_path("speed-missing.pgn")
        .to_string_lossy()
        .to_string();
    for (args, says) in [
        (vec![path.as_str()], "no move with a search comment"),
        (vec![missing.as_str()], "cannot read"),
        (
            vec![path.as_str(), "--band", "0"],
            "--band needs a positive number",
        ),
        (vec![], "usage"),
    ] {
        let Some(out) = run("files_without_searches", &args) else {
            return;
        };
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        if let Some(file) = args.first() {
            assert!(
                err.contains(file) || says.starts_with("--band"),
                "{args:?}: {err}"
            );
        }
    }
}
