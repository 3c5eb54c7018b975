//! Pondering as UCI defines it, with one and with two search threads: after `go ponder`
//! the engine sends no `bestmove` on its own, whatever happens in its search (the depth or
//! node limit reached, a mate found, a single legal move, no legal move at all), until
//! `ponderhit` or `stop`; after `ponderhit` it plays by the clock sent with `go ponder`,
//! counted from the `ponderhit`; after `stop` it answers at once, with a ponder move.
//!
//! The last test has python-chess (`scripts/ponder_check.py`) play moves with pondering on,
//! as a GUI would. It needs python3 with python-chess, which `make test` installs; plain
//! `cargo test` without it says that the test is skipped (see `common::skip`).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
use tarpon::chess::Position;
use tarpon::chess::notation::parse_uci;

use crate::common;

use common::engine::{Engine, TARPON, check_bestmove};
use common::position;

/// Generous: the machine running the tests may be loaded.
const ANSWER: Duration = Duration::from_secs(20);
/// How long the engine must stay silent while pondering: far longer than the searches
/// below need to reach their limits.
const SILENCE: Duration = Duration::from_millis(300);

/// An engine with `Ponder` on and `threads` search threads.
fn engine(threads: usize) -> Engine {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send(&format!("setoption name Threads value {threads}"));
    e
}

impl Engine {
    /// Sends `go`, checks that no `bestmove` comes for `SILENCE`, then sends `command`
    /// (`ponderhit` or `stop`) and returns the `bestmove` line and how long it took after
    /// `command`.
    fn ponder_then(&mut self, go: &str, command: &str) -> (String, Duration) {
        self.send(go);
        self.expect_no_line("bestmove while pondering", SILENCE, |l| {
            l.starts_with("bestmove")
        });
        let start = Instant::now();
        self.send(command);
        let line = self.expect_line("bestmove", ANSWER, |l| l.starts_with("bestmove"));
        (line, start.elapsed())
    }

    /// Checks that the engine answers `isready` and has nothing else to say.
    fn quiet(&mut self) {
        self.send("isready");
        let lines = self.collect_until("readyok", ANSWER, |l| l == "readyok");
        assert_eq!(lines, ["readyok"], "{}", self.tail());
    }
}

const MIDDLEGAME: &str = "r1bq1rk1/pp2b1pp/n1p1pn2/3p1p2/2PP4/6PN/PPQNPPBP/R1B2RK1 w - - 6 9";

#[test]
fn a_ponder_search_that_reaches_its_limits_still_waits() {
    for threads in [1, 2] {
        let mut e = engine(threads);
        let pos = position(MIDDLEGAME);
        e.send(&format!("position fen {MIDDLEGAME}"));
        // Depth 3 and 2000 nodes take a few milliseconds; the answer waits for ponderhit,
        // and then comes at once.
        for go in [
            "go ponder depth 3 wtime 60000 btime 60000",
            "go ponder nodes 2000 wtime 60000 btime 60000",
        ] {
            let (best, took) = e.ponder_then(go, "ponderhit");
            println!("{threads} thread(s), {go}: ponderhit -> bestmove {took:?}");
            assert!(took < Duration::from_millis(500), "{go}: {took:?}");
            check_bestmove(&pos, &best);
            e.quiet();
        }
    }
}

#[test]
fn a_forced_move_a_mate_or_no_move_is_not_sent_while_pondering() {
    for threads in [1, 2] {
        let mut e = engine(threads);
        // One legal move (Kh2): without pondering it is played at once under a clock; when
        // pondering, it waits, and ponderhit answers at once even with a long clock.
        e.send("position fen 7k/8/8/8/8/7p/8/r6K w - - 0 1");
        let (best, took) = e.ponder_then("go ponder wtime 60000 btime 60000", "ponderhit");
        println!("{threads} thread(s), forced move: ponderhit -> bestmove {took:?}");
        assert!(best.starts_with("bestmove h1h2"), "{best}");
        assert!(took < Duration::from_millis(500), "forced move: {took:?}");
        e.quiet();

        // Mate in one (Rd8#), found at depth 1.
        e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        let (best, took) = e.ponder_then("go ponder wtime 60000 btime 60000", "stop");
        assert!(best.starts_with("bestmove d1d8"), "{best}");
        assert!(
            took < Duration::from_millis(500),
            "mate: stop took {took:?}"
        );
        e.quiet();

        // Checkmated: nothing to play, but still no answer before stop.
        e.send("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        let (best, _) = e.ponder_then("go ponder wtime 60000 btime 60000", "stop");
        assert_eq!(best, "bestmove (none)");
        e.quiet();
    }
}

#[test]
fn ponderhit_starts_the_clock_when_it_arrives() {
    for threads in [1, 2] {
        let mut e = engine(threads);
        let pos = position(MIDDLEGAME);
        e.send(&format!("position fen {MIDDLEGAME}"));
        // Ponder for longer than the move time: if the clock had started at `go`, the
        // answer would come at once on ponderhit. It must take (nearly) the whole
        // 600 ms from ponderhit instead.
        e.send("go ponder movetime 600");
        e.expect_no_line(
            "bestmove while pondering",
            Duration::from_millis(900),
            |l| l.starts_with("bestmove"),
        );
        let start = Instant::now();
        e.send("ponderhit");
        let best = e.expect_line("bestmove", ANSWER, |l| l.starts_with("bestmove"));
        let took = start.elapsed();
        println!("{threads} thread(s), movetime 600: ponderhit -> bestmove {took:?}");
        assert!(
            took >= Duration::from_millis(400),
            "answered after {took:?}"
        );
        assert!(
            took < Duration::from_millis(3000),
            "answered after {took:?}"
        );
        check_bestmove(&pos, &best);

        // On a real clock the answer comes within this move's share of it.
        let (best, took) = e.ponder_then(
            "go ponder wtime 2000 btime 2000 winc 20 binc 20",
            "ponderhit",
        );
        println!("{threads} thread(s), wtime 2000: ponderhit -> bestmove {took:?}");
        assert!(
            took < Duration::from_millis(2000),
            "answered after {took:?}"
        );
        check_bestmove(&pos, &best);
        e.quiet();
    }
}

#[test]
fn stop_while_pondering_answers_with_a_legal_ponder_move() {
    for threads in [1, 2] {
        let mut e = engine(threads);
        let moves = ["e2e4", "e7e5", "g1f3", "b8c6"];
        let mut pos = Position::startpos();
        for m in moves {
            let mv = parse_uci(&pos, m).unwrap();
            pos.make(mv);
        }
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let (best, took) = e.ponder_then("go ponder wtime 10000 btime 10000", "stop");
        println!("{threads} thread(s): stop while pondering -> bestmove {took:?}");
        assert!(took < Duration::from_millis(500), "stop took {took:?}");
        let (_, ponder) = check_bestmove(&pos, &best);
        assert!(ponder.is_some(), "no ponder move after 300 ms: {best}");
        e.quiet();
    }
}

#[test]
fn python_chess_plays_with_ponder_on() {
    let Some(python) = common::python_chess("python_chess_plays_with_ponder_on") else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/ponder_check.py");
    let out = Command::new(&python)
        .arg(&script)
        .arg(TARPON)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", python.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "{} failed:\n{stdout}{stderr}",
        script.display()
    );
}
