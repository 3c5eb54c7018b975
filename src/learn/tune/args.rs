//! `tarpon tune`'s command line: its arguments, their defaults taken from
//! [`Options::default`], and the conversion into [`Options`].

use super::Options;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tarpon tune`'s arguments.
#[derive(clap::Args)]
#[command(
    after_help = "Reads 32-byte bulletformat records or game shards (tarpon datagen output), keeps the quiet \
positions (not in check, no capture or promotion winning material by SEE; no lone king), fits the sigmoid \
scale k, then tunes every middlegame and endgame weight with Adam and writes the result over \
src/eval/weights.rs (rebuild to use it).\n\n\
Examples:\n  tarpon tune data/*.bin\n  tarpon tune games.bin --epochs 40 --lr 0.5 --batch-size 32768\n  \
tarpon tune games.bin --max-positions 1000000 --output /tmp/weights.rs\n  \
tarpon tune train.bin --validation held-out.bin --min-positions 5000 --l2 1e-7"
)]
pub struct TuneArgs {
    /// Data files: tarpon datagen output, game shards (their trainable positions) or 32-byte bulletformat records
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// A data file to report the loss on (against game results only) after every epoch, without training on it (default: none)
    #[arg(long, value_name = "FILE")]
    validation: Option<PathBuf>,
    /// Passes over the data
    #[arg(long, value_name = "N", default_value_t = Options::default().epochs)]
    epochs: usize,
    /// Adam learning rate (centipawns per step, roughly)
    #[arg(long, value_name = "RATE", default_value_t = Options::default().lr)]
    lr: f64,
    /// Multiply the learning rate by this after every epoch
    #[arg(long, value_name = "FACTOR", default_value_t = Options::default().lr_decay)]
    lr_decay: f64,
    /// Positions per gradient step
    #[arg(long, value_name = "N", default_value_t = Options::default().batch_size as u64, value_parser = clap::value_parser!(u64).range(1..))]
    batch_size: u64,
    /// Worker threads
    #[arg(long, value_name = "N", default_value_t = Options::default().threads as u64, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Where to write the tuned weights
    #[arg(long, value_name = "FILE", default_value_os_t = Options::default().output)]
    output: PathBuf,
    /// Use this sigmoid scale instead of fitting it (default: fitted to the data)
    #[arg(long, value_name = "SCALE")]
    k: Option<f64>,
    /// Blend the recorded search score into the target (0 = results only, 1 = scores only)
    #[arg(long, value_name = "WEIGHT", default_value_t = Options::default().score_weight)]
    score_weight: f64,
    /// Read at most this many records (default: all)
    #[arg(long, value_name = "N")]
    max_positions: Option<usize>,
    /// Seed for shuffling the batches
    #[arg(long, value_name = "N", default_value_t = Options::default().seed)]
    seed: u64,
    /// Leave alone the values counted in fewer positions than this (too little evidence)
    #[arg(long, value_name = "N", default_value_t = Options::default().min_positions)]
    min_positions: usize,
    /// L2 penalty on moving away from the current values (0 = none)
    #[arg(long, value_name = "WEIGHT", default_value_t = Options::default().l2)]
    l2: f64,
}

impl From<TuneArgs> for Options {
    fn from(args: TuneArgs) -> Options {
        Options {
            files: args.files,
            validation: args.validation,
            epochs: args.epochs,
            lr: args.lr,
            lr_decay: args.lr_decay,
            batch_size: args.batch_size as usize,
            threads: args.threads as usize,
            output: args.output,
            k: args.k,
            score_weight: args.score_weight,
            max_positions: args.max_positions,
            seed: args.seed,
            min_positions: args.min_positions,
            l2: args.l2,
        }
    }
}

impl TuneArgs {
    /// `tarpon tune`.
    pub fn run(self) -> ExitCode {
        if !(0.0..=1.0).contains(&self.score_weight) {
            eprintln!("error: --score-weight must be between 0 and 1");
            return ExitCode::FAILURE;
        }
        crate::tools::exit_status(super::run(&self.into()))
    }
}
