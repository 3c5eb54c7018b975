//! End-to-end tests of the `tarpon` program: the perft, eval and tune subcommands and the UCI
//! loop, driven as a user or a GUI would, through arguments and standard input.

use std::io::Write;

use crate::common;

use common::engine::{run, run_with_input, spawn};

/// `tarpon perft` with `args`: whether it succeeded, standard output, standard error.
fn perft_cli(args: &[&str]) -> (bool, String, String) {
    run(&[&["perft"], args].concat())
}

/// Runs a UCI session with the given input lines and returns standard output.
fn uci_session(input: &str) -> String {
    let (ok, out, err) = run_with_input(&[], input);
    assert!(ok, "tarpon failed: {err}");
    out
}

#[test]
fn perft_prints_divide_then_total_time_and_speed() {
    let (ok, out, _) = perft_cli(&["3"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    let is_move_line = |l: &&&str| {
        l.split_once(": ").is_some_and(|(m, n)| {
            (4..=5).contains(&m.len()) && m.is_ascii() && n.parse::<u64>().is_ok()
        })
    };
    assert_eq!(lines.iter().filter(is_move_line).count(), 20);
    assert!(lines.contains(&"e2e4: 600"));
    let total = lines
        .iter()
        .position(|l| *l == "Nodes searched: 8902")
        .expect("total line");
    assert!(lines[total + 1].starts_with("Time: "));
    assert!(lines[total + 2].starts_with("Nodes/second: "));
}

#[test]
fn perft_accepts_a_fen_quoted_or_not_and_chess960() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (ok, out, _) = perft_cli(&["2", kiwipete]);
    assert!(ok && out.contains("Nodes searched: 2039\n"));
    let unquoted: Vec<&str> = kiwipete.split(' ').collect();
    let (ok, out, _) = perft_cli(&[&["2"], &unquoted[..]].concat());
    assert!(ok && out.contains("Nodes searched: 2039\n"));
    // Chess960: castling is printed king-takes-rook.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let (ok, out, _) = perft_cli(&["3", "--chess960", fen]);
    assert!(ok && out.contains("Nodes searched: 12189\n"), "{out}");
}

#[test]
fn perft_rejects_bad_input_with_an_error_and_failure_status() {
    let (ok, _, err) = perft_cli(&[
        "3",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",
    ]);
    assert!(!ok);
    assert!(err.contains("fullmove"), "{err}");
    let (ok, _, err) = perft_cli(&["deep"]);
    assert!(!ok && !err.is_empty());
    // A standard-chess FEN with Chess960 castling needs --chess960.
    let (ok, _, err) = perft_cli(&[
        "1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ]);
    assert!(!ok && err.contains("castling"), "{err}");
}

#[test]
fn uci_handshake_and_perft() {
    let out = uci_session("uci\nisready\nposition startpos moves e2e4 e7e5\ngo perft 2\nquit\n");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("id name Tarpon"));
    assert!(lines.contains(&"uciok"));
    assert!(lines.contains(&"readyok"));
    assert!(lines.contains(&"Nodes searched: 835"), "{out}");
}

#[test]
fn uci_castling_notation_follows_chess960_option() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let out = uci_session(&format!("position fen {fen}\ngo perft 1\nquit\n"));
    assert!(out.contains("e1g1: 1") && out.contains("e1c1: 1"), "{out}");
    let out = uci_session(&format!(
        "setoption name uci_chess960 value true\nposition fen {fen}\ngo perft 1\nquit\n"
    ));
    assert!(out.contains("e1h1: 1") && out.contains("e1a1: 1"), "{out}");
    // Either castling form is understood in a position command.
    let out = uci_session(&format!("position fen {fen} moves e1h1\nd\nquit\n"));
    assert!(
        out.contains("Fen: r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"),
        "{out}"
    );
}

#[test]
fn uci_bad_input_is_answered_and_leaves_a_defined_position() {
    let input = "\
        position startpos moves e2e4\n\
        position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0\tx\n\
        position startpos moves e2e4 e7e5 e1e3\n\
        position sideways\n\
        frobnicate now\n\
        setoption name Ponies value 3\n\
        setoption name UCI_Chess960 value maybe\n\
        go perft -1\n\
        go perft\n\
        \n\
        \t   \r\n\
        d\r\n\
        quit\n";
    let out = uci_session(input);
    let errors = out
        .lines()
        .filter(|l| l.starts_with("info string error"))
        .count();
    assert_eq!(errors, 8, "{out}");
    // The legal moves before e1e3 stand; the bad FEN and `position sideways` changed
    // nothing.
    assert!(
        out.contains("Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
        "{out}"
    );
}

#[test]
fn uci_ends_at_end_of_input_without_quit() {
    let out = uci_session("isready\n");
    assert_eq!(out, "readyok\n");
}

#[test]
fn eval_prints_the_table_and_ends_with_the_score() {
    let (ok, out, _) = run(&["eval", "8/8/4k3/8/8/4K3/4P3/8", "w", "-", "-", "0", "1"]);
    assert!(ok);
    assert!(
        out.contains("Passed pawns") && out.contains("Phase: 0 / 24"),
        "{out}"
    );
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("Final evaluation: ") && last.ends_with(" (white side)"));
    let (ok, _, err) = run(&["eval", "not a fen"]);
    assert!(!ok && err.contains("error"), "{err}");
}

#[test]
fn tune_rejects_bad_input_with_an_error_and_failure_status() {
    // No data files, a missing file, a bad option value: errors, and nothing written.
    let out_path = common::temp_path("tune.rs");
    let out_arg = out_path.to_str().unwrap();
    for args in [
        vec!["tune"],
        vec!["tune", "/nonexistent/data.bin", "--output", out_arg],
        vec!["tune", "x.bin", "--threads", "0"],
        vec!["tune", "x.bin", "--score-weight", "2", "--output", out_arg],
    ] {
        let (ok, _, err) = run(&args);
        assert!(!ok, "{args:?}");
        assert!(!err.is_empty(), "{args:?}");
    }
    assert!(!out_path.exists());
    let (ok, out, _) = run(&["tune", "--help"]);
    assert!(ok && out.contains("Examples:") && out.contains("--epochs"));
}

/// Starts tarpon with `args` and `input`, reads the first line of its output, closes the
/// pipe as a GUI that went away or `| head -1` would, and returns how it ended.
fn close_output_after_first_line(args: &[&str], input: &str) -> (std::process::ExitStatus, String) {
    use std::io::{BufRead, BufReader, Read};
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(!first.is_empty(), "no output from tarpon {args:?}");
    drop(stdout);
    // The engine may still be waiting for input (the UCI loop): end it so it finishes.
    drop(stdin);
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (status, stderr)
}

#[test]
fn a_closed_output_pipe_ends_the_program_quietly() {
    let cases: [(&[&str], &str); 3] = [
        (&["perft", "5"], ""),
        (&["bench", "6"], ""),
        // The search keeps printing `info` lines after the reader is gone.
        (&[], "uci\nposition startpos\ngo depth 12\n"),
    ];
    for (args, input) in cases {
        let (status, stderr) = close_output_after_first_line(args, input);
        assert!(
            status.success(),
            "tarpon {args:?} ended with {status:?}: {stderr}"
        );
        assert!(
            !stderr.contains("panicked"),
            "tarpon {args:?} panicked: {stderr}"
        );
    }
}

/// The x86-64 level this test was compiled for: the same flags build the program, so its
/// `--version` must name this level (worked out here from `cfg!`, in `build.rs` from what
/// cargo passes it).
fn expected_cpu_level() -> &'static str {
    if !cfg!(target_arch = "x86_64") {
        return std::env::consts::ARCH;
    }
    let v2 = cfg!(all(
        target_feature = "popcnt",
        target_feature = "sse4.2",
        target_feature = "ssse3"
    ));
    let v3 = cfg!(all(
        target_feature = "avx2",
        target_feature = "bmi2",
        target_feature = "fma",
        target_feature = "movbe"
    ));
    let v4 = cfg!(all(
        target_feature = "avx512f",
        target_feature = "avx512bw",
        target_feature = "avx512vl"
    ));
    match (v2, v3, v4) {
        (true, true, true) => "x86-64-v4",
        (true, true, false) => "x86-64-v3",
        (true, false, _) => "x86-64-v2",
        _ => "x86-64",
    }
}

/// The SHA-256 of the network the program embeds, as `sha256sum` (or `shasum`) prints it.
fn embedded_net_sha256() -> String {
    let net = env!("TARPON_EMBEDDED_NET");
    let out = std::process::Command::new("sha256sum")
        .arg(net)
        .output()
        .or_else(|_| {
            std::process::Command::new("shasum")
                .args(["-a", "256", net])
                .output()
        })
        .expect("sha256sum or shasum");
    let text = String::from_utf8(out.stdout).unwrap();
    let digest = text.split_whitespace().next().unwrap_or_default();
    assert_eq!(digest.len(), 64, "{text}");
    digest.to_string()
}

/// The commit the work tree is at, when the tests run in a git work tree.
fn head_commit() -> Option<String> {
    let out = std::process::Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "HEAD"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8(out.stdout).unwrap().trim().to_string())
}

/// Checks a one-line identity, `<release> (<commit>, <cpu level>, net <sha256 prefix>)`:
/// what `tarpon -V` prints after `tarpon ` and `id name` after `Tarpon `.
fn check_identity(line: &str) {
    let inside = line
        .strip_prefix(concat!(env!("CARGO_PKG_VERSION"), " ("))
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("not '<release> (...)': {line}"));
    let fields: Vec<&str> = inside.split(", ").collect();
    let [commit, level, net] = fields[..] else {
        panic!("not three fields: {line}");
    };
    let hash = commit.strip_suffix("-dirty").unwrap_or(commit);
    match head_commit() {
        Some(head) => assert!(
            hash.len() >= 7 && head.starts_with(hash),
            "commit {commit}, HEAD is {head}"
        ),
        None => assert_eq!(commit, "unknown"),
    }
    assert_eq!(level, expected_cpu_level(), "{line}");
    let digest = embedded_net_sha256();
    assert_eq!(net, format!("net {}", &digest[..12]), "{line}");
}

#[test]
fn version_names_release_commit_cpu_level_and_network() {
    let (ok, out, err) = run(&["--version"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let identity = lines[0].strip_prefix("tarpon ").expect("tarpon <version>");
    check_identity(identity);
    // Then each part spelt out; the whole SHA-256, to check a network file against.
    let commit = identity.split(['(', ',']).nth(1).unwrap();
    assert!(lines[1].starts_with(&format!("commit:  {commit}")), "{out}");
    assert!(
        lines[2].starts_with(&format!("cpu:     {}", expected_cpu_level())),
        "{out}"
    );
    let file = std::path::Path::new(env!("TARPON_EMBEDDED_NET")).file_name();
    let file = file.unwrap().to_str().unwrap();
    assert!(lines[3].starts_with(&format!("network: {file} (")), "{out}");
    assert_eq!(
        lines[4].trim(),
        format!("sha256 {}", embedded_net_sha256()),
        "{out}"
    );
    // `-V` is the first line alone.
    let (ok, short, _) = run(&["-V"]);
    assert!(ok && short == format!("{}\n", lines[0]), "{short}");
}

#[test]
fn uci_id_name_is_the_version_line() {
    let out = uci_session("uci\nquit\n");
    let name = out.lines().next().unwrap();
    let identity = name
        .strip_prefix("id name Tarpon ")
        .expect("id name Tarpon");
    check_identity(identity);
    let (_, version, _) = run(&["-V"]);
    assert_eq!(format!("tarpon {identity}\n"), version);
}
