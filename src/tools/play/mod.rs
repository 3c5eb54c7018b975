//! `tarpon play`: a game against Tarpon in the terminal.
//!
//! The person types moves in SAN or UCI notation, or commands (`help` lists them). The
//! game ends as the rules say (checkmate, stalemate, threefold repetition, the fifty-move
//! rule, insufficient material; repetition and fifty moves are claimed at once), by
//! resignation, or on time with `--tc`. Input is read line by line, so a script can play
//! through a pipe; the transcript then shows each line read after its prompt.
//!
//! The parts, in the order a game uses them: this file reads the arguments and starts the
//! game; `session.rs` runs it (the loop of moves and commands); `opponent.rs` is Tarpon's
//! side; `clock.rs` keeps both clocks; `ending.rs` says how a game ended; `record.rs`
//! writes it as PGN; `text.rs` lays words out for the terminal. `tarpon serve` shares the
//! clock, the endings and the record.

mod clock;
mod ending;
mod opponent;
mod record;
mod session;
mod text;

pub(crate) use clock::Clock;
pub use clock::{TimeControl, parse_time_control};
pub(crate) use ending::{Ending, name};
pub use opponent::Opponent;
pub(crate) use opponent::move_limits;
pub(crate) use record::{record_moves_and_ending, tag_casual_game};

use super::diagram::Style;
use super::engine::{self, Settings};
use crate::chess::Color;
use crate::search::skill::Skill;
use session::{Input, read_lines_behind, run_with};
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;

/// What `tarpon play` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    /// The person's colour.
    pub human: Color,
    /// Start position; the initial position without one.
    pub fen: Option<String>,
    pub time_control: Option<TimeControl>,
    /// How Tarpon searches (without a clock: its time, depth or nodes per move).
    pub search: Settings,
    /// Tarpon's strength limit (`--elo`, `--level`); `None` for full strength.
    pub strength: Option<Skill>,
    /// Where to keep the game as PGN: written at the start and rewritten after every
    /// move, so that it always holds the game so far.
    pub save: Option<PathBuf>,
    pub style: Style,
}

/// `tarpon play`'s arguments.
#[derive(clap::Args)]
#[command(
    after_help = "Moves are typed in SAN (e4, Nf3, O-O, e8=Q) or UCI notation (e2e4); 'help' lists the\n\
commands: undo, hint, eval, flip, resign, pgn, save FILE, moves, board, fen, quit.\n\n\
Examples:\n  tarpon play\n  tarpon play --black --tc 5+3 --elo 1500\n  tarpon play --level 5\n  tarpon play --movetime 200 --save game.pgn\n  \
tarpon play --fen '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1' --depth 1"
)]
pub struct PlayArgs {
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
    #[arg(long, value_name = "MIN+INC", value_parser = parse_time_control, conflicts_with = "movetime")]
    tc: Option<TimeControl>,
    #[command(flatten)]
    search: engine::SearchArgs,
    /// Keep the game as PGN in this file, written at the start and after every move (default: not saved)
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Draw the board with letters instead of chess figures
    #[arg(long)]
    ascii: bool,
    /// No colours (the NO_COLOR environment variable does the same)
    #[arg(long)]
    no_color: bool,
}

impl From<PlayArgs> for Options {
    fn from(args: PlayArgs) -> Options {
        Options {
            human: if args.black {
                Color::Black
            } else {
                Color::White
            },
            fen: args.fen,
            time_control: args.tc,
            search: args.search.into(),
            strength: match (args.elo, args.level) {
                (Some(elo), _) => Some(Skill::from_elo(elo)),
                (None, Some(level)) => Skill::from_level(level),
                (None, None) => None,
            },
            save: args.save,
            style: Style::detect(args.ascii, args.no_color),
        }
    }
}

impl PlayArgs {
    /// `tarpon play`.
    pub fn run(self) -> std::process::ExitCode {
        super::exit_status(run_terminal(&self.into()))
    }
}

/// Plays a game on the terminal: standard input and output.
pub fn run_terminal(options: &Options) -> Result<(), String> {
    let stdin = io::stdin();
    // Piped input is not shown by the terminal: echo it, so the transcript reads as a game.
    let echo = !stdin.is_terminal();
    // A running clock is redrawn in place, which only a terminal shows as such (a file or
    // a pipe would get a copy every tenth of a second).
    let live = options.time_control.is_some()
        && io::stdout().is_terminal()
        && std::env::var("TERM").is_ok_and(|term| term != "dumb");
    if live {
        run_with(
            options,
            Input::Lines(read_lines_behind()),
            &mut io::stdout(),
            echo,
            true,
        )
    } else {
        run(options, &mut stdin.lock(), &mut io::stdout(), echo)
    }
}

/// Plays a game reading the person's lines from `input` and writing to `out`; `echo`
/// repeats each line read after its prompt.
pub fn run(
    options: &Options,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    echo: bool,
) -> Result<(), String> {
    run_with(options, Input::Reader(input), out, echo, false)
}
