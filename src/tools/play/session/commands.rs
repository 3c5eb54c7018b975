//! What the person can type besides a move: the commands `help` lists, and the work
//! behind `undo`, `hint` and `eval`.

use super::{Flow, Session};
use crate::tools::engine::{self, Eval, legal_sans, numbered_san};
use crate::tools::pgn;
use crate::tools::play::text::{width, wrap_words};
use crate::tools::play::{Ending, name};
use std::path::PathBuf;

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

impl Session<'_> {
    /// Obeys one line of input.
    pub(super) fn command(&mut self, line: &str) -> Result<Flow, String> {
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
}
