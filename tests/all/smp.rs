//! The multi-threaded search (`Threads` above 1): MultiPV and `searchmoves` with helper
//! threads, `go nodes` counting every thread, `bench` with threads, moves from the shared
//! table that are illegal in the position, and a stress test that drives the real program
//! with 2 and 4 threads through random interleavings of `go`, `stop`, `ponderhit`,
//! `ucinewgame`, `isready`, `position` and `setoption`, checking every `bestmove`.

use std::collections::VecDeque;
use std::thread;
use std::time::{Duration, Instant};
use tarpon::chess::movegen::legal_moves;
use tarpon::chess::notation::to_uci;
use tarpon::chess::{Move, Position};
use tarpon::search::SearchControl;
use tarpon::search::SearchOptions;
use tarpon::search::threads::SearchThreads;
use tarpon::search::timeman::Limits;
use tarpon::search::tt::{Bound, TranspositionTable};
use tarpon::tools::bench;

use crate::common;

use common::engine::{Engine, check_bestmove};
use common::{Rng, position};

const ANSWER: Duration = Duration::from_secs(20);

/// The `multipv` number and first PV move of an exact `info` line (no bound).
fn exact_line(line: &str) -> Option<(u32, u32, String)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info")
        || words.contains(&"lowerbound")
        || words.contains(&"upperbound")
    {
        return None;
    }
    let after = |key: &str| {
        let i = words.iter().position(|w| *w == key)?;
        words.get(i + 1).copied()
    };
    let depth = after("depth")?.parse().ok()?;
    let multipv = after("multipv")?.parse().ok()?;
    Some((depth, multipv, after("pv")?.to_string()))
}

#[test]
fn multipv_and_searchmoves_work_with_helper_threads() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 9");
    let lines = e.collect_until("bestmove", ANSWER, |l| l.starts_with("bestmove"));
    let exact: Vec<(u32, u32, String)> = lines.iter().filter_map(|l| exact_line(l)).collect();
    // Every completed iteration, the last included, has its three lines in order, with
    // three different first moves; the first is the move played.
    for depth in 1..=9 {
        let of_depth: Vec<&(u32, u32, String)> =
            exact.iter().filter(|(d, _, _)| *d == depth).collect();
        let numbers: Vec<u32> = of_depth.iter().map(|(_, n, _)| *n).collect();
        assert_eq!(numbers, [1, 2, 3], "depth {depth}: {lines:#?}");
        let firsts: Vec<&String> = of_depth.iter().map(|(_, _, m)| m).collect();
        assert!(
            firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
            "depth {depth}: {firsts:?}"
        );
    }
    let last_best = &exact.iter().rev().find(|(_, n, _)| *n == 1).unwrap().2;
    let best = lines.last().unwrap();
    assert!(best.starts_with(&format!("bestmove {last_best}")), "{best}");

    // searchmoves: every thread searches only those.
    e.send("setoption name MultiPV value 1");
    e.send("position startpos");
    e.send("go depth 8 searchmoves a2a3 h2h4");
    let best = e.expect_line("bestmove", ANSWER, |l| l.starts_with("bestmove"));
    let (mv, _) = check_bestmove(&Position::startpos(), &best);
    let text = to_uci(&Position::startpos(), mv);
    assert!(text == "a2a3" || text == "h2h4", "{best}");
}

#[test]
fn go_nodes_counts_the_nodes_of_every_thread() {
    let tt = TranspositionTable::new(16);
    let control = SearchControl::default();
    let pos = position("r1bq1rk1/pp2b1pp/n1p1pn2/3p1p2/2PP4/6PN/PPQNPPBP/R1B2RK1 w - - 6 9");
    for threads in [1, 2, 4] {
        let mut searchers = SearchThreads::new(threads);
        let limit = 30_000;
        let limits = Limits {
            nodes: Some(limit),
            ..Limits::default()
        };
        let result = searchers.search(&pos, limits, &[], SearchOptions::default(), &tt, &control);
        // Threads see one another's counts every 1024 of their nodes, so the total may
        // overshoot by about that much per thread, never by a whole thread's search.
        let slack = 4096 * threads as u64;
        println!(
            "{threads} thread(s), go nodes {limit}: {} nodes",
            result.nodes
        );
        assert!(result.nodes >= limit, "{threads} threads: {}", result.nodes);
        assert!(
            result.nodes < limit + slack,
            "{threads} threads: {}",
            result.nodes
        );
        assert!(legal_moves(&pos).contains(result.best));
    }
}

#[test]
fn bench_runs_with_threads() {
    let mut lines = Vec::new();
    let total = bench::run_with(4, 2, 8, &mut |line| lines.push(line.to_string()));
    assert_eq!(lines.len(), bench::POSITIONS.len() + 1);
    assert!(total > 0);
    assert!(lines.last().unwrap().ends_with(" nps"), "{lines:?}");
}

/// Positions two plies from the start, each with a move stored in the table that is
/// illegal there (or garbage): the search must check every move it takes from the table
/// (another thread, or a key collision, may have put it there) and never play one.
#[test]
fn illegal_table_moves_are_never_played() {
    let start = Position::startpos();
    let mut rng = Rng::new(7);
    for threads in [1, 2] {
        let tt = TranspositionTable::new(4);
        for first in legal_moves(&start).iter() {
            let mut pos = start.clone();
            pos.make(*first);
            // With Black to move, White's first move again is illegal; so is garbage.
            tt.store(pos.key(), *first, 0, 0, -8, Bound::Upper);
            for second in legal_moves(&pos).iter() {
                let mut deeper = pos.clone();
                deeper.make(*second);
                let garbage = Move::from_bits(rng.next_u64() as u16);
                tt.store(deeper.key(), garbage, 0, 0, -8, Bound::Upper);
            }
        }
        let mut searchers = SearchThreads::new(threads);
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let control = SearchControl::default();
        let result = searchers.search(&start, limits, &[], SearchOptions::default(), &tt, &control);
        assert!(legal_moves(&start).contains(result.best));
    }
}

// --- Stress --------------------------------------------------------------------------------

/// A search the test is waiting for: the position it searches and, with `searchmoves`, the
/// moves it may answer.
struct Pending {
    pos: Position,
    allowed: Vec<Move>,
    /// `go infinite` or `go ponder`: answers only `stop` (or, for ponder, after
    /// `ponderhit`); a later `go` or `ucinewgame` ends it without an answer.
    waits: bool,
    ponder: bool,
}

impl Pending {
    fn new(pos: &Position, go: &str, allowed: Vec<Move>) -> Pending {
        let infinite = go.contains("infinite");
        let ponder = go.contains("ponder") && !infinite;
        Pending {
            pos: pos.clone(),
            allowed,
            waits: infinite || ponder,
            ponder,
        }
    }
}

/// A `go` or `ucinewgame` ends a search that still waits for `stop` without its
/// `bestmove`: nobody expects that one any more.
fn drop_waiting(pending: &mut VecDeque<Pending>) {
    if pending.back().is_some_and(|p| p.waits) {
        pending.pop_back();
    }
}

/// The engine's current position as the test knows it, and the command that set it.
struct Current {
    pos: Position,
    command: String,
}

/// A random position: a bench position (openings to bare endgames, some with mates) or a
/// finished game, with up to three random moves played.
fn random_position(rng: &mut Rng) -> Current {
    const ENDED: [&str; 2] = [
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "7k/8/8/8/8/8/5q2/7K w - - 0 1",
    ];
    let fen = if rng.chance(5) {
        *rng.pick(&ENDED)
    } else {
        *rng.pick(&bench::POSITIONS)
    };
    let mut pos = position(fen);
    let mut moves = Vec::new();
    for _ in 0..rng.below(4) {
        let legal = legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        moves.push(to_uci(&pos, m));
        pos.make(m);
    }
    let command = if moves.is_empty() {
        format!("position fen {fen}")
    } else {
        format!("position fen {fen} moves {}", moves.join(" "))
    };
    Current { pos, command }
}

/// A random `go` for `pos`, with the moves its answer may be (all, or its searchmoves).
fn random_go(rng: &mut Rng, pos: &Position) -> (String, Vec<Move>) {
    let legal: Vec<Move> = legal_moves(pos).iter().copied().collect();
    let go = match rng.below(8) {
        0 => format!("go depth {}", 2 + rng.below(8)),
        1 => format!("go nodes {}", 1000 + rng.below(50_000)),
        2 => format!("go movetime {}", 5 + rng.below(80)),
        3 => {
            let t = 50 + rng.below(3000);
            format!("go wtime {t} btime {t} winc 10 binc 10")
        }
        4 => "go infinite".to_string(),
        5 => "go ponder wtime 1000 btime 1000".to_string(),
        6 if legal.len() >= 2 => {
            let a = legal[rng.below(legal.len())];
            let b = legal[rng.below(legal.len())];
            let text = format!(
                "go depth {} searchmoves {} {}",
                3 + rng.below(5),
                to_uci(pos, a),
                to_uci(pos, b)
            );
            return (text, vec![a, b]);
        }
        _ => format!("go mate {}", 1 + rng.below(3)),
    };
    (go, legal)
}

/// Reads the engine's output until `readyoks` more `readyok` lines have come, checking
/// each `bestmove` against the oldest search still waiting for one.
fn drain(e: &mut Engine, pending: &mut VecDeque<Pending>, mut readyoks: usize) {
    while readyoks > 0 {
        let line = e.expect_line("readyok or bestmove", ANSWER, |l| {
            l == "readyok" || l.starts_with("bestmove") || l.contains("error")
        });
        if line == "readyok" {
            readyoks -= 1;
        } else if line.starts_with("bestmove") {
            let Some(search) = pending.pop_front() else {
                panic!("a bestmove nobody asked for: {line}\n{}", e.tail());
            };
            if search.allowed.is_empty() {
                assert_eq!(line, "bestmove (none)", "{}", e.tail());
            } else {
                let (best, _) = check_bestmove(&search.pos, &line);
                assert!(
                    search.allowed.contains(&best),
                    "{line} is not among the searchmoves\n{}",
                    e.tail()
                );
            }
        } else {
            panic!("engine error: {line}\n{}", e.tail());
        }
    }
}

/// Random command sequences with `threads` threads for about `rounds` rounds.
fn stress(threads: usize, seed: u64, rounds: usize) {
    let mut rng = Rng::new(seed);
    let mut e = Engine::start();
    e.send(&format!("setoption name Threads value {threads}"));
    e.send("setoption name Hash value 8");
    let mut pending = VecDeque::new();
    let mut bestmoves = 0;
    for _ in 0..rounds {
        let mut readyoks = 0;
        let mut current = random_position(&mut rng);
        e.send(&current.command);
        let (go, allowed) = random_go(&mut rng, &current.pos);
        e.send(&go);
        pending.push_back(Pending::new(&current.pos, &go, allowed));
        // Whatever a GUI might send while the engine thinks, at random moments.
        for _ in 0..rng.below(4) {
            thread::sleep(Duration::from_millis(rng.below(40) as u64));
            match rng.below(9) {
                0 | 1 => {
                    e.send("stop");
                    if let Some(last) = pending.back_mut() {
                        last.waits = false;
                    }
                }
                2 => {
                    e.send("isready");
                    readyoks += 1;
                }
                3 => {
                    e.send("ucinewgame");
                    drop_waiting(&mut pending);
                    current = Current {
                        pos: Position::startpos(),
                        command: "position startpos".to_string(),
                    };
                }
                4 => {
                    current = random_position(&mut rng);
                    e.send(&current.command);
                }
                5 => {
                    let (go, allowed) = random_go(&mut rng, &current.pos);
                    drop_waiting(&mut pending);
                    e.send(&go);
                    pending.push_back(Pending::new(&current.pos, &go, allowed));
                }
                6 => {
                    e.send("ponderhit");
                    if let Some(last) = pending.back_mut().filter(|p| p.ponder) {
                        last.waits = false;
                    }
                }
                7 => e.send(&format!(
                    "setoption name Threads value {}",
                    1 + rng.below(threads)
                )),
                _ => e.send(&format!(
                    "setoption name MultiPV value {}",
                    1 + rng.below(3)
                )),
            }
        }
        // End the round: whatever still runs is stopped, and every search has answered
        // by the time `readyok` comes.
        e.send("stop");
        e.send("isready");
        let before = pending.len();
        drain(&mut e, &mut pending, readyoks + 1);
        bestmoves += before;
        assert!(
            pending.is_empty(),
            "searches without a bestmove\n{}",
            e.tail()
        );
        // Back to the full thread count now and then.
        if rng.chance(30) {
            e.send(&format!("setoption name Threads value {threads}"));
        }
    }
    e.send("quit");
    let status = e.child.wait().expect("wait for tarpon");
    assert!(status.success(), "exit status {status}");
    println!("{threads} threads: {rounds} rounds, {bestmoves} legal bestmoves");
}

#[test]
fn stress_two_threads() {
    let start = Instant::now();
    stress(2, 2, 150);
    println!("2 threads: {:?}", start.elapsed());
}

#[test]
fn stress_four_threads() {
    let start = Instant::now();
    stress(4, 4, 150);
    println!("4 threads: {:?}", start.elapsed());
}
