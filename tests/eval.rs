//! The material + piece-square evaluation: colour symmetry, table orientation, material
//! sanity, the game phase, and the `eval` trace.

mod common;

use common::Rng;
use tarpon::chess::fen::{self, START_FEN};
use tarpon::chess::movegen::{legal_moves, noisy_moves};
use tarpon::chess::{Board, Color};
use tarpon::eval::{self, EvalCache, MAX_PHASE};

fn board(text: &str) -> Board {
    fen::parse(text, false).unwrap_or_else(|e| panic!("bad test FEN {text}: {e}"))
}

/// The colour-flipped mirror of a FEN: ranks in reverse order with the piece colours
/// swapped, the other side to move, castling rights and the en-passant square mirrored.
/// Built from the text alone, independent of the engine's board code.
fn flip_fen(text: &str) -> String {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let swap_case = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let placement: Vec<String> = fields[0].split('/').rev().map(swap_case).collect();
    let side = match fields[1] {
        "w" => "b",
        "b" => "w",
        other => panic!("bad side to move {other}"),
    };
    // Swapped, then White's rights first again as FEN writes them (KQkq stays KQkq).
    let castling = if fields[2] == "-" {
        "-".to_string()
    } else {
        let swapped = swap_case(fields[2]);
        let (white, black): (String, String) =
            swapped.chars().partition(|c| c.is_ascii_uppercase());
        white + &black
    };
    let ep = if fields[3] == "-" {
        "-".to_string()
    } else {
        let b = fields[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    let mut out = format!("{} {side} {castling} {ep}", placement.join("/"));
    for rest in &fields[4..] {
        out.push(' ');
        out.push_str(rest);
    }
    out
}

/// The opening positions of the shared suite (the first few hundred), plus positions
/// reached from each by a random walk, so endgames, promotions and en-passant squares
/// are covered as well.
fn sample_positions() -> Vec<String> {
    let text = common::data_file("openings.epd");
    let openings: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(400)
        .map(|l| {
            // EPD may carry operations after the four position fields; keep the FEN part.
            let f: Vec<&str> = l.split_whitespace().collect();
            let n = f.iter().take(6).take_while(|s| !s.ends_with(';')).count();
            f[..n.max(4)].join(" ")
        })
        .collect();
    assert!(openings.len() >= 100, "too few positions in openings.epd");

    let mut out = openings.clone();
    let mut rng = Rng::new(0xE7A1_5EED);
    for start in openings.iter().step_by(4) {
        let mut b = board(start);
        for ply in 0..160 {
            let moves = legal_moves(&b);
            if moves.is_empty() {
                break;
            }
            // Half the time take a capture or promotion when there is one, so material
            // actually comes off (and goes on) the board.
            let noisy = noisy_moves(&b);
            let m = if !noisy.is_empty() && rng.chance(50) {
                *rng.pick(noisy.as_slice())
            } else {
                *rng.pick(moves.as_slice())
            };
            b.play(m);
            if ply % 20 == 19 {
                out.push(fen::to_fen(&b));
            }
        }
        out.push(fen::to_fen(&b));
    }
    out
}

#[test]
fn flip_fen_is_an_involution() {
    let text = "r3k2r/pp1n1ppp/8/2pP4/8/8/PPP2PPP/R3K2R w KQkq c6 0 12";
    assert_eq!(
        flip_fen(text),
        "r3k2r/ppp2ppp/8/8/2Pp4/8/PP1N1PPP/R3K2R b KQkq c3 0 12"
    );
    assert_eq!(flip_fen(&flip_fen(text)), text);
}

#[test]
fn colour_flip_gives_the_same_score_for_the_side_to_move() {
    let positions = sample_positions();
    assert!(positions.len() > 500);
    for text in &positions {
        let b = board(text);
        let flipped_text = flip_fen(text);
        let flipped = board(&flipped_text);
        assert_eq!(
            eval::evaluate_without_cache(&b),
            eval::evaluate_without_cache(&flipped),
            "{text} vs its mirror {flipped_text}"
        );
        assert_eq!(
            eval::evaluate_white(&b, &mut EvalCache::new()),
            -eval::evaluate_white(&flipped, &mut EvalCache::new()),
            "{text}"
        );
        assert_eq!(eval::phase(&b), eval::phase(&flipped), "{text}");
    }
}

#[test]
fn start_position_is_level() {
    let b = board(START_FEN);
    assert_eq!(eval::evaluate_without_cache(&b), 0);
    let black_to_move = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(eval::evaluate_without_cache(&black_to_move), 0);
    assert_eq!(eval::phase(&b), MAX_PHASE);
}

#[test]
fn score_is_from_the_side_to_move() {
    // After 1.e4 the pawn stands better than on e2: good for White, so bad for Black,
    // who is to move.
    let b = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert!(eval::evaluate_white(&b, &mut EvalCache::new()) > 0);
    assert_eq!(
        eval::evaluate_without_cache(&b),
        -eval::evaluate_white(&b, &mut EvalCache::new())
    );
    let w = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(
        eval::evaluate_without_cache(&w),
        eval::evaluate_white(&w, &mut EvalCache::new())
    );
}

#[test]
fn tables_are_oriented_for_tarpon_squares() {
    // Pure endgame (phase 0), so the score is the endgame sum, computable by hand from the
    // published (a8-first, White's view) tables: White pawn e2 = 94 + 13 and White king
    // e1 = -28 (both from the rank-1/rank-2 rows, the last ones printed); Black's king on
    // g8 reads its mirrored square g1 = -24, and counts against White.
    let b = board("6k1/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(eval::phase(&b), 0);
    assert_eq!(eval::evaluate_without_cache(&b), 94 + 13 - 28 + 24);
    // Kings on mirrored squares cancel.
    let b = board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(eval::evaluate_without_cache(&b), 94 + 13);

    // A pawn about to promote is worth far more than one at home, for either colour.
    let near = board("8/P7/8/8/8/8/8/K6k w - - 0 1");
    let home = board("8/8/8/8/8/8/P7/K6k w - - 0 1");
    assert!(eval::evaluate_without_cache(&near) > eval::evaluate_without_cache(&home) + 100);
    let near = board("k6K/8/8/8/8/8/p7/8 b - - 0 1");
    let home = board("k6K/p7/8/8/8/8/8/8 b - - 0 1");
    assert!(eval::evaluate_without_cache(&near) > eval::evaluate_without_cache(&home) + 100);

    // Middlegame: a knight in the centre beats one in the corner.
    let centre = board("rnbqkbnr/pppppppp/8/8/3N4/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1");
    let corner = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBNR w Kkq - 0 1");
    assert!(eval::evaluate_without_cache(&centre) > eval::evaluate_without_cache(&corner));
}

#[test]
fn material_dominates() {
    // White is a queen up (Black's queen removed), in the middlegame and the endgame,
    // with either side to move.
    let cases = [
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        "4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1",
        "4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 1",
    ];
    for text in cases {
        let b = board(text);
        let white = eval::evaluate_white(&b, &mut EvalCache::new());
        assert!(white > 700, "{text}: {white}");
        let expected = match b.side_to_move() {
            Color::White => white,
            Color::Black => -white,
        };
        assert_eq!(eval::evaluate_without_cache(&b), expected, "{text}");
    }
    // Black a rook up.
    let b = board("r3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert!(eval::evaluate_without_cache(&b) > 400);
}

#[test]
fn phase_endpoints() {
    assert_eq!(eval::phase(&board(START_FEN)), 24);
    assert_eq!(eval::phase(&board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")), 0);
    assert_eq!(
        eval::phase(&board("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")),
        0
    );
    assert_eq!(eval::phase(&board("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1")), 8);
    assert_eq!(eval::phase(&board("r3k3/8/8/8/8/8/8/1N2K3 w - - 0 1")), 3);
    // Promoted queens would add up to 4 * 9 + ... per side: the phase stays clamped.
    let many = board("qqqqkqqq/8/8/8/8/8/8/QQQQKQQQ w - - 0 1");
    assert_eq!(eval::phase(&many), MAX_PHASE);
    let _ = eval::evaluate_without_cache(&many);

    // At the endpoints the blend is exactly one of the two scores.
    assert_eq!(eval::taper(100, -50, 24), 100);
    assert_eq!(eval::taper(100, -50, 0), -50);
    assert_eq!(eval::taper(100, -50, 12), 25);
    // Rounding treats a score and its negation alike (needed for colour symmetry).
    for phase in 0..=24 {
        for (mg, eg) in [(7, 3), (-13, 5), (101, -99)] {
            assert_eq!(eval::taper(-mg, -eg, phase), -eval::taper(mg, eg, phase));
        }
    }
}

#[test]
fn trace_agrees_with_evaluate() {
    for text in sample_positions().iter().step_by(3) {
        let b = board(text);
        let trace = eval::trace(&b);
        let last = trace.lines().last().expect("trace has lines");
        let white = match b.side_to_move() {
            Color::White => eval::evaluate_without_cache(&b),
            Color::Black => -eval::evaluate_without_cache(&b),
        };
        assert_eq!(
            last,
            format!("Final evaluation: {white} (white side)"),
            "{text}"
        );
        assert_eq!(eval::traced(&b).blend.white, white, "{text}");
    }
}

#[test]
fn trace_shows_terms_and_phase() {
    let b = board("6k1/8/8/8/8/8/4P3/4K3 b - - 0 1");
    let trace = eval::trace(&b);
    for needle in [
        "Material", "Pawn PST", "King PST", "Total", "Phase: 0", "White", "Black",
    ] {
        assert!(trace.contains(needle), "missing {needle:?} in\n{trace}");
    }
    // White's material row: one pawn, 82 middlegame and 94 endgame; Black has none.
    let material = trace
        .lines()
        .find(|l| l.trim_start().starts_with("Material"))
        .unwrap();
    let nums: Vec<i32> = material
        .split(|c: char| c == '|' || c.is_whitespace())
        .filter_map(|s| s.parse().ok())
        .collect();
    assert_eq!(nums, vec![82, 94, 0, 0, 82, 94]);
    // Black to move, but the trace reports White's view.
    assert_eq!(
        trace.lines().last().unwrap(),
        format!("Final evaluation: {} (white side)", 94 + 13 - 28 + 24)
    );
}

#[test]
fn evaluation_is_deterministic_and_bounded() {
    for text in sample_positions() {
        let b = board(&text);
        let s = eval::evaluate_without_cache(&b);
        assert_eq!(s, eval::evaluate_without_cache(&b));
        assert!(s.abs() < 20_000, "{text}: {s}");
    }
}
