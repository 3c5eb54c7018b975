//! `tarpon train`'s command line: its arguments, their defaults taken from
//! [`Options::default`], and the conversion into [`Options`].

use super::{Options, Schedule, king_layouts};
use crate::eval::nnue::format::KingBuckets;
use std::path::PathBuf;

/// `tarpon train`'s arguments.
#[derive(clap::Args)]
#[command(
    after_help = "Reads 32-byte bulletformat records or game shards (tarpon datagen output) into memory and trains the \
network (768 inputs, or 768 per king bucket with --king-buckets, -> hidden x 2 perspectives -> 1 output of 8 buckets chosen by the piece count, SCReLU) with Adam on the squared error between \
sigmoid(output * 400 / scale) and the target lambda * result + (1 - lambda) * sigmoid(score / scale), \
the scale fitted to the data's scores and results unless --scale gives it. Each epoch shuffles all positions; the learning rate drops to a tenth after --lr-drop. Writes the \
quantised network to --output at the end and, with --checkpoint-dir, a checkpoint and a network \
after every epoch. See docs/nnue.md.\n\n\
Examples:\n  tarpon train data.bin --output net.nnue\n  \
tarpon train a.bin b.bin --validation held-out.bin --epochs 15 --lambda 0.3 --output net.nnue --checkpoint-dir ckpt\n  \
tarpon train a.bin --output net.nnue --epochs 15 --checkpoint-dir ckpt --resume ckpt/epoch-007.ckpt\n  \
tarpon train a.bin --output big.nnue --hidden 512 --king-buckets 8 --lr-schedule cosine\n  \
tarpon train a.bin --output kb8.nnue --init kb4.nnue --king-buckets 8 --factorise --epochs 0"
)]
pub struct TrainArgs {
    /// Data files: tarpon datagen output, game shards (their trainable positions) or 32-byte bulletformat records
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// A data file to report the loss on after every epoch, without training on it (default: none)
    #[arg(long, value_name = "FILE")]
    validation: Option<PathBuf>,
    /// Where to write the network
    #[arg(long, short, value_name = "FILE")]
    output: PathBuf,
    /// Passes over the data (0 with --init: write that network in this run's shape, untrained)
    #[arg(long, value_name = "N", default_value_t = Options::default().epochs, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    epochs: u32,
    /// Positions per gradient step
    #[arg(long, value_name = "N", default_value_t = Options::default().batch_size as u64, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    batch_size: u64,
    /// Adam learning rate
    #[arg(long, value_name = "RATE", default_value_t = Options::default().lr)]
    lr: f32,
    /// The learning rate drops to a tenth after this epoch (default: 3/4 of the epochs)
    #[arg(long, value_name = "EPOCH")]
    lr_drop: Option<u32>,
    /// Weight of the game result in the target; the search score gets 1 - lambda
    #[arg(long, value_name = "WEIGHT", default_value_t = Options::default().lambda)]
    lambda: f32,
    /// Sigmoid scale K in centipawns: sigmoid(score / K) is a score's expected result (default: fitted to the data)
    #[arg(long, value_name = "K")]
    scale: Option<f32>,
    /// Hidden neurons per perspective (the engine reads only its own size)
    #[arg(long, value_name = "N", default_value_t = Options::default().hidden as u32, value_parser = clap::value_parser!(u32).range(1..=4096))]
    hidden: u32,
    /// Output buckets by piece count (the engine reads only its own number, 8)
    #[arg(long, value_name = "N", default_value_t = Options::default().buckets as u8, value_parser = clap::value_parser!(u8).range(1..=8))]
    output_buckets: u8,
    /// Worker threads
    #[arg(long, value_name = "N", default_value_t = Options::default().threads as u16, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Seed of the starting weights and of the shuffles
    #[arg(long, value_name = "N", default_value_t = Options::default().seed)]
    seed: u64,
    /// Write a checkpoint and the network here after every epoch (default: none)
    #[arg(long, value_name = "DIR")]
    checkpoint_dir: Option<PathBuf>,
    /// Go on from a checkpoint (with the same data and settings; default: start afresh)
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// Start from this network's weights (same output buckets; a smaller hidden layer is widened with new neurons that start silent; one without king buckets seeds every bucket alike, and one with king buckets seeds a finer split of them, 8 or 16 from 4, each new bucket as the one it splits) instead of random ones (default: random weights)
    #[arg(long, value_name = "FILE")]
    init: Option<PathBuf>,
    /// Leave out positions whose score is beyond this (centipawns, either sign)
    #[arg(long, value_name = "CP", default_value_t = Options::default().max_score, value_parser = clap::value_parser!(i32).range(0..=32767))]
    max_score: i32,
    /// Read at most this many records of the training files (default: all)
    #[arg(long, value_name = "N")]
    max_positions: Option<usize>,
    /// Show each training position mirrored left to right (a1 <-> h1) half the time, at random (not with mirrored king buckets, which see both alike)
    #[arg(long)]
    mirror: bool,
    /// King input buckets: none (version 2 inputs), or a mirrored layout of 1, 4, 8, 16 or 32 buckets (see docs/nnue.md)
    #[arg(long, value_name = "LAYOUT", default_value = "none", value_parser = king_layouts::named)]
    king_buckets: KingBuckets,
    /// How the learning rate falls: step (a tenth after --lr-drop) or cosine (a half cosine wave down to a hundredth)
    #[arg(long, value_name = "SCHEDULE", default_value_t = Options::default().lr_schedule)]
    lr_schedule: Schedule,
    /// With --king-buckets: train 768 weights shared by all buckets beside each bucket's own (the file gets their sums), so that buckets learn from fewer positions
    #[arg(long)]
    factorise: bool,
}

impl From<TrainArgs> for Options {
    fn from(args: TrainArgs) -> Options {
        Options {
            files: args.files,
            validation: args.validation,
            output: args.output,
            epochs: args.epochs,
            batch_size: args.batch_size as usize,
            lr: args.lr,
            lr_drop: args.lr_drop,
            lambda: args.lambda,
            scale: args.scale,
            hidden: args.hidden as usize,
            buckets: args.output_buckets.into(),
            threads: args.threads.into(),
            seed: args.seed,
            checkpoint_dir: args.checkpoint_dir,
            resume: args.resume,
            init: args.init,
            max_score: args.max_score,
            max_positions: args.max_positions,
            mirror: args.mirror,
            king_buckets: args.king_buckets,
            lr_schedule: args.lr_schedule,
            factorise: args.factorise,
        }
    }
}

impl TrainArgs {
    /// `tarpon train`.
    pub fn run(self) -> std::process::ExitCode {
        crate::tools::exit_status(super::run(&self.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        args: TrainArgs,
    }

    /// The arguments left out are the library's defaults, the king buckets' named
    /// default among them.
    #[test]
    fn omitted_arguments_take_the_options_defaults() {
        let parsed = Command::parse_from(["train", "data.bin", "--output", "net.nnue"]);
        let options = Options::from(parsed.args);
        let want = Options {
            files: vec![PathBuf::from("data.bin")],
            output: PathBuf::from("net.nnue"),
            ..Options::default()
        };
        assert_eq!(format!("{options:?}"), format!("{want:?}"));
    }
}
