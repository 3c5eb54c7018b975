//! The `tarpon` program's help: every subcommand is listed, each has its own help with
//! examples, and without arguments Tarpon is still the UCI engine GUIs start.

use crate::common;

use common::engine::{run, run_with_input};

/// In the order `tarpon --help` lists them: what people use first, then the tools for
/// developing Tarpon.
const SUBCOMMANDS: [&str; 13] = [
    "play", "analyse", "serve", "epd", "datagen", "train", "loss", "tune", "convert", "bench",
    "perft", "eval", "book",
];

/// The placeholders options show for their values: each says what kind of value it takes
/// (clap's default, the option's own name in capitals, often does not). The last three
/// name a choice, whose values the help lists.
const PLACEHOLDERS: [&str; 23] = [
    "FILE", "DIR", "DIRS", "PATH", "FEN", "N", "MS", "MB", "CP", "PLIES", "MIN+INC", "ADDR",
    "RATE", "FACTOR", "WEIGHT", "SCALE", "K", "EPOCH", "NETWORK", "FORMAT", "LAYOUT", "SCHEDULE",
    "PERCENT",
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

#[test]
fn help_lists_the_commands_for_people_before_the_developer_tools() {
    let (ok, out, _) = run(&["--help"]);
    assert!(ok);
    let at = |name: &str| {
        out.find(&format!("\n  {name} "))
            .unwrap_or_else(|| panic!("{name} missing from:\n{out}"))
    };
    let places: Vec<usize> = SUBCOMMANDS.iter().map(|name| at(name)).collect();
    assert!(
        places.is_sorted(),
        "not in the order {SUBCOMMANDS:?}:\n{out}"
    );
    // Each command's summary is one line.
    for name in SUBCOMMANDS {
        let line = out[at(name) + 1..].lines().next().unwrap();
        assert!(line.len() <= 120, "{line}");
    }
}

/// The options of `tarpon <name> -h`: each option's line (its names, placeholder and help).
fn option_lines(name: &str) -> (String, Vec<String>) {
    let (ok, out, err) = run(&[name, "-h"]);
    assert!(ok, "{name}: {err}");
    let usage = out
        .lines()
        .find(|l| l.starts_with("Usage: "))
        .unwrap()
        .to_string();
    let lines = out
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-') && !l.starts_with("-h, --help"))
        .map(String::from)
        .collect();
    (usage, lines)
}

#[test]
fn every_option_shows_its_placeholder_and_default() {
    for name in SUBCOMMANDS {
        let (usage, lines) = option_lines(name);
        for line in &lines {
            let option = line
                .split_whitespace()
                .find(|w| w.starts_with("--"))
                .unwrap();
            let after = &line[line.find(option).unwrap() + option.len()..];
            // A flag takes no value, and has no default to tell.
            let Some(rest) = after.strip_prefix(" <") else {
                continue;
            };
            let (placeholder, help) = rest.split_once('>').unwrap();
            assert!(
                PLACEHOLDERS.contains(&placeholder),
                "tarpon {name} {option}: <{placeholder}> says nothing of its value"
            );
            let required = usage.contains(&format!("{option} <")) || help.contains("required");
            assert!(
                required || help.contains("default"),
                "tarpon {name} {option}: no default in '{line}'"
            );
        }
    }
    // The search limits say what happens without any: Tarpon's own time per move.
    let default = format!(
        "{} ms a move when no limit is given",
        tarpon::tools::engine::DEFAULT_MOVETIME_MS
    );
    for name in ["play", "analyse", "epd"] {
        let (_, lines) = option_lines(name);
        for option in ["--depth", "--movetime", "--nodes"] {
            let line = lines.iter().find(|l| l.starts_with(option)).unwrap();
            assert!(line.contains(&default), "tarpon {name}: {line}");
        }
    }
}
