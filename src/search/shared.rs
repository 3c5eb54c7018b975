//! What the threads of one search share besides the transposition table: the UCI thread's
//! signals, the flags by which the main thread and the helpers stop one another, and each
//! thread's published node and tablebase-hit counts.

use super::SearchControl;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

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
    pub(super) abort: AtomicBool,
    /// Set when a helper has completed the depth of `go depth`: its result is then as deep
    /// as asked for, so the main thread ends the search (and answers, unless it waits for
    /// `stop` or `ponderhit`).
    pub(super) depth_reached: AtomicBool,
    counters: Vec<Counters>,
}

impl<'c> Shared<'c> {
    pub(super) fn new(threads: usize, control: &'c SearchControl) -> Shared<'c> {
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
