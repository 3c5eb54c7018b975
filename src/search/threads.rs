//! Lazy SMP: searching with several threads.
//!
//! Every thread runs the whole iterative deepening on the same root position, with its own
//! histories, killers, search stack and pawn hash table; the only thing they share is the
//! transposition table (which is lock-free, see `tt.rs`). They help one another through it:
//! a thread that gets somewhere first leaves results and move orderings that the others
//! find and use, so together they reach a given depth sooner than one thread would. Helper
//! threads differ a little from the main thread (see `Searcher::skips_depth`) so that they
//! do not all search the same nodes in the same order.
//!
//! Thread 0, the *main thread*, is in charge: it alone prints `info` lines, watches the
//! clock and the ponder and infinite modes, and decides when the search ends; then it
//! stops the helpers and picks the move (`pick`). The caller prints `bestmove`.
//!
//! # Threads per search, state per thread
//!
//! The helper threads are started for each `go` and end with it, inside a
//! `std::thread::scope`; what a thread learns that is worth keeping between moves (its
//! histories and pawn hash table, `ThreadData`) lives in [`SearchThreads`] and is lent to
//! the thread for the search. Starting a helper (thread and search stacks) costs about a
//! tenth of a millisecond (`go depth 1` from the UCI loop, on a busy two-core machine),
//! little against the time a move takes, and in exchange there is no pool to manage: no
//! sleeping threads, no hand-over of work through condition variables, nothing that can
//! be left running or waiting when a search goes wrong. Scoped threads may borrow the
//! table and their data, so no `Arc` or `unsafe` is needed either.

use super::history::Histories;
use super::score::MATE_BOUND;
use super::timeman::Limits;
use super::tt::TranspositionTable;
use super::{RootMove, SearchControl, SearchOptions, SearchResult, Searcher};
use crate::chess::{Move, Position};
use crate::eval::EvalCache;
use crate::eval::nnue::AccumulatorStack;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;

/// The stack of each search thread. The recursion is at most `MAX_PLY` plies of search
/// and quiescence, a few kilobytes each; this leaves a wide margin. It is only reserved
/// address space: the memory is used as the stack grows.
pub const STACK_BYTES: usize = 64 * 1024 * 1024;

/// What one thread keeps from one search to the next, until `ucinewgame`.
#[derive(Default)]
pub(super) struct ThreadData {
    histories: Histories,
    eval_cache: EvalCache,
    /// The NNUE accumulators of the thread's search line (rebuilt at each root; kept
    /// only so that their memory is reused).
    nnue: AccumulatorStack,
}

impl ThreadData {
    fn state(&mut self) -> ThreadState<'_> {
        ThreadState {
            histories: &mut self.histories,
            eval_cache: &mut self.eval_cache,
            nnue: &mut self.nnue,
        }
    }
}

/// A thread's own state, lent to its `Searcher` for one search.
pub(super) struct ThreadState<'a> {
    pub(super) histories: &'a mut Histories,
    pub(super) eval_cache: &'a mut EvalCache,
    pub(super) nnue: &'a mut AccumulatorStack,
}

/// The search threads of an engine (the `Threads` option) and their per-thread state.
pub struct SearchThreads {
    /// One per thread, the main thread's first; never empty.
    threads: Vec<ThreadData>,
}

impl Default for SearchThreads {
    fn default() -> Self {
        SearchThreads::new(1)
    }
}

impl SearchThreads {
    /// `count` threads (at least one).
    pub fn new(count: usize) -> SearchThreads {
        let mut threads = SearchThreads {
            threads: Vec::new(),
        };
        threads.set_count(count);
        threads
    }

    pub fn count(&self) -> usize {
        self.threads.len()
    }

    /// Changes the number of threads (at least one). The threads that remain keep what
    /// they have learned.
    pub fn set_count(&mut self, count: usize) {
        self.threads.resize_with(count.max(1), ThreadData::default);
    }

    /// Forgets everything every thread has learned (`ucinewgame`).
    pub fn clear(&mut self) {
        for data in &mut self.threads {
            data.histories.clear();
            data.eval_cache = EvalCache::new();
        }
    }

    /// Searches `pos` with every thread, like [`super::think`] does with one.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: Limits,
        searchmoves: &[Move],
        options: SearchOptions,
        tt: &TranspositionTable,
        control: &SearchControl,
    ) -> SearchResult {
        let (main, helpers) = self
            .threads
            .split_first_mut()
            .expect("there is always a main thread");
        search(
            pos,
            limits,
            searchmoves,
            options,
            tt,
            control,
            main.state(),
            helpers,
        )
    }
}

/// One thread's counters, published for the others to read: the main thread's `info`
/// lines show the nodes of all threads, and `go nodes` counts them all. Each is alone on
/// its cache line, so that a thread writing its own does not slow down the others.
#[derive(Default)]
#[repr(align(64))]
struct Counters {
    nodes: AtomicU64,
    tb_hits: AtomicU64,
}

/// What the threads of one search share, besides the transposition table.
pub(super) struct Shared<'c> {
    /// The UCI thread's signals: `stop`, `ponderhit`.
    pub(super) control: &'c SearchControl,
    /// Set when the main thread has finished: the helpers stop too.
    abort: AtomicBool,
    /// Set when a helper has completed the depth of `go depth`: its result is then as deep
    /// as asked for, so the main thread ends the search (and answers, unless it waits for
    /// `stop` or `ponderhit`).
    pub(super) depth_reached: AtomicBool,
    counters: Vec<Counters>,
}

impl<'c> Shared<'c> {
    fn new(threads: usize, control: &'c SearchControl) -> Shared<'c> {
        Shared {
            control,
            abort: AtomicBool::new(false),
            depth_reached: AtomicBool::new(false),
            counters: (0..threads).map(|_| Counters::default()).collect(),
        }
    }

    /// Whether every thread must stop now: `stop`, the main thread's end, or a helper's
    /// completed `go depth`.
    pub(super) fn should_stop(&self) -> bool {
        self.control.stop.load(Ordering::Relaxed)
            || self.abort.load(Ordering::Relaxed)
            || self.depth_reached.load(Ordering::Relaxed)
    }

    /// Publishes thread `id`'s counts and returns the nodes of the other threads, as last
    /// published by them.
    pub(super) fn publish(&self, id: usize, nodes: u64, tb_hits: u64) -> u64 {
        let own = &self.counters[id];
        own.nodes.store(nodes, Ordering::Relaxed);
        own.tb_hits.store(tb_hits, Ordering::Relaxed);
        self.totals(id, 0, 0).0
    }

    /// Nodes and tablebase hits of all threads, counting thread `id`'s own (exact) ones
    /// instead of what it last published.
    pub(super) fn totals(&self, id: usize, nodes: u64, tb_hits: u64) -> (u64, u64) {
        self.counters
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != id)
            .fold((nodes, tb_hits), |(n, t), (_, c)| {
                (
                    n + c.nodes.load(Ordering::Relaxed),
                    t + c.tb_hits.load(Ordering::Relaxed),
                )
            })
    }
}

/// What one thread found, handed to the main thread when the search ends.
pub(super) struct Outcome {
    /// The deepest iteration the thread completed (0 if none).
    pub(super) completed_depth: i32,
    /// Its best root move with its line, `None` only without legal moves.
    pub(super) best: Option<RootMove>,
    pub(super) nodes: u64,
    pub(super) tb_hits: u64,
}

/// The thread whose move is played: the one with the deepest completed iteration, and
/// among those the best score; the main thread when nobody beats it. A proven mate for us
/// beats any depth, shortest first: it is not an estimate that a deeper search could
/// overturn. Helpers that completed no iteration do not take part.
pub(super) fn pick<'o>(main: &'o Outcome, helpers: &'o [Outcome]) -> &'o Outcome {
    helpers
        .iter()
        .filter(|o| o.completed_depth >= 1)
        .fold(main, |best, o| if better(o, best) { o } else { best })
}

fn better(a: &Outcome, b: &Outcome) -> bool {
    let (Some(ra), Some(rb)) = (&a.best, &b.best) else {
        return a.best.is_some();
    };
    let (sa, sb) = (ra.known_score(), rb.known_score());
    if sa >= MATE_BOUND || sb >= MATE_BOUND {
        return sa > sb;
    }
    (a.completed_depth, sa) > (b.completed_depth, sb)
}

/// Sets a flag when dropped: stops the helpers even if the main thread's search panics,
/// since the scope that runs them waits for them to end.
struct RaiseOnDrop<'f>(&'f AtomicBool);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The search with the main thread's state `main` (run on the calling thread) and one
/// helper thread per entry of `helpers`.
#[allow(clippy::too_many_arguments)]
pub(super) fn search(
    pos: &Position,
    limits: Limits,
    searchmoves: &[Move],
    options: SearchOptions,
    tt: &TranspositionTable,
    control: &SearchControl,
    main: ThreadState<'_>,
    helpers: &mut [ThreadData],
) -> SearchResult {
    // One generation per `go`, however many threads search.
    tt.new_search();
    let (limits, options) = match options.skill {
        Some(skill) => skill.restrict(limits, options, pos.board()),
        None => (limits, options),
    };
    let shared = Shared::new(1 + helpers.len(), control);
    let mut main = Searcher::new(pos, limits, searchmoves, options, tt, main, &shared);
    // A strength-limited search is one thread: its node budget is the point.
    if helpers.is_empty() || main.answer_is_immediate() || main.options.skill.is_some() {
        main.iterative_deepening();
        return main.finish(Vec::new());
    }
    let setup = main.helper_setup();
    thread::scope(|scope| {
        let _stop_helpers = RaiseOnDrop(&shared.abort);
        let mut handles = Vec::with_capacity(helpers.len());
        for (i, data) in helpers.iter_mut().enumerate() {
            let id = i + 1;
            let setup = setup.clone();
            let shared = &shared;
            let spawned = thread::Builder::new()
                .name(format!("search {id}"))
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut helper = Searcher::helper(id, setup, tt, data.state(), shared);
                    helper.iterative_deepening();
                    helper.outcome()
                });
            match spawned {
                Ok(handle) => handles.push(handle),
                Err(e) => {
                    main.report(&format!(
                        "info string cannot start search thread {id} ({e}); searching with {id}"
                    ));
                    break;
                }
            }
        }
        main.iterative_deepening();
        shared.abort.store(true, Ordering::Relaxed);
        // A helper that panicked has no outcome; the others' still count.
        let outcomes = handles.into_iter().filter_map(|h| h.join().ok()).collect();
        main.finish(outcomes)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::movegen::legal_moves;
    use crate::search::score::mate_in;

    fn outcome(id: usize, depth: i32, score: i32) -> Outcome {
        let mv = legal_moves(&Position::startpos())[id];
        Outcome {
            completed_depth: depth,
            best: Some(RootMove {
                mv,
                score,
                previous_score: -super::super::INFINITE,
                score_depth: depth,
                score_bound: super::super::tt::Bound::Exact,
                pv: vec![mv],
                seldepth: 0,
                tb_rank: 0,
                tb_score: 0,
                nodes: 0,
            }),
            nodes: 0,
            tb_hits: 0,
        }
    }

    /// The thread `pick` chooses, by the move it found (`outcome` gives each id its own).
    fn picked(main: &Outcome, helpers: &[Outcome]) -> usize {
        let mv = pick(main, helpers).best.as_ref().expect("a move").mv;
        let moves = legal_moves(&Position::startpos());
        moves.iter().position(|&m| m == mv).expect("a start move")
    }

    #[test]
    fn the_deepest_then_best_scoring_thread_is_picked() {
        let main = outcome(0, 10, 30);
        // Shallower helpers lose even with a better score; at equal depth the better
        // score wins; the deepest wins even with a worse score.
        assert_eq!(picked(&main, &[outcome(1, 9, 200)]), 0);
        assert_eq!(picked(&main, &[outcome(1, 10, 30)]), 0, "ties go to main");
        assert_eq!(picked(&main, &[outcome(1, 10, 31), outcome(2, 9, 500)]), 1);
        assert_eq!(picked(&main, &[outcome(1, 10, 31), outcome(2, 11, -50)]), 2);
        // A helper without a completed iteration never counts.
        assert_eq!(picked(&main, &[outcome(1, 0, 900)]), 0);
        // A mate for us beats depth; the shorter mate beats the longer.
        assert_eq!(picked(&main, &[outcome(1, 7, mate_in(9))]), 1);
        let mating = outcome(0, 12, mate_in(9));
        assert_eq!(picked(&mating, &[outcome(1, 14, 900)]), 0);
        assert_eq!(picked(&mating, &[outcome(1, 6, mate_in(5))]), 1);
    }

    #[test]
    fn thread_counts_are_kept_and_at_least_one() {
        let mut threads = SearchThreads::new(0);
        assert_eq!(threads.count(), 1);
        threads.set_count(4);
        assert_eq!(threads.count(), 4);
        threads.set_count(2);
        assert_eq!(threads.count(), 2);
    }
}
