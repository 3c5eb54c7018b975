//! Static exchange evaluation: every line of the `see.epd` suite (`tests/data`), hand-made
//! positions for the rules the suite touches lightly (en passant, promotion, pins, the
//! king as the last capturer), and the promise that `see_ge` is exactly `see(..) >= t`.

use crate::common;

use common::board;
use tarpon::chess::fen;
use tarpon::chess::movegen::legal_moves;
use tarpon::chess::notation::{parse_san, to_san};
use tarpon::chess::{Board, Move, MoveKind};
use tarpon::search::see::{SEE_VALUES, see, see_ge};

fn san(b: &Board, text: &str) -> Move {
    parse_san(b, text).unwrap_or_else(|e| panic!("{text}: {e} in {}", fen::to_fen(b)))
}

/// Checks `see` against `expected` and `see_ge` on both sides of it.
fn check(fen_text: &str, move_text: &str, expected: i32) {
    let b = board(fen_text);
    let m = san(&b, move_text);
    let context = format!("{fen_text}; {move_text}");
    assert_eq!(see(&b, m), expected, "see of {context}");
    assert!(
        see_ge(&b, m, expected),
        "see_ge(.., {expected}) of {context}"
    );
    assert!(
        !see_ge(&b, m, expected + 1),
        "see_ge(.., {}) of {context}",
        expected + 1
    );
}

#[test]
fn values() {
    assert_eq!(SEE_VALUES[..5], [100, 300, 300, 500, 900]);
    assert!(SEE_VALUES[5] > 9 * 900 + 2 * (500 + 300 + 300));
}

#[test]
fn suite() {
    let text = common::data_file("see.epd");
    let mut checked = 0;
    for (number, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert!(fields.len() >= 3, "see.epd line {}: {line:?}", number + 1);
        let expected: i32 = fields[2]
            .parse()
            .unwrap_or_else(|e| panic!("see.epd line {}: value {:?}: {e}", number + 1, fields[2]));
        check(fields[0], fields[1], expected);
        checked += 1;
    }
    assert_eq!(checked, 74, "see.epd should have 74 positions");
}

#[test]
fn en_passant() {
    // Nothing defends: a pawn won.
    check("4k3/8/8/3pP3/8/8/8/4K3 w - d6", "exd6", 100);
    // The rook on d1 sees d6 only once the pawn taken on d5 is gone; it makes the rook on
    // d8 think twice about recapturing.
    check("3rk3/8/8/3pP3/8/8/8/3RK3 w - d6", "exd6", 100);
    // Without the rook on d1 the pawn is simply traded back.
    check("3rk3/8/8/3pP3/8/8/8/4K3 w - d6", "exd6", 0);
}

#[test]
fn promotions() {
    // A quiet promotion onto a square the rook guards: the new queen is lost.
    check("3r3k/4P3/8/8/8/8/8/4K3 w - -", "e8=Q", -100);
    check("3r3k/4P3/8/8/8/8/8/4K3 w - -", "e8=N", -100);
    // Capturing and promoting, undefended: rook plus queen minus pawn.
    check("3r3k/4P3/8/8/8/8/8/4K3 w - -", "exd8=Q", 1300);
    check("3r3k/4P3/8/8/8/8/8/4K3 w - -", "exd8=N", 700);
    // The queen on a5 takes back on d8.
    check("3r3k/4P3/8/q7/8/8/8/6K1 w - -", "exd8=Q", 400);
    check("3r3k/4P3/8/q7/8/8/8/6K1 w - -", "exd8=N", 400);
    // A recapture by a pawn onto its last rank promotes too: Rxd1 is answered by exd1=Q,
    // which costs White the rook and lets Black queen...
    check("4k3/8/8/8/8/8/4p3/3rR1K1 w - -", "Rxd1", -800);
    // ...unless a knight can take the new queen.
    check("4k3/8/8/8/8/2N5/4p3/3rR1K1 w - -", "Rxd1", 100);
}

#[test]
fn king_captures_only_last() {
    // The rook on d8 guards d1 through the queen's old square, so the king cannot take
    // the queen back: Black wins the rook outright.
    check("3rk3/8/8/3q4/8/8/8/3RK3 b - -", "Qxd1+", 500);
    // With no rook behind, Kxd1 wins the queen for the rook.
    check("4k3/8/8/3q4/8/8/8/3RK3 b - -", "Qxd1+", -400);
    // A king may take an undefended piece.
    check("4k3/8/8/8/8/8/3q4/4K3 w - -", "Kxd2", 900);
}

#[test]
fn pins() {
    // The pawn on c3 is pinned along the third rank by the rook on d3 and cannot take back
    // on d4 while that rook stays: the other rook wins the knight for nothing.
    check("3r3k/8/8/8/3N4/K1Pr4/8/8 b - -", "R8xd4", 300);
    // Once the pinning rook itself captures on d4 the pin is gone: cxd4, Rxd4.
    check("3r3k/8/8/8/3N4/K1Pr4/8/8 b - -", "R3xd4", -100);
    // A pinned piece may still capture along its pin line: the bishop on c3 takes on d4
    // between its king and the queen, and the queen's recapture is met by the rook.
    check("7k/8/4n3/4q3/8/2B5/8/K2R4 b - -", "Nd4", -300);
}

#[test]
fn quiet_moves_and_castling() {
    // A knight walking onto a pawn-guarded square loses itself.
    check("4k3/8/4p3/8/8/8/8/1N2K3 w - -", "Nc3", 0);
    check("4k3/8/8/2p5/8/8/2N5/4K3 w - -", "Nd4", -300);
    // Castling is worth nothing, whatever guards the rook's square.
    let b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq -");
    let castle = san(&b, "O-O");
    assert_eq!(castle.kind(), MoveKind::Castling);
    assert_eq!(see(&b, castle), 0);
    assert!(see_ge(&b, castle, 0));
    assert!(see_ge(&b, castle, -500));
    assert!(!see_ge(&b, castle, 1));
}

#[test]
fn extreme_thresholds() {
    let b = board("3rk3/8/8/3q4/8/8/8/3RK3 b - -");
    let m = san(&b, "Qxd1+");
    assert!(see_ge(&b, m, i32::MIN));
    assert!(!see_ge(&b, m, i32::MAX));
}

/// `see_ge` must agree with `see` for every threshold, on every legal move of the perft
/// suite's positions and of the SEE suite's.
#[test]
fn see_ge_agrees_with_see() {
    let mut fens = common::suite_fens("perft.epd");
    fens.extend(
        common::data_file("see.epd")
            .lines()
            .filter_map(|l| l.split(';').next())
            .map(|f| f.trim().to_string())
            .filter(|f| !f.is_empty()),
    );
    let mut checked = 0u64;
    for fen_text in &fens {
        let b = board(fen_text);
        for &m in legal_moves(&b).iter() {
            let exact = see(&b, m);
            let thresholds = [exact - 1, exact, exact + 1]
                .into_iter()
                .chain((-2000..=2000).step_by(50));
            for t in thresholds {
                assert_eq!(
                    see_ge(&b, m, t),
                    exact >= t,
                    "{fen_text}; {}: see = {exact}, threshold {t}",
                    to_san(&b, m)
                );
                checked += 1;
            }
            // Sanity bounds: nothing wins more than what it takes plus a queening, and a
            // quiet move (no capture, no promotion) never wins anything.
            let captured = b
                .piece_on(m.to())
                .map_or(0, |p| SEE_VALUES[p.kind().index()]);
            let bonus = m
                .promotion_piece()
                .map_or(0, |p| SEE_VALUES[p.index()] - 100);
            let taken = if m.kind() == MoveKind::EnPassant {
                100
            } else {
                captured
            };
            if m.kind() != MoveKind::Castling {
                assert!(
                    exact <= taken + bonus,
                    "{fen_text}; {}: {exact}",
                    to_san(&b, m)
                );
            }
        }
    }
    assert!(checked > 100_000, "only {checked} checks");
}
