//! The game as PGN: its moves and ending, today's date for its tags, and a file written
//! so that a crash never leaves half of it.

use super::super::pgn;
use super::{Clock, Ending};
use crate::chess::{Color, Position};
use crate::search::skill::Skill;
use std::io::{self, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Writes `text` to a temporary file beside `path`, then renames it over `path`: a crash
/// or Ctrl-C in the middle leaves the previous version whole, never half a file. (The
/// temporary file must be in the same folder: a rename cannot cross file systems.)
pub(super) fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
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

/// The tags of a casual game against Tarpon, as `tarpon play` and `tarpon serve` both
/// write them: who played which side (`person` with `human`'s pieces, and Tarpon, with
/// its rating when it plays weaker), the date, and the time control when there is a clock.
pub(crate) fn tag_casual_game(
    game: &mut pgn::Game,
    site: &str,
    person: String,
    human: Color,
    strength: Option<Skill>,
    clock: Option<&Clock>,
) {
    let tarpon = match strength {
        Some(skill) => format!("Tarpon {} (Elo {})", env!("CARGO_PKG_VERSION"), skill.elo()),
        None => format!("Tarpon {}", env!("CARGO_PKG_VERSION")),
    };
    let (white, black) = if human == Color::White {
        (person, tarpon)
    } else {
        (tarpon, person)
    };
    game.set_tag("Event", "Casual game");
    game.set_tag("Site", site);
    game.set_tag("Date", &today());
    game.set_tag("Round", "-");
    game.set_tag("White", &white);
    game.set_tag("Black", &black);
    if let Some(clock) = clock {
        game.set_tag("TimeControl", &clock.control.pgn_text());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_dates() {
        assert_eq!(date_from_days(0), (1970, 1, 1));
        assert_eq!(date_from_days(19_723), (2024, 1, 1));
        assert_eq!(date_from_days(19_723 + 31 + 28), (2024, 2, 29));
        assert_eq!(date_from_days(19_723 + 366), (2025, 1, 1));
        assert_eq!(date_from_days(11_016), (2000, 2, 29));
    }
}
