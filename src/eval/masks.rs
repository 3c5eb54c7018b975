//! Square sets the evaluation asks about again and again (files, the squares in front of a
//! pawn, the squares a pawn could still attack), computed once at compile time, plus a few
//! colour-relative shifts and distances.
//!
//! "Ahead" and "forward" are always from the point of view of the colour given: towards
//! rank 8 for White, towards rank 1 for Black. Every evaluation term is written once, for
//! either colour, in these terms; that is what keeps the evaluation colour-symmetric.

use crate::chess::{Bitboard, Color, Square};

/// `ADJACENT_FILES[f]`: the files either side of file `f` (one file on the a and h files).
pub const ADJACENT_FILES: [Bitboard; 8] = adjacent_files();

/// `FORWARD_RANKS[colour][rank]`: every rank strictly ahead of `rank` for that colour.
const FORWARD_RANKS: [[Bitboard; 8]; 2] = forward_ranks();

/// `FRONT_SPAN[colour][sq]`: the squares in front of `sq` on its own file (a pawn's path
/// to promotion).
pub const FRONT_SPAN: [[Bitboard; 64]; 2] = spans(false, true);

/// `ATTACK_SPAN[colour][sq]`: the squares a pawn on `sq` could attack now or after
/// advancing: the ranks ahead on the two adjacent files (a pawn also attacks the rank
/// directly in front of it diagonally, which is included).
pub const ATTACK_SPAN: [[Bitboard; 64]; 2] = spans(true, false);

/// `PASSED_SPAN[colour][sq]`: front span plus attack span. A pawn with no enemy pawn in
/// here can no longer be stopped or captured by a pawn: it is passed.
pub const PASSED_SPAN: [[Bitboard; 64]; 2] = spans(true, true);

const fn adjacent_files() -> [Bitboard; 8] {
    let mut out = [Bitboard::EMPTY; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            out[f].0 |= Bitboard::file(f as u8 - 1).0;
        }
        if f < 7 {
            out[f].0 |= Bitboard::file(f as u8 + 1).0;
        }
        f += 1;
    }
    out
}

const fn forward_ranks() -> [[Bitboard; 8]; 2] {
    let mut out = [[Bitboard::EMPTY; 8]; 2];
    let mut rank = 0;
    while rank < 8 {
        let mut other = 0;
        while other < 8 {
            let bits = Bitboard::rank(other as u8).0;
            if other > rank {
                out[0][rank].0 |= bits;
            }
            if other < rank {
                out[1][rank].0 |= bits;
            }
            other += 1;
        }
        rank += 1;
    }
    out
}

const fn spans(adjacent: bool, own_file: bool) -> [[Bitboard; 64]; 2] {
    let mut out = [[Bitboard::EMPTY; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (file, rank) = (sq % 8, sq / 8);
            let mut files = 0;
            if adjacent {
                files |= ADJACENT_FILES[file].0;
            }
            if own_file {
                files |= Bitboard::file(file as u8).0;
            }
            out[c][sq].0 = FORWARD_RANKS[c][rank].0 & files;
            sq += 1;
        }
        c += 1;
    }
    out
}

/// The ranks strictly ahead of `rank` for `color`.
#[inline(always)]
pub fn forward_ranks_of(color: Color, rank: u8) -> Bitboard {
    FORWARD_RANKS[color.index()][rank as usize]
}

/// `bb` moved one rank forward for `color` (squares falling off the board are lost).
#[inline(always)]
pub fn forward(color: Color, bb: Bitboard) -> Bitboard {
    match color {
        Color::White => bb.north(),
        Color::Black => bb.south(),
    }
}

/// `bb` moved one rank backward for `color`.
#[inline(always)]
pub fn backward(color: Color, bb: Bitboard) -> Bitboard {
    forward(color.flip(), bb)
}

/// The squares attacked by pawns of `color` standing on `pawns`, towards the a-file side
/// and towards the h-file side separately (a square in both is attacked twice).
#[inline(always)]
pub fn pawn_attack_sides(color: Color, pawns: Bitboard) -> (Bitboard, Bitboard) {
    let ahead = forward(color, pawns).0;
    let towards_a = Bitboard((ahead & !Bitboard::FILE_A.0) >> 1);
    let towards_h = Bitboard((ahead & !Bitboard::FILE_H.0) << 1);
    (towards_a, towards_h)
}

/// Every square attacked by a pawn of `color` on `pawns`.
#[inline(always)]
pub fn pawn_attacks_of(color: Color, pawns: Bitboard) -> Bitboard {
    let (a, h) = pawn_attack_sides(color, pawns);
    a | h
}

/// Chebyshev distance: how many king moves apart two squares are.
#[inline(always)]
pub fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// Manhattan distance: files plus ranks apart.
#[inline(always)]
pub fn manhattan(a: Square, b: Square) -> i32 {
    (a.file() as i32 - b.file() as i32).abs() + (a.rank() as i32 - b.rank() as i32).abs()
}

/// How far `sq` is from the four centre squares in files plus ranks: 0 in the centre, 6 in
/// a corner.
#[inline(always)]
pub fn centre_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    (3 - f).max(f - 4) + (3 - r).max(r - 4)
}

/// The rank of `sq` as seen by `color` (0 = its own back rank).
#[inline(always)]
pub fn relative_rank(color: Color, sq: Square) -> usize {
    color.relative_rank(sq.rank()) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_point_forward_for_each_colour() {
        let e4 = Square::parse("e4").unwrap();
        assert_eq!(FRONT_SPAN[0][e4.index()].count(), 4);
        assert_eq!(FRONT_SPAN[1][e4.index()].count(), 3);
        assert!(FRONT_SPAN[0][e4.index()].contains(Square::parse("e8").unwrap()));
        assert!(FRONT_SPAN[1][e4.index()].contains(Square::parse("e1").unwrap()));
        assert_eq!(ATTACK_SPAN[0][e4.index()].count(), 8);
        assert_eq!(PASSED_SPAN[0][e4.index()].count(), 12);
        let a2 = Square::parse("a2").unwrap();
        assert_eq!(ATTACK_SPAN[0][a2.index()].count(), 6);
    }

    #[test]
    fn pawn_attacks_match_the_attack_tables() {
        use crate::chess::attacks::pawn_attacks;
        for sq in Square::all() {
            for color in Color::ALL {
                let one = Bitboard::from_square(sq);
                assert_eq!(pawn_attacks_of(color, one), pawn_attacks(color, sq));
            }
        }
    }

    #[test]
    fn distances() {
        let a1 = Square::A1;
        let h8 = Square::H8;
        assert_eq!(distance(a1, h8), 7);
        assert_eq!(manhattan(a1, h8), 14);
        assert_eq!(centre_distance(a1), 6);
        assert_eq!(centre_distance(Square::parse("d4").unwrap()), 0);
        assert_eq!(centre_distance(Square::parse("e5").unwrap()), 0);
    }
}
