//! What a `datagen` run reports: the counts over the games written ([`Stats`]), the
//! progress line while it runs and the [`Summary`] at its end.

use super::DatagenError;
use super::play::Game;
use crate::learn::bulletformat::GameResult;
use std::fmt;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

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
    pub(super) fn add(&mut self, game: &Game, positions: usize) {
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

/// One progress line on standard error: redrawn in place on a terminal, a new line every
/// few seconds otherwise (a log).
pub(super) fn print_progress(
    stats: &Stats,
    games: u64,
    elapsed: Duration,
    terminal: bool,
    last: bool,
) {
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
