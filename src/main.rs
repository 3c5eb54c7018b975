//! The `tarpon` program: a UCI engine when started without arguments (as chess GUIs
//! start it), and a set of developer tools as subcommands. Each subcommand's arguments
//! live beside its code (`tools::play::PlayArgs`, `learn::train::args::TrainArgs`, ...),
//! which turns them into its options and runs it; here they are only listed and
//! dispatched.

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use tarpon::learn::train::{args::TrainArgs, loss::LossArgs};
use tarpon::learn::tune::args::TuneArgs;
use tarpon::learn::{convert::ConvertArgs, datagen::DatagenArgs};
use tarpon::tools::{analyse::AnalyseArgs, bench::BenchArgs, book::BookArgs, epd::EpdArgs};
use tarpon::tools::{eval::EvalArgs, perft::PerftArgs, play::PlayArgs, serve::ServeArgs};

#[derive(Parser)]
#[command(
    name = "tarpon",
    version = tarpon::version::version(),
    long_version = tarpon::version::details(),
    about = "Tarpon, a UCI chess engine",
    long_about = None,
    after_help = "Without a subcommand Tarpon speaks UCI on standard input and output, for chess GUIs and\n\
lichess-bot. To play it in the terminal: tarpon play. Each subcommand has its own --help.\n\n\
The first four commands are for playing and studying games; the others are tools for\n\
developing Tarpon (training data, networks, tuning, benchmarks, move generator tests)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// The subcommands, in the order `tarpon --help` lists them: what people use first, then
/// the tools for developing Tarpon.
#[derive(Subcommand)]
enum Command {
    /// Play a game against Tarpon in the terminal
    #[command(display_order = 1)]
    Play(PlayArgs),
    /// Evaluate a position with its best line, or annotate every move of the games in a PGN file
    #[command(display_order = 2, visible_alias = "analyze")]
    Analyse(AnalyseArgs),
    /// Play and analyse in the browser: a local web server with a board, backed by Tarpon
    #[command(display_order = 3)]
    Serve(ServeArgs),
    /// Run a test suite of EPD positions (bm, am, dm) and count the positions solved
    #[command(display_order = 4)]
    Epd(EpdArgs),
    /// Play self-play games for training the evaluation (see docs/nnue.md)
    ///
    /// Play self-play games for training the evaluation (see docs/nnue.md): whole games go
    /// in a compact shard (a directory or a .games file), their quiet positions as 32-byte
    /// bulletformat records in any other file.
    #[command(display_order = 5)]
    Datagen(DatagenArgs),
    /// Train an NNUE evaluation network on datagen data and write it in the engine's format
    #[command(display_order = 6)]
    Train(TrainArgs),
    /// Measure trained networks' loss on held-out positions, as tarpon train reports it
    #[command(display_order = 7)]
    Loss(LossArgs),
    /// Fit the evaluation weights to game results (Texel tuning) and write them as Rust source
    #[command(display_order = 8)]
    Tune(TuneArgs),
    /// Convert training data between game shards and bulletformat records, or check files
    #[command(display_order = 9)]
    Convert(ConvertArgs),
    /// Search the benchmark positions to a fixed depth; ends with '<nodes> nodes <nps> nps'
    #[command(display_order = 10)]
    Bench(BenchArgs),
    /// Count the leaf nodes of the legal move tree (move generator test and benchmark)
    #[command(display_order = 11)]
    Perft(PerftArgs),
    /// Print the static evaluation of a position: the hand-crafted one term by term, and the network's
    #[command(display_order = 12)]
    Eval(EvalArgs),
    /// List an opening book's moves for a position, with weights and percentages
    #[command(display_order = 13)]
    Book(BookArgs),
}

fn main() -> ExitCode {
    if let Some(commands) = uci_commands() {
        return tarpon::uci::run_commands(&commands);
    }
    match Cli::parse().command {
        None => {
            tarpon::uci::run();
            ExitCode::SUCCESS
        }
        Some(Command::Play(args)) => args.run(),
        Some(Command::Analyse(args)) => args.run(),
        Some(Command::Serve(args)) => args.run(),
        Some(Command::Epd(args)) => args.run(),
        Some(Command::Datagen(args)) => args.run(),
        Some(Command::Train(args)) => args.run(),
        Some(Command::Loss(args)) => args.run(),
        Some(Command::Tune(args)) => args.run(),
        Some(Command::Convert(args)) => args.run(),
        Some(Command::Bench(args)) => args.run(),
        Some(Command::Perft(args)) => args.run(),
        Some(Command::Eval(args)) => args.run(),
        Some(Command::Book(args)) => args.run(),
    }
}

/// The arguments as UCI commands, when the first is neither an option nor a subcommand:
/// `tarpon "genfens 100 seed 1 book None" "quit"` (as OpenBench and Stockfish use them).
fn uci_commands() -> Option<Vec<String>> {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let first = args.first()?;
    let cli = <Cli as clap::CommandFactory>::command();
    let is_subcommand = cli
        .get_subcommands()
        .any(|c| c.get_name() == first || c.get_all_aliases().any(|a| a == first));
    if first.starts_with('-') || first == "help" || is_subcommand {
        return None;
    }
    Some(args)
}
