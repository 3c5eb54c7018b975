//! NNUE inference: the incremental accumulators against from-scratch ones, the vector
//! kernels against the portable ones, colour symmetry, and the UCI options `EvalFile` and
//! `Use NNUE`.
//!
//! The accumulator and symmetry tests use random networks (`Network::random`), so they
//! check the engine's arithmetic whatever network is embedded; the UCI tests use the
//! embedded network and networks written to a temporary directory.

use crate::common;

use common::engine::{Engine, check_bestmove};
use common::{Rng, flip_fen, perft_positions, sample_positions};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;
use tarpon::chess::movegen::{legal_moves, noisy_moves};
use tarpon::chess::{Board, Color, Move, MoveKind, PieceType, Position, fen};
use tarpon::eval::EVAL_LIMIT;
use tarpon::eval::nnue::format::{HIDDEN, KingBucketError, Network, NetworkError};
use tarpon::eval::nnue::simd::{Kernels, Lanes, MAX_OUTPUT_WEIGHT};
use tarpon::eval::nnue::{Accumulator, AccumulatorStack, EMBEDDED_NAME, LoadError, Net};
use tarpon::learn::train::king_layouts;
use tarpon::search::history::Histories;
use tarpon::search::timeman::Limits;
use tarpon::search::tt::TranspositionTable;
use tarpon::search::{SearchControl, SearchOptions, SearchResult, think};

fn random_net(seed: u64) -> Net {
    Net::from_network(&Network::random(seed), "random").expect("a random network is valid")
}

/// A random network of `H` neurons with the king buckets of trainer layout `layout`.
fn random_bucketed_net<const H: usize>(seed: u64, layout: &str) -> Net<H> {
    let kings = king_layouts::named(layout).unwrap();
    Net::from_network(&Network::random_shaped(seed, H, kings), "random")
        .expect("a random network is valid")
}

// --- Incremental updates ------------------------------------------------------------------

/// What the random games went through, so the test can show the special moves were made.
#[derive(Default, Debug)]
struct Stats {
    games: usize,
    moves: usize,
    checks: usize,
    captures: usize,
    castlings: usize,
    /// Chess960 castlings where the king or rook ends on a square one of them started on.
    overlapping_castlings: usize,
    en_passants: usize,
    promotions: usize,
    under_promotions: usize,
    null_moves: usize,
    unmakes: usize,
    /// King moves that took the king to another bucket, or across the d/e file boundary
    /// (of the network's king buckets, if it has any).
    bucket_changes: usize,
    file_crossings: usize,
}

/// A position and its accumulator stack, moved in step as the search moves them.
struct Line<'a, const H: usize> {
    pos: Position,
    stack: AccumulatorStack<H>,
    net: &'a Net<H>,
    stats: &'a mut Stats,
}

impl<'a, const H: usize> Line<'a, H> {
    fn new(pos: Position, net: &'a Net<H>, kernels: Kernels, stats: &'a mut Stats) -> Line<'a, H> {
        let mut stack = AccumulatorStack::with_kernels(kernels);
        stack.reset(&pos, net);
        Line {
            pos,
            stack,
            net,
            stats,
        }
    }

    fn make(&mut self, m: Move) {
        let s = &mut *self.stats;
        s.moves += 1;
        match m.kind() {
            MoveKind::Castling => {
                s.castlings += 1;
                let (king_to, rook_to) = self.pos.castling_destinations(m.from(), m.to());
                let starts = [m.from(), m.to()];
                if starts.contains(&king_to) || starts.contains(&rook_to) {
                    s.overlapping_castlings += 1;
                }
            }
            MoveKind::EnPassant => s.en_passants += 1,
            MoveKind::Promotion => {
                s.promotions += 1;
                if m.promotion_piece() != Some(PieceType::Queen) {
                    s.under_promotions += 1;
                }
            }
            MoveKind::Normal => {}
        }
        if m.kind() != MoveKind::Castling && self.pos.piece_on(m.to()).is_some() {
            s.captures += 1;
        }
        let us = self.pos.side_to_move();
        let king = self.pos.king_square(us);
        if m.from() == king {
            let to = match m.kind() {
                MoveKind::Castling => self.pos.castling_destinations(m.from(), m.to()).0,
                _ => m.to(),
            };
            let kings = self.net.king_buckets();
            let bucket = |sq| kings.view(us, sq).slot() / 2;
            s.bucket_changes += usize::from(bucket(king) != bucket(to));
            s.file_crossings += usize::from((king.file() >= 4) != (to.file() >= 4));
        }
        self.stack.push(&self.pos, m);
        self.pos.make(m);
    }

    fn make_null(&mut self) {
        self.stats.null_moves += 1;
        self.stack.push_null();
        self.pos.make_null();
    }

    fn unmake(&mut self) {
        self.stats.unmakes += 1;
        self.stack.pop();
        self.pos.unmake();
    }

    /// The stack's accumulator (brought up to date from wherever it was last computed)
    /// must equal one computed from scratch, and so must the scores.
    fn check(&mut self) {
        self.stats.checks += 1;
        let want = Accumulator::from_board(&self.pos, self.net);
        let got = self.stack.current(&self.pos, self.net);
        if *got != want {
            let moves: Vec<String> = self.pos.moves_played().map(|m| format!("{m:?}")).collect();
            panic!(
                "incremental accumulator differs from a refresh at {} after {moves:?} ({})",
                self.pos.fen(),
                self.stack.kernels().name()
            );
        }
        assert_eq!(
            self.stack.evaluate(&self.pos, self.net),
            self.net.evaluate(&self.pos),
            "{}",
            self.pos.fen()
        );
    }
}

/// A random legal move that favours the moves the test is about: castling, en passant
/// and promotions whenever there are any, and captures often.
fn choose(rng: &mut Rng, board: &Board) -> Option<Move> {
    choose_walking(rng, board, 0)
}

/// [`choose`], but a king move `king_walks` percent of the time when there is one, so
/// that kings wander across the board (and its king buckets).
fn choose_walking(rng: &mut Rng, board: &Board, king_walks: usize) -> Option<Move> {
    let moves = legal_moves(board);
    if moves.is_empty() {
        return None;
    }
    let king = board.king_square(board.side_to_move());
    let king_moves: Vec<Move> = moves.iter().copied().filter(|m| m.from() == king).collect();
    if !king_moves.is_empty() && rng.chance(king_walks) {
        return Some(*rng.pick(&king_moves));
    }
    let special: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.kind() != MoveKind::Normal)
        .collect();
    let noisy = noisy_moves(board);
    Some(if !special.is_empty() && rng.chance(60) {
        *rng.pick(&special)
    } else if !noisy.is_empty() && rng.chance(40) {
        *rng.pick(noisy.as_slice())
    } else {
        *rng.pick(moves.as_slice())
    })
}

/// A small search-like tree below the current position: moves and null moves nested
/// `depth` deep, checked at some nodes only, so that updates also run over several plies.
fn tree<const H: usize>(line: &mut Line<H>, rng: &mut Rng, depth: usize, king_walks: usize) {
    if depth == 0 {
        return;
    }
    for _ in 0..2 {
        if !line.pos.in_check() && rng.chance(15) {
            line.make_null();
        } else if let Some(m) = choose_walking(rng, &line.pos, king_walks) {
            line.make(m);
        } else {
            return;
        }
        if rng.chance(50) {
            line.check();
        }
        tree(line, rng, depth - 1, king_walks);
        line.unmake();
        if rng.chance(30) {
            line.check();
        }
    }
}

/// A random game from `fen` of at most `plies` plies (null moves sometimes among them),
/// with trees below some positions, then taken back move by move to the root.
#[allow(clippy::too_many_arguments)]
fn play_game<const H: usize>(
    fen: &str,
    chess960: bool,
    plies: usize,
    net: &Net<H>,
    kernels: Kernels,
    king_walks: usize,
    rng: &mut Rng,
    stats: &mut Stats,
) {
    let pos = Position::from_fen(fen, chess960).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut line = Line::new(pos, net, kernels, stats);
    line.stats.games += 1;
    line.check();
    for _ in 0..plies {
        if rng.chance(15) {
            tree(&mut line, rng, 3, king_walks);
        }
        if !line.pos.in_check() && rng.chance(4) {
            line.make_null();
        } else if let Some(m) = choose_walking(rng, &line.pos, king_walks) {
            line.make(m);
        } else {
            break;
        }
        // Unchecked plies leave the next check several updates to catch up on.
        if rng.chance(70) {
            line.check();
        }
    }
    while line.stack.ply() > 0 {
        line.unmake();
        if rng.chance(50) {
            line.check();
        }
    }
    assert_eq!(line.pos.plies_played(), 0, "back at the root");
    line.check();
}

#[test]
fn incremental_accumulators_equal_a_refresh_after_every_move() {
    let net = random_net(0xACC);
    let positions = perft_positions();
    for kernels in Kernels::available() {
        let mut stats = Stats::default();
        let mut rng = Rng::new(0x1A2B_3C4D);
        for _ in 0..40 {
            play_game(
                fen::START_FEN,
                false,
                120,
                &net,
                kernels,
                0,
                &mut rng,
                &mut stats,
            );
        }
        for (text, chess960) in &positions {
            play_game(text, *chess960, 60, &net, kernels, 0, &mut rng, &mut stats);
        }
        eprintln!("{}: {stats:?}", kernels.name());
        assert!(stats.games >= 1000, "{stats:?}");
        assert!(stats.checks >= 50_000, "{stats:?}");
        assert!(stats.captures >= 10_000, "{stats:?}");
        assert!(stats.castlings >= 1000, "{stats:?}");
        assert!(stats.overlapping_castlings >= 100, "{stats:?}");
        assert!(stats.en_passants >= 100, "{stats:?}");
        assert!(stats.promotions >= 500, "{stats:?}");
        assert!(stats.under_promotions >= 300, "{stats:?}");
        assert!(stats.null_moves >= 1000, "{stats:?}");
    }
}

/// Random games with kings walking often, with a network of `H` neurons: every stack
/// accumulator checked against a refresh from scratch. Returns what the games went through.
fn walk_kings<const H: usize>(net: &Net<H>, games: usize, kernels: Kernels, seed: u64) -> Stats {
    let mut stats = Stats::default();
    let mut rng = Rng::new(seed);
    let positions = perft_positions();
    for game in 0..games {
        // The start position, and the perft suites' positions (castling rights both ways,
        // Chess960, en passant, promotions about to happen).
        let (text, chess960) = if game % 3 == 0 {
            (fen::START_FEN.to_string(), false)
        } else {
            positions[rng.below(positions.len())].clone()
        };
        play_game(&text, chess960, 100, net, kernels, 30, &mut rng, &mut stats);
    }
    stats
}

#[test]
fn incremental_accumulators_with_king_buckets_equal_a_refresh_after_every_move() {
    // 512 neurons (the width the next network is to have, whatever this build embeds),
    // sixteen mirrored king buckets, every set of kernels.
    let net = random_bucketed_net::<512>(0x4B1D, "16");
    assert_eq!(net.king_buckets().count(), 16);
    for kernels in Kernels::available() {
        let stats = walk_kings(&net, 300, kernels, 0x5EED_0001);
        eprintln!("{}: {stats:?}", kernels.name());
        assert!(stats.checks >= 15_000, "{stats:?}");
        assert!(stats.bucket_changes >= 2_000, "{stats:?}");
        assert!(stats.file_crossings >= 1_000, "{stats:?}");
        assert!(stats.castlings >= 100, "{stats:?}");
        assert!(stats.en_passants >= 20, "{stats:?}");
        assert!(stats.promotions >= 100, "{stats:?}");
        assert!(stats.null_moves >= 500, "{stats:?}");
    }
    // The other layouts, the width of this build.
    for layout in ["1", "4", "8", "32"] {
        let net = random_bucketed_net::<HIDDEN>(7, layout);
        let stats = walk_kings(&net, 60, Kernels::best(), 0x5EED_0002);
        assert!(stats.file_crossings >= 200, "{layout}: {stats:?}");
    }
}

#[test]
fn incremental_accumulators_of_the_embedded_network_equal_a_refresh_with_kings_walking() {
    let net = Net::embedded();
    let stats = walk_kings(&net, 150, Kernels::best(), 0x5EED_0003);
    assert!(stats.checks >= 8_000, "{stats:?}");
    assert!(stats.file_crossings >= 500, "{stats:?}");
}

/// `text` reflected left to right (a1 <-> h1), without castling rights or en passant
/// square.
fn mirror_fen(text: &str) -> String {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let ranks: Vec<String> = fields[0]
        .split('/')
        .map(|rank| rank.chars().rev().collect())
        .collect();
    format!("{} {} - - 0 1", ranks.join("/"), fields[1])
}

#[test]
fn with_mirrored_king_buckets_a_position_and_its_mirror_image_are_the_same_to_the_network() {
    let net = random_bucketed_net::<HIDDEN>(21, "8");
    let mut differ = 0;
    let mut scores = Vec::new();
    for text in sample_positions() {
        let plain = fen::to_fen(&fen::parse(&mirror_fen(&mirror_fen(&text)), false).unwrap());
        let board = fen::parse(&plain, false).unwrap();
        let mirror = fen::parse(&mirror_fen(&plain), false).unwrap();
        assert_eq!(
            Accumulator::from_board(&board, &net),
            Accumulator::from_board(&mirror, &net),
            "{plain}"
        );
        let score = net.evaluate(&board);
        assert_eq!(score, net.evaluate(&mirror), "{plain}");
        scores.push(score);
        // A network without mirroring tells them apart (so the test can fail).
        let unmirrored = random_net(21);
        differ += usize::from(unmirrored.evaluate(&board) != unmirrored.evaluate(&mirror));
    }
    assert_spread(&scores);
    assert!(differ * 2 > scores.len(), "{differ} of {}", scores.len());
}

#[test]
fn colour_flip_gives_the_same_score_with_king_buckets() {
    let net = random_bucketed_net::<HIDDEN>(22, "16");
    let scores: Vec<i32> = perft_positions()
        .iter()
        .map(|(text, chess960)| check_symmetry(&net, text, *chess960))
        .collect();
    assert_spread(&scores);
}

#[test]
fn a_refresh_does_not_depend_on_what_the_stack_did_before() {
    // The same stack, reset at a new root after a line elsewhere, starts afresh.
    let net = random_net(5);
    let mut stats = Stats::default();
    let first = Position::startpos();
    let mut line = Line::new(first, &net, Kernels::best(), &mut stats);
    for _ in 0..10 {
        let m = legal_moves(&line.pos)[0];
        line.make(m);
    }
    line.check();
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    line.pos = Position::from_fen(kiwipete, false).unwrap();
    line.stack.reset(&line.pos, &net);
    assert_eq!(line.stack.ply(), 0);
    line.check();
}

// --- Kernels ------------------------------------------------------------------------------

fn random_lanes(rng: &mut Rng, lo: i32, hi: i32) -> Box<Lanes> {
    let mut v = Box::new([0i16; HIDDEN]);
    for x in v.iter_mut() {
        *x = (lo + rng.below((hi - lo + 1) as usize) as i32) as i16;
    }
    v
}

#[test]
fn the_vector_kernels_are_in_use_where_the_cpu_has_them() {
    let names: Vec<&str> = Kernels::available().iter().map(|k| k.name()).collect();
    eprintln!(
        "kernels available: {names:?}; in use: {}",
        Kernels::best().name()
    );
    assert_eq!(Kernels::available()[0], Kernels::PORTABLE);
    assert_eq!(Kernels::best(), *Kernels::available().last().unwrap());
    #[cfg(target_arch = "x86_64")]
    {
        let has = |feature: &str| names.contains(&feature);
        assert_eq!(std::arch::is_x86_feature_detected!("avx2"), has("AVX2"));
        let avx512 = std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw");
        assert_eq!(avx512, has("AVX-512"), "{names:?}");
    }
}

#[test]
fn vector_and_portable_kernels_agree_on_random_values() {
    let mut rng = Rng::new(0xC0FFEE);
    let m = MAX_OUTPUT_WEIGHT as i32;
    for round in 0..2000 {
        // Whole i16 range (updates that wrap, activations far outside [0, QA]), or values
        // around the clipping range, negative ones included.
        let (lo, hi) = if round % 3 == 0 {
            (-32768, 32767)
        } else {
            (-400, 700)
        };
        let src = random_lanes(&mut rng, lo, hi);
        let c: Vec<Box<Lanes>> = (0..4).map(|_| random_lanes(&mut rng, lo, hi)).collect();
        let (w0, w1) = (random_lanes(&mut rng, -m, m), random_lanes(&mut rng, -m, m));
        let reference = Kernels::PORTABLE;
        let mut want = Box::new([0i16; HIDDEN]);
        let mut got = Box::new([0i16; HIDDEN]);
        for k in Kernels::available() {
            reference.update(&mut want, &src, [&c[0]], [&c[1]]);
            k.update(&mut got, &src, [&c[0]], [&c[1]]);
            assert_eq!(want, got, "{} (1, 1)", k.name());
            reference.update(&mut want, &src, [&c[2]], [&c[0], &c[3]]);
            k.update(&mut got, &src, [&c[2]], [&c[0], &c[3]]);
            assert_eq!(want, got, "{} (1, 2)", k.name());
            reference.update(&mut want, &src, [&c[1], &c[2]], [&c[0], &c[3]]);
            k.update(&mut got, &src, [&c[1], &c[2]], [&c[0], &c[3]]);
            assert_eq!(want, got, "{} (2, 2)", k.name());
            reference.update(&mut want, &src, [], []);
            k.update(&mut got, &src, [], []);
            assert_eq!(want, got, "{} copy", k.name());
            assert_eq!(*got, *src);
            assert_eq!(
                reference.output(&src, &w0, &c[0], &w1),
                k.output(&src, &w0, &c[0], &w1),
                "{} output",
                k.name()
            );
        }
    }
}

#[test]
fn vector_and_portable_kernels_agree_on_real_positions() {
    let net = random_net(0xBEEF);
    let kernels = Kernels::available();
    let mut rng = Rng::new(77);
    let mut stats = Stats::default();
    for (text, chess960) in perft_positions() {
        let pos = Position::from_fen(&text, chess960).unwrap();
        // The same random line under every set of kernels.
        let mut moves = Vec::new();
        let mut board = *pos.board();
        for _ in 0..12 {
            let Some(m) = choose(&mut rng, &board) else {
                break;
            };
            moves.push(m);
            board.play(m);
        }
        let mut results = Vec::new();
        for &k in &kernels {
            let mut line = Line::new(pos.clone(), &net, k, &mut stats);
            let mut seen = Vec::new();
            for &m in &moves {
                line.make(m);
                seen.push((
                    line.stack.current(&line.pos, &net).clone(),
                    line.stack.evaluate(&line.pos, &net),
                ));
            }
            results.push(seen);
        }
        for (k, r) in kernels.iter().zip(&results) {
            assert!(
                *r == results[0],
                "{} differs from portable on {text}",
                k.name()
            );
        }
    }
}

// --- Colour symmetry ----------------------------------------------------------------------

/// `text` and its colour-flipped mirror: the same accumulators with the perspectives
/// swapped, and the same score for the side to move. Returns the score.
fn check_symmetry<const H: usize>(net: &Net<H>, text: &str, chess960: bool) -> i32 {
    let board = fen::parse(text, chess960).unwrap_or_else(|e| panic!("{text}: {e}"));
    let flipped_text = flip_fen(text);
    let flipped = fen::parse(&flipped_text, chess960).unwrap_or_else(|e| panic!("{e}"));
    let (a, b) = (
        Accumulator::from_board(&board, net),
        Accumulator::from_board(&flipped, net),
    );
    assert_eq!(
        a.perspective(Color::White),
        b.perspective(Color::Black),
        "{text}"
    );
    assert_eq!(
        a.perspective(Color::Black),
        b.perspective(Color::White),
        "{text}"
    );
    let score = net.evaluate(&board);
    assert_eq!(score, net.evaluate(&flipped), "{text} vs {flipped_text}");
    assert_eq!(
        net.evaluate_white(&board),
        -net.evaluate_white(&flipped),
        "{text}"
    );
    score
}

/// The scores must be spread out, not stuck at the limits (where every pair would agree).
fn assert_spread(scores: &[i32]) {
    let distinct: HashSet<i32> = scores.iter().copied().collect();
    let clamped = scores.iter().filter(|s| s.abs() == EVAL_LIMIT).count();
    assert!(
        distinct.len() >= 200,
        "only {} distinct scores",
        distinct.len()
    );
    assert!(clamped * 100 < scores.len(), "{clamped} at the limit");
}

#[test]
fn colour_flip_gives_the_same_score_on_the_perft_suites() {
    for seed in [1, 2] {
        let net = random_net(seed);
        let scores: Vec<i32> = perft_positions()
            .iter()
            .map(|(text, chess960)| check_symmetry(&net, text, *chess960))
            .collect();
        assert!(scores.len() > 1000);
        assert_spread(&scores);
    }
}

#[test]
fn colour_flip_gives_the_same_score_on_random_playouts() {
    let net = random_net(3);
    let positions = sample_positions();
    assert!(positions.len() > 3000, "{}", positions.len());
    let scores: Vec<i32> = positions
        .iter()
        .map(|text| check_symmetry(&net, text, false))
        .collect();
    assert_spread(&scores);
}

// --- UCI: EvalFile and Use NNUE -----------------------------------------------------------

const ANSWER: Duration = Duration::from_secs(30);
const SEARCH: Duration = Duration::from_secs(300);

impl Engine {
    /// `go depth <depth>` from `fen`: the bestmove line and the nodes of the last `info`.
    fn search_depth(&mut self, fen: &str, depth: i32) -> (String, u64) {
        self.send(&format!("position fen {fen}"));
        self.send(&format!("go depth {depth}"));
        let lines = self.collect_until("bestmove", SEARCH, |l| l.starts_with("bestmove"));
        let nodes = lines
            .iter()
            .rev()
            .find_map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let at = words.iter().position(|&w| w == "nodes")?;
                words.get(at + 1)?.parse().ok()
            })
            .unwrap_or_else(|| panic!("no info line with nodes: {lines:?}"));
        let pos = Position::from_fen(fen, false).unwrap();
        let best = lines.last().unwrap().clone();
        check_bestmove(&pos, &best);
        (best, nodes)
    }

    /// The `NNUE network:` and `NNUE evaluation:` lines of `eval`, the latter's number,
    /// and the final (hand-crafted) evaluation's number.
    fn eval(&mut self) -> (String, i32, i32) {
        self.send("eval");
        let out = self.sync();
        let number = |prefix: &str| -> i32 {
            let line = out
                .iter()
                .find(|l| l.starts_with(prefix))
                .unwrap_or_else(|| panic!("no {prefix:?} line in {out:?}"));
            line[prefix.len()..]
                .strip_suffix(" (white side)")
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("bad line {line:?}"))
        };
        let network = out
            .iter()
            .find(|l| l.starts_with("NNUE network: "))
            .unwrap_or_else(|| panic!("no network line in {out:?}"))
            .clone();
        // The table ends with the final evaluation, then an empty line.
        assert!(
            out[out.len() - 2].starts_with("Final evaluation: ") && out[out.len() - 1].is_empty(),
            "{out:?}"
        );
        (
            network,
            number("NNUE evaluation: "),
            number("Final evaluation: "),
        )
    }
}

/// A fresh single-threaded library search to `depth` with `nnue`, as a fresh UCI session
/// would run it.
fn library_search(fen: &str, depth: i32, nnue: Option<Arc<Net>>) -> SearchResult {
    let pos = Position::from_fen(fen, false).unwrap();
    let tt = TranspositionTable::new(16);
    let mut histories = Histories::new();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let options = SearchOptions {
        nnue,
        ..SearchOptions::default()
    };
    think(
        &pos,
        limits,
        &[],
        options,
        &tt,
        &mut histories,
        &SearchControl::default(),
    )
}

const MIDDLEGAME: &str = "r1bq1rk1/pp2b1pp/n1p1pn2/3p1p2/2PP4/6PN/PPQNPPBP/R1B2RK1 w - - 6 9";

#[test]
fn eval_file_rejects_bad_files_and_accepts_good_ones() {
    let dir = common::temp_dir("eval-file");
    let good = Network::random(11);
    let good_bytes = good.to_bytes();
    let good_path = dir.join("good.nnue");
    std::fs::write(&good_path, &good_bytes).unwrap();
    let mut too_large = good.clone();
    too_large.output_weights[5] = 2000;
    let mut bad_version = good_bytes.clone();
    bad_version[8] = 7;
    // Version 3's header: a king bucket beyond the count, a header cut short, and a
    // network of another width (a good file, of a shape this build does not evaluate).
    let kings = king_layouts::named("4").unwrap();
    let mut bad_map = Network::random_shaped(12, HIDDEN, kings).to_bytes();
    bad_map[28 + 9] = 4;
    bad_map[28 + 14] = 4;
    let wide = Network::random_shaped(13, 2 * HIDDEN, kings).to_bytes();
    let bad: Vec<(&str, Vec<u8>, String)> = vec![
        (
            "short.nnue",
            good_bytes[..good_bytes.len() - 2].to_vec(),
            NetworkError::WrongLength {
                expected: good_bytes.len(),
                found: good_bytes.len() - 2,
            }
            .to_string(),
        ),
        (
            "text.nnue",
            b"not a network at all".to_vec(),
            NetworkError::BadMagic.to_string(),
        ),
        (
            "version.nnue",
            bad_version,
            NetworkError::UnsupportedVersion(7).to_string(),
        ),
        (
            "map.nnue",
            bad_map,
            NetworkError::KingBuckets(KingBucketError::Bucket {
                square: 9,
                bucket: 4,
                count: 4,
            })
            .to_string(),
        ),
        (
            "header.nnue",
            good_bytes[..60].to_vec(),
            NetworkError::Truncated {
                found: 60,
                header: 92,
            }
            .to_string(),
        ),
        (
            "wide.nnue",
            wide,
            format!(
                "network is 768x4 king buckets, mirrored -> {}x2 -> 8, but this build evaluates 768 (any king buckets) -> {HIDDEN}x2 -> 8 networks",
                2 * HIDDEN
            ),
        ),
        (
            "weights.nnue",
            too_large.to_bytes(),
            LoadError::OutputWeight {
                index: 5,
                value: 2000,
            }
            .to_string(),
        ),
    ];
    for (name, bytes, _) in &bad {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let good_path = good_path.to_str().unwrap().to_string();
    let board = fen::parse(MIDDLEGAME, false).unwrap();
    let embedded_eval = Net::embedded().evaluate_white(&board);
    let good_net = Net::from_network(&good, "good").unwrap();
    let good_eval = good_net.evaluate_white(&board);

    let mut e = Engine::start();
    e.send("uci");
    let declared = e.collect_until("uciok", ANSWER, |l| l == "uciok");
    for option in [
        "option name Use NNUE type check default true".to_string(),
        format!("option name EvalFile type string default {EMBEDDED_NAME}"),
    ] {
        assert!(declared.contains(&option), "{option} not in {declared:?}");
    }
    // The network is on by default; this test is about which network the search uses.
    e.send(&format!("position fen {MIDDLEGAME}"));
    let (network, nnue, _) = e.eval();
    assert_eq!(network.split(" (").next(), Some("NNUE network: <embedded>"));
    assert_eq!(nnue, embedded_eval);

    // A missing file and bad files: an error with the reason, the network stays.
    let missing = dir.join("missing.nnue");
    let mut attempts = vec![(
        missing.to_str().unwrap().to_string(),
        "cannot read".to_string(),
    )];
    for (name, _, reason) in &bad {
        attempts.push((dir.join(name).to_str().unwrap().to_string(), reason.clone()));
    }
    for (path, reason) in &attempts {
        e.send(&format!("setoption name EvalFile value {path}"));
        let out = e.sync();
        let want = format!("info string error: EvalFile {path}: ");
        assert!(
            out.len() == 1 && out[0].starts_with(&want) && out[0].contains(reason.as_str()),
            "{path}: {out:?}, expected {want}... {reason}"
        );
        assert!(
            out[0].ends_with("still using network <embedded>"),
            "{out:?}"
        );
        e.send(&format!("position fen {MIDDLEGAME}"));
        assert_eq!(e.eval().1, embedded_eval, "{path}");
        let (best, _) = e.search_depth(MIDDLEGAME, 4);
        assert!(best.starts_with("bestmove"));
    }

    // A good file is used by `eval` and by the search.
    e.send(&format!("setoption name EvalFile value {good_path}"));
    assert_eq!(
        e.sync(),
        vec![format!("info string EvalFile: using network {good_path}")]
    );
    e.send("ucinewgame");
    e.send(&format!("position fen {MIDDLEGAME}"));
    let (network, nnue, _) = e.eval();
    assert!(network.starts_with(&format!("NNUE network: {good_path} (the search")));
    assert_eq!(nnue, good_eval);
    let (best, nodes) = e.search_depth(MIDDLEGAME, 6);
    let expected = library_search(MIDDLEGAME, 6, Some(Arc::new(good_net)));
    assert_eq!(
        nodes, expected.nodes,
        "the search does not use the EvalFile network"
    );
    let pos = Position::from_fen(MIDDLEGAME, false).unwrap();
    assert_eq!(check_bestmove(&pos, &best).0, expected.best);

    // A bad file now keeps the good one; `<embedded>` goes back.
    let (path, _) = &attempts[1];
    e.send(&format!("setoption name EvalFile value {path}"));
    let out = e.sync();
    assert!(
        out[0].ends_with(&format!("still using network {good_path}")),
        "{out:?}"
    );
    e.send(&format!("position fen {MIDDLEGAME}"));
    assert_eq!(e.eval().1, good_eval);
    e.send("setoption name EvalFile value <embedded>");
    assert_eq!(
        e.sync(),
        vec!["info string EvalFile: using network <embedded>".to_string()]
    );
    assert_eq!(e.eval().1, embedded_eval);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn use_nnue_switches_the_search_between_network_and_hand_crafted_evaluation() {
    let mut e = Engine::start();
    let positions = [
        MIDDLEGAME,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let mut differ = 0;
    for fen in positions {
        let hce = library_search(fen, 7, None);
        let nnue = library_search(fen, 7, Some(Net::embedded()));
        differ += usize::from(hce.nodes != nnue.nodes);
        for (use_nnue, expected) in [(false, &hce), (true, &nnue)] {
            e.send(&format!("setoption name Use NNUE value {use_nnue}"));
            e.send("ucinewgame");
            let (best, nodes) = e.search_depth(fen, 7);
            assert_eq!(nodes, expected.nodes, "Use NNUE {use_nnue}: {fen}");
            let pos = Position::from_fen(fen, false).unwrap();
            assert_eq!(check_bestmove(&pos, &best).0, expected.best, "{fen}");
            // `eval` says which evaluation the search uses; its last line stays the
            // hand-crafted evaluation either way.
            let (network, _, final_eval) = e.eval();
            assert_eq!(network.contains("not in use"), !use_nnue, "{network}");
            let board = fen::parse(fen, false).unwrap();
            assert_eq!(final_eval, tarpon::eval::traced(&board).blend.white);
        }
    }
    assert!(
        differ > 0,
        "the network and the hand-crafted search searched alike"
    );
    // A strength limit evaluates with the network even with `Use NNUE` off (its Elo scale
    // was measured so), and `eval` says so.
    e.send("setoption name Use NNUE value false");
    e.send("setoption name UCI_LimitStrength value true");
    assert!(!e.eval().0.contains("not in use"));
    // And the search too: the same nodes to a fixed depth whatever `Use NNUE` says.
    e.send("setoption name UCI_Elo value 2800");
    let mut nodes = Vec::new();
    for use_nnue in [false, true] {
        e.send(&format!("setoption name Use NNUE value {use_nnue}"));
        e.send("ucinewgame");
        nodes.push(e.search_depth(MIDDLEGAME, 5).1);
    }
    assert_eq!(
        nodes[0], nodes[1],
        "a limited search with Use NNUE off and on"
    );
    e.send("setoption name Use NNUE value false");
    e.send("setoption name UCI_LimitStrength value false");
    assert!(e.eval().0.contains("not in use"));
}
