//! End-to-end tests of `tarpon analyse`: one position, and games annotated into PGN that
//! shakmaty replays.

use crate::common;

use common::{engine, pgn_check, temp_file, temp_path};

/// `tarpon analyse` with `args`: whether it succeeded, standard output, standard error.
fn analyse(args: &[&str]) -> (bool, String, String) {
    engine::run(&[&["analyse"], args].concat())
}

/// Fool's mate, and a game from a set-up position with the things PGN files carry:
/// comments, a variation, NAGs and suffixes, a `%` line.
const GAMES: &str = r#"[Event "Fool's mate"]
[White "Careless"]
[Black "Alert"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

% a line for other programs
[Event "Endgame"]
[White "W"]
[Black "B"]
[Result "*"]
[SetUp "1"]
[FEN "8/8/4k3/8/8/4K3/4P3/8 w - - 0 50"]

{ King and pawn } 50. Kd4 (50. Kd3 Kd5) 50... Kd6 $6 51. e4!? Ke6 *
"#;

#[test]
fn a_pgn_is_annotated_move_by_move_and_replays() {
    let input = temp_file("games.pgn", GAMES);
    let output = temp_path("out.pgn");
    let (ok, out, err) = analyse(&[
        "--pgn",
        input.to_str().unwrap(),
        "--depth",
        "6",
        "--output",
        output.to_str().unwrap(),
    ]);
    std::fs::remove_file(&input).ok();
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&output).unwrap();
    std::fs::remove_file(&output).ok();
    // Lines are wrapped anywhere between words: compare with single spaces.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        out.contains("Game 1 (Careless - Alert, 0-1): White "),
        "{out}"
    );
    assert!(out.contains("Game 2 (W - B, *)"), "{out}");
    assert!(out.contains("Annotated PGN written to"), "{out}");

    let games = pgn_check::replay(&text);
    assert_eq!(games.len(), 2, "{text}");
    let fool = &games[0];
    assert_eq!(fool.sans, ["f3", "e5", "g4", "Qh4#"], "{text}");
    assert_eq!(fool.result, "0-1");
    assert!(fool.tag("Annotator").unwrap().starts_with("Tarpon"));
    // The game's comment says whose point of view the scores take.
    assert!(
        flat.contains(", depth 6, scores for White. White: "),
        "{text}"
    );
    let ending = &games[1];
    assert_eq!(ending.sans, ["Kd4", "Kd6", "e4", "Ke6"], "{text}");
    assert_eq!(ending.tag("FEN"), Some("8/8/4k3/8/8/4K3/4P3/8 w - - 0 50"));
    assert_eq!(ending.final_fen(), "8/8/4k3/8/3KP3/8/8/8 w - - 1 52");

    // 2. g4 allows mate in one: a blunder, with a better line and Black's mate as its
    // evaluation; Black's mate is the best move, so it is not marked.
    assert!(
        flat.contains("2. g4 $4 { [%eval #-1] Blunder (gives away"),
        "{text}"
    );
    assert!(flat.contains("Best: 2. "), "{text}");
    assert!(flat.contains("(2. "), "{text}");
    assert!(!flat.contains("Qh4# $"), "{text}");
    // Every move but the mate has an evaluation; the input's comments stay.
    assert_eq!(flat.matches("[%eval ").count(), 3 + 4, "{text}");
    assert!(flat.contains("{ King and pawn }"), "{text}");
    assert!(text.contains("Careless"), "{text}");
}

#[test]
fn without_output_file_the_pgn_goes_to_standard_output() {
    let input = temp_file("fool.pgn", "1. f3 e5 2. g4 Qh4# 0-1\n");
    let (ok, out, err) = analyse(&["--pgn", input.to_str().unwrap(), "--depth", "4"]);
    std::fs::remove_file(&input).ok();
    assert!(ok, "{err}");
    assert_eq!(pgn_check::replay(&out)[0].sans.len(), 4, "{out}");
    assert!(err.contains("Game 1 (? - ?, 0-1)"), "{err}");
}

#[test]
fn a_position_gets_its_evaluation_and_line_in_san() {
    // A smothered mate in two for White (the queen sacrifice shows from depth 8).
    let (ok, out, err) = analyse(&[
        "--fen",
        "3r3k/6pp/7N/8/2Q5/8/6PP/6K1 w - - 0 1",
        "--depth",
        "10",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("Best move: 1. Qg8+ (#2 for White"), "{out}");
    assert!(out.contains("Line: 1. Qg8+ Rxg8 2. Nf7#"), "{out}");
    // Scores are for White also when Black is to move (and mates).
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2";
    let (ok, out, _) = analyse(&["--fen", fen, "--depth", "3"]);
    assert!(ok);
    assert!(out.contains("Best move: 2... Qh4# (#-1 for White"), "{out}");
    // The iterations come with a header, one line each.
    assert!(out.contains("depth   score"), "{out}");
    let (ok, out, _) = analyse(&[
        "--fen",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1",
        "--nodes",
        "500",
    ]);
    assert!(ok && out.contains("Best move: 1... "), "{out}");
}

/// A game as lichess exports it: `[%eval]` and `[%clk]` commands in comments, a NAG, a
/// comment and a variation of the author's.
const LICHESS: &str = r#"[Event "Casual"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]

1. e4 { [%eval 0.3] [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Nf3 $1 { good } (2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7#) 2... Nc6 3. Bc4 Nf6 4. Ng5 d5 5. exd5 Nxd5?! 6. Nxf7 1-0
"#;

/// `tarpon analyse --pgn` on `pgn` with `args`: standard output flattened to single
/// spaces (lines wrap anywhere between words), and standard error.
fn annotate(name: &str, pgn: &str, args: &[&str]) -> (String, String) {
    let input = temp_file(name, pgn);
    let (ok, out, err) = analyse(&[&["--pgn", input.to_str().unwrap()], args].concat());
    std::fs::remove_file(&input).ok();
    assert!(ok, "{err}");
    pgn_check::replay(&out);
    (out.split_whitespace().collect::<Vec<_>>().join(" "), err)
}

#[test]
fn a_lichess_game_keeps_its_variations_comments_nags_and_clocks() {
    let (flat, _) = annotate("lichess.pgn", LICHESS, &["--depth", "3"]);
    assert!(flat.contains("2. Nf3 $1 { good }"), "{flat}");
    assert!(
        flat.contains("(2. Qh5 Nc6 3. Bc4 Nf6 $4 4. Qxf7#)"),
        "{flat}"
    );
    // One evaluation for each of the 11 moves: Tarpon's replaces lichess's, and joins the
    // clock as lichess writes them.
    assert_eq!(flat.matches("[%eval ").count(), 11, "{flat}");
    assert!(!flat.contains("[%eval 0.3]"), "{flat}");
    assert_eq!(flat.matches("[%clk 0:03:00]").count(), 2, "{flat}");
    // The first comment after each of the first two moves holds both.
    for mv in ["1. e4 ", "1... e5 "] {
        let after = &flat[flat.find(mv).expect(mv)..];
        let comment = &after[after.find('{').unwrap()..=after.find('}').unwrap()];
        assert!(
            comment.starts_with("{ [%eval ") && comment.ends_with(" [%clk 0:03:00] }"),
            "{mv}: {flat}"
        );
    }
    // The author's ?! stays, whatever Tarpon makes of the move.
    assert!(flat.contains("5... Nxd5 $6 {"), "{flat}");
    assert!(!flat.contains("Nxd5 $6 $"), "{flat}");
}

#[test]
fn the_authors_judgement_stays_and_tarpon_says_where_it_differs() {
    let (flat, err) = annotate(
        "judged.pgn",
        "1. f3 e5 2. g4! Qh4#?? { [%eval #1] [%clk 0:00:10] } 0-1\n",
        &["--depth", "2"],
    );
    // 2. g4 allows mate: Tarpon's blunder is said, the author's ! kept.
    assert!(
        flat.contains("2. g4 $1 { [%eval #-1] Tarpon: Blunder (gives away "),
        "{flat}"
    );
    assert!(flat.contains("of a point), not ! as annotated."), "{flat}");
    assert!(
        flat.contains(
            "2... Qh4# $4 { [%clk 0:00:10] } { Tarpon: no error (gives away 0.00 of a point), not ?? as annotated. }"
        ),
        "{flat}"
    );
    assert!(!flat.contains("$1 $4") && !flat.contains("$4 $4"), "{flat}");
    // The mate ends the game: Tarpon gives it no evaluation, and keeps no other.
    assert_eq!(flat.matches("[%eval ").count(), 3, "{flat}");
    // Tarpon's counts are its own: the author's ?? on the mate counts as no blunder.
    // (Whether 1... e5 is an inaccuracy at this depth is the network's call.)
    assert!(err.contains(" 1 blunder, average loss"), "{err}");
    // Black's counts: from "; Black " to the end of the game's line, nothing after it.
    let black = err[err.find("; Black ").expect("Black's counts")..]
        .lines()
        .next()
        .unwrap_or_default();
    assert!(black.contains(" 0 blunders"), "{err}");
}

#[test]
fn no_better_move_is_suggested_for_an_equal_or_a_mating_move() {
    // Knight against king: every move draws. Then two different mates in one, so that one
    // of them is not the move Tarpon would choose.
    let games = r#"[SetUp "1"]
[FEN "8/8/4k3/8/8/4K3/8/4N3 w - - 0 1"]

1. Kd3 Kd6 2. Ke3 Ke6 *

[SetUp "1"]
[FEN "k7/8/1K6/8/8/8/5Q2/7R w - - 0 1"]

1. Qf8# 1-0

[SetUp "1"]
[FEN "k7/8/1K6/8/8/8/5Q2/7R w - - 0 1"]

1. Rh8# 1-0
"#;
    let (flat, _) = annotate("equal.pgn", games, &["--depth", "3"]);
    assert!(!flat.contains("Best:"), "{flat}");
    assert!(
        flat.contains("1. Qf8# 1-0") && flat.contains("1. Rh8# 1-0"),
        "{flat}"
    );
    assert_eq!(flat.matches("[%eval 0.00]").count(), 3, "{flat}");
}

#[test]
fn a_forced_move_is_never_shown_as_a_mate() {
    // After 2. Qh5+ Black has one legal move, which a search under a time limit answers
    // without searching.
    let (flat, _) = annotate(
        "forced.pgn",
        "1. e4 f5 2. Qh5+ g6 3. Qe2 *\n",
        &["--movetime", "30"],
    );
    assert!(!flat.contains('#'), "{flat}");
    assert_eq!(flat.matches("[%eval ").count(), 5, "{flat}");
    let fen = "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2";
    let (ok, out, err) = analyse(&["--fen", fen, "--movetime", "30"]);
    assert!(ok, "{err}");
    assert!(out.contains("Best move: 2... g6 ("), "{out}");
    assert!(!out.contains('#'), "{out}");
}

/// Three games; the second has an illegal move.
const ONE_BAD_OF_THREE: &str = r#"[Event "One"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "Two"]
[White "C"]
[Black "D"]
[Result "*"]

1. d4 d5 2. Ke3 Nf6 *

[Event "Three"]
[White "E"]
[Black "F"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1
"#;

#[test]
fn a_bad_game_is_reported_and_skipped_and_the_others_annotated() {
    let input = temp_file("one-bad.pgn", ONE_BAD_OF_THREE);
    let output = temp_path("one-bad-out.pgn");
    let (code, out, err) = engine::run_status(&[
        "analyse",
        "--pgn",
        input.to_str().unwrap(),
        "--depth",
        "2",
        "--output",
        output.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&output).unwrap_or_default();
    std::fs::remove_file(&output).ok();
    // The skipped game gives its own exit status, told apart from an error (1).
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.contains(
            "one-bad.pgn: game 2, line 13: move 2. Ke3: illegal move 'Ke3' (game skipped)"
        ),
        "{err}"
    );
    let games = pgn_check::replay(&text);
    let events: Vec<_> = games.iter().map(|g| g.tag("Event").unwrap()).collect();
    assert_eq!(events, ["One", "Three"], "{text}");
    assert!(out.contains("Game 1 (A - B, 1-0)"), "{out}");
    assert!(out.contains("Game 3 (E - F, 0-1)"), "{out}");
    assert!(!out.contains("Game 2"), "{out}");
    assert!(
        out.contains("1 of 3 games could not be read and were skipped"),
        "{out}"
    );

    // A variation that cannot be read is left out of its game, which is annotated.
    let broken = temp_file("bad-variation.pgn", "1. e4 e5 (1... Ke3) 2. Nf3 *\n");
    let (code, out, err) =
        engine::run_status(&["analyse", "--pgn", broken.to_str().unwrap(), "--depth", "2"]);
    std::fs::remove_file(&broken).ok();
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.contains(
            "game 1, line 1: in a variation, move 1... Ke3: illegal move 'Ke3' (variation left out)"
        ),
        "{err}"
    );
    assert_eq!(
        pgn_check::replay(&out)[0].sans,
        ["e4", "e5", "Nf3"],
        "{out}"
    );

    // When no game can be read, nothing is done: an error.
    let bad = temp_file("only-bad.pgn", "1. d4 d5 2. Ke3 *\n");
    let (code, _, err) = engine::run_status(&["analyse", "--pgn", bad.to_str().unwrap()]);
    std::fs::remove_file(&bad).ok();
    std::fs::remove_file(&input).ok();
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no game could be read"), "{err}");
}

#[test]
fn bad_arguments_and_files_are_explained_with_a_failure_status() {
    let illegal = temp_file("illegal.pgn", "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n");
    let missing = temp_path("no-such-file.pgn");
    let empty = temp_file("empty.pgn", "\n");
    for (args, words) in [
        (vec!["--fen", "8/8/8 w - -"], "bad FEN"),
        (vec!["--pgn", missing.to_str().unwrap()], "cannot read"),
        (
            vec!["--pgn", illegal.to_str().unwrap()],
            "game 1, line 3: move 2. Ke3: illegal",
        ),
        (vec!["--pgn", empty.to_str().unwrap()], "holds no game"),
        (vec!["--fen", "x", "--pgn", "y"], "cannot be used with"),
        (vec!["--output", "x.pgn"], "--pgn"),
        (vec!["--movetime", "soon"], "invalid value"),
    ] {
        let (ok, _, err) = analyse(&args);
        assert!(!ok, "{args:?}");
        assert!(err.contains(words), "{args:?}: {err}");
    }
    std::fs::remove_file(&illegal).ok();
    std::fs::remove_file(&empty).ok();
}

#[test]
fn syzygy_tables_give_their_verdict() {
    let dir = common::syzygy_dir();
    // King on the sixth in front of its pawn: a win a two-ply search cannot see, but the
    // tables know (shown, as in UCI, as 200 pawns).
    let fen = "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1";
    let (ok, out, err) = analyse(&[
        "--fen",
        fen,
        "--depth",
        "2",
        "--syzygy",
        dir.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("(+200.00 for White"), "{out}");
    assert!(err.contains("Syzygy: "), "{err}");
    let (ok, out, _) = analyse(&["--fen", fen, "--depth", "2"]);
    assert!(ok && !out.contains("+200.00"), "{out}");
}

/// Ctrl-C during `analyse --pgn`: before, every annotated game was lost (the file was
/// written only at the end, and not at all on SIGINT). Now each game is in the file as
/// soon as it is done, the summary so far is printed, and the status is 130.
#[cfg(unix)]
#[test]
fn ctrl_c_keeps_the_games_annotated_so_far() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let pgn = common::data_dir().join("selfplay.pgn");
    let pgn = pgn.to_str().unwrap();
    let out = temp_path("interrupted.pgn");
    let _ = std::fs::remove_file(&out);
    let child = Command::new(engine::TARPON)
        .args([
            "analyse",
            "--pgn",
            pgn,
            "--nodes",
            "2000",
            "-o",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::fs::metadata(&out).map_or(0, |m| m.len()) == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no game written"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let result = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert_eq!(result.status.code(), Some(130), "{stdout}");
    let annotated = std::fs::read_to_string(&out).unwrap();
    let games = pgn_check::replay(&annotated);
    let summarised = stdout.lines().filter(|l| l.starts_with("Game ")).count();
    assert!(!games.is_empty() && games.len() == summarised, "{stdout}");
    assert!(
        stdout.contains("Interrupted: ") && stdout.contains(" of 200 games annotated"),
        "{stdout}"
    );
    // The temporary file is gone.
    let temporary = out.with_file_name(".interrupted.pgn.part");
    assert!(!temporary.exists());
}

/// An output that cannot be written is reported before any search: before, a directory
/// or a missing folder as `-o` was found after the whole analysis.
#[test]
fn an_unwritable_output_is_found_before_the_analysis() {
    let pgn = temp_file("unwritable.pgn", GAMES);
    let dir = common::temp_dir("an-output-dir");
    let missing = dir.join("no-such-folder").join("out.pgn");
    for (output, why) in [
        (dir.to_str().unwrap(), "is a directory"),
        (missing.to_str().unwrap(), "No such file"),
    ] {
        // A search this long would take minutes: the answer must come first.
        let start = std::time::Instant::now();
        let (ok, _, err) = analyse(&[
            "--pgn",
            pgn.to_str().unwrap(),
            "--movetime",
            "60000",
            "-o",
            output,
        ]);
        assert!(
            !ok && err.contains(&format!("cannot write {output}")) && err.contains(why),
            "{err}"
        );
        assert!(start.elapsed() < std::time::Duration::from_secs(20));
    }
}

/// Before, every move but the search's choice got a "Best:" note, down to a tenth of a
/// pawn in a won ending. Now only a marked move (one that changes the judgement) names the
/// better move; a blunder still does.
#[test]
fn a_better_move_is_named_only_where_it_changes_the_judgement() {
    let games = r#"[SetUp "1"]
[FEN "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"]

1. Ka2 Kd4 2. Ka3 Kc4 3. Qb2 Kd3 *

[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1"]

1. Ra8+ Kd7 2. Ra7+ Ke6 3. Ra6+ Kf5 4. Kd1 Kg4 5. e4 Kf3 *
"#;
    let (flat, _) = annotate("won.pgn", games, &["--depth", "6"]);
    assert!(!flat.contains("Best:"), "{flat}");
    // Leaving the queen to be taken instead of trading it: the better move is named.
    let blunder = r#"[SetUp "1"]
[FEN "4k3/8/8/8/8/8/3q4/3QK3 w - - 0 1"]

1. Kf1 Qxd1+ 2. Kf2 *
"#;
    let (flat, _) = annotate("blunder.pgn", blunder, &["--depth", "6"]);
    assert!(flat.contains("Best: 1. "), "{flat}");
}

/// A PGN with a Latin-1 byte in a header: before, the whole file was refused without a
/// line number. Now it is read as Latin-1 (PGN's own character set), the line named.
#[test]
fn a_latin1_pgn_is_annotated_and_the_line_named() {
    let path = temp_path("latin1.pgn");
    let mut bytes = b"[Event \"Blitz\"]\n[White \"R".to_vec();
    bytes.push(0xe9);
    bytes.extend_from_slice(b"ti\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
    std::fs::write(&path, &bytes).unwrap();
    let (ok, out, err) = analyse(&["--pgn", path.to_str().unwrap(), "--depth", "4"]);
    assert!(ok, "{err}");
    assert!(err.contains("latin1.pgn: line 2: not UTF-8"), "{err}");
    assert!(out.contains("[White \"R\u{e9}ti\"]"), "{out}");
    assert!(out.contains("2. g4"), "{out}");
}
