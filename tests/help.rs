//! The `tarpon` program's help: every subcommand is listed, each has its own help with
//! examples, and without arguments Tarpon is still the UCI engine GUIs start.

use std::io::Write;
use std::process::{Command, Stdio};

const TARPON: &str = env!("CARGO_BIN_EXE_tarpon");
const SUBCOMMANDS: [&str; 10] = [
    "play", "analyse", "epd", "bench", "perft", "eval", "datagen", "tune", "train", "book",
];

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(TARPON)
        .args(args)
        .output()
        .expect("run tarpon");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn help_lists_every_subcommand_and_each_has_examples() {
    let (ok, out, _) = run(&["--help"]);
    assert!(ok);
    for name in SUBCOMMANDS {
        assert!(
            out.contains(&format!("\n  {name} ")),
            "{name} missing from:\n{out}"
        );
    }
    assert!(out.contains("UCI"), "{out}");
    for name in SUBCOMMANDS {
        let (ok, out, _) = run(&[name, "--help"]);
        assert!(ok, "{name} --help");
        assert!(
            out.contains("Examples:"),
            "{name} --help has no examples:\n{out}"
        );
        assert!(
            out.contains(&format!("tarpon {name}")),
            "{name} --help:\n{out}"
        );
    }
    // The American spelling is understood.
    let (ok, out, _) = run(&["analyze", "--help"]);
    assert!(ok && out.contains("--pgn"), "{out}");
}

#[test]
fn unknown_subcommands_and_options_fail_with_help() {
    for args in [
        vec!["frobnicate"],
        vec!["--frobnicate"],
        vec!["play", "extra"],
    ] {
        let (ok, _, err) = run(&args);
        assert!(!ok, "{args:?}");
        assert!(
            err.contains("error:") && err.contains("--help"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn without_arguments_tarpon_speaks_uci() {
    let mut child = Command::new(TARPON)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start tarpon");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("id name Tarpon") && text.contains("uciok"),
        "{text}"
    );
}
