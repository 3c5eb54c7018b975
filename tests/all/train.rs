//! `tarpon train` run as a user runs it: a short training run whose network the engine's
//! reader accepts, a resumed run that ends where an uninterrupted one does, and bad
//! arguments and files, which must end with a message and a failure status, not a panic.

use crate::common;

use common::Rng;
use common::engine::TARPON;
use std::path::Path;
use std::process::{Command, Output};
use tarpon::chess::Position;
use tarpon::chess::movegen::legal_moves;
use tarpon::eval::nnue::Net;
use tarpon::eval::nnue::format::{HIDDEN, Network, OUTPUT_BUCKETS, file_size};
use tarpon::learn::bulletformat::{self, GameResult};

/// `tarpon train` with `args` (the exit code tells a refusal from a panic).
fn train(args: &[&str]) -> Output {
    Command::new(TARPON)
        .arg("train")
        .args(args)
        .output()
        .expect("run tarpon")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A data file of `count` positions from random games, with made-up scores and results.
fn data_file(dir: &Path, name: &str, count: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut bytes = Vec::new();
    while bytes.len() < count * bulletformat::RECORD_SIZE {
        let mut pos = Position::startpos();
        for _ in 0..rng.below(100) {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos.make(*rng.pick(moves.as_slice()));
        }
        let result = *rng.pick(&[GameResult::WhiteWin, GameResult::Draw, GameResult::BlackWin]);
        let score = rng.below(600) as i16 - 300;
        bytes.extend(bulletformat::pack(pos.board(), score, result, false).unwrap());
    }
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

/// `--max-positions` shortens the training data only: the held-out loss is always that of
/// the whole validation file, so that it compares with other runs' figures.
#[test]
fn a_short_run_reports_each_epoch_and_writes_a_network_the_engine_reads() {
    let dir = common::temp_dir("run");
    let data = data_file(&dir, "data.bin", 600, 1);
    let held_out = data_file(&dir, "held.bin", 200, 2);
    let net = dir.join("net.nnue");
    let out = train(&[
        &data,
        "--validation",
        &held_out,
        "--max-positions",
        "150",
        "--output",
        net.to_str().unwrap(),
        "--epochs",
        "3",
        "--batch-size",
        "64",
        "--threads",
        "2",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    for epoch in 1..=3 {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("epoch {epoch:>3}: train loss ")))
            .unwrap_or_else(|| panic!("no line for epoch {epoch}: {stdout}"));
        assert!(
            line.contains("validation") && line.contains("pos/s"),
            "{line}"
        );
    }
    assert!(stdout.contains("150 records, 150 kept"), "{stdout}");
    assert!(stdout.contains("200 records, 200 kept"), "{stdout}");
    // Version 3, without king buckets (the default), which the engine reads.
    let bytes = std::fs::read(&net).unwrap();
    assert_eq!(bytes.len(), file_size(HIDDEN, OUTPUT_BUCKETS, 1));
    assert_eq!(&bytes[8..12], &3u32.to_le_bytes());
    assert!(Net::<HIDDEN>::from_bytes(&bytes, "net").is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_resumed_run_writes_the_network_of_an_uninterrupted_one() {
    let dir = common::temp_dir("resume");
    let data = data_file(&dir, "data.bin", 500, 3);
    let common = [
        data.as_str(),
        "--batch-size",
        "50",
        "--hidden",
        "16",
        "--lr-drop",
        "2",
        "--seed",
        "9",
    ];
    let run = |extra: &[&str]| {
        let out = train(&[&common[..], extra].concat());
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let whole = dir.join("whole.nnue");
    run(&["--epochs", "3", "--output", whole.to_str().unwrap()]);
    let ckpt = dir.join("ckpt");
    let first = dir.join("first.nnue");
    run(&[
        "--epochs",
        "2",
        "--output",
        first.to_str().unwrap(),
        "--checkpoint-dir",
        ckpt.to_str().unwrap(),
    ]);
    // Each epoch left a checkpoint and a network.
    for name in ["epoch-001.ckpt", "epoch-001.nnue", "epoch-002.ckpt"] {
        assert!(ckpt.join(name).is_file(), "{name}");
    }
    assert_eq!(
        std::fs::read(ckpt.join("epoch-002.nnue")).unwrap(),
        std::fs::read(&first).unwrap()
    );
    let resumed = dir.join("resumed.nnue");
    let stdout = run(&[
        "--epochs",
        "3",
        "--output",
        resumed.to_str().unwrap(),
        "--resume",
        ckpt.join("epoch-002.ckpt").to_str().unwrap(),
    ]);
    assert!(stdout.contains("resuming after epoch 2"), "{stdout}");
    assert!(!stdout.contains("epoch   1:"), "{stdout}");
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    // A hidden size of 16 is written with its size in the header, which this build's
    // engine rejects, naming both shapes.
    let bytes = std::fs::read(&whole).unwrap();
    assert!(Network::from_bytes(&bytes).is_ok());
    let err = Net::<HIDDEN>::from_bytes(&bytes, "whole").unwrap_err();
    assert!(
        err.to_string().contains("network is 768 -> 16x2 -> 8"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_can_start_from_a_network_and_give_it_king_buckets_or_more_neurons() {
    let dir = common::temp_dir("init");
    let data = data_file(&dir, "data.bin", 300, 7);
    // The starting network: one without king buckets, of the engine's width, made here
    // (the default network may have king buckets of its own).
    let plain_path = dir.join("plain.nnue");
    let plain = plain_path.to_str().unwrap();
    let out = train(&[&data, "-o", plain, "--epochs", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let start = Network::from_bytes(&std::fs::read(plain).unwrap()).unwrap();
    assert_eq!(start.king_buckets.count(), 1);
    // Written again untrained (`--epochs 0`): the network is the one it started from,
    // reshaped.
    let started = |name: &str, shape: &[&str]| {
        let path = dir.join(name);
        let mut args = vec![data.as_str(), "-o", path.to_str().unwrap(), "--init", plain];
        args.extend_from_slice(shape);
        args.extend_from_slice(&["--epochs", "0"]);
        let out = train(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        Network::from_bytes(&std::fs::read(&path).unwrap()).unwrap()
    };
    // Its weights in each of the 4 king buckets.
    let net = dir.join("seeded.nnue");
    let seeded = started("seeded.nnue", &["--king-buckets", "4"]);
    assert_eq!(seeded.king_buckets.count(), 4);
    let one = start.feature_weights.len();
    assert_eq!(seeded.feature_weights.len(), 4 * one);
    for bucket in seeded.feature_weights.chunks(one) {
        assert!(bucket == start.feature_weights.as_slice());
    }
    assert_eq!(seeded.hidden_biases, start.hidden_biases);
    // From the 4 buckets into 8, which split them: each bucket's weights are those of the
    // bucket it is part of (here all alike), and every other weight is the same. One
    // epoch at a learning rate too small to move a weight by a quantisation step writes
    // the same network as no epoch.
    let path = dir.join("eight.nnue");
    let args = [
        data.as_str(),
        "-o",
        path.to_str().unwrap(),
        "--init",
        net.to_str().unwrap(),
    ];
    let out = train(
        &[
            &args[..],
            &["--king-buckets", "8", "--epochs", "1", "--lr", "1e-12"],
        ]
        .concat(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let eight = Network::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(eight.king_buckets.count(), 8);
    for bucket in eight.feature_weights.chunks(one) {
        assert!(bucket == start.feature_weights.as_slice());
    }
    assert_eq!(eight.hidden_biases, start.hidden_biases);
    assert_eq!(eight.output_weights, start.output_weights);
    assert_eq!(eight.output_biases, start.output_biases);
    let untrained = dir.join("eight-untrained.nnue");
    let out = train(
        &[
            &args[..2],
            &[untrained.to_str().unwrap()],
            &args[3..],
            &["--king-buckets", "8", "--epochs", "0"],
        ]
        .concat(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("untrained"));
    assert!(std::fs::read(&untrained).unwrap() == std::fs::read(&path).unwrap());
    // Widened to 320 neurons: each input's first 256 weights and the biases are the old
    // ones, and the 64 new neurons are silent (output weights 0).
    let wide = started("wide.nnue", &["--hidden", "320"]);
    let old = start.hidden_biases.len();
    assert_eq!(wide.hidden_biases.len(), 320);
    assert_eq!(wide.hidden_biases[..old], start.hidden_biases[..]);
    for (new, old_row) in wide
        .feature_weights
        .chunks(320)
        .zip(start.feature_weights.chunks(old))
    {
        assert_eq!(new[..old], old_row[..]);
    }
    for (new, old_half) in wide
        .output_weights
        .chunks(320)
        .zip(start.output_weights.chunks(old))
    {
        assert_eq!(new[..old], old_half[..]);
        assert!(new[old..].iter().all(|&w| w == 0));
    }
    assert_eq!(wide.output_biases, start.output_biases);
    // Shapes that do not fit, and --init with --resume, are refused with the reason.
    let output = dir.join("out.nnue");
    let output = output.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["--init", plain, "--hidden", "32"], "hidden neurons"),
        (&["--epochs", "0"], "give --init"),
        (&["--init", &data], "is not a network"),
        (&["--init", plain, "--resume", &data], "give one of them"),
        (
            &["--init", net.to_str().unwrap(), "--king-buckets", "1"],
            "which does not split each of them",
        ),
    ];
    for (extra, expected) in cases {
        let mut args = vec![data.as_str(), "-o", output];
        args.extend_from_slice(extra);
        let out = train(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tarpon loss` measures a written network on held-out positions at about the figure its
/// run reported (the file's weights are rounded), names a file that is not a network while
/// still measuring the others, and ends with a failure status then.
#[test]
fn loss_measures_written_networks_as_their_run_reported() {
    let dir = common::temp_dir("loss");
    let data = data_file(&dir, "data.bin", 800, 7);
    let held_out = data_file(&dir, "held.bin", 300, 8);
    let net = dir.join("net.nnue");
    let net = net.to_str().unwrap();
    let common_args = ["--lambda", "0.25", "--scale", "150"];
    let out = train(
        &[
            &[data.as_str(), "--validation", &held_out, "--output", net],
            &["--epochs", "4", "--batch-size", "64", "--king-buckets", "4"][..],
            &common_args[..],
        ]
        .concat(),
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let reported: f64 = stdout
        .lines()
        .find(|l| l.starts_with("epoch   4:"))
        .and_then(|l| l.split("validation ").nth(1))
        .and_then(|v| v.split(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no validation figure for epoch 4: {stdout}"));

    let not_a_net = dir.join("notes.txt");
    std::fs::write(&not_a_net, "hello").unwrap();
    let out = Command::new(TARPON)
        .arg("loss")
        .args([net, not_a_net.to_str().unwrap(), net, "--data", &held_out])
        .args(common_args)
        .output()
        .expect("run tarpon");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(!out.status.success(), "{stdout}{stderr}");
    assert!(stderr.contains("notes.txt is not a network"), "{stderr}");
    let measured: Vec<f64> = stdout
        .lines()
        .filter(|l| l.ends_with(net))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(measured.len(), 2, "{stdout}");
    assert_eq!(measured[0], measured[1]);
    assert!(
        (measured[0] - reported).abs() <= 0.1 * reported,
        "measured {measured:?}, the run reported {reported}"
    );
    assert!(stdout.contains("on 300 positions"), "{stdout}");
    let out = Command::new(TARPON)
        .args(["loss", net, "--data", &held_out, "--lambda", "2"])
        .output()
        .expect("run tarpon");
    assert!(!out.status.success() && text(&out.stderr).contains("--lambda"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_arguments_and_files_end_with_a_message() {
    let dir = common::temp_dir("bad");
    let data = data_file(&dir, "data.bin", 50, 4);
    let out_path = dir.join("out.nnue");
    let output = out_path.to_str().unwrap();
    let odd = dir.join("odd.bin");
    std::fs::write(&odd, vec![0u8; 33]).unwrap();
    let empty = dir.join("empty.bin");
    std::fs::write(&empty, []).unwrap();
    let garbage = dir.join("garbage.bin");
    std::fs::write(&garbage, vec![0xFFu8; 64]).unwrap();
    let not_ckpt = dir.join("not.ckpt");
    std::fs::write(&not_ckpt, b"hello").unwrap();
    let missing = dir.join("missing.bin");
    let unwritable = dir.join("no-such-folder").join("net.nnue");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![], "required"),
        (vec![&data], "--output"),
        (vec![missing.to_str().unwrap(), "-o", output], "cannot read"),
        (
            vec![odd.to_str().unwrap(), "-o", output],
            "not a whole number",
        ),
        (vec![empty.to_str().unwrap(), "-o", output], "empty"),
        (
            vec![garbage.to_str().unwrap(), "-o", output],
            "no usable positions",
        ),
        (
            vec![&data, "-o", unwritable.to_str().unwrap()],
            "cannot write",
        ),
        (vec![&data, "-o", dir.to_str().unwrap()], "folder"),
        (vec![&data, "-o", output, "--lambda", "1.5"], "--lambda"),
        (vec![&data, "-o", output, "--lr=-1"], "--lr"),
        (vec![&data, "-o", output, "--scale", "0"], "--scale"),
        (vec![&data, "-o", output, "--epochs", "0"], "--epochs"),
        (vec![&data, "-o", output, "--hidden", "0"], "--hidden"),
        (vec![&data, "-o", output, "--threads", "0"], "--threads"),
        (
            vec![&data, "-o", output, "--king-buckets", "5"],
            "unknown king bucket layout",
        ),
        (
            vec![&data, "-o", output, "--king-buckets", "4", "--mirror"],
            "--mirror does nothing",
        ),
        (
            vec![&data, "-o", output, "--lr-schedule", "linear"],
            "unknown learning-rate schedule",
        ),
        (vec![&data, "-o", output, "--factorise"], "--king-buckets"),
        (
            vec![
                &data,
                "-o",
                output,
                "--lr-schedule",
                "cosine",
                "--lr-drop",
                "2",
            ],
            "--lr-drop",
        ),
        (
            vec![&data, "-o", output, "--batch-size", "x"],
            "--batch-size",
        ),
        (
            vec![&data, "-o", output, "--resume", not_ckpt.to_str().unwrap()],
            "checkpoint",
        ),
        (
            vec![
                &data,
                "-o",
                output,
                "--validation",
                missing.to_str().unwrap(),
            ],
            "cannot read",
        ),
    ];
    for (args, expected) in cases {
        let out = train(&args);
        let stderr = text(&out.stderr);
        // clap's own errors exit with 2, the trainer's with 1; a panic would be 101.
        assert!(
            matches!(out.status.code(), Some(1 | 2)),
            "{args:?}: {:?} {stderr}",
            out.status
        );
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    assert!(!out_path.exists(), "a failed run wrote its output");
    std::fs::remove_dir_all(&dir).unwrap();
}
