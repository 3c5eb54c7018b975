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
//! stops the helpers and picks the move (`answer::pick`). The caller prints `bestmove`.
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
use super::searcher::{Searcher, ThreadState};
use super::shared::Shared;
use super::timeman::Limits;
use super::tt::TranspositionTable;
use super::{SearchControl, SearchOptions, SearchResult};
use crate::chess::{Move, Position};
use crate::eval::EvalCache;
use crate::eval::nnue::AccumulatorStack;
use std::sync::atomic::{AtomicBool, Ordering};
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
        run(
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

/// Sets a flag when dropped: stops the helpers even if the main thread's search panics,
/// since the scope that runs them waits for them to end.
struct RaiseOnDrop<'f>(&'f AtomicBool);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The search with the main thread's state `main` (run on the calling thread) and one
/// helper thread per entry of `helpers`: each thread's `Searcher` is made here, runs its
/// iterative deepening (`iterate.rs`), and hands in its outcome; the main thread's
/// `finish` (`answer.rs`) turns them into the result.
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
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
