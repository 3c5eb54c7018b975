//! End-to-end tests of `tarpon epd` on a small suite written here: every kind of operation
//! (bm, am, dm; moves in SAN and UCI), one position Tarpon must fail, the count at the end.

use crate::common;

use common::{engine, temp_file, temp_path};

/// Six positions; Tarpon solves all but the last, whose "best move" is a bad one.
const SUITE: &str = r#"# Tarpon's small test suite
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id "back rank, SAN";
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1 bm a1a8; id "back rank, UCI";
r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - am Nf6 g8f6; id "scholar's mate threat";
3r3k/6pp/7N/8/2Q5/8/6PP/6K1 w - - dm 2; id "smothered mate";

k7/8/1K6/8/8/8/7Q/8 w - - bm Qh8#; am Qb8+; dm 1; id "all three";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Nh3; id "not the best";
"#;

/// `tarpon epd` with `args`: whether it succeeded, standard output, standard error.
fn epd(args: &[&str]) -> (bool, String, String) {
    engine::run(&[&["epd"], args].concat())
}

#[test]
fn the_suite_is_counted_and_the_failure_listed() {
    let suite = temp_file("suite.epd", SUITE);
    let file = suite.to_str().unwrap();
    // A fixed depth makes the result exact; the threads only share out the positions.
    for args in [
        vec![file, "--depth", "10"],
        vec![file, "--depth", "10", "--threads", "3"],
    ] {
        let (ok, out, err) = epd(&args);
        assert!(ok, "{args:?}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].contains("6 positions, depth 10"), "{out}");
        let last = lines.last().unwrap();
        assert!(
            last.starts_with("Solved: 5/6 in ") && last.ends_with(" s"),
            "{out}"
        );
        assert!(
            out.contains("Failed:\n  line 8 (not the best): expected bm Nh3; Tarpon played "),
            "{out}"
        );
        assert_eq!(out.matches("\n  line ").count(), 1, "{out}");
    }
    // Node and time limits work too (the mates are found within them).
    let (ok, out, _) = epd(&[file, "--nodes", "20000"]);
    assert!(
        ok && out.lines().last().unwrap().starts_with("Solved: 5/6"),
        "{out}"
    );
    let (ok, out, _) = epd(&[file, "--movetime", "200", "--threads", "2"]);
    assert!(
        ok && out.lines().last().unwrap().starts_with("Solved: 5/6"),
        "{out}"
    );
    std::fs::remove_file(&suite).ok();
}

#[test]
fn a_mate_found_too_slowly_fails_dm() {
    // Mate in 2 (1. Kf7 Kh7 2. Rh1#) after a quiet king move, which a depth-1 search
    // cannot see: quiescence looks at checks only at its first ply, and Kf7 is none.
    let suite = temp_file("slow.epd", "7k/8/5K2/8/8/8/8/6R1 w - - dm 2;\n");
    let (ok, out, _) = epd(&[suite.to_str().unwrap(), "--depth", "1"]);
    std::fs::remove_file(&suite).ok();
    assert!(ok);
    assert!(
        out.contains("line 1 (line 1): expected dm 2; Tarpon played "),
        "{out}"
    );
    assert!(
        out.lines().last().unwrap().starts_with("Solved: 0/1"),
        "{out}"
    );
}

#[test]
fn scores_are_for_white_as_analyse_gives_them() {
    // Black to move mates: the score is a mate against White, in `epd` as in `analyse`.
    let fen = "r5k1/8/8/8/8/8/5PPP/6K1 b - -";
    let suite = temp_file("black-mates.epd", &format!("{fen} bm Kf8; id \"x\";\n"));
    let (ok, out, err) = epd(&[suite.to_str().unwrap(), "--depth", "2"]);
    std::fs::remove_file(&suite).ok();
    assert!(ok, "{err}");
    assert!(
        out.lines()
            .next()
            .unwrap()
            .ends_with("; scores are for White"),
        "{out}"
    );
    assert!(
        out.contains("expected bm Kf8; Tarpon played Ra1# (#-1 for White, depth 2)"),
        "{out}"
    );
    let (ok, analysed, _) =
        engine::run(&["analyse", "--fen", &format!("{fen} 0 1"), "--depth", "2"]);
    assert!(
        ok && analysed.contains("Best move: 1... Ra1# (#-1 for White, depth 2"),
        "{analysed}"
    );
}

#[test]
fn bad_lines_are_reported_and_skipped_and_the_others_run() {
    let suite = temp_file(
        "some-bad.epd",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"good one\";\n\
         4k3/8/8/8 w - - bm Ke2; id \"bad fen\";\n\
         4k3/8/8/8/8/8/8/4K3 w - - bm Ke3; id \"bad bm\";\n\
         k7/8/1K6/8/8/8/7Q/8 w - - bm Qh8#; id \"good two\";\n",
    );
    let (code, out, err) = engine::run_status(&["epd", suite.to_str().unwrap(), "--depth", "2"]);
    std::fs::remove_file(&suite).ok();
    // The skipped lines give their own exit status, told apart from an error (1).
    assert_eq!(code, Some(3), "{out}{err}");
    assert!(
        err.contains("some-bad.epd: line 2: bad position: ")
            && err.contains("some-bad.epd: line 3: bm: illegal move 'Ke3' (line skipped)"),
        "{err}"
    );
    assert!(out.contains("2 positions (2 lines skipped)"), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("Solved: 2/2"),
        "{out}"
    );
}

#[test]
fn bad_suites_and_arguments_are_explained_with_a_failure_status() {
    let bad_move = temp_file(
        "bad-move.epd",
        "# header\n\n4k3/8/8/8/8/8/8/4K3 w - - bm Ke3;\n",
    );
    let bad_fen = temp_file("bad-fen.epd", "4k3/8/8/8 w - - bm Ke2;\n");
    let nothing = temp_file("nothing.epd", "4k3/8/8/8/8/8/8/4K3 w - - id \"what?\";\n");
    let empty = temp_file("empty.epd", "# no positions\n");
    let missing = temp_path("no-such-file.epd");
    for (args, words) in [
        (
            vec![bad_move.to_str().unwrap()],
            "line 3: bm: illegal move 'Ke3'",
        ),
        (vec![bad_fen.to_str().unwrap()], "line 1: bad position"),
        (vec![nothing.to_str().unwrap()], "line 1: nothing to test"),
        (vec![nothing.to_str().unwrap()], "no position could be read"),
        (vec![empty.to_str().unwrap()], "holds no position"),
        (vec![missing.to_str().unwrap()], "cannot read"),
        (vec![], "<FILE>"),
        (vec!["x.epd", "--threads", "0"], "--threads"),
        (vec!["x.epd", "--nodes", "many"], "invalid value"),
    ] {
        let (ok, _, err) = epd(&args);
        assert!(!ok, "{args:?}");
        assert!(err.contains(words), "{args:?}: {err}");
    }
    for path in [bad_move, bad_fen, nothing, empty] {
        std::fs::remove_file(path).ok();
    }
}

/// Ctrl-C during `epd`: before, every result was lost. Now the failures found so far are
/// printed as they come and the count so far ends the output, status 130.
#[cfg(unix)]
#[test]
fn ctrl_c_keeps_the_results_so_far() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    use std::time::Duration;
    let suite = common::data_dir().join("suites/wac.epd");
    let suite = suite.to_str().unwrap();
    let mut child = Command::new(engine::TARPON)
        .args(["epd", suite, "--nodes", "5000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first failure line shows the run is under way (WAC has failures at 5,000 nodes).
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !String::from_utf8_lossy(&seen).contains("  line ") {
        assert_eq!(stdout.read(&mut byte).unwrap(), 1, "output ended early");
        seen.push(byte[0]);
    }
    std::thread::sleep(Duration::from_millis(300));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    stdout.read_to_end(&mut seen).unwrap();
    let out = String::from_utf8_lossy(&seen).to_string();
    assert_eq!(child.wait().unwrap().code(), Some(130), "{out}");
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("Solved: ") && last.contains("(interrupted: "),
        "{out}"
    );
    assert!(out.starts_with(&format!("{suite}: 300 positions")), "{out}");
}
