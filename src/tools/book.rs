//! `tarpon book`: the moves an opening book holds for a position, with their weights.

use crate::book::{self, Book, Entry};
use crate::chess::Position;
use crate::chess::notation::{to_san, to_uci};
use std::process::ExitCode;

/// `tarpon book`'s arguments.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  tarpon book performance.bin\n  tarpon book performance.bin 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'\n\nThe book is a Polyglot .bin file. Exit status 1 if the book cannot be read or holds an\nillegal move for the position (listed as 'illegal')."
)]
pub struct BookArgs {
    /// Polyglot book file (.bin)
    file: String,
    /// Position as FEN (default: the start position); quoting is optional
    fen: Vec<String>,
}

impl BookArgs {
    /// `tarpon book`: the listing, exit status 1 when the book cannot be read or holds a
    /// move that is illegal in the position.
    pub fn run(self) -> ExitCode {
        let listing = match list(&self.file, &super::fen_or_start(&self.fen)) {
            Ok(listing) => listing,
            Err(e) => return super::exit_status::<()>(Err(e)),
        };
        for line in &listing.lines {
            crate::outln!("{line}");
        }
        if listing.all_legal {
            ExitCode::SUCCESS
        } else {
            eprintln!("error: the book holds a move that is illegal here");
            ExitCode::FAILURE
        }
    }
}

/// What `tarpon book` found: the lines to print, and whether every book move was legal
/// (an illegal one is listed, marked, and makes the command fail).
pub struct Listing {
    pub lines: Vec<String>,
    pub all_legal: bool,
}

/// Lists the entries of `fen` in the book at `path`, highest weight first, with each
/// move's percentage of the position's total weight.
pub fn list(path: &str, fen: &str) -> Result<Listing, String> {
    let book = Book::load(path).map_err(|e| e.to_string())?;
    let position = Position::from_fen(fen, false).map_err(|e| format!("bad FEN: {e}"))?;
    let key = book::position_key(&position, book::fen_en_passant(fen));
    let mut entries: Vec<Entry> = book.entries(key).to_vec();
    // Stable: moves of equal weight keep their order in the file.
    entries.sort_by_key(|e| std::cmp::Reverse(e.weight));
    let total: u64 = entries.iter().map(|e| u64::from(e.weight)).sum();
    let mut lines = vec![format!(
        "key {key:016x}: {} book moves, total weight {total}",
        entries.len()
    )];
    if entries.is_empty() {
        return Ok(Listing {
            lines,
            all_legal: true,
        });
    }
    lines.push(format!(
        "{:<7}{:<9}{:>7}{:>9}",
        "move", "san", "weight", "percent"
    ));
    let mut all_legal = true;
    for entry in &entries {
        let (uci, san) = match book::to_move(&position, entry.raw_move) {
            Some(m) => (to_uci(&position, m), to_san(&position, m)),
            None => {
                all_legal = false;
                (book::raw_move_text(entry.raw_move), "illegal".to_string())
            }
        };
        let percent = format!("{:.1}%", book::percent(entry.weight, total));
        lines.push(format!("{uci:<7}{san:<9}{:>7}{percent:>9}", entry.weight));
    }
    Ok(Listing { lines, all_legal })
}
