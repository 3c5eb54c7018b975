//! One game in progress: the loop that reads the person's lines, the person's and Tarpon's
//! moves, the live clock and the game's PGN record. The commands a person may type
//! instead of a move (`undo`, `hint`, `eval`, `save`, ...) are in `session/commands.rs`.

use super::super::diagram;
use super::super::engine::{
    self, Analysis, legal_sans, numbered_san, parse_move_text, write_error,
};
use super::super::pgn;
use super::clock::{Clock, clock_words, pgn_clock};
use super::record::{record_moves_and_ending, tag_casual_game, write_atomically};
use super::text::{one_of, width, wrap_words};
use super::{Ending, Opponent, Options, name};
use crate::chess::notation::{MoveError, to_san};
use crate::chess::{Board, Color, MoveKind, Position, Square};
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

mod commands;

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

/// Where the person's lines come from.
pub(super) enum Input<'a> {
    /// Read when wanted; waiting for a line blocks the game.
    Reader(&'a mut dyn BufRead),
    /// Read by a thread as they come, so that waiting for one can stop to redraw the
    /// clock; an empty text is the end of the input.
    Lines(Receiver<io::Result<String>>),
}

/// Standard input's lines, read by a thread of their own.
pub(super) fn read_lines_behind() -> Receiver<io::Result<String>> {
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

/// As `run`; `live`: the clock, if there is one, is redrawn while a side thinks, with
/// terminal control sequences (and a person's flag falls as it happens).
pub(super) fn run_with(
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

    /// The game so far as a PGN record.
    fn record(&self) -> pgn::Game {
        let mut game = pgn::Game::new(self.start);
        let person = ["USER", "USERNAME"]
            .into_iter()
            .filter_map(|v| std::env::var(v).ok())
            .find(|v| !v.is_empty())
            .unwrap_or_else(|| "Human".to_string());
        tag_casual_game(
            &mut game,
            "Tarpon terminal",
            person,
            self.options.human,
            self.options.strength,
            self.clock.as_ref(),
        );
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
