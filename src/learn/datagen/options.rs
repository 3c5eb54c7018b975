//! What a `datagen` run is asked for: [`Options`], and the command line that fills them
//! ([`DatagenArgs`]).

use crate::eval::nnue::Net;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Adjudication thresholds (see the module documentation). A `*_plies` of 0 turns that
/// adjudication off.
#[derive(Clone, Debug)]
pub struct Adjudication {
    pub win_score: i32,
    pub win_plies: u32,
    pub draw_score: i32,
    pub draw_plies: u32,
    pub draw_after: u32,
    pub max_plies: u32,
}

impl Default for Adjudication {
    fn default() -> Self {
        Adjudication {
            win_score: 1000,
            win_plies: 6,
            draw_score: 10,
            draw_plies: 12,
            draw_after: 80,
            max_plies: 400,
        }
    }
}

/// How the games are stored (`--format`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Whole games in a shard ([`crate::learn::games`]).
    #[value(help = "Whole games, compact (src/learn/games.rs)")]
    Games,
    /// The trainable positions as 32-byte records ([`crate::learn::bulletformat`]).
    #[value(help = "32-byte position records (src/learn/bulletformat.rs)")]
    Bulletformat,
}

impl Format {
    /// The format an output implies when none is named: a directory (a new shard goes in
    /// it) or a `.games` file holds games, anything else bulletformat records.
    pub fn implied_by(output: &Path) -> Format {
        if output.is_dir() || output.extension().is_some_and(|e| e == "games") {
            Format::Games
        } else {
            Format::Bulletformat
        }
    }
}

#[derive(Clone, Debug)]
pub struct Options {
    /// A file, or for game shards a directory in which the run makes a new shard.
    pub output: PathBuf,
    /// `None`: as the output implies (`Format::implied_by`).
    pub format: Option<Format>,
    /// Add to an existing bulletformat file instead of refusing to touch it.
    pub append: bool,
    pub games: u64,
    pub nodes: u64,
    pub threads: usize,
    /// Hash table size per thread, in MB.
    pub hash_mb: usize,
    pub book: Option<PathBuf>,
    pub random_plies: u32,
    /// The share of games, in percent, that start from a Chess960 position instead of the
    /// book or the start position (then the random plies, as for any game).
    pub chess960_percent: u32,
    /// Those Chess960 starts give each side its own back rank (double Chess960).
    pub double_chess960: bool,
    pub opening_max_score: i32,
    pub seed: u64,
    pub adjudication: Adjudication,
    /// Show progress on standard error.
    pub progress: bool,
    /// The network both sides evaluate with; `None` for the hand-crafted evaluation.
    pub nnue: Option<Arc<Net>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            output: PathBuf::new(),
            format: None,
            append: false,
            games: 1000,
            nodes: 5000,
            threads: 1,
            hash_mb: 16,
            book: None,
            random_plies: 8,
            chess960_percent: 0,
            double_chess960: true,
            opening_max_score: 500,
            seed: 0,
            adjudication: Adjudication::default(),
            progress: true,
            nnue: None,
        }
    }
}

/// `tarpon datagen`'s arguments; the defaults are [`Options::default`]'s.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  tarpon datagen --output $TARPON_DATA/games --nnue embedded --threads 2   # a new shard there\n  tarpon datagen --output run1.games --games 1000 --nodes 5000\n  tarpon datagen --output data.bin --book openings.epd --random-plies 2 --seed 7\n  tarpon datagen --output data.bin --append --seed 8\n  tarpon datagen --output $TARPON_DATA/games --nnue embedded --chess960 20   # a fifth of the games from double Chess960 starts\n\nCtrl-C stops early: the games in progress are dropped, every finished game is in the file."
)]
pub struct DatagenArgs {
    /// Output: a directory (a new game shard is made in it), a new .games shard, or a
    /// bulletformat file (new or empty, unless --append)
    #[arg(long, short, value_name = "PATH")]
    output: PathBuf,
    /// Storage format (default: games for a directory or a .games file, bulletformat otherwise)
    #[arg(long, value_name = "FORMAT", value_enum)]
    format: Option<Format>,
    /// Add to an existing bulletformat file (use another --seed, or the same games come again)
    #[arg(long)]
    append: bool,
    /// Number of games to play
    #[arg(long, value_name = "N", default_value_t = Options::default().games, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Nodes searched per move
    #[arg(long, value_name = "N", default_value_t = Options::default().nodes, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    nodes: u64,
    /// Threads, each playing its own games
    #[arg(long, value_name = "N", default_value_t = Options::default().threads as u16, value_parser = clap::value_parser!(u16).range(1..=512))]
    threads: u16,
    /// Hash table per thread, in MB
    #[arg(long, value_name = "MB", default_value_t = Options::default().hash_mb as u32, value_parser = clap::value_parser!(u32).range(1..=4096))]
    hash: u32,
    /// Start positions, one FEN or EPD per line (default: the standard start position)
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Random plies from the start position or book line: N or N+1, chosen at random (0: none)
    #[arg(long, value_name = "N", default_value_t = Options::default().random_plies, value_parser = clap::value_parser!(u32).range(0..=100))]
    random_plies: u32,
    /// Share of games, in percent, that start from a random Chess960 position instead of the
    /// book or the start position, each side's back rank drawn on its own (double Chess960)
    #[arg(long, value_name = "PERCENT", default_value_t = Options::default().chess960_percent, value_parser = clap::value_parser!(u32).range(0..=100))]
    chess960: u32,
    /// The Chess960 starts give both sides the same back rank, as in a Chess960 game
    #[arg(long, requires = "chess960")]
    chess960_mirrored: bool,
    /// Draw another opening when a search scores it beyond this (centipawns)
    #[arg(long, value_name = "CP", default_value_t = Options::default().opening_max_score, value_parser = clap::value_parser!(i32).range(0..=32000))]
    opening_max_score: i32,
    /// Seed of the random openings (default: from the clock; printed, to repeat a run)
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Evaluate with an NNUE network instead of the hand-crafted evaluation: 'embedded' for the one built into the binary, or a network file (default: the hand-crafted evaluation)
    #[arg(long, value_name = "NETWORK")]
    nnue: Option<String>,
    /// Adjudicate a win when the score is at least this (centipawns) ...
    #[arg(long, value_name = "CP", default_value_t = Adjudication::default().win_score, value_parser = clap::value_parser!(i32).range(1..=32000), help_heading = "Adjudication")]
    win_score: i32,
    /// ... for the same side for this many plies in a row (0: never)
    #[arg(long, value_name = "N", default_value_t = Adjudication::default().win_plies, value_parser = clap::value_parser!(u32).range(0..=1000), help_heading = "Adjudication")]
    win_plies: u32,
    /// Adjudicate a draw when the score stays within this of zero (centipawns) ...
    #[arg(long, value_name = "CP", default_value_t = Adjudication::default().draw_score, value_parser = clap::value_parser!(i32).range(0..=32000), help_heading = "Adjudication")]
    draw_score: i32,
    /// ... for this many plies in a row (0: never) ...
    #[arg(long, value_name = "N", default_value_t = Adjudication::default().draw_plies, value_parser = clap::value_parser!(u32).range(0..=1000), help_heading = "Adjudication")]
    draw_plies: u32,
    /// ... once the game is this many plies long
    #[arg(long, value_name = "N", default_value_t = Adjudication::default().draw_after, value_parser = clap::value_parser!(u32).range(0..=10000), help_heading = "Adjudication")]
    draw_after: u32,
    /// A game that reaches this many plies is a draw
    #[arg(long, value_name = "N", default_value_t = Adjudication::default().max_plies, value_parser = clap::value_parser!(u32).range(1..=10000), help_heading = "Adjudication")]
    max_plies: u32,
}

impl TryFrom<DatagenArgs> for Options {
    type Error = String;

    /// The options the arguments ask for: fails when the network `--nnue` names cannot be
    /// used. Without `--seed`, the seed comes from the clock.
    fn try_from(args: DatagenArgs) -> Result<Options, String> {
        let nnue = args.nnue.as_deref().map(named_network).transpose()?;
        let seed = args.seed.unwrap_or_else(|| {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            now.map_or(0, |d| d.as_nanos() as u64)
        });
        Ok(Options {
            output: args.output,
            format: args.format,
            append: args.append,
            games: args.games,
            nodes: args.nodes,
            threads: args.threads.into(),
            hash_mb: args.hash as usize,
            book: args.book,
            random_plies: args.random_plies,
            chess960_percent: args.chess960,
            double_chess960: !args.chess960_mirrored,
            opening_max_score: args.opening_max_score,
            seed,
            adjudication: Adjudication {
                win_score: args.win_score,
                win_plies: args.win_plies,
                draw_score: args.draw_score,
                draw_plies: args.draw_plies,
                draw_after: args.draw_after,
                max_plies: args.max_plies,
            },
            progress: true,
            nnue,
        })
    }
}

/// The network `datagen --nnue` names: `embedded` (or `<embedded>`, as `EvalFile` says it)
/// for the one built into the binary, otherwise a network file.
pub(super) fn named_network(name: &str) -> Result<Arc<Net>, String> {
    let path = if name == "embedded" {
        crate::eval::nnue::EMBEDDED_NAME
    } else {
        name
    };
    Net::named(path).map_err(|e| format!("cannot use network {name}: {e}"))
}
