//! The UCI loop: reads commands from a GUI line by line and answers on standard output.
//!
//! This first version knows `uci`, `isready`, `ucinewgame`, `setoption` (for
//! `UCI_Chess960`), `position`, `go perft`, `d` and `quit`; the search completes it.
//! Bad input never stops the loop: it is answered with an `info string` saying what was
//! wrong, and the engine's state stays as it was.

use crate::chess::Position;
use crate::chess::fen::START_FEN;
use crate::chess::notation::parse_uci;
use crate::tools::perft::divide_lines;
use std::io::{self, BufRead, Write};

const NAME: &str = concat!("Tarpon ", env!("CARGO_PKG_VERSION"));
const AUTHOR: &str = "the Tarpon developers";

/// Whether the loop should go on after a command.
#[derive(PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Quit,
}

/// The engine state that commands act on.
pub struct Uci {
    position: Position,
    chess960: bool,
}

impl Default for Uci {
    fn default() -> Self {
        Uci::new()
    }
}

impl Uci {
    pub fn new() -> Uci {
        Uci {
            position: Position::startpos(),
            chess960: false,
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Handles one input line, writing any answer to `out`.
    pub fn handle(&mut self, line: &str, out: &mut impl Write) -> io::Result<Flow> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return Ok(Flow::Continue);
        };
        match command {
            "uci" => {
                writeln!(out, "id name {NAME}")?;
                writeln!(out, "id author {AUTHOR}")?;
                writeln!(out, "option name UCI_Chess960 type check default false")?;
                writeln!(out, "uciok")?;
            }
            "isready" => writeln!(out, "readyok")?,
            "ucinewgame" => self.position = Position::startpos(),
            "setoption" => self.set_option(args, out)?,
            "position" => {
                if let Err(message) = self.set_position(args) {
                    writeln!(out, "info string error: {message}; position unchanged")?;
                }
            }
            "go" => self.go(args, out)?,
            "d" => {
                writeln!(out, "{}", self.board_picture())?;
                writeln!(out, "Fen: {}", self.position.fen())?;
                writeln!(out, "Key: {:016X}", self.position.key())?;
            }
            "quit" => return Ok(Flow::Quit),
            _ => writeln!(out, "info string error: unknown command '{command}'")?,
        }
        Ok(Flow::Continue)
    }

    /// `setoption name <name> [value <value>]`; option names are case-insensitive.
    fn set_option(&mut self, args: &[&str], out: &mut impl Write) -> io::Result<()> {
        let text = args.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return writeln!(
                out,
                "info string error: expected 'setoption name <name> [value <value>]'"
            );
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest.trim(), None),
        };
        if name.eq_ignore_ascii_case("UCI_Chess960") {
            match value.map(|v| v.to_ascii_lowercase()) {
                Some(v) if v == "true" || v == "false" => self.chess960 = v == "true",
                _ => writeln!(
                    out,
                    "info string error: UCI_Chess960 needs value true or false"
                )?,
            }
        } else {
            writeln!(out, "info string error: unknown option '{name}'")?;
        }
        Ok(())
    }

    /// `position startpos|fen <fen> [moves <m1> ...]`. The new position replaces the old
    /// one only if the FEN and every move are valid: on any error nothing changes.
    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args
            .iter()
            .position(|&t| t == "moves")
            .unwrap_or(args.len());
        let (setup, moves) = (&args[..moves_at], args.get(moves_at + 1..).unwrap_or(&[]));
        let mut position = match setup.split_first() {
            Some((&"startpos", [])) => Position::from_fen(START_FEN, self.chess960),
            Some((&"fen", fen)) => Position::from_fen(&fen.join(" "), self.chess960),
            _ => return Err("expected 'position startpos' or 'position fen <fen>'".to_string()),
        }
        .map_err(|e| format!("bad FEN: {e}"))?;
        for (i, text) in moves.iter().enumerate() {
            let m = parse_uci(&position, text)
                .map_err(|e| format!("move {} of the list: {e}", i + 1))?;
            position.make(m);
        }
        self.position = position;
        Ok(())
    }

    fn go(&mut self, args: &[&str], out: &mut impl Write) -> io::Result<()> {
        match args {
            ["perft", depth] => match depth.parse::<u32>() {
                Ok(depth) if depth <= 32 => {
                    let (lines, total) = divide_lines(&self.position, depth);
                    for line in lines {
                        writeln!(out, "{line}")?;
                    }
                    writeln!(out)?;
                    writeln!(out, "Nodes searched: {total}")?;
                    writeln!(out)?;
                }
                _ => writeln!(
                    out,
                    "info string error: perft depth must be a number from 0 to 32"
                )?,
            },
            _ => writeln!(
                out,
                "info string error: only 'go perft <depth>' is available until the search lands"
            )?,
        }
        Ok(())
    }

    /// The board as text, White at the bottom.
    fn board_picture(&self) -> String {
        use crate::chess::Square;
        let mut text = String::from(" +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8).rev() {
            for file in 0..8 {
                let piece = self.position.piece_on(Square::from_coords(file, rank));
                text.push_str(&format!(" | {}", piece.map_or(' ', |p| p.char())));
            }
            text.push_str(&format!(
                " | {}\n +---+---+---+---+---+---+---+---+\n",
                rank + 1
            ));
        }
        text.push_str("   a   b   c   d   e   f   g   h");
        text
    }
}

/// Runs the loop on standard input and output until `quit` or end of input.
pub fn run() {
    let mut uci = Uci::new();
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        match uci.handle(&line, &mut stdout) {
            Ok(Flow::Quit) | Err(_) => break,
            Ok(Flow::Continue) => {}
        }
        if stdout.flush().is_err() {
            break;
        }
    }
}
