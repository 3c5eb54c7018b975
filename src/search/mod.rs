//! The search: finds the best move of a position within the limits of a `go` command.
//!
//! [`think`] runs *iterative deepening*: searches of depth 1, 2, 3, ... each one ordered by
//! what the previous one learned, until the time or another limit runs out. Each iteration
//! searches the root moves with an *aspiration window* around the last score; the
//! principal variation search of `alphabeta.rs` searches them, and everything below them,
//! in one move loop, and its quiescence search extends the leaves. After every iteration the engine reports an `info` line, and at the
//! end the best move.
//!
//! With `Threads` above 1 the search is a *Lazy SMP* search (`threads.rs`): helper threads
//! run the same iterative deepening on the same position, sharing only the transposition
//! table, and the thread with the best completed result supplies the move.
//!
//! With Syzygy tablebases (`SearchOptions::tablebases`), a root position in the tables
//! has its moves ranked by the tables first, and only the best-ranked ones are searched
//! (`setup_tablebases`); below the root, positions right after a capture or pawn move
//! take their win/draw/loss from the tables (`alphabeta.rs`).

mod alphabeta;
pub mod correction;
pub mod history;
mod memory;
pub mod movepick;
pub mod params;
pub mod score;
pub mod see;
pub mod skill;
pub mod threads;
pub mod timeman;
pub mod tt;
pub mod tunable;
pub mod wdl;

use crate::chess::movegen::{is_legal, legal_moves};
use crate::chess::notation::to_uci;
use crate::chess::{Bitboard, Move, Position};
use crate::eval::nnue::{AccumulatorStack, Net};
use crate::eval::{EvalCache, endgame};
use crate::tablebase::{self, Miss, RootMetric, Tablebases};
use history::{Histories, PieceTo};
use params::*;
use score::{DRAW, INFINITE, MATE, MATE_BOUND, MAX_PLY, TB_WIN_BOUND};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use threads::Shared;
use timeman::{Limits, TimeManager};
use tt::{Bound, TranspositionTable};

/// Signals from the UCI thread to a running search.
#[derive(Default)]
pub struct SearchControl {
    /// Stop as soon as possible and report the best move found so far.
    pub stop: AtomicBool,
    /// The search is pondering (thinking on the opponent's time): no time limit applies
    /// until `ponderhit` clears this flag, which also starts the move's clock.
    pub pondering: AtomicBool,
    /// When `ponderhit` arrived: the move's clock starts then, not when the search thread
    /// next looks at the flag. Touched once per ponder search, so a mutex costs nothing.
    ponderhit_at: Mutex<Option<Instant>>,
}

impl SearchControl {
    /// Resets the signals for a new search; `ponder` for `go ponder`.
    pub fn begin(&self, ponder: bool) {
        *self.lock_ponderhit() = None;
        self.stop.store(false, Ordering::Relaxed);
        self.pondering.store(ponder, Ordering::Release);
    }

    /// `ponderhit`: the opponent played the expected move, and our clock starts now.
    pub fn ponderhit(&self) {
        // The time is written before the flag is cleared, so a search that sees the flag
        // cleared (the Release/Acquire pair) also finds the time.
        *self.lock_ponderhit() = Some(Instant::now());
        self.pondering.store(false, Ordering::Release);
    }

    /// When `ponderhit` arrived, if it did since `begin`.
    fn ponderhit_time(&self) -> Option<Instant> {
        *self.lock_ponderhit()
    }

    fn lock_ponderhit(&self) -> std::sync::MutexGuard<'_, Option<Instant>> {
        // A panic elsewhere cannot leave an `Option<Instant>` half written: use it anyway.
        self.ponderhit_at
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
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
    /// `UCI_ShowWDL`: add win/draw/loss chances to every `info` score (see `wdl.rs`).
    pub show_wdl: bool,
    /// A strength limit (`UCI_LimitStrength`, `Skill Level`); `None` for full strength.
    pub skill: Option<skill::Skill>,
    /// The network to evaluate with (`Use NNUE`, `EvalFile`); `None` for the hand-crafted
    /// evaluation. The default is the embedded network, which plays better (docs/nnue.md).
    pub nnue: Option<Arc<Net>>,
    /// `Contempt`: a draw by the rules scores this many centipawns below zero for the side
    /// to move at the root (and as much above for its opponent).
    pub contempt: i32,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multi_pv: 1,
            move_overhead: 10,
            report: None,
            tablebases: None,
            show_wdl: false,
            skill: None,
            nnue: Some(Net::embedded()),
            contempt: 0,
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
    /// The iteration `score` comes from, and what kind of result it is: a root move that
    /// failed high or low against the aspiration window has only a bound.
    score_depth: i32,
    score_bound: Bound,
    pv: Vec<Move>,
    seldepth: usize,
    /// The tables' verdict when the root is in them (see `tablebase::RootRank`).
    tb_rank: i32,
    tb_score: i32,
    /// Nodes searched under this move in this search, all iterations together: the time
    /// manager reads how much of the effort the best move took.
    nodes: u64,
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
    /// The move made from this ply when it is quiet, with the squares the opponent
    /// attacked (its quiet-history key), for the child's evaluation to judge it.
    quiet: Option<(Move, Bitboard)>,
    /// The move a singular-extension search leaves out at this ply (`Move::NONE` outside
    /// one).
    excluded: Move,
    /// Double extensions on the line from the root to this ply (they are limited, or a
    /// line could keep extending).
    double_extensions: i32,
}

const EMPTY_FRAME: Frame = Frame {
    static_eval: -INFINITE,
    killers: [Move::NONE; 2],
    moved: None,
    quiet: None,
    excluded: Move::NONE,
    double_extensions: 0,
};

/// How this search uses the tablebases.
#[derive(Default, Clone)]
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
    /// 0 for the main thread, which alone reports and manages the time; 1.. for helpers.
    id: usize,
    pos: Position,
    tt: &'a TranspositionTable,
    histories: &'a mut Histories,
    /// What the threads of this search share besides the table (signals, node counts).
    shared: &'a Shared<'a>,
    limits: Limits,
    options: SearchOptions,
    time: TimeManager,
    start: Instant,
    pondering: bool,
    /// This thread's nodes, exact.
    nodes: u64,
    /// The other threads' nodes as last published (see `threads::Counters`): they count
    /// towards `go nodes`.
    other_nodes: u64,
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
    lmr: Vec<[i32; LMR_TABLE_SIZE]>,
    tb: TbUse,
    /// This thread's own evaluation state (the pawn hash table).
    eval_cache: &'a mut EvalCache,
    /// This thread's NNUE accumulators along the current line, kept in step with `pos`
    /// by `make_move` and `unmake_move` (used only with `options.nnue`).
    nnue: &'a mut AccumulatorStack,
}

/// Searches `pos` within `limits` with one thread and returns the best move. Reports
/// `info` lines if `options.report` is set; the caller prints `bestmove`. For more threads
/// see [`threads::SearchThreads`].
pub fn think(
    pos: &Position,
    limits: Limits,
    searchmoves: &[Move],
    options: SearchOptions,
    tt: &TranspositionTable,
    histories: &mut Histories,
    control: &SearchControl,
) -> SearchResult {
    let mut eval_cache = EvalCache::new();
    let mut nnue = AccumulatorStack::new();
    let main = threads::ThreadState {
        histories,
        eval_cache: &mut eval_cache,
        nnue: &mut nnue,
    };
    threads::search(
        pos,
        limits,
        searchmoves,
        options,
        tt,
        control,
        main,
        &mut [],
    )
}

/// What a helper thread takes over from the main thread's setup: the root position, its
/// (filtered, tablebase-ranked) root moves and the settings.
#[derive(Clone)]
struct HelperSetup {
    pos: Position,
    root_moves: Vec<RootMove>,
    limits: Limits,
    options: SearchOptions,
    tb: TbUse,
}

impl<'a> Searcher<'a> {
    /// The main thread's searcher: finds the root moves (and ranks them by the tablebases).
    fn new(
        pos: &Position,
        limits: Limits,
        searchmoves: &[Move],
        options: SearchOptions,
        tt: &'a TranspositionTable,
        state: threads::ThreadState<'a>,
        shared: &'a Shared<'a>,
    ) -> Searcher<'a> {
        let root_moves = legal_moves(pos)
            .iter()
            .filter(|m| searchmoves.is_empty() || searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                previous_score: -INFINITE,
                score_depth: 0,
                score_bound: Bound::Exact,
                pv: vec![mv],
                seldepth: 0,
                tb_rank: 0,
                tb_score: 0,
                nodes: 0,
            })
            .collect();
        let time = TimeManager::new(&limits, options.move_overhead);
        let mut searcher = Searcher {
            id: 0,
            pos: pos.clone(),
            tt,
            histories: state.histories,
            shared,
            pondering: limits.ponder,
            limits,
            options,
            time,
            start: Instant::now(),
            nodes: 0,
            other_nodes: 0,
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
            eval_cache: state.eval_cache,
            nnue: state.nnue,
        };
        searcher.reset_nnue();
        searcher.setup_tablebases();
        searcher
    }

    /// What helper threads need to search the same root (see `helper`).
    fn helper_setup(&self) -> HelperSetup {
        // Helpers search until the main thread stops them, or to the depth limit; the
        // clock, `go mate`, pondering and `go infinite` are the main thread's business.
        // `go nodes` counts every thread's nodes, so helpers keep that limit too.
        let limits = Limits {
            depth: self.limits.depth,
            nodes: self.limits.nodes,
            ..Limits::default()
        };
        let mut tb = self.tb.clone();
        tb.hits = 0;
        HelperSetup {
            pos: self.pos.clone(),
            root_moves: self.root_moves.clone(),
            limits,
            options: SearchOptions {
                // Only the main thread speaks.
                report: None,
                ..self.options.clone()
            },
            tb,
        }
    }

    /// Helper thread `id`'s searcher, from the main thread's `setup`.
    fn helper(
        id: usize,
        setup: HelperSetup,
        tt: &'a TranspositionTable,
        state: threads::ThreadState<'a>,
        shared: &'a Shared<'a>,
    ) -> Searcher<'a> {
        let time = TimeManager::new(&setup.limits, setup.options.move_overhead);
        let mut searcher = Searcher {
            id,
            pos: setup.pos,
            tt,
            histories: state.histories,
            shared,
            pondering: false,
            limits: setup.limits,
            options: setup.options,
            time,
            start: Instant::now(),
            nodes: 0,
            other_nodes: 0,
            seldepth: 0,
            stack: vec![EMPTY_FRAME; MAX_PLY + 4],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: vec![0; MAX_PLY + 1],
            root_moves: setup.root_moves,
            pv_index: 0,
            completed_depth: 0,
            stopped: false,
            nmp_min_ply: 0,
            lmr: lmr_table(),
            tb: setup.tb,
            eval_cache: state.eval_cache,
            nnue: state.nnue,
        };
        searcher.reset_nnue();
        searcher
    }

    /// Starts the NNUE accumulators at the root (computed from scratch, the only time).
    fn reset_nnue(&mut self) {
        if let Some(net) = &self.options.nnue {
            self.nnue.reset(&self.pos, net);
        }
    }

    // The search makes and takes back moves only through these three functions, so that
    // the position and the NNUE accumulators always describe the same line. (The one
    // exception, tablebase ranking at the root, makes and unmakes each root move on the
    // position alone before any evaluation, leaving the root as it was.)

    /// Makes legal move `m`.
    #[inline(always)]
    fn make_move(&mut self, m: Move) {
        // First, so that the table's memory is on its way while the move is made.
        self.tt.prefetch(self.pos.key_after(m));
        if self.options.nnue.is_some() {
            self.nnue.push(&self.pos, m);
        }
        self.pos.make(m);
    }

    /// Passes the move (null-move pruning).
    #[inline(always)]
    fn make_null_move(&mut self) {
        if self.options.nnue.is_some() {
            self.nnue.push_null();
        }
        self.pos.make_null();
        self.tt.prefetch(self.pos.key());
    }

    /// Takes back the last move or null move.
    #[inline(always)]
    fn unmake_move(&mut self) {
        if self.options.nnue.is_some() {
            self.nnue.pop();
        }
        self.pos.unmake();
    }

    /// The static evaluation of the current position for the side to move: the network's
    /// when there is one, else the hand-crafted evaluation; a lone king against mating
    /// material is a known win, scored by its own drive to mate
    /// (`endgame::known_win_score`).
    #[inline(always)]
    fn evaluate(&mut self) -> i32 {
        if let Some(score) = endgame::known_win_score(self.pos.board()) {
            return score;
        }
        if endgame::known_draw(self.pos.board()) {
            return DRAW;
        }
        match &self.options.nnue {
            Some(net) => {
                let score = self.nnue.evaluate(&self.pos, net);
                // Builds with debug assertions (the tests) check now and then that the
                // incremental accumulators still describe the position the search is in.
                debug_assert!(
                    !self.nodes.is_multiple_of(97) || score == net.evaluate(&self.pos),
                    "NNUE accumulators out of step at {}",
                    self.pos.fen()
                );
                // Scaled by the material left (S-48).
                material_scaled(score, self.pos.board())
            }
            None => crate::eval::evaluate(&self.pos, self.eval_cache),
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
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

    /// Whether the answer needs no search: there is no legal move. No helper thread
    /// starts then.
    fn answer_is_immediate(&self) -> bool {
        self.root_moves.is_empty()
    }

    /// Whether the move is forced and the clock runs: thinking cannot change the move, so
    /// the search goes only `FORCED_MOVE_DEPTH` plies deep, for a score and a ponder move.
    fn forced_on_the_clock(&self) -> bool {
        self.root_moves.len() == 1 && self.limits.uses_clock() && !self.pondering
    }

    /// Searches depth after depth until a limit or a signal ends the search. The main
    /// thread then waits, if it is pondering or in `go infinite`, for the command that
    /// allows it to answer; the caller collects the result (`outcome`, `finish`).
    fn iterative_deepening(&mut self) {
        if self.root_moves.is_empty() {
            let score = self.no_move_score();
            let wdl = self.wdl_text(score);
            self.report(&format!("info depth 0 score {}{wdl}", score::to_uci(score)));
            self.wait_while_pondering_or_infinite();
            return;
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
            if self.skips_depth(depth, max_depth) {
                continue;
            }
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
            // (Formatting a line costs a PV walk: not worth it when nobody reads it, as
            // in datagen, which searches without reporting.)
            if self.is_main() && self.options.report.is_some() {
                for line in 0..lines {
                    let text = self.info_line(depth, line, "");
                    self.report(&text);
                }
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
            if self.limits_reached_after_iteration(stable_iterations, score_drop)
                || (self.forced_on_the_clock() && depth >= FORCED_MOVE_DEPTH)
                || self.mates_are_settled(depth, lines)
            {
                break;
            }
        }
        // A helper that completed the requested depth has a result as good as the main
        // thread's would be: `go depth` is answered then (see `Shared::depth_reached`).
        // Not with MultiPV, whose lines only the main thread reports.
        if !self.is_main()
            && self.limits.depth.is_some()
            && self.completed_depth == max_depth
            && self.options.multi_pv == 1
        {
            self.shared.depth_reached.store(true, Ordering::Relaxed);
        }
        self.wait_while_pondering_or_infinite();
        self.take_a_persons_time();
    }

    /// A strength-limited search on the clock answers when a person of its rating would
    /// (`Skill::think_time`), not the moment its few nodes are spent: `go movetime` takes
    /// its time, a clock a share of it. `stop` ends the wait.
    fn take_a_persons_time(&mut self) {
        let Some(skill) = self.options.skill else {
            return;
        };
        self.notice_ponderhit();
        let Some((planned, most)) = self.time.planned() else {
            return;
        };
        if !self.is_main() || self.pondering || self.root_moves.is_empty() {
            return;
        }
        let target = if self.limits.move_time.is_some() {
            most
        } else {
            let scores: Vec<i32> = self
                .latest_lines()
                .iter()
                .map(RootMove::known_score)
                .collect();
            let position = skill::Situation {
                legal_moves: self.root_moves.len(),
                lead_over_second: scores.get(1).map(|&s| scores[0] - s),
                opening: self.pos.board().fullmove_number() <= skill::OPENING_MOVES,
                known_mate: skill.knows_the_mate(self.pos.board()),
            };
            skill.think_time(
                planned,
                most,
                &position,
                &mut crate::rng::SplitMix64::from_clock(),
            )
        };
        let control = self.shared.control;
        while self.time.elapsed() < target && !control.stop.load(Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// Whether every line of play is a mate (for or against the side to move) that deeper
    /// iterations would only repeat: `depth` is more than twice the longest of them, plus a
    /// margin for the reductions that might have hidden a shorter mate (or a longer
    /// defence). Without this a mated or mating root runs to the deepest depth in
    /// milliseconds, a flood of lines for the log; `go infinite` then waits for `stop`.
    /// A `go depth` gets the depth it asked for.
    fn mates_are_settled(&self, depth: i32, lines: usize) -> bool {
        let lines = &self.root_moves[..lines];
        self.limits.depth.is_none()
            && lines.iter().all(|rm| score::is_mate(rm.score))
            && lines
                .iter()
                .all(|rm| depth >= 2 * (MATE - rm.score.abs()) + MATE_SETTLED_MARGIN)
    }

    /// Helper threads vary their iterations so that they do not all search the same tree
    /// in step with the main thread: odd-numbered helpers skip every other depth (1, 3, 5,
    /// ... for helper 1; 1, 2, 4, 6, ... for helper 3, and so on), so they are often an
    /// iteration ahead and leave deeper results in the table for the others. Even-numbered
    /// helpers search every depth; they still differ from the main thread through their
    /// own histories and the timing of what the others store. Depth 1 and the last depth
    /// are never skipped.
    fn skips_depth(&self, depth: i32, max_depth: i32) -> bool {
        self.id % 2 == 1
            && depth > 1
            && depth < max_depth
            && (depth + (self.id / 2) as i32) % 2 == 0
    }

    /// Searches the root with a narrow window around the previous score, widening it on
    /// each failure until the true score falls inside.
    fn aspiration(&mut self, depth: i32) {
        let previous = self.root_moves[self.pv_index].previous_score;
        let mut delta = ASPIRATION_WINDOW.get();
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
            let score = self.alphabeta(alpha, beta, depth, 0, false);
            self.sort_root_moves();
            if self.stopped {
                return;
            }
            // (Only the main thread reports: helpers need not format the line at all.)
            let reports = self.options.report.is_some();
            if score <= alpha {
                if reports {
                    let text = self.info_line(depth, self.pv_index, " upperbound");
                    self.report(&text);
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                if reports {
                    let text = self.info_line(depth, self.pv_index, " lowerbound");
                    self.report(&text);
                }
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

    /// The percentage of this thread's root nodes, all iterations together, that went into
    /// the current best move: how little competition it has.
    fn best_share(&self) -> u64 {
        let total: u64 = self.root_moves.iter().map(|rm| rm.nodes).sum();
        self.root_moves[0].nodes * 100 / total.max(1)
    }

    /// Whether to stop after a completed iteration: a mate found within `go mate`, the
    /// node limit, or the time manager's verdict.
    fn limits_reached_after_iteration(
        &mut self,
        stable_iterations: usize,
        score_drop: i32,
    ) -> bool {
        self.notice_ponderhit();
        if self.stopped || self.shared.should_stop() {
            return true;
        }
        let best = self.root_moves[0].score;
        if let Some(moves) = self.limits.mate
            && best >= MATE_BOUND
            && (MATE - best + 1) / 2 <= moves as i32
        {
            return true;
        }
        if self
            .limits
            .nodes
            .is_some_and(|n| self.nodes + self.other_nodes >= n)
        {
            return true;
        }
        !self.pondering
            && !self.limits.infinite
            && self.time.should_stop_after_iteration(
                stable_iterations,
                score_drop,
                self.best_share(),
            )
    }

    /// Called every node: whether the search must stop now. The main thread always
    /// completes depth 1 first (at most 481 nodes over the WAC suite), so that even a
    /// `stop` sent right after `go` is answered with a searched move, never the first legal
    /// one. Then `stop`, the node limit and the clock end the search. (`go nodes` counts
    /// the nodes of all threads: a helper's count reaches the others every
    /// `CLOCK_CHECK_NODES` of its nodes.)
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.is_main() && self.completed_depth < 1 {
            return false;
        }
        if self
            .limits
            .nodes
            .is_some_and(|n| self.nodes + self.other_nodes >= n)
        {
            self.stopped = true;
            return true;
        }
        if !self.nodes.is_multiple_of(CLOCK_CHECK_NODES) {
            return false;
        }
        self.other_nodes = self.shared.publish(self.id, self.nodes, self.tb.hits);
        if self.shared.should_stop() {
            self.stopped = true;
            return true;
        }
        self.notice_ponderhit();
        if !self.pondering && self.time.hard_limit_reached() {
            self.stopped = true;
        }
        self.stopped
    }

    /// Looks for `ponderhit`: the opponent played the expected move, so the search now
    /// plays by the clock, counted from the moment `ponderhit` arrived (the search may
    /// notice it a little later). With a single legal move there is nothing to think about:
    /// the search stops and answers at once once it has the forced move's score.
    fn notice_ponderhit(&mut self) {
        if self.pondering && !self.shared.control.pondering.load(Ordering::Acquire) {
            self.pondering = false;
            let at = self.shared.control.ponderhit_time();
            self.time.restart_at(at.unwrap_or_else(Instant::now));
            if self.forced_on_the_clock() && self.completed_depth >= 1 {
                self.stopped = true;
            }
        }
    }

    /// `go infinite` and `go ponder` must not answer before `stop` (or `ponderhit`), even
    /// when the search has nothing more to do: no legal move, a mate found, the depth or
    /// node limit reached. Helpers never wait: they just end.
    fn wait_while_pondering_or_infinite(&mut self) {
        if !self.is_main() {
            return;
        }
        let control = self.shared.control;
        loop {
            let stop = control.stop.load(Ordering::Relaxed);
            let pondering = control.pondering.load(Ordering::Acquire);
            if stop || !(self.limits.infinite || (self.limits.ponder && pondering)) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// The score of a root without legal moves: mated, or stalemate.
    fn no_move_score(&self) -> i32 {
        if self.pos.in_check() { -MATE } else { DRAW }
    }

    /// This thread's share of the result, once it has stopped.
    fn outcome(&self) -> threads::Outcome {
        threads::Outcome {
            completed_depth: self.completed_depth,
            best: self.root_moves.first().cloned(),
            nodes: self.nodes,
            tb_hits: self.tb.hits,
        }
    }

    /// The result of the search, on the main thread once every helper has stopped and
    /// handed in its `outcome`: the move of the thread with the best completed result
    /// (`threads::pick`), with the nodes and tablebase hits of all threads. The last `info`
    /// lines a GUI sees are those of the answer (`report_final`).
    fn finish(&self, helpers: Vec<threads::Outcome>) -> SearchResult {
        let main = self.outcome();
        let nodes = main.nodes + helpers.iter().map(|o| o.nodes).sum::<u64>();
        let tb_hits = main.tb_hits + helpers.iter().map(|o| o.tb_hits).sum::<u64>();
        // MultiPV lines are the main thread's: a helper's best line could repeat one of them.
        let chosen = if self.options.multi_pv == 1 {
            threads::pick(&main, &helpers)
        } else {
            &main
        };
        let Some(best) = &chosen.best else {
            return SearchResult {
                best: Move::NONE,
                ponder: Move::NONE,
                score: self.no_move_score(),
                depth: 0,
                nodes,
                tb_hits,
            };
        };
        let mut lines = match &self.options.skill {
            // A limited level shows only the line it plays, not the better ones it passed.
            Some(skill) => vec![self.weakened_choice(skill).clone()],
            None if self.options.multi_pv == 1 => vec![best.clone()],
            None => self.latest_lines(),
        };
        // The expected reply is the line's second move (completed from the table when the
        // line stops after one move), so that `ponder` is a move the GUI was shown.
        let ponder = self.ponder_move(&lines[0]);
        if ponder.is_some() && lines[0].pv.len() < 2 {
            lines[0].pv.truncate(1);
            lines[0].pv.push(ponder);
        }
        // An iteration that completed has sent these lines already, unless a helper's move
        // is played.
        let shown_already = !self.stopped
            && std::ptr::eq(chosen, &main)
            && self.options.skill.is_none()
            && lines[0].pv.get(1).is_none_or(|&m| m == ponder);
        if !shown_already {
            self.report_final(&lines, chosen.completed_depth, nodes, tb_hits);
        }
        let rm = &lines[0];
        SearchResult {
            best: rm.mv,
            ponder,
            score: self.shown_score(rm),
            depth: Self::latest_depth(rm, chosen.completed_depth),
            nodes,
            tb_hits,
        }
    }

    /// The MultiPV lines by their latest results, best first: a search stopped inside an
    /// iteration has scored some lines at its depth and left the others at the depth
    /// before, and a line it re-searched may have overtaken an earlier one.
    fn latest_lines(&self) -> Vec<RootMove> {
        let count = self.options.multi_pv.clamp(1, self.root_moves.len());
        let mut lines = self.root_moves[..count].to_vec();
        // (A stable sort: equal scores keep the search's order.)
        lines.sort_by_key(|rm| std::cmp::Reverse(rm.known_score()));
        lines
    }

    /// The depth of a root move's latest score: the iteration that scored it, or the last
    /// completed one when the iteration in progress had not reached it.
    fn latest_depth(rm: &RootMove, completed_depth: i32) -> i32 {
        if rm.score == -INFINITE {
            completed_depth
        } else {
            rm.score_depth
        }
    }

    /// The last `info` lines of a search, one per line of play in `lines`, the first being
    /// the move played: each with its latest score (marked as a bound when the aspiration
    /// window left it one), the nodes of all threads and a line that starts with the move
    /// and continues with the `ponder` move.
    fn report_final(&self, lines: &[RootMove], completed_depth: i32, nodes: u64, tb_hits: u64) {
        if !self.is_main() || self.options.report.is_none() {
            return;
        }
        for (i, rm) in lines.iter().enumerate() {
            let bound = match rm.score_bound {
                _ if rm.score == -INFINITE => "",
                Bound::Lower => " lowerbound",
                Bound::Upper => " upperbound",
                Bound::Exact => "",
            };
            let depth = Self::latest_depth(rm, completed_depth).max(1);
            let text = self.format_info(rm, depth, i, bound, nodes, tb_hits);
            self.report(&text);
        }
    }

    /// The move a strength-limited search plays: one of its MultiPV lines, chosen at random
    /// by score (`Skill::choose`), or the best in a mate the setting knows. Clearly
    /// winning, a line that gives the win up or goes back to a position of the game is
    /// left out while another remains. The line keeps its own score and ponder move.
    fn weakened_choice(&self, skill: &skill::Skill) -> &RootMove {
        let lines = &self.root_moves[..self.options.multi_pv.clamp(1, self.root_moves.len())];
        let best = lines
            .iter()
            .map(RootMove::known_score)
            .max()
            .unwrap_or(DRAW);
        let mut choices: Vec<&RootMove> = lines.iter().collect();
        if best >= skill::CLEARLY_WINNING {
            choices.retain(|rm| rm.known_score() > DRAW && !self.goes_back(rm.mv));
            if choices.is_empty() {
                choices = lines.iter().collect();
            }
        }
        if skill.knows_the_mate(self.pos.board()) {
            // (`max_by_key` takes the last of equals: the first in the search's order.)
            return choices
                .iter()
                .rev()
                .max_by_key(|rm| rm.known_score())
                .unwrap();
        }
        let candidates: Vec<(Move, i32)> =
            choices.iter().map(|rm| (rm.mv, rm.known_score())).collect();
        let chosen = skill.choose(&candidates, &mut crate::rng::SplitMix64::from_clock());
        choices
            .iter()
            .find(|rm| rm.mv == chosen)
            .unwrap_or(&choices[0])
    }

    /// Whether playing `mv` at the root brings back a position the game had before.
    fn goes_back(&self, mv: Move) -> bool {
        let mut pos = self.pos.clone();
        pos.make(mv);
        pos.repetitions() > 0
    }

    /// The reply to expect after `rm`'s move, for `bestmove ... ponder`: the second move of
    /// its line or, when the line stops after one move (a table hit cut it short), the
    /// table's move for the position after it. Only a legal move is offered; else none.
    fn ponder_move(&self, rm: &RootMove) -> Move {
        let mut board = *self.pos.board();
        board.play(rm.mv);
        let candidate = match rm.pv.get(1) {
            Some(&m) => m,
            None => self.tt.probe(board.key()).map_or(Move::NONE, |e| e.mv),
        };
        if candidate.is_some() && is_legal(&board, candidate) {
            candidate
        } else {
            Move::NONE
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

    /// ` wdl <w> <d> <l>` for `score` at the root when `UCI_ShowWDL` is on, else nothing.
    fn wdl_text(&self, score: i32) -> String {
        if self.options.show_wdl {
            // The model was fitted on the network's scores before the search scaled them.
            let board = self.pos.board();
            let score = if self.options.nnue.is_some() {
                network_scale(score, board)
            } else {
                score
            };
            format!(" {}", wdl::to_uci(score, wdl::material(board)))
        } else {
            String::new()
        }
    }

    fn report(&self, text: &str) {
        if let Some(report) = &self.options.report {
            report(text);
        }
    }

    /// The `info` line of MultiPV line `line` (0-based), `bound` being "", " lowerbound" or
    /// " upperbound". Nodes and tablebase hits are those of all threads.
    fn info_line(&self, depth: i32, line: usize, bound: &str) -> String {
        let (nodes, tb_hits) = self.shared.totals(self.id, self.nodes, self.tb.hits);
        self.format_info(&self.root_moves[line], depth, line, bound, nodes, tb_hits)
    }

    fn format_info(
        &self,
        rm: &RootMove,
        depth: i32,
        line: usize,
        bound: &str,
        nodes: u64,
        tb_hits: u64,
    ) -> String {
        let elapsed = self.start.elapsed();
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64;
        let score = self.shown_score(rm);
        // A tablebase score is exact: the window's bound says nothing about it.
        let bound = if score == rm.known_score() { bound } else { "" };
        let pv: Vec<String> = rm.pv.iter().map(|&m| self.pv_text(m, &rm.pv)).collect();
        format!(
            "info depth {depth} seldepth {} multipv {} score {}{}{bound} nodes {} nps {nps} hashfull {} tbhits {} time {} pv {}",
            rm.seldepth.max(1),
            line + 1,
            score::to_uci(score.clamp(-MATE, MATE)),
            self.wdl_text(score),
            nodes,
            self.tt.hashfull(),
            tb_hits,
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
fn lmr_table() -> Vec<[i32; LMR_TABLE_SIZE]> {
    let base = f64::from(LMR_BASE_HUNDREDTHS.get()) / 100.0;
    let divisor = f64::from(LMR_DIVISOR_HUNDREDTHS.get()) / 100.0;
    // Every search builds its table (the parameters are tunable at run time), so the
    // logarithms are taken once rather than twice per entry.
    let ln: [f64; LMR_TABLE_SIZE] = std::array::from_fn(|i| (i as f64).ln());
    (0..LMR_TABLE_SIZE)
        .map(|d| {
            let mut row = [0; LMR_TABLE_SIZE];
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                if d > 0 {
                    *r = (base + ln[d] * ln[n] / divisor) as i32;
                }
            }
            row
        })
        .collect()
}

/// The multiplier of the network's score (`MATERIAL_SCALE_*`) with the pieces of `board`
/// on it, in `1 / MATERIAL_SCALE_DIVISOR`.
fn material_scale(board: &crate::chess::Board) -> i32 {
    use crate::chess::PieceType;
    let count = |kind| board.kind(kind).count() as i32;
    MATERIAL_SCALE_BASE
        + MATERIAL_SCALE_MINOR * (count(PieceType::Knight) + count(PieceType::Bishop))
        + MATERIAL_SCALE_ROOK * count(PieceType::Rook)
        + MATERIAL_SCALE_QUEEN * count(PieceType::Queen)
}

/// The network's score of `board` as the search takes it: a little higher with most
/// pieces on the board, lower with few, where an edge is harder to turn into a win and the
/// network's judgement of it less sure.
fn material_scaled(score: i32, board: &crate::chess::Board) -> i32 {
    score * material_scale(board) / MATERIAL_SCALE_DIVISOR
}

/// A search score of `board` with the network evaluating, back on the network's own scale
/// (the material scaling undone; mates and tablebase scores as they are): for what was made
/// from the network's scores, the win/draw/loss model, and what will be, the training data.
pub fn network_scale(score: i32, board: &crate::chess::Board) -> i32 {
    if score::is_decisive(score) {
        score
    } else {
        score * MATERIAL_SCALE_DIVISOR / material_scale(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;

    /// The network's score grows a little with every piece on the board, shrinks with pawns
    /// only, and the win/draw/loss model gets it back on the network's scale.
    #[test]
    fn material_scaling_and_its_inverse() {
        let start = Position::startpos();
        let pawns = Position::from_fen("4k3/pppp4/8/8/8/8/4PPPP/4K3 w - - 0 1", false).unwrap();
        assert_eq!(material_scaled(1000, start.board()), 1074);
        assert_eq!(material_scaled(1000, pawns.board()), 808);
        assert_eq!(material_scaled(-1000, pawns.board()), -808);
        for board in [start.board(), pawns.board()] {
            for score in [-700, -35, 0, 1, 90, 1234] {
                let back = network_scale(material_scaled(score, board), board);
                assert!((back - score).abs() <= 2, "{score} came back as {back}");
            }
            // Mates and tablebase results are not the network's: they stay as they are.
            for decisive in [score::mate_in(3), score::mated_in(4), score::tb_win_in(10)] {
                assert_eq!(network_scale(decisive, board), decisive);
            }
        }
    }
}
