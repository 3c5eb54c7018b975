//! Make and unmake must be exact inverses: after `Position::unmake` the board is identical
//! to the one before `make` (every field, the incremental Zobrist keys included), however
//! the moves and null moves were interleaved. The search depends on this completely: it
//! makes and unmakes millions of moves on one board, and a single field that drifts (a lost
//! castling right, a stale en-passant square, a key off by one piece) silently corrupts the
//! rest of the search and the hash table.
//!
//! Random games (with a small seeded generator, so every run is the same) from the start
//! position, from well-known tricky positions and from Chess960 start positions check:
//! - at every ply, the incremental keys against keys computed from scratch, and the board
//!   against the one rebuilt from its own FEN (which recomputes checkers and en passant);
//! - every legal move, and a null move, made and unmade in place (and `Board::key_after`
//!   against the key the move makes, where it promises to be exact);
//! - small random search-like trees (moves and null moves nested) below some plies;
//! - null moves kept in the game itself, and the whole game then unmade move by move back
//!   to the start, comparing with the board recorded at each ply on the way.

use crate::common;

use common::Rng;
use tarpon::chess::{Board, Color, MoveKind, Position, fen, movegen};

/// What the games went through, so the test can show that the special moves were made.
#[derive(Default, Debug)]
struct Stats {
    games: usize,
    game_plies: usize,
    longest_game: usize,
    moves_made: usize,
    null_moves_made: usize,
    nulls_in_games: usize,
    tree_nodes: usize,
    castling_made: usize,
    en_passant_made: usize,
    promotions_made: usize,
    keys_predicted: usize,
}

/// The board agrees with everything that can be derived from it from scratch: the keys,
/// and the board rebuilt from its FEN (which recomputes the checkers, re-tests the
/// en-passant square for a legal capture, and recomputes the keys once more).
fn assert_consistent(board: &Board, what: &dyn Fn() -> String) {
    assert_eq!(
        (board.key(), board.pawn_key()),
        board.compute_key(),
        "incremental keys {}",
        what()
    );
    let text = fen::to_fen(board);
    let rebuilt = fen::parse(&text, board.is_chess960())
        .unwrap_or_else(|e| panic!("FEN {text} {}: {e}", what()));
    assert!(
        rebuilt == *board,
        "board differs from its FEN {text} {}",
        what()
    );
}

/// The board is exactly `expected`: `==` compares every field but skips castling-setup
/// entries of rights no longer held (see `Board::eq`); make and unmake never change the
/// setup at all, so here it is compared in full as well.
fn assert_identical(board: &Board, expected: &Board, what: &dyn Fn() -> String) {
    assert!(
        board == expected,
        "board not restored {}:\n{board:?}\n{expected:?}",
        what()
    );
    assert!(
        board.castling_setup() == expected.castling_setup(),
        "castling setup changed {}",
        what()
    );
}

/// A null move changes exactly the side to move, the en-passant square and the clocks.
fn assert_null_effects(before: &Board, after: &Board) {
    let fen_before = fen::to_fen(before);
    assert_eq!(
        after.side_to_move(),
        before.side_to_move().flip(),
        "null move in {fen_before}"
    );
    assert_eq!(
        after.en_passant(),
        None,
        "null move keeps an en-passant square in {fen_before}"
    );
    assert_eq!(
        after.castling_rights(),
        before.castling_rights(),
        "null move in {fen_before}"
    );
    assert_eq!(
        after.halfmove_clock(),
        before.halfmove_clock().saturating_add(1),
        "null move in {fen_before}"
    );
    let next_move = before.fullmove_number() + (before.side_to_move() == Color::Black) as u16;
    assert_eq!(
        after.fullmove_number(),
        next_move,
        "null move in {fen_before}"
    );
    assert_eq!(
        after.pawn_key(),
        before.pawn_key(),
        "null move changes the pawn key in {fen_before}"
    );
    assert!(
        !after.in_check(),
        "null move leaves a side in check in {fen_before}"
    );
    for sq in before.occupied() | after.occupied() {
        assert_eq!(
            after.piece_on(sq),
            before.piece_on(sq),
            "null move moves a piece in {fen_before}"
        );
    }
    assert_consistent(after, &|| format!("after a null move in {fen_before}"));
}

/// A random search-like tree below the current position: a few moves (and sometimes a null
/// move) at each node, each followed by a subtree and taken back, checking after every
/// unmake that the node's board is back exactly.
fn random_tree(pos: &mut Position, depth: u32, rng: &mut Rng, stats: &mut Stats) {
    let before = *pos.board();
    let plies = pos.plies_played();
    stats.tree_nodes += 1;
    assert_eq!(
        (before.key(), before.pawn_key()),
        before.compute_key(),
        "keys in a tree node {}",
        fen::to_fen(&before)
    );
    if depth == 0 {
        return;
    }
    let moves = movegen::legal_moves(&before);
    for _ in 0..moves.len().min(3) {
        let m = moves[rng.below(moves.len())];
        pos.make(m);
        random_tree(pos, depth - 1, rng, stats);
        pos.unmake();
        assert_identical(pos.board(), &before, &|| {
            format!("by unmaking {m:?} in a tree at {}", fen::to_fen(&before))
        });
        assert_eq!(pos.plies_played(), plies);
    }
    if !before.in_check() && rng.below(2) == 0 {
        pos.make_null();
        random_tree(pos, depth - 1, rng, stats);
        pos.unmake();
        assert_identical(pos.board(), &before, &|| {
            format!("by a null move in a tree at {}", fen::to_fen(&before))
        });
    }
}

/// Plays one random game of at most `max_plies` from `start`, with all the checks listed
/// at the top of the file, then unmakes it all the way back to the start.
fn random_game(start: &str, chess960: bool, max_plies: usize, rng: &mut Rng, stats: &mut Stats) {
    let mut pos = Position::from_fen(start, chess960).unwrap_or_else(|e| panic!("{start}: {e}"));
    let initial = *pos.board();
    // `line[i]` is the board before ply `i` of the game.
    let mut line: Vec<Board> = Vec::with_capacity(max_plies);
    stats.games += 1;

    for ply in 0..max_plies {
        let before = *pos.board();
        let here = || {
            format!(
                "at ply {ply} of a game from {start}: {}",
                fen::to_fen(&before)
            )
        };
        assert_consistent(&before, &here);
        assert_eq!(pos.plies_played(), line.len());

        // Every legal move, made and unmade in place.
        let moves = movegen::legal_moves(&before);
        for &m in moves.iter() {
            pos.make(m);
            assert_eq!(pos.moves_played().last(), Some(m));
            let after = *pos.board();
            assert_eq!(
                (after.key(), after.pawn_key()),
                after.compute_key(),
                "keys after {m:?} {}",
                here()
            );
            // The search prefetches the hash entry of `key_after`: exact for the moves
            // its documentation promises (plain moves and captures that keep the rights
            // and leave no en-passant square), whatever it gives for the others.
            let predicted = before.key_after(m);
            if m.kind() == MoveKind::Normal
                && after.castling_rights() == before.castling_rights()
                && after.en_passant().is_none()
            {
                assert_eq!(predicted, after.key(), "key_after {m:?} {}", here());
                stats.keys_predicted += 1;
            }
            pos.unmake();
            assert_identical(pos.board(), &before, &|| {
                format!("by unmaking {m:?} {}", here())
            });
            stats.moves_made += 1;
            match m.kind() {
                MoveKind::Castling => stats.castling_made += 1,
                MoveKind::EnPassant => stats.en_passant_made += 1,
                MoveKind::Promotion => stats.promotions_made += 1,
                MoveKind::Normal => {}
            }
        }

        // A null move (the search tries one wherever it is not in check).
        if !before.in_check() {
            pos.make_null();
            assert_null_effects(&before, pos.board());
            pos.unmake();
            assert_identical(pos.board(), &before, &|| {
                format!("by unmaking a null move {}", here())
            });
            stats.null_moves_made += 1;
        }

        if ply % 16 == 0 {
            random_tree(&mut pos, 4, rng, stats);
            assert_identical(pos.board(), &before, &|| format!("by a tree {}", here()));
        }

        if moves.is_empty() {
            break;
        }
        // Go on with the game; now and then the "move" is a null move, so that the final
        // unwinding also takes null moves back in the middle of real ones.
        line.push(before);
        if !before.in_check() && rng.below(12) == 0 {
            pos.make_null();
            stats.nulls_in_games += 1;
        } else {
            pos.make(moves[rng.below(moves.len())]);
        }
    }
    stats.game_plies += line.len();
    stats.longest_game = stats.longest_game.max(line.len());
    assert_consistent(pos.board(), &|| {
        format!("at the end of a game from {start}")
    });

    // Unmake the whole game, one ply at a time, back to the start.
    while let Some(expected) = line.pop() {
        pos.unmake();
        assert_identical(pos.board(), &expected, &|| {
            format!("unwinding to ply {} of a game from {start}", line.len())
        });
        assert_eq!(pos.plies_played(), line.len());
    }
    assert_identical(pos.board(), &initial, &|| {
        format!("at the start of the unwound game from {start}")
    });
    // With no moves left to take back, unmake must leave the position alone.
    pos.unmake();
    assert_identical(pos.board(), &initial, &|| {
        "by unmake with an empty history".to_string()
    });
}

/// Chess960 start position number `n` (0..960) as Shredder-FEN, from the library's
/// numbering (`chess960.rs`, whose tests check it against the published table).
fn chess960_start(n: usize) -> String {
    let board = tarpon::chess::chess960::start_position(n as u16, n as u16);
    tarpon::chess::Position::from_board(board).shredder_fen()
}

/// Positions rich in the rules that make and unmake must restore: castling rights lost by
/// king and rook moves and by captures on the rook squares, en passant (including captures
/// that would expose the king), promotions with and without capture, and checks.
const TRICKY: [&str; 8] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/8/2k5/3Pp3/8/8/4K2R b K d3 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
];

#[test]
fn chess960_start_positions_are_valid() {
    assert_eq!(
        chess960_start(518),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    let mut seen = std::collections::HashSet::new();
    for n in 0..960 {
        let text = chess960_start(n);
        let board = fen::parse(&text, true).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(board.castling_rights().count_ones(), 4, "{text}");
        assert!(
            seen.insert(text.split(' ').next().unwrap_or_default().to_string()),
            "duplicate {text}"
        );
    }
}

#[test]
fn standard_games() {
    let started = std::time::Instant::now();
    let mut rng = Rng::new(0x5EED_0001);
    let mut stats = Stats::default();
    for _ in 0..200 {
        random_game(fen::START_FEN, false, 400, &mut rng, &mut stats);
    }
    for fen_text in TRICKY {
        for _ in 0..40 {
            random_game(fen_text, false, 200, &mut rng, &mut stats);
        }
    }
    // A few very long games, unwound in one go from hundreds of plies deep.
    for _ in 0..6 {
        random_game(fen::START_FEN, false, 2000, &mut rng, &mut stats);
    }
    eprintln!(
        "make/unmake, standard: {stats:#?} in {:.1?}",
        started.elapsed()
    );
    assert!(
        stats.longest_game >= 1000,
        "no long game was played: {stats:?}"
    );
    assert_exercised(&stats);
}

#[test]
fn chess960_games() {
    let started = std::time::Instant::now();
    let mut rng = Rng::new(0x5EED_0960);
    let mut stats = Stats::default();
    // Every start position, one game each.
    for n in 0..960 {
        random_game(&chess960_start(n), true, 200, &mut rng, &mut stats);
    }
    eprintln!(
        "make/unmake, Chess960: {stats:#?} in {:.1?}",
        started.elapsed()
    );
    assert_exercised(&stats);
}

/// The games must actually have made the moves that are hard to undo.
fn assert_exercised(stats: &Stats) {
    for (what, count) in [
        ("castling", stats.castling_made),
        ("en-passant", stats.en_passant_made),
        ("promotion", stats.promotions_made),
        ("null", stats.null_moves_made),
        ("in-game null", stats.nulls_in_games),
        ("key-predicted", stats.keys_predicted),
    ] {
        assert!(count > 0, "no {what} moves were made and unmade: {stats:?}");
    }
}
