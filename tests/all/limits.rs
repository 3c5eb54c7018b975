//! The engine at the edges of what a GUI can send: a `Hash` larger than the memory, a
//! `position` line with thousands of moves, clocks that are negative or absurdly large,
//! and `go depth 255` in positions where the search really goes that deep (mates, forced
//! lines, dead draws). Each must end with a legal `bestmove`, soon, and the engine must
//! keep working afterwards.
//!
//! Time limits are generous (a loaded machine); the times taken are printed.

use crate::common;

use common::engine::Engine;
use std::time::{Duration, Instant};
use tarpon::chess::Position;
use tarpon::chess::notation::parse_uci;

const ANSWER: Duration = Duration::from_secs(20);

impl Engine {
    /// Sends `command` (`go ...` or `stop`) and returns the `bestmove` line, every line
    /// before it, and the time. (Not `go`: `uci_session` gives `Engine` a `go` of its own,
    /// and the methods that the modules of this test binary add to one type share one
    /// namespace.)
    fn until_bestmove(
        &mut self,
        command: &str,
        timeout: Duration,
    ) -> (String, Vec<String>, Duration) {
        let start = Instant::now();
        self.send(command);
        let mut lines = self.collect_until("bestmove", timeout, |l| l.starts_with("bestmove"));
        let best = lines.pop().unwrap();
        (best, lines, start.elapsed())
    }
}

/// The best move of a `bestmove` line, which must be legal in `position` (as must its
/// ponder move after it).
fn legal_bestmove(position: &Position, line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let best = words.get(1).unwrap_or_else(|| panic!("{line:?}"));
    let m = parse_uci(position, best).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    if let ["bestmove", _, "ponder", reply] = words[..] {
        let mut next = position.clone();
        next.make(m);
        parse_uci(&next, reply).unwrap_or_else(|e| panic!("{line:?}: ponder {e}"));
    }
    best.to_string()
}

fn position_after(fen: &str, moves: &[String]) -> Position {
    let mut position = Position::from_fen(fen, false).unwrap();
    for text in moves {
        let m = parse_uci(&position, text).unwrap();
        position.make(m);
    }
    position
}

/// The machine's free memory in MiB (Linux), for choosing a `Hash` it cannot hold.
fn available_mib() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

#[test]
fn a_hash_too_large_for_memory_is_refused_and_the_old_table_kept() {
    let mut e = Engine::start();
    e.send("setoption name Hash value 32");
    assert!(e.sync().is_empty());
    // More than the machine has free, but within the option's range, so the engine
    // must find out by itself that it cannot have it. (On a machine with more than 32 GB
    // free, there is no such value and the check is skipped.)
    match available_mib().map(|mib| 2 * mib) {
        Some(mib) if mib <= 65536 => {
            let started = Instant::now();
            e.send(&format!("setoption name Hash value {mib}"));
            let out = e.sync();
            println!("Hash {mib}: {out:?} after {:?}", started.elapsed());
            assert!(
                out.iter().any(|l| l.starts_with("info string error")
                    && l.contains("available")
                    && l.contains("keeping 32 MB")),
                "{out:?}"
            );
        }
        _ => println!("skipped the too-large Hash: no MemAvailable, or more than 32 GB free"),
    }
    // Values beyond the option's range are refused without trying.
    for value in ["65537", "18446744073709551616", "-1"] {
        e.send(&format!("setoption name Hash value {value}"));
        let out = e.sync();
        assert!(
            out.iter().any(|l| l.starts_with("info string error")),
            "Hash {value}: {out:?}"
        );
    }
    // The table still works.
    e.send("position startpos moves e2e4");
    let (best, lines, _) = e.until_bestmove("go depth 8", ANSWER);
    legal_bestmove(
        &position_after(tarpon::chess::fen::START_FEN, &["e2e4".into()]),
        &best,
    );
    assert!(lines.iter().any(|l| l.contains(" hashfull ")), "{lines:?}");
}

#[test]
fn position_lines_with_thousands_of_moves() {
    let mut e = Engine::start();
    let start = tarpon::chess::fen::START_FEN;

    // 4,000 plies of knights going out and back. Repetitions and the fifty-move rule do
    // not end a `position` line: the GUI decides when a game is over.
    let shuffle: Vec<String> = ["g1f3", "g8f6", "f3g1", "f6g8"]
        .iter()
        .cycle()
        .take(4000)
        .map(|m| m.to_string())
        .collect();
    e.send(&format!("position startpos moves {}", shuffle.join(" ")));
    let out = e.sync();
    assert!(out.is_empty(), "{out:?}");
    let position = position_after(start, &shuffle);
    let (best, _, took) = e.until_bestmove("go wtime 1000 btime 1000", ANSWER);
    legal_bestmove(&position, &best);
    println!("4000 plies: bestmove after {took:?}");
    // The fifty-move count is far beyond 100 here, and a search must still treat the
    // first capture or pawn move as a fresh start.
    let (best, _, took) = e.until_bestmove("go depth 10", ANSWER);
    legal_bestmove(&position, &best);
    println!("4000 plies, depth 10: bestmove after {took:?}");

    // A long game whose repetitions stay inside the fifty-move window: 92 plies of
    // shuffling between pawn moves, so the search must look back through long histories
    // for repetitions at every node.
    let pawn_moves = [
        ("a2a3", "a7a6"),
        ("a3a4", "a6a5"),
        ("h2h3", "h7h6"),
        ("h3h4", "h6h5"),
        ("b2b3", "b7b6"),
        ("b3b4", "b6b5"),
        ("g2g3", "g7g6"),
        ("g3g4", "g6g5"),
    ];
    let mut moves = Vec::new();
    for (white, black) in pawn_moves {
        moves.extend(shuffle[..92].iter().cloned());
        moves.push(white.to_string());
        moves.push(black.to_string());
    }
    moves.extend(shuffle[..88].iter().cloned());
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    assert!(e.sync().is_empty());
    let position = position_after(start, &moves);
    assert!(position.board().halfmove_clock() == 88 && moves.len() > 800);
    let (best, _, took) = e.until_bestmove("go wtime 2000 btime 2000 winc 20 binc 20", ANSWER);
    legal_bestmove(&position, &best);
    println!("{} plies: bestmove after {took:?}", moves.len());
}

#[test]
fn negative_and_absurd_clocks() {
    let mut e = Engine::start();
    let start = Position::startpos();
    for go in [
        "go wtime -5 btime -100000",
        "go wtime 0 btime 0",
        "go wtime -9223372036854775808 btime -1 winc -50 binc -50",
        "go wtime 1 btime 1 movestogo 0",
        "go wtime 10 btime 10 winc 99999999999999 binc 99999999999999",
        "go movetime -1",
        "go movetime 0",
    ] {
        let (best, lines, took) = e.until_bestmove(go, ANSWER);
        println!("{go}: {best} after {took:?}");
        assert!(
            !lines.iter().any(|l| l.contains("error")),
            "{go}: {lines:?}"
        );
        legal_bestmove(&start, &best);
        assert!(took < Duration::from_secs(5), "{go}: {took:?}");
    }
    // A clock too large to ever run out, even beyond 64 bits: a search that goes on
    // until `stop`, then answers at once.
    for go in [
        "go wtime 99999999999999 btime 99999999999999",
        "go wtime 99999999999999999999999999 btime 1",
        "go movetime 99999999999999999999999999",
    ] {
        e.send(go);
        let out = e.sync();
        assert!(
            !out.iter().any(|l| l.starts_with("bestmove")),
            "{go}: {out:?}"
        );
        assert!(!out.iter().any(|l| l.contains("error")), "{go}: {out:?}");
        std::thread::sleep(Duration::from_millis(200));
        let (best, _, took) = e.until_bestmove("stop", ANSWER);
        println!("{go}, stop: {best} after {took:?}");
        legal_bestmove(&start, &best);
        assert!(took < Duration::from_secs(5), "{go}: stop took {took:?}");
    }
}

/// The deepest ply any `info` line reports (`seldepth`).
fn deepest_seldepth(lines: &[String]) -> u32 {
    lines
        .iter()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "seldepth")?;
            words.get(at + 1)?.parse().ok()
        })
        .max()
        .unwrap_or(0)
}

/// `go depth 255` where the search can actually finish: forced mates found at shallow
/// depth (every deeper iteration is then cut short by mate-distance pruning), positions
/// without legal moves, and dead draws. The search runs all the way to the deepest
/// iteration its arrays allow.
#[test]
fn depth_255_finishes_in_mates_and_dead_positions() {
    let mut e = Engine::start();
    for (fen, what) in [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "back-rank mate in 1"),
        ("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", "queen mate in 1"),
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            "mate in 2",
        ),
        (
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            "mate in 3, king hunt",
        ),
        ("8/8/8/8/8/1k6/8/K1q5 w - - 0 1", "checkmated"),
        ("7k/5Q2/5K2/8/8/8/8/8 b - - 0 1", "stalemate"),
        ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", "bare kings"),
        (
            "8/8/4k3/8/8/3K1B2/8/8 w - - 0 1",
            "king and bishop against king",
        ),
    ] {
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        let position = Position::from_fen(fen, false).unwrap();
        let (best, lines, took) = e.until_bestmove("go depth 255", Duration::from_secs(60));
        println!(
            "{what}: {best} after {took:?}, seldepth {}, {}",
            deepest_seldepth(&lines),
            lines
                .iter()
                .rev()
                .find(|l| l.starts_with("info depth"))
                .map_or("", |l| &l[..30.min(l.len())])
        );
        if tarpon::chess::movegen::legal_moves(&position).is_empty() {
            assert_eq!(best, "bestmove (none)");
        } else {
            legal_bestmove(&position, &best);
            let last = lines
                .iter()
                .rev()
                .find(|l| l.starts_with("info depth"))
                .unwrap();
            assert!(last.starts_with("info depth 238 "), "{what}: {last}");
        }
        assert!(took < Duration::from_secs(30), "{what}: {took:?}");
    }
}

/// `go depth 255` where the search cannot finish: long forced mates, where every
/// iteration finds a longer line of checks and king moves, searched for a while and then
/// stopped. The answer must come at once, and no line may go deeper than the search's
/// arrays (`seldepth` at most 246 plies).
#[test]
fn depth_255_in_long_forced_lines_stops_cleanly() {
    let mut e = Engine::start();
    for (fen, what) in [
        ("8/8/8/3k4/8/8/8/R3K3 w - - 0 1", "rook against king"),
        ("8/8/8/2k5/8/8/8/4K2Q w - - 0 1", "queen against king"),
        (
            "8/8/8/3k4/8/8/8/2B1KB2 w - - 0 1",
            "two bishops against king",
        ),
        (
            "6k1/5p1p/6p1/8/8/8/q4PPP/3Q2K1 w - - 0 1",
            "queens and checks",
        ),
    ] {
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        let position = Position::from_fen(fen, false).unwrap();
        e.send("go depth 255");
        std::thread::sleep(Duration::from_millis(1500));
        let (best, lines, took) = e.until_bestmove("stop", ANSWER);
        let seldepth = deepest_seldepth(&lines);
        println!("{what}: {best} {took:?} after stop, seldepth {seldepth}");
        legal_bestmove(&position, &best);
        assert!(seldepth <= 246, "{what}: seldepth {seldepth}");
        assert!(took < Duration::from_secs(5), "{what}: stop took {took:?}");
    }
}
