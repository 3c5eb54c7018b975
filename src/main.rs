//! The `tarpon` program: a UCI engine when started without arguments (as chess GUIs
//! start it), and a set of developer tools as subcommands.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tarpon::eval::nnue::{EMBEDDED_NAME, Net};

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

#[derive(Subcommand)]
enum Command {
    /// Convert training data between game shards and bulletformat records, or check files
    #[command(
        display_order = 8,
        after_help = "Examples:\n  tarpon convert --check $TARPON_DATA/games/*.games\n  tarpon convert $TARPON_DATA/games/*.games --output all.bin      # trainable positions\n  tarpon convert old.bin --output old.games                       # one-position games\n\nGames become the positions worth training on (not in check, no capture or promotion\nas best move, no mate score). A damaged shard (cut short, or corrupt) is reported with\nwhere it stops; its games before that point are used."
    )]
    Convert {
        /// Input files: game shards and bulletformat files, mixed as you like
        #[arg(required = true, value_name = "FILES")]
        inputs: Vec<PathBuf>,
        /// Output file, new: a .games name writes a shard, any other bulletformat (required
        /// unless --check)
        #[arg(long, short, value_name = "FILE", required_unless_present = "check")]
        output: Option<PathBuf>,
        /// Only read the inputs and report what they hold (games, positions, damage)
        #[arg(long, conflicts_with = "output")]
        check: bool,
    },
    /// Count the leaf nodes of the legal move tree (move generator test and benchmark)
    #[command(
        display_order = 10,
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
    #[command(
        display_order = 9,
        after_help = "Examples:\n  tarpon bench\n  tarpon bench 13\n  tarpon bench 13 2        # two threads: nps and time to depth\n  tarpon bench 13 2 64     # ... with a 64 MB table\n\nThe node total is the search's signature with one thread; with more it varies from run to run."
    )]
    Bench {
        /// Search depth
        #[arg(default_value_t = tarpon::tools::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(1..=64))]
        depth: i32,
        /// Search threads
        #[arg(default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: u16,
        /// Transposition table size in MB
        #[arg(default_value_t = tarpon::tools::bench::DEFAULT_HASH_MB as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
        hash: u32,
    },
    /// List an opening book's moves for a position, with weights and percentages
    #[command(
        display_order = 12,
        after_help = "Examples:\n  tarpon book performance.bin\n  tarpon book performance.bin 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'\n\nThe book is a Polyglot .bin file. Exit status 1 if the book cannot be read or holds an\nillegal move for the position (listed as 'illegal')."
    )]
    Book {
        /// Polyglot book file (.bin)
        file: String,
        /// Position as FEN (default: the start position); quoting is optional
        fen: Vec<String>,
    },
    /// Fit the evaluation weights to game results (Texel tuning) and write them as Rust source
    #[command(
        display_order = 7,
        after_help = "Reads 32-byte bulletformat records or game shards (tarpon datagen output), keeps the quiet \
positions (not in check, no capture or promotion winning material by SEE; no lone king), fits the sigmoid \
scale k, then tunes every middlegame and endgame weight with Adam and writes the result over \
src/eval/weights.rs (rebuild to use it).\n\n\
Examples:\n  tarpon tune data/*.bin\n  tarpon tune games.bin --epochs 40 --lr 0.5 --batch-size 32768\n  \
tarpon tune games.bin --max-positions 1000000 --output /tmp/weights.rs\n  \
tarpon tune train.bin --validation held-out.bin --min-positions 5000 --l2 1e-7"
    )]
    Tune {
        /// Data files: tarpon datagen output, game shards (their trainable positions) or 32-byte bulletformat records
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// A data file to report the loss on (against game results only) after every epoch, without training on it (default: none)
        #[arg(long, value_name = "FILE")]
        validation: Option<std::path::PathBuf>,
        /// Passes over the data
        #[arg(long, value_name = "N", default_value_t = 20)]
        epochs: usize,
        /// Adam learning rate (centipawns per step, roughly)
        #[arg(long, value_name = "RATE", default_value_t = 1.0)]
        lr: f64,
        /// Multiply the learning rate by this after every epoch
        #[arg(long, value_name = "FACTOR", default_value_t = 0.9)]
        lr_decay: f64,
        /// Positions per gradient step
        #[arg(long, value_name = "N", default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..))]
        batch_size: u64,
        /// Worker threads
        #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Where to write the tuned weights
        #[arg(long, value_name = "FILE", default_value = "src/eval/weights.rs")]
        output: std::path::PathBuf,
        /// Use this sigmoid scale instead of fitting it (default: fitted to the data)
        #[arg(long, value_name = "SCALE")]
        k: Option<f64>,
        /// Blend the recorded search score into the target (0 = results only, 1 = scores only)
        #[arg(long, value_name = "WEIGHT", default_value_t = 0.0)]
        score_weight: f64,
        /// Read at most this many records (default: all)
        #[arg(long, value_name = "N")]
        max_positions: Option<usize>,
        /// Seed for shuffling the batches
        #[arg(long, value_name = "N", default_value_t = 1)]
        seed: u64,
        /// Leave alone the values counted in fewer positions than this (too little evidence)
        #[arg(long, value_name = "N", default_value_t = 1000)]
        min_positions: usize,
        /// L2 penalty on moving away from the current values (0 = none)
        #[arg(long, value_name = "WEIGHT", default_value_t = 0.0)]
        l2: f64,
    },
    /// Train an NNUE evaluation network on datagen data and write it in the engine's format
    #[command(
        display_order = 6,
        after_help = "Reads 32-byte bulletformat records or game shards (tarpon datagen output) into memory and trains the \
network (768 inputs, or 768 per king bucket with --king-buckets, -> hidden x 2 perspectives -> 1 output of 8 buckets chosen by the piece count, SCReLU) with Adam on the squared error between \
sigmoid(output * 400 / scale) and the target lambda * result + (1 - lambda) * sigmoid(score / scale), \
the scale fitted to the data's scores and results unless --scale gives it. Each epoch shuffles all positions; the learning rate drops to a tenth after --lr-drop. Writes the \
quantised network to --output at the end and, with --checkpoint-dir, a checkpoint and a network \
after every epoch. See docs/nnue.md.\n\n\
Examples:\n  tarpon train data.bin --output net.nnue\n  \
tarpon train a.bin b.bin --validation held-out.bin --epochs 15 --lambda 0.3 --output net.nnue --checkpoint-dir ckpt\n  \
tarpon train a.bin --output net.nnue --epochs 15 --checkpoint-dir ckpt --resume ckpt/epoch-007.ckpt\n  \
tarpon train a.bin --output big.nnue --hidden 512 --king-buckets 8 --lr-schedule cosine"
    )]
    Train {
        /// Data files: tarpon datagen output, game shards (their trainable positions) or 32-byte bulletformat records
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// A data file to report the loss on after every epoch, without training on it (default: none)
        #[arg(long, value_name = "FILE")]
        validation: Option<PathBuf>,
        /// Where to write the network
        #[arg(long, short, value_name = "FILE")]
        output: PathBuf,
        /// Passes over the data
        #[arg(long, value_name = "N", default_value_t = tr().epochs, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        epochs: u32,
        /// Positions per gradient step
        #[arg(long, value_name = "N", default_value_t = tr().batch_size as u64, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        batch_size: u64,
        /// Adam learning rate
        #[arg(long, value_name = "RATE", default_value_t = tr().lr)]
        lr: f32,
        /// The learning rate drops to a tenth after this epoch (default: 3/4 of the epochs)
        #[arg(long, value_name = "EPOCH")]
        lr_drop: Option<u32>,
        /// Weight of the game result in the target; the search score gets 1 - lambda
        #[arg(long, value_name = "WEIGHT", default_value_t = tr().lambda)]
        lambda: f32,
        /// Sigmoid scale K in centipawns: sigmoid(score / K) is a score's expected result (default: fitted to the data)
        #[arg(long, value_name = "K")]
        scale: Option<f32>,
        /// Hidden neurons per perspective (the engine reads only its own size)
        #[arg(long, value_name = "N", default_value_t = tr().hidden as u32, value_parser = clap::value_parser!(u32).range(1..=4096))]
        hidden: u32,
        /// Output buckets by piece count (the engine reads only its own number, 8)
        #[arg(long, value_name = "N", default_value_t = tr().buckets as u8, value_parser = clap::value_parser!(u8).range(1..=8))]
        output_buckets: u8,
        /// Worker threads
        #[arg(long, value_name = "N", default_value_t = tr().threads as u16, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Seed of the starting weights and of the shuffles
        #[arg(long, value_name = "N", default_value_t = tr().seed)]
        seed: u64,
        /// Write a checkpoint and the network here after every epoch (default: none)
        #[arg(long, value_name = "DIR")]
        checkpoint_dir: Option<PathBuf>,
        /// Go on from a checkpoint (with the same data and settings; default: start afresh)
        #[arg(long, value_name = "FILE")]
        resume: Option<PathBuf>,
        /// Start from this network's weights (same output buckets; a smaller hidden layer is widened with new neurons that start silent; one without king buckets seeds every bucket alike) instead of random ones (default: random weights)
        #[arg(long, value_name = "FILE")]
        init: Option<PathBuf>,
        /// Leave out positions whose score is beyond this (centipawns, either sign)
        #[arg(long, value_name = "CP", default_value_t = tr().max_score, value_parser = clap::value_parser!(i32).range(0..=32767))]
        max_score: i32,
        /// Read at most this many records of the training files (default: all)
        #[arg(long, value_name = "N")]
        max_positions: Option<usize>,
        /// Show each training position mirrored left to right (a1 <-> h1) half the time, at random (not with mirrored king buckets, which see both alike)
        #[arg(long)]
        mirror: bool,
        /// King input buckets: none (version 2 inputs), or a mirrored layout of 1, 4, 8, 16 or 32 buckets (see docs/nnue.md)
        #[arg(long, value_name = "LAYOUT", default_value = "none", value_parser = tarpon::learn::train::king_layouts::named)]
        king_buckets: tarpon::eval::nnue::format::KingBuckets,
        /// How the learning rate falls: step (a tenth after --lr-drop) or cosine (a half cosine wave down to a hundredth)
        #[arg(long, value_name = "SCHEDULE", default_value = "step")]
        lr_schedule: tarpon::learn::train::Schedule,
        /// With --king-buckets: train 768 weights shared by all buckets beside each bucket's own (the file gets their sums), so that buckets learn from fewer positions
        #[arg(long)]
        factorise: bool,
    },
    /// Print the static evaluation of a position: the hand-crafted one term by term, and the network's
    #[command(
        display_order = 11,
        after_help = "Examples:\n  tarpon eval\n  tarpon eval '8/8/4k3/8/8/4K3/4P3/8 w - - 0 1'\n\nThe line before the last gives the embedded network's score (what the search uses by\ndefault); the last line, 'Final evaluation', is the hand-crafted evaluation's (Use NNUE off)."
    )]
    Eval {
        /// Position as FEN (default: the start position); quoting is optional
        fen: Vec<String>,
    },
    /// Play self-play games for training the evaluation (see docs/nnue.md)
    ///
    /// Play self-play games for training the evaluation (see docs/nnue.md): whole games go
    /// in a compact shard (a directory or a .games file), their quiet positions as 32-byte
    /// bulletformat records in any other file.
    #[command(
        display_order = 5,
        after_help = "Examples:\n  tarpon datagen --output $TARPON_DATA/games --nnue embedded --threads 2   # a new shard there\n  tarpon datagen --output run1.games --games 1000 --nodes 5000\n  tarpon datagen --output data.bin --book openings.epd --random-plies 2 --seed 7\n  tarpon datagen --output data.bin --append --seed 8\n\nCtrl-C stops early: the games in progress are dropped, every finished game is in the file."
    )]
    Datagen {
        /// Output: a directory (a new game shard is made in it), a new .games shard, or a
        /// bulletformat file (new or empty, unless --append)
        #[arg(long, short, value_name = "PATH")]
        output: PathBuf,
        /// Storage format (default: games for a directory or a .games file, bulletformat otherwise)
        #[arg(long, value_name = "FORMAT", value_enum)]
        format: Option<DataFormat>,
        /// Add to an existing bulletformat file (use another --seed, or the same games come again)
        #[arg(long)]
        append: bool,
        /// Number of games to play
        #[arg(long, value_name = "N", default_value_t = dg().games, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// Nodes searched per move
        #[arg(long, value_name = "N", default_value_t = dg().nodes, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
        nodes: u64,
        /// Threads, each playing its own games
        #[arg(long, value_name = "N", default_value_t = dg().threads as u16, value_parser = clap::value_parser!(u16).range(1..=512))]
        threads: u16,
        /// Hash table per thread, in MB
        #[arg(long, value_name = "MB", default_value_t = dg().hash_mb as u32, value_parser = clap::value_parser!(u32).range(1..=4096))]
        hash: u32,
        /// Start positions, one FEN or EPD per line (default: the standard start position)
        #[arg(long, value_name = "FILE")]
        book: Option<PathBuf>,
        /// Random plies from the start position or book line: N or N+1, chosen at random (0: none)
        #[arg(long, value_name = "N", default_value_t = dg().random_plies, value_parser = clap::value_parser!(u32).range(0..=100))]
        random_plies: u32,
        /// Draw another opening when a search scores it beyond this (centipawns)
        #[arg(long, value_name = "CP", default_value_t = dg().opening_max_score, value_parser = clap::value_parser!(i32).range(0..=32000))]
        opening_max_score: i32,
        /// Seed of the random openings (default: from the clock; printed, to repeat a run)
        #[arg(long, value_name = "N")]
        seed: Option<u64>,
        /// Evaluate with an NNUE network instead of the hand-crafted evaluation: 'embedded' for the one built into the binary, or a network file (default: the hand-crafted evaluation)
        #[arg(long, value_name = "NETWORK")]
        nnue: Option<String>,
        /// Adjudicate a win when the score is at least this (centipawns) ...
        #[arg(long, value_name = "CP", default_value_t = dg().adjudication.win_score, value_parser = clap::value_parser!(i32).range(1..=32000), help_heading = "Adjudication")]
        win_score: i32,
        /// ... for the same side for this many plies in a row (0: never)
        #[arg(long, value_name = "N", default_value_t = dg().adjudication.win_plies, value_parser = clap::value_parser!(u32).range(0..=1000), help_heading = "Adjudication")]
        win_plies: u32,
        /// Adjudicate a draw when the score stays within this of zero (centipawns) ...
        #[arg(long, value_name = "CP", default_value_t = dg().adjudication.draw_score, value_parser = clap::value_parser!(i32).range(0..=32000), help_heading = "Adjudication")]
        draw_score: i32,
        /// ... for this many plies in a row (0: never) ...
        #[arg(long, value_name = "N", default_value_t = dg().adjudication.draw_plies, value_parser = clap::value_parser!(u32).range(0..=1000), help_heading = "Adjudication")]
        draw_plies: u32,
        /// ... once the game is this many plies long
        #[arg(long, value_name = "N", default_value_t = dg().adjudication.draw_after, value_parser = clap::value_parser!(u32).range(0..=10000), help_heading = "Adjudication")]
        draw_after: u32,
        /// A game that reaches this many plies is a draw
        #[arg(long, value_name = "N", default_value_t = dg().adjudication.max_plies, value_parser = clap::value_parser!(u32).range(1..=10000), help_heading = "Adjudication")]
        max_plies: u32,
    },
    /// Play a game against Tarpon in the terminal
    #[command(
        display_order = 1,
        after_help = "Moves are typed in SAN (e4, Nf3, O-O, e8=Q) or UCI notation (e2e4); 'help' lists the\n\
commands: undo, hint, eval, flip, resign, pgn, save FILE, moves, board, fen, quit.\n\n\
Examples:\n  tarpon play\n  tarpon play --black --tc 5+3 --elo 1500\n  tarpon play --level 5\n  tarpon play --movetime 200 --save game.pgn\n  \
tarpon play --fen '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1' --depth 1"
    )]
    Play {
        /// Play the white pieces (the default)
        #[arg(long, conflicts_with = "black")]
        white: bool,
        /// Play the black pieces
        #[arg(long)]
        black: bool,
        /// Start from this position (a FEN, in quotes; default: the initial position)
        #[arg(long, value_name = "FEN")]
        fen: Option<String>,
        /// Tarpon plays at this rating (800 to 2800), weaker than full strength (default: full strength)
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(i32).range(800..=2800), conflicts_with = "level")]
        elo: Option<i32>,
        /// Tarpon plays at this skill level (0 to 20; default: 20, full strength)
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(i32).range(0..=20))]
        level: Option<i32>,
        /// Clock for both sides: minutes+increment in seconds (5+3, 0.5+1, 10; default: no clock, Tarpon searches as the Search options say)
        #[arg(long, value_name = "MIN+INC", value_parser = tarpon::tools::play::parse_time_control, conflicts_with = "movetime")]
        tc: Option<tarpon::tools::play::TimeControl>,
        #[command(flatten)]
        search: SearchArgs,
        /// Keep the game as PGN in this file, written at the start and after every move (default: not saved)
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
        /// Draw the board with letters instead of chess figures
        #[arg(long)]
        ascii: bool,
        /// No colours (the NO_COLOR environment variable does the same)
        #[arg(long)]
        no_color: bool,
    },
    /// Play and analyse in the browser: a local web server with a board, backed by Tarpon
    #[command(
        display_order = 3,
        after_help = "Prints the address to open, e.g. http://127.0.0.1:8080/; Ctrl-C stops it.\n\
The page plays against Tarpon (clocks or time per move, strength levels), analyses positions\n\
and games, and saves games as PGN. Its JSON API is documented in docs/serve.md.\n\n\
Examples:\n  tarpon serve\n  tarpon serve --port 9000 --open\n  tarpon serve --port 0            (any free port)\n  \
tarpon serve --host 0.0.0.0     (reachable from the network: be careful)"
    )]
    Serve {
        /// The port to listen on (0: any free port, printed at start)
        #[arg(long, value_name = "N", default_value_t = 8080)]
        port: u16,
        /// The address to listen on; anything but a loopback address lets others reach it
        #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// Open the page in the system's browser
        #[arg(long)]
        open: bool,
    },
    /// Evaluate a position with its best line, or annotate every move of the games in a PGN file
    #[command(
        display_order = 2,
        visible_alias = "analyze",
        after_help = "A game's moves get an [%eval] comment, the best move where a worse one was played, and\n\
a mark by the expected score they give away: ?! from 0.05, ? from 0.10, ?? from 0.20\n\
(with a better line). Scores are for White. The game's comments, variations and NAGs stay:\n\
an [%eval] in a comment is replaced, [%clk] kept; where the author's !, ?, ?! ... differs\n\
from Tarpon's judgement it stays, and the comment says 'Tarpon: Blunder (...), not ! as\n\
annotated.'\n\
A game that cannot be read (an illegal move, a bad FEN tag) is named on standard error with\n\
its line and skipped, as is a variation with an unreadable move; the rest is annotated.\n\
Exit status: 0 done, 1 error, 2 bad arguments, 3 games or variations skipped.\n\n\
Examples:\n  tarpon analyse --fen 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3' --depth 14\n  \
tarpon analyse --pgn game.pgn --movetime 500 --output game-annotated.pgn\n  \
tarpon analyse --pgn games.pgn --depth 10 > annotated.pgn"
    )]
    Analyse {
        /// The position to analyse (a FEN, in quotes; default: the initial position)
        #[arg(long, value_name = "FEN", conflicts_with = "pgn")]
        fen: Option<String>,
        /// Annotate every move of the games in this PGN file (default: analyse the --fen position)
        #[arg(long, value_name = "FILE")]
        pgn: Option<PathBuf>,
        /// Where to write the annotated games (default: standard output)
        #[arg(long, short, value_name = "FILE", requires = "pgn")]
        output: Option<PathBuf>,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Run a test suite of EPD positions (bm, am, dm) and count the positions solved
    #[command(
        display_order = 4,
        after_help = "Each line: the four FEN fields, then operations such as bm Nf3; am Qxb7; dm 3; id \"name\";\n\
Moves in SAN or UCI notation. Prints the failures with Tarpon's move and score (for White,\n\
as analyse gives scores, whoever is to move), then 'Solved: <x>/<y> in <t> s'.\n\
--threads N searches N positions at a time (each its own single-threaded search).\n\
A line that cannot be read (a bad FEN, an illegal bm/am move) is named on standard error and\n\
skipped; the others run. Exit status: 0 done, 1 error, 2 bad arguments, 3 lines skipped.\n\n\
Examples:\n  tarpon epd wac.epd --movetime 1000\n  tarpon epd mates.epd --depth 8 --threads 2\n  \
tarpon epd suite.epd --nodes 100000"
    )]
    Epd {
        /// The suite, one position per line
        file: PathBuf,
        #[command(flatten)]
        search: SearchArgs,
        /// Positions searched at the same time
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
    },
}

/// How long Tarpon searches a position (`play`, `analyse`, `epd`): the first limit reached
/// ends the search; 1000 ms per move when none is given.
#[derive(Args)]
struct SearchArgs {
    /// Search depth in plies (default: no limit; 1000 ms a move when no limit is given)
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(i32).range(1..=200), help_heading = "Search")]
    depth: Option<i32>,
    /// Time per move in milliseconds (default: 1000 ms a move when no limit is given)
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..), help_heading = "Search")]
    movetime: Option<u64>,
    /// Nodes per move (default: no limit; 1000 ms a move when no limit is given)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), help_heading = "Search")]
    nodes: Option<u64>,
    /// Hash table in MB
    #[arg(long, value_name = "MB", default_value_t = tarpon::tools::engine::DEFAULT_HASH_MB as u32, value_parser = clap::value_parser!(u32).range(1..=65536), help_heading = "Search")]
    hash: u32,
    /// Syzygy tablebase directories, separated by ':' (';' on Windows; default: none)
    #[arg(long, value_name = "DIRS", help_heading = "Search")]
    syzygy: Option<String>,
}

impl SearchArgs {
    fn settings(self) -> tarpon::tools::engine::Settings {
        tarpon::tools::engine::Settings {
            depth: self.depth,
            movetime: self.movetime,
            nodes: self.nodes,
            hash_mb: self.hash as usize,
            syzygy: self.syzygy,
        }
    }
}

/// `analyse` and `epd`: exit status 0 when everything was done, `EXIT_SKIPPED` when
/// `skipped` games or positions could not be read (they are reported already) and the rest
/// was done, 1 after printing the error that stopped everything.
fn exit_status_skipping(result: Result<usize, String>) -> ExitCode {
    match result {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(tarpon::tools::EXIT_SKIPPED),
        Err(e) => exit_status::<()>(Err(e)),
    }
}

/// Exit status 0, or 1 after printing the error.
fn exit_status<T>(result: Result<T, String>) -> ExitCode {
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The defaults of `tarpon datagen`, kept in one place: the library's.
fn dg() -> tarpon::learn::datagen::Options {
    tarpon::learn::datagen::Options::default()
}

/// The defaults of `tarpon train`, kept in one place: the library's.
fn tr() -> tarpon::learn::train::Options {
    tarpon::learn::train::Options::default()
}

/// A FEN given as words on the command line (quoting is optional), or the start position.
fn fen_or_start(words: &[String]) -> String {
    if words.is_empty() {
        tarpon::chess::fen::START_FEN.to_string()
    } else {
        words.join(" ")
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            tarpon::uci::run();
            ExitCode::SUCCESS
        }
        Some(Command::Bench {
            depth,
            threads,
            hash,
        }) => {
            tarpon::tools::bench::run_with(depth, threads.into(), hash as usize, &mut |line| {
                tarpon::outln!("{line}")
            });
            ExitCode::SUCCESS
        }
        Some(Command::Book { file, fen }) => {
            let fen = fen_or_start(&fen);
            match tarpon::tools::book::list(&file, &fen) {
                Ok(listing) => {
                    for line in &listing.lines {
                        tarpon::outln!("{line}");
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
            let options = tarpon::learn::tune::Options {
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
            match tarpon::learn::tune::run(&options) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Train {
            files,
            validation,
            output,
            epochs,
            batch_size,
            lr,
            lr_drop,
            lambda,
            scale,
            hidden,
            output_buckets,
            threads,
            seed,
            checkpoint_dir,
            resume,
            init,
            max_score,
            max_positions,
            mirror,
            king_buckets,
            lr_schedule,
            factorise,
        }) => exit_status(tarpon::learn::train::run(&tarpon::learn::train::Options {
            files,
            validation,
            output,
            epochs,
            batch_size: batch_size as usize,
            lr,
            lr_drop,
            lambda,
            scale,
            hidden: hidden as usize,
            buckets: output_buckets.into(),
            threads: threads.into(),
            seed,
            checkpoint_dir,
            resume,
            init,
            max_score,
            max_positions,
            mirror,
            king_buckets,
            lr_schedule,
            factorise,
        })),
        Some(Command::Convert {
            inputs,
            output,
            check,
        }) => {
            let target = if check { None } else { output.as_deref() };
            exit_status(tarpon::learn::convert::run(&inputs, target))
        }
        Some(Command::Datagen {
            output,
            format,
            append,
            games,
            nodes,
            threads,
            hash,
            book,
            random_plies,
            opening_max_score,
            seed,
            nnue,
            win_score,
            win_plies,
            draw_score,
            draw_plies,
            draw_after,
            max_plies,
        }) => {
            let nnue = match nnue.as_deref().map(datagen_network).transpose() {
                Ok(nnue) => nnue,
                Err(message) => {
                    eprintln!("error: {message}");
                    return ExitCode::FAILURE;
                }
            };
            let seed = seed.unwrap_or_else(|| {
                let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
                now.map_or(0, |d| d.as_nanos() as u64)
            });
            let options = tarpon::learn::datagen::Options {
                output,
                format: format.map(DataFormat::into_datagen),
                append,
                games,
                nodes,
                threads: threads.into(),
                hash_mb: hash as usize,
                book,
                random_plies,
                opening_max_score,
                seed,
                adjudication: tarpon::learn::datagen::Adjudication {
                    win_score,
                    win_plies,
                    draw_score,
                    draw_plies,
                    draw_after,
                    max_plies,
                },
                progress: true,
                nnue,
            };
            datagen(&options)
        }
        Some(Command::Eval { fen }) => {
            let fen = fen_or_start(&fen);
            match tarpon::chess::fen::parse(&fen, false) {
                Ok(board) => {
                    let net = tarpon::eval::nnue::Net::embedded();
                    tarpon::stdout::text(tarpon::eval::nnue::eval_text(
                        &board,
                        &net,
                        tarpon::search::SearchOptions::default().nnue.is_some(),
                    ));
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
            let fen = fen_or_start(&fen);
            match tarpon::tools::perft::run(&fen, depth, chess960) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Play {
            white: _,
            black,
            fen,
            elo,
            level,
            tc,
            search,
            save,
            ascii,
            no_color,
        }) => {
            use tarpon::tools::play;
            let options = play::Options {
                human: if black {
                    tarpon::chess::Color::Black
                } else {
                    tarpon::chess::Color::White
                },
                fen,
                time_control: tc,
                search: search.settings(),
                strength: match (elo, level) {
                    (Some(elo), _) => Some(tarpon::search::skill::Skill::from_elo(elo)),
                    (None, Some(level)) => tarpon::search::skill::Skill::from_level(level),
                    (None, None) => None,
                },
                save,
                style: tarpon::tools::diagram::Style::detect(ascii, no_color),
            };
            exit_status(play::run_terminal(&options))
        }
        Some(Command::Serve { port, host, open }) => {
            exit_status(tarpon::tools::serve::run(&tarpon::tools::serve::Options {
                host,
                port,
                open,
            }))
        }
        Some(Command::Analyse {
            fen,
            pgn,
            output,
            search,
        }) => exit_status_skipping(tarpon::tools::analyse::run(
            &tarpon::tools::analyse::Options {
                fen,
                pgn,
                output,
                search: search.settings(),
            },
        )),
        Some(Command::Epd {
            file,
            search,
            threads,
        }) => exit_status_skipping(
            tarpon::tools::epd::run(&tarpon::tools::epd::Options {
                file,
                search: search.settings(),
                threads: threads.into(),
            })
            .map(|report| report.skipped.len()),
        ),
    }
}

/// The network `datagen --nnue` names: `embedded` (or `<embedded>`, as `EvalFile` says it)
/// for the one built into the binary, otherwise a network file.
fn datagen_network(name: &str) -> Result<Arc<Net>, String> {
    let path = if name == "embedded" {
        EMBEDDED_NAME
    } else {
        name
    };
    Net::named(path).map_err(|e| format!("cannot use network {name}: {e}"))
}

/// `tarpon datagen`: Ctrl-C or a termination signal stops the run cleanly (the summary
/// prints and the file keeps every finished game); exit status 130 then, 1 on an error.
fn datagen(options: &tarpon::learn::datagen::Options) -> ExitCode {
    let control = Arc::new(tarpon::search::SearchControl::default());
    let handler_control = Arc::clone(&control);
    if let Err(e) = ctrlc::set_handler(move || {
        if !handler_control.stop.swap(true, Ordering::Relaxed) {
            eprintln!(
                "\nInterrupted: dropping the games in progress; finished games stay in the file"
            );
        }
    }) {
        eprintln!("warning: cannot catch Ctrl-C ({e}): it will end the run at once");
    }
    tarpon::outln!(
        "datagen: {} games, {} nodes per move, {} thread(s), {} random plies, seed {}, evaluation {}, output {}",
        options.games,
        options.nodes,
        options.threads,
        options.random_plies,
        options.seed,
        options
            .nnue
            .as_ref()
            .map_or("hand-crafted", |net| net.name()),
        options.output.display()
    );
    match tarpon::learn::datagen::run(options, &control) {
        Ok(summary) => {
            tarpon::outln!("{summary}");
            if let Some(failure) = &summary.failure {
                eprintln!("error: {failure}");
                ExitCode::FAILURE
            } else if summary.interrupted {
                ExitCode::from(130)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `datagen --format`.
#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum DataFormat {
    /// Whole games, compact (src/learn/games.rs)
    Games,
    /// 32-byte position records (src/learn/bulletformat.rs)
    Bulletformat,
}

impl DataFormat {
    fn into_datagen(self) -> tarpon::learn::datagen::Format {
        match self {
            DataFormat::Games => tarpon::learn::datagen::Format::Games,
            DataFormat::Bulletformat => tarpon::learn::datagen::Format::Bulletformat,
        }
    }
}
