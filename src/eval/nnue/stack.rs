//! The accumulators of the positions on the search's current line, one per ply: each
//! search thread owns an [`AccumulatorStack`] and moves it in step with its position.
//!
//! Making a move only records what the move changes ([`Delta`], read from the board before
//! the move, which still shows the moved and captured pieces); nothing is computed. Many
//! positions are never evaluated (a hash-table cutoff, a move pruned right after it is
//! made), so the accumulator of a position is brought up to date only when it is
//! evaluated: from the nearest ancestor whose accumulator is computed, applying the
//! recorded changes ply by ply. A null move records no change, so its accumulator is a
//! copy of its parent's. Only the root is computed from scratch ([`AccumulatorStack::reset`]);
//! with no king buckets in the network, a king move is an ordinary update.

use super::accumulator::{Accumulator, Delta};
use super::net::Net;
use super::simd::Kernels;
use crate::chess::{Board, Move};

/// One ply of the line.
#[derive(Clone)]
struct Entry {
    acc: Accumulator,
    /// What the move into this ply changed (nothing at the root).
    delta: Delta,
    /// Whether `acc` holds this ply's values yet.
    computed: bool,
}

/// The accumulators along the line from the search's root to the current position.
pub struct AccumulatorStack {
    /// `entries[0]` is the root; `entries[top]` the current position. Entries above `top`
    /// are kept for reuse, so a search allocates nothing once the line has been deep once.
    entries: Vec<Entry>,
    top: usize,
    kernels: Kernels,
}

impl Default for AccumulatorStack {
    fn default() -> Self {
        AccumulatorStack::with_kernels(Kernels::best())
    }
}

impl AccumulatorStack {
    pub fn new() -> AccumulatorStack {
        AccumulatorStack::default()
    }

    /// A stack that updates with `kernels` (the tests compare the versions).
    pub fn with_kernels(kernels: Kernels) -> AccumulatorStack {
        AccumulatorStack {
            entries: Vec::new(),
            top: 0,
            kernels,
        }
    }

    pub fn kernels(&self) -> Kernels {
        self.kernels
    }

    /// Starts a new line at `board`, computing its accumulator from scratch.
    pub fn reset(&mut self, board: &Board, net: &Net) {
        if self.entries.is_empty() {
            self.entries.push(Entry {
                acc: Accumulator::default(),
                delta: Delta::NONE,
                computed: false,
            });
        }
        self.top = 0;
        let root = &mut self.entries[0];
        root.acc.refresh(board, net);
        root.computed = true;
    }

    /// How many moves (and null moves) the current position is from the root.
    pub fn ply(&self) -> usize {
        self.top
    }

    /// Records legal move `m`, about to be made on `board`.
    #[inline]
    pub fn push(&mut self, board: &Board, m: Move) {
        self.push_delta(Delta::of_move(board, m));
    }

    /// Records a null move.
    #[inline]
    pub fn push_null(&mut self) {
        self.push_delta(Delta::NONE);
    }

    fn push_delta(&mut self, delta: Delta) {
        debug_assert!(!self.entries.is_empty(), "reset before the first move");
        self.top += 1;
        if self.top == self.entries.len() {
            self.entries.push(Entry {
                acc: Accumulator::default(),
                delta,
                computed: false,
            });
        } else {
            let entry = &mut self.entries[self.top];
            entry.delta = delta;
            entry.computed = false;
        }
    }

    /// Takes back the last move or null move.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop below the root");
        self.top -= 1;
    }

    /// The current position's accumulator, brought up to date.
    pub fn current(&mut self, net: &Net) -> &Accumulator {
        let mut computed = self.top;
        while !self.entries[computed].computed {
            computed -= 1;
        }
        for ply in computed + 1..=self.top {
            let (done, todo) = self.entries.split_at_mut(ply);
            let entry = &mut todo[0];
            entry
                .acc
                .apply(&done[ply - 1].acc, &entry.delta, net, self.kernels);
            entry.computed = true;
        }
        &self.entries[self.top].acc
    }

    /// The network's score of `board`, the current position of the line, for the side to
    /// move, in centipawns.
    #[inline]
    pub fn evaluate(&mut self, board: &Board, net: &Net) -> i32 {
        let kernels = self.kernels;
        let acc = self.current(net);
        net.score(acc, board, kernels)
    }
}
