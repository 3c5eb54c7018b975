//! The rules that end a game: checkmate, stalemate, threefold repetition, the fifty-move
//! rule and insufficient material, as `Position` reports them; and the null move, which
//! the search uses to pass.

use tarpon::chess::fen;
use tarpon::chess::movegen::legal_moves;
use tarpon::chess::notation::parse_san;
use tarpon::chess::{Color, Outcome, Position, Square};

use crate::common;

use common::position;

/// Plays moves given in SAN, separated by spaces.
fn play(pos: &mut Position, moves: &str) {
    for text in moves.split_whitespace() {
        let m =
            parse_san(pos.board(), text).unwrap_or_else(|e| panic!("{text}: {e} in {}", pos.fen()));
        pos.make(m);
    }
}

// ----- Checkmate and stalemate -----

#[test]
fn fools_mate() {
    let mut pos = Position::startpos();
    play(&mut pos, "f3 e5 g4");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "Qh4");
    assert!(pos.in_check());
    assert!(legal_moves(pos.board()).is_empty());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
    // Taking the mating move back reopens the game.
    pos.unmake();
    assert_eq!(pos.outcome(), None);
}

#[test]
fn scholars_mate() {
    let mut pos = Position::startpos();
    play(&mut pos, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
}

#[test]
fn stalemate() {
    // Black's king on h8 is not attacked, but every square around it is.
    let pos = position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!pos.in_check());
    assert!(legal_moves(pos.board()).is_empty());
    assert_eq!(pos.outcome(), Some(Outcome::Stalemate));

    // The same, reached by a careless queen move.
    let mut pos = position("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "Qf7");
    assert_eq!(pos.outcome(), Some(Outcome::Stalemate));

    // White's only pawn is blocked and the black king takes b1 and b2 from White's king.
    let pos = position("8/8/8/8/8/p7/P1k5/K7 w - - 0 1");
    assert_eq!(pos.outcome(), Some(Outcome::Stalemate));
}

#[test]
fn no_outcome_in_ordinary_positions() {
    assert_eq!(Position::startpos().outcome(), None);
    assert_eq!(
        position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").outcome(),
        None
    );
    // In check but able to answer it.
    assert_eq!(position("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").outcome(), None);
}

// ----- Threefold repetition -----

#[test]
fn knight_shuffles_repeat_the_start_position() {
    let mut pos = Position::startpos();
    assert_eq!(pos.repetitions(), 0);
    // After each ply of Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8: how often the position has been
    // seen before. Every position of the second round repeats one of the first.
    let expected = [0, 0, 0, 1, 1, 1, 1, 2];
    let moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
    for (ply, (text, count)) in moves.iter().zip(expected).enumerate() {
        play(&mut pos, text);
        assert_eq!(pos.repetitions(), count, "after ply {}", ply + 1);
        assert_eq!(pos.is_threefold_repetition(), count >= 2);
    }
    // The start position has now been on the board three times.
    assert_eq!(pos.outcome(), Some(Outcome::ThreefoldRepetition));
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5"
    );
    // Taking a move back takes the repetition back.
    pos.unmake();
    assert_eq!(pos.repetitions(), 1);
    assert_eq!(pos.outcome(), None);
    // A third round makes it a fourth occurrence.
    play(&mut pos, "Ng8 Nf3 Nf6 Ng1 Ng8");
    assert_eq!(pos.repetitions(), 3);
    assert_eq!(pos.outcome(), Some(Outcome::ThreefoldRepetition));
}

#[test]
fn the_same_placement_with_the_other_side_to_move_is_a_different_position() {
    // White's king walks a triangle (e1-d1-d2-e1, three moves) while Black's steps out and
    // back (two moves): the men stand as at the start, but now Black is to move.
    let mut pos = position("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    play(&mut pos, "Kd1 Ke7 Kd2 Ke8 Ke1");
    assert_eq!(pos.fen(), "r3k3/8/8/8/8/8/8/R3K3 b - - 5 3");
    assert_eq!(pos.repetitions(), 0);
}

#[test]
fn an_irreversible_move_starts_the_count_afresh() {
    let mut pos = Position::startpos();
    play(&mut pos, "Nf3 Nf6 Ng1 Ng8");
    assert_eq!(pos.repetitions(), 1);
    // A pawn move: nothing before it can ever come back.
    play(&mut pos, "e4");
    assert_eq!(pos.repetitions(), 0);
    play(&mut pos, "e5");
    assert_eq!(pos.repetitions(), 0);
    play(&mut pos, "Nf3 Nf6 Ng1 Ng8");
    // Only the position after 2...e5 has repeated, once.
    assert_eq!(pos.repetitions(), 1);
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "Nf3 Nf6 Ng1 Ng8");
    assert_eq!(pos.repetitions(), 2);
    assert_eq!(pos.outcome(), Some(Outcome::ThreefoldRepetition));
}

#[test]
fn lost_castling_rights_make_positions_differ() {
    // The kings step out and back: the men return, the castling rights do not, and the
    // halfmove clock (which a king move does not reset) does not hide the difference.
    let mut pos = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut pos, "Ke2 Ke7 Ke1 Ke8");
    assert_eq!(pos.fen(), "r3k2r/8/8/8/8/8/8/R3K2R w - - 4 3");
    assert_eq!(pos.repetitions(), 0);
    play(&mut pos, "Ke2 Ke7 Ke1 Ke8");
    assert_eq!(pos.repetitions(), 1);
}

#[test]
fn en_passant_rights_make_positions_differ() {
    // After e2-e4 Black may take en passant (d4xe3). When the kings have stepped out and
    // back the men are the same, but that right has gone: not a repetition.
    let mut pos = position("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    play(&mut pos, "e4");
    assert_eq!(pos.en_passant(), Some(Square::parse("e3").unwrap()));
    play(&mut pos, "Ke7 Kf2 Ke8 Ke1");
    assert_eq!(pos.fen(), "4k3/8/8/8/3pP3/8/8/4K3 b - - 4 3");
    assert_eq!(pos.repetitions(), 0);
    play(&mut pos, "Ke7 Kf2 Ke8 Ke1");
    assert_eq!(pos.repetitions(), 1);

    // With the black pawn on a4 instead, no en-passant capture was ever possible, so the
    // position after e4 is already the same as after the king walk.
    let mut pos = position("4k3/8/8/8/p7/8/4P3/4K3 w - - 0 1");
    play(&mut pos, "e4");
    assert_eq!(pos.en_passant(), None);
    play(&mut pos, "Ke7 Kf2 Ke8 Ke1");
    assert_eq!(pos.repetitions(), 1);
}

#[test]
fn repetition_counts_only_moves_played_since_setup() {
    // A FEN's halfmove clock says moves were played, but their positions are unknown.
    let mut pos = position("4k3/8/8/8/8/8/8/R3K3 w - - 40 60");
    assert_eq!(pos.repetitions(), 0);
    play(&mut pos, "Ra2 Kd8 Ra1 Ke8");
    assert_eq!(pos.repetitions(), 1);
}

// ----- Fifty-move rule -----

#[test]
fn fifty_move_rule_at_the_hundredth_ply() {
    let mut pos = position("4k3/8/8/8/8/8/8/R3K3 w - - 98 80");
    play(&mut pos, "Ra2");
    assert_eq!(pos.halfmove_clock(), 99);
    assert!(!pos.is_fifty_move_draw());
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "Kd8");
    assert_eq!(pos.halfmove_clock(), 100);
    assert!(pos.is_fifty_move_draw());
    assert_eq!(pos.outcome(), Some(Outcome::FiftyMoveRule));
    // A FEN can start beyond the limit.
    let pos = position("4k3/8/8/8/8/8/8/R3K3 w - - 150 120");
    assert_eq!(pos.outcome(), Some(Outcome::FiftyMoveRule));
}

#[test]
fn captures_and_pawn_moves_reset_the_clock() {
    let mut pos = position("4k3/8/8/8/8/8/3rP3/R3K3 w - - 99 80");
    play(&mut pos, "e4");
    assert_eq!(pos.halfmove_clock(), 0);
    assert!(!pos.is_fifty_move_draw());
    let mut pos = position("4k3/8/8/8/8/8/3rP3/R3K3 w - - 99 80");
    play(&mut pos, "Kxd2");
    assert_eq!(pos.halfmove_clock(), 0);
    assert_eq!(pos.outcome(), None);
}

#[test]
fn a_mate_on_the_hundredth_ply_wins() {
    // Black's own pawns box its king in: Ra8 is mate, given on the hundredth ply.
    let mut pos = position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
    play(&mut pos, "Ra8#");
    assert_eq!(pos.halfmove_clock(), 100);
    assert!(!pos.is_fifty_move_draw());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
    // A mere check on that ply does not save the game: h7 is free, so it is a draw.
    let mut pos = position("6k1/5pp1/8/8/8/8/8/R5K1 w - - 99 80");
    play(&mut pos, "Ra8+");
    assert!(pos.in_check());
    assert!(pos.is_fifty_move_draw());
    assert_eq!(pos.outcome(), Some(Outcome::FiftyMoveRule));
    // Stalemate on that ply is a draw either way; it is reported as stalemate.
    let mut pos = position("7k/8/6K1/8/8/8/8/5Q2 w - - 99 80");
    play(&mut pos, "Qf7");
    assert_eq!(pos.outcome(), Some(Outcome::Stalemate));
}

// ----- Insufficient material -----

/// Whether the position is dead by material, checked against an expectation.
fn dead(text: &str) -> bool {
    let pos = position(text);
    let dead = pos.is_insufficient_material();
    assert_eq!(
        dead,
        pos.has_insufficient_material(Color::White) && pos.has_insufficient_material(Color::Black)
    );
    if dead {
        assert_eq!(pos.outcome(), Some(Outcome::InsufficientMaterial), "{text}");
    }
    dead
}

/// Whether `color` still has mating material in the position.
fn can_mate(text: &str, color: Color) -> bool {
    !position(text).has_insufficient_material(color)
}

#[test]
fn lone_minor_pieces_cannot_mate() {
    assert!(dead("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "K v K");
    // A bishop of either square colour, for either side.
    assert!(dead("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"), "KB(dark) v K");
    assert!(dead("4k3/8/8/8/8/8/8/3BK3 w - - 0 1"), "KB(light) v K");
    assert!(dead("4kb2/8/8/8/8/8/8/4K3 b - - 0 1"), "K v KB");
    assert!(dead("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"), "KN v K");
    assert!(dead("1n2k3/8/8/8/8/8/8/4K3 b - - 0 1"), "K v KN");
}

#[test]
fn bishops_all_on_one_square_colour_cannot_mate() {
    // c1 and f8 are both dark squares: neither bishop can ever cover a light square, and
    // every king always has a light square next to it.
    assert!(
        dead("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"),
        "KB v KB, same colour"
    );
    // Several bishops, all on dark squares (c1 and e3).
    assert!(
        dead("4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1"),
        "KBB v K, same colour"
    );
    assert!(
        dead("4kb2/8/8/8/8/4B3/8/2B1K3 w - - 0 1"),
        "KBB v KB, all dark"
    );
}

#[test]
fn bishops_of_opposite_colours_can_mate() {
    // c1 is dark, c8 light.
    assert!(
        !dead("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1"),
        "KB v KB, opposite colours"
    );
    // The proof: a legal mate with exactly this material. Black's own dark bishop on b8
    // takes its king's last square, and the light bishop checks from d5.
    let pos = position("kb6/8/1K6/3B4/8/8/8/8 b - - 0 1");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
    assert!(
        !dead("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"),
        "KBB v K, both colours"
    );
}

#[test]
fn a_knight_can_mate_with_help_from_enemy_men() {
    assert!(!dead("1n2k3/8/8/8/8/8/8/1N2K3 w - - 0 1"), "KN v KN");
    assert!(can_mate("1n2k3/8/8/8/8/8/8/1N2K3 w - - 0 1", Color::White));
    assert!(can_mate("1n2k3/8/8/8/8/8/8/1N2K3 w - - 0 1", Color::Black));
    // The black knight on a7 blocks its own king; it cannot reach the checking knight.
    let pos = position("k7/n1K5/1N6/8/8/8/8/8 b - - 0 1");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );

    assert!(
        can_mate("1r2k3/8/8/8/8/8/8/1N2K3 w - - 0 1", Color::White),
        "KN v KR"
    );
    let pos = position("6rk/5N2/7K/8/8/8/8/8 b - - 0 1");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );

    // A knight for the other side can block too, so the bishop can mate, and vice versa.
    assert!(!dead("1n2k3/8/8/8/8/8/8/2B1K3 w - - 0 1"), "KB v KN");
    assert!(can_mate("1n2k3/8/8/8/8/8/8/2B1K3 w - - 0 1", Color::White));
    assert!(can_mate("1n2k3/8/8/8/8/8/8/2B1K3 w - - 0 1", Color::Black));
    let pos = position("kn6/1B6/1K6/8/8/8/8/8 b - - 0 1");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
    // A pawn may become anything, so it always leaves mating chances.
    assert!(
        can_mate("4k3/p7/8/8/8/8/8/2B1K3 w - - 0 1", Color::White),
        "KB v KP"
    );
    assert!(
        can_mate("4k3/p7/8/8/8/8/8/1N2K3 w - - 0 1", Color::White),
        "KN v KP"
    );
}

#[test]
fn two_knights_are_not_insufficient() {
    // Two knights cannot force mate, but a mate exists if the defender blunders into it,
    // so the position is not dead.
    assert!(!dead("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"), "KNN v K");
    let pos = position("k7/2NN4/1K6/8/8/8/8/8 b - - 0 1");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
    assert!(!dead("4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1"), "KBN v K");
}

#[test]
fn major_pieces_and_pawns_are_always_sufficient() {
    assert!(!dead("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), "KR v K");
    assert!(!dead("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), "KQ v K");
    assert!(!dead("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"), "KP v K");
    assert!(!dead("4k3/p7/8/8/8/8/8/4K3 w - - 0 1"), "K v KP");
}

#[test]
fn insufficiency_is_judged_per_side() {
    // A knight cannot mate a king whose only helper is a queen (a queen next to the king
    // could always take the knight), but the queen can mate.
    let pos = position("3qk3/8/8/8/8/8/8/1N2K3 w - - 0 1");
    assert!(pos.has_insufficient_material(Color::White));
    assert!(!pos.has_insufficient_material(Color::Black));
    assert!(!pos.is_insufficient_material());
    assert_eq!(pos.outcome(), None);
    // Likewise a lone bishop against a rook: the rook can always block or capture.
    let pos = position("r3k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert!(pos.has_insufficient_material(Color::White));
    assert!(!pos.has_insufficient_material(Color::Black));
}

#[test]
fn a_capture_can_leave_insufficient_material() {
    let mut pos = position("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "Kxd2");
    assert_eq!(pos.outcome(), Some(Outcome::InsufficientMaterial));
}

// ----- Null move -----

#[test]
fn null_move_passes_the_turn_and_clears_en_passant() {
    let text = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3";
    let mut pos = position(text);
    let key = pos.key();
    assert!(pos.en_passant().is_some());

    pos.make_null();
    assert_eq!(pos.side_to_move(), Color::White);
    // The capture d4xe3 was possible only right after e2-e4; after a pass it is gone.
    assert_eq!(pos.en_passant(), None);
    assert_ne!(pos.key(), key);
    // The key after the pass is that of the same position read from FEN.
    assert_eq!((pos.key(), pos.pawn_key()), pos.compute_key());
    let passed = fen::parse(&pos.fen(), false).unwrap();
    assert_eq!(pos.key(), passed.key());
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 4"
    );

    pos.unmake();
    assert_eq!(pos.key(), key);
    assert_eq!(pos.fen(), text);
    assert_eq!(pos.board(), &fen::parse(text, false).unwrap());
}

#[test]
fn null_moves_nest_with_real_moves() {
    let mut pos = Position::startpos();
    let start = *pos.board();
    play(&mut pos, "e4");
    pos.make_null();
    play(&mut pos, "d4");
    pos.make_null();
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 1 3"
    );
    assert_eq!((pos.key(), pos.pawn_key()), pos.compute_key());
    assert_eq!(pos.plies_played(), 4);
    for _ in 0..4 {
        pos.unmake();
        assert_eq!((pos.key(), pos.pawn_key()), pos.compute_key());
    }
    assert_eq!(pos.board(), &start);
    // With nothing left to take back, unmake does nothing.
    pos.unmake();
    assert_eq!(pos.board(), &start);
}
