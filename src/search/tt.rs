//! The transposition table: a large hash table of search results, keyed by Zobrist key, so
//! that a position reached again (by another move order, in a later iteration, or by another
//! search thread) can reuse what was learned about it: its best move to try first, and a
//! score bound that may end the search of that node at once.
//!
//! # Sharing between threads without locks
//!
//! Lazy SMP runs several searches over one table, so every method that the search calls takes
//! `&self` and works on atomics. An entry is two `AtomicU64` words, `check` and `data`, written
//! one after the other with relaxed stores. Two threads writing the same entry at once can
//! leave one thread's `check` next to the other's `data`, and a reader can see a half-written
//! entry. To notice that, `check` holds `key ^ data` rather than the key itself: an entry only
//! counts as a hit for `key` when `check ^ data == key`, which a mixture of two different
//! stores (or a store half done) fails except with probability about 2^-64. So no lock and no
//! `unsafe` is needed, and the worst a race can do is lose an entry, never return one whose
//! fields come from different stores. Probes return a copy ([`TtEntry`]), never a reference.
//!
//! Since `check` recovers the whole 64-bit key, hits are verified on all 64 bits (not only on
//! the bits left over by the indexing). Two different positions with the same Zobrist key can
//! still collide, so the search should check that a table move is legal before playing it.
//!
//! # Layout
//!
//! An entry is 16 bytes; four make a 64-byte bucket, aligned to a cache line, so a probe
//! touches one line of memory. The key picks the bucket (the high half of `key * buckets`,
//! which works for any number of buckets), and the four entries of that bucket are searched
//! for the key. The `data` word packs, from the low bits up:
//!
//! | bits  | field                                                           |
//! |-------|-----------------------------------------------------------------|
//! | 0-15  | best move ([`Move::bits`]), `Move::NONE` if none is known       |
//! | 16-31 | score, `i16`                                                    |
//! | 32-47 | static evaluation, `i16`                                        |
//! | 48-55 | depth + [`DEPTH_OFFSET`], so depth 0 and quiescence depths fit  |
//! | 56-57 | bound: 0 = empty entry, 1 = upper, 2 = lower, 3 = exact         |
//! | 58-62 | generation (the search it was stored in, modulo 32)             |
//! | 63    | PV: the position was on a principal variation when searched     |
//!
//! A stored entry always has a non-zero bound, so an all-zero entry (a fresh or cleared
//! table) is recognisably empty, even for the key 0.
//!
//! # Scores
//!
//! The table stores scores exactly as given and returns them as stored: the caller converts
//! mate scores with [`super::score::to_tt`] before [`TranspositionTable::store`] and with
//! [`super::score::from_tt`] after [`TranspositionTable::probe`], because only the search
//! knows the ply of the node. The static evaluation is not a mate score and needs no
//! conversion.

use super::memory;
use crate::chess::moves::Move;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// The smallest table, in megabytes (MiB): also the size used when asked for 0.
pub const MIN_MB: usize = 1;
/// The largest table, in megabytes (MiB): the maximum of the UCI `Hash` option.
pub const MAX_MB: usize = 65_536;
/// The size of a new table unless the GUI asks for another: the UCI `Hash` default.
pub const DEFAULT_MB: usize = 16;

/// Added to the depth before it is stored in 8 unsigned bits: depths from `-DEPTH_OFFSET`
/// (quiescence search stores depths below 0) up to `255 - DEPTH_OFFSET` fit. Depths outside
/// that range are clamped into it.
pub const DEPTH_OFFSET: i32 = 8;
/// The shallowest depth the table can hold.
pub const MIN_DEPTH: i32 = -DEPTH_OFFSET;
/// The deepest depth the table can hold (above `MAX_PLY`, so any real search depth fits).
pub const MAX_DEPTH: i32 = 255 - DEPTH_OFFSET;

/// When the same position is stored again in the same search, a non-exact result replaces
/// the one already there only if it is at most this many plies shallower. A little slack lets
/// fresher bounds (found with the current aspiration window and move ordering) displace a
/// slightly deeper stale one, as most engines do; a much deeper result is kept.
pub const SAME_KEY_DEPTH_MARGIN: i32 = 2;

/// How many plies of depth one search of age counts for when choosing the entry to
/// replace: an entry from the previous search must be 8 plies deeper than a current one to
/// be kept instead of it, from two searches ago 16 plies, and so on.
const AGE_WEIGHT: i32 = 8;

const ENTRIES_PER_BUCKET: usize = 4;
const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();
const ENTRIES_FOR_HASHFULL: usize = 1000;

// Bit positions and masks of the fields in the `data` word (see the module documentation).
const SCORE_SHIFT: u32 = 16;
const EVAL_SHIFT: u32 = 32;
const DEPTH_SHIFT: u32 = 48;
const BOUND_SHIFT: u32 = 56;
const GENERATION_SHIFT: u32 = 58;
const PV_SHIFT: u32 = 63;
const BOUND_MASK: u64 = 0b11 << BOUND_SHIFT;
/// Generations count modulo 32: they fill the 5 bits below the PV bit.
const GENERATION_MASK: u8 = 0b1_1111;

/// What a stored score says about the true score of the position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Bound {
    /// The search failed low (no move reached alpha): the true score is at most this.
    Upper = 1,
    /// The search failed high (a move reached beta): the true score is at least this.
    Lower = 2,
    /// A principal variation node: the score is exact (for that depth).
    Exact = 3,
}

/// A copy of one table entry, as returned by [`TranspositionTable::probe`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct TtEntry {
    /// The best (or refuting) move found, `Move::NONE` when the search had none (all moves
    /// failed low). Possibly illegal after a key collision: check before playing it.
    pub mv: Move,
    /// The score as stored: still to be converted with `score::from_tt`.
    pub score: i32,
    /// The static evaluation of the position, saved so it need not be computed again.
    pub eval: i32,
    /// The remaining depth the score was searched to (0 or below for quiescence search).
    pub depth: i32,
    pub bound: Bound,
    /// Whether the position was on a principal variation (a PV node, or reached again from
    /// one) when it was stored: the search reduces such positions less, since they are
    /// the ones the result depends on.
    pub pv: bool,
}

/// One entry: `check` is `key ^ data`, so a torn entry fails the key comparison.
#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

impl Entry {
    /// Both words, read together; zero data means the entry is empty.
    #[inline(always)]
    fn load(&self) -> (u64, u64) {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (check, data)
    }

    #[inline(always)]
    fn write(&self, key: u64, data: u64) {
        self.check.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.check.store(0, Ordering::Relaxed);
        self.data.store(0, Ordering::Relaxed);
    }
}

/// The entries one key may go to, on one 64-byte cache line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

const _: () = assert!(BUCKET_BYTES == 64);

fn pack(e: TtEntry, generation: u8) -> u64 {
    let TtEntry {
        mv,
        score,
        eval,
        depth,
        bound,
        pv,
    } = e;
    debug_assert!(
        i16::try_from(score).is_ok(),
        "score {score} does not fit in 16 bits"
    );
    debug_assert!(
        i16::try_from(eval).is_ok(),
        "eval {eval} does not fit in 16 bits"
    );
    let score = score.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
    let eval = eval.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
    let depth = (depth.clamp(MIN_DEPTH, MAX_DEPTH) + DEPTH_OFFSET) as u8;
    u64::from(mv.bits())
        | u64::from(score as u16) << SCORE_SHIFT
        | u64::from(eval as u16) << EVAL_SHIFT
        | u64::from(depth) << DEPTH_SHIFT
        | (bound as u64) << BOUND_SHIFT
        | u64::from(generation & GENERATION_MASK) << GENERATION_SHIFT
        | u64::from(pv) << PV_SHIFT
}

/// The fields of a non-empty `data` word.
fn unpack(data: u64) -> TtEntry {
    TtEntry {
        mv: Move::from_bits(data as u16),
        score: i32::from((data >> SCORE_SHIFT) as u16 as i16),
        eval: i32::from((data >> EVAL_SHIFT) as u16 as i16),
        depth: stored_depth(data) - DEPTH_OFFSET,
        bound: match (data & BOUND_MASK) >> BOUND_SHIFT {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        },
        pv: data >> PV_SHIFT != 0,
    }
}

fn is_empty(data: u64) -> bool {
    data & BOUND_MASK == 0
}

/// The depth with its offset still added (0 to 255): handy for comparisons.
fn stored_depth(data: u64) -> i32 {
    i32::from((data >> DEPTH_SHIFT) as u8)
}

fn generation_of(data: u64) -> u8 {
    (data >> GENERATION_SHIFT) as u8 & GENERATION_MASK
}

/// The shared hash table of search results. See the module documentation.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// The generation of the current search (modulo 32), bumped by `new_search`: entries
    /// from older searches are the first to be replaced and do not count in `hashfull`.
    generation: AtomicU8,
    mb: usize,
}

impl TranspositionTable {
    /// A table of `mb` MiB (at least [`MIN_MB`], at most [`MAX_MB`]).
    ///
    /// # Panics
    /// If the memory cannot be allocated: a new table is made at startup, with a modest size,
    /// where there is nothing to fall back on. Use [`resize`](Self::resize) for sizes chosen
    /// by the user.
    pub fn new(mb: usize) -> TranspositionTable {
        let mb = mb.clamp(MIN_MB, MAX_MB);
        let buckets = allocate(mb * (1 << 20) / BUCKET_BYTES)
            .unwrap_or_else(|e| panic!("transposition table of {mb} MB: {e}"));
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
            mb,
        }
    }

    /// Replaces the table by an empty one of `mb` MiB. The new memory is obtained before the
    /// old is released, so on failure (a size outside `MIN_MB..=MAX_MB`, or not enough
    /// memory) the error is returned and the old table stays as it was, contents included.
    /// The price is that both tables exist for a moment.
    pub fn resize(&mut self, mb: usize) -> Result<(), String> {
        if !(MIN_MB..=MAX_MB).contains(&mb) {
            return Err(format!(
                "hash size {mb} MB is outside the allowed {MIN_MB} to {MAX_MB} MB"
            ));
        }
        let bytes = mb
            .checked_mul(1 << 20)
            .ok_or_else(|| format!("hash size {mb} MB does not fit in memory addresses"))?;
        // Systems that overcommit grant almost any reservation and kill the process later,
        // when the pages are touched; so a table larger than the free memory is refused
        // here, while there is still an old table to keep.
        if let Some(available) = available_memory()
            && bytes as u64 > available
        {
            return Err(format!(
                "hash size {mb} MB is more than the {} MB of memory available",
                available >> 20
            ));
        }
        let buckets =
            allocate(bytes / BUCKET_BYTES).map_err(|e| format!("hash size {mb} MB: {e}"))?;
        self.buckets = buckets;
        self.generation.store(0, Ordering::Relaxed);
        self.mb = mb;
        Ok(())
    }

    /// The size in MiB, as set by `new` or the last successful `resize`.
    pub fn size_mb(&self) -> usize {
        self.mb
    }

    /// Empties every entry and restarts the generations (for `ucinewgame` and "Clear Hash").
    /// It takes `&self` like the rest, but must not run while a search uses the table, or it
    /// would leave a mixture of old and cleared entries (harmless, but not a cleared table).
    pub fn clear(&self) {
        let parts = self.buckets.chunks(part_len(self.buckets.len()));
        std::thread::scope(|scope| {
            for part in parts {
                scope.spawn(|| {
                    for entry in part.iter().flat_map(|bucket| &bucket.entries) {
                        entry.clear();
                    }
                });
            }
        });
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new generation: to call once before each search (`go`), not per thread.
    /// Entries of earlier searches stay usable but become the first candidates to replace.
    pub fn new_search(&self) {
        // Only the low 5 bits are used; u8 wrapping at 256 keeps them counting modulo 32.
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) & GENERATION_MASK
    }

    /// The bucket for `key`. The index is the high half of `key * len`, which maps the keys
    /// evenly onto `0..len` for any `len` (not only powers of two, so any size in MB works)
    /// without a division. It is mostly decided by the high bits of the key.
    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = (u128::from(key) * self.buckets.len() as u128) >> 64;
        &self.buckets[index as usize]
    }

    /// Starts loading the bucket of `key` into the cache, without waiting for it. The
    /// table is far larger than the caches, so a probe usually waits on main memory; the
    /// search calls this as soon as it knows the next position's key, and the load then
    /// overlaps with the work before the probe.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        memory::prefetch(self.bucket(key));
    }

    /// The entry stored for `key`, if any. The score is as stored (see the module
    /// documentation: convert it with `score::from_tt`).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        self.bucket(key).entries.iter().find_map(|entry| {
            let (check, data) = entry.load();
            (check ^ data == key && !is_empty(data)).then(|| unpack(data))
        })
    }

    /// Saves a search result for `key`. `score` must already be converted with
    /// `score::to_tt`; `score` and `eval` must fit in 16 bits (all the engine's scores do),
    /// `depth` is clamped to [`MIN_DEPTH`]`..=`[`MAX_DEPTH`].
    ///
    /// Replacement policy:
    /// - If the bucket already holds `key`, that entry is updated, with two exceptions: a
    ///   non-exact result more than [`SAME_KEY_DEPTH_MARGIN`] plies shallower than an entry
    ///   stored earlier in the same search is dropped (the deeper bound is worth more), and a
    ///   result without a move (`Move::NONE`) keeps the move already stored, which is still
    ///   the best guess to try first.
    /// - Otherwise the entry least worth keeping is replaced: an empty one if any, else the
    ///   one with the lowest depth - 8 * (searches since it was stored). Old and shallow
    ///   entries go first; an entry of the current search is never protected from a
    ///   different key by its depth alone, so the table keeps taking new results.
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let pv = false;
        self.store_entry(
            key,
            TtEntry {
                mv,
                score,
                eval,
                depth,
                bound,
                pv,
            },
        );
    }

    /// [`TranspositionTable::store`] with every field of the entry given, the PV flag
    /// included (the search's way to store).
    pub fn store_entry(&self, key: u64, entry: TtEntry) {
        let TtEntry {
            mv, depth, bound, ..
        } = entry;
        let generation = self.generation();
        let entries = &self.bucket(key).entries;

        let same_key = entries.iter().find_map(|entry| {
            let (check, data) = entry.load();
            (check ^ data == key && !is_empty(data)).then_some((entry, data))
        });

        let (slot, mv) = match same_key {
            Some((entry, old)) => {
                let old_depth = stored_depth(old) - DEPTH_OFFSET;
                let keep_old = bound != Bound::Exact
                    && generation_of(old) == generation
                    && depth < old_depth - SAME_KEY_DEPTH_MARGIN;
                if keep_old {
                    return;
                }
                let mv = if mv.is_some() { mv } else { unpack(old).mv };
                (entry, mv)
            }
            None => {
                let worth = |entry: &Entry| {
                    let data = entry.data.load(Ordering::Relaxed);
                    if is_empty(data) {
                        return i32::MIN;
                    }
                    let age = generation.wrapping_sub(generation_of(data)) & GENERATION_MASK;
                    stored_depth(data) - AGE_WEIGHT * i32::from(age)
                };
                // The first of the least worth: `min_by_key` keeps the first of equal ones.
                let victim = entries.iter().min_by_key(|entry| worth(entry));
                (victim.expect("buckets are not empty"), mv)
            }
        };

        slot.write(key, pack(TtEntry { mv, ..entry }, generation));
    }

    /// How full the table is, in permille, as UCI's `info hashfull` reports it: the share of
    /// the first 1000 entries that hold a result of the current search. Entries of earlier
    /// searches are free to be overwritten, so they do not count.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sampled = self
            .buckets
            .iter()
            .flat_map(|bucket| &bucket.entries)
            .take(ENTRIES_FOR_HASHFULL);
        let mut total = 0;
        let mut used = 0;
        for entry in sampled {
            let data = entry.data.load(Ordering::Relaxed);
            total += 1;
            used += u32::from(!is_empty(data) && generation_of(data) == generation);
        }
        used * 1000 / total.max(1)
    }
}

/// The memory the system can still give without swapping, in bytes, where it says
/// (`MemAvailable` in Linux's `/proc/meminfo`); `None` elsewhere.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// An empty table of `count` buckets, or an error if the memory cannot be had. The memory is
/// reserved with `try_reserve_exact`, which reports failure instead of aborting the process.
/// (On systems that overcommit memory a huge reservation may still succeed and fail only
/// when written; zeroing the whole table here at least makes that happen now, while the
/// table is being made, rather than in the middle of a search.)
fn allocate(count: usize) -> Result<Vec<Bucket>, String> {
    let mut buckets: Vec<Bucket> = Vec::new();
    buckets
        .try_reserve_exact(count)
        .map_err(|e| format!("cannot allocate the transposition table: {e}"))?;
    // Before the first write, which is when the kernel picks the pages.
    memory::advise_huge_pages(buckets.as_mut_ptr().cast(), count * BUCKET_BYTES);
    // The first write to a page is where the time goes (the kernel zeroes it and, for a
    // huge page, may first have to compact memory: a 2 GB table took 0.9 to 4.5 s on one
    // core), so the cores share it.
    let spare = &mut buckets.spare_capacity_mut()[..count];
    let len = part_len(count);
    std::thread::scope(|scope| {
        for part in spare.chunks_mut(len) {
            scope.spawn(|| {
                for bucket in part {
                    bucket.write(Bucket::default());
                }
            });
        }
    });
    // SAFETY: every one of the first `count` buckets was written just above.
    unsafe { buckets.set_len(count) };
    Ok(buckets)
}

/// How many buckets each thread fills or clears: the table split among the cores, in
/// parts of at least 64 MB (below that a thread costs more than it saves).
fn part_len(count: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    count.div_ceil(cores).max((64 << 20) / BUCKET_BYTES).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::types::Square;
    use crate::search::score;

    impl TranspositionTable {
        /// A small table, for tests that need every key in a few buckets.
        fn with_buckets(count: usize) -> TranspositionTable {
            TranspositionTable {
                buckets: allocate(count).unwrap(),
                generation: AtomicU8::new(0),
                mb: 0,
            }
        }

        fn used_entries(&self) -> usize {
            self.buckets
                .iter()
                .flat_map(|b| &b.entries)
                .filter(|e| !is_empty(e.data.load(Ordering::Relaxed)))
                .count()
        }
    }

    /// SplitMix64, to make keys and field values for the tests.
    fn next_random(state: &mut u64) -> u64 {
        let (next, out) = crate::rng::splitmix(*state);
        *state = next;
        out
    }

    fn mv(from: u8, to: u8) -> Move {
        Move::new(Square::new(from), Square::new(to))
    }

    #[test]
    fn layout_is_a_cache_line_of_four_entries() {
        assert_eq!(std::mem::size_of::<Entry>(), 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.buckets.len(), (1 << 20) / 64);
        assert_eq!(tt.size_mb(), 1);
        assert_eq!(TranspositionTable::new(0).size_mb(), MIN_MB);
    }

    #[test]
    fn store_probe_round_trip_of_every_field() {
        let tt = TranspositionTable::new(1);
        let moves = [
            Move::NONE,
            mv(12, 28),
            Move::from_bits(0xFFFF),
            Move::promotion(
                Square::new(52),
                Square::new(60),
                crate::chess::types::PieceType::Queen,
            ),
        ];
        let scores = [
            0,
            -1,
            1,
            -777,
            score::to_tt(score::mate_in(5), 3),
            score::to_tt(score::mated_in(8), 2),
            score::MATE,
            -score::MATE,
            score::INFINITE,
            -score::INFINITE,
            i16::MIN.into(),
            i16::MAX.into(),
        ];
        let depths = [MIN_DEPTH, -1, 0, 1, 7, 100, MAX_DEPTH];
        let bounds = [Bound::Upper, Bound::Lower, Bound::Exact];
        let mut rng = 1;
        for &m in &moves {
            for &s in &scores {
                for &d in &depths {
                    for &b in &bounds {
                        let key = next_random(&mut rng);
                        let eval = -s / 3 - 5;
                        tt.store(key, m, s, eval, d, b);
                        let want = TtEntry {
                            mv: m,
                            score: s,
                            eval,
                            depth: d,
                            bound: b,
                            pv: false,
                        };
                        assert_eq!(tt.probe(key), Some(want));
                    }
                }
            }
        }
        // Mate scores survive the round trip through the ply conversion.
        let key = 0xDEAD_BEEF_0BAD_CAFE;
        tt.store(
            key,
            mv(1, 2),
            score::to_tt(score::mated_in(11), 7),
            0,
            3,
            Bound::Lower,
        );
        let hit = tt.probe(key).unwrap();
        assert_eq!(score::from_tt(hit.score, 7), score::mated_in(11));
        assert_eq!(score::from_tt(hit.score, 4), score::mated_in(8));
    }

    #[test]
    fn out_of_range_depths_are_clamped() {
        let tt = TranspositionTable::new(1);
        tt.store(1, mv(0, 9), 0, 0, -50, Bound::Upper);
        assert_eq!(tt.probe(1).unwrap().depth, MIN_DEPTH);
        tt.store(2, mv(0, 9), 0, 0, 1000, Bound::Upper);
        assert_eq!(tt.probe(2).unwrap().depth, MAX_DEPTH);
    }

    #[test]
    fn missing_keys_and_key_zero_miss() {
        let tt = TranspositionTable::new(1);
        // An all-zero (empty) entry must not pass for the key 0.
        assert_eq!(tt.probe(0), None);
        tt.store(0, mv(3, 4), 10, 20, 5, Bound::Exact);
        assert_eq!(tt.probe(0).unwrap().score, 10);
        // A key in the same bucket but different in its low bits misses.
        assert_eq!(tt.probe(1), None);
        assert_eq!(tt.probe(u64::MAX), None);
    }

    #[test]
    fn same_key_is_updated_in_place() {
        let tt = TranspositionTable::with_buckets(1);
        tt.store(42, mv(1, 2), 10, 1, 4, Bound::Upper);
        tt.store(42, mv(3, 4), 20, 2, 6, Bound::Lower);
        assert_eq!(tt.used_entries(), 1);
        let hit = tt.probe(42).unwrap();
        assert_eq!((hit.mv, hit.score, hit.depth), (mv(3, 4), 20, 6));
        assert_eq!(hit.bound, Bound::Lower);
    }

    #[test]
    fn same_key_without_a_move_keeps_the_old_move() {
        let tt = TranspositionTable::with_buckets(1);
        tt.store(42, mv(1, 2), 10, 1, 4, Bound::Lower);
        tt.store(42, Move::NONE, -30, 1, 5, Bound::Upper);
        let hit = tt.probe(42).unwrap();
        assert_eq!((hit.mv, hit.score, hit.depth), (mv(1, 2), -30, 5));
        assert_eq!(hit.bound, Bound::Upper);
    }

    #[test]
    fn shallow_bounds_do_not_overwrite_deep_entries_of_this_search() {
        let tt = TranspositionTable::with_buckets(1);
        tt.store(7, mv(1, 2), 50, 0, 10, Bound::Lower);
        // Much shallower and not exact: dropped.
        tt.store(
            7,
            mv(3, 4),
            -5,
            0,
            10 - SAME_KEY_DEPTH_MARGIN - 1,
            Bound::Upper,
        );
        assert_eq!(tt.probe(7).unwrap().depth, 10);
        assert_eq!(tt.probe(7).unwrap().mv, mv(1, 2));
        // Within the margin: replaces.
        tt.store(7, mv(3, 4), -5, 0, 10 - SAME_KEY_DEPTH_MARGIN, Bound::Upper);
        assert_eq!(tt.probe(7).unwrap().depth, 10 - SAME_KEY_DEPTH_MARGIN);

        // An exact result always replaces, however shallow.
        tt.store(8, mv(1, 2), 50, 0, 20, Bound::Lower);
        tt.store(8, mv(5, 6), 11, 0, 1, Bound::Exact);
        assert_eq!(tt.probe(8).unwrap().depth, 1);
        assert_eq!(tt.probe(8).unwrap().bound, Bound::Exact);

        // An entry of an earlier search is replaced even by a shallow bound.
        tt.store(9, mv(1, 2), 50, 0, 20, Bound::Lower);
        tt.new_search();
        tt.store(9, mv(5, 6), 11, 0, 1, Bound::Upper);
        assert_eq!(tt.probe(9).unwrap().depth, 1);
        assert_eq!(tt.used_entries(), 3);
    }

    #[test]
    fn replacement_prefers_shallow_entries() {
        let tt = TranspositionTable::with_buckets(1);
        // Fill the only bucket with depths 5, 2, 9, 7.
        for (key, depth) in [(1, 5), (2, 2), (3, 9), (4, 7)] {
            tt.store(key, mv(1, 2), 0, 0, depth, Bound::Exact);
        }
        assert_eq!(tt.used_entries(), 4);
        tt.store(5, mv(1, 2), 0, 0, 1, Bound::Exact);
        assert_eq!(tt.probe(2), None, "the shallowest entry goes");
        for key in [1, 3, 4, 5] {
            assert!(tt.probe(key).is_some());
        }
        // Now 5 (depth 1) is the shallowest.
        tt.store(6, mv(1, 2), 0, 0, 30, Bound::Upper);
        assert_eq!(tt.probe(5), None);
        assert_eq!(tt.probe(6).unwrap().depth, 30);
    }

    #[test]
    fn replacement_prefers_old_entries() {
        let tt = TranspositionTable::with_buckets(1);
        // Deep entries from an earlier search...
        tt.store(1, mv(1, 2), 0, 0, 12, Bound::Exact);
        tt.store(2, mv(1, 2), 0, 0, 20, Bound::Exact);
        tt.new_search();
        // ...and shallow ones from this search.
        tt.store(3, mv(1, 2), 0, 0, 5, Bound::Exact);
        tt.store(4, mv(1, 2), 0, 0, 6, Bound::Exact);
        // 12 - 8 = 4 is worth less than 5: the old depth-12 entry goes first.
        tt.store(5, mv(1, 2), 0, 0, 3, Bound::Exact);
        assert_eq!(tt.probe(1), None);
        // Worths now: 2 -> 20 - 8 = 12, 3 -> 5, 4 -> 6, 5 -> 3.
        tt.store(6, mv(1, 2), 0, 0, 3, Bound::Exact);
        assert_eq!(tt.probe(5), None);
        // Two searches later, depth-0 results of the current search fill the bucket: the
        // entries of the previous search go first (shallowest first), and finally even the
        // depth-20 one, three searches old (20 - 24 < 0), loses to a fresh depth-0 entry.
        tt.new_search();
        tt.new_search();
        for (key, gone) in [(7, 6), (8, 3), (9, 4), (10, 2)] {
            tt.store(key, mv(1, 2), 0, 0, 0, Bound::Exact);
            assert_eq!(tt.probe(gone), None, "key {gone} replaced by {key}");
        }
        for key in [7, 8, 9, 10] {
            assert!(tt.probe(key).is_some(), "key {key}");
        }
    }

    #[test]
    fn generations_wrap_around() {
        let tt = TranspositionTable::with_buckets(1);
        for _ in 0..300 {
            tt.new_search();
        }
        // 300 wraps to 44 in the u8 counter, which is 12 modulo 32.
        assert_eq!(tt.generation(), 12);
        tt.store(1, mv(1, 2), 3, 4, 5, Bound::Exact);
        assert_eq!(tt.probe(1).unwrap().depth, 5);
        assert_eq!(tt.hashfull(), 1000 / 4);
    }

    #[test]
    fn torn_entries_are_not_hits() {
        let tt = TranspositionTable::with_buckets(1);
        tt.store(99, mv(1, 2), 10, 20, 3, Bound::Lower);
        let entry = &tt.buckets[0].entries[0];
        let (check, good) = entry.load();
        assert_eq!(check ^ good, 99);
        // Another store's data next to this store's check word: what a race can leave.
        let other = pack(
            TtEntry {
                mv: mv(5, 6),
                score: -40,
                eval: 7,
                depth: 9,
                bound: Bound::Upper,
                pv: false,
            },
            0,
        );
        entry.data.store(other, Ordering::Relaxed);
        assert_eq!(tt.probe(99), None);
        // And the other way round: the other store's check word with the original data.
        entry.data.store(good, Ordering::Relaxed);
        entry.check.store(1234 ^ other, Ordering::Relaxed);
        assert_eq!(tt.probe(99), None);
        assert_eq!(tt.probe(1234), None);
        // Once both halves agree again the entry is back.
        entry.check.store(99 ^ good, Ordering::Relaxed);
        assert_eq!(tt.probe(99).unwrap().score, 10);
    }

    /// Memory corrupted in any single bit of either word (a stray write, a store that
    /// raced with another in some unforeseen way) makes the entry a miss for its key, never
    /// a hit with a wrong field.
    #[test]
    fn an_entry_with_any_bit_flipped_is_not_a_hit() {
        let tt = TranspositionTable::with_buckets(1);
        let key = 0x0123_4567_89AB_CDEF;
        tt.store(key, mv(12, 28), 35, -20, 7, Bound::Exact);
        let stored = tt.probe(key).unwrap();
        let entry = &tt.buckets[0].entries[0];
        let (check, data) = entry.load();
        for bit in 0..64 {
            entry.data.store(data ^ 1 << bit, Ordering::Relaxed);
            assert_eq!(tt.probe(key), None, "data bit {bit}");
            entry.data.store(data, Ordering::Relaxed);
            entry.check.store(check ^ 1 << bit, Ordering::Relaxed);
            assert_eq!(tt.probe(key), None, "check bit {bit}");
            entry.check.store(check, Ordering::Relaxed);
        }
        assert_eq!(tt.probe(key), Some(stored));
    }

    #[test]
    fn resize_rejects_bad_sizes_and_keeps_the_old_table() {
        let mut tt = TranspositionTable::new(1);
        tt.store(5, mv(1, 2), 77, -3, 4, Bound::Exact);
        for mb in [0, MAX_MB + 1, usize::MAX / 2, usize::MAX] {
            assert!(tt.resize(mb).is_err(), "{mb} MB");
            assert_eq!(tt.size_mb(), 1);
            assert_eq!(tt.probe(5).unwrap().score, 77);
        }
    }

    #[test]
    fn tables_larger_than_the_free_memory_are_refused() {
        let Some(available) = available_memory() else {
            return;
        };
        // Twice the free memory: it cannot have grown that much by the time of the resize.
        let mb = (available >> 20) as usize * 2 + 1;
        if mb > MAX_MB {
            return;
        }
        let mut tt = TranspositionTable::new(1);
        let e = tt.resize(mb).unwrap_err();
        assert!(e.contains("available"), "{e}");
        assert_eq!(tt.size_mb(), 1);
    }

    #[test]
    fn failed_allocations_are_errors_not_aborts() {
        // More bytes than the address space: rejected before asking the allocator.
        assert!(allocate(usize::MAX / 64).is_err());
        // 2^62 bytes: a valid size that no allocator can provide.
        assert!(allocate(1 << 56).is_err());
    }

    #[test]
    fn resize_gives_an_empty_table_of_the_new_size() {
        let mut tt = TranspositionTable::new(1);
        tt.store(5, mv(1, 2), 77, -3, 4, Bound::Exact);
        tt.new_search();
        tt.resize(3).unwrap();
        assert_eq!(tt.size_mb(), 3);
        assert_eq!(tt.buckets.len(), 3 * (1 << 20) / 64);
        assert_eq!(tt.probe(5), None);
        assert_eq!(tt.generation(), 0);
        // A size that is not a power of two still indexes every bucket in range.
        let mut rng = 7;
        for _ in 0..100_000 {
            let key = next_random(&mut rng);
            tt.store(key, mv(1, 2), 1, 2, 3, Bound::Upper);
            assert!(tt.probe(key).is_some());
        }
        tt.store(u64::MAX, mv(1, 2), 1, 2, 3, Bound::Upper);
        assert!(tt.probe(u64::MAX).is_some());
    }

    #[test]
    fn hashfull_counts_this_search_only() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        let mut rng = 3;
        // 1 MB is 65536 entries; storing 10x that many random keys fills nearly every one.
        for _ in 0..655_360 {
            let key = next_random(&mut rng);
            tt.store(key, mv(1, 2), 0, 0, 1, Bound::Exact);
        }
        assert!(tt.hashfull() >= 990, "hashfull {}", tt.hashfull());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0, "old entries are free to replace");
        for _ in 0..20_000 {
            let key = next_random(&mut rng);
            tt.store(key, mv(1, 2), 0, 0, 1, Bound::Exact);
        }
        let partial = tt.hashfull();
        assert!((200..400).contains(&partial), "hashfull {partial}");
    }

    #[test]
    fn clear_empties_everything() {
        let tt = TranspositionTable::new(1);
        let mut rng = 11;
        let keys: Vec<u64> = (0..1000).map(|_| next_random(&mut rng)).collect();
        for &key in &keys {
            tt.store(key, mv(1, 2), 0, 0, 1, Bound::Exact);
        }
        tt.new_search();
        tt.new_search();
        tt.clear();
        assert_eq!(tt.used_entries(), 0);
        assert_eq!(tt.generation(), 0);
        assert!(keys.iter().all(|&key| tt.probe(key).is_none()));
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn table_is_shared_between_threads() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<TranspositionTable>();
    }

    /// Several threads hammer a one-bucket table with 16 keys, so stores of different keys
    /// race for the same four entries all the time. Every field of a store is a function of
    /// its key and of a random 16-bit value (which the score carries), so a hit that mixed
    /// two stores (or paired one key's check word with another key's data) would not match
    /// what its key and score predict. No hit may be inconsistent.
    #[test]
    fn concurrent_stores_never_give_torn_hits() {
        const THREADS: u64 = 4;
        const KEYS: u64 = 16;
        const ROUNDS: usize = 5_000_000;

        let tt = TranspositionTable::with_buckets(1);
        let key_of = |i: u64| next_random(&mut (i + 1000));
        // What a store of `key` with the random value `v` writes.
        let fields = |key: u64, v: u16| {
            let mix = next_random(&mut (key ^ u64::from(v)));
            TtEntry {
                // Never NONE, so the kept-old-move rule does not apply.
                mv: Move::from_bits(mix as u16 | 1),
                score: i32::from(v as i16),
                eval: i32::from((mix >> 16) as i16),
                depth: ((mix >> 32) % 200) as i32 - 8,
                bound: [Bound::Upper, Bound::Lower, Bound::Exact][(mix >> 48) as usize % 3],
                pv: mix >> 63 != 0,
            }
        };

        let hits = AtomicU64::new(0);
        std::thread::scope(|s| {
            for t in 0..THREADS {
                let (tt, hits) = (&tt, &hits);
                s.spawn(move || {
                    let mut rng = t * 0x1234_5678 + 1;
                    for round in 0..ROUNDS {
                        let r = next_random(&mut rng);
                        let key = key_of(r % KEYS);
                        if r >> 63 == 0 {
                            let e = fields(key, (r >> 8) as u16);
                            tt.store_entry(key, e);
                        } else if let Some(hit) = tt.probe(key) {
                            hits.fetch_add(1, Ordering::Relaxed);
                            let want = fields(key, hit.score as i16 as u16);
                            assert_eq!(hit, want, "thread {t} round {round}");
                        }
                        if t == 0 && round % 100_000 == 0 {
                            tt.new_search();
                        }
                    }
                });
            }
        });
        assert!(hits.load(Ordering::Relaxed) > 100_000);
    }
}
