//! King and pawn against king, solved: which of these positions the pawn's side wins.
//!
//! The ending is small enough to solve exactly when it is first needed: with the pawn's
//! side as White and its pawn on files a to d (the others are mirror images), there are
//! 2 × 24 × 64 × 64 = 196,608 positions. Each starts as a win, a draw or unknown by the
//! rules alone (an unstoppable promotion wins; a stalemate or a capture of the pawn
//! draws), then every unknown position is decided by its moves, again and again until
//! nothing changes (retrograde analysis):
//!
//! - White to move wins if one of its moves leads to a win, and draws if all lead to draws;
//! - Black to move draws if one of its moves leads to a draw, and loses if all lead to wins.
//!
//! What is still unknown then is a draw: neither side can force anything else. The answer
//! is one bit a position (24 KB), computed in about 40 ms. The evaluation uses it to
//! score the drawn positions as draws, which neither the network nor the hand-crafted
//! terms see (a pawn up looks like an advantage whether or not the king can stop it).

use crate::chess::attacks::king_attacks;
use crate::chess::{Board, Color, PieceType, Square};
use std::sync::OnceLock;

/// Pawn squares: ranks 2 to 7, files a to d.
const PAWN_SQUARES: usize = 24;
const POSITIONS: usize = 2 * PAWN_SQUARES * 64 * 64;

/// What a position is worth to White (the pawn's side).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Value {
    Invalid,
    Unknown,
    Draw,
    Win,
}

/// One position: White's king, White's pawn, Black's king (squares 0..64, a1 = 0) and
/// whether White is to move.
#[derive(Clone, Copy)]
struct Setup {
    white_to_move: bool,
    pawn: usize,
    white_king: usize,
    black_king: usize,
}

fn index(s: Setup) -> usize {
    let pawn = (s.pawn / 8 - 1) * 4 + s.pawn % 8;
    let side = usize::from(!s.white_to_move);
    ((side * PAWN_SQUARES + pawn) * 64 + s.white_king) * 64 + s.black_king
}

fn setup(index: usize) -> Setup {
    let black_king = index % 64;
    let white_king = index / 64 % 64;
    let pawn = index / 4096 % PAWN_SQUARES;
    Setup {
        white_to_move: index / (4096 * PAWN_SQUARES) == 0,
        pawn: (pawn / 4 + 1) * 8 + pawn % 4,
        white_king,
        black_king,
    }
}

/// King steps between squares (0 for the same square).
fn distance(a: usize, b: usize) -> usize {
    let (fa, ra, fb, rb) = (a % 8, a / 8, b % 8, b / 8);
    fa.abs_diff(fb).max(ra.abs_diff(rb))
}

/// The squares a king on `sq` moves to.
fn king_steps(sq: usize) -> impl Iterator<Item = usize> {
    king_attacks(Square::new(sq as u8)).map(|to| to.index())
}

/// Whether a white pawn on `pawn` attacks `sq`.
fn pawn_attacks(pawn: usize, sq: usize) -> bool {
    sq / 8 == pawn / 8 + 1 && (sq % 8).abs_diff(pawn % 8) == 1
}

/// The value of a position from the rules alone, before any search.
fn initial(s: Setup) -> Value {
    let promotion = s.pawn + 8;
    let (wk, bk, pawn) = (s.white_king, s.black_king, s.pawn);
    if wk == bk || wk == pawn || bk == pawn || distance(wk, bk) <= 1 {
        return Value::Invalid;
    }
    if s.white_to_move {
        // Black in check with White to move cannot arise.
        if pawn_attacks(pawn, bk) {
            return Value::Invalid;
        }
        // The pawn promotes and the queen cannot be taken (or is defended).
        if pawn / 8 == 6
            && wk != promotion
            && bk != promotion
            && (distance(bk, promotion) > 1 || distance(wk, promotion) == 1)
        {
            return Value::Win;
        }
        return Value::Unknown;
    }
    // The king takes an undefended pawn.
    if distance(bk, pawn) == 1 && distance(wk, pawn) > 1 {
        return Value::Draw;
    }
    if black_moves(s).next().is_none() {
        // Stalemate, or (were it possible with a lone pawn) mate.
        return if pawn_attacks(pawn, bk) {
            Value::Win
        } else {
            Value::Draw
        };
    }
    Value::Unknown
}

/// Black's king moves that do not step next to White's king, onto the pawn (its capture
/// is decided in `initial`) or into the pawn's attack.
fn black_moves(s: Setup) -> impl Iterator<Item = Setup> {
    king_steps(s.black_king)
        .filter(move |&to| {
            distance(to, s.white_king) > 1 && to != s.pawn && !pawn_attacks(s.pawn, to)
        })
        .map(move |to| Setup {
            white_to_move: true,
            black_king: to,
            ..s
        })
}

/// White's moves that stay in the table (king moves and pawn pushes short of the last
/// rank): a promotion that `initial` did not call a win loses the new queen, a draw.
fn white_moves(s: Setup) -> impl Iterator<Item = Setup> {
    let kings = king_steps(s.white_king)
        .filter(move |&to| distance(to, s.black_king) > 1 && to != s.pawn)
        .map(move |to| Setup {
            white_to_move: false,
            white_king: to,
            ..s
        });
    let free = |sq: usize| sq != s.white_king && sq != s.black_king;
    let single = s.pawn + 8;
    let pushes = [
        (s.pawn / 8 < 6 && free(single)).then_some(single),
        (s.pawn / 8 == 1 && free(single) && free(single + 8)).then_some(single + 8),
    ];
    kings.chain(pushes.into_iter().flatten().map(move |to| Setup {
        white_to_move: false,
        pawn: to,
        ..s
    }))
}

/// Whether White, to move, can promote on the last rank now (a promotion `initial` did
/// not call a win).
fn can_promote(s: Setup) -> bool {
    s.pawn / 8 == 6 && s.pawn + 8 != s.white_king && s.pawn + 8 != s.black_king
}

/// Decides an unknown position from its moves' values, if they allow it yet.
fn classify(s: Setup, values: &[Value]) -> Value {
    let (good, bad) = if s.white_to_move {
        (Value::Win, Value::Draw)
    } else {
        (Value::Draw, Value::Win)
    };
    // A promotion here loses its queen: one more move, and one that draws.
    let mut all_bad = true;
    let mut moves = usize::from(s.white_to_move && can_promote(s));
    let mut judge = |next: Setup| {
        moves += 1;
        let value = values[index(next)];
        all_bad &= value == bad;
        value == good
    };
    let found_good = if s.white_to_move {
        white_moves(s).any(&mut judge)
    } else {
        black_moves(s).any(&mut judge)
    };
    if found_good {
        return good;
    }
    if all_bad && moves > 0 {
        bad
    } else {
        Value::Unknown
    }
}

/// The solved table: bit `i` is set when position `i` is a win for the pawn's side.
fn solve() -> Vec<u64> {
    let mut values: Vec<Value> = (0..POSITIONS).map(|i| initial(setup(i))).collect();
    loop {
        let mut changed = false;
        for i in 0..POSITIONS {
            if values[i] == Value::Unknown {
                let value = classify(setup(i), &values);
                if value != Value::Unknown {
                    values[i] = value;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut bits = vec![0u64; POSITIONS.div_ceil(64)];
    for (i, value) in values.iter().enumerate() {
        if *value == Value::Win {
            bits[i / 64] |= 1 << (i % 64);
        }
    }
    bits
}

fn table() -> &'static [u64] {
    static TABLE: OnceLock<Vec<u64>> = OnceLock::new();
    TABLE.get_or_init(solve)
}

/// Solves the ending now (some tens of milliseconds), so that the first search that meets
/// it does not wait: the UCI loop calls this on a thread of its own as it starts.
pub fn prepare() {
    table();
}

/// Whether the pawn's side wins this king-and-pawn-against-king position with best play
/// (`None` when the board holds anything else).
pub fn pawn_side_wins(board: &Board) -> Option<bool> {
    if board.occupied().count() != 3 {
        return None;
    }
    let strong = Color::ALL
        .into_iter()
        .find(|&c| board.pieces(c, PieceType::Pawn).count() == 1)?;
    let weak = strong.flip();
    // Seen from the pawn's side as White, with the pawn on files a to d.
    let orient = |sq: Square| {
        let mut i = sq.index();
        if strong == Color::Black {
            i ^= 56;
        }
        i
    };
    let mut pawn = orient(board.pieces(strong, PieceType::Pawn).lsb());
    let mut white_king = orient(board.king_square(strong));
    let mut black_king = orient(board.king_square(weak));
    if pawn % 8 > 3 {
        pawn ^= 7;
        white_king ^= 7;
        black_king ^= 7;
    }
    let s = Setup {
        white_to_move: board.side_to_move() == strong,
        pawn,
        white_king,
        black_king,
    };
    let i = index(s);
    Some(table()[i / 64] >> (i % 64) & 1 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wins(fen: &str) -> bool {
        let board = crate::chess::fen::parse(fen, false).unwrap();
        pawn_side_wins(&board).expect("a king and pawn ending")
    }

    #[test]
    fn known_positions_of_king_and_pawn_against_king() {
        // The defending king in front of the pawn: drawn.
        assert!(!wins("8/4k3/8/8/8/8/4P3/4K3 b - - 0 1"));
        // The king in front of its pawn, the kings in opposition: the side to move loses
        // the opposition, and with it White the win, Black the draw.
        assert!(!wins("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1"));
        assert!(wins("8/4k3/8/4K3/4P3/8/8/8 b - - 0 1"));
        // The same with Black's pawn (the board flipped).
        assert!(!wins("8/8/8/4p3/4k3/8/4K3/8 b - - 0 1"));
        assert!(wins("8/8/8/4p3/4k3/8/4K3/8 w - - 0 1"));
        // The king on the sixth rank in front of its pawn wins, whoever is to move.
        assert!(wins("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1"));
        assert!(wins("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1"));
        // A rook pawn with the defending king in the corner: drawn whoever is to move.
        assert!(!wins("7k/8/6K1/7P/8/8/8/8 w - - 0 1"));
        assert!(!wins("7k/8/6K1/7P/8/8/8/8 b - - 0 1"));
        // The rule of the square: the king outside it is too late, inside it in time.
        assert!(wins("7K/8/8/P7/4k3/8/8/8 w - - 0 1"));
        assert!(!wins("7K/8/8/P7/4k3/8/8/8 b - - 0 1"));
        // A king that takes the undefended pawn; a stalemate.
        assert!(!wins("8/8/8/3kP3/8/8/8/K7 b - - 0 1"));
        assert!(!wins("5k2/5P2/5K2/8/8/8/8/8 b - - 0 1"));
        // Anything else is not this ending.
        let other = crate::chess::fen::parse("4k3/8/8/8/8/8/4PP2/4K3 w - - 0 1", false).unwrap();
        assert_eq!(pawn_side_wins(&other), None);
    }
}
