//! The tutorial search of `examples/minimal_search.rs` (the baseline the tour compares the
//! real search with): it plays legal moves and finds a mate in two.

#[path = "../../examples/minimal_search.rs"]
#[allow(dead_code)]
mod minimal;

use tarpon::chess::Position;
use tarpon::chess::movegen::legal_moves;
use tarpon::chess::notation::to_uci;

#[test]
fn the_minimal_search_plays_legal_moves() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    ] {
        let pos = Position::from_fen(fen, false).unwrap();
        let (best, _, nodes) = minimal::best_move(&pos, 3);
        assert!(legal_moves(&pos).contains(best), "{fen}: {best:?}");
        assert!(nodes > 0);
    }
}

#[test]
fn the_minimal_search_finds_a_mate_in_two_and_takes_a_free_queen() {
    // 1. Qd8+ Bxd8 2. Re8#.
    let pos = Position::from_fen(
        "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
        false,
    )
    .unwrap();
    let (best, score, _) = minimal::best_move(&pos, 3);
    assert_eq!(to_uci(pos.board(), best), "d5d8");
    assert_eq!(score, minimal::MATE - 3);
    // A queen left hanging is taken.
    let pos = Position::from_fen("4k3/8/8/3q4/8/2N5/8/4K3 w - - 0 1", false).unwrap();
    let (best, score, _) = minimal::best_move(&pos, 2);
    assert_eq!(to_uci(pos.board(), best), "c3d5");
    assert!(score > 300, "{score}");
}
