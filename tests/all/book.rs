//! Opening books end to end: the UCI options driven through the real program, and the
//! `tarpon book` subcommand. The books are written by the tests themselves, entry by entry,
//! with keys from Tarpon's Polyglot key function (itself checked against the published key
//! values in `src/book/polyglot_keys.rs`).

use std::path::PathBuf;
use std::thread;
use std::time::Duration;
use tarpon::book::{self, Entry};
use tarpon::chess::Position;
use tarpon::chess::fen::START_FEN;
use tarpon::chess::notation::parse_uci;

use crate::common;

use common::engine::{self, Engine};

/// Generous: the machine running the tests may be busy.
const ANSWER: Duration = Duration::from_secs(20);

// --- Writing books -------------------------------------------------------------------------

/// A position of a test book: a FEN, the UCI moves played from it, and the book's moves for
/// the position reached (UCI text, weight).
type BookPosition<'a> = (&'a str, &'a str, &'a [(&'a str, u16)]);

/// A Polyglot book file in the temporary folder, removed when dropped.
struct BookFile(PathBuf);

impl BookFile {
    /// A book file with these bytes, named after the test so parallel tests do not collide.
    fn with_bytes(name: &str, bytes: &[u8]) -> BookFile {
        let path = common::temp_path(&format!("{name}.bin"));
        std::fs::write(&path, bytes).expect("write the test book");
        BookFile(path)
    }

    /// A book holding these positions' moves, sorted by key as the format requires.
    fn with_moves(name: &str, positions: &[BookPosition]) -> BookFile {
        let mut entries = Vec::new();
        for &(fen, played, moves) in positions {
            let position = play(fen, played);
            let key = book::position_key(&position, book::fen_en_passant(fen));
            for &(text, weight) in moves {
                let raw_move = match parse_uci(&position, text) {
                    Ok(m) => book::to_raw(m),
                    Err(_) => raw_of_text(text),
                };
                entries.push(Entry {
                    key,
                    raw_move,
                    weight,
                    learn: 0,
                });
            }
        }
        entries.sort_by_key(|e| e.key);
        let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
        BookFile::with_bytes(name, &bytes)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary path")
    }
}

impl Drop for BookFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn play(fen: &str, moves: &str) -> Position {
    let mut position = Position::from_fen(fen, false).expect("test FEN");
    for text in moves.split_whitespace() {
        let m = parse_uci(&position, text).expect("test move");
        position.make(m);
    }
    position
}

/// The raw book move for squares given as text, legal or not (for corrupt books).
fn raw_of_text(text: &str) -> u16 {
    let square = |s: &str| {
        tarpon::chess::Square::parse(s)
            .expect("test square")
            .index() as u16
    };
    square(&text[0..2]) << 6 | square(&text[2..4])
}

// --- Talking to the engine -----------------------------------------------------------------

/// The conversations these tests have, on top of the shared driver.
impl Engine {
    /// The lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        self.collect_until(&format!("'{prefix}' line"), ANSWER, |l| {
            l.starts_with(prefix)
        })
    }

    /// Sets up a book session: the options, then `isready` so that loading is done.
    fn with_options(options: &[(&str, &str)]) -> (Engine, Vec<String>) {
        let mut engine = Engine::start();
        for (name, value) in options {
            engine.send(&format!("setoption name {name} value {value}"));
        }
        engine.send("isready");
        let lines = engine.until("readyok");
        (engine, lines)
    }

    /// `go` on a position; returns the lines up to `bestmove` and the move. (Not `go`:
    /// `uci_session` gives `Engine` a `go` of its own.)
    fn go_from(&mut self, position: &str, go: &str) -> (Vec<String>, String) {
        self.send(&format!("position {position}"));
        self.send(go);
        let lines = self.until("bestmove");
        let best = lines.last().and_then(|l| l.split_whitespace().nth(1));
        let best = best.expect("a move after bestmove").to_string();
        (lines, best)
    }
}

fn searched(lines: &[String]) -> bool {
    lines.iter().any(|l| l.starts_with("info depth"))
}

fn said(lines: &[String], text: &str) -> bool {
    lines
        .iter()
        .any(|l| l.starts_with("info string") && l.contains(text))
}

/// The start position with three moves, and the position after 1. e4 with two.
fn opening_book(name: &str) -> BookFile {
    BookFile::with_moves(
        name,
        &[
            (START_FEN, "", &[("e2e4", 6), ("d2d4", 3), ("c2c4", 1)]),
            (START_FEN, "e2e4", &[("c7c5", 2), ("e7e5", 1)]),
        ],
    )
}

// --- UCI -----------------------------------------------------------------------------------

#[test]
fn own_book_answers_from_the_book_at_once() {
    let book = opening_book("own-book");
    let (mut engine, loaded) =
        Engine::with_options(&[("OwnBook", "true"), ("BookFile", book.path())]);
    assert!(said(&loaded, "5 entries"), "{loaded:?}");
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..40 {
        let (lines, best) = engine.go_from("startpos", "go movetime 5000");
        assert!(
            !searched(&lines),
            "searched instead of using the book: {lines:?}"
        );
        assert!(said(&lines, &format!("book move {best}")), "{lines:?}");
        seen.insert(best);
    }
    // Random by weight: in 40 tries the moves of weight 6 and 3 (out of 10) both turn up,
    // but for a chance below one in a million; the one of weight 1 may be missed (1.5%).
    assert!(seen.contains("e2e4") && seen.contains("d2d4"), "{seen:?}");
    assert!(
        seen.iter()
            .all(|m| ["e2e4", "d2d4", "c2c4"].contains(&m.as_str()))
    );
    let (lines, best) = engine.go_from("startpos moves e2e4", "go wtime 1000 btime 1000");
    assert!(["c7c5", "e7e5"].contains(&best.as_str()), "{lines:?}");
}

#[test]
fn book_best_move_always_plays_the_highest_weight() {
    let book = opening_book("best-move");
    let (mut engine, _) = Engine::with_options(&[
        ("BookFile", book.path()),
        ("OwnBook", "true"),
        ("BookBestMove", "true"),
    ]);
    for _ in 0..10 {
        assert_eq!(engine.go_from("startpos", "go depth 20").1, "e2e4");
        assert_eq!(
            engine.go_from("startpos moves e2e4", "go depth 20").1,
            "c7c5"
        );
    }
}

#[test]
fn without_own_book_the_engine_searches() {
    let book = opening_book("no-own-book");
    let (mut engine, loaded) = Engine::with_options(&[("BookFile", book.path())]);
    assert!(!said(&loaded, "book"), "{loaded:?}");
    let (lines, _) = engine.go_from("startpos", "go depth 3");
    assert!(searched(&lines) && !said(&lines, "book move"), "{lines:?}");
    // Turned on, then off again.
    engine.send("setoption name OwnBook value true");
    let (lines, _) = engine.go_from("startpos", "go depth 3");
    assert!(!searched(&lines), "{lines:?}");
    engine.send("setoption name OwnBook value false");
    let (lines, _) = engine.go_from("startpos", "go depth 3");
    assert!(searched(&lines), "{lines:?}");
}

#[test]
fn the_book_is_left_after_book_depth_plies() {
    let book = opening_book("book-depth");
    let (mut engine, _) = Engine::with_options(&[
        ("OwnBook", "true"),
        ("BookFile", book.path()),
        ("BookDepth", "1"),
    ]);
    let (lines, _) = engine.go_from("startpos", "go depth 3");
    assert!(!searched(&lines), "{lines:?}");
    // One ply played: beyond BookDepth 1.
    let (lines, _) = engine.go_from("startpos moves e2e4", "go depth 3");
    assert!(searched(&lines), "{lines:?}");
    // A FEN's move number counts: move 2 with White to move is ply 2.
    let start_at_move_2 = START_FEN.replace(" 0 1", " 0 2");
    let (lines, _) = engine.go_from(&format!("fen {start_at_move_2}"), "go depth 3");
    assert!(searched(&lines), "{lines:?}");
    let (lines, _) = engine.go_from(&format!("fen {START_FEN}"), "go depth 3");
    assert!(!searched(&lines), "{lines:?}");
    engine.send("setoption name BookDepth value 0");
    let (lines, _) = engine.go_from("startpos", "go depth 3");
    assert!(searched(&lines), "{lines:?}");
}

#[test]
fn analysis_and_searchmoves_do_not_use_the_book() {
    let book = opening_book("analysis");
    let (mut engine, _) = Engine::with_options(&[("OwnBook", "true"), ("BookFile", book.path())]);
    let (lines, best) = engine.go_from("startpos", "go depth 3 searchmoves a2a3");
    assert!(searched(&lines) && best == "a2a3", "{lines:?}");
    engine.send("position startpos");
    engine.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    engine.send("stop");
    let lines = engine.until("bestmove");
    assert!(searched(&lines) && !said(&lines, "book move"), "{lines:?}");
}

/// The en-passant field of `position fen` reaches the key: here the e5 pawn is pinned, so
/// Tarpon's board drops the square, but Polyglot's key counts it.
#[test]
fn position_fen_keeps_the_en_passant_square_for_the_key() {
    let before = "8/3p4/8/K3P2r/8/8/8/7k b - - 0 1";
    let after = "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2";
    let book = BookFile::with_moves("en-passant", &[(after, "", &[("a5b4", 1)])]);
    let (mut engine, _) = Engine::with_options(&[("OwnBook", "true"), ("BookFile", book.path())]);
    assert_eq!(
        engine.go_from(&format!("fen {after}"), "go depth 3").1,
        "a5b4"
    );
    assert_eq!(
        engine
            .go_from(&format!("fen {before} moves d7d5"), "go depth 3")
            .1,
        "a5b4"
    );
    // The same placement without the en-passant right is another position.
    let (lines, _) = engine.go_from("fen 8/8/8/K2pP2r/8/8/8/7k w - - 0 2", "go depth 3");
    assert!(searched(&lines), "{lines:?}");
}

#[test]
fn castling_and_promotion_book_moves() {
    let fen = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let castle = BookFile::with_moves("castle", &[(fen, "", &[("e1h1", 1)])]);
    let (mut engine, _) = Engine::with_options(&[("OwnBook", "true"), ("BookFile", castle.path())]);
    assert_eq!(
        engine.go_from(&format!("fen {fen}"), "go depth 3").1,
        "e1g1"
    );
    let promote = BookFile::with_moves("promote", &[(fen, "", &[("b7a8n", 1)])]);
    engine.send(&format!("setoption name BookFile value {}", promote.path()));
    assert_eq!(
        engine.go_from(&format!("fen {fen}"), "go depth 3").1,
        "b7a8n"
    );
}

#[test]
fn bad_books_are_reported_and_skipped() {
    let (mut engine, lines) = Engine::with_options(&[
        ("OwnBook", "true"),
        ("BookFile", "/nonexistent/tarpon/book.bin"),
    ]);
    assert!(
        said(&lines, "error: cannot read book /nonexistent"),
        "{lines:?}"
    );
    let (lines, _) = engine.go_from("startpos", "go depth 3");
    assert!(searched(&lines), "{lines:?}");

    let odd = BookFile::with_bytes("odd-size", &[0; 33]);
    engine.send(&format!("setoption name BookFile value {}", odd.path()));
    engine.send("isready");
    let lines = engine.until("readyok");
    assert!(said(&lines, "not a multiple of 16"), "{lines:?}");
    let (lines, _) = engine.go_from("startpos", "go depth 3");
    assert!(searched(&lines), "{lines:?}");

    // e2e5 is not a move; the engine says so and searches.
    let illegal = BookFile::with_moves("illegal", &[(START_FEN, "", &[("e2e5", 1)])]);
    engine.send(&format!("setoption name BookFile value {}", illegal.path()));
    let (lines, best) = engine.go_from("startpos", "go depth 3");
    assert!(said(&lines, "book move e2e5 is illegal"), "{lines:?}");
    assert!(searched(&lines) && best != "e2e5", "{lines:?}");
}

#[test]
fn uci_declares_the_book_options() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.until("uciok");
    for option in [
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
        "option name BookBestMove type check default false",
        "option name BookDepth type spin default 40 min 0 max 1024",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option}: {lines:?}");
    }
}

// --- tarpon book ---------------------------------------------------------------------------

/// `tarpon book` with `args`: whether it succeeded, standard output, standard error.
fn book_cli(args: &[&str]) -> (bool, String, String) {
    engine::run(&[&["book"], args].concat())
}

#[test]
fn cli_lists_moves_with_weights_and_percentages() {
    let book = opening_book("cli");
    let (ok, out, err) = book_cli(&[book.path()]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "key 463b96181691fc9c: 3 book moves, total weight 10",
            "move   san       weight  percent",
            "e2e4   e4             6    60.0%",
            "d2d4   d4             3    30.0%",
            "c2c4   c4             1    10.0%",
        ]
    );
    // The FEN may be given unquoted.
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let mut args = vec![book.path()];
    args.extend(after_e4.split(' '));
    let (ok, out, _) = book_cli(&args);
    assert!(
        ok && out.contains("c7c5   c5             2    66.7%"),
        "{out}"
    );
    let (ok, out, _) = book_cli(&[book.path(), "8/8/8/8/8/8/8/K6k w - - 0 1"]);
    assert!(ok && out.contains("0 book moves"), "{out}");
}

#[test]
fn cli_reports_bad_books() {
    let (ok, _, err) = book_cli(&["/nonexistent/tarpon/book.bin"]);
    assert!(!ok && err.contains("cannot read book"), "{err}");
    let odd = BookFile::with_bytes("cli-odd", &[1; 20]);
    let (ok, _, err) = book_cli(&[odd.path()]);
    assert!(!ok && err.contains("not a multiple of 16"), "{err}");
    let illegal = BookFile::with_moves("cli-illegal", &[(START_FEN, "", &[("e2e5", 1)])]);
    let (ok, out, _) = book_cli(&[illegal.path()]);
    assert!(!ok && out.contains("e2e5   illegal"), "{out}");
    let book = opening_book("cli-bad-fen");
    let (ok, _, err) = book_cli(&[book.path(), "not a fen"]);
    assert!(!ok && err.contains("bad FEN"), "{err}");
}
