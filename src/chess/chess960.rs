//! Chess960 start positions by number (0 to 959), in the standard numbering: the number
//! places the light-squared bishop, then the dark-squared one, then the queen, then the
//! two knights, on the squares still free; the king goes between the two rooks on the
//! last three. Number 518 is the normal start position.
//!
//! A *double* Chess960 start (also called double Fischer random) gives each side its own
//! back rank, so White's and Black's pieces need not mirror each other: 921,600 starts,
//! which training data uses for variety.

use super::Board;
use super::fen;

/// How many Chess960 start positions there are.
pub const POSITIONS: u16 = 960;

/// The number of the normal start position.
pub const STANDARD: u16 = 518;

/// The back rank of start position `number` (0 to 959), from the a-file to the h-file, as
/// upper-case FEN letters.
pub fn back_rank(number: u16) -> [u8; 8] {
    assert!(
        number < POSITIONS,
        "Chess960 positions are numbered 0 to 959"
    );
    let mut rank = [0u8; 8];
    let mut n = usize::from(number);
    // The light-squared bishop on b, d, f or h; the dark-squared one on a, c, e or g.
    rank[2 * (n % 4) + 1] = b'B';
    n /= 4;
    rank[2 * (n % 4)] = b'B';
    n /= 4;
    // The queen on one of the six squares left, counted from the a-file.
    place(&mut rank, n % 6, b'Q');
    n /= 6;
    // The knights on two of the five squares left: the ten pairs in a fixed order.
    const KNIGHT_PAIRS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (first, second) = KNIGHT_PAIRS[n];
    // The second knight first: placing the first would shift the free squares after it.
    place(&mut rank, second, b'N');
    place(&mut rank, first, b'N');
    // Rook, king, rook on the three squares left.
    for piece in [b'R', b'K', b'R'] {
        place(&mut rank, 0, piece);
    }
    rank
}

/// Puts `piece` on the `index`-th empty square of `rank` (from the a-file, 0 first).
fn place(rank: &mut [u8; 8], index: usize, piece: u8) {
    let square = rank
        .iter()
        .enumerate()
        .filter(|(_, p)| **p == 0)
        .nth(index)
        .map(|(i, _)| i)
        .expect("a free square is left for every piece");
    rank[square] = piece;
}

/// The start position with White's back rank of number `white` and Black's of number
/// `black` (the same number for a Chess960 start), both sides with all four castling
/// rights, as a Chess960 board.
pub fn start_position(white: u16, black: u16) -> Board {
    let white_rank = back_rank(white);
    let black_rank = back_rank(black);
    let text = |rank: [u8; 8], lower: bool| -> String {
        rank.iter()
            .map(|&c| if lower { c.to_ascii_lowercase() } else { c } as char)
            .collect()
    };
    // Castling rights by the rooks' files (Shredder-FEN), outer rook files of each side.
    let rook_files = |rank: [u8; 8], lower: bool| -> String {
        let mut files: Vec<char> = (0..8)
            .rev()
            .filter(|&i| rank[i] == b'R')
            .map(|i| (b'A' + i as u8) as char)
            .collect();
        if lower {
            files.iter_mut().for_each(|c| *c = c.to_ascii_lowercase());
        }
        files.into_iter().collect()
    };
    let fen = format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w {}{} - 0 1",
        text(black_rank, true),
        text(white_rank, false),
        rook_files(white_rank, false),
        rook_files(black_rank, true),
    );
    fen::parse(&fen, true).expect("every numbered back rank makes a valid Chess960 start")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn number_518_is_the_normal_start_and_the_ends_are_known() {
        assert_eq!(&back_rank(STANDARD), b"RNBQKBNR");
        // The first and last of the table everyone numbers by.
        assert_eq!(&back_rank(0), b"BBQNNRKR");
        assert_eq!(&back_rank(959), b"RKRNNQBB");
    }

    #[test]
    fn all_960_back_ranks_are_different_and_legal() {
        let mut seen = HashSet::new();
        for n in 0..POSITIONS {
            let rank = back_rank(n);
            assert!(seen.insert(rank), "{n} repeats a back rank");
            let at = |piece: u8| -> Vec<usize> { (0..8).filter(|&i| rank[i] == piece).collect() };
            let (bishops, rooks, king) = (at(b'B'), at(b'R'), at(b'K'));
            assert_eq!(bishops.len(), 2);
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: bishops on one colour");
            assert_eq!((at(b'Q').len(), at(b'N').len(), rooks.len()), (1, 2, 2));
            assert!(
                rooks[0] < king[0] && king[0] < rooks[1],
                "{n}: king not between rooks"
            );
        }
    }

    #[test]
    fn double_starts_give_each_side_its_own_rank_and_castling_rights() {
        let board = start_position(0, 959);
        let fen = crate::chess::fen::to_fen(&board);
        assert!(
            fen.starts_with("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w"),
            "{fen}"
        );
        assert!(board.is_chess960());
        let standard = start_position(STANDARD, STANDARD);
        assert_eq!(
            crate::chess::movegen::legal_moves(&crate::chess::Position::from_board(standard)).len(),
            20
        );
    }
}
