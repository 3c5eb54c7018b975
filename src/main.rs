//! The `tarpon` program: a UCI engine when started without arguments (as chess GUIs
//! start it), and a set of developer tools as subcommands.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "tarpon", version, about = "Tarpon, a UCI chess engine", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (move generator test and benchmark)
    #[command(
        after_help = "Examples:\n  tarpon perft 6\n  tarpon perft 5 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'\n  tarpon perft 4 --chess960 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'"
    )]
    Perft {
        /// Depth in plies
        #[arg(value_parser = clap::value_parser!(u32).range(0..=32))]
        depth: u32,
        /// Position as FEN (default: the start position); quoting is optional
        fen: Vec<String>,
        /// Chess960 castling rules and notation
        #[arg(long)]
        chess960: bool,
    },
    /// Search the benchmark positions to a fixed depth; ends with '<nodes> nodes <nps> nps'
    #[command(after_help = "Examples:\n  tarpon bench\n  tarpon bench 13")]
    Bench {
        /// Search depth
        #[arg(default_value_t = tarpon::tools::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(1..=64))]
        depth: i32,
    },
    /// Fit the evaluation weights to game results (Texel tuning) and write them as Rust source
    #[command(
        after_help = "Reads 32-byte bulletformat records (tarpon datagen output), keeps the quiet \
positions (not in check, no capture or promotion winning material by SEE; no lone king), fits the sigmoid \
scale k, then tunes every middlegame and endgame weight with Adam and writes the result over \
src/eval/weights.rs (rebuild to use it).\n\n\
Examples:\n  tarpon tune data/*.bin\n  tarpon tune games.bin --epochs 40 --lr 0.5 --batch-size 32768\n  \
tarpon tune games.bin --max-positions 1000000 --output /tmp/weights.rs\n  \
tarpon tune train.bin --validation held-out.bin --min-positions 5000 --l2 1e-7"
    )]
    Tune {
        /// Data files of 32-byte bulletformat records
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// A data file to report the loss on after every epoch, without training on it
        #[arg(long)]
        validation: Option<std::path::PathBuf>,
        /// Passes over the data
        #[arg(long, default_value_t = 20)]
        epochs: usize,
        /// Adam learning rate (centipawns per step, roughly)
        #[arg(long, default_value_t = 1.0)]
        lr: f64,
        /// Multiply the learning rate by this after every epoch
        #[arg(long, default_value_t = 0.9)]
        lr_decay: f64,
        /// Positions per gradient step
        #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..))]
        batch_size: u64,
        /// Worker threads
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Where to write the tuned weights
        #[arg(long, default_value = "src/eval/weights.rs")]
        output: std::path::PathBuf,
        /// Use this sigmoid scale instead of fitting it
        #[arg(long)]
        k: Option<f64>,
        /// Blend the recorded search score into the target (0 = results only, 1 = scores only)
        #[arg(long, default_value_t = 0.0)]
        score_weight: f64,
        /// Read at most this many records
        #[arg(long)]
        max_positions: Option<usize>,
        /// Seed for shuffling the batches
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Leave alone the values counted in fewer positions than this (too little evidence)
        #[arg(long, default_value_t = 1000)]
        min_positions: usize,
        /// L2 penalty on moving away from the current values (0 = none)
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
    },
    /// Print the static evaluation of a position, term by term
    #[command(
        after_help = "Examples:\n  tarpon eval\n  tarpon eval '8/8/4k3/8/8/4K3/4P3/8 w - - 0 1'"
    )]
    Eval {
        /// Position as FEN (default: the start position); quoting is optional
        fen: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            tarpon::uci::run();
            ExitCode::SUCCESS
        }
        Some(Command::Bench { depth }) => {
            tarpon::tools::bench::run(depth, &mut |line| println!("{line}"));
            ExitCode::SUCCESS
        }
        Some(Command::Tune {
            files,
            validation,
            epochs,
            lr,
            lr_decay,
            batch_size,
            threads,
            output,
            k,
            score_weight,
            max_positions,
            seed,
            min_positions,
            l2,
        }) => {
            if !(0.0..=1.0).contains(&score_weight) {
                eprintln!("error: --score-weight must be between 0 and 1");
                return ExitCode::FAILURE;
            }
            let options = tarpon::tools::tune::Options {
                files,
                validation,
                epochs,
                lr,
                lr_decay,
                batch_size: batch_size as usize,
                threads: threads as usize,
                output,
                k,
                score_weight,
                max_positions,
                seed,
                min_positions,
                l2,
            };
            match tarpon::tools::tune::run(&options) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Eval { fen }) => {
            let fen = if fen.is_empty() {
                tarpon::chess::fen::START_FEN.to_string()
            } else {
                fen.join(" ")
            };
            match tarpon::chess::fen::parse(&fen, false) {
                Ok(board) => {
                    print!("{}", tarpon::eval::trace(&board));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Perft {
            depth,
            fen,
            chess960,
        }) => {
            let fen = if fen.is_empty() {
                tarpon::chess::fen::START_FEN.to_string()
            } else {
                fen.join(" ")
            };
            match tarpon::tools::perft::run(&fen, depth, chess960) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}
