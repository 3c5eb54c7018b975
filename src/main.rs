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
    /// List an opening book's moves for a position, with weights and percentages
    #[command(
        after_help = "Examples:\n  tarpon book performance.bin\n  tarpon book performance.bin 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'\n\nThe book is a Polyglot .bin file. Exit status 1 if the book cannot be read or holds an\nillegal move for the position (listed as 'illegal')."
    )]
    Book {
        /// Polyglot book file (.bin)
        file: String,
        /// Position as FEN (default: the start position); quoting is optional
        fen: Vec<String>,
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
        Some(Command::Book { file, fen }) => {
            let fen = if fen.is_empty() {
                tarpon::chess::fen::START_FEN.to_string()
            } else {
                fen.join(" ")
            };
            match tarpon::tools::book::list(&file, &fen) {
                Ok(listing) => {
                    for line in &listing.lines {
                        println!("{line}");
                    }
                    if listing.all_legal {
                        ExitCode::SUCCESS
                    } else {
                        eprintln!("error: the book holds a move that is illegal here");
                        ExitCode::FAILURE
                    }
                }
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
