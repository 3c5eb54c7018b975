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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            tarpon::uci::run();
            ExitCode::SUCCESS
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
