//! Right answers in a GUI, each checked with the exact input a GUI (or a person) sends:
//! a forced move still gets a score and a ponder move, a malformed clock never turns a
//! timed `go` into an endless search, a `bestmove` answers only its own `go`, a lone king
//! against a queen is scored as lost, and the small protocol details GUIs rely on
//! (`bestmove (none)`, `currmove`, Shredder-FEN in Chess960, `help`, `eval`'s last line).
//!
//! A rejected `position` is tested in tests/all/uci_session.rs, beside the other bad input.

use std::time::{Duration, Instant};
use tarpon::chess::Position;
use tarpon::chess::notation::parse_uci;

use crate::common;

use common::engine::{Engine, check_bestmove};

/// Long, for a loaded machine; the times that matter are asserted separately.
const ANSWER: Duration = Duration::from_secs(20);

/// Sends `go` and returns every line up to its `bestmove`, with the time it took.
fn search(e: &mut Engine, go: &str, timeout: Duration) -> (Vec<String>, Duration) {
    let start = Instant::now();
    e.send(go);
    let lines = e.collect_until("bestmove", timeout, |l| l.starts_with("bestmove"));
    (lines, start.elapsed())
}

/// The word after `key` in a line.
fn after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == key)?;
    words.get(i + 1).copied()
}

/// The last `info ... score` line (no bound) of a search's output.
fn last_score_line(lines: &[String]) -> &str {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" score ") && !l.contains("bound"))
        .unwrap_or_else(|| panic!("no info line with a score: {lines:?}"))
}

#[test]
fn a_forced_move_under_a_clock_gets_a_score_and_a_ponder_move() {
    let mut e = Engine::start();
    // The king has one move (e1d1): the queen on g2 covers everything else.
    let fen = "7k/8/8/8/8/8/6q1/4K3 w - - 0 1";
    let pos = Position::from_fen(fen, false).unwrap();
    e.send(&format!("position fen {fen}"));
    for go in [
        "go movetime 500",
        "go wtime 60000 btime 60000 winc 1000 binc 1000",
    ] {
        let (lines, took) = search(&mut e, go, ANSWER);
        println!("{go}: {took:?}");
        let info = last_score_line(&lines);
        assert_eq!(after(info, "score"), Some("cp"), "{go}: not a mate: {info}");
        let depth: i32 = after(info, "depth").unwrap().parse().unwrap();
        assert!(depth >= 2, "{go}: searched a few plies: {info}");
        let (best, ponder) = check_bestmove(&pos, lines.last().unwrap());
        assert_eq!(best, parse_uci(&pos, "e1d1").unwrap());
        assert!(ponder.is_some(), "{go}: no ponder move: {lines:?}");
        assert!(took < Duration::from_millis(2000), "{go}: took {took:?}");
    }
}

#[test]
fn a_malformed_clock_still_gives_a_timed_answer() {
    let mut e = Engine::start();
    let start = Position::startpos();
    // Numbers written as decimals or with an exponent are read as numbers.
    for go in [
        "go wtime 5000.0 btime 5000",
        "go wtime 1e4 btime 1e4",
        "go movetime 300.5",
    ] {
        let (lines, took) = search(&mut e, go, ANSWER);
        println!("{go}: {took:?}");
        assert!(
            !lines.iter().any(|l| l.contains("error")),
            "{go}: {lines:?}"
        );
        check_bestmove(&start, lines.last().unwrap());
        assert!(took < Duration::from_millis(3000), "{go}: took {took:?}");
    }
    // What cannot be read is reported and counts as no time left: an answer at once.
    for go in [
        "go wtime abc btime 5000",
        "go wtime btime 5000",
        "go movetime x",
    ] {
        let (lines, took) = search(&mut e, go, ANSWER);
        println!("{go}: {took:?}");
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: go")),
            "{go}: {lines:?}"
        );
        check_bestmove(&start, lines.last().unwrap());
        assert!(took < Duration::from_millis(1500), "{go}: took {took:?}");
    }
}

#[test]
fn only_stop_ends_an_infinite_search_with_a_bestmove() {
    let mut e = Engine::start();
    let quiet = |e: &mut Engine, what: &str, ms: u64| {
        e.expect_no_line(what, Duration::from_millis(ms), |l| {
            l.starts_with("bestmove")
        });
    };
    e.send("go infinite");
    quiet(&mut e, "bestmove during go infinite", 300);
    // An analysis GUI changes MultiPV mid-analysis: the analysis goes on, with two lines.
    e.send("setoption name MultiPV value 2");
    let lines = e.collect_until("a second line", ANSWER, |l| l.contains(" multipv 2 "));
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("setoption name Clear Hash");
    quiet(&mut e, "bestmove after setoption", 300);
    e.send("ucinewgame");
    quiet(&mut e, "bestmove after ucinewgame", 300);
    // `ucinewgame` ended the analysis; a new one starts, and is replaced by another.
    e.send("setoption name MultiPV value 1");
    e.send("go infinite");
    quiet(&mut e, "bestmove during go infinite", 200);
    e.send("position startpos moves e2e4");
    e.send("go infinite");
    quiet(&mut e, "bestmove of the replaced search", 300);
    e.send("stop");
    let lines = e.collect_until("bestmove", ANSWER, |l| l.starts_with("bestmove"));
    let mut pos = Position::startpos();
    pos.make(parse_uci(&pos, "e2e4").unwrap());
    check_bestmove(&pos, lines.last().unwrap());
    // Exactly one answer: nothing follows.
    e.send("isready");
    let rest = e.collect_until("readyok", ANSWER, |l| l == "readyok");
    assert!(!rest.iter().any(|l| l.starts_with("bestmove")), "{rest:?}");
    // `go ponder` likewise, until `ponderhit` or `stop`.
    e.send("go ponder wtime 10000 btime 10000");
    quiet(&mut e, "bestmove while pondering", 200);
    e.send("setoption name MultiPV value 1");
    quiet(&mut e, "bestmove after setoption while pondering", 200);
    e.send("ponderhit");
    let lines = e.collect_until("bestmove", ANSWER, |l| l.starts_with("bestmove"));
    check_bestmove(&pos, lines.last().unwrap());
}

/// A GUI that stops an analysis right after starting it (or a person who types `stop` at
/// once) still gets a searched move: here the mate in one, not the first legal move.
#[test]
fn a_search_stopped_at_once_answers_a_searched_move() {
    let mut e = Engine::start();
    // Scholar's mate: Qxf7# among 42 legal moves.
    e.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    for _ in 0..5 {
        e.send("go infinite");
        e.send("stop");
        let lines = e.collect_until("bestmove", ANSWER, |l| l.starts_with("bestmove"));
        let best = lines.last().unwrap().split_whitespace().nth(1);
        assert_eq!(best, Some("f3f7"), "{lines:?}");
        let info = last_score_line(&lines);
        assert_eq!(after(info, "mate"), Some("1"), "{info}");
    }
}

#[test]
fn a_lone_king_against_mating_material_is_scored_as_lost() {
    let mut e = Engine::start();
    e.send("setoption name UCI_ShowWDL value true");
    // King and queen against king, the lone king to move; rook, and bishop and knight.
    for (fen, least) in [
        ("8/8/8/4k3/8/8/8/1Q2K3 b - - 0 1", 700),
        ("8/8/8/4k3/8/8/8/R3K3 b - - 0 1", 400),
        ("8/8/8/4k3/8/8/8/1BN1K3 b - - 0 1", 400),
    ] {
        e.send(&format!("position fen {fen}"));
        let (lines, _) = search(&mut e, "go depth 6", ANSWER);
        let info = last_score_line(&lines);
        let lost = match after(info, "score") {
            Some("cp") => after(info, "cp").unwrap().parse::<i32>().unwrap() <= -least,
            Some("mate") => after(info, "mate").unwrap().starts_with('-'),
            _ => false,
        };
        assert!(lost, "{fen}: {info}");
        let loss: u32 = info
            .split_whitespace()
            .skip_while(|w| *w != "wdl")
            .nth(3)
            .unwrap()
            .parse()
            .unwrap();
        assert!(loss >= 950, "{fen}: {info}");
        // `eval` says that the search does not use the network here.
        e.send("eval");
        let out = e.sync();
        assert!(
            out.iter().any(|l| l.contains("lone king")),
            "{fen}: {out:?}"
        );
    }
}

#[test]
fn currmove_lines_come_in_long_searches() {
    let mut e = Engine::start();
    e.send("go infinite");
    let lines = e.collect_until("currmove", Duration::from_secs(30), |l| {
        l.contains("currmove")
    });
    e.send("stop");
    e.collect_until("bestmove", ANSWER, |l| l.starts_with("bestmove"));
    let line = lines.last().unwrap();
    let start = Position::startpos();
    parse_uci(&start, after(line, "currmove").unwrap()).expect("a legal root move");
    let number: usize = after(line, "currmovenumber").unwrap().parse().unwrap();
    assert!((1..=20).contains(&number), "{line}");
    assert!(after(line, "depth").is_some(), "{line}");
}

#[test]
fn small_protocol_details() {
    let mut e = Engine::start();
    // Chess960: `d` shows Shredder-FEN castling rights (the rooks' files).
    e.send("setoption name UCI_Chess960 value true");
    e.send("position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    let out = e.sync();
    assert!(out.is_empty(), "{out:?}");
    e.send("d");
    let out = e.sync();
    let fen = out.iter().find(|l| l.starts_with("Fen: ")).unwrap();
    assert_eq!(
        fen,
        "Fen: bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    );
    e.send("position startpos");
    e.send("d");
    let out = e.sync();
    assert!(
        out.iter()
            .any(|l| l.starts_with("Fen: ") && l.contains(" w HAha - ")),
        "{out:?}"
    );
    // `eval` ends with an empty line, like Stockfish's.
    e.send("eval");
    let out = e.sync();
    assert_eq!(out.last().map(String::as_str), Some(""), "{out:?}");
    // `help` answers with the commands.
    e.send("help");
    let out = e.sync();
    for command in ["uci", "position", "go", "stop", "quit"] {
        assert!(
            out.iter().any(|l| l.trim_start().starts_with(command)),
            "help lacks {command}: {out:?}"
        );
    }
    // A GUI on a pipe gets no greeting before `uci`: the first line is `id name`.
    let mut fresh = Engine::start();
    fresh.send("uci");
    let first = fresh.next_line(ANSWER).unwrap();
    assert!(first.starts_with("id name "), "{first}");
}

#[test]
fn analyse_reports_a_real_score_for_a_forced_move() {
    // Before, the forced move came out as `#0 for White, depth 0`, which lichess and En
    // Croissant read as a mate.
    let fen = "7k/8/8/8/8/8/6q1/4K3 w - - 0 1";
    let (ok, out, err) = common::engine::run(&["analyse", "--fen", fen, "--movetime", "200"]);
    assert!(ok, "{err}");
    let best = out
        .lines()
        .find(|l| l.starts_with("Best move:"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(best.starts_with("Best move: 1. Kd1 (-"), "{best}");
    assert!(!best.contains('#') && !best.contains("depth 0"), "{best}");
}

/// The `info` lines of the last block a search sent before its `bestmove` (its
/// `multipv 1` line and the lines after it), with the `bestmove` line.
fn final_block(lines: &[String]) -> (&[String], &str) {
    let (answer, before) = lines.split_last().expect("a bestmove");
    let first = before
        .iter()
        .rposition(|l| l.starts_with("info depth") && after(l, "multipv") == Some("1"))
        .unwrap_or_else(|| panic!("no multipv 1 line: {lines:?}"));
    (&before[first..], answer)
}

/// The words of `line` after `pv`.
fn pv_of(line: &str) -> Vec<&str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "pv").expect("a pv");
    words[at + 1..].to_vec()
}

/// A score to compare lines by: mates beyond any centipawns, shorter ones better.
fn score_order(line: &str) -> i64 {
    let value: i64 = after(line, after(line, "score").unwrap())
        .unwrap()
        .parse()
        .unwrap();
    match after(line, "score") {
        Some("mate") if value > 0 => 1_000_000 - value,
        Some("mate") => -1_000_000 - value,
        _ => value,
    }
}

/// The last `info` a GUI shows must be the move played: before, `go movetime 1500` here
/// ended on a depth-20 line `pv e1c1 c6d4 ...` and `bestmove e1c1 ponder d6d5` (a reply
/// in no line shown), and after `go nodes 20000` the last line said 14,428 nodes.
#[test]
fn the_last_info_line_is_the_move_played_with_its_ponder_move_and_all_nodes() {
    let fen = "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9";
    for threads in [1, 2] {
        let mut e = Engine::start();
        e.send(&format!("setoption name Threads value {threads}"));
        for go in ["go movetime 1500", "go nodes 20000", "go movetime 300"] {
            e.send("ucinewgame");
            e.send(&format!("position fen {fen}"));
            let (lines, _) = search(&mut e, go, ANSWER);
            let (block, answer) = final_block(&lines);
            assert_eq!(block.len(), 1, "{go}: one line: {block:?}");
            let pv = pv_of(&block[0]);
            let words: Vec<&str> = answer.split_whitespace().collect();
            assert_eq!(
                Some(&words[1]),
                pv.first(),
                "{go}, {threads} threads: {lines:?}"
            );
            if let Some(ponder) = words.get(3) {
                assert_eq!(
                    Some(ponder),
                    pv.get(1),
                    "{go}, {threads} threads: {lines:?}"
                );
            }
            if go == "go nodes 20000" {
                let nodes: u64 = after(&block[0], "nodes").unwrap().parse().unwrap();
                assert!(nodes >= 20_000, "{threads} threads: {block:?}");
            }
        }
    }
}

/// MultiPV lines at `stop`: before, line 5 kept a stale `lowerbound` of cp 3042 while
/// line 1 was cp 561. The lines sent last are one of each, best first, at most one depth
/// apart, and the `bestmove` is line 1's.
#[test]
fn multipv_lines_sent_last_are_ordered_and_current() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 5");
    e.send("position fen 7k/8/8/8/8/8/6PP/7K w - - 0 1");
    for ms in [300, 1000, 2000] {
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(ms));
        e.send("stop");
        let lines = e.collect_until("bestmove", ANSWER, |l| l.starts_with("bestmove"));
        let (block, answer) = final_block(&lines);
        let numbers: Vec<&str> = block.iter().map(|l| after(l, "multipv").unwrap()).collect();
        assert_eq!(numbers, ["1", "2", "3", "4", "5"], "{block:?}");
        let scores: Vec<i64> = block.iter().map(|l| score_order(l)).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{block:?}");
        let depths: Vec<i32> = block
            .iter()
            .map(|l| after(l, "depth").unwrap().parse().unwrap())
            .collect();
        let (low, high) = (depths.iter().min().unwrap(), depths.iter().max().unwrap());
        assert!(high - low <= 1, "{block:?}");
        assert_eq!(
            answer.split_whitespace().nth(1),
            pv_of(&block[0]).first().copied()
        );
    }
}

/// Only the other side's clock: before, `go btime 1000` with White to move searched
/// until `stop`. Now it is reported and answered at once.
#[test]
fn a_clock_for_the_side_not_to_move_only_still_answers_in_time() {
    let mut e = Engine::start();
    for (position, go) in [
        ("position startpos", "go btime 1000"),
        ("position startpos moves e2e4", "go wtime 1000 winc 100"),
    ] {
        e.send(position);
        let (lines, took) = search(&mut e, go, ANSWER);
        assert!(took < Duration::from_millis(1000), "{go}: {took:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("error") && l.contains("side to move")),
            "{lines:?}"
        );
    }
}

/// `movestogo 0` (or less) is sudden death: before, it was "one move to the time control"
/// and this `go` spent 9 s of the 10 s clock on one move.
#[test]
fn movestogo_zero_or_less_is_sudden_death() {
    let mut e = Engine::start();
    for go in [
        "go wtime 10000 btime 10000 movestogo 0",
        "go wtime 10000 btime 10000 movestogo -3",
    ] {
        let (_, took) = search(&mut e, go, ANSWER);
        assert!(took < Duration::from_millis(3000), "{go}: {took:?}");
    }
}

/// A script that sends its commands in a row: before, the second `go` (or a `ucinewgame`
/// or `setoption`) cut the first limited search to depth 1. Each now finishes first.
#[test]
fn the_next_command_waits_for_a_limited_search() {
    for between in [
        "position startpos moves e2e4",
        "ucinewgame",
        "setoption name Hash value 8",
        "setoption name Clear Hash",
        "setoption name Threads value 2",
    ] {
        let input = format!("position startpos\ngo depth 12\n{between}\ngo depth 12\n");
        let (ok, out, err) = common::engine::run_with_input(&[], &input);
        assert!(ok, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        let answers: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with("bestmove"))
            .collect();
        assert_eq!(answers.len(), 2, "{between}: {out}");
        for &i in &answers {
            let info = lines[..i]
                .iter()
                .rev()
                .find(|l| l.starts_with("info depth"))
                .unwrap();
            assert_eq!(after(info, "depth"), Some("12"), "{between}: {out}");
        }
    }
}

/// `go movetime` is searched as given: before, `movetime 100` with `Move Overhead` 100
/// answered in 2-5 ms at depth 4.
#[test]
fn movetime_is_not_cut_by_the_move_overhead() {
    let mut e = Engine::start();
    e.send("setoption name Move Overhead value 100");
    let (_, took) = search(&mut e, "go movetime 100", ANSWER);
    assert!(took >= Duration::from_millis(90), "{took:?}");
}

/// A mate that deeper iterations only repeat ends the deepening: before, a mated or mating
/// root iterated to depth ~238 in milliseconds (lichess-bot printed "Depth: 238").
#[test]
fn a_settled_mate_ends_the_deepening() {
    let mut e = Engine::start();
    for (fen, go) in [
        ("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", "go movetime 5000"),
        (
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "go wtime 60000 btime 60000",
        ),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go infinite"),
    ] {
        e.send(&format!("position fen {fen}"));
        let lines = if go == "go infinite" {
            e.send(go);
            let lines = e.collect_until("mate", ANSWER, |l| l.contains(" mate "));
            std::thread::sleep(Duration::from_millis(500));
            e.send("stop");
            [
                lines,
                e.collect_until("bestmove", ANSWER, |l| l.starts_with("bestmove")),
            ]
            .concat()
        } else {
            let (lines, took) = search(&mut e, go, ANSWER);
            assert!(took < Duration::from_millis(1000), "{fen}: {took:?}");
            lines
        };
        let deepest = lines
            .iter()
            .filter_map(|l| after(l, "depth")?.parse::<i32>().ok())
            .max()
            .unwrap_or(0);
        assert!(deepest <= 10, "{fen}: depth {deepest}");
    }
}

/// `analyse` on the same position: before, its last row said +0.35 and its summary +0.16.
/// The summary is the last row: the same score, depth and nodes.
#[test]
fn analyse_summary_is_its_last_row() {
    let fen = "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9";
    for limit in [["--movetime", "1500"], ["--nodes", "20000"]] {
        let args = [&["analyse", "--fen", fen][..], &limit[..]].concat();
        let (ok, out, err) = common::engine::run(&args);
        assert!(ok, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        let summary = lines
            .iter()
            .position(|l| l.starts_with("Best move:"))
            .unwrap();
        let row: Vec<&str> = lines[summary - 1].split_whitespace().collect();
        let (depth, score, nodes) = (row[0], row[1], row[2]);
        let expected = format!("({score} for White, depth {depth}, {nodes} nodes,");
        assert!(lines[summary].contains(&expected), "{limit:?}: {out}");
    }
}

/// Dead draws scored as draws without tablebases: before, two knights against a king were
/// +1.50 at depth 31, a drawn king and pawn against king +1.60 at depth 10, and a
/// position at a fifty-move count of 100 scored 2570 at depth 1.
#[test]
fn dead_draws_are_scored_as_draws() {
    let mut e = Engine::start();
    for (fen, go) in [
        ("8/8/8/4k3/8/8/8/KNN5 w - - 0 1", "go depth 20"),
        ("8/8/8/4k3/8/8/8/KNN5 b - - 0 1", "go depth 20"),
        ("8/4k3/8/8/8/8/4P3/4K3 b - - 0 1", "go depth 10"),
        ("8/4k3/8/8/8/8/4P3/4K3 w - - 0 1", "go depth 10"),
        ("7k/8/6K1/7P/8/8/8/8 w - - 0 1", "go depth 16"),
        ("8/8/8/4k3/8/8/8/KQ6 w - - 100 80", "go depth 1"),
        ("8/8/2k5/8/8/2K5/8/1R6 w - - 100 120", "go depth 1"),
    ] {
        e.send(&format!("position fen {fen}"));
        let (lines, _) = search(&mut e, go, ANSWER);
        let info = last_score_line(&lines);
        assert_eq!(after(info, "score"), Some("cp"), "{fen}: {info}");
        assert_eq!(after(info, "cp"), Some("0"), "{fen}: {info}");
    }
    // A won king and pawn ending stays won, and a mate on the hundredth ply counts.
    for (fen, win) in [
        ("8/8/8/3k4/8/3K4/3P4/8 w - - 0 1", false),
        ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", true),
        ("7k/8/6K1/8/8/8/8/R7 w - - 99 90", true),
    ] {
        e.send(&format!("position fen {fen}"));
        let (lines, _) = search(&mut e, "go depth 12", ANSWER);
        let info = last_score_line(&lines);
        let positive = match after(info, "score") {
            Some("mate") => after(info, "mate").unwrap().parse::<i32>().unwrap() > 0,
            _ => after(info, "cp").unwrap().parse::<i32>().unwrap() > 100,
        };
        assert_eq!(positive, win, "{fen}: {info}");
    }
}
