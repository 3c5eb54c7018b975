//! Attack tables: which squares a piece on a square attacks.
//!
//! Pawns, knights and kings attack a fixed pattern, looked up in a 64-entry table. Bishops,
//! rooks and queens ("sliders") stop at the first piece in each direction, so their attacks
//! depend on the occupancy of the board. Those are looked up in one shared table indexed by
//! the occupancy of the squares that matter ("relevant" squares: the rays minus the board
//! edge), compressed to a small index by a magic multiplication or, where the CPU has a
//! fast one, by the `pext` instruction (see `USE_PEXT`).
//!
//! Every table here is computed at compile time by `const fn`s, so lookups need no
//! initialisation and the compiler proves the magic numbers correct (a colliding magic
//! would stop the build).

use super::bitboard::Bitboard;
use super::magics::{BISHOP_MAGICS, ROOK_MAGICS};
use super::types::{Color, PieceType, Square};

/// The slider directions, the two towards higher squares (up the board, or right along a
/// rank) first, then the two towards lower ones (`ray_table` relies on the order).
const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The square `(df, dr)` away from `sq`, if it is on the board, as a one-bit mask.
const fn step(sq: usize, df: i8, dr: i8) -> u64 {
    let f = (sq % 8) as i8 + df;
    let r = (sq / 8) as i8 + dr;
    if f >= 0 && f < 8 && r >= 0 && r < 8 {
        1 << (r * 8 + f)
    } else {
        0
    }
}

const fn leaper_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < steps.len() {
            table[sq].0 |= step(sq, steps[i].0, steps[i].1);
            i += 1;
        }
        sq += 1;
    }
    table
}

const fn pawn_table() -> [[Bitboard; 64]; 2] {
    [
        leaper_table(&[(-1, 1), (1, 1)]),
        leaper_table(&[(-1, -1), (1, -1)]),
    ]
}

static PAWN_ATTACKS: [[Bitboard; 64]; 2] = pawn_table();
static KNIGHT_ATTACKS: [Bitboard; 64] = leaper_table(&KNIGHT_STEPS);
static KING_ATTACKS: [Bitboard; 64] = leaper_table(&KING_STEPS);

const fn directions(kind: PieceType) -> &'static [(i8, i8); 4] {
    match kind {
        PieceType::Bishop => &BISHOP_DIRECTIONS,
        _ => &ROOK_DIRECTIONS,
    }
}

/// Slider attacks computed by walking the rays: the reference the tables are built from.
pub const fn slider_attacks_slow(kind: PieceType, sq: Square, occupied: u64) -> u64 {
    let dirs = directions(kind);
    let mut attacks = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = (sq.file() as i8 + df, sq.rank() as i8 + dr);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// The squares whose occupancy can change a slider's attacks from `sq`: each ray without
/// its last square (a piece on the board edge blocks nothing behind it).
pub const fn relevant_mask(kind: PieceType, sq: Square) -> u64 {
    let dirs = directions(kind);
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = (sq.file() as i8 + df, sq.rank() as i8 + dr);
        while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

/// Where one square's slice of the shared slider table lives and how to index it.
#[derive(Copy, Clone)]
struct SliderEntry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

/// The two sliders with tables of their own (a queen looks up both).
const SLIDER_KINDS: [PieceType; 2] = [PieceType::Rook, PieceType::Bishop];

/// Slider entries for rooks (index 0) and bishops (index 1), laid out back to back.
const fn slider_entries() -> ([[SliderEntry; 64]; 2], usize) {
    let empty = SliderEntry {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    };
    let mut entries = [[empty; 64]; 2];
    let mut offset = 0;
    let mut k = 0;
    while k < 2 {
        let kind = SLIDER_KINDS[k];
        let mut sq = 0;
        while sq < 64 {
            let mask = relevant_mask(kind, Square::new(sq as u8));
            let bits = mask.count_ones();
            let magic = if k == 0 {
                ROOK_MAGICS[sq]
            } else {
                BISHOP_MAGICS[sq]
            };
            entries[k][sq] = SliderEntry {
                mask,
                magic,
                shift: 64 - bits,
                offset: offset as u32,
            };
            offset += 1 << bits;
            sq += 1;
        }
        k += 1;
    }
    (entries, offset)
}

const SLIDER_LAYOUT: ([[SliderEntry; 64]; 2], usize) = slider_entries();
static SLIDER_ENTRIES: [[SliderEntry; 64]; 2] = SLIDER_LAYOUT.0;
const SLIDER_TABLE_SIZE: usize = SLIDER_LAYOUT.1;

/// Whether slider lookups use `pext`, decided at compile time: on a target with BMI2 and
/// AVX-512, on one the build script knows to have a fast `pext` (`fast_pext`: a build for
/// the processor it runs on, `target-cpu=native`, when that is an Intel or an AMD Zen 3
/// or later), or with the `pext` feature on any target with BMI2. `pext` is fast (one
/// instruction, 3 cycles) on every Intel CPU with BMI2 and on AMD from Zen 3, but
/// microcoded and much slower on AMD's Zen 1 and 2, which have BMI2 and no AVX-512; every
/// CPU with AVX-512 has a fast one. Measured on an AMD Zen 4 (`scripts/bench-pair.sh`, 40
/// rounds): 1.021 times the nodes/s of magics (median; ratio of means 1.039); on an Intel
/// Xeon (`perft 6`, 9 paired runs) 0.96 times the time, within the noise; on an AMD Zen 3
/// (profile-guided builds, 60 rounds) 1.006 and 1.008.
pub const USE_PEXT: bool = cfg!(all(
    target_arch = "x86_64",
    target_feature = "bmi2",
    any(feature = "pext", target_feature = "avx512f", fast_pext)
));

const fn magic_index(e: &SliderEntry, occupied: u64) -> usize {
    ((occupied & e.mask).wrapping_mul(e.magic) >> e.shift) as usize
}

/// Each slider direction's ray from every square to the board's edge, `[kind][sq][d]`:
/// `kind` as in `SLIDER_KINDS`, `d` as in `directions`.
const fn ray_table() -> [[[u64; 4]; 64]; 2] {
    let mut rays = [[[0; 4]; 64]; 2];
    let mut k = 0;
    while k < 2 {
        let dirs = directions(SLIDER_KINDS[k]);
        let mut sq = 0;
        while sq < 64 {
            let mut d = 0;
            while d < 4 {
                let (df, dr) = dirs[d];
                rays[k][sq][d] = walk(sq, df, dr, 64);
                d += 1;
            }
            sq += 1;
        }
        k += 1;
    }
    rays
}

/// The same as `slider_attacks_slow`, from the rays of one slider kind (`ray_table`): along
/// each ray, the squares up to the first piece on it, that one included, found as the ray
/// less the part of it beyond that piece. The first piece is the one nearest `sq`: the
/// lowest square of a ray towards higher squares, the highest of the others. A few
/// operations a ray instead of a walk square by square: the compiler evaluates this for
/// the ~108,000 slots of the slider table at every build of the crate, and the walks took
/// it about eight seconds, this under four.
const fn slider_attacks_by_rays(rays: &[[u64; 4]; 64], sq: usize, occupied: u64) -> u64 {
    let [up_a, up_b, down_a, down_b] = rays[sq];
    ray_attacks(rays, up_a, occupied, true, 0)
        | ray_attacks(rays, up_b, occupied, true, 1)
        | ray_attacks(rays, down_a, occupied, false, 2)
        | ray_attacks(rays, down_b, occupied, false, 3)
}

/// One ray's part of `slider_attacks_by_rays`: `ray` is direction `d`'s, towards higher
/// squares when `up`.
const fn ray_attacks(rays: &[[u64; 4]; 64], ray: u64, occupied: u64, up: bool, d: usize) -> u64 {
    let blockers = ray & occupied;
    if blockers == 0 {
        return ray;
    }
    let first = if up {
        blockers.trailing_zeros()
    } else {
        63 - blockers.leading_zeros()
    };
    ray ^ rays[first as usize][d]
}

/// Fills the shared slider table. With `pext`, slot `i` of a square's slice holds the attacks
/// for the `i`-th blocker subset; with magics, each subset goes where its magic sends it,
/// and a slot claimed by two different attack sets aborts compilation.
const fn build_slider_table() -> [Bitboard; SLIDER_TABLE_SIZE] {
    let mut table = [Bitboard::EMPTY; SLIDER_TABLE_SIZE];
    let rays = ray_table();
    let mut k = 0;
    while k < 2 {
        let mut sq = 0;
        while sq < 64 {
            let e = SLIDER_LAYOUT.0[k][sq];
            // Enumerate the blocker subsets with the carry-rippler trick; it visits them in
            // the order of their `pext` index (subset i is the i-th one visited).
            let mut occupied = 0u64;
            let mut i = 0;
            loop {
                let attacks = slider_attacks_by_rays(&rays[k], sq, occupied);
                let slot = e.offset as usize
                    + if USE_PEXT {
                        i as usize
                    } else {
                        magic_index(&e, occupied)
                    };
                assert!(
                    table[slot].0 == 0 || table[slot].0 == attacks,
                    "bad magic number"
                );
                table[slot] = Bitboard(attacks);
                i += 1;
                occupied = occupied.wrapping_sub(e.mask) & e.mask;
                if occupied == 0 {
                    break;
                }
            }
            sq += 1;
        }
        k += 1;
    }
    table
}

// Long enough a compile-time evaluation to trip the lint that guards against endless
// loops (it runs once per build of the crate).
#[allow(long_running_const_eval)]
static SLIDER_TABLE: [Bitboard; SLIDER_TABLE_SIZE] = build_slider_table();

#[inline(always)]
fn slider_index(e: &SliderEntry, occupied: Bitboard) -> usize {
    #[cfg(target_arch = "x86_64")]
    if USE_PEXT {
        // SAFETY: `USE_PEXT` holds only where the target guarantees BMI2.
        return e.offset as usize
            + unsafe { std::arch::x86_64::_pext_u64(occupied.0, e.mask) } as usize;
    }
    e.offset as usize + magic_index(e, occupied.0)
}

#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let e = &SLIDER_ENTRIES[0][sq.index()];
    SLIDER_TABLE[slider_index(e, occupied)]
}

#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let e = &SLIDER_ENTRIES[1][sq.index()];
    SLIDER_TABLE[slider_index(e, occupied)]
}

#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN_ATTACKS[color.index()][sq.index()]
}

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT_ATTACKS[sq.index()]
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING_ATTACKS[sq.index()]
}

/// Attacks of any non-pawn piece type from `sq` with the given occupancy.
#[inline(always)]
pub fn piece_attacks(kind: PieceType, sq: Square, occupied: Bitboard) -> Bitboard {
    match kind {
        PieceType::Knight => knight_attacks(sq),
        PieceType::Bishop => bishop_attacks(sq, occupied),
        PieceType::Rook => rook_attacks(sq, occupied),
        PieceType::Queen => queen_attacks(sq, occupied),
        PieceType::King => king_attacks(sq),
        PieceType::Pawn => panic!("pawn attacks depend on colour; use pawn_attacks"),
    }
}

/// The unit step (files, ranks) from square `a` towards square `b` when the two share a
/// rank, file or diagonal; `None` otherwise (or when they are the same square).
const fn step_towards(a: usize, b: usize) -> Option<(i8, i8)> {
    let (df, dr) = ((b % 8) as i8 - (a % 8) as i8, (b / 8) as i8 - (a / 8) as i8);
    if a != b && (df == 0 || dr == 0 || df == dr || df == -dr) {
        Some((df.signum(), dr.signum()))
    } else {
        None
    }
}

/// The squares reached from `sq` (not included) by repeating the step `(df, dr)` until the
/// edge of the board or the square `stop` (not included either).
const fn walk(sq: usize, df: i8, dr: i8, stop: usize) -> u64 {
    let mut squares = 0;
    let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
    while f >= 0 && f < 8 && r >= 0 && r < 8 && (r * 8 + f) as usize != stop {
        squares |= 1 << (r * 8 + f);
        f += df;
        r += dr;
    }
    squares
}

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` when they share a rank, file or
/// diagonal, plus `b` itself; just `b` otherwise. Including `b` makes "block the check or
/// capture the checker" a single mask.
///
/// `LINE[a][b]`: the whole rank, file or diagonal through `a` and `b` (edge to edge), or
/// empty when they are not aligned. A pinned piece may move only along this line.
const fn line_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            between[a][b].0 = 1 << b;
            if let Some((df, dr)) = step_towards(a, b) {
                between[a][b].0 |= walk(a, df, dr, b);
                line[a][b].0 = 1 << a | walk(a, df, dr, 64) | walk(a, -df, -dr, 64);
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

const LINE_TABLES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = line_tables();
static BETWEEN: [[Bitboard; 64]; 64] = LINE_TABLES.0;
static LINE: [[Bitboard; 64]; 64] = LINE_TABLES.1;

/// Squares strictly between `a` and `b` on a shared line, plus `b` (see `line_tables`).
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The full line through two aligned squares, or empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pseudo_random_occupancies() -> impl Iterator<Item = u64> {
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        (0..2000).map(move |_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & x.rotate_left(17)
        })
    }

    #[test]
    fn slider_tables_match_ray_walking() {
        for occ in pseudo_random_occupancies() {
            for sq in Square::all() {
                let o = Bitboard(occ);
                assert_eq!(
                    rook_attacks(sq, o).0,
                    slider_attacks_slow(PieceType::Rook, sq, occ)
                );
                assert_eq!(
                    bishop_attacks(sq, o).0,
                    slider_attacks_slow(PieceType::Bishop, sq, occ)
                );
            }
        }
    }

    /// Every blocker subset of every square, not only sampled ones: the table the compiler
    /// builds from rays agrees with walking the board square by square.
    #[test]
    fn every_slot_of_the_slider_tables_matches_ray_walking() {
        for sq in Square::all() {
            for kind in SLIDER_KINDS {
                let mask = relevant_mask(kind, sq);
                let mut occupied = 0u64;
                loop {
                    let table = match kind {
                        PieceType::Rook => rook_attacks(sq, Bitboard(occupied)),
                        _ => bishop_attacks(sq, Bitboard(occupied)),
                    };
                    assert_eq!(
                        table.0,
                        slider_attacks_slow(kind, sq, occupied),
                        "{kind:?} {sq:?}"
                    );
                    occupied = occupied.wrapping_sub(mask) & mask;
                    if occupied == 0 {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn leaper_counts() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(king_attacks(Square::E1).count(), 5);
        assert_eq!(pawn_attacks(Color::White, Square::A1).count(), 1);
        assert_eq!(
            pawn_attacks(Color::Black, Square::E8).0,
            (1 << 51) | (1 << 53)
        );
        assert!(pawn_attacks(Color::White, Square::H8).is_empty());
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(Square::A1, Square::H8).count(), 7);
        assert_eq!(between(Square::A1, Square::new(10)).0, 1 << 10); // not aligned: just b
        assert_eq!(line(Square::A1, Square::new(9)).count(), 8);
        assert!(line(Square::A1, Square::new(10)).is_empty());
    }
}
