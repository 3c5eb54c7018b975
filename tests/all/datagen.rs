//! `tarpon datagen` and its record format: Tarpon's packing against the bulletformat crate
//! (the reference implementation of the layout), pack/unpack round trips over random
//! games, and end-to-end runs of the program whose output is read back.

use crate::common;

// The crate has the name of Tarpon's module; rename it to keep the two apart.
extern crate bulletformat as bulletformat_crate;

use common::Rng;
use common::engine::{self, TARPON};
use std::path::Path;
use std::process::Command;
use tarpon::chess::movegen::legal_moves;
use tarpon::chess::{Board, Color, Position, Square, fen};
use tarpon::learn::bulletformat::{self, GameResult, RECORD_SIZE, Sample};
use tarpon::search::score::MATE_BOUND;

/// `tarpon datagen` with `args`: whether it succeeded, standard output, standard error.
fn datagen(args: &[&str]) -> (bool, String, String) {
    engine::run(&[&["datagen"], args].concat())
}

/// Positions from random games (all phases: castling rights held and lost, Black to
/// move, promotions, few and many pieces).
fn random_positions(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut boards = Vec::new();
    while boards.len() < count {
        let mut pos = Position::startpos();
        for _ in 0..rng.below(300) {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            // Prefer captures and promotions now and then, to reach endings.
            let noisy: Vec<_> = moves
                .iter()
                .filter(|m| m.promotion_piece().is_some() || pos.piece_on(m.to()).is_some())
                .copied()
                .collect();
            let m = if !noisy.is_empty() && rng.chance(40) {
                *rng.pick(&noisy)
            } else {
                *rng.pick(&moves)
            };
            pos.make(m);
            boards.push(*pos.board());
        }
    }
    boards.truncate(count);
    boards
}

/// The bytes the bulletformat crate's text reader makes of a position (its text format
/// takes the score and result for White).
fn reference_bytes(board: &Board, white_score: i16, result: GameResult) -> [u8; 32] {
    let white_result = match result {
        GameResult::WhiteWin => "1.0",
        GameResult::Draw => "0.5",
        GameResult::BlackWin => "0.0",
    };
    let line = format!("{} | {white_score} | {white_result}", fen::to_fen(board));
    let cb: bulletformat_crate::ChessBoard = line.parse().expect("bulletformat parses it");
    let mut bytes = [0u8; 32];
    bytes[0..8].copy_from_slice(&cb.occ.to_le_bytes());
    bytes[8..24].copy_from_slice(&cb.pcs);
    bytes[24..26].copy_from_slice(&cb.score.to_le_bytes());
    bytes[26] = cb.result;
    bytes[27] = cb.ksq;
    bytes[28] = cb.opp_ksq;
    bytes[29..32].copy_from_slice(&cb.extra);
    bytes
}

#[test]
fn packing_matches_the_bulletformat_crate() {
    let results = [GameResult::WhiteWin, GameResult::Draw, GameResult::BlackWin];
    let mut blacks = 0;
    for (i, board) in random_positions(3000, 11).iter().enumerate() {
        let result = results[i % 3];
        let stm_score = (i as i16 % 2001) - 1000;
        let white_score = match board.side_to_move() {
            Color::White => stm_score,
            Color::Black => -stm_score,
        };
        blacks += usize::from(board.side_to_move() == Color::Black);
        let ours = bulletformat::pack(board, stm_score, result, false).unwrap();
        let reference = reference_bytes(board, white_score, result);
        // Bytes 29..32 are the spare bytes that Tarpon fills and bulletformat leaves zero.
        assert_eq!(ours[..29], reference[..29], "{}", fen::to_fen(board));
        assert_eq!(reference[29..], [0, 0, 0]);
        // The crate's own reading of our record: the same features, score and result.
        let theirs = bulletformat_crate::ChessBoard {
            occ: u64::from_le_bytes(ours[0..8].try_into().unwrap()),
            pcs: ours[8..24].try_into().unwrap(),
            score: i16::from_le_bytes([ours[24], ours[25]]),
            result: ours[26],
            ksq: ours[27],
            opp_ksq: ours[28],
            extra: ours[29..32].try_into().unwrap(),
        };
        use bulletformat_crate::BulletFormat;
        assert_eq!(theirs.score(), stm_score);
        let stm_result = result.for_side(board.side_to_move());
        assert_eq!(theirs.result(), f32::from(stm_result) / 2.0);
        let features: Vec<(u8, u8)> = theirs.into_iter().collect();
        assert_eq!(features.len() as u32, board.occupied().count());
    }
    assert!(blacks > 1000, "both sides to move are covered");
}

#[test]
fn records_round_trip_over_random_games() {
    let mut seen_black = false;
    let mut seen_promoted = false;
    let mut seen_partial_castling = false;
    for (i, board) in random_positions(5000, 5).iter().enumerate() {
        let result = [GameResult::WhiteWin, GameResult::Draw, GameResult::BlackWin][i % 3];
        let score = (i as i16).wrapping_mul(37) % 3000;
        let bytes = bulletformat::pack(board, score, result, i % 7 == 0).unwrap();
        let sample = bulletformat::unpack(&bytes).unwrap();
        for sq in Square::all() {
            assert_eq!(sample.board.piece_on(sq), board.piece_on(sq));
        }
        assert_eq!(sample.board.side_to_move(), board.side_to_move());
        assert_eq!(
            sample.board.halfmove_clock(),
            board.halfmove_clock().min(255)
        );
        assert_eq!(sample.score, score);
        assert_eq!(sample.game_result(), result);
        assert_eq!(sample.game_start, i % 7 == 0);
        // Packing the decoded board again gives the same record.
        assert_eq!(
            bulletformat::pack(&sample.board, score, result, i % 7 == 0).unwrap(),
            bytes
        );
        seen_black |= board.side_to_move() == Color::Black;
        let white_pieces = board.color(Color::White).count();
        let queens = board.kind(tarpon::chess::PieceType::Queen).count();
        seen_promoted |= queens > 2 || (white_pieces == 16 && queens == 2);
        seen_partial_castling |= board.castling_rights() != 0 && board.castling_rights() != 15;
    }
    assert!(seen_black && seen_promoted && seen_partial_castling);
}

/// Reads a datagen file and checks every record: a legal position not in check (the filter
/// skips checks), no mate scores, and one result per game (games are marked by the
/// game-start flag). Returns the games, each a list of records.
fn read_games(path: &Path) -> Vec<Vec<Sample>> {
    let bytes = std::fs::metadata(path).unwrap().len();
    assert_eq!(bytes % RECORD_SIZE as u64, 0, "whole records only");
    let records = bulletformat::read_records(path).unwrap();
    assert_eq!(records.total(), bytes / RECORD_SIZE as u64);
    let mut games: Vec<Vec<Sample>> = Vec::new();
    for record in records {
        let sample = record.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let board = &sample.board;
        assert!(!board.in_check(), "{}", fen::to_fen(board));
        assert!(!legal_moves(board).is_empty());
        assert!((sample.score as i32).abs() < MATE_BOUND);
        assert!(sample.result <= 2);
        if sample.game_start {
            games.push(Vec::new());
        }
        games
            .last_mut()
            .expect("the first record starts a game")
            .push(sample);
    }
    for game in &games {
        let result = game[0].game_result();
        assert!(game.iter().all(|s| s.game_result() == result));
        // A game's positions come in the order played: never fewer pieces before more.
        for pair in game.windows(2) {
            assert!(pair[0].board.occupied().count() >= pair[1].board.occupied().count());
        }
    }
    games
}

/// The summary's count after `label` (e.g. "Games: 4 (..." gives 4).
fn summary_number(out: &str, label: &str) -> u64 {
    let line = out
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no '{label}' line in {out}"));
    line[label.len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number in {line}"))
}

#[test]
fn short_run_on_two_threads_writes_legal_consistent_records() {
    let dir = common::temp_dir("run");
    let path = dir.join("data.bin");
    let (ok, stdout, stderr) = datagen(&[
        "--output",
        path.to_str().unwrap(),
        "--games",
        "4",
        "--nodes",
        "500",
        "--threads",
        "2",
        "--seed",
        "1",
    ]);
    assert!(ok, "{stdout}{stderr}");
    assert_eq!(summary_number(&stdout, "Games: "), 4, "{stdout}");
    let positions = summary_number(&stdout, "Positions written: ");
    let games = read_games(&path);
    assert!(!games.is_empty() && games.len() <= 4);
    assert_eq!(games.iter().map(Vec::len).sum::<usize>() as u64, positions);
    assert!(positions > 20, "{stdout}");
    let sides = |color| {
        games
            .iter()
            .flatten()
            .any(|s| s.board.side_to_move() == color)
    };
    assert!(sides(Color::White) && sides(Color::Black));
    assert!(stdout.contains("positions/s") && stdout.contains("games/s"));
    assert!(stdout.contains("Average game length: "));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_thread_runs_repeat_exactly_and_two_threads_play_the_same_games() {
    let dir = common::temp_dir("repeat");
    let run = |name: &str, threads: &str| {
        let path = dir.join(name);
        let (ok, _, stderr) = datagen(&[
            "-o",
            path.to_str().unwrap(),
            "--games",
            "3",
            "--nodes",
            "300",
            "--threads",
            threads,
            "--seed",
            "42",
            "--max-plies",
            "120",
        ]);
        assert!(ok, "{stderr}");
        std::fs::read(path).unwrap()
    };
    let first = run("a.bin", "1");
    assert_eq!(first, run("b.bin", "1"));
    // Two threads write the same games, perhaps in another order.
    let games = |path: &str| {
        let mut games: Vec<Vec<[u8; 32]>> = Vec::new();
        for chunk in std::fs::read(dir.join(path)).unwrap().chunks(32) {
            let record: [u8; 32] = chunk.try_into().unwrap();
            if record[29] & bulletformat::FLAG_GAME_START != 0 {
                games.push(Vec::new());
            }
            games.last_mut().unwrap().push(record);
        }
        games.sort();
        games
    };
    run("c.bin", "2");
    assert_eq!(games("a.bin"), games("c.bin"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--nnue`: the games are played and scored with the network, the embedded one or a
/// file's (the same network either way), and repeat exactly as the hand-crafted ones do.
#[test]
fn nnue_runs_play_and_score_with_the_network() {
    let dir = common::temp_dir("nnue");
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue");
    let run = |name: &str, nnue: Option<&str>| {
        let path = dir.join(name);
        let mut args = vec![
            "-o",
            path.to_str().unwrap(),
            "--games",
            "2",
            "--nodes",
            "300",
            "--seed",
            "42",
            "--max-plies",
            "100",
        ];
        args.extend(nnue.iter().flat_map(|n| ["--nnue", n]));
        let (ok, stdout, stderr) = datagen(&args);
        assert!(ok, "{stderr}");
        let evaluation = match nnue {
            None => "evaluation hand-crafted,",
            Some("embedded") => "evaluation <embedded>,",
            Some(_) => net,
        };
        assert!(stdout.contains(evaluation), "{stdout}");
        std::fs::read(path).unwrap()
    };
    let hce = run("hce.bin", None);
    let embedded = run("embedded.bin", Some("embedded"));
    assert!(!embedded.is_empty());
    assert_ne!(
        hce, embedded,
        "the network played and scored the same as without it"
    );
    assert_eq!(embedded, run("again.bin", Some("embedded")));
    assert_eq!(embedded, run("file.bin", Some(net)));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn book_openings_and_append() {
    let dir = common::temp_dir("book");
    let book = dir.join("book.epd");
    std::fs::write(
        &book,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 id \"open\";\n\
         4k3/pppp4/8/8/8/8/4PPPP/4K3 b - - 0 30\n",
    )
    .unwrap();
    let path = dir.join("data.bin");
    let args = |seed: &'static str, append: bool| {
        let mut args = vec![
            "-o".to_string(),
            path.to_str().unwrap().to_string(),
            "--book".into(),
            book.to_str().unwrap().into(),
            "--random-plies".into(),
            "0".into(),
            "--games".into(),
            "2".into(),
            "--nodes".into(),
            "300".into(),
            "--seed".into(),
            seed.into(),
        ];
        if append {
            args.push("--append".into());
        }
        args
    };
    let run = |args: Vec<String>| {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        datagen(&refs)
    };
    let (ok, _, stderr) = run(args("3", false));
    assert!(ok, "{stderr}");
    let games = read_games(&path);
    // With no random plies every game starts from a book position (White to move in the
    // first, Black in the second), though its first record may come a few plies later.
    for game in &games {
        let pieces = game[0].board.occupied().count();
        assert!(pieces <= 32 && (pieces <= 14 || pieces >= 28), "{pieces}");
    }
    let before = std::fs::read(&path).unwrap();
    let size = before.len() as u64;
    // Without --append an existing file is left alone.
    let (ok, _, stderr) = run(args("4", false));
    assert!(!ok);
    assert!(stderr.contains("--append"), "{stderr}");
    assert_eq!(std::fs::metadata(&path).unwrap().len(), size);
    // With it the new games go after the old ones.
    let (ok, _, stderr) = run(args("4", true));
    assert!(ok, "{stderr}");
    let after = std::fs::read(&path).unwrap();
    assert!(after.len() > before.len());
    assert_eq!(after[..before.len()], before[..]);
    assert!(read_games(&path).len() > games.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_arguments_fail_with_a_helpful_message() {
    let dir = common::temp_dir("bad");
    let out_path = dir.join("x.bin");
    let out = out_path.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--games", "4"], "--output"),
        (vec!["-o", out, "--games", "0"], "--games"),
        (vec!["-o", out, "--nodes", "0"], "--nodes"),
        (vec!["-o", out, "--threads", "0"], "--threads"),
        (vec!["-o", out, "--threads", "many"], "--threads"),
        (vec!["-o", out, "--random-plies", "101"], "--random-plies"),
        (vec!["-o", out, "--book", "/nonexistent/book.epd"], "book"),
        (
            vec!["-o", out, "--random-plies", "0"],
            "every game is the same",
        ),
        (
            vec!["-o", "/nonexistent/dir/x.bin", "--games", "1"],
            "cannot write",
        ),
        (
            vec!["-o", out, "--nnue", "/nonexistent/net.nnue"],
            "cannot use network /nonexistent/net.nnue",
        ),
        // A file that is no network (this test's own source) is refused with its reason.
        (vec!["-o", out, "--nnue", file!()], "cannot use network"),
    ];
    for (args, expected) in cases {
        let (ok, _, stderr) = datagen(&args);
        assert!(!ok, "{args:?} succeeded");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    // A book line that is not a position names the file and line.
    let book = dir.join("bad.epd");
    std::fs::write(
        &book,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnonsense\n",
    )
    .unwrap();
    let (ok, _, stderr) = datagen(&["-o", out, "--book", book.to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("line 2"), "{stderr}");
    // Nothing was created by the failed runs.
    assert!(!out_path.exists());
    // A file that is not whole records is not appended to.
    std::fs::write(&out_path, [0u8; 33]).unwrap();
    let (ok, _, stderr) = datagen(&["-o", out, "--append", "--games", "1"]);
    assert!(!ok);
    assert!(stderr.contains("whole number"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn interrupted_run_keeps_whole_games_and_prints_the_summary() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let dir = common::temp_dir("interrupt");
    let path = dir.join("data.bin");
    let child = Command::new(TARPON)
        .args(["datagen", "-o", path.to_str().unwrap(), "--games", "100000"])
        .args(["--nodes", "2000", "--threads", "2", "--seed", "9"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first games to be written, then press Ctrl-C.
    let start = Instant::now();
    while std::fs::metadata(&path).map_or(0, |m| m.len()) == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no game written"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stdout}{stderr}");
    assert!(stdout.contains("Interrupted"), "{stdout}");
    let games = read_games(&path);
    let counted = summary_number(&stdout, "Games: ");
    assert!(counted >= 1 && games.len() as u64 <= counted, "{stdout}");
    assert_eq!(
        games.iter().map(Vec::len).sum::<usize>() as u64,
        summary_number(&stdout, "Positions written: ")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_stops_the_run_with_an_error() {
    let (ok, stdout, stderr) = datagen(&["-o", "/dev/full", "--games", "3", "--nodes", "200"]);
    assert!(!ok);
    assert!(stderr.contains("writing /dev/full failed"), "{stderr}");
    assert!(stdout.contains("Stopped early"), "{stdout}");
}

/// `tarpon convert` with `args`.
fn convert(args: &[&str]) -> (bool, String, String) {
    engine::run(&[&["convert"], args].concat())
}

/// Scored match games (fastchess PGN) convert to a shard of their scored moves; a PGN
/// without any is an error that names it and writes nothing.
#[test]
fn scored_pgn_games_convert_to_a_shard() {
    let dir = common::temp_dir("pgn-convert");
    let pgn = dir.join("match.pgn");
    std::fs::write(
        &pgn,
        "[White \"new\"]\n[Black \"base\"]\n[Result \"0-1\"]\n\n\
         1. f3 {+0.10/9 0.02s} e5 {+0.50/10 0.02s} 2. g4 {-0.90/8 0.02s} Qh4# {+M1/1 0.01s} 0-1\n",
    )
    .unwrap();
    let out = dir.join("match.games");
    let (ok, stdout, stderr) = convert(&[pgn.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(ok, "{stdout}{stderr}");
    assert!(
        stdout.contains("1 games with scored moves, 4 positions"),
        "{stdout}"
    );
    let shard = tarpon::learn::games::read(&out).unwrap();
    assert_eq!(shard.games.len(), 1);
    let scores: Vec<i16> = shard.games[0].plies.iter().map(|p| p.1).collect();
    assert_eq!(scores[..3], [10, 50, -90]);
    // The mate is kept in the game, and training leaves it out with the checks.
    assert_eq!(shard.games[0].training_positions().len(), 3);

    let plain = dir.join("plain.pgn");
    std::fs::write(
        &plain,
        "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let none = dir.join("none.games");
    let (ok, _, stderr) = convert(&[plain.to_str().unwrap(), "-o", none.to_str().unwrap()]);
    assert!(!ok && stderr.contains("plain.pgn"), "{stderr}");
    assert!(!none.exists(), "nothing is written");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Game shards: a directory as output gets a new shard per run (never appended to); the
/// shard holds every searched position (more than the records keep) in a few bytes each;
/// converting it gives exactly the records a bulletformat run of the same games writes,
/// and those convert back to one-position games.
#[test]
fn game_shards_are_new_per_run_compact_and_convert_to_the_same_records() {
    let dir = common::temp_dir("shards");
    let shards = dir.join("games");
    std::fs::create_dir_all(&shards).unwrap();
    let run = |out: &Path, seed: &str| {
        let (ok, stdout, stderr) = datagen(&[
            "-o",
            out.to_str().unwrap(),
            "--games",
            "6",
            "--nodes",
            "400",
            "--seed",
            seed,
        ]);
        assert!(ok, "{stdout}{stderr}");
        stdout
    };
    run(&shards, "5");
    run(&shards, "5");
    let mut names: Vec<String> = std::fs::read_dir(&shards)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["tarpon-s5-2.games", "tarpon-s5.games"]);
    let shard_path = shards.join("tarpon-s5.games");
    let shard = tarpon::learn::games::read(&shard_path).unwrap();
    assert_eq!(shard.games.len(), 6);
    assert!(shard.damage.is_none());
    let plies: usize = shard.games.iter().map(|g| g.plies.len()).sum();
    let bytes = std::fs::metadata(&shard_path).unwrap().len() as f64;
    assert!(
        bytes / (plies as f64) < 6.0,
        "{bytes} bytes for {plies} positions"
    );

    // The same games written as records, and the shard converted to records.
    let records = dir.join("same.bin");
    run(&records, "5");
    let converted = dir.join("converted.bin");
    let (ok, stdout, stderr) = convert(&[
        shard_path.to_str().unwrap(),
        "-o",
        converted.to_str().unwrap(),
    ]);
    assert!(ok, "{stdout}{stderr}");
    assert!(
        std::fs::read(&records).unwrap() == std::fs::read(&converted).unwrap(),
        "the converted shard differs from the records of the same games"
    );
    assert!(
        (std::fs::read(&records).unwrap().len() / RECORD_SIZE) < plies,
        "the records keep fewer positions than the games hold"
    );

    // Records to games and back: the same records.
    let back = dir.join("back.games");
    let again = dir.join("again.bin");
    let (ok, _, stderr) = convert(&[converted.to_str().unwrap(), "-o", back.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let (ok, stdout, stderr) = convert(&["--check", back.to_str().unwrap()]);
    assert!(ok && stdout.contains("positions"), "{stdout}{stderr}");
    let (ok, _, stderr) = convert(&[back.to_str().unwrap(), "-o", again.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    // (A record's game-start mark is the one thing a one-position game cannot keep.)
    let samples = |path: &Path| -> Vec<(String, i16, u8)> {
        bulletformat::read_records(path)
            .unwrap()
            .map(|s| {
                let s = s.unwrap();
                (fen::to_fen(&s.board), s.score, s.result)
            })
            .collect()
    };
    let (first, second) = (samples(&converted), samples(&again));
    assert!(
        first.len() > 100 && first == second,
        "{} records became {}, or changed",
        first.len(),
        second.len()
    );

    // Shards are not appended to, and outputs are never overwritten.
    let (ok, _, stderr) = datagen(&["-o", shard_path.to_str().unwrap(), "--games", "1"]);
    assert!(!ok && stderr.contains("already exists"), "{stderr}");
    let (ok, _, stderr) = datagen(&["-o", shards.to_str().unwrap(), "--append", "--games", "1"]);
    assert!(!ok && stderr.contains("never appended"), "{stderr}");
    let (ok, _, stderr) = convert(&[shard_path.to_str().unwrap(), "-o", again.to_str().unwrap()]);
    assert!(!ok && stderr.contains("already exists"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run killed outright (SIGKILL: no chance to finish anything) leaves a shard whose
/// whole games all read back; `convert --check` says whether the end is cut, and the
/// trainer and converter use the games before it.
#[cfg(unix)]
#[test]
fn a_killed_run_loses_only_the_games_in_progress() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let dir = common::temp_dir("killed");
    let path = dir.join("run.games");
    let mut child = Command::new(TARPON)
        .args(["datagen", "-o", path.to_str().unwrap(), "--games", "100000"])
        .args(["--nodes", "1000", "--threads", "2", "--seed", "11"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::fs::metadata(&path).map_or(0, |m| m.len()) < 2000 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no game written"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let shard = tarpon::learn::games::read(&path).unwrap();
    assert!(!shard.games.is_empty());
    assert!(
        matches!(
            shard.damage,
            None | Some((_, tarpon::learn::games::Damage::Truncated { .. }))
        ),
        "{}",
        shard.describe()
    );

    // Cut the file inside its last game: the check names the file and the damage, and a
    // conversion keeps the games before it.
    let bytes = std::fs::read(&path).unwrap();
    let cut = dir.join("cut.games");
    std::fs::write(&cut, &bytes[..bytes.len() - 7]).unwrap();
    let (ok, stdout, stderr) = convert(&["--check", cut.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("cut.games") && stdout.contains("truncated"),
        "{stdout}"
    );
    let out = dir.join("cut.bin");
    let (ok, _, stderr) = convert(&[cut.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(std::fs::metadata(&out).unwrap().len() > 0);

    // A foreign file stops the conversion with its name and nothing is written.
    let foreign = dir.join("notes.txt");
    std::fs::write(&foreign, "not training data\n").unwrap();
    let out = dir.join("never.bin");
    let (ok, _, stderr) = convert(&[
        cut.to_str().unwrap(),
        foreign.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!ok && stderr.contains("notes.txt"), "{stderr}");
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The back rank of `color` in `board` as FEN letters of that colour's pieces, a-file first
/// (`.` for an empty square).
fn back_rank(board: &Board, color: Color) -> String {
    let rank = if color == Color::White { 0 } else { 7 };
    (0..8)
        .map(|file| match board.piece_on(Square::new(rank * 8 + file)) {
            Some(p) if p.color() == color => p.kind().char().to_ascii_uppercase(),
            _ => '.',
        })
        .collect()
}

#[test]
fn chess960_starts_make_legal_games_of_either_kind() {
    let dir = common::temp_dir("chess960");
    let play = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec![
            "-o",
            out.to_str().unwrap(),
            "--games",
            "6",
            "--nodes",
            "300",
            "--seed",
            "960",
        ];
        args.extend_from_slice(extra);
        let (ok, stdout, stderr) = datagen(&args);
        assert!(ok, "{stdout}{stderr}");
        // Replaying checks every move is legal in the game's own rules.
        let shard = tarpon::learn::games::read(&out).unwrap();
        assert_eq!(shard.games.len(), 6);
        assert!(shard.damage.is_none());
        (stdout, shard.games)
    };
    // Every game from a double Chess960 start: the sides' back ranks differ in some game,
    // and none is the normal one in every game.
    let (stdout, games) = play(
        "double.games",
        &["--chess960", "100", "--random-plies", "0"],
    );
    assert!(stdout.contains("100% double Chess960 starts"), "{stdout}");
    assert!(games.iter().all(|g| g.start.is_chess960()));
    assert!(
        games
            .iter()
            .any(|g| back_rank(&g.start, Color::White) != back_rank(&g.start, Color::Black)),
        "double Chess960 gives each side its own back rank"
    );
    assert!(
        games
            .iter()
            .any(|g| back_rank(&g.start, Color::White) != "RNBQKBNR")
    );
    // Mirrored: both sides the same in every game.
    let (_, games) = play(
        "mirrored.games",
        &[
            "--chess960",
            "100",
            "--chess960-mirrored",
            "--random-plies",
            "0",
        ],
    );
    for g in &games {
        assert!(g.start.is_chess960());
        assert_eq!(
            back_rank(&g.start, Color::White),
            back_rank(&g.start, Color::Black)
        );
    }
    // None asked for: standard starts.
    let (_, games) = play("none.games", &["--random-plies", "2"]);
    assert!(games.iter().all(|g| !g.start.is_chess960()));
    // A share beyond 100 % and a mirrored option without a share are refused by name.
    for (args, expected) in [
        (vec!["--chess960", "101"], "--chess960"),
        (vec!["--chess960", "half"], "--chess960"),
        (vec!["--chess960-mirrored"], "--chess960"),
    ] {
        let out = dir.join("bad.games");
        let mut all = vec!["-o", out.to_str().unwrap()];
        all.extend_from_slice(&args);
        let (ok, _, stderr) = datagen(&all);
        assert!(!ok, "{args:?} succeeded");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!out.exists());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
