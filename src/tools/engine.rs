//! The engine as the tools for people (`play`, `analyse`, `epd`) use it: a search with its
//! own hash table, whose results come back as moves and evaluations rather than UCI text,
//! and the small pieces of notation those tools share (scores for people, numbered SAN
//! lines, moves typed in either SAN or UCI).

use crate::chess::movegen::legal_moves;
use crate::chess::notation::{MoveError, parse_san, parse_uci, san_matches, to_san};
use crate::chess::{Board, Color, Move, Position};
use crate::search::history::Histories;
use crate::search::timeman::Limits;
use crate::search::tt::{Bound, TranspositionTable};
use crate::search::{SearchControl, SearchOptions, score, think};
use crate::tablebase;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Thinking time per move when the user gives no limit at all.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;
pub const DEFAULT_HASH_MB: usize = 16;

/// The search depth reaches a few hundred plies of recursion (search plus quiescence);
/// the UCI loop gives its search thread the same room.
const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// How the user asked the engine to search: any mix of depth, time and nodes (the first
/// limit reached ends the search), the hash size and optional Syzygy tables.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub depth: Option<i32>,
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
    pub hash_mb: usize,
    /// Directories of Syzygy tables, as for the `SyzygyPath` option.
    pub syzygy: Option<String>,
}

/// How long Tarpon searches a position (`play`, `analyse`, `epd`): the first limit reached
/// ends the search; 1000 ms per move when none is given.
#[derive(clap::Args)]
pub struct SearchArgs {
    /// Search depth in plies (default: no limit; 1000 ms a move when no limit is given)
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(i32).range(1..=200), help_heading = "Search")]
    depth: Option<i32>,
    /// Time per move in milliseconds (default: 1000 ms a move when no limit is given)
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..), help_heading = "Search")]
    movetime: Option<u64>,
    /// Nodes per move (default: no limit; 1000 ms a move when no limit is given)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), help_heading = "Search")]
    nodes: Option<u64>,
    /// Hash table in MB
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB as u32, value_parser = clap::value_parser!(u32).range(1..=65536), help_heading = "Search")]
    hash: u32,
    /// Syzygy tablebase directories, separated by ':' (';' on Windows; default: none)
    #[arg(long, value_name = "DIRS", help_heading = "Search")]
    syzygy: Option<String>,
}

impl From<SearchArgs> for Settings {
    fn from(args: SearchArgs) -> Settings {
        Settings {
            depth: args.depth,
            movetime: args.movetime,
            nodes: args.nodes,
            hash_mb: args.hash as usize,
            syzygy: args.syzygy,
        }
    }
}

impl Settings {
    /// The limits of one search; a fixed time per move when nothing was given, so that a
    /// bare command neither returns at once nor runs forever.
    pub fn limits(&self) -> Limits {
        let nothing_given = self.depth.is_none() && self.movetime.is_none() && self.nodes.is_none();
        Limits {
            depth: self.depth,
            move_time: if nothing_given {
                Some(DEFAULT_MOVETIME_MS)
            } else {
                self.movetime
            },
            nodes: self.nodes,
            ..Limits::default()
        }
    }

    /// The limits in words, for headers and summaries ("depth 8", "1000 ms per move").
    pub fn describe(&self) -> String {
        let limits = self.limits();
        let mut parts = Vec::new();
        if let Some(d) = limits.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(ms) = limits.move_time {
            parts.push(format!("{ms} ms per move"));
        }
        if let Some(n) = limits.nodes {
            parts.push(format!("{n} nodes"));
        }
        parts.join(", ")
    }
}

/// An evaluation as people read it: centipawns, or a mate in so many moves (positive: the
/// side it is counted for mates; negative: it is mated). Always from one side's point of
/// view, which the code holding it knows. For arithmetic (expected scores, comparing
/// moves) the tools keep the search's own score, where a mate already on the board is
/// simply the lowest score and flipping sides is negation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Eval {
    Centipawns(i32),
    Mate(i32),
}

impl Eval {
    /// From an internal search score (side to move's view). `score::to_uci` is the one
    /// place that turns internal scores into units (mates counted in moves, tablebase
    /// wins as large centipawn values), so its text is read back rather than duplicating it.
    pub fn from_score(score: i32) -> Eval {
        Eval::from_uci(&score::to_uci(score.clamp(-score::MATE, score::MATE)))
            .unwrap_or(Eval::Centipawns(0))
    }

    /// From the words after `score` in a UCI `info` line: `cp 35` or `mate -2`.
    fn from_uci(text: &str) -> Option<Eval> {
        let mut words = text.split_whitespace();
        let kind = words.next()?;
        let value: i32 = words.next()?.parse().ok()?;
        match kind {
            "cp" => Some(Eval::Centipawns(value)),
            "mate" => Some(Eval::Mate(value)),
            _ => None,
        }
    }

    /// The same evaluation from the other side's point of view.
    pub fn flip(self) -> Eval {
        match self {
            Eval::Centipawns(cp) => Eval::Centipawns(-cp),
            Eval::Mate(n) => Eval::Mate(-n),
        }
    }

    /// Turns an evaluation for the side `pov` into White's point of view.
    pub fn for_white(self, pov: Color) -> Eval {
        if pov == Color::White {
            self
        } else {
            self.flip()
        }
    }

    /// As in PGN `[%eval]` comments: pawns with two decimals, or `#n` / `#-n` for mates.
    pub fn pgn_text(self) -> String {
        match self {
            Eval::Centipawns(cp) => format!("{:.2}", f64::from(cp) / 100.0),
            Eval::Mate(n) => format!("#{n}"),
        }
    }
}

/// For people: `+0.35`, `-1.20`, `#3` (mate in 3 for the side counted), `#-2`.
impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            Eval::Centipawns(cp) => write!(f, "{:+.2}", f64::from(cp) / 100.0),
            Eval::Mate(n) => write!(f, "#{n}"),
        }
    }
}

/// The expected score (0 = loss, 1 = win) of the side to move, from a search score.
///
/// A logistic curve over centipawns, `1 / (1 + exp(-K * cp))` with K = 0.00368208 per
/// centipawn: the curve lichess fitted to the results of its rated games, which makes +100
/// (a pawn) worth a 59% score and +300 worth 75%. It judges moves by how they turn out
/// between people, which is what annotation marks are for. A mate or a tablebase win is a
/// certain result.
pub fn expected_score(score: i32) -> f64 {
    const K: f64 = 0.003_682_08;
    if score::is_decisive(score) {
        if score > 0 { 1.0 } else { 0.0 }
    } else {
        1.0 / (1.0 + (-K * f64::from(score)).exp())
    }
}

/// One completed iteration of a search, as it is reported while the search goes on.
#[derive(Clone, Debug)]
pub struct Iteration {
    /// Which line of a MultiPV search this is: 1 for the best, 2 for the next...
    pub line: usize,
    pub depth: i32,
    /// `Exact`, except for the last report of a search stopped inside an iteration whose
    /// move has only a bound there (it failed high or low against the aspiration window).
    pub bound: Bound,
    /// From the side to move's point of view.
    pub eval: Eval,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// `Move::NONE` only when the position has no legal move.
    pub best: Move,
    /// The search's score, side to move's point of view (see `search::score`).
    pub score: i32,
    pub depth: i32,
    /// `Exact`, or the bound `score` is when the search stopped inside an iteration in
    /// which its move failed high or low against the aspiration window.
    pub bound: Bound,
    pub nodes: u64,
    pub time: Duration,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
}

impl Analysis {
    /// The score for people, side to move's point of view.
    pub fn eval(&self) -> Eval {
        Eval::from_score(self.score)
    }

    /// The search's score, side to move's view, or `None` when the search answered without
    /// searching: a forced move under a time limit comes back at depth 0 with no score at
    /// all, which must not be shown as a mate ("#0") nor judge a move.
    pub fn searched_score(&self) -> Option<i32> {
        (self.depth >= 1 && self.score.abs() < score::MATE).then_some(self.score)
    }
}

/// A search with its table and histories, kept from one search to the next (the moves of
/// one game help each other) until `clear`.
pub struct Engine {
    tt: TranspositionTable,
    histories: Box<Histories>,
    /// Settings of every search. Future settings of the engine's play (a strength limit)
    /// belong here too, so every tool that searches gets them.
    pub options: SearchOptions,
}

impl Engine {
    /// An engine with a `hash_mb` table and, if `syzygy` names table directories, the
    /// tables found there. Problems with the tables (a missing directory, a bad file) are
    /// returned as notes for the user; the engine works without the tables they concern.
    pub fn new(hash_mb: usize, syzygy: Option<&str>) -> (Engine, Vec<String>) {
        let mut notes = Vec::new();
        let tablebases = syzygy.and_then(|paths| {
            let (tables, found) = tablebase::load(paths);
            notes = found;
            tables.map(|tables| tablebase::Settings {
                tables: Arc::new(tables),
                // The UCI defaults: every table, probed at any depth, fifty-move rule on.
                probe_depth: 1,
                probe_limit: tablebase::MAX_PIECES,
                rule50: true,
            })
        });
        let engine = Engine {
            tt: TranspositionTable::new(hash_mb.max(1)),
            histories: Box::new(Histories::new()),
            options: SearchOptions {
                tablebases,
                ..SearchOptions::default()
            },
        };
        (engine, notes)
    }

    /// Forgets everything learned: the next search starts as a fresh engine would.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.histories.clear();
    }

    /// Searches `pos` (whose move history counts for repetitions) within `limits`, calling
    /// `each` after every completed iteration.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: Limits,
        mut each: impl FnMut(&Iteration),
    ) -> Analysis {
        let control = SearchControl::default();
        self.search_lines(pos, limits, &control, |it| {
            if it.line == 1 {
                each(it)
            }
        })
    }

    /// Like `search`, but `control` can stop the search from another thread, and `each`
    /// sees every line of a MultiPV search (`options.multi_pv`), not only the best.
    pub fn search_lines(
        &mut self,
        pos: &Position,
        mut limits: Limits,
        control: &SearchControl,
        mut each: impl FnMut(&Iteration),
    ) -> Analysis {
        control.begin(false);
        limits.received = Some(Instant::now());
        let start = Instant::now();
        // The search reports iterations only as UCI `info` lines (that is its interface to
        // GUIs); read them back into moves. They travel through a channel because the
        // reporter must be `'static` and runs on the search thread.
        let (sender, receiver) = mpsc::channel::<Iteration>();
        let board = *pos.board();
        let mut options = self.options.clone();
        options.report = Some(Arc::new(move |line: &str| {
            if let Some(iteration) = read_info_line(&board, line) {
                let _ = sender.send(iteration);
            }
        }));
        let (tt, histories) = (&self.tt, &mut *self.histories);
        let (result, last) = std::thread::scope(|scope| {
            let handle = std::thread::Builder::new()
                .name("search".to_string())
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, || {
                    think(pos, limits, &[], options, tt, histories, control)
                })
                .expect("cannot start a search thread");
            // Iterations are passed on as they come until the search thread has finished;
            // then whatever is left in the channel. (Waiting for the channel to close
            // instead would rely on every copy of the reporter being dropped by then.)
            // Bounds are not iterations, except the search's last word on its move.
            let mut last: Option<Iteration> = None;
            let mut take = |iteration: Iteration| {
                if iteration.bound == Bound::Exact {
                    each(&iteration);
                }
                if iteration.line == 1 {
                    last = Some(iteration);
                }
            };
            while !handle.is_finished() {
                // Ctrl-C in a tool that catches it (`interrupt`) stops the search.
                if super::interrupt::interrupted() {
                    control.stop.store(true, Ordering::Relaxed);
                }
                match receiver.recv_timeout(Duration::from_millis(2)) {
                    Ok(iteration) => take(iteration),
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
            receiver.try_iter().for_each(&mut take);
            let result = match handle.join() {
                Ok(result) => result,
                Err(panic) => std::panic::resume_unwind(panic),
            };
            if let Some(it) = last.as_ref().filter(|it| it.bound != Bound::Exact) {
                each(it);
            }
            (result, last)
        });
        // The search's last line leads with its move (the search sends it so); a search
        // that sent none (no legal move, or no reporting) has only its move and reply.
        let (pv, bound) = match last {
            Some(it) if it.pv.first() == Some(&result.best) => (it.pv, it.bound),
            _ if result.best == Move::NONE => (Vec::new(), Bound::Exact),
            _ if result.ponder != Move::NONE => (vec![result.best, result.ponder], Bound::Exact),
            _ => (vec![result.best], Bound::Exact),
        };
        Analysis {
            best: result.best,
            score: result.score,
            depth: result.depth,
            bound,
            nodes: result.nodes,
            time: start.elapsed(),
            pv,
        }
    }
}

/// Reads one line of play from an `info` line, with its bound (`lowerbound` or
/// `upperbound` when an aspiration window failed and the score is not exact). The PV's
/// moves are read on `board` as far as they are legal.
fn read_info_line(board: &Board, line: &str) -> Option<Iteration> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return None;
    }
    let bound = if words.contains(&"lowerbound") {
        Bound::Lower
    } else if words.contains(&"upperbound") {
        Bound::Upper
    } else {
        Bound::Exact
    };
    let after = |key: &str| words.iter().position(|w| *w == key).map(|i| i + 1);
    let number = |key: &str| after(key).and_then(|i| words.get(i)?.parse::<u64>().ok());
    let score_at = after("score")?;
    let eval = Eval::from_uci(&words.get(score_at..score_at + 2)?.join(" "))?;
    let mut pv = Vec::new();
    let mut b = *board;
    for text in &words[after("pv")?..] {
        let Ok(m) = parse_uci(&b, text) else { break };
        pv.push(m);
        b.play(m);
    }
    Some(Iteration {
        line: number("multipv").unwrap_or(1) as usize,
        depth: number("depth")? as i32,
        bound,
        eval,
        nodes: number("nodes").unwrap_or(0),
        time: Duration::from_millis(number("time").unwrap_or(0)),
        pv,
    })
}

/// A line of moves in SAN with move numbers, as books print it: `12. Nf3 d5 13. c4` or,
/// starting with Black, `12... d5 13. c4`.
pub fn san_line(board: &Board, moves: &[Move]) -> String {
    let mut b = *board;
    let mut text = String::new();
    for (i, &m) in moves.iter().enumerate() {
        if !text.is_empty() {
            text.push(' ');
        }
        if b.side_to_move() == Color::White {
            text.push_str(&format!("{}. ", b.fullmove_number()));
        } else if i == 0 {
            text.push_str(&format!("{}... ", b.fullmove_number()));
        }
        text.push_str(&to_san(&b, m));
        b.play(m);
    }
    text
}

/// One move with its number, `12. Nf3` or `12... Nf6`.
pub fn numbered_san(board: &Board, m: Move) -> String {
    san_line(board, &[m])
}

/// Reads a move as a person or a test suite writes it: UCI (`e2e4`, `e7e8q`, castling as
/// `e1g1`) or SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`). A piece letter typed in lower case
/// (`nf3`) is accepted too when nothing else fits; not for `b`, which is a pawn's file.
pub fn parse_move_text(board: &Board, text: &str) -> Result<Move, MoveError> {
    if let Ok(m) = parse_uci(board, text) {
        return Ok(m);
    }
    match parse_san(board, text) {
        Ok(m) => Ok(m),
        Err(error) => match capital_piece(text) {
            // An ambiguous `nb5` says so (its moves are then named), rather than that the
            // text is no move at all.
            Some(upper) => parse_san(board, &upper).map_err(|e| match e {
                MoveError::Ambiguous(_) => e,
                _ => error,
            }),
            None => Err(error),
        },
    }
}

/// `text` with a lower-case piece letter made a capital (`nf3` -> `Nf3`); none for `b`,
/// which is a pawn's file.
fn capital_piece(text: &str) -> Option<String> {
    let mut chars = text.chars();
    match chars.next() {
        Some(c @ ('n' | 'r' | 'q' | 'k')) => {
            Some(format!("{}{}", c.to_ascii_uppercase(), chars.as_str()))
        }
        _ => None,
    }
}

/// The legal moves an ambiguous move text could mean, as `parse_move_text` reads it
/// (`Nb5` with knights on c3 and d4: the one from c3 and the one from d4); empty when the
/// text is not ambiguous.
pub fn ambiguous_moves(board: &Board, text: &str) -> Vec<Move> {
    [Some(text.to_string()), capital_piece(text)]
        .into_iter()
        .flatten()
        .filter_map(|t| san_matches(board, &t).ok())
        .find(|moves| moves.len() > 1)
        .map_or_else(Vec::new, |moves| moves.to_vec())
}

/// The message for output that could not be written (a closed pipe, a full disk).
pub fn write_error(e: std::io::Error) -> String {
    format!("cannot write the output: {e}")
}

/// The legal moves in SAN, in the generator's order, for "legal moves here: ..." help.
pub fn legal_sans(board: &Board) -> Vec<String> {
    legal_moves(board)
        .iter()
        .map(|&m| to_san(board, m))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen::START_FEN;

    #[test]
    fn info_lines_become_iterations() {
        let board = crate::chess::fen::parse(START_FEN, false).unwrap();
        let line = "info depth 5 seldepth 7 multipv 1 score cp 31 nodes 1234 nps 5 hashfull 0 tbhits 0 time 12 pv e2e4 e7e5 g1f3";
        let it = read_info_line(&board, line).unwrap();
        assert_eq!(
            (it.depth, it.eval, it.nodes),
            (5, Eval::Centipawns(31), 1234)
        );
        assert_eq!(san_line(&board, &it.pv), "1. e4 e5 2. Nf3");
        assert_eq!(it.bound, Bound::Exact);
        let bound = "info depth 5 seldepth 7 multipv 1 score cp 31 lowerbound nodes 1 pv e2e4";
        assert_eq!(read_info_line(&board, bound).unwrap().bound, Bound::Lower);
        let mate = "info depth 9 seldepth 9 multipv 1 score mate -2 nodes 1 time 1 pv e2e4";
        assert_eq!(read_info_line(&board, mate).unwrap().eval, Eval::Mate(-2));
        assert!(read_info_line(&board, "info string hello").is_none());
    }

    #[test]
    fn expected_score_is_a_symmetric_logistic() {
        assert!((expected_score(0) - 0.5).abs() < 1e-12);
        let up = expected_score(100);
        assert!((up - 0.591).abs() < 0.001, "{up}");
        assert!((up + expected_score(-100) - 1.0).abs() < 1e-12);
        assert_eq!(expected_score(score::mate_in(5)), 1.0);
        assert_eq!(expected_score(-score::MATE), 0.0);
        assert_eq!(expected_score(score::MATE), 1.0);
    }

    #[test]
    fn scores_for_people() {
        assert_eq!(Eval::from_score(score::mate_in(3)), Eval::Mate(2));
        assert_eq!(Eval::from_score(-57), Eval::Centipawns(-57));
        assert_eq!(Eval::Centipawns(35).to_string(), "+0.35");
        assert_eq!(Eval::Centipawns(-120).pgn_text(), "-1.20");
        assert_eq!(Eval::Mate(2).for_white(Color::Black).to_string(), "#-2");
    }

    #[test]
    fn moves_in_either_notation() {
        let board =
            crate::chess::fen::parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
        for text in ["e1g1", "O-O", "0-0"] {
            let m = parse_move_text(&board, text).unwrap();
            assert_eq!(to_san(&board, m), "O-O", "{text}");
        }
        assert!(parse_move_text(&board, "Ke3").is_err());
        let start = crate::chess::fen::parse(START_FEN, false).unwrap();
        assert_eq!(
            to_san(&start, parse_move_text(&start, "nf3").unwrap()),
            "Nf3"
        );
        assert_eq!(
            san_line(&start, &[parse_move_text(&start, "e4").unwrap()]),
            "1. e4"
        );
        assert!(parse_move_text(&start, "e5").is_err());
    }
}
