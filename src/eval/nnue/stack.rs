//! The accumulators of the positions on the search's current line, one per ply: each
//! search thread owns an [`AccumulatorStack`] and moves it in step with its position.
//!
//! Making a move only records what the move changes ([`Delta`], read from the board before
//! the move, which still shows the moved and captured pieces) and where the kings stand;
//! nothing is computed. Many positions are never evaluated (a hash-table cutoff, a move
//! pruned right after it is made), so the accumulator of a position is brought up to date
//! only when it is evaluated, each perspective on its own: from the nearest ancestor whose
//! values for it are computed, applying the recorded changes ply by ply. A null move
//! records no change, so its accumulator is a copy of its parent's. The root is computed
//! from scratch ([`AccumulatorStack::reset`]).
//!
//! # King buckets and the refresh table
//!
//! In a network with king buckets (or mirroring, `format.rs`), a king move can change
//! which inputs its own side's perspective uses: every piece's input changes, and an
//! update would cost more than a recomputation. That perspective is then *refreshed*
//! instead, and only it (the other side's view depends on its own king alone). A refresh
//! does not start from nothing: the stack keeps a [`RefreshTable`] with, for each
//! perspective and each view (king bucket and mirror half), the values of the last
//! position refreshed with that view and the pieces they were computed for. Kings return
//! to the same few buckets, and few pieces move between two visits, so bringing such an
//! entry to the current position adds and subtracts a handful of columns where a
//! recomputation adds thirty. The refreshed values are stored back into the entry and
//! copied into the stack.
//!
//! A refresh needs the board of the position, which the stack does not keep for the plies
//! below the current one. So when the way up from the nearest computed ancestor crosses a
//! king move that changed the perspective's view, the perspective is refreshed at the
//! current position directly (from its board), and the plies in between stay uncomputed:
//! a later evaluation of one of them refreshes it in its turn. With a network without
//! king buckets or mirroring (version 2 files, and version 3 with layout `none`), no view
//! ever changes and none of this runs.

use super::accumulator::{Accumulator, Delta};
use super::format::{HIDDEN, View};
use super::network::Net;
use super::simd::{Kernels, Lanes};
use crate::chess::{Bitboard, Board, Color, Move, PieceType, Square};

/// One ply of the line.
#[derive(Clone)]
struct Entry<const H: usize> {
    acc: Accumulator<H>,
    /// What the move into this ply changed (nothing at the root).
    delta: Delta,
    /// Each side's king square in this position (`Color::index`), followed only when
    /// the network's inputs depend on it.
    kings: [Square; 2],
    /// Whether each perspective of `acc` holds this ply's values yet.
    computed: [bool; 2],
}

impl<const H: usize> Entry<H> {
    fn new() -> Entry<H> {
        Entry {
            acc: Accumulator::default(),
            delta: Delta::NONE,
            kings: [Square::A1; 2],
            computed: [false; 2],
        }
    }
}

/// The accumulators along the line from the search's root to the current position.
pub struct AccumulatorStack<const H: usize = HIDDEN> {
    /// `entries[0]` is the root; `entries[top]` the current position. Entries above `top`
    /// are kept for reuse, so a search allocates nothing once the line has been deep once.
    entries: Vec<Entry<H>>,
    top: usize,
    kernels: Kernels,
    table: RefreshTable<H>,
    /// Whether the network of the last `reset` has king buckets or mirroring: if not, the
    /// kings need not be followed and both perspectives are brought up to date together,
    /// as before king buckets (such networks' speed depends on it).
    kings_matter: bool,
}

impl<const H: usize> Default for AccumulatorStack<H> {
    fn default() -> Self {
        AccumulatorStack::with_kernels(Kernels::best())
    }
}

impl<const H: usize> AccumulatorStack<H> {
    pub fn new() -> AccumulatorStack<H> {
        AccumulatorStack::default()
    }

    /// A stack that updates with `kernels` (the tests compare the versions).
    pub fn with_kernels(kernels: Kernels) -> AccumulatorStack<H> {
        AccumulatorStack {
            entries: Vec::new(),
            top: 0,
            kernels,
            table: RefreshTable::default(),
            kings_matter: false,
        }
    }

    pub fn kernels(&self) -> Kernels {
        self.kernels
    }

    /// Starts a new line at `board`, computing its accumulator from scratch, and empties
    /// the refresh table (the network may have changed since the last line).
    pub fn reset(&mut self, board: &Board, net: &Net<H>) {
        if self.entries.is_empty() {
            self.entries.push(Entry::new());
        }
        self.top = 0;
        let root = &mut self.entries[0];
        root.acc.refresh(board, net);
        root.kings = Color::ALL.map(|c| board.king_square(c));
        root.computed = [true; 2];
        self.kings_matter = net.king_buckets().king_dependent();
        if self.kings_matter {
            self.table.reset(net);
        }
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
        let kings_matter = self.kings_matter;
        let mut kings = self.entries[self.top].kings;
        if kings_matter && let Some((color, to)) = delta.king_move() {
            kings[color.index()] = to;
        }
        self.top += 1;
        if self.top == self.entries.len() {
            self.entries.push(Entry::new());
        }
        let entry = &mut self.entries[self.top];
        entry.delta = delta;
        if kings_matter {
            entry.kings = kings;
        }
        entry.computed = [false; 2];
    }

    /// Takes back the last move or null move.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop below the root");
        self.top -= 1;
    }

    /// The current position's accumulator, brought up to date. `board` is the current
    /// position (a perspective whose king changed its view is refreshed from it).
    pub fn current(&mut self, board: &Board, net: &Net<H>) -> &Accumulator<H> {
        debug_assert_eq!(self.kings_matter, net.king_buckets().king_dependent());
        if self.kings_matter {
            for perspective in Color::ALL {
                self.bring_up_to_date(perspective, board, net);
            }
        } else {
            self.update_without_kings(net);
        }
        &self.entries[self.top].acc
    }

    /// Both perspectives by updates from the nearest computed ancestor, for a network
    /// whose inputs do not depend on the kings (both perspectives are then always
    /// computed together, and their views never change).
    #[inline]
    fn update_without_kings(&mut self, net: &Net<H>) {
        let mut computed = self.top;
        while !self.entries[computed].computed[0] {
            computed -= 1;
        }
        for ply in computed + 1..=self.top {
            let (done, todo) = self.entries.split_at_mut(ply);
            let entry = &mut todo[0];
            for perspective in Color::ALL {
                let view = View::plain(perspective);
                entry
                    .acc
                    .apply(&done[ply - 1].acc, &entry.delta, view, net, self.kernels);
            }
            entry.computed = [true; 2];
        }
    }

    /// Computes one perspective of the current position: by updates from the nearest
    /// ancestor where it is computed, or by a refresh if a king move on the way changed
    /// its view (see the module documentation).
    #[inline]
    fn bring_up_to_date(&mut self, perspective: Color, board: &Board, net: &Net<H>) {
        let p = perspective.index();
        let kings = net.king_buckets();
        let view_at = |entry: &Entry<H>| kings.view(perspective, entry.kings[p]);
        let mut computed = self.top;
        while !self.entries[computed].computed[p] {
            let entry = &self.entries[computed];
            let own_king_moved =
                matches!(entry.delta.king_move(), Some((c, _)) if c == perspective);
            if own_king_moved
                && kings.king_dependent()
                && view_at(entry) != view_at(&self.entries[computed - 1])
            {
                let view = view_at(&self.entries[self.top]);
                let top = &mut self.entries[self.top];
                self.table.refresh(
                    top.acc.perspective_mut(perspective),
                    view,
                    board,
                    net,
                    self.kernels,
                );
                top.computed[p] = true;
                return;
            }
            computed -= 1;
        }
        for ply in computed + 1..=self.top {
            let (done, todo) = self.entries.split_at_mut(ply);
            let entry = &mut todo[0];
            let view = view_at(entry);
            entry
                .acc
                .apply(&done[ply - 1].acc, &entry.delta, view, net, self.kernels);
            entry.computed[p] = true;
        }
    }

    /// The network's score of `board`, the current position of the line, for the side to
    /// move, in centipawns.
    #[inline]
    pub fn evaluate(&mut self, board: &Board, net: &Net<H>) -> i32 {
        let kernels = self.kernels;
        let acc = self.current(board, net);
        net.score(acc, board, kernels)
    }
}

/// One perspective's values for one view, and the pieces they were computed for.
#[repr(C, align(64))]
#[derive(Clone)]
struct Cached<const H: usize> {
    values: Lanes<H>,
    /// `pieces[colour][kind]`, as on the board.
    pieces: [[Bitboard; 6]; 2],
}

/// The refresh table (see the module documentation): for each perspective, one
/// `Cached` entry per view ([`View::slot`]), for the network of the last `reset`.
#[derive(Default)]
pub struct RefreshTable<const H: usize> {
    entries: [Vec<Cached<H>>; 2],
}

/// At most this many columns added or subtracted per kernel call in a refresh (the
/// kernel instances a move's update already uses).
const PER_CALL: usize = 2;

impl<const H: usize> RefreshTable<H> {
    /// Every entry to the empty board: the biases, and no pieces.
    fn reset(&mut self, net: &Net<H>) {
        let empty = Cached {
            values: *net.biases(),
            pieces: [[Bitboard::EMPTY; 6]; 2],
        };
        for side in &mut self.entries {
            side.clear();
            side.resize(net.king_buckets().views(), empty.clone());
        }
    }

    /// Sets `dst` to the values of `view`'s perspective on `board`: the entry of that view
    /// brought to `board` by the pieces that differ, then stored back.
    fn refresh(
        &mut self,
        dst: &mut Lanes<H>,
        view: View,
        board: &Board,
        net: &Net<H>,
        kernels: Kernels,
    ) {
        let cached = &mut self.entries[view.perspective().index()][view.slot()];
        // The inputs to add and to subtract: at most the 32 pieces of a board each.
        let (mut adds, mut subs) = ([0u16; 32], [0u16; 32]);
        let (mut add_count, mut sub_count) = (0, 0);
        for color in Color::ALL {
            for kind in PieceType::ALL {
                let now = board.pieces(color, kind);
                let was = &mut cached.pieces[color.index()][kind.index()];
                for sq in now & !*was {
                    adds[add_count] = view.index(color, kind, sq) as u16;
                    add_count += 1;
                }
                for sq in *was & !now {
                    subs[sub_count] = view.index(color, kind, sq) as u16;
                    sub_count += 1;
                }
                *was = now;
            }
        }
        // In steps of up to two columns each way, alternately from the entry into `dst`
        // and back (the kernels read one array and write another), then the last result
        // copied to the other side, so that both end with the refreshed values.
        let (mut adds, mut subs) = (
            adds[..add_count].chunks(PER_CALL),
            subs[..sub_count].chunks(PER_CALL),
        );
        let mut into_dst = true;
        loop {
            let (a, s) = (adds.next().unwrap_or(&[]), subs.next().unwrap_or(&[]));
            if a.is_empty() && s.is_empty() {
                break;
            }
            if into_dst {
                update(kernels, net, dst, &cached.values, a, s);
            } else {
                update(kernels, net, &mut cached.values, dst, a, s);
            }
            into_dst = !into_dst;
        }
        if into_dst {
            *dst = cached.values;
        } else {
            cached.values = *dst;
        }
    }
}

/// `kernels.update` with the columns of up to [`PER_CALL`] inputs each way.
fn update<const H: usize>(
    kernels: Kernels,
    net: &Net<H>,
    dst: &mut Lanes<H>,
    src: &Lanes<H>,
    adds: &[u16],
    subs: &[u16],
) {
    let a = |i: usize| net.column(usize::from(adds[i]));
    let s = |i: usize| net.column(usize::from(subs[i]));
    match (adds.len(), subs.len()) {
        (0, 0) => kernels.update(dst, src, [], []),
        (1, 0) => kernels.update(dst, src, [a(0)], []),
        (0, 1) => kernels.update(dst, src, [], [s(0)]),
        (1, 1) => kernels.update(dst, src, [a(0)], [s(0)]),
        (2, 0) => kernels.update(dst, src, [a(0), a(1)], []),
        (0, 2) => kernels.update(dst, src, [], [s(0), s(1)]),
        (2, 1) => kernels.update(dst, src, [a(0), a(1)], [s(0)]),
        (1, 2) => kernels.update(dst, src, [a(0)], [s(0), s(1)]),
        (2, 2) => kernels.update(dst, src, [a(0), a(1)], [s(0), s(1)]),
        counts => unreachable!("at most {PER_CALL} columns each way, not {counts:?}"),
    }
}
