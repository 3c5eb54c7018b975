//! `UCI_ShowWDL` and the strength limits (`UCI_LimitStrength` with `UCI_Elo`, `Skill
//! Level`), through the real UCI loop.
//!
//! WDL: every scored `info` line carries `wdl <w> <d> <l>` summing to 1000, and the numbers
//! follow the score. Strength: every setting answers quickly with a legal move, a weak one
//! does not always play the same move, and the search stays within its node budget.

use std::collections::HashSet;
use std::time::{Duration, Instant};
use tarpon::chess::notation::parse_uci;
use tarpon::chess::{Outcome, Position};
use tarpon::search::skill::Skill;

use crate::common;

use common::engine::{Engine, check_bestmove};

/// Generous: the machine running the tests may be loaded.
const ANSWER: Duration = Duration::from_secs(20);

/// Runs `go` and returns the `info` lines and the `bestmove` line.
fn search(e: &mut Engine, go: &str) -> (Vec<String>, String) {
    e.send(go);
    let mut lines = e.collect_until("bestmove", ANSWER, |l| l.starts_with("bestmove"));
    let best = lines.pop().unwrap();
    (lines, best)
}

/// The (w, d, l) of an `info` line, and its centipawn score if it has one.
fn wdl_of(line: &str) -> Option<((u32, u32, u32), Option<i32>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "wdl")?;
    let n = |i: usize| words[at + i].parse::<u32>().unwrap();
    let cp = words
        .iter()
        .position(|&w| w == "cp")
        .map(|i| words[i + 1].parse::<i32>().unwrap());
    Some(((n(1), n(2), n(3)), cp))
}

fn wdl_engine() -> Engine {
    let mut e = Engine::start();
    e.send("setoption name UCI_ShowWDL value true");
    e
}

#[test]
fn every_score_has_wdl_summing_to_a_thousand() {
    let mut e = wdl_engine();
    for (fen, multipv) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            1,
        ),
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            3,
        ),
        ("8/5k2/8/3K4/8/8/4P3/8 w - - 0 1", 2),
    ] {
        e.send(&format!("setoption name MultiPV value {multipv}"));
        e.send(&format!("position fen {fen}"));
        let (infos, best) = search(&mut e, "go depth 8");
        check_bestmove(&Position::from_fen(fen, false).unwrap(), &best);
        let scored: Vec<&String> = infos.iter().filter(|l| l.contains(" score ")).collect();
        assert!(!scored.is_empty());
        for line in scored {
            let ((w, d, l), _) = wdl_of(line).unwrap_or_else(|| panic!("no wdl in {line}"));
            assert_eq!(w + d + l, 1000, "{line}");
        }
    }
    // Without the option, no wdl.
    e.send("setoption name UCI_ShowWDL value false");
    e.send("position startpos");
    let (infos, _) = search(&mut e, "go depth 5");
    assert!(infos.iter().all(|l| !l.contains(" wdl ")), "{infos:?}");
}

#[test]
fn wdl_follows_the_score() {
    let mut e = wdl_engine();
    // White a queen up, Black a queen up, and a dead-level position.
    let cases = [
        ("4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 w - - 0 1", '+'),
        ("3qk3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", '-'),
        ("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", '='),
    ];
    for (fen, expect) in cases {
        e.send(&format!("position fen {fen}"));
        let (infos, _) = search(&mut e, "go depth 7");
        let last = infos.iter().rev().find(|l| l.contains(" wdl ")).unwrap();
        let ((w, d, l), cp) = wdl_of(last).unwrap();
        match expect {
            '+' => assert!(w > 900 && l < 20, "{last}"),
            '-' => assert!(l > 900 && w < 20, "{last}"),
            _ => assert!(d > w && d > l && cp.unwrap().abs() < 100, "{last}"),
        }
    }
    // A mate shows as certain.
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let (infos, _) = search(&mut e, "go depth 4");
    let last = infos.iter().rev().find(|l| l.contains(" wdl ")).unwrap();
    assert!(last.contains("score mate 1 wdl 1000 0 0"), "{last}");
}

#[test]
fn every_strength_setting_answers_quickly_with_a_legal_move() {
    let mut e = Engine::start();
    let fen = "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7";
    let pos = Position::from_fen(fen, false).unwrap();
    e.send(&format!("position fen {fen}"));
    e.send("setoption name UCI_LimitStrength value true");
    for elo in (800..=2800).step_by(200) {
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        let start = Instant::now();
        // The clock of the calibration games (10+0.1): the budget ends the searches of
        // the lower settings, the clock those of the highest; either way they are quick.
        let (infos, best) = search(&mut e, "go wtime 10000 btime 10000 winc 100 binc 100");
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{elo}: {:?}",
            start.elapsed()
        );
        check_bestmove(&pos, &best);
        let budget = Skill::from_elo(elo).nodes();
        let nodes = last_nodes(&infos);
        // `go nodes` is checked every so many nodes: allow that much over.
        assert!(
            nodes <= budget + 2048,
            "{elo}: {nodes} nodes, budget {budget}"
        );
    }
    e.send("setoption name UCI_LimitStrength value false");
    for level in [0, 5, 10, 15, 19, 20] {
        e.send(&format!("setoption name Skill Level value {level}"));
        let (_, best) = search(&mut e, "go movetime 300");
        check_bestmove(&pos, &best);
    }
}

/// The `nodes` of the last `info` line that has them.
fn last_nodes(infos: &[String]) -> u64 {
    infos
        .iter()
        .rev()
        .find_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|&w| w == "nodes")?;
            words[at + 1].parse().ok()
        })
        .unwrap_or(0)
}

#[test]
fn a_weak_setting_varies_its_moves_and_full_strength_does_not() {
    let mut e = Engine::start();
    // Several reasonable moves: a weak player does not always choose the same.
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    e.send("setoption name Skill Level value 0");
    let mut weak = HashSet::new();
    for _ in 0..16 {
        e.send("ucinewgame");
        let (_, best) = search(&mut e, "go movetime 200");
        weak.insert(best.split_whitespace().nth(1).unwrap().to_string());
    }
    assert!(weak.len() >= 2, "always {weak:?}");
    e.send("setoption name Skill Level value 20");
    let mut full = HashSet::new();
    for _ in 0..4 {
        e.send("ucinewgame");
        let (_, best) = search(&mut e, "go depth 6");
        full.insert(best.split_whitespace().nth(1).unwrap().to_string());
    }
    assert_eq!(full.len(), 1, "{full:?}");
}

/// Before, every limited setting answered in 1 to 3 ms whatever the clock: `Skill Level`
/// 0 with `go movetime 1000` in 2 ms, `UCI_Elo` 1350 at 5+3 in 1 ms.
#[test]
fn a_limited_setting_takes_a_persons_time_and_stop_ends_it() {
    let mut e = Engine::start();
    e.send("setoption name Skill Level value 0");
    e.send("position startpos");
    let start = Instant::now();
    search(&mut e, "go movetime 1000");
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(950), "{took:?}");
    // On a clock: a share of what the clock allows, and `stop` answers at once.
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1350");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8");
    let start = Instant::now();
    search(&mut e, "go wtime 60000 btime 60000 winc 1000 binc 1000");
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_secs(12),
        "{took:?}"
    );
    e.send("go wtime 300000 btime 300000 winc 3000 binc 3000");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    e.send("stop");
    e.collect_until("bestmove", ANSWER, |l| l.starts_with("bestmove"));
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "{:?}",
        start.elapsed()
    );
    // Without a clock (`go depth`, `go nodes`) there is no one to wait for.
    let start = Instant::now();
    search(&mut e, "go depth 3");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

/// Plays `moves` moves at most from `fen`, the side to move being Tarpon at `elo`, the
/// other full-strength Tarpon; the outcome and the moves played by the limited side.
fn play_ending(elo: i32, fen: &str, moves: usize) -> (Option<Outcome>, usize) {
    let mut weak = Engine::start();
    weak.send("setoption name UCI_LimitStrength value true");
    weak.send(&format!("setoption name UCI_Elo value {elo}"));
    let mut strong = Engine::start();
    let mut pos = Position::from_fen(fen, false).unwrap();
    let mut played = Vec::new();
    let attacker = pos.board().side_to_move();
    let mut count = 0;
    while pos.outcome().is_none() && count < moves {
        let e = if pos.board().side_to_move() == attacker {
            count += 1;
            &mut weak
        } else {
            &mut strong
        };
        let line = format!("position fen {fen} moves {}", played.join(" "));
        e.send(line.trim_end());
        let (_, best) = search(e, "go nodes 100000");
        let text = best.split_whitespace().nth(1).unwrap().to_string();
        let m = parse_uci(pos.board(), &text).unwrap();
        pos.make(m);
        played.push(text);
    }
    (pos.outcome(), count)
}

/// Before, `UCI_Elo` 1200 and 2000 drew K+R v K and K+B+B v K by repetition or the
/// fifty-move rule, and 1200 even K+Q v K: a choice at random among moves a few centipawns
/// apart walks the king in circles.
#[test]
fn limited_settings_mate_with_queen_rook_and_two_bishops() {
    for (elo, fen) in [
        (1200, "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1"),
        (1200, "8/8/8/8/4k3/8/8/R3K3 w - - 0 1"),
        (1200, "8/8/2k5/8/8/8/6K1/7R w - - 0 1"),
        (1800, "8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1"),
    ] {
        let (outcome, moves) = play_ending(elo, fen, 50);
        assert!(
            matches!(outcome, Some(Outcome::Checkmate { .. })),
            "{elo} from {fen}: {outcome:?} after {moves} moves"
        );
    }
}
