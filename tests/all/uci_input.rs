//! The UCI command handler takes whatever a GUI, a script or a person types: random and
//! mangled lines must never make it panic, and a rejected command must leave the position
//! as it was.

use crate::common;

use common::Rng;
use std::sync::{Arc, Mutex};
use tarpon::uci::{Flow, Uci};

/// A UCI session whose output lines are collected in a shared buffer.
fn session() -> (Uci, Arc<Mutex<Vec<String>>>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    let uci = Uci::with_output(Arc::new(move |line: &str| {
        sink.lock().unwrap().push(line.to_string())
    }));
    (uci, lines)
}

/// Words a GUI might send, valid or not, for building plausible broken lines.
const WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "perft",
    "setoption",
    "name",
    "value",
    "UCI_Chess960",
    "true",
    "false",
    "quit!",
    "d",
    "e2e4",
    "e7e5",
    "e1g1",
    "e1h1",
    "e7e8q",
    "a7a8n",
    "0000",
    "-1",
    "99999999999",
    "3",
    "1",
    "0",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "w",
    "b",
    "KQkq",
    "HAha",
    "-",
    "e3",
    "8/8/8/8/8/8/8/8",
    "\t",
    "\r",
    "é",
    "♞",
    "",
];

fn random_line(rng: &mut Rng) -> String {
    let words = 1 + rng.below(12);
    let mut line: Vec<String> = (0..words).map(|_| rng.pick(WORDS).to_string()).collect();
    if rng.chance(30) {
        // Damage one word byte by byte (kept valid UTF-8 by working on chars).
        let i = rng.below(line.len());
        let mut chars: Vec<char> = line[i].chars().collect();
        if !chars.is_empty() {
            let j = rng.below(chars.len());
            chars[j] = char::from_u32(rng.below(0x3000) as u32).unwrap_or('?');
        }
        line[i] = chars.into_iter().collect();
    }
    line.join(if rng.chance(20) { "  " } else { " " })
}

#[test]
fn random_lines_never_panic_and_quit_only_on_quit() {
    let mut rng = Rng::new(0x0C1_1E5);
    let (mut uci, out) = session();
    for _ in 0..20_000 {
        let line = random_line(&mut rng);
        // Keep perft shallow so the test stays fast; deep perft is tested elsewhere.
        if line.contains("perft") && !line.ends_with("perft 1") && !line.ends_with("perft 0") {
            continue;
        }
        // The next command waits for a limited search: one of a huge depth, node count or
        // time would take the test hours. (An unlimited `go` is stopped by the next line.)
        if line.contains("go") && line.contains("99999999999") {
            continue;
        }
        let flow = uci.handle(&line);
        let first = line.split_whitespace().next();
        assert_eq!(flow == Flow::Quit, first == Some("quit"), "line {line:?}");
        out.lock().unwrap().clear();
    }
}

#[test]
fn rejected_position_commands_keep_what_could_be_set_up_and_refuse_go() {
    let (mut uci, out) = session();
    let base = "position startpos moves e2e4 e7e5 g1f3";
    uci.handle(base);
    let before = uci.position().fen();
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    for (bad, kept) in [
        (
            "position startpos moves e2e4 e7e5 g1f3 e8e6",
            before.as_str(),
        ),
        ("position startpos moves e2e4 e2e4", after_e4),
        ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", before.as_str()),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e7e5",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        ("position", before.as_str()),
        ("position moves e2e4", before.as_str()),
        ("position startpos e2e4", before.as_str()),
    ] {
        uci.handle(base);
        out.lock().unwrap().clear();
        uci.handle(bad);
        let answer = out.lock().unwrap().join("\n");
        assert!(answer.starts_with("info string error"), "{bad}: {answer}");
        assert_eq!(uci.position().fen(), kept, "{bad}");
        // No move for a position the GUI believes in and the engine does not have.
        out.lock().unwrap().clear();
        uci.handle("go depth 1");
        uci.handle("isready");
        let answer = out.lock().unwrap().clone();
        assert!(
            answer.contains(&"bestmove (none)".to_string()),
            "{bad}: {answer:?}"
        );
    }
    // Moves played through `position` are history, so repetitions are seen across them.
    uci.handle("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert!(uci.position().is_threefold_repetition());
}
