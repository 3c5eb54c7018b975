//! Reading training positions: the 32-byte `bulletformat` chess record that `tarpon
//! datagen` writes (and that NNUE trainers such as bullet read).
//!
//! # The record
//!
//! | bytes | field |
//! |---|---|
//! | 0..8   | occupancy, `u64` little-endian, bit `n` = square `n` (a1 = 0) |
//! | 8..24  | one 4-bit code per occupied square, in increasing square order: byte `i / 2`, low nibble for even `i`; code = piece type (pawn 0 .. king 5) plus 8 for the side *not* to move |
//! | 24..26 | score, `i16` little-endian, centipawns for the side to move |
//! | 26     | result for the side to move: 0 loss, 1 draw, 2 win |
//! | 27     | square of the king of the side to move |
//! | 28     | square of the other king, rank-mirrored (its square `^ 56`) |
//! | 29..32 | unused |
//!
//! Everything is relative to the side to move: when Black is to move, the board is
//! stored mirrored top to bottom (square `^ 56`) with the colours swapped, so that the
//! side to move always looks like White moving up the board. (This is the `ChessBoard`
//! type of the `bulletformat` crate, checked against its version 1.8.0 source:
//! `ChessBoard::from_raw` flips Black-to-move positions with `swap_bytes`, swaps the
//! colours and negates score and result.) Castling rights, the en-passant square and the
//! move counters are not stored.

use crate::chess::fen;
use crate::chess::{Board, Color, PieceType, Square};

/// The size of one record in bytes.
pub const RECORD_SIZE: usize = 32;

/// One decoded record, still in the side-to-move frame of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub occupancy: u64,
    /// Piece codes, one per occupied square in increasing square order.
    pub pieces: Vec<u8>,
    /// Centipawns for the side to move.
    pub score: i16,
    /// 0 loss, 1 draw, 2 win, for the side to move.
    pub result: u8,
    pub king: u8,
    pub their_king_mirrored: u8,
}

/// Decodes the bytes of one record (no validation beyond the layout; see
/// [`Record::board`]).
pub fn decode(bytes: &[u8; RECORD_SIZE]) -> Record {
    let occupancy = u64::from_le_bytes(bytes[0..8].try_into().unwrap_or([0; 8]));
    let count = occupancy.count_ones() as usize;
    let pieces = (0..count.min(32))
        .map(|i| (bytes[8 + i / 2] >> (4 * (i & 1))) & 0xF)
        .collect();
    Record {
        occupancy,
        pieces,
        score: i16::from_le_bytes([bytes[24], bytes[25]]),
        result: bytes[26],
        king: bytes[27],
        their_king_mirrored: bytes[28],
    }
}

/// Encodes a position with its score and result, both from the side to move's point of
/// view (result 0 loss, 1 draw, 2 win). `None` if the board has more than 32 pieces.
pub fn encode(board: &Board, score: i16, result: u8) -> Option<[u8; RECORD_SIZE]> {
    let us = board.side_to_move();
    // Square in the side-to-move frame, and whether a piece belongs to the side not to move.
    let frame = |sq: Square| match us {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    let mut placed: Vec<(usize, u8)> = Vec::with_capacity(32);
    for sq in board.occupied() {
        let piece = board.piece_on(sq)?;
        let theirs = (piece.color() != us) as u8;
        placed.push((frame(sq), piece.kind().index() as u8 | theirs << 3));
    }
    if placed.len() > 32 {
        return None;
    }
    placed.sort_unstable();
    let mut out = [0u8; RECORD_SIZE];
    let occupancy = placed.iter().fold(0u64, |occ, (sq, _)| occ | 1 << sq);
    out[0..8].copy_from_slice(&occupancy.to_le_bytes());
    for (i, (_, code)) in placed.iter().enumerate() {
        out[8 + i / 2] |= code << (4 * (i & 1));
    }
    out[24..26].copy_from_slice(&score.to_le_bytes());
    out[26] = result;
    out[27] = frame(board.king_square(us)) as u8;
    out[28] = (frame(board.king_square(us.flip())) ^ 56) as u8;
    Some(out)
}

impl Record {
    /// The position in the side-to-move frame: the side to move is White, without
    /// castling rights, en-passant square or clocks. `None` for anything that is not a
    /// legal chess position (wrong piece codes or counts, a pawn on a back rank, the side
    /// not to move in check, kings that disagree with the king fields).
    pub fn board(&self) -> Option<Board> {
        if self.pieces.len() != self.occupancy.count_ones() as usize || self.result > 2 {
            return None;
        }
        let mut grid = [None; 64];
        let mut occupancy = self.occupancy;
        for &code in &self.pieces {
            let sq = occupancy.trailing_zeros() as usize;
            occupancy &= occupancy - 1;
            let kind = *PieceType::ALL.get((code & 7) as usize)?;
            let color = if code & 8 == 0 {
                Color::White
            } else {
                Color::Black
            };
            grid[sq] = Some((color, kind));
        }
        let kings_agree = grid.get(self.king as usize)
            == Some(&Some((Color::White, PieceType::King)))
            && grid.get((self.their_king_mirrored ^ 56) as usize)
                == Some(&Some((Color::Black, PieceType::King)));
        if !kings_agree {
            return None;
        }
        // The FEN parser checks everything else (one king each, no pawn on the first or
        // last rank, the side not to move not in check).
        fen::parse(&format!("{} w - - 0 1", placement(&grid)), false).ok()
    }

    /// The game result for the side to move as a score: 0, 0.5 or 1.
    pub fn result_score(&self) -> f64 {
        f64::from(self.result) / 2.0
    }
}

/// The piece-placement field of a FEN for a square-indexed grid.
fn placement(grid: &[Option<(Color, PieceType)>; 64]) -> String {
    let mut text = String::with_capacity(72);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match grid[rank * 8 + file] {
                Some((color, kind)) => {
                    if empty > 0 {
                        text.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    let c = kind.char();
                    text.push(if color == Color::White {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push((b'0' + empty) as char);
        }
        if rank > 0 {
            text.push('/');
        }
    }
    text
}

/// Splits file contents into records; a trailing partial record is reported as the number
/// of bytes left over.
pub fn records(bytes: &[u8]) -> (impl Iterator<Item = &[u8; RECORD_SIZE]>, usize) {
    let chunks = bytes.chunks_exact(RECORD_SIZE);
    let rest = chunks.remainder().len();
    (chunks.filter_map(|c| c.try_into().ok()), rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen::{START_FEN, to_fen};

    #[test]
    fn decodes_a_record_written_by_hand_from_the_specification() {
        // The start position, White to move, +25 cp, a win for White.
        let mut bytes = [0u8; RECORD_SIZE];
        bytes[0..8].copy_from_slice(&0xFFFF_0000_0000_FFFFu64.to_le_bytes());
        let codes: [u8; 32] = [
            3, 1, 2, 4, 5, 2, 1, 3, // a1..h1: R N B Q K B N R
            0, 0, 0, 0, 0, 0, 0, 0, // a2..h2
            8, 8, 8, 8, 8, 8, 8, 8, // a7..h7: the other side's pawns
            11, 9, 10, 12, 13, 10, 9, 11, // a8..h8
        ];
        for (i, code) in codes.iter().enumerate() {
            bytes[8 + i / 2] |= code << (4 * (i & 1));
        }
        bytes[24..26].copy_from_slice(&25i16.to_le_bytes());
        bytes[26] = 2;
        bytes[27] = 4; // e1
        bytes[28] = 60 ^ 56; // e8, mirrored
        let record = decode(&bytes);
        assert_eq!(record.score, 25);
        assert_eq!(record.result_score(), 1.0);
        let board = record.board().expect("a legal position");
        assert_eq!(
            to_fen(&board),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        );
        // And encoding gives back the same bytes.
        let start = fen::parse(START_FEN, false).unwrap();
        assert_eq!(encode(&start, 25, 2), Some(bytes));
    }

    #[test]
    fn black_to_move_is_stored_mirrored_with_colours_swapped() {
        // After 1.e4 with Black to move, Black's view: Black's pieces become "ours" on
        // ranks 1-2, White's e-pawn appears on e5 as an enemy pawn.
        let board = fen::parse(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            false,
        )
        .unwrap();
        let bytes = encode(&board, -30, 0).unwrap();
        let record = decode(&bytes);
        assert_eq!((record.score, record.result), (-30, 0));
        assert_eq!(record.king, 4); // e8 mirrored is e1
        assert_eq!(record.their_king_mirrored, 4); // e1 mirrored, then ^ 56 again
        let seen = record.board().unwrap();
        assert_eq!(
            to_fen(&seen),
            "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        );
    }

    #[test]
    fn round_trips_and_rejects_garbage() {
        for text in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ] {
            let board = fen::parse(text, false).unwrap();
            let record = decode(&encode(&board, 7, 1).unwrap());
            assert_eq!(to_fen(&record.board().unwrap()), text);
        }
        // No kings, a bad piece code, an out-of-range result, a king field pointing
        // elsewhere: all rejected without panicking.
        assert_eq!(decode(&[0; RECORD_SIZE]).board(), None);
        let board = fen::parse("4k3/8/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
        let good = encode(&board, 0, 1).unwrap();
        for (byte, value) in [(8, 0x77), (26, 3), (27, 5), (28, 0)] {
            let mut bad = good;
            bad[byte] = value;
            assert_eq!(decode(&bad).board(), None, "byte {byte}");
        }
        let mut noise = [0u8; RECORD_SIZE];
        for seed in 0..2000u64 {
            let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            for b in noise.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *b = x as u8;
            }
            let _ = decode(&noise).board();
        }
    }

    #[test]
    fn splits_files_into_records() {
        let bytes = vec![0u8; RECORD_SIZE * 3 + 5];
        let (iter, rest) = records(&bytes);
        assert_eq!(iter.count(), 3);
        assert_eq!(rest, 5);
    }
}
