//! Differential test of the rules core against the `shakmaty` crate, an independent and
//! widely used implementation of the rules.
//!
//! Random games are played from the start position and from every position of the
//! perft suites in `tests/data` (`perft.epd` in standard chess, `perft960.epd` in Chess960). Both libraries
//! follow the same game move by move, and at every position on the way the test compares:
//!
//! - the legal moves, as UCI text, and their split into noisy and quiet moves;
//! - the FEN (and that Tarpon reads its own FEN back to the identical board);
//! - check, checkmate, stalemate and insufficient material;
//! - for every legal move: `gives_check` (both the full test and `CheckInfo`'s), `is_legal`,
//!   the incremental Zobrist keys after the move, the exact board after taking it back, the position after it (as FEN), its
//!   SAN, and that SAN and UCI parse back to the same move;
//! - that `is_legal` rejects random and near-miss move bits.
//!
//! Perft already proves the move *counts*; this test catches what perft cannot see: a move
//! that is counted but produces the wrong position (castling rights, en-passant square,
//! clocks), wrong notation, or a wrong answer from the helpers the search relies on.
//!
//! The games are driven by a small seeded generator, so every run checks the same positions.
//! Moves are chosen by index into the legal moves sorted by UCI text, which keeps the games
//! the same even if the move generator changes its order.

use crate::common;

use common::{Rng, suite_fens};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};
use tarpon::chess::{Board, Color, Move, MoveKind, Position, Square, fen, movegen, notation};

/// What the games went through, so the test can show (and assert) that the special rules
/// were actually exercised and not just vacuously agreed on.
#[derive(Default, Debug)]
struct Stats {
    positions: usize,
    moves: usize,
    illegal_probes: usize,
    checks: usize,
    double_checks: usize,
    checkmates: usize,
    stalemates: usize,
    insufficient: usize,
    en_passant_squares: usize,
    castling_moves: usize,
    en_passant_moves: usize,
    promotions: usize,
    /// Start positions that shakmaty refuses to set up, with its reason.
    skipped: Vec<String>,
}

impl Stats {
    fn add(&mut self, o: Stats) {
        self.positions += o.positions;
        self.moves += o.moves;
        self.illegal_probes += o.illegal_probes;
        self.checks += o.checks;
        self.double_checks += o.double_checks;
        self.checkmates += o.checkmates;
        self.stalemates += o.stalemates;
        self.insufficient += o.insufficient;
        self.en_passant_squares += o.en_passant_squares;
        self.castling_moves += o.castling_moves;
        self.en_passant_moves += o.en_passant_moves;
        self.promotions += o.promotions;
        self.skipped.extend(o.skipped);
    }
}

/// A legal move in both representations, with its UCI text (the key that pairs them).
struct Pair {
    uci: String,
    ours: Move,
    theirs: shakmaty::Move,
}

fn shakmaty_fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Readable difference of two sorted move lists, for failure messages.
fn list_difference(ours: &[&str], theirs: &[&str]) -> String {
    let only_ours: Vec<_> = ours.iter().filter(|m| !theirs.contains(m)).collect();
    let only_theirs: Vec<_> = theirs.iter().filter(|m| !ours.contains(m)).collect();
    format!("only Tarpon: {only_ours:?}, only shakmaty: {only_theirs:?}")
}

/// Runs every comparison on one position and returns its legal moves, sorted by UCI text.
/// `foreign` holds moves legal somewhere else (the previous position of the game): the
/// search meets such moves from the hash table and killer slots, so `is_legal` must judge
/// them correctly.
fn check_position(
    board: &Board,
    theirs: &Chess,
    rng: &mut Rng,
    stats: &mut Stats,
    foreign: &[Move],
) -> Vec<Pair> {
    let fen_text = fen::to_fen(board);
    let mode = if board.is_chess960() {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    stats.positions += 1;

    // --- Legal moves, as sets of UCI text. ---
    let legal = movegen::legal_moves(board);
    let mut pairs: Vec<Pair> = Vec::with_capacity(legal.len());
    let mut their_moves: Vec<(String, shakmaty::Move)> = theirs
        .legal_moves()
        .into_iter()
        .map(|m| (UciMove::from_move(m, mode).to_string(), m))
        .collect();
    their_moves.sort_by(|a, b| a.0.cmp(&b.0));
    let mut our_moves: Vec<(String, Move)> = legal
        .iter()
        .map(|&m| (notation::to_uci(board, m), m))
        .collect();
    our_moves.sort_by(|a, b| a.0.cmp(&b.0));
    let our_text: Vec<&str> = our_moves.iter().map(|(t, _)| t.as_str()).collect();
    let their_text: Vec<&str> = their_moves.iter().map(|(t, _)| t.as_str()).collect();
    assert!(
        our_text == their_text,
        "legal moves differ in {fen_text}: {}",
        list_difference(&our_text, &their_text)
    );
    assert!(
        our_text.windows(2).all(|w| w[0] != w[1]),
        "duplicate legal moves in {fen_text}: {our_text:?}"
    );
    for ((uci, ours), (_, theirs)) in our_moves.into_iter().zip(their_moves) {
        pairs.push(Pair { uci, ours, theirs });
    }

    // --- Noisy and quiet moves: disjoint, together every legal move, and noisy exactly
    // the captures (en passant included) and promotions, as shakmaty classifies them. ---
    let noisy = movegen::noisy_moves(board);
    let quiet = movegen::quiet_moves(board);
    let mut split: Vec<u16> = noisy.iter().chain(quiet.iter()).map(|m| m.bits()).collect();
    let mut all: Vec<u16> = legal.iter().map(|m| m.bits()).collect();
    split.sort_unstable();
    all.sort_unstable();
    assert_eq!(
        split, all,
        "noisy + quiet is not the set of legal moves in {fen_text}"
    );
    for p in &pairs {
        let expect_noisy = p.theirs.is_capture() || p.theirs.is_promotion();
        assert_eq!(
            noisy.contains(p.ours),
            expect_noisy,
            "noisy/quiet class of {} in {fen_text}",
            p.uci
        );
    }

    // --- FEN: Tarpon reads its own output back to the identical board, and writes what
    // shakmaty writes. Both print an en-passant square only when a legal en-passant capture
    // exists, and both use X-FEN castling letters in Chess960 (`K`/`Q` for the outermost
    // rook, the file letter otherwise), so the strings can be compared directly even for
    // Chess960 positions that were read from Shredder-FEN. ---
    let reparsed = fen::parse(&fen_text, board.is_chess960())
        .unwrap_or_else(|e| panic!("Tarpon cannot read its own FEN {fen_text}: {e}"));
    assert!(
        reparsed == *board,
        "FEN round trip changes the board: {fen_text}\n{reparsed:?}\n{board:?}"
    );
    assert_eq!(
        fen_text,
        shakmaty_fen(theirs),
        "FEN differs from shakmaty's"
    );

    // --- Game state. ---
    let no_moves = legal.is_empty();
    assert_eq!(
        board.in_check(),
        theirs.is_check(),
        "in_check in {fen_text}"
    );
    assert_eq!(
        board.checkers().0,
        theirs.checkers().0,
        "checkers in {fen_text}"
    );
    assert_eq!(
        board.in_check() && no_moves,
        theirs.is_checkmate(),
        "checkmate in {fen_text}"
    );
    assert_eq!(
        !board.in_check() && no_moves,
        theirs.is_stalemate(),
        "stalemate in {fen_text}"
    );
    let position = Position::from_board(*board);
    for (ours, theirs_color) in [
        (Color::White, shakmaty::Color::White),
        (Color::Black, shakmaty::Color::Black),
    ] {
        assert_eq!(
            position.has_insufficient_material(ours),
            theirs.has_insufficient_material(theirs_color),
            "insufficient material of {ours:?} in {fen_text}"
        );
    }
    assert_eq!(
        position.is_insufficient_material(),
        theirs.is_insufficient_material(),
        "{fen_text}"
    );
    let (key, pawn_key) = board.compute_key();
    assert_eq!(
        (board.key(), board.pawn_key()),
        (key, pawn_key),
        "incremental keys in {fen_text}"
    );

    stats.checks += board.in_check() as usize;
    stats.double_checks += board.checkers().more_than_one() as usize;
    stats.checkmates += (board.in_check() && no_moves) as usize;
    stats.stalemates += (!board.in_check() && no_moves) as usize;
    stats.insufficient += position.is_insufficient_material() as usize;
    stats.en_passant_squares += board.en_passant().is_some() as usize;

    // --- Every legal move. ---
    let check_info = movegen::CheckInfo::new(board);
    for p in &pairs {
        let m = p.ours;
        let context = || format!("move {} in {fen_text}", p.uci);
        assert!(
            movegen::is_legal(board, m),
            "is_legal rejects {}",
            context()
        );

        let mut after = *board;
        after.play(m);
        assert_eq!(
            (after.key(), after.pawn_key()),
            after.compute_key(),
            "incremental keys after {}",
            context()
        );
        assert_eq!(
            [
                after.non_pawn_key(Color::White),
                after.non_pawn_key(Color::Black)
            ],
            after.compute_non_pawn_keys(),
            "incremental non-pawn keys after {}",
            context()
        );
        assert_eq!(
            movegen::gives_check(board, m),
            after.in_check(),
            "gives_check of {}",
            context()
        );
        assert_eq!(
            check_info.gives_check(board, m),
            after.in_check(),
            "CheckInfo::gives_check of {}",
            context()
        );

        // The whole position after the move (castling rights, en passant, clocks) must be
        // what shakmaty makes of the same move.
        let mut their_after = theirs.clone();
        let san = SanPlus::from_move_and_play_unchecked(&mut their_after, p.theirs).to_string();
        assert_eq!(
            fen::to_fen(&after),
            shakmaty_fen(&their_after),
            "position after {}",
            context()
        );

        assert_eq!(notation::to_san(board, m), san, "SAN of {}", context());
        assert_eq!(
            notation::parse_san(board, &san),
            Ok(m),
            "parse_san({san}) of {}",
            context()
        );
        assert_eq!(
            notation::parse_uci(board, &p.uci),
            Ok(m),
            "parse_uci of {}",
            context()
        );

        stats.moves += 1;
        stats.castling_moves += (m.kind() == MoveKind::Castling) as usize;
        stats.en_passant_moves += (m.kind() == MoveKind::EnPassant) as usize;
        stats.promotions += (m.kind() == MoveKind::Promotion) as usize;
    }

    // --- is_legal on moves that are not legal here. Besides arbitrary bits, the probes
    // include near misses, which a sloppy check is likeliest to wave through: moves of our
    // own pieces to arbitrary squares with arbitrary kind bits, legal moves with a flipped
    // kind or promotion bit or another destination, and moves of the previous position. ---
    let mut probes: Vec<Move> = Vec::with_capacity(32 + foreign.len());
    for _ in 0..8 {
        probes.push(Move::from_bits(rng.next_u64() as u16));
    }
    let own: Vec<Square> = board.color(board.side_to_move()).collect();
    for _ in 0..8 {
        let from = own[rng.below(own.len())].index() as u16;
        let to = rng.below(64) as u16;
        let flags = rng.below(16) as u16;
        probes.push(Move::from_bits(from | to << 6 | flags << 12));
    }
    if !legal.is_empty() {
        for _ in 0..8 {
            let m = legal[rng.below(legal.len())];
            probes.push(Move::from_bits(m.bits() ^ 1 << (12 + rng.below(4))));
            probes.push(Move::from_bits(
                (m.bits() & !(63 << 6)) | (rng.below(64) as u16) << 6,
            ));
        }
    }
    probes.extend_from_slice(foreign);
    for probe in probes {
        let is_listed = legal.contains(probe);
        assert_eq!(
            movegen::is_legal(board, probe),
            is_listed,
            "is_legal({probe:?}) in {fen_text}"
        );
        stats.illegal_probes += !is_listed as usize;
    }

    pairs
}

/// Picks the next move of a random game. Uniform choice alone rarely castles or captures
/// en passant before those chances pass, so a third of the time a special move (castling,
/// en passant, promotion) is preferred when one is available.
fn choose<'a>(rng: &mut Rng, pairs: &'a [Pair]) -> &'a Pair {
    if rng.below(3) == 0 {
        let special: Vec<&Pair> = pairs
            .iter()
            .filter(|p| p.ours.kind() != MoveKind::Normal)
            .collect();
        if !special.is_empty() {
            return special[rng.below(special.len())];
        }
    }
    &pairs[rng.below(pairs.len())]
}

/// Plays `games` random games of at most `plies` moves from `fen`, checking every position.
/// A game stops early at checkmate, stalemate or insufficient material (nothing new
/// happens in a bare-kings shuffle).
fn play_games(
    fen_text: &str,
    chess960: bool,
    games: usize,
    plies: usize,
    rng: &mut Rng,
    stats: &mut Stats,
) {
    let start =
        fen::parse(fen_text, chess960).unwrap_or_else(|e| panic!("Tarpon rejects {fen_text}: {e}"));
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let their_start: Chess = match Fen::from_ascii(fen_text.as_bytes()) {
        Ok(f) => match f.into_position(mode) {
            Ok(pos) => pos,
            Err(e) => {
                stats.skipped.push(format!("{fen_text} ({e})"));
                return;
            }
        },
        Err(e) => panic!("shakmaty cannot parse the FEN syntax of {fen_text}: {e}"),
    };
    for _ in 0..games {
        let mut board = start;
        let mut theirs = their_start.clone();
        let mut previous: Vec<Move> = Vec::new();
        for _ in 0..=plies {
            let pairs = check_position(&board, &theirs, rng, stats, &previous);
            if pairs.is_empty() || Position::from_board(board).is_insufficient_material() {
                break;
            }
            let chosen = choose(rng, &pairs);
            board.play(chosen.ours);
            theirs.play_unchecked(chosen.theirs);
            previous = pairs.iter().map(|p| p.ours).collect();
        }
    }
}

/// Chess960 castling cases that games from the suite's opening positions rarely reach:
/// a castling rook with another rook further out on the same side (X-FEN must then name
/// its file instead of writing `K`/`Q`), a king that castles short without moving (next to
/// its rook on g1), and castling with the rook starting on the king's destination square.
const CHESS960_EXTRA: [&str; 4] = [
    "r1r1k3/pppppppp/8/8/8/8/PPPPPPPP/4K1RR w Gc - 0 1",
    "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1",
    "2rk1r2/pppppppp/8/8/8/8/PPPPPPPP/2RK1R2 w FCfc - 0 1",
    "rr2k3/1ppppppp/8/8/8/8/1PPPPPPP/RR2K3 w Bb - 0 1",
];

#[test]
fn differential_against_shakmaty() {
    let standard = suite_fens("perft.epd");
    let chess960 = suite_fens("perft960.epd");
    assert!(
        standard.len() >= 100 && chess960.len() >= 900,
        "the perft suites look truncated"
    );

    // Three independent streams of games, one thread each, to use the cores there are. Each
    // has its own seed, so which positions get checked does not depend on thread scheduling.
    let started = std::time::Instant::now();
    let run = |seed: u64, work: &(dyn Fn(&mut Rng, &mut Stats) + Sync)| {
        let mut rng = Rng::new(0x7A2B_0000 + seed);
        let mut stats = Stats::default();
        work(&mut rng, &mut stats);
        stats
    };
    let mut total = Stats::default();
    std::thread::scope(|s| {
        let handles = [
            s.spawn(|| {
                run(1, &|rng, stats| {
                    play_games(fen::START_FEN, false, 120, 300, rng, stats)
                })
            }),
            s.spawn(|| {
                run(2, &|rng, stats| {
                    for f in &standard {
                        play_games(f, false, 2, 120, rng, stats);
                    }
                })
            }),
            s.spawn(|| {
                run(3, &|rng, stats| {
                    for f in &chess960 {
                        play_games(f, true, 1, 70, rng, stats);
                    }
                    for f in CHESS960_EXTRA {
                        play_games(f, true, 25, 80, rng, stats);
                    }
                })
            }),
        ];
        for h in handles {
            total.add(
                h.join()
                    .expect("a differential run failed (see its message above)"),
            );
        }
    });
    eprintln!("differential: {total:#?} in {:.1?}", started.elapsed());

    // Only the impossible double check of perft.epd line 51 is expected to be refused.
    assert!(
        total.skipped.len() <= 1,
        "shakmaty refused too many start positions: {:#?}",
        total.skipped
    );
    assert!(
        total.positions >= 100_000,
        "only {} positions checked",
        total.positions
    );
    // The random games must actually reach the rules that are easy to get wrong.
    for (what, count) in [
        ("checks", total.checks),
        ("double checks", total.double_checks),
        ("checkmates", total.checkmates),
        ("stalemates", total.stalemates),
        ("insufficient material", total.insufficient),
        ("en-passant squares", total.en_passant_squares),
        ("castling moves", total.castling_moves),
        ("en-passant moves", total.en_passant_moves),
        ("promotions", total.promotions),
    ] {
        assert!(count > 0, "no {what} reached by the random games");
    }
}
