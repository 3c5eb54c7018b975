//! `tarpon play`: a game against Tarpon in the terminal.
//!
//! The person types moves in SAN or UCI notation, or commands (`help` lists them). The
//! game ends as the rules say (checkmate, stalemate, threefold repetition, the fifty-move
//! rule, insufficient material; repetition and fifty moves are claimed at once), by
//! resignation, or on time with `--tc`. Input is read line by line, so a script can play
//! through a pipe; the transcript then shows each line read after its prompt.

use super::diagram::{self, Style};
use super::engine::{
    self, Analysis, Engine, Eval, Settings, legal_sans, numbered_san, parse_move_text, write_error,
};
use super::pgn;
use crate::chess::notation::{MoveError, to_san};
use crate::chess::{Board, Color, MoveKind, Outcome, Position, Square};
use crate::search::skill::Skill;
use crate::search::timeman::Limits;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Both players' clock: a base time and an increment added after each move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    /// The PGN `TimeControl` tag: seconds, `+` increment seconds.
    pub(crate) fn pgn_text(&self) -> String {
        let base = self.base.as_secs_f64();
        let inc = self.increment.as_secs_f64();
        format!("{base}+{inc}")
    }
}

/// Reads a time control as chess players write it, minutes then increment seconds:
/// `5+3`, `3+2`, `0.5+1`, or `10` for no increment.
pub fn parse_time_control(text: &str) -> Result<TimeControl, String> {
    let bad = || {
        format!(
            "'{text}' is not a time control: write minutes+increment in seconds, e.g. 5+3, 0.5+1 or 10"
        )
    };
    let (minutes, seconds) = text.split_once('+').unwrap_or((text, "0"));
    let number = |t: &str| -> Result<f64, String> {
        let v: f64 = t.trim().parse().map_err(|_| bad())?;
        if (0.0..=1e6).contains(&v) {
            Ok(v)
        } else {
            Err(bad())
        }
    };
    let (minutes, seconds) = (number(minutes)?, number(seconds)?);
    if minutes == 0.0 && seconds == 0.0 {
        return Err(format!("'{text}': a clock needs some time"));
    }
    Ok(TimeControl {
        base: Duration::from_secs_f64(minutes * 60.0),
        increment: Duration::from_secs_f64(seconds),
    })
}

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

/// Tarpon's side of the game: its engine and how long it may think. Settings of its
/// strength belong here too (in `engine.options`).
pub struct Opponent {
    engine: Engine,
    settings: Settings,
    strength: Option<Skill>,
}

impl Opponent {
    /// The opponent, and notes on its tablebases (if asked for) for the user.
    pub fn new(settings: Settings, strength: Option<Skill>) -> (Opponent, Vec<String>) {
        let (engine, notes) = Engine::new(settings.hash_mb, settings.syzygy.as_deref());
        let opponent = Opponent {
            engine,
            settings,
            strength,
        };
        (opponent, notes)
    }

    /// Chooses Tarpon's move. `clock`: its remaining time and increment, if on a clock; a
    /// depth or node limit given with the clock still applies (a weaker opponent).
    pub fn choose_move(
        &mut self,
        position: &Position,
        clock: Option<(Duration, Duration)>,
    ) -> Analysis {
        let limits = move_limits(&self.settings, clock);
        self.engine.options.skill = self.strength;
        self.engine.search(position, limits, |_| {})
    }

    /// A short search of `position` for its evaluation, at full strength: at most
    /// `EVAL_MS`, and within a depth or node limit if one was given.
    pub fn evaluate(&mut self, position: &Position) -> Analysis {
        self.engine.options.skill = None;
        let mut limits = self.settings.limits();
        limits.move_time = Some(limits.move_time.map_or(EVAL_MS, |ms| ms.min(EVAL_MS)));
        self.engine.search(position, limits, |_| {})
    }

    /// The move Tarpon would play for the person: its own limits without the clock (so
    /// one second, unless a depth, time or node limit was given).
    /// The hint is at full strength: the person asks for the best move, not a weak one.
    pub fn hint(&mut self, position: &Position) -> Analysis {
        self.engine.options.skill = None;
        self.engine.search(position, self.settings.limits(), |_| {})
    }
}

/// The longest search for `eval`: long enough for a sound figure, short enough to ask
/// for it at any moment of a game.
const EVAL_MS: u64 = 500;

/// The limits of Tarpon's search for a move: its clock (remaining time and increment) if
/// the game has one, with a depth or node limit of `settings` still applying (a weaker
/// opponent); otherwise the limits of `settings`.
pub(crate) fn move_limits(settings: &Settings, clock: Option<(Duration, Duration)>) -> Limits {
    match clock {
        Some((time, increment)) => Limits {
            time: Some(time.as_millis() as u64),
            increment: increment.as_millis() as u64,
            depth: settings.depth,
            nodes: settings.nodes,
            ..Limits::default()
        },
        None => settings.limits(),
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Ending {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub(crate) result: &'static str,
    /// In words, for the announcement and the PGN.
    pub(crate) reason: String,
    /// The PGN `Termination` tag.
    pub(crate) termination: &'static str,
}

impl Ending {
    pub(crate) fn win(winner: Color, reason: String, termination: &'static str) -> Ending {
        Ending {
            result: if winner == Color::White { "1-0" } else { "0-1" },
            reason,
            termination,
        }
    }

    pub(crate) fn draw(reason: String, termination: &'static str) -> Ending {
        Ending {
            result: "1/2-1/2",
            reason,
            termination,
        }
    }

    pub(crate) fn from_outcome(outcome: Outcome) -> Ending {
        match outcome {
            Outcome::Checkmate { winner } => Ending::win(
                winner,
                format!("Checkmate: {} wins", name(winner)),
                "normal",
            ),
            Outcome::Stalemate => Ending::draw("Stalemate: draw".to_string(), "normal"),
            Outcome::ThreefoldRepetition => {
                Ending::draw("Draw by threefold repetition".to_string(), "normal")
            }
            Outcome::FiftyMoveRule => {
                Ending::draw("Draw by the fifty-move rule".to_string(), "normal")
            }
            Outcome::InsufficientMaterial => Ending::draw(
                "Draw: neither side has the material to checkmate".to_string(),
                "normal",
            ),
        }
    }

    /// `loser`'s flag fell: a loss, unless the opponent could never checkmate.
    pub(crate) fn time_forfeit(loser: Color, position: &Position) -> Ending {
        let winner = loser.flip();
        if position.has_insufficient_material(winner) {
            Ending::draw(
                format!(
                    "{} ran out of time, but {} cannot checkmate: draw",
                    name(loser),
                    name(winner)
                ),
                "time forfeit",
            )
        } else {
            Ending::win(
                winner,
                format!("{} ran out of time: {} wins", name(loser), name(winner)),
                "time forfeit",
            )
        }
    }
}

/// `label` and `words` separated by spaces, in lines of at most `width` columns broken
/// between words, never inside one; the lines after the first are indented by two spaces.
fn wrap_words(label: &str, words: &[String], width: usize) -> String {
    const INDENT: &str = "  ";
    let mut text = label.to_string();
    let mut line_length = label.chars().count();
    for word in words {
        let length = word.chars().count();
        if line_length + 1 + length > width && line_length > INDENT.len() {
            text.push('\n');
            text.push_str(INDENT);
            line_length = INDENT.len();
        } else {
            text.push(' ');
            line_length += 1;
        }
        text.push_str(word);
        line_length += length;
    }
    text
}

/// The width of the output in columns: the terminal's, else `COLUMNS` (which shells set),
/// else 80.
fn width() -> usize {
    terminal_columns()
        .or_else(|| {
            std::env::var("COLUMNS")
                .ok()
                .and_then(|c| c.trim().parse().ok())
        })
        .filter(|&columns: &usize| columns > 0)
        .unwrap_or(80)
}

/// The columns of the terminal standard output writes to, if it is one.
fn terminal_columns() -> Option<usize> {
    let (terminal_size::Width(columns), _) = terminal_size::terminal_size_of(std::io::stdout())?;
    (columns > 0).then_some(usize::from(columns))
}

/// `a`, `a or b`, `a, b or c`: choices in words.
fn one_of(choices: &[String]) -> String {
    match choices {
        [] => String::new(),
        [only] => only.clone(),
        [first @ .., last] => format!("{} or {last}", first.join(", ")),
    }
}

pub(crate) fn name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Both sides' remaining time.
pub(crate) struct Clock {
    pub(crate) control: TimeControl,
    pub(crate) remaining: [Duration; 2],
}

impl Clock {
    /// Charges `used` to `side`; false if that was more than it had (its flag fell).
    pub(crate) fn charge(&mut self, side: Color, used: Duration) -> bool {
        let left = &mut self.remaining[side.index()];
        match left.checked_sub(used) {
            Some(rest) if !rest.is_zero() => {
                *left = rest + self.control.increment;
                true
            }
            _ => {
                *left = Duration::ZERO;
                false
            }
        }
    }
}

/// `m:ss`, with tenths in the last twenty seconds (when they matter).
fn clock_text(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 20.0 {
        format!("0:{:04.1}", secs)
    } else {
        let whole = d.as_secs();
        format!("{}:{:02}", whole / 60, whole % 60)
    }
}

/// Both clocks in words, `White 4:59  Black 5:00`; `running`: the side whose clock runs,
/// and for how long it has, not yet charged.
fn clock_words(clock: Option<&Clock>, running: Option<(Color, Duration)>) -> String {
    let Some(clock) = clock else {
        return String::new();
    };
    let mut remaining = clock.remaining;
    if let Some((side, used)) = running {
        let left = &mut remaining[side.index()];
        *left = left.saturating_sub(used);
    }
    let [white, black] = remaining.map(clock_text);
    format!("White {white}  Black {black}")
}

/// Runs `work` on a thread of its own and `tick` on this one, at once and then every
/// `every` until the work is done. The work is not interrupted: an error of `tick` (the
/// output is gone) stops the ticks and is returned when the work is done.
fn while_running<T: Send>(
    work: impl FnOnce() -> T + Send,
    every: Duration,
    mut tick: impl FnMut() -> Result<(), String>,
) -> Result<T, String> {
    std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel();
        let worker = scope.spawn(move || {
            let value = work();
            let _ = done.send(());
            value
        });
        let mut ticking = Ok(());
        loop {
            if ticking.is_ok() {
                ticking = tick();
            }
            // A panic of the work drops the sender: the join below passes it on.
            match finished.recv_timeout(every) {
                Err(RecvTimeoutError::Timeout) => {}
                Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        let value = worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        ticking.map(|()| value)
    })
}

/// `h:mm:ss` for a PGN `[%clk]` comment (whole seconds, as the clock shows them).
fn pgn_clock(d: Duration) -> String {
    let secs = d.as_secs();
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// What the loop does after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// One game in progress, with everything the commands act on.
struct Session<'a> {
    options: &'a Options,
    out: &'a mut dyn Write,
    opponent: Opponent,
    start: Board,
    position: Position,
    ending: Option<Ending>,
    clock: Option<Clock>,
    black_below: bool,
    /// When the person's current turn began (their clock runs from then).
    turn_started: Instant,
    /// Whether the board on screen is the current one.
    board_shown: bool,
    /// Whether the game ended by the person's resignation, which is final.
    resigned: bool,
    /// With a clock: the mover's time left after each move played, for the PGN.
    clock_after: Vec<Duration>,
    /// Whether the clock is redrawn while a side thinks (on a terminal, with `--tc`).
    live: bool,
}

const HELP: &str = "\
Type a move in SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI notation (e2e4, e7e8q), or a command:
  undo         take back your last move (and Tarpon's reply)
  hint         ask Tarpon for a move
  eval         Tarpon's evaluation of the position (from White's side, as lichess shows it)
  flip         turn the board around
  resign       give up the game
  pgn          show the game so far as PGN
  save FILE    write the game as PGN to FILE (without FILE: the --save file)
  moves        list the legal moves
  board        show the board again
  fen          show the position as FEN
  quit         leave (the --save file is written first)";

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

/// Where the person's lines come from.
enum Input<'a> {
    /// Read when wanted; waiting for a line blocks the game.
    Reader(&'a mut dyn BufRead),
    /// Read by a thread as they come, so that waiting for one can stop to redraw the
    /// clock; an empty text is the end of the input.
    Lines(Receiver<io::Result<String>>),
}

/// Standard input's lines, read by a thread of their own.
fn read_lines_behind() -> Receiver<io::Result<String>> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let stdin = io::stdin();
        loop {
            let mut line = String::new();
            let read = stdin.lock().read_line(&mut line);
            let last = !matches!(read, Ok(n) if n > 0);
            if sender.send(read.map(|_| line)).is_err() || last {
                return;
            }
        }
    });
    receiver
}

/// How often a live clock is looked at; it is redrawn when its text changes (every
/// second, or every tenth in the last twenty seconds).
const CLOCK_TICK: Duration = Duration::from_millis(50);

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

/// As `run`; `live`: the clock, if there is one, is redrawn while a side thinks, with
/// terminal control sequences (and a person's flag falls as it happens).
fn run_with(
    options: &Options,
    mut input: Input,
    out: &mut dyn Write,
    echo: bool,
    live: bool,
) -> Result<(), String> {
    let position = match &options.fen {
        Some(fen) => Position::from_fen(fen, false).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::startpos(),
    };
    let (opponent, notes) = Opponent::new(options.search.clone(), options.strength);
    let mut session = Session {
        options,
        out,
        opponent,
        start: *position.board(),
        position,
        ending: None,
        clock: options.time_control.map(|control| Clock {
            control,
            remaining: [control.base; 2],
        }),
        black_below: options.human == Color::Black,
        turn_started: Instant::now(),
        board_shown: false,
        resigned: false,
        clock_after: Vec::new(),
        live: live && options.time_control.is_some(),
    };
    // A --save file that cannot be written fails now, not after a game that would be lost:
    // writing the empty game is the check (the file is written again as the game goes).
    if let Some(path) = &options.save {
        session.save(path).map_err(|e| format!("--save: {e}"))?;
    }
    for note in notes {
        session.say(&note)?;
    }
    let limit_words = match options.time_control {
        Some(tc) => format!(
            "clock {}+{}",
            tc.base.as_secs_f64() / 60.0,
            tc.increment.as_secs_f64()
        ),
        None => options.search.describe(),
    };
    let limit_words = match options.strength {
        Some(skill) => format!("{limit_words}, playing at Elo {}", skill.elo()),
        None => limit_words,
    };
    session.say(&format!(
        "Tarpon {} ({limit_words}). You play {}. Type a move, or 'help'.",
        env!("CARGO_PKG_VERSION"),
        name(options.human)
    ))?;
    session.check_outcome()?;
    let result = session.play(&mut input, echo);
    if let Some(path) = &options.save {
        session.save(path)?;
    }
    result
}

impl Session<'_> {
    fn say(&mut self, text: &str) -> Result<(), String> {
        writeln!(self.out, "{text}").map_err(write_error)
    }

    fn human_to_move(&self) -> bool {
        self.position.side_to_move() == self.options.human
    }

    /// The loop: Tarpon moves when it is its turn; otherwise a line is read and obeyed.
    fn play(&mut self, input: &mut Input, echo: bool) -> Result<(), String> {
        loop {
            if self.ending.is_none() && !self.human_to_move() {
                self.engine_move()?;
                continue;
            }
            if !self.board_shown {
                self.show_board()?;
                self.turn_started = Instant::now();
            }
            self.prompt()?;
            let Some(line) = self.read_line(input)? else {
                // The person's flag fell while they thought.
                continue;
            };
            if echo {
                self.say(line.trim_end())?;
            }
            if line.is_empty() {
                if !echo {
                    self.say("")?;
                }
                return Ok(());
            }
            if self.command(line.trim())? == Flow::Quit {
                return Ok(());
            }
        }
    }

    /// The person's next line (empty at the end of the input), or `None` if their time ran
    /// out first (only seen with a live clock, which is redrawn meanwhile).
    fn read_line(&mut self, input: &mut Input) -> Result<Option<String>, String> {
        let read_error = |e: io::Error| format!("cannot read the input: {e}");
        let lines = match input {
            Input::Reader(reader) => {
                let mut line = String::new();
                reader.read_line(&mut line).map_err(read_error)?;
                return Ok(Some(line));
            }
            Input::Lines(lines) => lines,
        };
        let human = self.options.human;
        // As the prompt showed it.
        let mut shown = clock_words(
            self.clock.as_ref(),
            Some((human, self.turn_started.elapsed())),
        );
        loop {
            let running = self.live && self.ending.is_none();
            let line = if running {
                lines.recv_timeout(CLOCK_TICK)
            } else {
                lines.recv().map_err(|_| RecvTimeoutError::Disconnected)
            };
            match line {
                Ok(line) => return line.map(Some).map_err(read_error),
                Err(RecvTimeoutError::Disconnected) => return Ok(Some(String::new())),
                Err(RecvTimeoutError::Timeout) => {}
            }
            let thinking = self.turn_started.elapsed();
            let Some(clock) = &self.clock else { continue };
            if clock.remaining[human.index()] <= thinking {
                // Off the prompt's line, then the end of the game.
                self.say("")?;
                let ending = Ending::time_forfeit(human, &self.position);
                self.end(ending)?;
                return Ok(None);
            }
            let words = clock_words(self.clock.as_ref(), Some((human, thinking)));
            if words != shown {
                // The clock's line is the one above the prompt: the cursor goes up to it
                // and comes back to where the person is typing (save and restore).
                write!(self.out, "\x1b7\x1b[1A\rClock: {words}\x1b[K\x1b8")
                    .and_then(|()| self.out.flush())
                    .map_err(write_error)?;
                shown = words;
            }
        }
    }

    fn prompt(&mut self) -> Result<(), String> {
        if self.clock.is_some() && self.ending.is_none() {
            let human = self.options.human;
            let running = self.live.then(|| (human, self.turn_started.elapsed()));
            let words = clock_words(self.clock.as_ref(), running);
            self.say(&format!("Clock: {words}"))?;
        }
        let text = if self.ending.is_some() {
            "game over> ".to_string()
        } else {
            let dots = if self.position.side_to_move() == Color::White {
                "."
            } else {
                "..."
            };
            format!("{}{dots} your move: ", self.position.fullmove_number())
        };
        write!(self.out, "{text}")
            .and_then(|()| self.out.flush())
            .map_err(write_error)
    }

    fn show_board(&mut self) -> Result<(), String> {
        let marked = self.last_move_squares();
        let text = diagram::draw(
            &self.position,
            self.options.style,
            self.black_below,
            &marked,
        );
        self.board_shown = true;
        write!(self.out, "\n{text}\n").map_err(write_error)
    }

    /// The last move's origin and destination (for castling, the king's), to mark them.
    fn last_move_squares(&self) -> Vec<Square> {
        let moves: Vec<_> = self.position.moves_played().collect();
        let Some((&last, earlier)) = moves.split_last() else {
            return Vec::new();
        };
        let mut before = self.start;
        for &m in earlier {
            before.play(m);
        }
        let to = if last.kind() == MoveKind::Castling {
            before.castling_destinations(last.from(), last.to()).0
        } else {
            last.to()
        };
        vec![last.from(), to]
    }

    /// Obeys one line of input.
    fn command(&mut self, line: &str) -> Result<Flow, String> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "help" | "?" => self.say(HELP)?,
            "quit" | "exit" => return Ok(Flow::Quit),
            "undo" | "takeback" => self.undo()?,
            "hint" => self.hint()?,
            "eval" => self.evaluate()?,
            "flip" => {
                self.black_below = !self.black_below;
                self.show_board()?;
            }
            "board" | "d" => self.show_board()?,
            "fen" => {
                let fen = self.position.fen();
                self.say(&fen)?;
            }
            "moves" => {
                let text = wrap_words("Legal moves:", &legal_sans(&self.position), width());
                self.say(&text)?;
            }
            "pgn" => {
                let text = pgn::write_game(&self.record());
                self.say(text.trim_end())?;
            }
            "save" => {
                let path = match (rest, &self.options.save) {
                    ("", Some(path)) => path.clone(),
                    ("", None) => {
                        self.say("Say where: save FILE")?;
                        return Ok(Flow::Continue);
                    }
                    (file, _) => PathBuf::from(file),
                };
                match self.save(&path) {
                    Ok(()) => self.say(&format!("Saved the game to {}", path.display()))?,
                    Err(e) => self.say(&e)?,
                }
            }
            "resign" => {
                if self.ending.is_some() {
                    self.say("The game is over already.")?;
                } else {
                    let loser = self.options.human;
                    let reason = format!("{} resigns: {} wins", name(loser), name(loser.flip()));
                    self.resigned = true;
                    self.end(Ending::win(loser.flip(), reason, "normal"))?;
                }
            }
            _ => self.human_move(line)?,
        }
        Ok(Flow::Continue)
    }

    fn human_move(&mut self, text: &str) -> Result<(), String> {
        let m = match parse_move_text(&self.position, text) {
            Ok(m) => m,
            Err(MoveError::Syntax(_)) => {
                return self.say(&format!(
                    "'{text}' is neither a move nor a command; type 'help' for the commands."
                ));
            }
            Err(MoveError::Ambiguous(_)) => {
                let sans: Vec<String> = engine::ambiguous_moves(&self.position, text)
                    .into_iter()
                    .map(|m| to_san(&self.position, m))
                    .collect();
                return self.say(&format!("'{text}' is ambiguous: {}.", one_of(&sans)));
            }
            Err(MoveError::Illegal(_)) => {
                if self.ending.is_some() {
                    return self.say(self.game_over_words());
                }
                let label = format!("'{text}' is not legal here. Legal moves:");
                let moves = wrap_words(&label, &legal_sans(&self.position), width());
                return self.say(&moves);
            }
        };
        if self.ending.is_some() {
            return self.say(self.game_over_words());
        }
        let used = self.turn_started.elapsed();
        self.play_move(m, used)
    }

    /// Plays a move for the side to move, who used `used` of its clock, and judges the
    /// game. A move made after the flag fell is not played.
    fn play_move(&mut self, m: crate::chess::Move, used: Duration) -> Result<(), String> {
        let side = self.position.side_to_move();
        if let Some(clock) = &mut self.clock {
            if !clock.charge(side, used) {
                let ending = Ending::time_forfeit(side, &self.position);
                return self.end(ending);
            }
            self.clock_after.push(clock.remaining[side.index()]);
        }
        self.position.make(m);
        self.board_shown = false;
        self.check_outcome()?;
        if self.ending.is_none() {
            self.keep_saved()?;
        }
        Ok(())
    }

    /// Rewrites the --save file with the game so far, so that a crash or Ctrl-C loses
    /// nothing. A failure here (a full disk) is told but does not stop the game.
    fn keep_saved(&mut self) -> Result<(), String> {
        let Some(path) = &self.options.save else {
            return Ok(());
        };
        match self.save(path) {
            Ok(()) => Ok(()),
            Err(e) => self.say(&format!("warning: {e}")),
        }
    }

    /// Ends the game if the rules say it is over.
    fn check_outcome(&mut self) -> Result<(), String> {
        match self.position.outcome() {
            Some(outcome) => self.end(Ending::from_outcome(outcome)),
            None => Ok(()),
        }
    }

    fn end(&mut self, ending: Ending) -> Result<(), String> {
        if !self.board_shown {
            self.show_board()?;
        }
        self.say(&format!("{} ({})", ending.reason, ending.result))?;
        self.ending = Some(ending);
        if let Some(path) = self.options.save.clone() {
            self.save(&path)?;
            self.say(&format!("Saved the game to {}", path.display()))?;
        }
        if self.takeback_refusal().is_some() {
            self.say("Type 'pgn' to see the game, 'save FILE' to keep it, or 'quit'.")
        } else {
            self.say(
                "Type 'pgn' to see the game, 'save FILE' to keep it, 'undo' to take back, or 'quit'.",
            )
        }
    }

    /// The answer to a move typed after the game ended.
    fn game_over_words(&self) -> &'static str {
        if self.takeback_refusal().is_some() {
            "The game is over. Type 'pgn', 'save FILE' or 'quit'."
        } else {
            "The game is over. Type 'undo', 'pgn', 'save FILE' or 'quit'."
        }
    }

    /// Why the game cannot be taken back, if it cannot: a resignation is the person's
    /// final word, and after a flag fell there is no time to play on (the clocks are not
    /// turned back).
    fn takeback_refusal(&self) -> Option<&'static str> {
        if self.resigned {
            Some("You resigned: the game is over and cannot be taken back.")
        } else if self
            .ending
            .as_ref()
            .is_some_and(|e| e.termination == "time forfeit")
        {
            Some("Time ran out: the game cannot be taken back.")
        } else {
            None
        }
    }

    fn engine_move(&mut self) -> Result<(), String> {
        let side = self.position.side_to_move();
        let clock = self
            .clock
            .as_ref()
            .map(|c| (c.remaining[side.index()], c.control.increment));
        let started = Instant::now();
        let analysis = if self.live {
            self.think_with_live_clock(clock, started)?
        } else {
            self.say("Tarpon is thinking...")?;
            self.opponent.choose_move(&self.position, clock)
        };
        let used = started.elapsed();
        let text = numbered_san(&self.position, analysis.best);
        self.say(&format!("Tarpon plays {text}"))?;
        self.play_move(analysis.best, used)
    }

    /// Tarpon's search for a move, on a thread of its own while this one redraws the
    /// "thinking" line with the clocks, Tarpon's running since `started`.
    fn think_with_live_clock(
        &mut self,
        clock: Option<(Duration, Duration)>,
        started: Instant,
    ) -> Result<Analysis, String> {
        let side = self.position.side_to_move();
        let Session {
            opponent,
            position,
            out,
            clock: game_clock,
            ..
        } = self;
        let mut shown = None;
        let analysis = while_running(
            || opponent.choose_move(position, clock),
            CLOCK_TICK,
            || {
                let words = clock_words(game_clock.as_ref(), Some((side, started.elapsed())));
                if shown.as_ref() == Some(&words) {
                    return Ok(());
                }
                write!(out, "\rTarpon is thinking...  {words}\x1b[K")
                    .and_then(|()| out.flush())
                    .map_err(write_error)?;
                shown = Some(words);
                Ok(())
            },
        )?;
        writeln!(out).map_err(write_error)?;
        Ok(analysis)
    }

    fn hint(&mut self) -> Result<(), String> {
        if self.ending.is_some() {
            return self.say("The game is over.");
        }
        let analysis = self.opponent.hint(&self.position);
        let side = self.position.side_to_move();
        let line = engine::san_line(&self.position, &analysis.pv);
        self.say(&format!(
            "Hint: {} ({} for White, depth {}; line {line})",
            numbered_san(&self.position, analysis.best),
            analysis.eval().for_white(side),
            analysis.depth
        ))
    }

    /// Tells Tarpon's evaluation of the position: positive is good for White, whoever
    /// plays which side, as lichess and the PGN `[%eval]` comments show it.
    fn evaluate(&mut self) -> Result<(), String> {
        if let Some(outcome) = self.position.outcome() {
            let ending = Ending::from_outcome(outcome);
            return self.say(&format!("No evaluation: {}.", ending.reason));
        }
        let analysis = self.opponent.evaluate(&self.position);
        let eval = analysis.eval().for_white(self.position.side_to_move());
        let mate = match eval {
            Eval::Mate(n) if n > 0 => format!(": White mates in {n}"),
            Eval::Mate(n) => format!(": Black mates in {}", -n),
            Eval::Centipawns(_) => String::new(),
        };
        self.say(&format!(
            "Evaluation: {eval}, White's point of view{mate} (depth {})",
            analysis.depth
        ))
    }

    /// Takes back moves up to and including the person's last one.
    fn undo(&mut self) -> Result<(), String> {
        if let Some(refusal) = self.takeback_refusal() {
            return self.say(refusal);
        }
        let human = self.options.human;
        let plies = self.position.plies_played();
        let human_moved = plies >= 2 || (plies == 1 && self.start.side_to_move() == human);
        if !human_moved {
            return self.say("There is no move of yours to take back.");
        }
        loop {
            self.position.unmake();
            if self.position.side_to_move() == human {
                break;
            }
        }
        self.ending = None;
        self.board_shown = false;
        self.clock_after.truncate(self.position.plies_played());
        self.say("Taken back.")?;
        self.keep_saved()
    }

    /// The game so far as a PGN record.
    fn record(&self) -> pgn::Game {
        let mut game = pgn::Game::new(self.start);
        let person = ["USER", "USERNAME"]
            .into_iter()
            .filter_map(|v| std::env::var(v).ok())
            .find(|v| !v.is_empty())
            .unwrap_or_else(|| "Human".to_string());
        let tarpon = match self.options.strength {
            Some(skill) => format!("Tarpon {} (Elo {})", env!("CARGO_PKG_VERSION"), skill.elo()),
            None => format!("Tarpon {}", env!("CARGO_PKG_VERSION")),
        };
        let (white, black) = if self.options.human == Color::White {
            (person, tarpon)
        } else {
            (tarpon, person)
        };
        game.set_tag("Event", "Casual game");
        game.set_tag("Site", "Tarpon terminal");
        game.set_tag("Date", &today());
        game.set_tag("Round", "-");
        game.set_tag("White", &white);
        game.set_tag("Black", &black);
        if let Some(clock) = &self.clock {
            game.set_tag("TimeControl", &clock.control.pgn_text());
        }
        record_moves_and_ending(&mut game, &self.position, self.ending.as_ref());
        // As lichess writes the clock: the time left after each move, before any other
        // comment on it.
        for (m, &left) in game.moves.iter_mut().zip(&self.clock_after) {
            m.comments.insert(0, format!("[%clk {}]", pgn_clock(left)));
        }
        game
    }

    fn save(&self, path: &Path) -> Result<(), String> {
        write_atomically(path, &pgn::write_game(&self.record()))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// Writes `text` to a temporary file beside `path`, then renames it over `path`: a crash
/// or Ctrl-C in the middle leaves the previous version whole, never half a file. (The
/// temporary file must be in the same folder: a rename cannot cross file systems.)
fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    let Some(name) = path.file_name() else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not the name of a file",
        ));
    };
    let mut temporary = std::ffi::OsString::from(".");
    temporary.push(name);
    temporary.push(format!(".{}.tmp", std::process::id()));
    let temporary = path.with_file_name(temporary);
    let written = std::fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(text.as_bytes())?;
        // On the disk before the rename, so that a system crash cannot leave the new
        // name pointing at an empty file.
        file.sync_all()
    });
    let result = written.and_then(|()| std::fs::rename(&temporary, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

/// Today's date as PGN writes it, `YYYY.MM.DD` (UTC).
pub(crate) fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    let (y, m, d) = date_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The calendar date `days` days after 1970-01-01, counting whole years and then months.
fn date_from_days(mut days: u64) -> (u64, u64, u64) {
    let leap = |y: u64| (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400);
    let mut year = 1970;
    loop {
        let length = if leap(year) { 366 } else { 365 };
        if days < length {
            break;
        }
        days -= length;
        year += 1;
    }
    let february = if leap(year) { 29 } else { 28 };
    let months = [31, february, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut month = 1;
    for length in months {
        if days < length {
            break;
        }
        days -= length;
        month += 1;
    }
    (year, month, days + 1)
}

/// Writes the moves played in `position` into `game`, and, when the game is over, its
/// result, the Termination tag and the reason as a comment on the last move (shared by
/// `tarpon play` and `tarpon serve`).
pub(crate) fn record_moves_and_ending(
    game: &mut pgn::Game,
    position: &Position,
    ending: Option<&Ending>,
) {
    game.moves = position.moves_played().map(pgn::GameMove::new).collect();
    if let Some(ending) = ending {
        game.result = ending.result.to_string();
        game.set_tag("Termination", ending.termination);
        match game.moves.last_mut() {
            Some(last) => last.comments.push(ending.reason.clone()),
            None => game.comments.push(ending.reason.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_as_players_write_them() {
        let tc = parse_time_control("5+3").unwrap();
        assert_eq!(tc.base, Duration::from_secs(300));
        assert_eq!(tc.increment, Duration::from_secs(3));
        assert_eq!(tc.pgn_text(), "300+3");
        assert_eq!(
            parse_time_control("0.5+1").unwrap().base,
            Duration::from_secs(30)
        );
        assert_eq!(parse_time_control("10").unwrap().increment, Duration::ZERO);
        for bad in ["", "abc", "5+", "-1+2", "0+0", "5+3+1", "inf"] {
            assert!(parse_time_control(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn words_wrap_between_moves() {
        let words: Vec<String> = ["e4", "Nf3", "O-O-O", "exd8=Q+"].map(String::from).to_vec();
        assert_eq!(
            wrap_words("Moves:", &words, 80),
            "Moves: e4 Nf3 O-O-O exd8=Q+"
        );
        assert_eq!(
            wrap_words("Moves:", &words, 12),
            "Moves: e4\n  Nf3 O-O-O\n  exd8=Q+"
        );
        // A word longer than the width has a line of its own.
        assert_eq!(
            wrap_words("Moves:", &words, 4),
            "Moves:\n  e4\n  Nf3\n  O-O-O\n  exd8=Q+"
        );
    }

    #[test]
    fn ticks_come_while_the_work_runs() {
        let mut ticks = 0;
        let work = || {
            std::thread::sleep(Duration::from_millis(300));
            7
        };
        let every = Duration::from_millis(50);
        let value = while_running(work, every, || {
            ticks += 1;
            Ok(())
        });
        assert_eq!(value, Ok(7));
        assert!(ticks >= 3, "{ticks}");
        // A failed tick (the output is gone) is the last, and the answer after the work.
        let mut ticks = 0;
        let result = while_running(work, every, || {
            ticks += 1;
            Err("gone".to_string())
        });
        assert_eq!((result, ticks), (Err("gone".to_string()), 1));
    }

    #[test]
    fn calendar_dates() {
        assert_eq!(date_from_days(0), (1970, 1, 1));
        assert_eq!(date_from_days(19_723), (2024, 1, 1));
        assert_eq!(date_from_days(19_723 + 31 + 28), (2024, 2, 29));
        assert_eq!(date_from_days(19_723 + 366), (2025, 1, 1));
        assert_eq!(date_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn the_clock_adds_the_increment_and_flags() {
        let control = parse_time_control("1+2").unwrap();
        let mut clock = Clock {
            control,
            remaining: [control.base; 2],
        };
        assert!(clock.charge(Color::White, Duration::from_secs(10)));
        assert_eq!(clock.remaining[0], Duration::from_secs(52));
        assert!(!clock.charge(Color::Black, Duration::from_secs(60)));
        assert_eq!(clock_text(Duration::from_secs(125)), "2:05");
        assert_eq!(clock_text(Duration::from_millis(9_440)), "0:09.4");
        assert_eq!(pgn_clock(Duration::from_millis(3_725_900)), "1:02:05");
        assert_eq!(pgn_clock(Duration::from_millis(400)), "0:00:00");
    }

    #[test]
    fn running_out_of_time_against_a_lone_king_is_a_draw() {
        let lone = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false).unwrap();
        let white_flag = Ending::time_forfeit(Color::White, &lone);
        assert_eq!(white_flag.result, "1/2-1/2");
        assert_eq!(Ending::time_forfeit(Color::Black, &lone).result, "1-0");
    }
}
