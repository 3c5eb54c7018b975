//! UCI conversations with the real program, as a GUI has them: the test starts `tarpon`,
//! writes commands to its standard input and reads its answers line by line, with a
//! deadline on every answer. A reader thread forwards the engine's output through a
//! channel, so that a hung or silent engine fails the test (with the transcript so far)
//! instead of hanging it.
//!
//! Timing limits are generous: these tests may run on a loaded machine. The intended
//! figures (stop within 200 ms, a forced move within 100 ms) are printed, so that a
//! regression shows in the output even when it stays under the asserted limit.

use std::thread;
use std::time::{Duration, Instant};
use tarpon::chess::Position;
use tarpon::chess::movegen::legal_moves;
use tarpon::chess::notation::parse_uci;

use crate::common;

use common::engine::{Engine, check_bestmove};

/// How long any answer that needs no thinking may take before the test gives up. Long,
/// because a loaded machine may be slow to schedule the engine; the tests that care about
/// latency measure it separately.
const ANSWER: Duration = Duration::from_secs(20);

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// --- The test driver ----------------------------------------------------------------------

/// The conversations these tests have, on top of the shared driver.
impl Engine {
    /// Sends `line` and returns its output, which must include an error report.
    fn expect_error(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        let out = self.sync();
        assert!(
            out.iter().any(|l| l.starts_with("info string error")),
            "{line:?} was not answered with an error: {out:?}"
        );
        out
    }

    /// Sends `line` and checks that it produced no output at all (no error).
    fn expect_silence(&mut self, line: &str) {
        self.send(line);
        let out = self.sync();
        assert!(out.is_empty(), "{line:?} answered {out:?}");
    }

    /// Sends `line` and checks that it was not answered with an error.
    fn expect_accepted(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        let out = self.sync();
        assert!(
            !out.iter().any(|l| l.contains("error")),
            "{line:?} answered {out:?}"
        );
        out
    }

    /// Waits for `bestmove` and returns all output since, with the time it took.
    fn search_output(&mut self, timeout: Duration) -> (Vec<String>, Duration) {
        let start = Instant::now();
        let lines = self.collect_until("bestmove", timeout, |l| l.starts_with("bestmove"));
        (lines, start.elapsed())
    }

    /// Sends a `go` command and waits for its `bestmove` line; returns it and the time
    /// from sending to receiving.
    fn go(&mut self, go: &str, timeout: Duration) -> (String, Duration) {
        let start = Instant::now();
        self.send(go);
        let line = self.expect_line("bestmove", timeout, |l| l.starts_with("bestmove"));
        (line, start.elapsed())
    }

    /// The FEN of the engine's current position, from the `Fen:` line of `d`.
    fn fen(&mut self) -> String {
        self.send("d");
        let out = self.sync();
        let fens: Vec<&String> = out.iter().filter(|l| l.starts_with("Fen: ")).collect();
        assert_eq!(fens.len(), 1, "d printed {out:?}");
        fens[0]["Fen: ".len()..].to_string()
    }

    /// Sends `quit` and waits for the process to end; returns whether it exited with
    /// success and how long it took.
    fn quit(mut self, timeout: Duration) -> (bool, Duration) {
        let start = Instant::now();
        self.send("quit");
        loop {
            match self.child.try_wait().expect("wait for tarpon") {
                Some(status) => return (status.success(), start.elapsed()),
                None if start.elapsed() > timeout => {
                    panic!(
                        "the engine did not exit within {timeout:?} of quit\n{}",
                        self.tail()
                    )
                }
                None => thread::sleep(Duration::from_millis(5)),
            }
        }
    }
}

// --- Checking answers ------------------------------------------------------------------------

fn position(fen: &str, chess960: bool) -> Position {
    Position::from_fen(fen, chess960).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// `fen` with `moves` (UCI text) played.
fn after(fen: &str, moves: &[&str]) -> Position {
    let mut pos = position(fen, false);
    for m in moves {
        let mv = parse_uci(&pos, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.make(mv);
    }
    pos
}

/// A UCI score as one comparable number: centipawns, with mates beyond any of them.
fn score_value(kind: &str, value: i64) -> i64 {
    match kind {
        "cp" => value,
        // Mate in n (n > 0) is better the smaller n is; being mated (n <= 0) worse the
        // smaller |n| is.
        "mate" if value > 0 => 1_000_000 - value,
        "mate" => -1_000_000 - value,
        _ => panic!("unknown score kind {kind}"),
    }
}

/// The fields of an `info` line with a score (`info depth ... pv ...`).
#[derive(Debug)]
struct Info {
    depth: u32,
    seldepth: u32,
    multipv: u32,
    score: i64,
    bound: Option<String>,
    nodes: u64,
    nps: u64,
    hashfull: u32,
    tbhits: u64,
    time: u64,
    pv: Vec<String>,
}

/// Reads an `info` line; `None` for other lines (`info string`, `info depth 0 ...`).
fn parse_info(line: &str) -> Option<Info> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") || !words.contains(&"pv") {
        return None;
    }
    let mut found = std::collections::HashMap::new();
    let mut score = None;
    let mut bound = None;
    let mut pv = Vec::new();
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "score" => {
                let value: i64 = words[i + 2].parse().expect("score value");
                score = Some(score_value(words[i + 1], value));
                i += 3;
                if let Some(&b @ ("lowerbound" | "upperbound")) = words.get(i) {
                    bound = Some(b.to_string());
                    i += 1;
                }
            }
            "pv" => {
                pv = words[i + 1..].iter().map(|w| w.to_string()).collect();
                break;
            }
            key => {
                let value: u64 = words
                    .get(i + 1)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| panic!("{key} without a number in {line:?}"));
                found.insert(key, value);
                i += 2;
            }
        }
    }
    let field = |key: &str| -> u64 {
        *found
            .get(key)
            .unwrap_or_else(|| panic!("no {key} in {line:?}"))
    };
    Some(Info {
        depth: field("depth") as u32,
        seldepth: field("seldepth") as u32,
        multipv: field("multipv") as u32,
        score: score.unwrap_or_else(|| panic!("no score in {line:?}")),
        bound,
        nodes: field("nodes"),
        nps: field("nps"),
        hashfull: field("hashfull") as u32,
        tbhits: field("tbhits"),
        time: field("time"),
        pv,
    })
}

// --- Handshake ---------------------------------------------------------------------------------

#[test]
fn handshake_declares_identity_and_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.collect_until("uciok", ANSWER, |l| l == "uciok");
    assert!(lines[0].starts_with("id name Tarpon "), "{lines:?}");
    let version = &lines[0]["id name Tarpon ".len()..];
    assert!(!version.is_empty() && version.chars().next().unwrap().is_ascii_digit());
    assert!(lines[1].starts_with("id author ") && lines[1].len() > "id author ".len());
    // Exactly these options, with these types and limits: a GUI builds its settings dialog
    // from them, and the limits must match what `setoption` accepts (checked below).
    let options = &lines[2..lines.len() - 1];
    assert_eq!(
        options,
        [
            "option name Hash type spin default 16 min 1 max 65536",
            "option name Threads type spin default 1 min 1 max 1024",
            "option name Clear Hash type button",
            "option name Move Overhead type spin default 10 min 0 max 5000",
            "option name MultiPV type spin default 1 min 1 max 256",
            "option name Ponder type check default false",
            "option name UCI_Chess960 type check default false",
            "option name OwnBook type check default false",
            "option name BookFile type string default <empty>",
            "option name BookBestMove type check default false",
            "option name BookDepth type spin default 40 min 0 max 1024",
            "option name SyzygyPath type string default <empty>",
            "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
            "option name Syzygy50MoveRule type check default true",
            "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
            "option name UCI_ShowWDL type check default false",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default 1500 min 800 max 2800",
            "option name Skill Level type spin default 20 min 0 max 20",
            "option name Use NNUE type check default true",
            "option name EvalFile type string default <embedded>",
            "option name Contempt type spin default 0 min -100 max 100",
        ]
    );
    assert_eq!(e.sync(), Vec::<String>::new());
    // `uci` may be sent again; the answer is the same.
    e.send("uci");
    let again = e.collect_until("uciok", ANSWER, |l| l == "uciok");
    assert_eq!(again, lines);
    let (ok, _) = e.quit(Duration::from_secs(5));
    assert!(ok);
}

#[test]
fn every_declared_limit_is_accepted_and_one_beyond_is_not() {
    let mut e = Engine::start();
    for (name, min, max) in [
        ("Hash", 1, 128), // the declared maximum (64 GB) is not allocated in a test
        ("Threads", 1, 1024),
        ("Move Overhead", 0, 5000),
        ("MultiPV", 1, 256),
        ("BookDepth", 0, 1024),
        ("SyzygyProbeDepth", 1, 100),
        ("SyzygyProbeLimit", 0, 7),
        ("UCI_Elo", 800, 2800),
        ("Skill Level", 0, 20),
        ("Contempt", -100, 100),
    ] {
        e.expect_accepted(&format!("setoption name {name} value {min}"));
        e.expect_accepted(&format!("setoption name {name} value {max}"));
        if min != 0 {
            e.expect_error(&format!("setoption name {name} value {}", min - 1));
        }
    }
    e.expect_error("setoption name Threads value 1025");
    e.expect_error("setoption name MultiPV value 257");
    e.expect_error("setoption name Move Overhead value 5001");
    e.expect_error("setoption name Hash value 65537");
    e.expect_error("setoption name BookDepth value 1025");
    e.expect_error("setoption name SyzygyProbeDepth value 101");
    e.expect_error("setoption name SyzygyProbeLimit value 8");
    e.expect_error("setoption name UCI_Elo value 2801");
    e.expect_error("setoption name Skill Level value 21");
    e.expect_error("setoption name Contempt value 101");
    for check in [
        "Ponder",
        "UCI_Chess960",
        "BookBestMove",
        "Syzygy50MoveRule",
        "UCI_ShowWDL",
        "UCI_LimitStrength",
        "Use NNUE",
    ] {
        e.expect_silence(&format!("setoption name {check} value true"));
        e.expect_silence(&format!("setoption name {check} value false"));
    }
    // Without OwnBook a book file is only remembered, not read.
    e.expect_silence("setoption name OwnBook value false");
    e.expect_silence("setoption name BookFile value /no/such/book.bin");
    e.expect_silence("setoption name BookFile value <empty>");
    e.expect_silence("setoption name Clear Hash");
    e.expect_silence("setoption name Hash value 16");
    e.expect_silence("setoption name MultiPV value 1");
    // The embedded network (the default) is accepted by name; bad files: tests/all/nnue.rs.
    e.expect_accepted("setoption name EvalFile value <embedded>");
    // More threads are accepted, with a note that the search uses one.
    let out = e.expect_accepted("setoption name Threads value 4");
    assert!(out.iter().all(|l| l.starts_with("info string")), "{out:?}");
    e.expect_silence("setoption name Threads value 1");
    let (best, _) = e.go("go depth 4", ANSWER);
    check_bestmove(&Position::startpos(), &best);
}

// --- Bad input ---------------------------------------------------------------------------------

#[test]
fn bad_commands_and_options_are_answered_and_the_engine_keeps_working() {
    let mut e = Engine::start();
    for bad in [
        "frobnicate",
        "frobnicate now please",
        "UCI", // commands are case-sensitive
        "setoption name Ponies value 3",
        "setoption name Hash value 0",
        "setoption name Hash value 99999999",
        "setoption name Hash value abc",
        "setoption name Hash value -16",
        "setoption name Hash value 1.5",
        "setoption name Hash",
        "setoption name MultiPV value 0",
        "setoption name Threads value 0",
        "setoption name Ponder value maybe",
        "setoption name UCI_Chess960",
        "setoption Hash value 32",
        "setoption",
        "setoption name",
        "position",
        "position sideways",
        "position startpos e2e4",
        "go perft",
        "go perft -1",
        "go perft many",
    ] {
        let out = e.expect_error(bad);
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
    }
    // Blank lines and lines of whitespace are ignored without a word.
    for blank in ["", "   ", "\t", " \t \r"] {
        e.expect_silence(blank);
    }
    // After all that, the engine searches the start position once a position is valid.
    e.expect_silence("position startpos");
    let (best, _) = e.go("go depth 3", ANSWER);
    check_bestmove(&Position::startpos(), &best);
    let (ok, _) = e.quit(Duration::from_secs(5));
    assert!(ok);
}

#[test]
fn bad_positions_keep_what_could_be_set_up_and_go_refuses_to_search() {
    let mut e = Engine::start();
    e.expect_silence("position startpos moves e2e4 e7e5");
    let before = e.fen();
    assert_eq!(
        before,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    for bad in [
        // Bad FENs: missing fields, bad counts, impossible placements.
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",
        "position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen",
        // Illegal or malformed moves, first or later in the list.
        "position startpos moves e2e5",
        "position startpos moves e2e4 e7e5 e1g1",
        "position startpos moves e2e4 e2e4",
        "position startpos moves e2e4 e7e5 g1f3 zz99",
        "position startpos moves e7e5",
        "position startpos moves e2e4 e7e5 a2a1q",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2 e8e7 e2e3 e7e9",
    ] {
        e.expect_silence("position startpos moves e2e4 e7e5");
        let out = e.expect_error(bad);
        assert!(
            out[0].contains("bestmove (none)"),
            "{bad}: the error should say that go is refused: {out:?}"
        );
        if bad.contains("moves") {
            // An illegal move keeps the legal moves before it, as Stockfish does.
            let words: Vec<&str> = bad.split_whitespace().collect();
            let setup = if bad.contains("startpos") {
                START_FEN.to_string()
            } else {
                words[2..8].join(" ")
            };
            let moves = &words[words.iter().position(|w| *w == "moves").unwrap() + 1..];
            let mut pos = Position::from_fen(&setup, false).unwrap();
            for m in moves {
                match parse_uci(&pos, m) {
                    Ok(m) => pos.make(m),
                    Err(_) => break,
                }
            }
            assert_eq!(e.fen(), pos.fen(), "{bad}: not the legal prefix");
        } else {
            assert_eq!(e.fen(), before, "{bad} changed the position");
        }
        // The GUI believes in a position the engine does not have: no move is offered
        // for it, whatever the limits, so none can be played for the wrong side.
        for go in ["go depth 3", "go wtime 1000 btime 1000", "go movetime 50"] {
            e.send(go);
            let (lines, _) = e.search_output(ANSWER);
            assert_eq!(lines.last().unwrap(), "bestmove (none)", "{bad}, {go}");
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with("info string error: no search")),
                "{bad}, {go}: {lines:?}"
            );
        }
        // `go infinite` owes its answer until `stop`.
        e.send("go infinite");
        e.expect_no_line("bestmove before stop", Duration::from_millis(200), |l| {
            l.starts_with("bestmove")
        });
        let (lines, _) = e.go("stop", ANSWER);
        assert_eq!(lines, "bestmove (none)", "{bad}");
    }
    // The exact case of a GUI and a rejected third move: White's move e1e3 is illegal, so
    // the engine must not answer with a move for the position after e7e5 (White to move)
    // while the GUI waits for Black's.
    e.expect_silence("position startpos moves e2e4");
    e.expect_error("position startpos moves e2e4 e7e5 e1e3");
    let (best, _) = e.go("go wtime 5000 btime 5000", ANSWER);
    assert_eq!(best, "bestmove (none)");
    // A valid `position` (or `ucinewgame`) lifts the refusal.
    e.expect_silence("position startpos moves e2e4 e7e5");
    let (best, _) = e.go("go depth 3", ANSWER);
    check_bestmove(&after(START_FEN, &["e2e4", "e7e5"]), &best);
    e.expect_error("position startpos moves e2e5");
    e.expect_silence("ucinewgame");
    let (best, _) = e.go("go depth 3", ANSWER);
    check_bestmove(&Position::startpos(), &best);
}

#[test]
fn bad_go_parameters_are_reported_and_the_search_still_answers() {
    let mut e = Engine::start();
    let start = Position::startpos();

    // `go` before any `position`: the start position.
    let (best, _) = e.go("go depth 4", ANSWER);
    check_bestmove(&start, &best);

    // A malformed depth is reported and counts as depth 1: a limited search stays limited
    // and answers by itself.
    e.send("go depth abc");
    let (lines, _) = e.search_output(ANSWER);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("abc")),
        "{lines:?}"
    );
    check_bestmove(&start, lines.last().unwrap());

    // A malformed value next to a valid limit: the valid one still applies.
    e.send("go depth xyz nodes 5000");
    let (lines, _) = e.search_output(ANSWER);
    assert!(
        lines.iter().any(|l| l.starts_with("info string error")),
        "{lines:?}"
    );
    check_bestmove(&start, lines.last().unwrap());

    // An unknown parameter is reported and skipped.
    e.send("go sideways depth 3");
    let (lines, _) = e.search_output(ANSWER);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("sideways")),
        "{lines:?}"
    );
    check_bestmove(&start, lines.last().unwrap());

    // A negative clock (the GUI let the time run out) counts as no time at all: the engine
    // answers at once with a legal move, and without an error.
    e.send("go wtime -100 btime -100");
    let (lines, took) = e.search_output(ANSWER);
    println!("go wtime -100: bestmove after {took:?}");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    check_bestmove(&start, lines.last().unwrap());
    assert!(
        took < Duration::from_millis(1000),
        "{took:?} with no time left"
    );

    // Nonsense searchmoves are reported and dropped; the valid ones restrict the root.
    e.send("go depth 4 searchmoves a2a3 e2e5 junk h2h3");
    let (lines, _) = e.search_output(ANSWER);
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .count();
    assert_eq!(errors, 2, "{lines:?}");
    let (best, _) = check_bestmove(&start, lines.last().unwrap());
    let allowed = ["a2a3", "h2h3"].map(|m| parse_uci(&start, m).unwrap());
    assert!(allowed.contains(&best), "{lines:?}");

    e.expect_silence("ucinewgame");
    let (ok, _) = e.quit(Duration::from_secs(5));
    assert!(ok);
}

#[test]
fn extra_spaces_tabs_and_crlf_are_accepted() {
    let mut e = Engine::start();
    e.send_raw("isready\r\n");
    e.expect_line("readyok", ANSWER, |l| l == "readyok");
    e.send_raw("  position \t startpos   moves  e2e4\t e7e5 \r\n");
    e.send_raw("setoption   name  Move   Overhead  value   50\r\n");
    e.send_raw("\tsetoption name\tMultiPV\tvalue\t1\t\r\n");
    assert_eq!(e.sync(), Vec::<String>::new());
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    e.send_raw("position fen 4k3/8/8/8/8/8/8/4K2R \t w  K  -  0   1 \r\n");
    assert_eq!(e.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    e.send_raw(" go \t depth   3 \r\n");
    let (lines, _) = e.search_output(ANSWER);
    check_bestmove(
        &position("4k3/8/8/8/8/8/8/4K2R w K - 0 1", false),
        lines.last().unwrap(),
    );
    e.send_raw("quit\r\n");
    let start = Instant::now();
    while e.child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "quit\\r\\n ignored"
        );
        thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn lines_that_are_not_utf8_are_bad_input_not_the_end() {
    let mut e = Engine::start();
    // A Latin-1 file name, and stray bytes: each line is answered, the session goes on.
    e.send_bytes(b"setoption name BookFile value /books/r\xe9pertoire.bin\n");
    e.send_bytes(b"\xff\xfe position startpos\n");
    e.send_bytes(b"position startpos moves e2e4 \xc3\n");
    let out = e.sync();
    assert!(
        out.iter()
            .filter(|l| l.starts_with("info string error"))
            .count()
            == 2,
        "{out:?}"
    );
    e.send("position startpos moves e2e4");
    let (lines, _) = {
        e.send("go depth 3");
        e.search_output(ANSWER)
    };
    check_bestmove(&after(START_FEN, &["e2e4"]), lines.last().unwrap());
}

// --- Searching and stopping ---------------------------------------------------------------

#[test]
fn isready_during_infinite_is_prompt_and_stop_answers_quickly() {
    let mut e = Engine::start();
    let pos = after(START_FEN, &["d2d4", "g8f6"]);
    e.send("position startpos moves d2d4 g8f6");
    e.send("go infinite");
    // Let it get going: the first info lines show the search is running.
    e.expect_line("an info line", ANSWER, |l| l.starts_with("info depth"));

    // `isready` is answered by the input loop, not after the search.
    for _ in 0..3 {
        let start = Instant::now();
        e.send("isready");
        let lines = e.collect_until("readyok", ANSWER, |l| l == "readyok");
        let took = start.elapsed();
        println!("readyok during go infinite after {took:?}");
        assert!(took < Duration::from_millis(500), "readyok took {took:?}");
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{lines:?}"
        );
    }
    // An infinite search never answers on its own.
    e.expect_no_line("bestmove before stop", Duration::from_millis(700), |l| {
        l.starts_with("bestmove")
    });

    let start = Instant::now();
    e.send("stop");
    let (lines, _) = e.search_output(ANSWER);
    let latency = start.elapsed();
    println!("stop -> bestmove latency: {latency:?} (target 200 ms)");
    assert!(
        latency < Duration::from_millis(500),
        "stop took {latency:?}"
    );
    check_bestmove(&pos, lines.last().unwrap());
    // Exactly one bestmove: nothing more comes, and the engine is ready for more.
    assert_eq!(e.sync(), Vec::<String>::new());
    // `stop` with no search running is harmless and silent.
    e.expect_silence("stop");
    let (ok, _) = e.quit(Duration::from_secs(5));
    assert!(ok);
}

#[test]
fn quit_during_a_search_exits_cleanly() {
    let mut e = Engine::start();
    e.send("go infinite");
    e.expect_line("an info line", ANSWER, |l| l.starts_with("info depth"));
    let (ok, took) = e.quit(Duration::from_secs(2));
    println!("quit during go infinite: exited after {took:?}");
    assert!(ok, "exit status not success");

    // And during a ponder search, which also waits for a command.
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 10000 btime 10000");
    e.expect_line("an info line", ANSWER, |l| l.starts_with("info depth"));
    let (ok, took) = e.quit(Duration::from_secs(2));
    println!("quit during go ponder: exited after {took:?}");
    assert!(ok, "exit status not success");
}

#[test]
fn limited_searches_answer_legal_moves_in_time() {
    let mut e = Engine::start();
    // A middlegame with both colours to move, so that the clock of the right side is used.
    let moves = [
        "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3",
    ];
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let pos = after(START_FEN, &moves);

    let (best, took) = e.go("go depth 6", ANSWER);
    println!("go depth 6: {took:?}");
    check_bestmove(&pos, &best);

    let (best, took) = e.go("go nodes 20000", ANSWER);
    println!("go nodes 20000: {took:?}");
    check_bestmove(&pos, &best);

    let (best, took) = e.go("go movetime 200", ANSWER);
    println!("go movetime 200: {took:?}");
    check_bestmove(&pos, &best);
    // (The engine may stop after an iteration once most of the time is used, so the
    // lower bound is loose; the upper one is the point.)
    assert!(
        took >= Duration::from_millis(100),
        "movetime 200 answered after {took:?}"
    );
    assert!(
        took < Duration::from_millis(1000),
        "movetime 200 answered after {took:?}"
    );

    let (best, took) = e.go("go wtime 1000 btime 1000 winc 10 binc 10", ANSWER);
    println!("go wtime 1000 btime 1000 winc 10 binc 10: {took:?}");
    check_bestmove(&pos, &best);
    assert!(
        took < Duration::from_millis(1000),
        "answered after {took:?}"
    );

    // Almost no time: answer at once, still legally.
    let (best, took) = e.go("go wtime 50 btime 50", ANSWER);
    println!("go wtime 50 btime 50: {took:?}");
    check_bestmove(&pos, &best);
    assert!(
        took < Duration::from_millis(1000),
        "answered after {took:?}"
    );
    // Black is to move, so Black's clock is the one that counts; White's is ignored.
    let (best, took) = e.go("go wtime 600000 btime 50", ANSWER);
    println!("go wtime 600000 btime 50 (black to move): {took:?}");
    check_bestmove(&pos, &best);
    assert!(
        took < Duration::from_millis(1000),
        "answered after {took:?}"
    );

    // The last move before the time control may use most of the time, but not more.
    let (best, took) = e.go("go movestogo 1 wtime 500 btime 500", ANSWER);
    println!("go movestogo 1 wtime 500 btime 500: {took:?}");
    check_bestmove(&pos, &best);
    assert!(
        took < Duration::from_millis(1000),
        "answered after {took:?}"
    );

    // And from the other side.
    e.send("position startpos moves e2e4 c7c5 g1f3");
    let pos = after(START_FEN, &["e2e4", "c7c5", "g1f3"]);
    let (best, _) = e.go("go wtime 1000 btime 1000 winc 10 binc 10", ANSWER);
    check_bestmove(&pos, &best);
}

#[test]
fn a_forced_move_under_a_clock_is_played_at_once() {
    let mut e = Engine::start();
    // White's king is checked by the rook along the first rank; g2 is covered by the h3
    // pawn, so Kh2 is the only move.
    let fen = "7k/8/8/8/8/7p/8/r6K w - - 0 1";
    let pos = position(fen, false);
    assert_eq!(legal_moves(&pos).len(), 1);
    e.send(&format!("position fen {fen}"));
    assert_eq!(e.sync(), Vec::<String>::new());
    let (best, took) = e.go("go wtime 60000 btime 60000 winc 1000 binc 1000", ANSWER);
    println!("forced move under a clock: {took:?} (target 100 ms)");
    // A few plies are searched, for a score and a ponder move.
    assert_eq!(best, "bestmove h1h2 ponder a1a3");
    assert!(
        took < Duration::from_millis(500),
        "forced move took {took:?}"
    );
    // Without a clock (a fixed-depth analysis) it is searched as usual, and still played.
    let (best, _) = e.go("go depth 5", ANSWER);
    assert!(best.starts_with("bestmove h1h2"), "{best}");
}

#[test]
fn no_legal_move_answers_bestmove_none() {
    let mut e = Engine::start();
    for (what, fen, score) in [
        (
            "checkmated",
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "mate 0",
        ),
        ("stalemated", "7k/8/8/8/8/8/5q2/7K w - - 0 1", "cp 0"),
    ] {
        assert!(legal_moves(&position(fen, false)).is_empty());
        e.send(&format!("position fen {fen}"));
        for go in ["go depth 5", "go wtime 1000 btime 1000", "go movetime 100"] {
            e.send(go);
            let (lines, took) = e.search_output(ANSWER);
            assert_eq!(lines.last().unwrap(), "bestmove (none)", "{what}, {go}");
            assert!(
                lines
                    .iter()
                    .any(|l| l == &format!("info depth 0 score {score}")),
                "{what}, {go}: {lines:?}"
            );
            assert!(took < Duration::from_millis(1000), "{what}, {go}: {took:?}");
        }
    }
}

#[test]
fn bestmove_comes_with_a_ponder_move() {
    let mut e = Engine::start();
    let (best, _) = e.go("go depth 8", ANSWER);
    let (_, ponder) = check_bestmove(&Position::startpos(), &best);
    assert!(ponder.is_some(), "no ponder move after depth 8: {best}");
}

#[test]
fn ponder_then_ponderhit_or_stop_leads_to_a_bestmove() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    // The GUI sends the position with the expected reply already played.
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6"];
    let pos = after(START_FEN, &moves);
    e.send(&format!("position startpos moves {}", moves.join(" ")));

    // Pondering ignores the clock: no answer while the opponent "thinks".
    e.send("go ponder wtime 1000 btime 1000 winc 10 binc 10");
    e.expect_no_line(
        "bestmove while pondering",
        Duration::from_millis(600),
        |l| l.starts_with("bestmove"),
    );
    // ponderhit: the expected move was played; from now on our clock runs, and the
    // search ends within this move's share of the 1000 ms.
    let start = Instant::now();
    e.send("ponderhit");
    let (lines, _) = e.search_output(ANSWER);
    let took = start.elapsed();
    println!("ponderhit -> bestmove: {took:?}");
    assert!(
        took < Duration::from_millis(1000),
        "ponderhit took {took:?}"
    );
    check_bestmove(&pos, lines.last().unwrap());

    // stop during pondering (the opponent played something else): answer at once.
    e.send("go ponder wtime 1000 btime 1000 winc 10 binc 10");
    e.expect_no_line(
        "bestmove while pondering",
        Duration::from_millis(300),
        |l| l.starts_with("bestmove"),
    );
    let start = Instant::now();
    e.send("stop");
    let (lines, _) = e.search_output(ANSWER);
    let took = start.elapsed();
    println!("stop while pondering -> bestmove: {took:?}");
    assert!(took < Duration::from_millis(500), "stop took {took:?}");
    check_bestmove(&pos, lines.last().unwrap());
    assert_eq!(e.sync(), Vec::<String>::new());
}

// --- Special moves --------------------------------------------------------------------------

#[test]
fn position_moves_with_castling_en_passant_and_promotion() {
    let mut e = Engine::start();
    // Castling short, written king to destination.
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1");
    assert_eq!(
        e.fen(),
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
    );
    // And long, for Black too.
    e.send("position startpos moves d2d4 d7d5 b1c3 b8c6 c1f4 c8f5 d1d2 d8d7 e1c1 e8c8");
    assert_eq!(
        e.fen(),
        "2kr1bnr/pppqpppp/2n5/3p1b2/3P1B2/2N5/PPPQPPPP/2KR1BNR w - - 8 6"
    );
    // En passant: the e-pawn takes d5-d6 in passing. (The FEN names the en-passant
    // square only when a capture there is possible, as after d7d5 here but not after
    // e2e4 in the tests above.)
    e.send("position startpos moves e2e4 a7a6 e4e5 d7d5");
    assert_eq!(
        e.fen(),
        "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"
    );
    e.send("position startpos moves e2e4 a7a6 e4e5 d7d5 e5d6");
    assert_eq!(
        e.fen(),
        "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    );
    // Promotion, under- and with capture: c8=N (no check), then ...gxh1=Q+ takes the
    // rook and with it White's castling right.
    e.send("position fen k7/2P5/8/8/8/8/6p1/4K2R w K - 0 1 moves c7c8n g2h1q");
    assert_eq!(e.fen(), "k1N5/8/8/8/8/8/8/4K2q w - - 0 2");
    // A promotion without the piece letter is not a move: the moves before it stand.
    e.expect_error("position fen k7/2P5/8/8/8/8/6p1/4K2R w K - 0 1 moves c7c8");
    assert_eq!(e.fen(), "k7/2P5/8/8/8/8/6p1/4K2R w K - 0 1");
    // The engine's own moves in such positions come out in the same notation.
    let fen = "k7/2P5/8/8/8/8/6p1/4K2R w K - 0 1";
    e.send(&format!("position fen {fen}"));
    let (best, _) = e.go("go depth 5", ANSWER);
    check_bestmove(&position(fen, false), &best);
}

#[test]
fn chess960_castling_in_king_takes_rook_notation() {
    let mut e = Engine::start();
    e.expect_silence("setoption name UCI_Chess960 value true");

    // The standard start position is Chess960 position 518: castling short is now
    // written king takes rook, e1h1, and leads to the usual result.
    // (`d` writes castling rights as the rooks' files in Chess960: Shredder-FEN.)
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1");
    assert_eq!(
        e.fen(),
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b ha - 5 4"
    );

    // A real Chess960 start: king d1 between rooks b1 and g1. After the bishops leave,
    // White castles long as d1b1 (king takes rook): king to c1, rook to d1. Writing d1c1
    // instead would be an ordinary king step, which UCI gives precedence.
    let start = "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1";
    e.send(&format!(
        "position fen {start} moves b2b3 b7b6 c1b2 c8b7 d1b1"
    ));
    assert_eq!(
        e.fen(),
        "nr1kqbrn/pbpppppp/1p6/8/8/1P6/PBPPPPPP/N1KRQBRN b gb - 3 3"
    );
    e.send(&format!(
        "position fen {start} moves b2b3 b7b6 c1b2 c8b7 d1c1"
    ));
    assert_eq!(
        e.fen(),
        "nr1kqbrn/pbpppppp/1p6/8/8/1P6/PBPPPPPP/NRK1QBRN b gb - 3 3"
    );

    // The engine's own castling moves use the same notation: in this position every
    // legal move of White's that is castling must be written king takes rook.
    // (`go perft 1` lists each legal move once: d1c1 is the king step, d1b1 castling.)
    let fen = "nr1kqbrn/pbpppppp/1p6/8/8/1P6/PBPPPPPP/NR1KQBRN w GBgb - 2 3";
    e.send(&format!("position fen {fen}"));
    e.send("go perft 1");
    let out = e.sync();
    for m in ["d1b1: 1", "d1c1: 1"] {
        assert!(out.iter().any(|l| l == m), "no {m}: {out:?}");
    }
    let (best, _) = e.go("go depth 5", ANSWER);
    check_bestmove(&position(fen, true), &best);
}

// --- MultiPV, options, eval and bench ---------------------------------------------------------

#[test]
fn multipv_reports_ordered_lines_with_every_field() {
    let mut e = Engine::start();
    e.expect_silence("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 6");
    let (lines, _) = e.search_output(ANSWER);
    let infos: Vec<Info> = lines.iter().filter_map(|l| parse_info(l)).collect();
    assert!(!infos.is_empty(), "{lines:?}");
    for (i, info) in infos.iter().enumerate() {
        assert!(info.depth >= 1 && info.depth <= 6, "{info:?}");
        assert!(info.seldepth >= 1, "{info:?}");
        assert!((1..=3).contains(&info.multipv), "{info:?}");
        assert!(info.nodes > 0 && info.hashfull <= 1000, "{info:?}");
        // Counters of one search only grow; the speed is positive once there are nodes.
        if i > 0 {
            let before = &infos[i - 1];
            assert!(
                info.nodes >= before.nodes && info.time >= before.time,
                "{lines:?}"
            );
            assert!(info.depth >= before.depth, "{lines:?}");
        }
        assert!(info.nps > 0, "{info:?}");
        assert!(!info.pv.is_empty(), "{info:?}");
        // Every PV is a line of legal moves from the root.
        let mut pos = Position::startpos();
        for m in &info.pv {
            let mv = parse_uci(&pos, m).unwrap_or_else(|err| panic!("{info:?}: {err}"));
            pos.make(mv);
        }
    }
    // The last iteration ends with its three lines, in order, exact and best first.
    let last: Vec<&Info> = infos.iter().rev().take(3).rev().collect();
    assert_eq!(
        last.iter()
            .map(|i| (i.depth, i.multipv))
            .collect::<Vec<_>>(),
        [(6, 1), (6, 2), (6, 3)],
        "{lines:?}"
    );
    assert!(last.iter().all(|i| i.bound.is_none()), "{lines:?}");
    assert!(
        last[0].score >= last[1].score && last[1].score >= last[2].score,
        "scores not in order: {lines:?}"
    );
    // Three different first moves, and the best one is the move played.
    let firsts: Vec<&String> = last.iter().map(|i| &i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    let best = lines.last().unwrap();
    assert!(
        best.starts_with(&format!("bestmove {} ", firsts[0])),
        "{best}"
    );
    // Every completed iteration printed all three lines.
    for depth in 1..=6 {
        let exact: Vec<u32> = infos
            .iter()
            .filter(|i| i.depth == depth && i.bound.is_none())
            .map(|i| i.multipv)
            .collect();
        assert_eq!(exact, [1, 2, 3], "depth {depth}: {lines:?}");
    }

    // MultiPV larger than the number of legal moves: one line per move.
    e.send("position fen 7k/8/8/8/8/7p/8/r6K w - - 0 1");
    e.send("go depth 4");
    let (lines, _) = e.search_output(ANSWER);
    let infos: Vec<Info> = lines.iter().filter_map(|l| parse_info(l)).collect();
    assert!(infos.iter().all(|i| i.multipv == 1), "{lines:?}");
}

#[test]
fn hash_options_and_new_game_keep_the_engine_working() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    let (first, _) = e.go("go depth 6", ANSWER);
    e.expect_silence("setoption name Hash value 64");
    e.expect_silence("setoption name Clear Hash");
    e.expect_silence("ucinewgame");
    // ucinewgame resets to the start position.
    assert_eq!(e.fen(), START_FEN);
    e.send("position startpos moves e2e4");
    let pos = after(START_FEN, &["e2e4"]);
    let (second, _) = e.go("go depth 6", ANSWER);
    check_bestmove(&pos, &first);
    check_bestmove(&pos, &second);
    // A fresh table and fresh histories make a fixed-depth search repeat itself exactly.
    e.expect_silence("ucinewgame");
    e.send("position startpos moves e2e4");
    let (third, _) = e.go("go depth 6", ANSWER);
    assert_eq!(second, third);
    e.expect_silence("setoption name Hash value 1");
    let (best, _) = e.go("go depth 6", ANSWER);
    check_bestmove(&pos, &best);
}

#[test]
fn eval_and_bench_end_with_their_summary_lines() {
    let mut e = Engine::start();
    e.send("position fen 8/8/4k3/8/8/4K3/4P3/8 w - - 0 1");
    e.send("eval");
    let lines = e.collect_until("Final evaluation", ANSWER, |l| {
        l.starts_with("Final evaluation")
    });
    let last = lines.last().unwrap();
    let number = last
        .strip_prefix("Final evaluation: ")
        .and_then(|rest| rest.strip_suffix(" (white side)"))
        .unwrap_or_else(|| panic!("{last:?}"));
    let value: i32 = number.parse().unwrap_or_else(|_| panic!("{last:?}"));
    // White has an extra pawn.
    assert!(value > 0, "{last:?}");
    assert!(lines.len() > 5, "no breakdown before the total: {lines:?}");
    // The summary is the last line: only an empty line follows, as in Stockfish.
    assert_eq!(e.sync(), vec![String::new()]);

    e.send("bench 5");
    let lines = e.collect_until("bench total", Duration::from_secs(120), |l| {
        l.ends_with(" nps")
    });
    let words: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    let total: u64 = match words[..] {
        [nodes, "nodes", nps, "nps"] if nps.parse::<u64>().is_ok() => nodes.parse().unwrap(),
        _ => panic!("bad bench total line {:?}", lines.last()),
    };
    // One line per position before the total, and it is the same total the library gets.
    assert_eq!(lines.len(), tarpon::tools::bench::POSITIONS.len() + 1);
    assert_eq!(total, tarpon::tools::bench::run(5, &mut |_| {}));
    assert_eq!(e.sync(), Vec::<String>::new());
    e.expect_error("bench 0");
    e.expect_error("bench deep");
}

// --- Syzygy tablebases ---------------------------------------------------------------------

/// The `info` lines (with a score) among `lines`.
fn infos(lines: &[String]) -> Vec<Info> {
    lines.iter().filter_map(|l| parse_info(l)).collect()
}

#[test]
fn syzygy_path_brings_tablebase_scores_and_tbhits() {
    let dir = common::syzygy_dir();
    let mut e = Engine::start();
    let out = e.expect_accepted(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string Syzygy: ") && l.contains(" WDL and ")),
        "{out:?}"
    );
    // KR v K: the root is in the tables; the score is the tables' win, shown in centipawns.
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go depth 8");
    let (lines, _) = e.search_output(ANSWER);
    let last = infos(&lines).pop().expect("an info line");
    assert!(last.tbhits > 0 && last.score == 20_000, "{last:?}");
    check_bestmove(&position(fen, false), lines.last().unwrap());
    // Five pieces: the root is outside the tables, the search probes them below it.
    e.send("position fen 8/8/4k3/8/2p5/3r4/4Q3/1K6 b - - 0 1");
    e.send("go depth 9");
    let (lines, _) = e.search_output(ANSWER);
    assert!(infos(&lines).iter().any(|i| i.tbhits > 0), "{lines:?}");
    // Turned off again: no probes.
    e.expect_accepted("setoption name SyzygyPath value <empty>");
    e.send(&format!("position fen {fen}"));
    e.send("go depth 6");
    let (lines, _) = e.search_output(ANSWER);
    assert!(
        infos(&lines)
            .iter()
            .all(|i| i.tbhits == 0 && i.score < 20_000),
        "{lines:?}"
    );
    let (ok, _) = e.quit(Duration::from_secs(5));
    assert!(ok);
}

#[test]
fn bad_syzygy_paths_are_reported_and_the_engine_keeps_working() {
    let mut e = Engine::start();
    let empty = common::temp_dir("empty");
    for (paths, complaint) in [
        ("/no/such/tarpon/dir".to_string(), "/no/such/tarpon/dir"),
        (empty.display().to_string(), "no table files"),
    ] {
        // Reported (the OS's own words may say "error"), not refused.
        e.send(&format!("setoption name SyzygyPath value {paths}"));
        let out = e.sync();
        assert!(
            out.iter()
                .any(|l| l.starts_with("info string") && l.contains(complaint)),
            "{out:?}"
        );
        let (best, _) = e.go("go depth 4", ANSWER);
        check_bestmove(&Position::startpos(), &best);
    }
    std::fs::remove_dir_all(&empty).ok();
    let (ok, _) = e.quit(Duration::from_secs(5));
    assert!(ok);
}
