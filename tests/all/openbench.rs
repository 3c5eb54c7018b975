//! What OpenBench's workloads run: commands as arguments (`tarpon "cmd1" "cmd2"`), and
//! `genfens`, the opening positions of its data generation, checked for count, legality
//! (each FEN read by shakmaty, a library independent of Tarpon's rules), repeatability,
//! books, Chess960 and bad arguments.

use crate::common::engine::run_status;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use std::collections::HashSet;

/// Runs `tarpon` with `args`; its exit status and the FENs of its `info string genfens`
/// lines, failing if any other line is not an `info string`.
fn genfens(args: &[&str]) -> (Option<i32>, Vec<String>, String) {
    let (code, out, _) = run_status(args);
    let fens = out
        .lines()
        .filter_map(|l| l.strip_prefix("info string genfens "))
        .map(str::to_string)
        .collect();
    (code, fens, out)
}

/// Every FEN has six fields (OpenBench turns the last two into EPD's hmvc and fmvn), is
/// a legal position by shakmaty, and has a game to play.
fn check_legal(fens: &[String], mode: CastlingMode) {
    for fen in fens {
        assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
        let setup: Fen = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        let pos: Chess = setup
            .into_position(mode)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(!pos.is_game_over(), "{fen}");
    }
}

#[test]
fn genfens_from_the_start_position_is_legal_and_repeatable() {
    let command = "genfens 60 seed 7 book None";
    let (code, fens, out) = genfens(&[command, "quit"]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(fens.len(), 60, "{out}");
    check_legal(&fens, CastlingMode::Standard);
    assert_eq!(
        fens.iter().collect::<HashSet<_>>().len(),
        60,
        "repeated openings"
    );
    let (_, again, _) = genfens(&[command, "quit"]);
    assert_eq!(again, fens);
    let (_, other, _) = genfens(&["genfens 60 seed 8 book None", "quit"]);
    assert!(
        other.iter().all(|f| !fens.contains(f)),
        "seeds 7 and 8 share openings"
    );
    // The first openings of a longer run are the same: opening i depends on i alone.
    let (_, fewer, _) = genfens(&["genfens 10 seed 7 book None"]);
    assert_eq!(fewer[..], fens[..10]);
}

#[test]
fn genfens_from_a_book_and_from_chess960() {
    let dir = std::env::temp_dir().join(format!("tarpon-genfens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.epd");
    let lines = [
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2 c0 \"Indian\";",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    ];
    std::fs::write(&book, lines.join("\n")).unwrap();
    let book_name = book.to_str().unwrap();
    // Without random plies every opening is a book position.
    let (code, fens, out) = genfens(&[&format!("genfens 12 seed 1 book {book_name} plies 0")]);
    assert_eq!((code, fens.len()), (Some(0), 12), "{out}");
    let starts: Vec<String> = lines
        .iter()
        .map(|l| l.split_whitespace().take(6).collect::<Vec<_>>().join(" "))
        .collect();
    assert!(fens.iter().all(|f| starts.contains(f)), "{fens:?}");
    // With them, positions beyond the book.
    let (_, fens, _) = genfens(&[&format!("genfens 12 seed 1 book {book_name}")]);
    check_legal(&fens, CastlingMode::Standard);
    assert!(fens.iter().all(|f| !starts.contains(f)));
    // Double Chess960: each side its own back rank, read in Chess960's castling.
    let (code, fens, out) = genfens(&["genfens 20 seed 3 book None dfrc"]);
    assert_eq!((code, fens.len()), (Some(0), 20), "{out}");
    check_legal(&fens, CastlingMode::Chess960);
    let standard = fens
        .iter()
        .filter(|f| f.starts_with("rnbqkbnr") || f.ends_with("RNBQKBNR w KQkq - 0 5"))
        .count();
    assert!(standard < 5, "{fens:?}");
    // An empty book, and one that does not exist.
    let empty = dir.join("empty.epd");
    std::fs::write(&empty, "\n# nothing\n").unwrap();
    for path in [empty.to_str().unwrap(), "/no/such/book.epd"] {
        let (code, fens, out) = genfens(&[&format!("genfens 5 seed 1 book {path}"), "quit"]);
        assert_eq!((code, fens.len()), (Some(1), 0), "{out}");
        assert!(out.contains("info string error: genfens:"), "{out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn genfens_with_bad_arguments_says_why_and_fails() {
    for (command, words) in [
        ("genfens", "number of openings is missing"),
        ("genfens seed 1 book None", "not 'seed'"),
        ("genfens 10 seed abc book None", "the seed must be a number"),
        ("genfens 10 book None", "the seed is missing"),
        ("genfens 10 seed 1", "the book is missing"),
        (
            "genfens 10 seed 1 book None frc960",
            "unknown word 'frc960'",
        ),
    ] {
        let (code, fens, out) = genfens(&[command, "quit"]);
        assert_eq!((code, fens.len()), (Some(1), 0), "{command}: {out}");
        assert!(out.contains(words), "{command}: {out}");
    }
}

#[test]
fn commands_as_arguments_run_in_turn_then_exit() {
    let (code, out, _) = run_status(&["uci", "isready", "quit"]);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines.contains(&"uciok") && lines.last() == Some(&"readyok"),
        "{out}"
    );
    // A search with limits is answered before the program exits, without `quit`.
    let (code, out, _) = run_status(&["position startpos moves e2e4", "go depth 4"]);
    assert_eq!(code, Some(0));
    assert!(
        out.lines().last().unwrap().starts_with("bestmove "),
        "{out}"
    );
    // `bench` as a subcommand and as a command both work; an unknown command fails.
    let (code, out, _) = run_status(&["bench 2"]);
    assert_eq!(code, Some(0));
    assert!(out.contains(" nodes ") && out.contains(" nps"), "{out}");
    let (code, out, err) = run_status(&["benhc"]);
    assert_eq!(code, Some(1));
    assert!(out.contains("unknown command 'benhc'"), "{out}");
    assert!(
        err.contains("'benhc' is neither a subcommand nor a UCI command"),
        "{err}"
    );
    // Options and subcommands are what they were.
    let (code, out, _) = run_status(&["--version"]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("tarpon "), "{out}");
    let (code, _, err) = run_status(&["perft", "--depth", "x"]);
    assert_ne!(code, Some(0), "{err}");
}
