//! `go`: from the command's words to a search on its own thread, and the `bestmove` that
//! answers it.
//!
//! `parse_go` reads the limits (leniently: see the notes of `src/uci/mod.rs`), `go` refuses
//! to search a rejected position and answers from the opening book where it can, and
//! `start_search` moves the engine's state into a new thread that runs
//! `SearchThreads::search` (`src/search/threads.rs`) and prints `bestmove` when it returns.

use super::{Engine, Uci};
use crate::book;
use crate::chess::movegen::legal_moves;
use crate::chess::notation::{parse_uci, to_uci};
use crate::chess::{Move, Position};
use crate::search::SearchOptions;
use crate::search::threads;
use crate::search::timeman::Limits;
use crate::tools::perft::divide_lines;
use std::sync::{Arc, Mutex};

/// A search as `go` asked for it.
#[derive(Clone)]
pub(super) struct Go {
    position: Position,
    limits: Limits,
    searchmoves: Vec<Move>,
}

impl Uci {
    /// `go ...`: starts a search on its own thread (or runs `go perft` at once).
    pub(super) fn go(&mut self, args: &[&str]) {
        if let Some((&"perft", rest)) = args.split_first() {
            match rest {
                [depth] => match depth.parse::<u32>() {
                    Ok(depth) if depth <= 32 => {
                        let (lines, total) = divide_lines(&self.position, depth);
                        for line in lines {
                            self.say(&line);
                        }
                        self.say("");
                        self.say(&format!("Nodes searched: {total}"));
                        self.say("");
                    }
                    _ => self.error("perft depth must be a number from 0 to 32"),
                },
                _ => self.error("expected 'go perft <depth>'"),
            }
            return;
        }
        let (limits, searchmoves) = self.parse_go(args);
        if self.debug {
            self.say(&format!(
                "info string debug: go read as {}",
                describe_limits(&limits)
            ));
        }
        // A search still waiting for `stop` is replaced without its answer.
        self.cancel_search();
        if let Some(reason) = &self.rejected {
            self.error(&format!(
                "no search: the last 'position' command was rejected ({reason})"
            ));
            if limits.infinite || limits.ponder {
                // Answered when `stop` comes, as a search would be.
                self.owed_none = true;
                self.search_waits_for_stop = true;
                self.search_is_ponder = limits.ponder && !limits.infinite;
            } else {
                self.say("bestmove (none)");
            }
            return;
        }
        if self.play_from_book(&limits, &searchmoves) {
            return;
        }
        let position = self.position.clone();
        self.start_search(Go {
            position,
            limits,
            searchmoves,
        });
    }

    /// Reads the `go` parameters. A number may be written as a decimal or with an exponent
    /// (`5000.0`, `1e4`: rounded). A value that is missing or cannot be read is reported
    /// and counts as the smallest there is (a clock or `movetime` of 0 ms, a depth, node
    /// count or mate distance of 1; no increment, no `movestogo`), so that a search meant
    /// to be limited can never become an endless one that loses the game on time.
    fn parse_go(&self, args: &[&str]) -> (Limits, Vec<Move>) {
        let mut limits = Limits {
            received: Some(std::time::Instant::now()),
            ..Limits::default()
        };
        let mut searchmoves = Vec::new();
        let white = self.position.side_to_move() == crate::chess::Color::White;
        // Whether the other side's clock came: then this side's must be on a clock too.
        let mut other_clock = false;
        let mut i = 0;
        while i < args.len() {
            let word = args[i];
            i += 1;
            let mut number = |smallest: Option<i64>| -> Option<i64> {
                let text = args.get(i).filter(|t| !is_go_keyword(t));
                let read = text.and_then(|t| parse_number(t));
                if text.is_some() {
                    i += 1;
                }
                if read.is_none() {
                    let what = text.map_or("no value".to_string(), |t| format!("'{t}'"));
                    let fallback = match smallest {
                        Some(n) => format!("counted as {n}"),
                        None => "ignored".to_string(),
                    };
                    self.error(&format!("go {word}: {what} is not a number; {fallback}"));
                }
                read.or(smallest)
            };
            // Negative clock values (a GUI that let the time run out) count as zero.
            let ms = |n: i64| n.max(0) as u64;
            match word {
                "wtime" | "btime" => {
                    if let Some(n) = number(Some(0)) {
                        if (word == "wtime") == white {
                            limits.time = Some(ms(n));
                        } else {
                            other_clock = true;
                        }
                    }
                }
                "winc" | "binc" => {
                    if let Some(n) = number(None)
                        && (word == "winc") == white
                    {
                        limits.increment = ms(n);
                    }
                }
                // 0 or less is no time control to come (sudden death), as in Stockfish.
                "movestogo" => {
                    limits.moves_to_go = number(None).filter(|&n| n > 0).map(|n| n as u64)
                }
                "movetime" => limits.move_time = number(Some(0)).map(ms),
                "depth" => limits.depth = number(Some(1)).map(|n| n.clamp(1, 255) as i32),
                "nodes" => limits.nodes = number(Some(1)).map(|n| n.max(1) as u64),
                "mate" => limits.mate = number(Some(1)).map(|n| n.clamp(1, 255) as u32),
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "searchmoves" => {
                    while let Some(text) = args.get(i) {
                        match parse_uci(&self.position, text) {
                            Ok(m) => searchmoves.push(m),
                            Err(_) if is_go_keyword(text) => break,
                            Err(e) => self.error(&format!("searchmoves: {e}; ignored")),
                        }
                        i += 1;
                    }
                }
                other => self.error(&format!("go: unknown parameter '{other}'; ignored")),
            }
        }
        // Only the other side's clock: the game is on a clock, but this side's time is not
        // known. Playing as if it were empty is the one choice that cannot lose on time.
        if other_clock && limits.time.is_none() {
            let (mine, theirs) = if white {
                ("wtime", "btime")
            } else {
                ("btime", "wtime")
            };
            self.error(&format!(
                "go: {theirs} without {mine} (the side to move's clock); playing as if it were empty"
            ));
            limits.time = Some(0);
        }
        (limits, searchmoves)
    }

    /// Answers `go` with a book move if the book has one for this position; returns whether
    /// it did. `go infinite`, `go ponder` and `searchmoves` always search: they ask for
    /// analysis or a guess at the opponent's move, not for the move to play now.
    fn play_from_book(&mut self, limits: &Limits, searchmoves: &[Move]) -> bool {
        if limits.infinite || limits.ponder || !searchmoves.is_empty() || !self.within_book_depth()
        {
            return false;
        }
        let Some(book) = self.book.as_mut() else {
            return false;
        };
        let choice = book
            .probe(&self.position, self.setup_en_passant)
            .map(|moves| {
                let total = moves.iter().map(|(_, e)| u64::from(e.weight)).sum();
                book.choose(&moves, self.options.book_best_move)
                    .map(|(m, entry)| (m, entry, total))
            });
        match choice {
            Ok(Some((m, entry, total))) => {
                self.cancel_search();
                let text = book::describe(&self.position, m, entry, total);
                self.say(&format!("info string book move {text}"));
                self.say(&format!("bestmove {}", to_uci(&self.position, m)));
                true
            }
            Ok(None) => false,
            Err(e) => {
                self.error(&format!("{e}; book skipped, searching"));
                false
            }
        }
    }

    /// Whether the game is still within `BookDepth` plies of its start, counted from the
    /// move number so that a game set up from a FEN counts its earlier moves too.
    fn within_book_depth(&self) -> bool {
        let black = u32::from(self.position.side_to_move() == crate::chess::Color::Black);
        let plies = 2 * u32::from(self.position.fullmove_number()).saturating_sub(1) + black;
        plies < self.options.book_depth
    }

    /// Starts `go`'s search on its own thread; its `bestmove` comes from there.
    pub(super) fn start_search(&mut self, go: Go) {
        self.last_go = Some(go.clone());
        let Go {
            position,
            limits,
            searchmoves,
        } = go;
        let mut engine = {
            self.cancel_search();
            self.engine.take().expect("no search is running")
        };
        engine.use_evaluation(self.evaluation());
        self.control.begin(limits.ponder);
        self.search_waits_for_stop = limits.infinite || limits.ponder;
        self.search_is_ponder = limits.ponder && !limits.infinite;
        // (`go mate` alone is not a limit: without a mate to find it never ends.)
        self.search_is_limited = !limits.infinite
            && (limits.uses_clock() || limits.depth.is_some() || limits.nodes.is_some());
        self.answer = Arc::new(Mutex::new(true));
        let answer_wanted = self.answer.clone();
        let control = self.control.clone();
        let out = self.out.clone();
        let options = SearchOptions {
            multi_pv: self.options.multi_pv,
            move_overhead: self.options.move_overhead,
            report: Some(out.clone()),
            tablebases: self.tablebase_settings(),
            show_wdl: self.options.show_wdl,
            skill: self.skill(),
            nnue: self.evaluation(),
            contempt: self.options.contempt,
        };
        let spawned = std::thread::Builder::new()
            .name("search".to_string())
            // Deep recursion (up to MAX_PLY plies of search plus quiescence) needs room.
            .stack_size(threads::STACK_BYTES)
            .spawn(move || {
                let mut engine = engine;
                let result = engine.threads.search(
                    &position,
                    limits,
                    &searchmoves,
                    options,
                    &engine.tt,
                    &control,
                );
                let answer = bestmove_text(&position, result.best, result.ponder);
                if *answer_wanted.lock().unwrap_or_else(|e| e.into_inner()) {
                    out(&answer);
                }
                engine
            });
        match spawned {
            Ok(handle) => self.search = Some(handle),
            Err(e) => {
                // Without a thread there is nothing to search with; answer something legal
                // so the GUI is not left waiting, and rebuild the lost table.
                self.error(&format!("cannot start the search thread: {e}"));
                let best = legal_moves(&self.position)
                    .first()
                    .copied()
                    .unwrap_or(Move::NONE);
                self.say(&bestmove_text(&self.position, best, Move::NONE));
                self.engine = Some(Engine::new(&self.options, self.evaluation()));
            }
        }
    }
}

/// The `bestmove` line: `bestmove (none)` when there is no legal move (Stockfish's form,
/// which GUIs and python-chess read as "no move"), with `ponder <move>` when there is one.
fn bestmove_text(position: &Position, best: Move, ponder: Move) -> String {
    if best.is_none() {
        return "bestmove (none)".to_string();
    }
    let mut text = format!("bestmove {}", to_uci(position, best));
    if ponder.is_some() {
        let mut after = *position.board();
        after.play(best);
        text.push_str(&format!(" ponder {}", to_uci(&after, ponder)));
    }
    text
}

/// A whole number, held to the range of `i64` when it lies beyond: a clock of a hundred
/// digits means "plenty of time", not a typo to ignore (which would leave a search without
/// any clock). `None` for anything that is not an integer.
fn parse_saturating(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse::<i64>().unwrap_or(if text.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}

/// A `go` number: a whole number (see `parse_saturating`), or a decimal or exponent form
/// (`5000.0`, `2.5e3`), rounded and held to the range of `i64`. `None` for anything else
/// (`abc`, `nan`, `inf`, an empty string).
fn parse_number(text: &str) -> Option<i64> {
    if let Some(n) = parse_saturating(text) {
        return Some(n);
    }
    let looks_numeric = text
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        && text.bytes().any(|b| b.is_ascii_digit());
    let value: f64 = text.parse().ok().filter(|_| looks_numeric)?;
    // `as` saturates at the ends of the range.
    value.is_finite().then(|| value.round() as i64)
}

/// `go`'s limits in words, for `debug on`.
fn describe_limits(limits: &Limits) -> String {
    let ms = |v: Option<u64>| v.map_or("-".to_string(), |v| format!("{v} ms"));
    let n = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
    format!(
        "clock {} (increment {} ms, moves to go {}), movetime {}, depth {}, nodes {}, mate {}{}{}",
        ms(limits.time),
        limits.increment,
        n(limits.moves_to_go),
        ms(limits.move_time),
        n(limits.depth.map(|d| d as u64)),
        n(limits.nodes),
        n(limits.mate.map(u64::from)),
        if limits.infinite { ", infinite" } else { "" },
        if limits.ponder { ", ponder" } else { "" },
    )
}

fn is_go_keyword(word: &str) -> bool {
    matches!(
        word,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "movetime"
            | "depth"
            | "nodes"
            | "mate"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}
