//! The search: finds the best move of a position within the limits of a `go` command.
//!
//! [`think`] runs *iterative deepening*: searches of depth 1, 2, 3, ... each one ordered by
//! what the previous one learned, until the time or another limit runs out. Each iteration
//! searches the root moves (`root_search`) with an *aspiration window* around the last
//! score; below the root, `alphabeta.rs` has the principal variation search and the
//! quiescence search. After every iteration the engine reports an `info` line, and at the
//! end the best move.
//!
//! With Syzygy tablebases (`SearchOptions::tablebases`), a root position in the tables
//! has its moves ranked by the tables first, and only the best-ranked ones are searched
//! (`setup_tablebases`); below the root, positions right after a capture or pawn move
//! take their win/draw/loss from the tables (`alphabeta.rs`).

mod alphabeta;
pub mod history;
pub mod movepick;
pub mod params;
pub mod score;
pub mod see;
pub mod skill;
pub mod timeman;
pub mod tt;
pub mod wdl;

use crate::chess::movegen::legal_moves;
use crate::chess::notation::to_uci;
use crate::chess::{Move, Position};
use crate::eval::EvalCache;
use crate::tablebase::{self, Miss, RootMetric, Tablebases};
use history::{Histories, PieceTo};
use params::*;
use score::{DRAW, INFINITE, MATE, MATE_BOUND, MAX_PLY, TB_WIN_BOUND};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use timeman::{Limits, TimeManager};
use tt::TranspositionTable;

/// Signals from the UCI thread to a running search.
#[derive(Default)]
pub struct SearchControl {
    /// Stop as soon as possible and report the best move found so far.
    pub stop: AtomicBool,
    /// The search is pondering (thinking on the opponent's time): no time limit applies
    /// until `ponderhit` clears this flag, which also starts the move's clock.
    pub pondering: AtomicBool,
}

/// Where a search sends its `info` lines (standard output for UCI, a buffer in tests).
pub type Reporter = Arc<dyn Fn(&str) + Send + Sync>;

/// Settings of a search that do not come from `go`.
#[derive(Clone)]
pub struct SearchOptions {
    pub multi_pv: usize,
    pub move_overhead: u64,
    /// Receives the `info` lines; `None` keeps the search quiet (`bench`).
    pub report: Option<Reporter>,
    /// Syzygy tablebases and how to use them; `None` without `SyzygyPath`.
    pub tablebases: Option<tablebase::Settings>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multi_pv: 1,
            move_overhead: 10,
            report: None,
            tablebases: None,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `Move::NONE` only when there is no legal move.
    pub best: Move,
    /// The expected reply (the second move of the principal variation), if known.
    pub ponder: Move,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    /// Tablebase probes that found an answer (root moves ranked included).
    pub tb_hits: u64,
}

/// A move at the root with what the search knows about it.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    /// Score from the current iteration (`-INFINITE` if not yet searched or not better
    /// than the best so far) and from the previous one, for ordering.
    score: i32,
    previous_score: i32,
    pv: Vec<Move>,
    seldepth: usize,
    /// The tables' verdict when the root is in them (see `tablebase::RootRank`).
    tb_rank: i32,
    tb_score: i32,
}

impl RootMove {
    /// The score of the deepest search that has scored this move.
    fn known_score(&self) -> i32 {
        if self.score == -INFINITE {
            self.previous_score
        } else {
            self.score
        }
    }
}

/// Per-ply state of the search.
#[derive(Copy, Clone)]
struct Frame {
    static_eval: i32,
    killers: [Move; 2],
    /// The move made from this ply (piece and destination), `None` for a null move.
    moved: Option<PieceTo>,
}

const EMPTY_FRAME: Frame = Frame {
    static_eval: -INFINITE,
    killers: [Move::NONE; 2],
    moved: None,
};

/// How this search uses the tablebases.
#[derive(Default)]
struct TbUse {
    tables: Option<Arc<Tablebases>>,
    /// Positions with at most this many pieces are probed below the root; 0 for none.
    cardinality: usize,
    /// Positions with exactly `cardinality` pieces are probed only at this depth or more.
    probe_depth: i32,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses score as draws.
    rule50: bool,
    /// The root is in the tables: its moves were ranked and the best kept.
    root_in_tb: bool,
    hits: u64,
}

pub struct Searcher<'a> {
    pos: Position,
    tt: &'a TranspositionTable,
    histories: &'a mut Histories,
    control: &'a SearchControl,
    limits: Limits,
    options: SearchOptions,
    time: TimeManager,
    start: Instant,
    pondering: bool,
    nodes: u64,
    seldepth: usize,
    stack: Vec<Frame>,
    /// Triangular principal-variation table: `pv[ply]` is the best line found from `ply`.
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: Vec<usize>,
    root_moves: Vec<RootMove>,
    /// MultiPV: root moves before this index are earlier lines, excluded from this one.
    pv_index: usize,
    completed_depth: i32,
    stopped: bool,
    /// Null-move pruning is disabled below this ply while a null-move cut is verified.
    nmp_min_ply: usize,
    lmr: Vec<[i32; 64]>,
    tb: TbUse,
    /// This search's own evaluation state (the pawn hash table).
    eval_cache: EvalCache,
}

/// Searches `pos` within `limits` and returns the best move. Reports `info` lines on
/// standard output if `options.report` is set; the caller prints `bestmove`.
pub fn think(
    pos: &Position,
    limits: Limits,
    searchmoves: &[Move],
    options: SearchOptions,
    tt: &TranspositionTable,
    histories: &mut Histories,
    control: &SearchControl,
) -> SearchResult {
    let mut searcher = Searcher::new(pos, limits, searchmoves, options, tt, histories, control);
    searcher.iterative_deepening()
}

impl<'a> Searcher<'a> {
    fn new(
        pos: &Position,
        limits: Limits,
        searchmoves: &[Move],
        options: SearchOptions,
        tt: &'a TranspositionTable,
        histories: &'a mut Histories,
        control: &'a SearchControl,
    ) -> Searcher<'a> {
        let root_moves = legal_moves(pos)
            .iter()
            .filter(|m| searchmoves.is_empty() || searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                previous_score: -INFINITE,
                pv: vec![mv],
                seldepth: 0,
                tb_rank: 0,
                tb_score: 0,
            })
            .collect();
        let time = TimeManager::new(&limits, options.move_overhead);
        let mut searcher = Searcher {
            pos: pos.clone(),
            tt,
            histories,
            control,
            pondering: limits.ponder,
            limits,
            options,
            time,
            start: Instant::now(),
            nodes: 0,
            seldepth: 0,
            stack: vec![EMPTY_FRAME; MAX_PLY + 4],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: vec![0; MAX_PLY + 1],
            root_moves,
            pv_index: 0,
            completed_depth: 0,
            stopped: false,
            nmp_min_ply: 0,
            lmr: lmr_table(),
            tb: TbUse::default(),
            eval_cache: EvalCache::new(),
        };
        searcher.setup_tablebases();
        searcher
    }

    /// Prepares the tablebase probes. A root in the tables gets its moves ranked by them;
    /// only the moves of the best rank are kept, so whatever the search then prefers keeps
    /// the win (or the draw) within the fifty-move rule. With DTZ that ranking is all
    /// the tables can add: probes below the root would only give every line the same
    /// score and hide the search's progress (mates, captures), so they are turned off,
    /// as they are when the best the tables promise is a draw or a loss.
    fn setup_tablebases(&mut self) {
        let Some(settings) = self.options.tablebases.clone() else {
            return;
        };
        let max_pieces = settings.tables.max_pieces();
        self.tb = TbUse {
            tables: Some(settings.tables.clone()),
            cardinality: settings.probe_limit.min(max_pieces),
            // A limit above the largest tables loaded leaves no tier too costly to probe.
            probe_depth: if settings.probe_limit > max_pieces {
                0
            } else {
                settings.probe_depth
            },
            rule50: settings.rule50,
            ..TbUse::default()
        };
        if self.pos.occupied().count() as usize > self.tb.cardinality {
            return;
        }
        let moves: Vec<Move> = self.root_moves.iter().map(|rm| rm.mv).collect();
        let mut broken = Vec::new();
        let ranked = tablebase::rank_root_moves(
            &settings.tables,
            &mut self.pos,
            &moves,
            settings.rule50,
            &mut broken,
        );
        for text in broken {
            self.report(&format!("info string Syzygy: {text}"));
        }
        if let Some((ranks, metric)) = ranked {
            self.keep_best_ranked(&ranks);
            self.tb.hits += ranks.len() as u64;
            if metric == RootMetric::Dtz || self.root_moves[0].tb_score <= DRAW {
                self.tb.cardinality = 0;
            }
        }
    }

    /// Ranks the root moves (`ranks` in root-move order) and keeps the best-ranked.
    fn keep_best_ranked(&mut self, ranks: &[tablebase::RootRank]) {
        for (rm, rank) in self.root_moves.iter_mut().zip(ranks) {
            rm.tb_rank = rank.rank;
            rm.tb_score = rank.score;
        }
        self.root_moves
            .sort_by_key(|rm| std::cmp::Reverse(rm.tb_rank));
        let best = self.root_moves[0].tb_rank;
        self.root_moves.retain(|rm| rm.tb_rank == best);
        self.tb.root_in_tb = true;
    }

    /// A tablebase probe failed on a broken table: say so (once per table).
    fn report_miss(&self, miss: Miss) {
        if let Miss::Broken(text) = miss {
            self.report(&format!("info string Syzygy: {text}"));
        }
    }

    fn iterative_deepening(&mut self) -> SearchResult {
        self.tt.new_search();
        if self.root_moves.is_empty() {
            let score = if self.pos.in_check() { -MATE } else { 0 };
            self.report(&format!("info depth 0 score {}", score::to_uci(score)));
            self.wait_while_pondering_or_infinite();
            return SearchResult {
                score,
                ..self.result(0)
            };
        }
        // A forced move under a clock is played at once: thinking cannot change it.
        if self.root_moves.len() == 1 && self.limits.uses_clock() && !self.limits.ponder {
            return self.result(0);
        }

        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        let mut stable_iterations = 0;
        let mut previous_best = Move::NONE;
        let mut previous_score = 0;
        for depth in 1..=max_depth {
            // Scores of this iteration start unknown: if it is stopped early, a move it has
            // not reached must not outrank, with a score from the last iteration, the
            // moves it has already searched deeper.
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
                rm.score = -INFINITE;
            }
            let lines = self.options.multi_pv.clamp(1, self.root_moves.len());
            for pv_index in 0..lines {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.aspiration(depth);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            // Each line was searched with the earlier ones excluded, so a later line can
            // come out better than an earlier one: report (and play) them best first.
            self.root_moves[..lines].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            self.completed_depth = depth;
            for line in 0..lines {
                let text = self.info_line(depth, line, "");
                self.report(&text);
            }

            let best = &self.root_moves[0];
            stable_iterations = if best.mv == previous_best {
                stable_iterations + 1
            } else {
                0
            };
            let score_drop = previous_score - best.score;
            previous_best = best.mv;
            previous_score = best.score;
            if self.limits_reached_after_iteration(stable_iterations, score_drop) {
                break;
            }
        }
        self.wait_while_pondering_or_infinite();
        self.result(self.completed_depth)
    }

    /// Searches the root with a narrow window around the previous score, widening it on
    /// each failure until the true score falls inside.
    fn aspiration(&mut self, depth: i32) {
        let previous = self.root_moves[self.pv_index].previous_score;
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) =
            if depth >= ASPIRATION_MIN_DEPTH && previous.abs() < TB_WIN_BOUND {
                (
                    (previous - delta).max(-INFINITE),
                    (previous + delta).min(INFINITE),
                )
            } else {
                (-INFINITE, INFINITE)
            };
        loop {
            let score = self.root_search(alpha, beta, depth);
            self.sort_root_moves();
            if self.stopped {
                return;
            }
            if score <= alpha {
                let text = self.info_line(depth, self.pv_index, " upperbound");
                self.report(&text);
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                let text = self.info_line(depth, self.pv_index, " lowerbound");
                self.report(&text);
                beta = (score + delta).min(INFINITE);
            } else {
                return;
            }
            delta += delta / 2;
        }
    }

    /// Orders the root moves of the current line best first (earlier lines stay put).
    fn sort_root_moves(&mut self) {
        self.root_moves[self.pv_index..]
            .sort_by_key(|rm| std::cmp::Reverse((rm.score, rm.previous_score)));
    }

    /// One search of the root moves with the window `(alpha, beta)`; scores each root move
    /// it proves better than alpha and returns the best score.
    fn root_search(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let mut best = -INFINITE;
        for i in self.pv_index..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let moved = self
                .pos
                .piece_on(m.from())
                .map(|piece| PieceTo { piece, to: m.to() });
            self.stack[0].moved = moved;
            self.pos.make(m);
            self.nodes += 1;
            let new_depth = depth - 1 + self.pos.in_check() as i32;
            let score = if i == self.pv_index {
                -self.alphabeta(-beta, -alpha, new_depth, 1, false)
            } else {
                let s = -self.alphabeta(-alpha - 1, -alpha, new_depth, 1, true);
                if s > alpha && s < beta {
                    -self.alphabeta(-beta, -alpha, new_depth, 1, false)
                } else {
                    s
                }
            };
            self.pos.unmake();
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_index || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Whether to stop after a completed iteration: a mate found within `go mate`, the
    /// node limit, or the time manager's verdict.
    fn limits_reached_after_iteration(&self, stable_iterations: usize, score_drop: i32) -> bool {
        if self.control.stop.load(Ordering::Relaxed) {
            return true;
        }
        let best = self.root_moves[0].score;
        if let Some(moves) = self.limits.mate
            && best >= MATE_BOUND
            && (MATE - best + 1) / 2 <= moves as i32
        {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            return true;
        }
        !self.pondering
            && !self.limits.infinite
            && self
                .time
                .should_stop_after_iteration(stable_iterations, score_drop)
    }

    /// Called every node: whether the search must stop now. User `stop` always works; the
    /// other limits apply once depth 1 is complete, so there is always a searched move.
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) && self.completed_depth >= 1 {
            self.stopped = true;
            return true;
        }
        if !self.nodes.is_multiple_of(CLOCK_CHECK_NODES) {
            return false;
        }
        if self.control.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return true;
        }
        if self.pondering && !self.control.pondering.load(Ordering::Relaxed) {
            // `ponderhit`: the opponent played the expected move; our clock starts now.
            self.pondering = false;
            self.time.restart();
        }
        if !self.pondering && self.completed_depth >= 1 && self.time.hard_limit_reached() {
            self.stopped = true;
        }
        self.stopped
    }

    /// `go infinite` and `go ponder` must not answer before `stop` (or `ponderhit`), even
    /// when the search has nothing more to do.
    fn wait_while_pondering_or_infinite(&mut self) {
        loop {
            let stop = self.control.stop.load(Ordering::Relaxed);
            let pondering = self.control.pondering.load(Ordering::Relaxed);
            if stop || !(self.limits.infinite || (self.limits.ponder && pondering)) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    fn result(&self, depth: i32) -> SearchResult {
        let best = self.root_moves.first();
        SearchResult {
            best: best.map_or(Move::NONE, |rm| rm.mv),
            ponder: best
                .and_then(|rm| rm.pv.get(1).copied())
                .unwrap_or(Move::NONE),
            score: best.map_or(0, |rm| self.shown_score(rm)),
            depth,
            nodes: self.nodes,
            tb_hits: self.tb.hits,
        }
    }

    /// The score to show for a root move: the search's, unless the root is in the
    /// tablebases and the search found no mate; then the tables' verdict, which the
    /// search (seeing only evaluations below the root) cannot know.
    fn shown_score(&self, rm: &RootMove) -> i32 {
        let score = rm.known_score();
        if self.tb.root_in_tb && !score::is_mate(score) {
            rm.tb_score
        } else {
            score
        }
    }

    fn report(&self, text: &str) {
        if let Some(report) = &self.options.report {
            report(text);
        }
    }

    /// The `info` line of MultiPV line `line` (0-based), `bound` being "", " lowerbound" or
    /// " upperbound".
    fn info_line(&self, depth: i32, line: usize, bound: &str) -> String {
        let rm = &self.root_moves[line];
        let elapsed = self.start.elapsed();
        let nps = (self.nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64;
        let score = self.shown_score(rm);
        // A tablebase score is exact: the window's bound says nothing about it.
        let bound = if score == rm.known_score() { bound } else { "" };
        let pv: Vec<String> = rm.pv.iter().map(|&m| self.pv_text(m, &rm.pv)).collect();
        format!(
            "info depth {depth} seldepth {} multipv {} score {}{bound} nodes {} nps {nps} hashfull {} tbhits {} time {} pv {}",
            rm.seldepth.max(1),
            line + 1,
            score::to_uci(score.clamp(-MATE, MATE)),
            self.nodes,
            self.tt.hashfull(),
            self.tb.hits,
            elapsed.as_millis(),
            pv.join(" ")
        )
    }

    /// UCI text of a PV move, played out from the root to know the board it is made on.
    fn pv_text(&self, m: Move, pv: &[Move]) -> String {
        let mut board = *self.pos.board();
        for &earlier in pv {
            if earlier == m {
                break;
            }
            board.play(earlier);
        }
        to_uci(&board, m)
    }
}

/// Late-move reductions by depth and move number: `LMR_BASE + ln(d) ln(n) / LMR_DIVISOR`.
fn lmr_table() -> Vec<[i32; 64]> {
    (0..64)
        .map(|d| {
            let mut row = [0; 64];
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                if d > 0 {
                    *r = (LMR_BASE + (d as f64).ln() * (n as f64).ln() / LMR_DIVISOR) as i32;
                }
            }
            row
        })
        .collect()
}
