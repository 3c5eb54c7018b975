//! The evaluation: colour symmetry over thousands of positions, the term table, the pawn
//! hash table, and one or more sanity cases per term (a feature is worth what it should
//! be worth, in the right direction). The sanity cases test the chess knowledge in the
//! weights, not particular numbers: a tuning run whose weights fail them has learnt
//! something wrong (typically from too little data).

use crate::common;

use common::{board, flip_fen, perft_positions, sample_positions};
use tarpon::chess::Color;
use tarpon::chess::fen::{self, START_FEN};
use tarpon::eval::params::{INFO, offset};
use tarpon::eval::{self, EvalCache, MAX_PHASE, S, SCALE_MAX, endgame};

/// White's view of the evaluation of a FEN.
fn white(text: &str) -> i32 {
    eval::traced(&board(text)).blend.white
}

/// How often weight `index` was counted for `color`.
fn coef(text: &str, index: usize, color: Color) -> i32 {
    eval::traced(&board(text)).coef[index][color.index()]
}

/// White's and Black's value of one row of the term table.
fn row(text: &str, label: &str) -> (S, S) {
    let t = eval::traced(&board(text));
    let (_, w, b) = t
        .rows()
        .into_iter()
        .find(|(l, _, _)| *l == label)
        .unwrap_or_else(|| panic!("no row {label}"));
    (w, b)
}

/// Checks that `text` and its mirror evaluate alike, by every route to the score.
fn check_symmetry(text: &str, chess960: bool, cache: &mut EvalCache) {
    let b = fen::parse(text, chess960).unwrap_or_else(|e| panic!("{text}: {e}"));
    let flipped_text = flip_fen(text);
    let flipped = fen::parse(&flipped_text, chess960).unwrap_or_else(|e| panic!("{e}"));
    let white = eval::evaluate_white(&b, cache);
    assert_eq!(
        white,
        -eval::evaluate_white(&flipped, cache),
        "{text} vs its mirror {flipped_text}"
    );
    assert_eq!(
        eval::evaluate(&b, cache),
        eval::evaluate(&flipped, cache),
        "{text}"
    );
    assert_eq!(eval::phase(&b), eval::phase(&flipped), "{text}");
    // The cache changes nothing, and the traced evaluation is the same evaluation.
    assert_eq!(
        eval::evaluate_without_cache(&b),
        eval::evaluate(&b, cache),
        "{text}"
    );
    assert_eq!(eval::traced(&b).blend.white, white, "{text}");
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
fn colour_flip_gives_the_same_score_on_the_perft_suites() {
    let mut cache = EvalCache::new();
    let positions = perft_positions();
    assert!(positions.len() > 1000);
    for (text, chess960) in &positions {
        check_symmetry(text, *chess960, &mut cache);
    }
}

#[test]
fn colour_flip_gives_the_same_score_on_random_playouts() {
    let mut cache = EvalCache::new();
    let positions = sample_positions();
    assert!(positions.len() > 3000, "{}", positions.len());
    for text in &positions {
        check_symmetry(text, false, &mut cache);
    }
}

#[test]
fn start_position_is_level_but_for_the_tempo() {
    let b = board(START_FEN);
    let tempo = eval::weights::TEMPO;
    let expected = eval::taper(tempo.mg(), tempo.eg(), MAX_PHASE);
    assert_eq!(eval::evaluate_without_cache(&b), expected);
    let black_to_move = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(eval::evaluate_without_cache(&black_to_move), expected);
    assert_eq!(eval::phase(&b), MAX_PHASE);
}

#[test]
fn score_is_from_the_side_to_move() {
    for text in [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
    ] {
        let b = board(text);
        let mut cache = EvalCache::new();
        assert_eq!(
            eval::evaluate(&b, &mut cache),
            -eval::evaluate_white(&b, &mut cache)
        );
    }
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
        let w = white(text);
        assert!(w > 700, "{text}: {w}");
    }
    // Black a rook up.
    let b = board("r3k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1");
    assert!(eval::evaluate_without_cache(&b) > 400);
}

#[test]
fn phase_endpoints_and_taper() {
    assert_eq!(eval::phase(&board(START_FEN)), 24);
    assert_eq!(eval::phase(&board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")), 0);
    assert_eq!(eval::phase(&board("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1")), 8);
    assert_eq!(eval::phase(&board("r3k3/8/8/8/8/8/8/1N2K3 w - - 0 1")), 3);
    // Promoted queens would add up to 4 * 9 + ... per side: the phase stays clamped.
    let many = board("qqqqkqqq/8/8/8/8/8/8/QQQQKQQQ w - - 0 1");
    assert_eq!(eval::phase(&many), MAX_PHASE);
    assert!(eval::evaluate_without_cache(&many).abs() <= eval::EVAL_LIMIT);

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
fn piece_square_tables_are_oriented_for_tarpon_squares() {
    // The tables are printed a8 first, from White's side: a White king on e1 reads the
    // last row (entry 56 + 4), a Black king on g8 reads its mirror g1 (entry 56 + 6).
    let text = "6k1/8/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(coef(text, offset::KING_PST + 60, Color::White), 1);
    assert_eq!(coef(text, offset::KING_PST + 62, Color::Black), 1);
    let (w, b) = row(text, "King PST");
    assert_eq!(
        (w, b),
        (eval::weights::KING_PST[60], eval::weights::KING_PST[62])
    );
    // Kings on mirrored squares cancel.
    let (w, b) = row("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "King PST");
    assert_eq!(w, b);
    // Middlegame: a knight in the centre beats one in the corner.
    let centre = "rnbqkbnr/pppppppp/8/8/3N4/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1";
    let corner = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBNR w Kkq - 0 1";
    assert!(row(centre, "Knight PST").0.mg() > row(corner, "Knight PST").0.mg());
}

#[test]
fn trace_table_adds_up_and_ends_with_the_score() {
    for text in sample_positions().iter().step_by(7) {
        let b = board(text);
        let table = eval::trace(&b);
        let last = table.lines().last().expect("trace has lines");
        let white = match b.side_to_move() {
            Color::White => eval::evaluate_without_cache(&b),
            Color::Black => -eval::evaluate_without_cache(&b),
        };
        assert_eq!(
            last,
            format!("Final evaluation: {white} (white side)"),
            "{text}"
        );
        // The rows add up to the total the score was blended from.
        let t = eval::traced(&b);
        let total = t
            .rows()
            .iter()
            .fold(S::ZERO, |acc, (_, w, bl)| acc + *w - *bl);
        assert_eq!(total, t.blend.total, "{text}");
    }
}

#[test]
fn trace_table_shows_every_term_and_the_blend() {
    let table = eval::trace(&board("6k1/8/8/8/8/8/4P3/4K3 b - - 0 1"));
    for info in INFO {
        assert!(
            table.contains(info.label),
            "missing {:?} in\n{table}",
            info.label
        );
    }
    for needle in [
        "Total",
        "Phase: 0 / 24",
        "Tapered:",
        "Scale:",
        "Fifty-move",
        "White",
        "Black",
    ] {
        assert!(table.contains(needle), "missing {needle:?} in\n{table}");
    }
    // White's material row: one pawn; Black has none.
    let material = table
        .lines()
        .find(|l| l.trim_start().starts_with("Material"))
        .unwrap();
    let nums: Vec<i32> = material
        .split(|c: char| c == '|' || c.is_whitespace())
        .filter_map(|s| s.parse().ok())
        .collect();
    let pawn = eval::weights::PIECE_VALUE[0];
    assert_eq!(nums, vec![pawn.mg(), pawn.eg(), 0, 0, pawn.mg(), pawn.eg()]);
}

#[test]
fn cached_and_uncached_evaluations_agree() {
    // One cache across thousands of positions: hits, misses and overwritten slots.
    let mut cache = EvalCache::new();
    for _ in 0..2 {
        for text in sample_positions() {
            let b = board(&text);
            assert_eq!(
                eval::evaluate(&b, &mut cache),
                eval::evaluate_without_cache(&b),
                "{text}"
            );
        }
    }
}

#[test]
fn every_weight_is_used_somewhere() {
    // Each named weight must be counted in at least one position, or the tuner could
    // never fit it: sample positions plus endings the random walks rarely reach.
    let mut texts = sample_positions();
    texts.extend(
        [
            "8/8/8/3K4/8/4N3/8/4B2k w - - 0 1",
            "8/8/8/3K4/8/8/3Q4/7k w - - 0 1",
            "7k/8/8/P7/8/8/8/K7 w - - 0 1",
            "6k1/5ppp/3b4/8/6nq/8/5PPP/6K1 w - - 0 1",
        ]
        .map(String::from),
    );
    let mut seen = vec![false; INFO.len()];
    for text in &texts {
        let t = eval::traced(&board(text));
        for (i, info) in INFO.iter().enumerate() {
            let range = info.offset..info.offset + info.len;
            seen[i] |= t.coef[range].iter().any(|c| c != &[0, 0]);
        }
    }
    let unused: Vec<&str> = INFO
        .iter()
        .zip(&seen)
        .filter(|(_, s)| !**s)
        .map(|(i, _)| i.name)
        .collect();
    assert!(unused.is_empty(), "never counted: {unused:?}");
}

#[test]
fn evaluation_is_deterministic_and_bounded() {
    for text in sample_positions() {
        let b = board(&text);
        let s = eval::evaluate_without_cache(&b);
        assert_eq!(s, eval::evaluate_without_cache(&b));
        assert!(s.abs() <= eval::EVAL_LIMIT, "{text}: {s}");
    }
}

// ----- Pawn structure -----

#[test]
fn passed_pawn_on_the_sixth_beats_one_on_the_third() {
    let third = "7k/8/8/8/8/P7/8/7K w - - 0 1";
    let sixth = "7k/8/P7/8/8/8/8/7K w - - 0 1";
    assert!(white(sixth) > white(third) + 50);
    assert!(row(sixth, "Passed pawns").0.eg() > row(third, "Passed pawns").0.eg());
    assert_eq!(coef(sixth, offset::PASSED_PAWN + 5, Color::White), 1);
    // The same for Black.
    let third = "7k/8/p7/8/8/8/8/7K b - - 0 1";
    let sixth = "7k/8/8/8/8/p7/8/7K b - - 0 1";
    assert!(white(sixth) < white(third) - 50);
}

#[test]
fn a_blocked_or_caught_passer_is_worth_less() {
    // The black king in front of the pawn, against far away.
    let blocked = "8/8/8/k7/P7/8/8/7K w - - 0 1";
    let free = "8/8/8/7k/P7/8/8/K7 w - - 0 1";
    assert!(white(free) > white(blocked));
    assert_eq!(coef(blocked, offset::PASSED_FREE_PATH + 3, Color::White), 0);
    assert_eq!(coef(free, offset::PASSED_FREE_PATH + 3, Color::White), 1);
    // The enemy king outside the square of the pawn cannot catch it...
    assert_eq!(
        coef(
            "7k/8/8/P7/8/8/8/K7 w - - 0 1",
            offset::UNSTOPPABLE_PASSER,
            Color::White
        ),
        1
    );
    // ... inside it, it can; and with the move it gains a tempo.
    assert_eq!(
        coef(
            "8/8/3k4/P7/8/8/8/K7 w - - 0 1",
            offset::UNSTOPPABLE_PASSER,
            Color::White
        ),
        0
    );
    assert_eq!(
        coef(
            "8/4k3/8/P7/8/8/8/K7 w - - 0 1",
            offset::UNSTOPPABLE_PASSER,
            Color::White
        ),
        1
    );
    assert_eq!(
        coef(
            "8/4k3/8/P7/8/8/8/K7 b - - 0 1",
            offset::UNSTOPPABLE_PASSER,
            Color::White
        ),
        0
    );
    // Kings' distances to the square in front of the passer.
    let text = "8/8/8/7k/P7/8/8/K7 w - - 0 1";
    assert_eq!(
        coef(text, offset::PASSED_OWN_KING_DISTANCE + 3, Color::White),
        4
    );
    assert_eq!(
        coef(text, offset::PASSED_ENEMY_KING_DISTANCE + 3, Color::White),
        7
    );
}

#[test]
fn doubled_and_isolated_pawns_are_worse() {
    let doubled = "4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1";
    let healthy = "4k3/8/8/8/8/3P4/2P5/4K3 w - - 0 1";
    assert_eq!(coef(doubled, offset::DOUBLED_PAWN, Color::White), 1);
    assert_eq!(coef(healthy, offset::DOUBLED_PAWN, Color::White), 0);
    assert!(row(doubled, "Doubled pawns").0.eg() < 0);
    assert!(white(doubled) < white(healthy));

    let isolated = "4k3/8/8/8/8/8/P1P5/4K3 w - - 0 1";
    let together = "4k3/8/8/8/8/8/PP6/4K3 w - - 0 1";
    assert_eq!(coef(isolated, offset::ISOLATED_PAWN, Color::White), 2);
    assert_eq!(coef(together, offset::ISOLATED_PAWN, Color::White), 0);
    assert!(white(isolated) < white(together));
}

#[test]
fn backward_connected_and_phalanx_pawns() {
    // c3 is left behind by b4 and d4, and Black's d5 pawn guards c4.
    let backward = "4k3/8/8/3p4/1P1P4/2P5/8/4K3 w - - 0 1";
    assert_eq!(coef(backward, offset::BACKWARD_PAWN, Color::White), 1);
    // b4 and d4 are defended by c3 (relative rank index 3).
    assert_eq!(coef(backward, offset::CONNECTED_PAWN + 3, Color::White), 2);
    let phalanx = "4k3/8/8/3p4/1PPP4/8/8/4K3 w - - 0 1";
    assert_eq!(coef(phalanx, offset::BACKWARD_PAWN, Color::White), 0);
    assert_eq!(coef(phalanx, offset::PHALANX_PAWN + 3, Color::White), 3);
}

// ----- Pieces -----

#[test]
fn a_trapped_piece_scores_worse() {
    // The bishop on a7 is shut in by b6 and c7 (b6 is guarded by the c7 pawn).
    let trapped = "4k3/B1p3pp/1p6/8/8/8/6PP/4K3 w - - 0 1";
    let free = "4k3/2p3pp/1p6/8/8/4B3/6PP/4K3 w - - 0 1";
    assert!(row(trapped, "Bishop mobility").0.mg() < row(free, "Bishop mobility").0.mg());
    assert!(white(trapped) < white(free));
    // A knight on the rim with every square covered by pawns.
    let cornered = "4k3/8/8/8/2p5/1p6/2p5/N3K3 w - - 0 1";
    assert_eq!(coef(cornered, offset::KNIGHT_MOBILITY, Color::White), 1);
}

#[test]
fn bishop_pair_rooks_and_outposts() {
    let pair = "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1";
    assert_eq!(coef(pair, offset::BISHOP_PAIR, Color::White), 1);
    let same = "4k3/8/8/8/8/8/4B3/4KB2 w - - 0 1";
    assert_eq!(coef(same, offset::BISHOP_PAIR, Color::White), 0);

    let open = "4k3/pp3ppp/8/8/8/8/PP3PPP/3RK3 w - - 0 1";
    assert_eq!(coef(open, offset::ROOK_OPEN_FILE, Color::White), 1);
    let half = "4k3/pp1p1ppp/8/8/8/8/PP3PPP/3RK3 w - - 0 1";
    assert_eq!(coef(half, offset::ROOK_SEMI_OPEN_FILE, Color::White), 1);
    let closed = "4k3/pp1p1ppp/8/8/8/8/PP1P1PPP/3RK3 w - - 0 1";
    assert_eq!(coef(closed, offset::ROOK_OPEN_FILE, Color::White), 0);
    assert!(white(open) > white(closed) - 100);
    let seventh = "4k3/pp1R1ppp/8/8/8/8/PP3PPP/4K3 w - - 0 1";
    assert_eq!(coef(seventh, offset::ROOK_ON_SEVENTH, Color::White), 1);

    // d5 is defended by e4, and no black pawn can ever attack it.
    let outpost = "4k3/pp3ppp/8/3N4/4P3/8/PPP2PPP/4K3 w - - 0 1";
    assert_eq!(coef(outpost, offset::KNIGHT_OUTPOST, Color::White), 1);
    // With a black pawn on e7, ...e6 would chase the knight away.
    let chased = "4k3/pp2pppp/8/3N4/4P3/8/PPP2PPP/4K3 w - - 0 1";
    assert_eq!(coef(chased, offset::KNIGHT_OUTPOST, Color::White), 0);
}

// ----- King safety -----

#[test]
fn pawn_shelter_and_open_files_near_the_king() {
    let intact = "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1";
    let broken = "6k1/5ppp/8/8/6PP/8/5P2/6K1 w - - 0 1";
    let open = "6k1/5ppp/8/8/8/8/5P2/6K1 w - - 0 1";
    assert_eq!(coef(intact, offset::PAWN_SHIELD, Color::White), 3);
    assert!(row(intact, "King shelter").0.mg() > row(broken, "King shelter").0.mg());
    assert_eq!(coef(open, offset::KING_SEMI_OPEN_FILE, Color::White), 2);
    // Enemy pawns storming the king.
    let storm = "6k1/8/8/8/6pp/8/5PPP/6K1 w - - 0 1";
    assert!(coef(storm, offset::PAWN_STORM + 2, Color::White) > 0);
}

#[test]
fn attacks_on_the_king_cost_more_than_linearly() {
    // Queen, knight and bishop bear down on White's castled king.
    let attacked = "6k1/5ppp/3b4/8/6nq/8/5PPP/6K1 w - - 0 1";
    let t = eval::traced(&board(attacked));
    assert!(t.danger[0].mg() > 0, "{:?}", t.danger);
    assert!(t.penalty[0].mg() > 0);
    assert_eq!(t.coef[offset::KING_ATTACKER_WEIGHT + 3][0], 1, "the queen");
    assert_eq!(t.coef[offset::KING_ATTACKER_WEIGHT][0], 1, "the knight");
    // One attacker alone costs less than a third of three.
    let alone = "6k1/5ppp/8/8/7q/8/5PPP/6K1 w - - 0 1";
    let one = eval::traced(&board(alone));
    assert!(one.penalty[0].mg() * 3 < t.penalty[0].mg());
    // Pieces far from the king, with no checks to give, cost nothing.
    let far = "qn4k1/pp3ppp/8/8/8/8/5PPP/6K1 w - - 0 1";
    assert_eq!(eval::traced(&board(far)).penalty[0], S::ZERO);
    // The penalty follows the curve of the module notes.
    assert_eq!(eval::king::danger_penalty(S(720, 40)), S(720, 2));
    assert_eq!(eval::king::danger_penalty(S(-5, -5)), S::ZERO);
}

#[test]
fn safe_checks_count_towards_danger() {
    // Black's rook can check on the open first rank from a1...h1 squares nobody guards.
    let text = "6k1/5ppp/8/8/8/8/5PPP/r5K1 b - - 0 1";
    let text = &text
        .replace("r5K1 b", "6K1 b")
        .replace("6k1/5ppp", "r5k1/5ppp");
    assert!(
        coef(text, offset::SAFE_CHECK + 2, Color::White) > 0,
        "{text}"
    );
}

// ----- Threats, space, tempo -----

#[test]
fn threats_space_and_tempo() {
    let hanging = "4k3/8/8/8/3n4/8/8/3RK3 w - - 0 1";
    assert_eq!(coef(hanging, offset::HANGING_PIECE, Color::White), 1);
    let defended = "4k3/8/8/4p3/3n4/8/8/3RK3 w - - 0 1";
    assert_eq!(coef(defended, offset::HANGING_PIECE, Color::White), 0);
    let by_pawn = "4k3/8/8/8/3n4/4P3/8/4K3 w - - 0 1";
    assert_eq!(coef(by_pawn, offset::THREAT_BY_PAWN, Color::White), 1);
    let by_minor = "4k3/8/8/3r4/8/4N3/8/4K3 w - - 0 1";
    assert_eq!(coef(by_minor, offset::THREAT_BY_MINOR, Color::White), 1);
    let by_rook = "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1";
    assert_eq!(coef(by_rook, offset::THREAT_BY_ROOK, Color::White), 1);

    let centre = "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 1";
    assert!(coef(centre, offset::SPACE, Color::White) > coef(centre, offset::SPACE, Color::Black));
    assert_eq!(coef(centre, offset::TEMPO, Color::Black), 1);
    assert_eq!(coef(centre, offset::TEMPO, Color::White), 0);
}

// ----- Endgames -----

#[test]
fn kbn_drives_the_king_to_the_bishops_corner() {
    // Dark-squared bishop (e1): mate is forced only in a1 or h8.
    let right = "7k/8/8/3K4/8/4N3/8/4B3 w - - 0 1";
    let wrong = "k7/8/8/3K4/8/4N3/8/4B3 w - - 0 1";
    assert!(
        white(right) > white(wrong) + 50,
        "{} {}",
        white(right),
        white(wrong)
    );
    let centre = "8/8/4k3/8/2K5/4N3/8/4B3 w - - 0 1";
    assert!(white(right) > white(centre));
}

#[test]
fn queen_and_rook_mates_push_the_king_to_the_edge() {
    for piece in ['Q', 'R'] {
        let edge = format!("k7/8/8/8/3K4/8/8/1{piece}6 w - - 0 1");
        let centre = format!("8/8/4k3/8/3K4/8/8/1{piece}6 w - - 0 1");
        assert!(white(&edge) > white(&centre), "{piece}");
        assert_eq!(row(&edge, "Mating drive").1, S::ZERO);
    }
}

#[test]
fn drawish_endings_are_scaled_down() {
    // Opposite-coloured bishops, White a pawn up, against the same with same-coloured
    // bishops.
    let opposite = "4k3/p4b2/8/8/8/8/P3PB2/4K3 w - - 0 1";
    let same = "4k3/p3b3/8/8/8/8/P3PB2/4K3 w - - 0 1";
    let t = eval::traced(&board(opposite));
    assert_eq!(t.blend.scale, endgame::OPPOSITE_BISHOPS_ONLY);
    assert!(white(opposite) > 0 && white(opposite) < white(same) * 3 / 4);

    // Two knights cannot mate.
    assert_eq!(white("8/8/4k3/8/8/3NN3/8/4K3 w - - 0 1"), 0);
    // Nor can a lone minor piece, even with the opponent's pawns on the board.
    assert_eq!(white("8/p7/4k3/8/8/3B4/8/4K3 w - - 0 1"), 0);
    // Rook against bishop: far less than a rook's worth.
    let rook_v_bishop = white("8/8/4k3/3b4/8/3R4/8/4K3 w - - 0 1");
    assert!(rook_v_bishop > 0 && rook_v_bishop < 60, "{rook_v_bishop}");
    // The wrong bishop with a rook pawn, the defending king in the corner.
    assert_eq!(white("7k/8/8/8/7P/8/4B3/4K3 w - - 0 1"), 0);
    let right_bishop = white("7k/8/8/8/7P/8/3B4/4K3 w - - 0 1");
    assert!(right_bishop > 200);
    // A winning ending is left alone.
    let t = eval::traced(&board("8/8/4k3/3r4/8/3Q4/8/4K3 w - - 0 1"));
    assert_eq!(t.blend.scale, SCALE_MAX);
}

#[test]
fn fifty_move_counter_shrinks_the_score() {
    let fresh = white("4k3/8/8/8/8/8/4PPP1/R3K3 w - - 0 40");
    let stale = white("4k3/8/8/8/8/8/4PPP1/R3K3 w - - 80 40");
    let late = white("4k3/8/8/8/8/8/4PPP1/R3K3 w - - 99 40");
    assert!(
        fresh > stale && stale > late && late > 0,
        "{fresh} {stale} {late}"
    );
    let black = white("r3k3/4ppp1/8/8/8/8/8/4K3 b - - 80 40");
    assert_eq!(black, -stale);
}
