//! Syzygy tablebases with real tables (all 3-4-piece tables, in `tests/data/syzygy`; see
//! `common::syzygy_dir` for larger ones): every listed probe, the root-move filter,
//! searches and whole endgames played out; and directories with missing, empty, truncated
//! or corrupt tables.

use crate::common;

use common::position;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use tarpon::chess::movegen::legal_moves;
use tarpon::chess::notation::to_uci;
use tarpon::chess::{Color, Move, Outcome, Position};
use tarpon::search::history::Histories;
use tarpon::search::score::{self, TB_WIN};
use tarpon::search::timeman::Limits;
use tarpon::search::tt::TranspositionTable;
use tarpon::search::{SearchControl, SearchOptions, SearchResult, think};
use tarpon::tablebase::{self, Miss, RootMetric, Settings, Tablebases, Wdl};

/// The test tables, loaded once for all tests of this file: at least every 3-4-piece table
/// (35 of them).
fn tables() -> Arc<Tablebases> {
    static TABLES: OnceLock<Arc<Tablebases>> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            let dir = common::syzygy_dir();
            let (tables, notes) = tablebase::load(&dir);
            let tables = tables
                .unwrap_or_else(|| panic!("no tables loaded from {}: {notes:?}", dir.display()));
            assert!(
                tables.wdl_count() >= 35 && tables.max_pieces() >= 4,
                "{} tables, up to {} pieces: {notes:?}",
                tables.wdl_count(),
                tables.max_pieces()
            );
            Arc::new(tables)
        })
        .clone()
}

fn settings(tables: &Arc<Tablebases>) -> Settings {
    Settings {
        tables: tables.clone(),
        probe_depth: 1,
        probe_limit: tablebase::MAX_PIECES,
        rule50: true,
    }
}

/// A quiet search of `pos` with its own table and histories.
fn search(pos: &Position, limits: Limits, tables: Option<&Arc<Tablebases>>) -> SearchResult {
    let tt = TranspositionTable::new(16);
    let mut histories = Histories::new();
    let options = SearchOptions {
        tablebases: tables.map(settings),
        ..SearchOptions::default()
    };
    think(
        pos,
        limits,
        &[],
        options,
        &tt,
        &mut histories,
        &SearchControl::default(),
    )
}

fn depth(d: i32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// The WDL after `m` from the mover's point of view, by the tables (`Win` for a mate).
fn wdl_after(tables: &Tablebases, pos: &Position, m: Move) -> Wdl {
    let mut child = pos.clone();
    child.make(m);
    if child
        .outcome()
        .is_some_and(|o| matches!(o, Outcome::Checkmate { .. }))
    {
        return Wdl::Win;
    }
    let wdl = tables
        .probe_wdl(&child)
        .expect("probe after the move")
        .flip();
    if wdl == Wdl::Win && child.halfmove_clock() > 0 {
        // Still a win for the mover only if the zeroing comes before the fifty moves.
        let dtz = tables.probe_dtz(&child).expect("dtz after the move");
        if -dtz + i32::from(child.halfmove_clock()) > 100 {
            return Wdl::CursedWin;
        }
    }
    wdl
}

#[test]
fn every_listed_position_probes_to_its_wdl_and_dtz() {
    let tables = tables();
    let probes = common::tablebase_probes(&common::syzygy_dir());
    assert!(probes.len() >= 130, "{} probes", probes.len());
    let wrong: Vec<String> = probes
        .iter()
        .filter_map(|p| {
            let pos = position(&p.fen);
            let wdl = tables.probe_wdl(&pos).map(Wdl::value);
            let dtz = tables.probe_dtz(&pos);
            (wdl != Ok(p.wdl) || dtz != Ok(p.dtz)).then(|| {
                format!(
                    "{}: wdl {wdl:?} dtz {dtz:?}, expected {} {}",
                    p.fen, p.wdl, p.dtz
                )
            })
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn known_endgames_probe_as_theory_says() {
    let tables = tables();
    // Checked against python-chess and chess theory (tests/data/README.md).
    for (fen, wdl, dtz) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, 0),     // bare kings
        ("k7/7Q/1K6/8/8/8/8/8 w - - 0 1", 2, 1),     // mate in one
        ("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1", 0, 0),   // stalemate
        ("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1", 0, 0),   // opposition holds
        ("8/4k3/8/4K3/4P3/8/8/8 b - - 0 1", -2, -4), // opposition lost
        ("8/8/8/8/4p3/4k3/8/4K3 b - - 0 1", 2, 3),   // colours swapped
        ("7k/8/8/8/8/8/7P/KB6 w - - 0 1", 0, 0),     // wrong bishop
        ("7K/8/8/8/8/8/2kp4/5Q2 w - - 0 1", 2, 43),  // queen against a d-pawn on the 7th
        ("7K/8/8/8/8/8/1kp5/5Q2 w - - 0 1", 0, 0),   // ... a c-pawn holds
        ("4k3/8/8/8/8/8/8/1b2K2R w - - 0 1", 0, 0),  // rook against bishop
    ] {
        let pos = position(fen);
        assert_eq!(tables.probe_wdl(&pos).map(Wdl::value), Ok(wdl), "{fen}");
        assert_eq!(tables.probe_dtz(&pos), Ok(dtz), "{fen}");
    }
    // Castling rights and too many pieces are outside the tables.
    let castling = position("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_eq!(tables.probe_wdl(&castling), Err(Miss::NotCovered));
    let beyond = position("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
    assert_eq!(tables.probe_wdl(&beyond), Err(Miss::NotCovered));
}

/// The root moves the tables keep in `pos`, with the metric that ranked them.
fn kept_moves(tables: &Tablebases, pos: &Position) -> (Vec<Move>, RootMetric) {
    let moves: Vec<Move> = legal_moves(pos).iter().copied().collect();
    let mut broken = Vec::new();
    let mut work = pos.clone();
    let (ranks, metric) = tablebase::rank_root_moves(tables, &mut work, &moves, true, &mut broken)
        .unwrap_or_else(|| panic!("{}: not ranked ({broken:?})", pos.fen()));
    let best = ranks.iter().map(|r| r.rank).max().expect("a legal move");
    let kept = moves
        .iter()
        .zip(&ranks)
        .filter(|(_, r)| r.rank == best)
        .map(|(&m, _)| m)
        .collect();
    (kept, metric)
}

#[test]
fn root_filter_keeps_only_moves_that_keep_the_win_or_the_draw() {
    let tables = tables();
    let (mut won, mut drawn) = (0, 0);
    for p in common::tablebase_probes(&common::syzygy_dir()) {
        let pos = position(&p.fen);
        let (kept, metric) = kept_moves(&tables, &pos);
        assert_eq!(metric, RootMetric::Dtz, "{}", p.fen);
        assert!(!kept.is_empty(), "{}", p.fen);
        for &m in &kept {
            let result = wdl_after(&tables, &pos, m);
            let text = to_uci(&pos, m);
            match p.wdl {
                2 => assert_eq!(result, Wdl::Win, "{}: kept {text}", p.fen),
                0 => assert!(result >= Wdl::BlessedLoss, "{}: kept {text}", p.fen),
                _ => {}
            }
        }
        won += (p.wdl == 2) as usize;
        drawn += (p.wdl == 0) as usize;
    }
    assert!(won >= 30 && drawn >= 30, "{won} won, {drawn} drawn");
}

#[test]
fn a_short_search_plays_a_winning_move_and_shows_a_tablebase_score() {
    let tables = tables();
    for p in common::tablebase_probes(&common::syzygy_dir())
        .iter()
        .filter(|p| p.wdl != -2)
    {
        let pos = position(&p.fen);
        let result = search(&pos, depth(6), Some(&tables));
        let played = wdl_after(&tables, &pos, result.best);
        let text = to_uci(&pos, result.best);
        assert!(result.tb_hits > 0, "{}", p.fen);
        if p.wdl == 2 {
            assert_eq!(played, Wdl::Win, "{}: played {text}", p.fen);
            assert!(
                result.score == TB_WIN || score::is_mate(result.score),
                "{}: score {}",
                p.fen,
                result.score
            );
        } else {
            assert!(played >= Wdl::BlessedLoss, "{}: played {text}", p.fen);
            assert!(result.score.abs() <= 2, "{}: score {}", p.fen, result.score);
        }
    }
}

#[test]
fn a_found_mate_outranks_the_tablebase_score() {
    let tables = tables();
    let result = search(
        &position("k7/7Q/1K6/8/8/8/8/8 w - - 0 1"),
        depth(4),
        Some(&tables),
    );
    assert_eq!(result.score, score::mate_in(1));
}

/// Five pieces, one more than the test tables hold: queen against rook and pawn.
const OUTSIDE_THE_TABLES: &str = "8/8/4k3/8/2p5/3r4/4Q3/1K6 b - - 0 1";

#[test]
fn the_search_probes_the_tables_below_a_root_outside_them() {
    let tables = tables();
    // Five pieces: captures lead into the four-piece tables.
    let pos = position(OUTSIDE_THE_TABLES);
    let with = search(&pos, depth(11), Some(&tables));
    let without = search(&pos, depth(11), None);
    assert!(with.tb_hits > 0, "{with:?}");
    assert_eq!(without.tb_hits, 0);
    // The probe limit gates probing: limited to three pieces the search still probes (the
    // three-piece positions two captures away), limited to two (kings alone, a draw by the
    // rules before any table is asked) it never does. (How many probes each finds is not
    // compared: the tables' answers change the tree, so a lower limit can probe more.)
    let probes_with_limit = |probe_limit: usize| {
        let mut limited = settings(&tables);
        limited.probe_limit = probe_limit;
        let options = SearchOptions {
            tablebases: Some(limited),
            ..SearchOptions::default()
        };
        let tt = TranspositionTable::new(16);
        think(
            &pos,
            depth(11),
            &[],
            options,
            &tt,
            &mut Histories::new(),
            &SearchControl::default(),
        )
        .tb_hits
    };
    assert!(probes_with_limit(3) > 0);
    assert_eq!(probes_with_limit(2), 0);
}

#[test]
fn a_tablebase_win_in_a_pv_node_is_not_mistaken_for_stalemate() {
    let tables = tables();
    // Rxb4 leaves KQ v KR with Black to move and winning, no capture and no check for
    // Black: a PV node whose tablebase win raises alpha so high that every quiet move is
    // pruned. It must still score the win, not "no move searched, so stalemate".
    let pos = position("7k/8/8/7q/1n6/8/8/KR6 w - - 0 1");
    let capture = tarpon::chess::notation::parse_uci(&pos, "b1b4").expect("legal");
    let mut child = pos.clone();
    child.make(capture);
    assert_eq!(tables.probe_wdl(&child), Ok(Wdl::Win));
    let mut four_pieces = settings(&tables);
    four_pieces.probe_limit = 4; // the root (five pieces) is searched, not ranked
    for d in 2..=4 {
        let options = SearchOptions {
            tablebases: Some(four_pieces.clone()),
            ..SearchOptions::default()
        };
        let tt = TranspositionTable::new(16);
        let result = think(
            &pos,
            depth(d),
            &[capture],
            options,
            &tt,
            &mut Histories::new(),
            &SearchControl::default(),
        );
        assert!(
            result.score <= -score::TB_WIN_BOUND,
            "depth {d}: {result:?}"
        );
    }
}

/// Plays `fen` out, Tarpon with the tables on both sides at `nodes` per move, for at most
/// `plies`; returns the outcome (`None` when the game went on) and the moves.
fn play_out(
    tables: &Arc<Tablebases>,
    fen: &str,
    nodes: u64,
    plies: usize,
) -> (Option<Outcome>, Vec<String>) {
    let mut pos = position(fen);
    let tt = TranspositionTable::new(16);
    let mut histories = Histories::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        if let Some(outcome) = pos.outcome() {
            return (Some(outcome), moves);
        }
        let options = SearchOptions {
            tablebases: Some(settings(tables)),
            ..SearchOptions::default()
        };
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let result = think(
            &pos,
            limits,
            &[],
            options,
            &tt,
            &mut histories,
            &SearchControl::default(),
        );
        moves.push(to_uci(&pos, result.best));
        pos.make(result.best);
    }
    (pos.outcome(), moves)
}

/// Nodes per move in the played-out games: a few milliseconds of search.
const PLAY_NODES: u64 = 3000;

#[test]
fn won_endgames_are_mated_within_the_fifty_move_rule() {
    let tables = tables();
    for (fen, winner) in [
        ("4k3/8/8/8/8/8/8/4K2Q w - - 0 1", Color::White), // KQ v K
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Color::White), // KR v K
        ("k7/8/8/8/8/8/8/4KBN1 w - - 0 1", Color::White), // KBN v K
        ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", Color::White), // KP v K
        ("8/4k3/8/4K3/4P3/8/8/8 b - - 0 1", Color::White), // KP v K, opposition
        ("8/8/8/8/4p3/4k3/8/4K3 b - - 0 1", Color::Black), // KP v K for Black
        ("3rk3/8/8/8/8/8/8/4K2Q w - - 0 1", Color::White), // KQ v KR
        ("7K/8/8/8/8/8/2kp4/5Q2 w - - 0 1", Color::White), // KQ v KP, d-pawn on the 7th
    ] {
        let (outcome, moves) = play_out(&tables, fen, PLAY_NODES, 300);
        assert_eq!(
            outcome,
            Some(Outcome::Checkmate { winner }),
            "{fen}: {}",
            moves.join(" ")
        );
    }
}

#[test]
fn drawn_endgames_are_never_lost() {
    let tables = tables();
    for fen in [
        "3rk3/8/8/8/8/8/8/3RK3 w - - 0 1",  // KR v KR
        "8/4k3/8/4K3/4P3/8/8/8 w - - 0 1",  // KP v K, the defender has the opposition
        "7k/8/8/8/8/8/7P/KB6 w - - 0 1",    // wrong-coloured bishop
        "7K/8/8/8/8/8/1kp5/5Q2 w - - 0 1",  // KQ v KP, c-pawn on the 7th
        "4k3/8/8/8/8/8/8/1b2K2R w - - 0 1", // KR v KB
        "8/8/8/8/8/2k5/2r5/KR6 w - - 0 1",  // KR v KR, one move from losing the rook
    ] {
        let (outcome, moves) = play_out(&tables, fen, PLAY_NODES, 120);
        assert!(
            !matches!(outcome, Some(Outcome::Checkmate { .. })),
            "{fen}: {outcome:?} after {}",
            moves.join(" ")
        );
    }
}

// --- Bad table directories -------------------------------------------------------------

/// Copies `name` from the test tables into `dir`, keeping `keep` bytes of it (all: `None`),
/// then applies `damage` to the bytes.
fn copy_table(
    from: &Path,
    dir: &Path,
    name: &str,
    keep: Option<usize>,
    damage: impl Fn(&mut Vec<u8>),
) {
    let mut bytes = std::fs::read(from.join(name)).expect("read a test table");
    if let Some(keep) = keep {
        bytes.truncate(keep);
    }
    damage(&mut bytes);
    std::fs::write(dir.join(name), bytes).expect("write a table copy");
}

#[test]
fn missing_and_empty_directories_are_reported() {
    let (tables, notes) = tablebase::load("/no/such/tarpon/tables");
    assert!(tables.is_none());
    assert!(
        notes.iter().any(|n| n.contains("/no/such/tarpon/tables")),
        "{notes:?}"
    );
    let empty = common::temp_dir("empty");
    let (tables, notes) = tablebase::load(&empty);
    assert!(tables.is_none());
    assert!(
        notes.iter().any(|n| n.contains("no table files")),
        "{notes:?}"
    );
    std::fs::remove_dir_all(empty).ok();
}

#[test]
fn truncated_and_corrupt_tables_are_left_out_and_the_rest_is_used() {
    let from = common::syzygy_dir();
    let dir = common::temp_dir("damaged");
    copy_table(&from, &dir, "KRvK.rtbw", None, |_| {});
    copy_table(&from, &dir, "KRvK.rtbz", None, |_| {});
    copy_table(&from, &dir, "KQvK.rtbw", Some(200), |_| {}); // cut short
    copy_table(&from, &dir, "KQvK.rtbz", None, |b| b[0] ^= 0xff); // bad magic
    copy_table(&from, &dir, "KPvK.rtbw", None, |b| {
        // The header after the magic scrambled: the table cannot be opened.
        for byte in &mut b[4..64] {
            *byte = byte.wrapping_mul(31).wrapping_add(7);
        }
    });
    let paths = format!(
        "{}{}/no/such/dir",
        dir.display(),
        tablebase::path_separator()
    );
    let (tables, notes) = tablebase::load(&paths);
    let tables = tables.unwrap_or_else(|| panic!("KRvK should load: {notes:?}"));
    let noted = |what: &str, why: &str| notes.iter().any(|n| n.contains(what) && n.contains(why));
    assert!(noted("KQvK.rtbw", "truncated"), "{notes:?}");
    assert!(noted("KQvK.rtbz", "magic"), "{notes:?}");
    assert!(noted("KPvK.rtbw", "left out"), "{notes:?}");
    assert!(noted("/no/such/dir", ""), "{notes:?}");
    assert_eq!(tables.wdl_count(), 1, "{notes:?}");
    let krk = position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert_eq!(tables.probe_wdl(&krk), Ok(Wdl::Win));
    assert_eq!(
        tables.probe_wdl(&position("4k3/8/8/8/8/8/8/4K2Q w - - 0 1")),
        Err(Miss::NotCovered)
    );
    std::fs::remove_dir_all(dir).ok();
}

/// Random positions of king and rook against king and pawn (legal ones only).
fn krkp_positions(count: usize) -> Vec<Position> {
    let mut rng = common::Rng::new(11);
    let mut found = Vec::new();
    while found.len() < count {
        let mut squares = [' '; 64];
        let mut place = |c: char, rng: &mut common::Rng, low: usize, high: usize| loop {
            let sq = low + rng.below(high - low);
            if squares[sq] == ' ' {
                squares[sq] = c;
                break;
            }
        };
        place('K', &mut rng, 0, 64);
        place('R', &mut rng, 0, 64);
        place('k', &mut rng, 0, 64);
        place('p', &mut rng, 8, 56);
        let rows: Vec<String> = (0..8)
            .rev()
            .map(|rank| {
                squares[rank * 8..rank * 8 + 8]
                    .iter()
                    .map(|&c| if c == ' ' { '1' } else { c })
                    .collect()
            })
            .collect();
        let side = if rng.chance(50) { "w" } else { "b" };
        if let Ok(pos) = Position::from_fen(&format!("{} {side} - - 0 1", rows.join("/")), false) {
            found.push(pos);
        }
    }
    found
}

/// Loads a directory with KRvKP.rtbw cut to `percent` of its size, at a size a table may
/// have (so the size check passes and the header is intact), plus the tables its probes
/// reach; probes 300 positions. Returns whether the load check caught the cut, every
/// report about the file (load notes and probe failures) and how many probes answered.
fn probe_truncated_krkp(from: &Path, percent: usize) -> (bool, Vec<String>, usize) {
    let dir = common::temp_dir(&format!("cut{percent}"));
    let size = std::fs::metadata(from.join("KRvKP.rtbw"))
        .expect("KRvKP.rtbw")
        .len() as usize;
    let keep = size * percent / 100 / 64 * 64 + 16;
    copy_table(from, &dir, "KRvKP.rtbw", Some(keep), |_| {});
    for reached in [
        "KRvK.rtbw",
        "KPvK.rtbw",
        "KQvKR.rtbw",
        "KRvKR.rtbw",
        "KRvKB.rtbw",
        "KRvKN.rtbw",
        "KQvK.rtbw",
        "KBvK.rtbw",
        "KNvK.rtbw",
    ] {
        copy_table(from, &dir, reached, None, |_| {});
    }
    let (tables, notes) = tablebase::load(&dir);
    let tables = tables.unwrap_or_else(|| panic!("{notes:?}"));
    let mut reports: Vec<String> = notes
        .into_iter()
        .filter(|n| n.contains("KRvKP.rtbw"))
        .collect();
    let caught_at_load = !reports.is_empty();
    let mut answered = 0;
    for pos in krkp_positions(300) {
        match tables.probe_wdl(&pos) {
            Ok(_) => answered += 1,
            Err(Miss::Broken(text)) => reports.push(text),
            Err(Miss::NotCovered) => {}
        }
    }
    std::fs::remove_dir_all(dir).ok();
    (caught_at_load, reports, answered)
}

#[test]
fn a_table_truncated_to_a_plausible_size_is_reported_once_and_never_panics() {
    let from = common::syzygy_dir();
    // Whether the load check catches a cut depends on the block its one probe reads:
    // these two cuts exercise both ways (half: at load; 90%: on a later probe).
    let (at_load, reports, answered) = probe_truncated_krkp(&from, 50);
    assert!(at_load, "{reports:?}");
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert!(reports[0].contains("truncated"), "{reports:?}");
    assert_eq!(answered, 0, "a table left out answers nothing");
    let (at_load, reports, answered) = probe_truncated_krkp(&from, 90);
    assert!(!at_load, "{reports:?}");
    assert_eq!(reports.len(), 1, "reported once, then silent: {reports:?}");
    assert!(
        reports[0].contains("KRvKP.rtbw: corrupt or truncated"),
        "{reports:?}"
    );
    assert!(answered > 200, "the intact part still answers: {answered}");
}

#[test]
fn a_repeated_position_since_the_last_capture_is_noticed() {
    let mut pos = position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    for (text, repeated) in [
        ("a1a2", false),
        ("e8d8", false),
        ("a2a1", false),
        ("d8e8", true),
    ] {
        let m = tarpon::chess::notation::parse_uci(&pos, text).expect("legal");
        pos.make(m);
        assert_eq!(pos.has_repetition_since_zeroing(), repeated, "after {text}");
    }
}

/// The solved king-and-pawn ending that the evaluation uses to score drawn ones as draws
/// (`eval::kpk`) agrees with the Syzygy table on every legal position, either side's pawn,
/// either side to move.
#[test]
fn the_solved_king_and_pawn_ending_agrees_with_the_tablebase() {
    use tarpon::eval::kpk::pawn_side_wins;
    let tables = tables();
    let mut checked = 0;
    for pawn in 8..56 {
        for strong_king in 0..64 {
            for weak_king in 0..64 {
                for (pawn_piece, strong, weak) in [('P', 'K', 'k'), ('p', 'k', 'K')] {
                    let mut squares = ['1'; 64];
                    if strong_king == weak_king || pawn == strong_king || pawn == weak_king {
                        continue;
                    }
                    squares[pawn] = pawn_piece;
                    squares[strong_king] = strong;
                    squares[weak_king] = weak;
                    let rows: Vec<String> = (0..8)
                        .rev()
                        .map(|rank| squares[rank * 8..rank * 8 + 8].iter().collect())
                        .collect();
                    for side in ["w", "b"] {
                        let fen = format!("{} {side} - - 0 1", rows.join("/"));
                        let Ok(pos) = Position::from_fen(&fen, false) else {
                            continue;
                        };
                        let wdl = tables.probe_wdl(pos.board()).expect("a KPvK position");
                        let pawn_side_to_move = (side == "w") == (pawn_piece == 'P');
                        let won = if pawn_side_to_move {
                            wdl.value() > 0
                        } else {
                            wdl.value() < 0
                        };
                        assert_eq!(pawn_side_wins(pos.board()), Some(won), "{fen}: {wdl:?}");
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 300_000, "{checked}");
}
