//! `genfens`: opening positions for OpenBench's data-generation workload.
//!
//! An OpenBench client runs `tarpon "genfens N seed S book <None|FILE> [extra]" "quit"`,
//! reads the lines `info string genfens <FEN>`, plays games from those positions with
//! fastchess and archives the PGNs (which `tarpon convert` turns into training data). The
//! openings are drawn as `datagen` draws its own (`datagen::draw_opening`, the same code):
//! a start from the book or the start position (or Chess960), random plies, and a short
//! search that throws away a position already decided. Opening *i* of seed *S* is the one
//! `datagen --seed S` would start game *i* with, so a seed always gives the same openings,
//! and different seeds different ones.
//!
//! `extra` may hold, in any order: `chess960` (or `frc`: Chess960 starts, both sides the
//! same back rank), `dfrc` (double Chess960: each side its own), `plies N` (random plies,
//! N or N+1; default 8, as datagen) and `nodes N` (the search that judges an opening;
//! default 5,000).

use super::datagen::{self, OpeningRules};
use crate::eval::nnue::Net;
use crate::search::SearchControl;
use crate::search::history::Histories;
use crate::search::tt::TranspositionTable;
use std::path::PathBuf;
use std::sync::Arc;

/// The most openings one command may ask for.
pub const MAX_COUNT: u64 = 10_000_000;

/// A `genfens` command understood.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub count: u64,
    pub seed: u64,
    pub book: Option<PathBuf>,
    /// The share of Chess960 starts (0 or 100 here) and whether they are double Chess960.
    pub chess960_percent: u32,
    pub double_chess960: bool,
    pub random_plies: u32,
    pub nodes: u64,
}

const USAGE: &str =
    "expected 'genfens <N> seed <S> book <None|FILE> [chess960|frc|dfrc] [plies <N>] [nodes <N>]'";

/// Reads the words after `genfens`.
pub fn parse(words: &[&str]) -> Result<Request, String> {
    let number = |what: &str, text: Option<&&str>, max: u64| -> Result<u64, String> {
        let text = text.ok_or_else(|| format!("genfens: {what} is missing; {USAGE}"))?;
        match text.parse::<u64>() {
            Ok(n) if n <= max => Ok(n),
            _ => Err(format!(
                "genfens: {what} must be a number up to {max}, not '{text}'"
            )),
        }
    };
    let count = number("the number of openings", words.first(), MAX_COUNT)?;
    let mut request = Request {
        count,
        seed: 0,
        book: None,
        chess960_percent: 0,
        double_chess960: false,
        random_plies: 8,
        nodes: 5000,
    };
    let (mut seed, mut book) = (None, None);
    let mut i = 1;
    while i < words.len() {
        let value = words.get(i + 1);
        match words[i].to_ascii_lowercase().as_str() {
            "seed" => seed = Some(number("the seed", value, u64::MAX)?),
            "book" => {
                let name = value.ok_or_else(|| format!("genfens: the book is missing; {USAGE}"))?;
                book = Some(name.to_string());
            }
            "plies" => request.random_plies = number("plies", value, 100)? as u32,
            "nodes" => request.nodes = number("nodes", value, 1_000_000_000)?.max(1),
            "chess960" | "frc" => {
                (request.chess960_percent, request.double_chess960) = (100, false);
                i += 1;
                continue;
            }
            "dfrc" => {
                (request.chess960_percent, request.double_chess960) = (100, true);
                i += 1;
                continue;
            }
            other => return Err(format!("genfens: unknown word '{other}'; {USAGE}")),
        }
        i += 2;
    }
    request.seed = seed.ok_or_else(|| format!("genfens: the seed is missing; {USAGE}"))?;
    let book = book.ok_or_else(|| format!("genfens: the book is missing; {USAGE}"))?;
    request.book = (!book.eq_ignore_ascii_case("none")).then(|| PathBuf::from(book));
    Ok(request)
}

/// Draws the openings of `request`, evaluating with `nnue`, and gives each to `out` as
/// `info string genfens <FEN>` as soon as it is drawn (OpenBench fails a workload whose
/// engine is silent for 15 s). A book that cannot be read or holds no position is an
/// error before any opening; `control` may stop the run early.
pub fn run(
    request: &Request,
    nnue: Option<Arc<Net>>,
    control: &SearchControl,
    out: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let book = match &request.book {
        Some(path) => Some(datagen::read_book(path).map_err(|e| format!("genfens: {e}"))?),
        None => None,
    };
    let rules = OpeningRules {
        book: book.as_deref(),
        random_plies: request.random_plies,
        chess960_percent: request.chess960_percent,
        double_chess960: request.double_chess960,
        opening_max_score: datagen::Options::default().opening_max_score,
        nodes: request.nodes,
        nnue,
    };
    let tt = TranspositionTable::new(16);
    let mut histories = Histories::new();
    for i in 0..request.count {
        // Each opening from a fresh table and histories: opening i does not depend on
        // the ones before it.
        tt.clear();
        histories.clear();
        let mut rng = datagen::game_rng(request.seed, i);
        let mut rejected = 0;
        let drawn = datagen::draw_opening(
            &rules,
            &mut rng,
            &tt,
            &mut histories,
            control,
            &mut rejected,
        );
        match drawn.map_err(|e| format!("genfens: {e}"))? {
            Some(pos) => out(&format!("info string genfens {}", pos.fen())),
            None => return Ok(()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_as_openbench_writes_it() {
        let r = parse(&["1000", "seed", "7", "book", "None"]).unwrap();
        assert_eq!(
            (r.count, r.seed, r.book.clone(), r.chess960_percent),
            (1000, 7, None, 0)
        );
        let r = parse(&[
            "4",
            "seed",
            "1",
            "book",
            "Books/UHO.epd",
            "dfrc",
            "plies",
            "4",
        ])
        .unwrap();
        assert_eq!(r.book, Some(PathBuf::from("Books/UHO.epd")));
        assert_eq!(
            (r.chess960_percent, r.double_chess960, r.random_plies),
            (100, true, 4)
        );
        let r = parse(&["4", "seed", "1", "book", "none", "frc", "nodes", "1000"]).unwrap();
        assert_eq!(
            (r.chess960_percent, r.double_chess960, r.nodes),
            (100, false, 1000)
        );
        for (bad, words) in [
            (vec![], "the number of openings is missing"),
            (vec!["x", "seed", "1", "book", "None"], "not 'x'"),
            (
                vec!["4", "seed", "abc", "book", "None"],
                "the seed must be a number",
            ),
            (vec!["4", "book", "None"], "the seed is missing"),
            (vec!["4", "seed", "1"], "the book is missing"),
            (vec!["4", "seed", "1", "book"], "the book is missing"),
            (
                vec!["4", "seed", "1", "book", "None", "tb"],
                "unknown word 'tb'",
            ),
            (
                vec!["4", "seed", "1", "book", "None", "plies", "-1"],
                "plies must be",
            ),
        ] {
            let err = parse(&bad).unwrap_err();
            assert!(err.contains(words), "{bad:?}: {err}");
        }
    }
}
