//! The `tarpon` program's help: every subcommand is listed, each has its own help with
//! examples, and without arguments Tarpon is still the UCI engine GUIs start.

mod common;

use common::engine::{run, run_with_input};

const SUBCOMMANDS: [&str; 10] = [
    "play", "analyse", "epd", "bench", "perft", "eval", "datagen", "tune", "train", "book",
];

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
    let (ok, text, _) = run_with_input(&[], "uci\nquit\n");
    assert!(ok);
    assert!(
        text.starts_with("id name Tarpon") && text.contains("uciok"),
        "{text}"
    );
}
