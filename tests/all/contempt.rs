//! `Contempt`: a draw by the rules scores below zero for the side to move at the root, so
//! Tarpon takes a repetition or avoids it depending on the option.
//!
//! The positions come from the start position after 1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6
//! 4. Ng1: Black to move can play Ng8 and repeat the start position a third time (a draw
//! by threefold repetition), or play on.

use tarpon::chess::notation::{parse_uci, to_uci};
use tarpon::chess::{Move, Position};
use tarpon::search::history::Histories;
use tarpon::search::timeman::Limits;
use tarpon::search::tt::TranspositionTable;
use tarpon::search::{SearchControl, SearchOptions, SearchResult, think};

const SHUFFLE: [&str; 7] = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"];
/// The move that repeats the start position a third time.
const REPEAT: &str = "f6g8";

/// `fen` followed by the knight shuffle, with Black to move.
fn shuffled(fen: &str) -> Position {
    let mut pos = Position::from_fen(fen, false).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for text in SHUFFLE {
        let m = parse_uci(pos.board(), text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        pos.make(m);
    }
    pos
}

fn search(pos: &Position, contempt: i32) -> SearchResult {
    let tt = TranspositionTable::new(16);
    let mut histories = Histories::new();
    let limits = Limits {
        depth: Some(10),
        ..Default::default()
    };
    let options = SearchOptions {
        contempt,
        ..SearchOptions::default()
    };
    let no_restriction: &[Move] = &[];
    think(
        pos,
        limits,
        no_restriction,
        options,
        &tt,
        &mut histories,
        &SearchControl::default(),
    )
}

fn best(pos: &Position, contempt: i32) -> String {
    to_uci(pos.board(), search(pos, contempt).best)
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// The start position without Black's queen knight: Black is a piece down.
const KNIGHT_DOWN: &str = "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn contempt_avoids_a_repetition_in_an_even_position_and_negative_contempt_takes_it() {
    let pos = shuffled(START);
    assert_ne!(best(&pos, 100), REPEAT, "contempt 100 should play on");
    assert_eq!(
        best(&pos, -100),
        REPEAT,
        "contempt -100 should take the draw"
    );
}

#[test]
fn contempt_does_not_avoid_a_draw_at_any_price() {
    // A piece down, the draw is better than playing on, with or without contempt.
    let pos = shuffled(KNIGHT_DOWN);
    assert_eq!(best(&pos, 0), REPEAT);
    assert_eq!(best(&pos, 100), REPEAT);
}

#[test]
fn the_draw_score_moves_by_the_contempt_for_the_side_to_move_at_the_root() {
    let pos = shuffled(KNIGHT_DOWN);
    let repeat = parse_uci(pos.board(), REPEAT).unwrap();
    for contempt in [-100, -30, 0, 30, 100] {
        let tt = TranspositionTable::new(16);
        let result = think(
            &pos,
            Limits {
                depth: Some(6),
                ..Default::default()
            },
            &[repeat],
            SearchOptions {
                contempt,
                ..SearchOptions::default()
            },
            &tt,
            &mut Histories::new(),
            &SearchControl::default(),
        );
        assert_eq!(result.score, -contempt, "contempt {contempt}");
    }
}
