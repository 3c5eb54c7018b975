//! `tarpon datagen`: self-play games that produce training data for the evaluation.
//!
//! Each thread plays whole games on its own (its own hash table and histories, cleared
//! before every game, as `ucinewgame` does) with a fixed number of nodes per move, and
//! hands each finished game to a shared writer, which appends it and flushes the file: the
//! file only ever holds whole games, so an interrupted run (Ctrl-C, or `kill`) keeps
//! everything written so far. Two formats (`Format`): whole games, compact, with every
//! searched position (a *shard*, [`super::games`]; the choice for a pipeline that never
//! stops), or the positions worth training on as bulletformat records
//! ([`super::bulletformat`], what other trainers read).
//!
//! # A game
//!
//! 1. **Opening.** From the start position, or from a random line of the `--book` file,
//!    or, for `chess960_percent` of the games, from a random Chess960 start (with
//!    `double_chess960`, each side's back rank drawn on its own), play `random_plies` or `random_plies + 1` random legal moves (chosen at random, so
//!    that either side can be the first to move in the real game; none when
//!    `random_plies` is 0). The opening is thrown away and another one drawn when the game
//!    is already over, or when a search of the position (same node limit) scores it beyond
//!    `opening_max_score` for either side: a game decided by its random moves teaches
//!    little. Without random plies the games differ only by their start positions, so a
//!    run with neither random plies nor a book of several positions is refused.
//! 2. **Play.** Both sides search `nodes` nodes per move (`go nodes`: the search stops as
//!    soon as it has searched that many, once depth 1 is complete) and play the best move.
//!    They evaluate with the hand-crafted evaluation, or with the network `nnue` names
//!    (`--nnue`): the scores written are that evaluation's (a network's on its own scale,
//!    without the search's scaling by material).
//! 3. **End.** By the rules (checkmate, stalemate, threefold repetition, fifty-move rule,
//!    insufficient material); or by adjudication: a win when the score is at least
//!    `win_score` for the same side for `win_plies` plies in a row (both sides' searches
//!    agreeing), a draw when after `draw_after` plies the score stays within
//!    `draw_score` of zero for `draw_plies` plies in a row; or a draw when the game reaches
//!    `max_plies` plies. Plies are counted from the start of the game, random plies
//!    included.
//!
//! # What is written
//!
//! A shard keeps the game: the position after the random opening, and every searched
//! ply's move and score, with the result; the trainer picks the positions when it reads
//! them. As bulletformat records, the positions are picked now, by the same rule
//! ([`super::games::trainable`]): every searched position of the game (not the random
//! opening moves) except
//! - positions where the side to move is in check,
//! - positions whose best move is a capture, en-passant capture or promotion (their score
//!   depends on the exchange in progress, not on the position's quiet features),
//! - positions with a mate score,
//!
//! each with its search score and the game's result, both for the side to move.
//!
//! # Reproducibility
//!
//! Game number `i` draws its opening from a generator seeded by `seed` and `i`, and the
//! search is node-limited and starts every game from empty tables, so a game depends only
//! on the seed, its number and the options. With one thread the output is the same, byte
//! for byte, on every run; with more, the same games are written in another order.

use super::bulletformat::{self, GameResult};
use super::games::{self, ShardWriter};
use crate::chess::movegen::legal_moves;
use crate::chess::{Board, Color, Move, Outcome, Position, chess960, fen};
use crate::eval::nnue::Net;
use crate::rng::SplitMix64;
use crate::search::history::Histories;
use crate::search::timeman::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{SearchControl, SearchOptions, think};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How many openings a game may draw before giving up (a book of decided positions).
const MAX_OPENING_TRIES: u32 = 1000;

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
    /// Whole games in a shard ([`super::games`]).
    #[value(help = "Whole games, compact (src/learn/games.rs)")]
    Games,
    /// The trainable positions as 32-byte records ([`super::bulletformat`]).
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

impl DatagenArgs {
    /// `tarpon datagen`: Ctrl-C or a termination signal stops the run cleanly (the summary
    /// prints and the file keeps every finished game); exit status 130 then, 1 on an error.
    pub fn run(self) -> std::process::ExitCode {
        match Options::try_from(self) {
            Ok(options) => run_until_interrupted(&options),
            Err(e) => crate::tools::exit_status::<()>(Err(e)),
        }
    }
}

/// The network `datagen --nnue` names: `embedded` (or `<embedded>`, as `EvalFile` says it)
/// for the one built into the binary, otherwise a network file.
fn named_network(name: &str) -> Result<Arc<Net>, String> {
    let path = if name == "embedded" {
        crate::eval::nnue::EMBEDDED_NAME
    } else {
        name
    };
    Net::named(path).map_err(|e| format!("cannot use network {name}: {e}"))
}

/// [`run`] with a Ctrl-C (and termination signal) handler that stops it cleanly, the
/// options printed first and the summary after.
fn run_until_interrupted(options: &Options) -> std::process::ExitCode {
    use std::process::ExitCode;
    let control = Arc::new(SearchControl::default());
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
    crate::outln!(
        "datagen: {} games, {} nodes per move, {} thread(s), {} random plies{}, seed {}, evaluation {}, output {}",
        options.games,
        options.nodes,
        options.threads,
        options.random_plies,
        match (options.chess960_percent, options.double_chess960) {
            (0, _) => String::new(),
            (p, true) => format!(", {p}% double Chess960 starts"),
            (p, false) => format!(", {p}% Chess960 starts"),
        },
        options.seed,
        options
            .nnue
            .as_ref()
            .map_or("hand-crafted", |net| net.name()),
        options.output.display()
    );
    match run(options, &control) {
        Ok(summary) => {
            crate::outln!("{summary}");
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

/// Why a run could not start, or stopped.
#[derive(Debug)]
pub enum DatagenError {
    Book {
        path: PathBuf,
        error: io::Error,
    },
    BookLine {
        path: PathBuf,
        line: usize,
        message: String,
    },
    BookEmpty {
        path: PathBuf,
    },
    OutputExists {
        path: PathBuf,
        bytes: u64,
    },
    OutputPartial {
        path: PathBuf,
        bytes: u64,
    },
    Output {
        path: PathBuf,
        error: io::Error,
    },
    Write {
        path: PathBuf,
        error: io::Error,
    },
    NoOpening {
        tries: u32,
    },
    /// `--append` with game shards, which are never appended to.
    AppendGames,
    /// No random plies and a single start position: every game would be the same.
    SameGames,
    /// A Chess960 share beyond 100 %.
    Chess960Percent(u32),
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        use DatagenError::*;
        match self {
            Book { path, error } => write!(f, "cannot read book {}: {error}", path.display()),
            BookLine {
                path,
                line,
                message,
            } => write!(f, "book {} line {line}: {message}", path.display()),
            BookEmpty { path } => write!(
                f,
                "book {} has no usable position (one FEN or EPD per line)",
                path.display()
            ),
            OutputExists { path, bytes } => write!(
                f,
                "output {} already exists ({bytes} bytes); remove it, choose another file, \
                 or pass --append (with another --seed, or the same games come again)",
                path.display()
            ),
            OutputPartial { path, bytes } => write!(
                f,
                "output {} is {bytes} bytes, not a whole number of {}-byte records: \
                 not a datagen file, or damaged; will not append to it",
                path.display(),
                bulletformat::RECORD_SIZE
            ),
            Output { path, error } => write!(f, "cannot write {}: {error}", path.display()),
            Write { path, error } => write!(f, "writing {} failed: {error}", path.display()),
            SameGames => write!(
                f,
                "with --random-plies 0 and a single start position every game is the same \
                 (the search is deterministic): use random plies or a --book of several positions"
            ),
            Chess960Percent(percent) => write!(
                f,
                "--chess960 {percent}: the share of Chess960 starts is a percentage, 0 to 100"
            ),
            AppendGames => write!(
                f,
                "game shards are never appended to (a damaged end would sit in the middle): \
                 each run writes a new shard; give a directory as --output to get one there"
            ),
            NoOpening { tries } => write!(
                f,
                "no playable opening in {tries} tries: every one was over or scored beyond \
                 --opening-max-score (check the book, --random-plies, --opening-max-score)"
            ),
        }
    }
}

impl std::error::Error for DatagenError {}

/// How a game ended.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum End {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    AdjudicatedWin,
    AdjudicatedDraw,
    MaxLength,
}

impl End {
    pub const ALL: [End; 8] = [
        End::Checkmate,
        End::Stalemate,
        End::Repetition,
        End::FiftyMoves,
        End::InsufficientMaterial,
        End::AdjudicatedWin,
        End::AdjudicatedDraw,
        End::MaxLength,
    ];

    fn name(self) -> &'static str {
        match self {
            End::Checkmate => "checkmate",
            End::Stalemate => "stalemate",
            End::Repetition => "repetition",
            End::FiftyMoves => "fifty moves",
            End::InsufficientMaterial => "insufficient material",
            End::AdjudicatedWin => "adjudicated win",
            End::AdjudicatedDraw => "adjudicated draw",
            End::MaxLength => "length limit",
        }
    }
}

/// Counts over the games written so far.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub games: u64,
    pub positions: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    /// Plies of all games, random opening plies included.
    pub plies: u64,
    /// Games by the way they ended, in the order of `End::ALL`.
    pub ends: [u64; 8],
    /// Openings drawn and thrown away (game over, or decided by the random moves).
    pub openings_rejected: u64,
}

impl Stats {
    fn add(&mut self, game: &Game, positions: usize) {
        self.games += 1;
        self.positions += positions as u64;
        match game.record.result {
            GameResult::WhiteWin => self.white_wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::BlackWin => self.black_wins += 1,
        }
        self.plies += u64::from(game.plies);
        let end = End::ALL
            .iter()
            .position(|&e| e == game.end)
            .expect("listed");
        self.ends[end] += 1;
        self.openings_rejected += u64::from(game.openings_rejected);
    }
}

/// What a run did.
#[derive(Debug)]
pub struct Summary {
    pub stats: Stats,
    pub elapsed: Duration,
    /// Stopped by the user (Ctrl-C or a termination signal) before all games were played.
    pub interrupted: bool,
    /// The error that stopped the run early (writing failed, no opening could be found).
    pub failure: Option<DatagenError>,
    pub output: PathBuf,
    /// The size of the output file at the end.
    pub file_bytes: u64,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let s = &self.stats;
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        if self.interrupted {
            writeln!(
                f,
                "Interrupted: the games in progress were abandoned; every game counted below is in the file."
            )?;
        }
        if let Some(failure) = &self.failure {
            writeln!(f, "Stopped early: {failure}")?;
        }
        writeln!(
            f,
            "Games: {} (White wins {}, draws {}, Black wins {})",
            s.games, s.white_wins, s.draws, s.black_wins
        )?;
        let ends: Vec<String> = End::ALL
            .iter()
            .zip(s.ends)
            .filter(|&(_, n)| n > 0)
            .map(|(e, n)| format!("{n} {}", e.name()))
            .collect();
        writeln!(f, "Endings: {}", ends.join(", "))?;
        writeln!(
            f,
            "Openings rejected: {} (game over or decided after the random moves)",
            s.openings_rejected
        )?;
        writeln!(
            f,
            "Positions written: {} ({:.1} per game) to {} (now {} bytes)",
            s.positions,
            s.positions as f64 / s.games.max(1) as f64,
            self.output.display(),
            self.file_bytes
        )?;
        writeln!(
            f,
            "Average game length: {:.1} plies",
            s.plies as f64 / s.games.max(1) as f64
        )?;
        write!(
            f,
            "Time: {:.1} s, {:.0} positions/s, {:.2} games/s",
            secs,
            s.positions as f64 / secs,
            s.games as f64 / secs
        )
    }
}

/// A finished game.
struct Game {
    /// The game as stored: the position after the opening, every searched ply's move and
    /// score, the result.
    record: games::Game,
    end: End,
    plies: u32,
    openings_rejected: u32,
}

/// The generator of game number `game` of a run seeded with `seed`: each game has its own,
/// so a run repeats game for game whatever the number of threads.
pub fn game_rng(seed: u64, game: u64) -> SplitMix64 {
    let base = SplitMix64::new(seed).next_u64();
    let mut rng = SplitMix64::new(base ^ game.wrapping_mul(0xD1B5_4A32_D192_ED03));
    rng.next_u64();
    rng
}

/// Reads the start positions of a book: one FEN or EPD per line (the first four fields,
/// and the two clocks if they follow; EPD operations after them are ignored). Empty lines
/// and lines starting with `#` are skipped, and so are positions that cannot start a game
/// (no legal move) or do not fit a record (more than 32 pieces).
pub fn read_book(path: &PathBuf) -> Result<Vec<Board>, DatagenError> {
    let text = std::fs::read_to_string(path).map_err(|error| DatagenError::Book {
        path: path.clone(),
        error,
    })?;
    let mut boards = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let mut fields: Vec<&str> = tokens.iter().take(4).copied().collect();
        fields.extend(
            tokens
                .iter()
                .skip(4)
                .take(2)
                .take_while(|t| t.parse::<u16>().is_ok()),
        );
        let board = fen::parse(&fields.join(" "), false).map_err(|e| DatagenError::BookLine {
            path: path.clone(),
            line: i + 1,
            message: e.to_string(),
        })?;
        if board.occupied().count() <= 32 && !legal_moves(&board).is_empty() {
            boards.push(board);
        }
    }
    if boards.is_empty() {
        return Err(DatagenError::BookEmpty { path: path.clone() });
    }
    Ok(boards)
}

/// Where the games go.
enum Writer {
    Records(BufWriter<File>),
    Games(ShardWriter),
}

/// The output file with the counts of what it holds.
struct Output {
    writer: Writer,
    path: PathBuf,
    stats: Stats,
}

/// What the threads share.
struct Shared<'a> {
    options: &'a Options,
    book: Option<Vec<Board>>,
    /// The next game number to play.
    next_game: AtomicU64,
    output: Mutex<Output>,
    /// Stops every search and game: set by the user's interrupt or by an error.
    control: &'a SearchControl,
    error: Mutex<Option<DatagenError>>,
}

/// A new shard's name in `dir`: `tarpon-s<seed>.games`, or with `-2`, `-3`, ... when a
/// shard of that seed is already there.
fn new_shard_path(dir: &Path, seed: u64) -> PathBuf {
    let mut path = dir.join(format!("tarpon-s{seed}.games"));
    let mut n = 1;
    while path.exists() {
        n += 1;
        path = dir.join(format!("tarpon-s{seed}-{n}.games"));
    }
    path
}

/// Opens the output as the options ask, with the path written to.
fn open_output(options: &Options) -> Result<(Writer, PathBuf), DatagenError> {
    let format = options
        .format
        .unwrap_or_else(|| Format::implied_by(&options.output));
    if format == Format::Bulletformat {
        return open_records(options)
            .map(|f| (Writer::Records(BufWriter::new(f)), options.output.clone()));
    }
    if options.append {
        return Err(DatagenError::AppendGames);
    }
    let path = if options.output.is_dir() {
        new_shard_path(&options.output, options.seed)
    } else {
        options.output.clone()
    };
    if let Some(meta) = std::fs::metadata(&path).ok().filter(|m| m.is_file()) {
        return Err(DatagenError::OutputExists {
            path,
            bytes: meta.len(),
        });
    }
    match ShardWriter::create(&path) {
        Ok(writer) => Ok((Writer::Games(writer), path)),
        Err(error) => Err(DatagenError::Output { path, error }),
    }
}

/// Opens a bulletformat output: a new (or empty) file, or an existing one to append to.
fn open_records(options: &Options) -> Result<File, DatagenError> {
    let path = &options.output;
    let existing = std::fs::metadata(path).ok().filter(|m| m.is_file());
    if let Some(meta) = existing {
        let bytes = meta.len();
        if bytes > 0 && !options.append {
            return Err(DatagenError::OutputExists {
                path: path.clone(),
                bytes,
            });
        }
        if bytes % bulletformat::RECORD_SIZE as u64 != 0 {
            return Err(DatagenError::OutputPartial {
                path: path.clone(),
                bytes,
            });
        }
    }
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|error| DatagenError::Output {
            path: path.clone(),
            error,
        })
}

/// Plays `options.games` games and writes their positions. `control.stop` interrupts the
/// run (set it from a signal handler): the games in progress are abandoned and the summary
/// covers the games written. Fails before playing when the book or the output is unusable;
/// an error during the run (writing failed) stops it, and the summary says why.
pub fn run(options: &Options, control: &SearchControl) -> Result<Summary, DatagenError> {
    let book = options.book.as_ref().map(read_book).transpose()?;
    let start_positions = book.as_ref().map_or(1, Vec::len);
    if options.chess960_percent > 100 {
        return Err(DatagenError::Chess960Percent(options.chess960_percent));
    }
    if options.random_plies == 0
        && start_positions == 1
        && options.chess960_percent == 0
        && options.games > 1
    {
        return Err(DatagenError::SameGames);
    }
    let (writer, path) = open_output(options)?;
    let start = Instant::now();
    let shared = Shared {
        options,
        book,
        next_game: AtomicU64::new(0),
        output: Mutex::new(Output {
            writer,
            path: path.clone(),
            stats: Stats::default(),
        }),
        control,
        error: Mutex::new(None),
    };

    let show = options.progress;
    let terminal = io::stderr().is_terminal();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..options.threads.max(1))
            .map(|_| scope.spawn(|| worker(&shared)))
            .collect();
        let mut last = Instant::now();
        let every = if terminal {
            Duration::from_millis(250)
        } else {
            Duration::from_secs(15)
        };
        while !workers.iter().all(|w| w.is_finished()) {
            std::thread::sleep(Duration::from_millis(50));
            if show && last.elapsed() >= every {
                last = Instant::now();
                let stats = shared.output.lock().expect("no panic").stats.clone();
                print_progress(&stats, options.games, start.elapsed(), terminal, false);
            }
        }
        for w in workers {
            if let Err(panic) = w.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
    let elapsed = start.elapsed();
    let output = shared.output.into_inner().expect("no panic");
    if show {
        print_progress(&output.stats, options.games, elapsed, terminal, true);
    }
    let failure = shared.error.into_inner().expect("no panic");
    let file_bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
    Ok(Summary {
        interrupted: failure.is_none() && output.stats.games < options.games,
        failure,
        stats: output.stats,
        elapsed,
        output: path,
        file_bytes,
    })
}

/// One progress line on standard error: redrawn in place on a terminal, a new line every
/// few seconds otherwise (a log).
fn print_progress(stats: &Stats, games: u64, elapsed: Duration, terminal: bool, last: bool) {
    const WIDTH: usize = 24;
    let secs = elapsed.as_secs_f64().max(1e-9);
    let done = stats.games.min(games);
    let filled = (done as usize * WIDTH) / games.max(1) as usize;
    let eta = if done > 0 && done < games {
        let left = secs / done as f64 * (games - done) as f64;
        format!("  ETA {}", duration_text(left))
    } else {
        String::new()
    };
    let line = format!(
        "[{}{}] {done}/{games} games  {} positions  {:.0} pos/s  {:.2} games/s  +{} ={} -{}  {}{eta}",
        "#".repeat(filled),
        "-".repeat(WIDTH - filled),
        stats.positions,
        stats.positions as f64 / secs,
        stats.games as f64 / secs,
        stats.white_wins,
        stats.draws,
        stats.black_wins,
        duration_text(secs),
    );
    let mut err = io::stderr().lock();
    let _ = if terminal {
        write!(err, "\r{line}\x1b[K{}", if last { "\n" } else { "" })
    } else {
        writeln!(err, "{line}")
    };
    let _ = err.flush();
}

fn duration_text(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s / 60 % 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// One thread: plays games until there are none left to play, or the run is stopped.
fn worker(shared: &Shared) {
    let options = shared.options;
    let tt = TranspositionTable::new(options.hash_mb);
    let mut histories = Histories::new();
    let stop = || shared.control.stop.load(Ordering::Relaxed);
    while !stop() {
        let number = shared.next_game.fetch_add(1, Ordering::Relaxed);
        if number >= options.games {
            break;
        }
        let mut rng = game_rng(options.seed, number);
        match play_game(shared, &mut rng, &tt, &mut histories) {
            Ok(Some(game)) => {
                if let Err(error) = write_game(shared, &game) {
                    fail(shared, error);
                }
            }
            Ok(None) => break,
            Err(error) => fail(shared, error),
        }
    }
}

/// Records the first error and stops every thread.
fn fail(shared: &Shared, error: DatagenError) {
    shared.error.lock().expect("no panic").get_or_insert(error);
    shared.control.stop.store(true, Ordering::Relaxed);
}

/// Appends a game (as a whole game, or as its trainable positions) and flushes it, so the
/// file holds whole games only.
fn write_game(shared: &Shared, game: &Game) -> Result<(), DatagenError> {
    let mut output = shared.output.lock().expect("no panic");
    let (written, positions) = match &mut output.writer {
        Writer::Games(shard) => (shard.write(&game.record), game.record.plies.len()),
        Writer::Records(file) => {
            let positions = game.record.training_positions();
            let mut bytes = Vec::with_capacity(positions.len() * bulletformat::RECORD_SIZE);
            for (i, (board, score)) in positions.iter().enumerate() {
                let record = bulletformat::pack(board, *score, game.record.result, i == 0)
                    .expect("positions of a game have at most 32 pieces");
                bytes.extend_from_slice(&record);
            }
            let written = file.write_all(&bytes).and_then(|()| file.flush());
            (written, positions.len())
        }
    };
    written.map_err(|error| DatagenError::Write {
        path: output.path.clone(),
        error,
    })?;
    output.stats.add(game, positions);
    Ok(())
}

/// A quiet search of the run's `nodes` nodes, no output.
fn search(
    shared: &Shared,
    pos: &Position,
    tt: &TranspositionTable,
    histories: &mut Histories,
) -> (Move, i32) {
    let options = shared.options;
    quiet_search(
        pos,
        options.nodes,
        &options.nnue,
        tt,
        histories,
        shared.control,
    )
}

/// A search of `nodes` nodes with the evaluation `nnue` (`None`: the hand-crafted one),
/// no output: its move and score, the score on the network's own scale.
fn quiet_search(
    pos: &Position,
    nodes: u64,
    nnue: &Option<Arc<Net>>,
    tt: &TranspositionTable,
    histories: &mut Histories,
    control: &SearchControl,
) -> (Move, i32) {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    // The evaluation the options name, not the engine's default: a run must not change
    // with the network embedded in the binary unless it asks for that network.
    let options = SearchOptions {
        report: None,
        nnue: nnue.clone(),
        ..SearchOptions::default()
    };
    let result = think(pos, limits, &[], options, tt, histories, control);
    // The network learns its own scale: the search's material scaling is undone, so that
    // it is not learned and then applied a second time.
    let score = if nnue.is_some() {
        crate::search::network_scale(result.score, pos.board())
    } else {
        result.score
    };
    (result.best, score)
}

/// How openings are drawn: the part of a run's options that `datagen` and `genfens`
/// share, so that both make their openings the same way.
pub struct OpeningRules<'a> {
    /// The positions to start from (`None`: the start position).
    pub book: Option<&'a [Board]>,
    pub random_plies: u32,
    pub chess960_percent: u32,
    pub double_chess960: bool,
    /// An opening a search of `nodes` nodes scores beyond this (centipawns) is drawn again.
    pub opening_max_score: i32,
    pub nodes: u64,
    pub nnue: Option<Arc<Net>>,
}

/// Draws openings until one is playable and undecided. `None` when the run was stopped.
fn opening(
    shared: &Shared,
    rng: &mut SplitMix64,
    tt: &TranspositionTable,
    histories: &mut Histories,
    rejected: &mut u32,
) -> Result<Option<Position>, DatagenError> {
    let options = shared.options;
    let rules = OpeningRules {
        book: shared.book.as_deref(),
        random_plies: options.random_plies,
        chess960_percent: options.chess960_percent,
        double_chess960: options.double_chess960,
        opening_max_score: options.opening_max_score,
        nodes: options.nodes,
        nnue: options.nnue.clone(),
    };
    draw_opening(&rules, rng, tt, histories, shared.control, rejected)
}

/// Draws openings by `rules` until one is playable and undecided: the start (a Chess960
/// position for the asked share, else a book position or the start position), then N or
/// N+1 random plies, kept when the game is not over and a short search does not score it
/// beyond the limit; `rejected` counts the others. `None` when `control` stopped it.
pub fn draw_opening(
    rules: &OpeningRules,
    rng: &mut SplitMix64,
    tt: &TranspositionTable,
    histories: &mut Histories,
    control: &SearchControl,
    rejected: &mut u32,
) -> Result<Option<Position>, DatagenError> {
    for _ in 0..MAX_OPENING_TRIES {
        // (No draw from the generator unless Chess960 starts are asked for, so that the
        // games of a run without them stay the same as before they existed.)
        let chess960 =
            rules.chess960_percent > 0 && rng.below(100) < u64::from(rules.chess960_percent);
        let mut pos = if chess960 {
            let white = rng.below(u64::from(chess960::POSITIONS)) as u16;
            let black = if rules.double_chess960 {
                rng.below(u64::from(chess960::POSITIONS)) as u16
            } else {
                white
            };
            Position::from_board(chess960::start_position(white, black))
        } else {
            match rules.book {
                Some(book) => Position::from_board(book[rng.below(book.len() as u64) as usize]),
                None => Position::startpos(),
            }
        };
        let plies = match rules.random_plies {
            0 => 0,
            n => n + rng.below(2) as u32,
        };
        let mut playable = true;
        for _ in 0..plies {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                playable = false;
                break;
            }
            pos.make(moves[rng.below(moves.len() as u64) as usize]);
        }
        if playable && pos.outcome().is_none() {
            let (_, score) = quiet_search(&pos, rules.nodes, &rules.nnue, tt, histories, control);
            if control.stop.load(Ordering::Relaxed) {
                return Ok(None);
            }
            if score.abs() <= rules.opening_max_score {
                return Ok(Some(pos));
            }
        }
        *rejected += 1;
    }
    Err(DatagenError::NoOpening {
        tries: MAX_OPENING_TRIES,
    })
}

/// Plays one game. `None` when the run was stopped during the game.
fn play_game(
    shared: &Shared,
    rng: &mut SplitMix64,
    tt: &TranspositionTable,
    histories: &mut Histories,
) -> Result<Option<Game>, DatagenError> {
    let adj = &shared.options.adjudication;
    tt.clear();
    histories.clear();
    let mut openings_rejected = 0;
    let Some(mut pos) = opening(shared, rng, tt, histories, &mut openings_rejected)? else {
        return Ok(None);
    };

    let start = *pos.board();
    let mut searched = Vec::new();
    // Consecutive plies with a winning score for the same side (its sign, for White),
    // and with a drawish score.
    let (mut win_streak, mut win_side, mut draw_streak) = (0, 0, 0);
    let (result, end) = loop {
        if let Some(outcome) = pos.outcome() {
            break match outcome {
                Outcome::Checkmate {
                    winner: Color::White,
                } => (GameResult::WhiteWin, End::Checkmate),
                Outcome::Checkmate {
                    winner: Color::Black,
                } => (GameResult::BlackWin, End::Checkmate),
                Outcome::Stalemate => (GameResult::Draw, End::Stalemate),
                Outcome::ThreefoldRepetition => (GameResult::Draw, End::Repetition),
                Outcome::FiftyMoveRule => (GameResult::Draw, End::FiftyMoves),
                Outcome::InsufficientMaterial => (GameResult::Draw, End::InsufficientMaterial),
            };
        }
        let plies = pos.plies_played() as u32;
        if plies >= adj.max_plies {
            break (GameResult::Draw, End::MaxLength);
        }

        let (best, score) = search(shared, &pos, tt, histories);
        if shared.control.stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        // Scores, mates included, lie within i16.
        searched.push((
            best,
            score.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
        ));

        let white_score = match pos.side_to_move() {
            Color::White => score,
            Color::Black => -score,
        };
        if score.abs() >= adj.win_score {
            let side = white_score.signum();
            win_streak = if side == win_side { win_streak + 1 } else { 1 };
            win_side = side;
        } else {
            win_streak = 0;
        }
        if adj.win_plies > 0 && win_streak >= adj.win_plies {
            let result = if win_side > 0 {
                GameResult::WhiteWin
            } else {
                GameResult::BlackWin
            };
            break (result, End::AdjudicatedWin);
        }
        if plies >= adj.draw_after && score.abs() <= adj.draw_score {
            draw_streak += 1;
        } else {
            draw_streak = 0;
        }
        if adj.draw_plies > 0 && draw_streak >= adj.draw_plies {
            break (GameResult::Draw, End::AdjudicatedDraw);
        }
        pos.make(best);
    };
    Ok(Some(Game {
        record: games::Game {
            start,
            result,
            plies: searched,
        },
        end,
        plies: pos.plies_played() as u32,
        openings_rejected,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::movepick::is_noisy;

    #[test]
    fn game_generators_differ_by_seed_and_number() {
        let first = |seed, game| game_rng(seed, game).next_u64();
        assert_eq!(first(1, 0), first(1, 0));
        assert_ne!(first(1, 0), first(1, 1));
        assert_ne!(first(1, 0), first(2, 0));
        assert_ne!(first(0, 1), first(1, 0));
    }

    #[test]
    fn noisy_best_moves_checks_and_mates_are_not_trainable() {
        let board = fen::parse("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", false).unwrap();
        let moves = legal_moves(&board);
        let capture = *moves
            .iter()
            .find(|m| board.piece_on(m.to()).is_some())
            .unwrap();
        let quiet = *moves.iter().find(|m| !is_noisy(&board, **m)).unwrap();
        let usable = games::trainable;
        assert!(usable(&board, quiet, 30));
        assert!(!usable(&board, capture, 30));
        assert!(!usable(
            &board,
            quiet,
            crate::search::score::mate_in(5) as i16
        ));
        let check = fen::parse("4k3/8/8/8/8/8/8/4K2r w - - 0 1", false).unwrap();
        let evasion = legal_moves(&check)[0];
        assert!(!usable(&check, evasion, 0));
    }

    #[test]
    fn book_reads_fen_and_epd_and_reports_bad_lines() {
        let dir = std::env::temp_dir().join(format!("tarpon-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.epd");
        std::fs::write(
            &path,
            "# openings\n\
             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"e4\";\n\
             \n\
             r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 20\n\
             7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\n",
        )
        .unwrap();
        let book = read_book(&path).unwrap();
        // The checkmate on the last line cannot start a game.
        assert_eq!(book.len(), 2);
        assert_eq!(book[1].halfmove_clock(), 4);

        std::fs::write(
            &path,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq -\n",
        )
        .unwrap();
        let error = read_book(&path).unwrap_err().to_string();
        assert!(
            error.contains("line 1") && error.contains("side to move"),
            "{error}"
        );
        std::fs::write(&path, "# nothing\n").unwrap();
        assert!(matches!(
            read_book(&path),
            Err(DatagenError::BookEmpty { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(matches!(read_book(&path), Err(DatagenError::Book { .. })));
    }
}
