//! `tarpon datagen`: self-play games that produce training data for the evaluation.
//!
//! Each thread plays whole games on its own (its own hash table and histories, cleared
//! before every game, as `ucinewgame` does) with a fixed number of nodes per move, and
//! hands each finished game to a shared writer, which appends it and flushes the file: the
//! file only ever holds whole games, so an interrupted run (Ctrl-C, or `kill`) keeps
//! everything written so far. Two formats (`Format`): whole games, compact, with every
//! searched position (a *shard*, [`crate::learn::games`]; the choice for a pipeline that never
//! stops), or the positions worth training on as bulletformat records
//! ([`crate::learn::bulletformat`], what other trainers read).
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
//! ([`crate::learn::games::trainable`]): every searched position of the game (not the random
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
//!
//! # Where things are
//!
//! - `options.rs`: what a run is asked for (`Options`, and `DatagenArgs`, the command line);
//! - `mod.rs` (this file): the run itself ([`run`]: the threads, each playing games until
//!   none are left);
//! - `play.rs`: one game, from its opening to its end (the three steps above);
//! - `output.rs`: the file the games go to;
//! - `report.rs`: the counts, the progress line and the summary;
//! - `error.rs`: why a run could not start, or stopped.

mod error;
mod options;
mod output;
mod play;
mod report;

pub use error::DatagenError;
pub use options::{Adjudication, DatagenArgs, Format, Options};
pub use play::{OpeningRules, draw_opening, game_rng, read_book};
pub use report::{End, Stats, Summary};

use crate::chess::Board;
use crate::search::SearchControl;
use crate::search::history::Histories;
use crate::search::tt::TranspositionTable;
use output::{Output, open_output, write_game};
use play::play_game;
use report::print_progress;
use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
                if let Err(error) = write_game(&shared.output, &game) {
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
