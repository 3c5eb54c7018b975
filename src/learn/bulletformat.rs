//! The training-data format of `tarpon datagen`: the 32-byte `ChessBoard` record of the
//! `bulletformat` crate (the data format of the bullet NNUE trainer, which other trainers
//! and many engines' data tools also read). A file is a plain sequence of records, with no
//! header; every record is one position with its search score and its game's result.
//!
//! # Layout (all integers little-endian)
//!
//! | bytes  | field     | meaning                                                            |
//! |--------|-----------|--------------------------------------------------------------------|
//! | 0..8   | `occ`     | `u64` occupancy: bit `s` set when square `s` holds a piece          |
//! | 8..24  | `pcs`     | 32 four-bit pieces, one per set bit of `occ` from the lowest square up; piece `i` is the low nibble of byte `8 + i/2` when `i` is even, the high nibble when odd |
//! | 24..26 | `score`   | `i16` search score in centipawns, for the side to move              |
//! | 26     | `result`  | the game's result for the side to move: 0 loss, 1 draw, 2 win      |
//! | 27     | `ksq`     | the side to move's king square                                     |
//! | 28     | `opp_ksq` | the other king's square, seen from its own side (`square ^ 56`)    |
//! | 29..32 | `extra`   | unused by bulletformat (its writers put zeros there, its readers ignore it); see below |
//!
//! Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63. A piece nibble is `colour << 3 | kind`,
//! kind 0..=5 for pawn, knight, bishop, rook, queen, king.
//!
//! **Everything is relative to the side to move**, as in bulletformat: "colour 0" is the
//! side to move, "colour 1" the other side. When Black is to move the board is mirrored
//! top to bottom (square `s` is stored as `s ^ 56`) and the colours are swapped, so every
//! record looks like White to move; score and result are Black's. bulletformat's text
//! reader produces exactly these bytes from `<FEN> | <White score> | <White result>`
//! (the tests check this against the crate itself).
//!
//! # Tarpon's use of the spare bytes
//!
//! The format forgets who was really to move, and where one game ends and the next begins.
//! Tarpon keeps both in the three spare bytes, which bulletformat's readers ignore:
//!
//! - byte 29: flags. Bit 0: Black was to move (the record was mirrored). Bit 1: this
//!   record is the first one written for its game. Other bits are zero.
//! - byte 30: the halfmove clock (plies since the last capture or pawn move, at most 255).
//! - byte 31: the tag `b'T'`, which says that bytes 29 and 30 mean the above. A record
//!   without it (from another writer) is read in its stored orientation, White to move,
//!   with a halfmove clock of 0 and no game boundary: the same position from the side to
//!   move's point of view, which is all that bulletformat itself knows.
//!
//! Castling rights and the en-passant square are not stored: a decoded board has neither.

use crate::chess::fen;
use crate::chess::{Board, Color, Piece, PieceType, Square};
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

/// Bytes per record.
pub const RECORD_SIZE: usize = 32;

/// The value of byte 31 in Tarpon's records: the spare bytes carry Tarpon's extras.
pub const TARPON_TAG: u8 = b'T';
/// Flag bit in byte 29: Black was to move, so the record is mirrored.
pub const FLAG_BLACK_TO_MOVE: u8 = 1;
/// Flag bit in byte 29: the first record of a game.
pub const FLAG_GAME_START: u8 = 2;

/// A game's result.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum GameResult {
    WhiteWin,
    Draw,
    BlackWin,
}

impl GameResult {
    /// The result as the format stores it, for `side`: 2 win, 1 draw, 0 loss.
    pub fn for_side(self, side: Color) -> u8 {
        match (self, side) {
            (GameResult::Draw, _) => 1,
            (GameResult::WhiteWin, Color::White) | (GameResult::BlackWin, Color::Black) => 2,
            _ => 0,
        }
    }

    /// The inverse of `for_side`.
    pub fn from_side(stored: u8, side: Color) -> Option<GameResult> {
        let white = match (stored, side) {
            (1, _) => return Some(GameResult::Draw),
            (2, Color::White) | (0, Color::Black) => true,
            (0, Color::White) | (2, Color::Black) => false,
            _ => return None,
        };
        Some(if white {
            GameResult::WhiteWin
        } else {
            GameResult::BlackWin
        })
    }

    /// The result for White as a score: 1, 0.5 or 0.
    pub fn white_score(self) -> f32 {
        match self {
            GameResult::WhiteWin => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWin => 0.0,
        }
    }
}

/// One decoded record.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position, in its real orientation when the record says which side was to move
    /// (Tarpon's do), otherwise as stored (White to move). No castling rights, no
    /// en-passant square; the fullmove number is 1.
    pub board: Board,
    /// The search score in centipawns, for the side to move.
    pub score: i16,
    /// The game's result for the side to move: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// Whether this is the first record of its game (known only in Tarpon's files).
    pub game_start: bool,
}

impl Sample {
    /// The game's result (in this board's orientation).
    pub fn game_result(&self) -> GameResult {
        GameResult::from_side(self.result, self.board.side_to_move())
            .expect("decoded results are 0, 1 or 2")
    }

    /// The search score in centipawns for White.
    pub fn white_score(&self) -> i16 {
        match self.board.side_to_move() {
            Color::White => self.score,
            Color::Black => -self.score,
        }
    }

    /// The result for the side to move as a score: 1, 0.5 or 0.
    pub fn result_score(&self) -> f32 {
        f32::from(self.result) / 2.0
    }
}

/// Why a position cannot be stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackError {
    /// The format has room for 32 pieces.
    TooManyPieces(u32),
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PackError::TooManyPieces(n) => {
                write!(f, "{n} pieces: the format stores at most 32")
            }
        }
    }
}

impl std::error::Error for PackError {}

/// The square as stored for a position with `side` to move.
fn stored(sq: usize, side: Color) -> usize {
    match side {
        Color::White => sq,
        Color::Black => sq ^ 56,
    }
}

/// Encodes a position with its search score (for the side to move) and its game's result.
/// `game_start` marks the first record of a game.
pub fn pack(
    board: &Board,
    score: i16,
    result: GameResult,
    game_start: bool,
) -> Result<[u8; RECORD_SIZE], PackError> {
    let pieces = board.occupied().count();
    if pieces > 32 {
        return Err(PackError::TooManyPieces(pieces));
    }
    let us = board.side_to_move();
    let mut occ = 0u64;
    let mut pcs = [0u8; 16];
    let mut n = 0;
    // Visit the stored squares in increasing order: the nibbles follow `occ`'s bits.
    for s in 0..64 {
        let Some(piece) = board.piece_on(Square::new(stored(s, us) as u8)) else {
            continue;
        };
        let colour = u8::from(piece.color() != us);
        let nibble = colour << 3 | piece.kind().index() as u8;
        occ |= 1 << s;
        pcs[n / 2] |= nibble << (4 * (n % 2));
        n += 1;
    }
    let ksq = stored(board.king_square(us).index(), us) as u8;
    let opp_ksq = stored(board.king_square(us.flip()).index(), us) as u8 ^ 56;
    let mut flags = 0;
    if us == Color::Black {
        flags |= FLAG_BLACK_TO_MOVE;
    }
    if game_start {
        flags |= FLAG_GAME_START;
    }

    let mut bytes = [0u8; RECORD_SIZE];
    bytes[0..8].copy_from_slice(&occ.to_le_bytes());
    bytes[8..24].copy_from_slice(&pcs);
    bytes[24..26].copy_from_slice(&score.to_le_bytes());
    bytes[26] = result.for_side(us);
    bytes[27] = ksq;
    bytes[28] = opp_ksq;
    bytes[29] = flags;
    bytes[30] = board.halfmove_clock().min(255) as u8;
    bytes[31] = TARPON_TAG;
    Ok(bytes)
}

/// Decodes a record, checking that it describes a legal position (one king each, no pawn
/// on the first or last rank, the side not to move not in check, king fields that agree
/// with the pieces).
pub fn unpack(bytes: &[u8; RECORD_SIZE]) -> Result<Sample, String> {
    let occ = u64::from_le_bytes(bytes[0..8].try_into().expect("8 bytes"));
    let pcs = &bytes[8..24];
    let score = i16::from_le_bytes([bytes[24], bytes[25]]);
    let result = bytes[26];
    let (ksq, opp_ksq) = (bytes[27], bytes[28]);
    let tarpon = bytes[31] == TARPON_TAG;
    let (flags, halfmove) = if tarpon {
        (bytes[29], bytes[30])
    } else {
        (0, 0)
    };
    if result > 2 {
        return Err(format!("result {result} is not 0, 1 or 2"));
    }
    if occ.count_ones() > 32 {
        return Err(format!("{} occupied squares, at most 32", occ.count_ones()));
    }
    if flags & !(FLAG_BLACK_TO_MOVE | FLAG_GAME_START) != 0 {
        return Err(format!("unknown flags {flags:#04x} in byte 29"));
    }
    let us = if flags & FLAG_BLACK_TO_MOVE != 0 {
        Color::Black
    } else {
        Color::White
    };

    let mut squares: [Option<Piece>; 64] = [None; 64];
    let mut bits = occ;
    let mut n = 0;
    while bits != 0 {
        let s = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let nibble = (pcs[n / 2] >> (4 * (n % 2))) & 15;
        n += 1;
        let kind = PieceType::ALL
            .get(usize::from(nibble & 7))
            .copied()
            .ok_or_else(|| format!("piece code {nibble} on stored square {s}"))?;
        let colour = if nibble & 8 == 0 { us } else { us.flip() };
        if kind == PieceType::King {
            let expected = if colour == us { ksq } else { opp_ksq ^ 56 };
            if usize::from(expected) != s {
                return Err(format!(
                    "king on stored square {s}, but the king field says {expected}"
                ));
            }
        }
        squares[stored(s, us)] = Some(Piece::new(colour, kind));
    }

    let text = format!(
        "{} {} - - {halfmove} 1",
        placement(&squares),
        if us == Color::White { 'w' } else { 'b' }
    );
    let board = fen::parse(&text, false).map_err(|e| format!("{text}: {e}"))?;
    Ok(Sample {
        board,
        score,
        result,
        game_start: flags & FLAG_GAME_START != 0,
    })
}

/// The placement field of a FEN.
fn placement(squares: &[Option<Piece>; 64]) -> String {
    let mut text = String::with_capacity(72);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                Some(piece) => {
                    if empty > 0 {
                        text.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    text.push(piece.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            text.push('/');
        }
    }
    text
}

/// Why a record could not be read.
#[derive(Debug)]
pub enum RecordError {
    Io(io::Error),
    /// The file ends inside a record (`bytes` left over after the last whole one).
    Truncated {
        bytes: usize,
    },
    /// Record number `index` (from 0) is not a valid position.
    Invalid {
        index: u64,
        reason: String,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            RecordError::Io(e) => write!(f, "read error: {e}"),
            RecordError::Truncated { bytes } => write!(
                f,
                "the file ends with {bytes} bytes that are not a whole {RECORD_SIZE}-byte record"
            ),
            RecordError::Invalid { index, reason } => write!(f, "record {index}: {reason}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// The records of a file, decoded one at a time (see [`read_records`]).
pub struct Records<R> {
    reader: R,
    index: u64,
    total: u64,
    done: bool,
}

impl<R> Records<R> {
    /// The number of whole records in the file.
    pub fn total(&self) -> u64 {
        self.total
    }
}

/// Opens a data file for reading, record by record. The iterator yields one `Sample` per
/// record; a record that does not decode yields an error and reading goes on with the next
/// one; a read error or a partial record at the end yields an error and ends the iteration.
pub fn read_records(path: impl AsRef<Path>) -> io::Result<Records<BufReader<File>>> {
    let file = File::open(path)?;
    let len = file.metadata()?.len();
    Ok(Records {
        reader: BufReader::with_capacity(1 << 16, file),
        index: 0,
        total: len / RECORD_SIZE as u64,
        done: false,
    })
}

impl<R: Read> Iterator for Records<R> {
    type Item = Result<Sample, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut bytes = [0u8; RECORD_SIZE];
        let mut filled = 0;
        while filled < RECORD_SIZE {
            match self.reader.read(&mut bytes[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.done = true;
                    return Some(Err(RecordError::Io(e)));
                }
            }
        }
        if filled < RECORD_SIZE {
            self.done = true;
            return (filled > 0).then_some(Err(RecordError::Truncated { bytes: filled }));
        }
        let index = self.index;
        self.index += 1;
        Some(unpack(&bytes).map_err(|reason| RecordError::Invalid { index, reason }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        fen::parse(text, false).unwrap()
    }

    #[test]
    fn start_position_bytes_follow_the_documented_layout() {
        let b = board(fen::START_FEN);
        let bytes = pack(&b, -37, GameResult::WhiteWin, true).unwrap();
        let mut expected = [0u8; 32];
        expected[0..8].copy_from_slice(&0xFFFF_0000_0000_FFFFu64.to_le_bytes());
        // a1..h1: R N B Q K B N R = 3 1 2 4 5 2 1 3, two per byte, low nibble first.
        expected[8..12].copy_from_slice(&[0x13, 0x42, 0x25, 0x31]);
        // Black's pieces carry colour bit 8: pawns 8, back rank 11 9 10 12 13 10 9 11.
        expected[16..20].copy_from_slice(&[0x88; 4]);
        expected[20..24].copy_from_slice(&[0x9B, 0xCA, 0xAD, 0xB9]);
        expected[24..26].copy_from_slice(&(-37i16).to_le_bytes());
        expected[26] = 2; // White to move, White won
        expected[27] = 4; // e1
        expected[28] = 4; // e8 seen from Black's side
        expected[29] = FLAG_GAME_START;
        expected[30] = 0;
        expected[31] = TARPON_TAG;
        assert_eq!(bytes, expected);
    }

    #[test]
    fn black_to_move_is_mirrored_with_colours_swapped() {
        // 1. e4: Black to move. Stored as if Black were White on a mirrored board.
        let b = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let bytes = pack(&b, 25, GameResult::WhiteWin, false).unwrap();
        let occ = u64::from_le_bytes(bytes[0..8].try_into().unwrap());
        // Black's pieces on ranks 7-8 become ranks 2-1; White's e4 pawn becomes e5.
        let e5 = 4 * 8 + 4;
        assert_eq!(occ, 0xFFEF_0000_0000_FFFF | 1 << e5);
        // The first stored square, a1, holds Black's a8 rook, now "our" rook: code 3.
        assert_eq!(bytes[8] & 15, 3);
        assert_eq!(
            bytes[26], 0,
            "White won: a loss for Black, the side to move"
        );
        assert_eq!(bytes[27], 4, "Black's king e8 stored as e1");
        assert_eq!(bytes[28], 4, "White's king e1 seen from White's side");
        assert_eq!(bytes[29], FLAG_BLACK_TO_MOVE);
        let sample = unpack(&bytes).unwrap();
        assert_eq!(sample.board.side_to_move(), Color::Black);
        assert_eq!(sample.white_score(), -25);
        assert_eq!(sample.game_result(), GameResult::WhiteWin);
    }

    #[test]
    fn round_trip_keeps_pieces_side_and_clock() {
        for text in [
            fen::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 3 7",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            "1Q2Q3/3k4/8/8/8/8/3K4/q6Q b - - 12 80",
            "8/8/8/8/8/8/6k1/4K3 w - - 99 120",
        ] {
            let b = board(text);
            for result in [GameResult::WhiteWin, GameResult::Draw, GameResult::BlackWin] {
                let sample = unpack(&pack(&b, 123, result, false).unwrap()).unwrap();
                let got = sample.board;
                for sq in Square::all() {
                    assert_eq!(got.piece_on(sq), b.piece_on(sq), "{text} {sq}");
                }
                assert_eq!(got.side_to_move(), b.side_to_move());
                assert_eq!(got.halfmove_clock(), b.halfmove_clock());
                assert_eq!(got.castling_rights(), 0);
                assert_eq!(sample.score, 123);
                assert_eq!(sample.game_result(), result);
                assert!(!sample.game_start);
            }
        }
    }

    #[test]
    fn foreign_records_read_as_white_to_move() {
        let b = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let mut bytes = pack(&b, 25, GameResult::Draw, true).unwrap();
        bytes[29..32].fill(0);
        let sample = unpack(&bytes).unwrap();
        assert_eq!(sample.board.side_to_move(), Color::White);
        // Black's pieces are White's now, and White's e4 pawn a black pawn on e5.
        assert_eq!(
            fen::to_fen(&sample.board),
            "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        );
        assert_eq!((sample.score, sample.result), (25, 1));
        assert!(!sample.game_start);
    }

    #[test]
    fn invalid_records_are_rejected() {
        let good = pack(&board(fen::START_FEN), 0, GameResult::Draw, false).unwrap();
        assert!(unpack(&good).is_ok());
        let mut bad = good;
        bad[26] = 3;
        assert!(unpack(&bad).unwrap_err().contains("result"));
        let mut bad = good;
        bad[27] = 5;
        assert!(unpack(&bad).unwrap_err().contains("king"));
        let mut bad = good;
        bad[8] = 0x17; // a piece code 7 on b1
        assert!(unpack(&bad).unwrap_err().contains("piece code"));
        let mut bad = good;
        bad[29] = 0x80;
        assert!(unpack(&bad).unwrap_err().contains("flags"));
        // White's king replaced by a pawn on e1: a pawn on the first rank, and one king.
        let mut bad = good;
        bad[10] = 0x20;
        assert!(unpack(&bad).is_err());
    }

    #[test]
    fn more_than_32_pieces_cannot_be_packed() {
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
        assert!(pack(&b, 0, GameResult::Draw, false).is_ok());
        // A third knight beside eight pawns: no FEN is accepted with it (it is more
        // material than a game can have), so it is put on the board directly.
        let mut crowded = b;
        crowded.set_up_piece(
            Piece::new(Color::White, PieceType::Knight),
            Square::from_coords(7, 2),
        );
        assert_eq!(
            pack(&crowded, 0, GameResult::Draw, false),
            Err(PackError::TooManyPieces(33))
        );
    }

    #[test]
    fn reader_reports_a_partial_last_record() {
        let good = pack(&board(fen::START_FEN), 0, GameResult::Draw, true).unwrap();
        let mut data = good.to_vec();
        data.extend_from_slice(&good);
        data.extend_from_slice(&good[..7]);
        let records = Records {
            reader: &data[..],
            index: 0,
            total: 2,
            done: false,
        };
        let items: Vec<_> = records.collect();
        assert_eq!(items.len(), 3);
        assert!(items[0].is_ok() && items[1].is_ok());
        assert!(matches!(items[2], Err(RecordError::Truncated { bytes: 7 })));
    }
}
