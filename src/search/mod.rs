//! The search: finds the best move of a position within the limits of a `go` command.
//!
//! A `go` travels down through these files in one direction, and its answer comes back up
//! the same way:
//!
//! | file | concern |
//! |---|---|
//! | `mod.rs` | what a search is given and gives back (`SearchOptions`, `SearchControl`, `SearchResult`), and [`think`], the one-thread entry |
//! | `threads.rs` | the thread pool: [`threads::SearchThreads`] runs the main thread and the Lazy SMP helpers |
//! | `shared.rs` | what the threads of one search share besides the hash table: stop signals, node counts |
//! | `searcher.rs` | one thread's search state (`Searcher`): the position, its stack and tables; making moves, evaluating |
//! | `root.rs` | the root and its moves: their scores and lines, tablebase ranking, their order |
//! | `iterate.rs` | iterative deepening and aspiration windows, and when to stop |
//! | `alphabeta.rs` | the principal variation search and the quiescence search, in numbered steps |
//! | `answer.rs` | the answer: the thread whose move is played, the ponder move, a weakened level's choice |
//! | `info.rs` | the `info` lines a GUI sees |
//!
//! Below `alphabeta.rs` come the parts it uses: move ordering (`movepick.rs`, `history.rs`,
//! `see.rs`), the hash table (`tt.rs`), the evaluation's correction (`correction.rs`),
//! scores (`score.rs`), the numbers of the search (`params.rs`, `tunable.rs`), the clock
//! (`timeman.rs`), strength levels (`skill.rs`) and the win/draw/loss model (`wdl.rs`).
//!
//! [`think`] runs *iterative deepening*: searches of depth 1, 2, 3, ... each one ordered by
//! what the previous one learned, until the time or another limit runs out. Each iteration
//! searches the root moves with an *aspiration window* around the last score; the
//! principal variation search of `alphabeta.rs` searches them, and everything below them,
//! in one move loop, and its quiescence search extends the leaves. After every iteration
//! the engine reports an `info` line, and at the end the best move.
//!
//! With `Threads` above 1 the search is a *Lazy SMP* search (`threads.rs`): helper threads
//! run the same iterative deepening on the same position, sharing only the transposition
//! table, and the thread with the best completed result supplies the move.
//!
//! With Syzygy tablebases (`SearchOptions::tablebases`), a root position in the tables
//! has its moves ranked by the tables first, and only the best-ranked ones are searched
//! (`root.rs`); below the root, positions right after a capture or pawn move take their
//! win/draw/loss from the tables (`alphabeta.rs`).

mod alphabeta;
mod answer;
pub mod correction;
pub mod history;
mod info;
mod iterate;
mod memory;
pub mod movepick;
pub mod params;
mod root;
pub mod score;
mod searcher;
pub mod see;
mod shared;
pub mod skill;
pub mod threads;
pub mod timeman;
pub mod tt;
pub mod tunable;
pub mod wdl;

use crate::chess::{Move, Position};
use crate::eval::EvalCache;
use crate::eval::nnue::{AccumulatorStack, Net};
use crate::tablebase;
use history::Histories;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use timeman::Limits;
use tt::TranspositionTable;

pub use searcher::network_scale;

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
    let main = searcher::ThreadState {
        histories,
        eval_cache: &mut eval_cache,
        nnue: &mut nnue,
    };
    threads::run(
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
