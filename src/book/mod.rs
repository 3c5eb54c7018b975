//! Polyglot opening books: reading a `.bin` book, finding a position's moves, and picking
//! one to play.
//!
//! A Polyglot book is a flat file of 16-byte entries, each big-endian: the position's key
//! (8 bytes, see [`polyglot_keys`]), the move (2), its weight (2) and a "learn" field (4)
//! that some tools use for their own statistics and that is ignored here. Entries are
//! sorted by key, so the entries of one position are adjacent and found by binary search.
//! A book is read into memory whole when it is loaded: books are small (a large one is a
//! few tens of megabytes), and a probe then costs no file access during the game.
//!
//! A move is packed as to-file (bits 0-2), to-rank (3-5), from-file (6-8), from-rank (9-11)
//! and promotion piece (12-14: none, knight, bishop, rook, queen). Castling is written as
//! the king taking its own rook (`e1h1`), which is also how Tarpon stores castling, so a
//! book move matches a legal move by its squares alone.

pub mod polyglot_keys;

use crate::chess::movegen::legal_moves;
use crate::chess::notation::to_uci;
use crate::chess::{Board, Move, PieceType, Position, Square};
use crate::rng::SplitMix64;
use std::fmt;
use std::path::Path;

/// One 16-byte record of a book.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Entry {
    pub key: u64,
    pub raw_move: u16,
    pub weight: u16,
    pub learn: u32,
}

const ENTRY_BYTES: usize = 16;

impl Entry {
    fn from_bytes(bytes: &[u8; ENTRY_BYTES]) -> Entry {
        let [
            k0,
            k1,
            k2,
            k3,
            k4,
            k5,
            k6,
            k7,
            m0,
            m1,
            w0,
            w1,
            l0,
            l1,
            l2,
            l3,
        ] = *bytes;
        Entry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            raw_move: u16::from_be_bytes([m0, m1]),
            weight: u16::from_be_bytes([w0, w1]),
            learn: u32::from_be_bytes([l0, l1, l2, l3]),
        }
    }

    /// The entry's 16 bytes as they are stored in a book file.
    pub fn to_bytes(self) -> [u8; ENTRY_BYTES] {
        let mut bytes = [0; ENTRY_BYTES];
        bytes[0..8].copy_from_slice(&self.key.to_be_bytes());
        bytes[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        bytes[10..12].copy_from_slice(&self.weight.to_be_bytes());
        bytes[12..16].copy_from_slice(&self.learn.to_be_bytes());
        bytes
    }
}

/// Why a book could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be read (missing, unreadable); the text is the system's reason.
    Io { path: String, reason: String },
    /// A book is made of whole 16-byte entries.
    Size { path: String, bytes: u64 },
    /// Entries out of key order: binary search would miss positions.
    Unsorted { path: String, index: usize },
    /// Not enough memory to hold the book.
    Memory { path: String, bytes: u64 },
    /// A book move that no legal move of the position matches.
    IllegalMove { raw_move: u16, fen: String },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            BookError::Io { path, reason } => write!(f, "cannot read book {path}: {reason}"),
            BookError::Size { path, bytes } => write!(
                f,
                "book {path} is not a Polyglot book: its size ({bytes} bytes) \
                 is not a multiple of {ENTRY_BYTES}"
            ),
            BookError::Unsorted { path, index } => write!(
                f,
                "book {path} is not sorted by key (entry {index} comes after a larger key)"
            ),
            BookError::Memory { path, bytes } => {
                write!(f, "book {path} ({bytes} bytes) does not fit in memory")
            }
            BookError::IllegalMove { raw_move, fen } => write!(
                f,
                "book move {} is illegal in {fen}",
                raw_move_text(*raw_move)
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// A book read into memory.
#[derive(Clone, Debug)]
pub struct Book {
    entries: Vec<Entry>,
    /// Clock-seeded: random book choices need variety between games, not reproducibility.
    random: SplitMix64,
}

impl Book {
    /// Reads a whole book file, checking that it is made of whole, sorted entries.
    pub fn load(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let bytes = read_file(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::OutOfMemory => BookError::Memory {
                path: name.clone(),
                bytes: std::fs::metadata(path).map_or(0, |m| m.len()),
            },
            _ => BookError::Io {
                path: name.clone(),
                reason: e.to_string(),
            },
        })?;
        Book::from_bytes(&bytes).map_err(|e| match e {
            BookError::Size { bytes, .. } => BookError::Size { path: name, bytes },
            BookError::Unsorted { index, .. } => BookError::Unsorted { path: name, index },
            BookError::Memory { bytes, .. } => BookError::Memory { path: name, bytes },
            other => other,
        })
    }

    /// A book from the contents of a book file (the path in errors is left empty).
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let (chunks, rest) = bytes.as_chunks::<ENTRY_BYTES>();
        if !rest.is_empty() {
            return Err(BookError::Size {
                path: String::new(),
                bytes: bytes.len() as u64,
            });
        }
        let mut entries = Vec::new();
        entries
            .try_reserve_exact(chunks.len())
            .map_err(|_| BookError::Memory {
                path: String::new(),
                bytes: bytes.len() as u64,
            })?;
        entries.extend(chunks.iter().map(Entry::from_bytes));
        if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(BookError::Unsorted {
                path: String::new(),
                index: i + 1,
            });
        }
        Ok(Book {
            entries,
            random: SplitMix64::from_clock(),
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries stored for `key`, in file order.
    pub fn entries(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The book's moves for `position` with their entries, in file order. One move that is
    /// not legal here (a corrupt book, or a key collision) makes the whole answer an error:
    /// the entries of such a position cannot be trusted.
    pub fn probe(
        &self,
        position: &Position,
        setup_en_passant: Option<Square>,
    ) -> Result<Vec<(Move, Entry)>, BookError> {
        let key = position_key(position, setup_en_passant);
        self.entries(key)
            .iter()
            .map(|&entry| match to_move(position, entry.raw_move) {
                Some(m) => Ok((m, entry)),
                None => Err(BookError::IllegalMove {
                    raw_move: entry.raw_move,
                    fen: position.fen(),
                }),
            })
            .collect()
    }

    /// Picks the move to play from `moves` (as `probe` returns them): the first one of the
    /// highest weight if `best`, otherwise one at random in proportion to the weights.
    /// Moves of weight 0 are never picked: a zero weight is how book tools delete a move.
    pub fn choose(&mut self, moves: &[(Move, Entry)], best: bool) -> Option<(Move, Entry)> {
        let total: u64 = moves.iter().map(|(_, e)| u64::from(e.weight)).sum();
        if total == 0 {
            return None;
        }
        if best {
            // `max_by_key` keeps the last of equal maxima; reversing keeps the first.
            return moves.iter().rev().max_by_key(|(_, e)| e.weight).copied();
        }
        let mut pick = self.random.below(total);
        for &(m, entry) in moves {
            let weight = u64::from(entry.weight);
            if pick < weight {
                return Some((m, entry));
            }
            pick -= weight;
        }
        None
    }
}

/// The bytes of a book file. Only a regular file is read: `BookFile` set to a device or a
/// pipe (`/dev/zero`, a FIFO) would never end or block the engine. The memory is reserved
/// before reading, so a file too large for it is an error, not an abort.
fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    // Looked at before opening: opening a FIFO blocks until something writes to it.
    let metadata = std::fs::metadata(path)?;
    if !metadata.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "not a regular file"));
    }
    let mut file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    let size = usize::try_from(metadata.len()).map_err(|_| Error::from(ErrorKind::OutOfMemory))?;
    bytes
        .try_reserve_exact(size)
        .map_err(|_| Error::from(ErrorKind::OutOfMemory))?;
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The Polyglot key of a position. The en-passant square Polyglot wants is that of the
/// last move if it was a double pawn push, which the move history tells; when no move has
/// been played since the setup, it is the setup FEN's en-passant field (`setup_en_passant`).
pub fn position_key(position: &Position, setup_en_passant: Option<Square>) -> u64 {
    polyglot_keys::key(position, en_passant_target(position, setup_en_passant))
}

fn en_passant_target(position: &Position, setup_en_passant: Option<Square>) -> Option<Square> {
    if position.en_passant().is_some() {
        return position.en_passant();
    }
    let Some(last) = position.moves_played().last() else {
        return setup_en_passant;
    };
    let pawn = position.piece_on(last.to())?.kind() == PieceType::Pawn;
    let (from, to) = (last.from(), last.to());
    (pawn && from.rank().abs_diff(to.rank()) == 2)
        .then(|| Square::from_coords(from.file(), (from.rank() + to.rank()) / 2))
}

/// The en-passant field of a FEN (its fourth field), for [`position_key`]. `None` when it
/// is `-` or missing.
pub fn fen_en_passant(fen: &str) -> Option<Square> {
    fen.split_whitespace().nth(3).and_then(Square::parse)
}

/// The legal move of `board` that a book's raw move stands for, if there is one.
pub fn to_move(board: &Board, raw: u16) -> Option<Move> {
    let (from, to, promotion) = decode(raw)?;
    legal_moves(board)
        .iter()
        .find(|m| m.from() == from && m.to() == to && m.promotion_piece() == promotion)
        .copied()
}

/// The squares and promotion piece of a raw move; `None` for a promotion code above 4.
fn decode(raw: u16) -> Option<(Square, Square, Option<PieceType>)> {
    let square = |bits: u16| Square::new((bits & 63) as u8);
    let promotion = match raw >> 12 & 7 {
        0 => None,
        1 => Some(PieceType::Knight),
        2 => Some(PieceType::Bishop),
        3 => Some(PieceType::Rook),
        4 => Some(PieceType::Queen),
        _ => return None,
    };
    // The squares are stored as rank * 8 + file, which is Tarpon's square numbering too.
    Some((square(raw >> 6), square(raw), promotion))
}

/// The raw move as text (`e1h1`, `a7a8q`), for messages about moves that are not legal.
pub fn raw_move_text(raw: u16) -> String {
    match decode(raw) {
        Some((from, to, promotion)) => {
            let piece = promotion.map(|p| p.char().to_string()).unwrap_or_default();
            format!("{from}{to}{piece}")
        }
        None => format!("(raw {raw:#06x})"),
    }
}

/// The raw book form of a move (the inverse of [`to_move`]).
pub fn to_raw(m: Move) -> u16 {
    let promotion = match m.promotion_piece() {
        None => 0,
        Some(p) => p as u16 - PieceType::Knight as u16 + 1,
    };
    promotion << 12 | (m.from().index() as u16) << 6 | m.to().index() as u16
}

/// Percent of `weight` in `total`, for listing a position's moves.
pub fn percent(weight: u16, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        100.0 * f64::from(weight) / total as f64
    }
}

/// A short text for `info string` and the command line: the move, its weight and share.
pub fn describe(board: &Board, m: Move, entry: Entry, total: u64) -> String {
    format!(
        "{} (weight {}, {:.1}%)",
        to_uci(board, m),
        entry.weight,
        percent(entry.weight, total)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_uci;

    fn entry(key: u64, raw_move: u16, weight: u16) -> Entry {
        Entry {
            key,
            raw_move,
            weight,
            learn: 0,
        }
    }

    fn book(entries: &[Entry]) -> Book {
        let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
        Book::from_bytes(&bytes).expect("a valid test book")
    }

    /// The raw form of a move given in UCI text for the position `fen`.
    fn raw(fen: &str, uci: &str) -> u16 {
        let position = Position::from_fen(fen, false).expect("test FEN");
        to_raw(parse_uci(&position, uci).expect("test move"))
    }

    #[test]
    fn entries_are_big_endian() {
        let bytes = [
            0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c, 0x03, 0x1c, 0x01, 0x02, 0, 0, 0, 7,
        ];
        let e = Entry::from_bytes(&bytes);
        assert_eq!(
            e,
            Entry {
                key: 0x463b96181691fc9c,
                raw_move: 0x031c,
                weight: 0x0102,
                learn: 7
            }
        );
        assert_eq!(e.to_bytes(), bytes);
        assert_eq!(raw_move_text(e.raw_move), "e2e4");
    }

    #[test]
    fn binary_search_finds_all_entries_of_a_key() {
        let b = book(&[
            entry(1, 1, 1),
            entry(5, 2, 1),
            entry(5, 3, 1),
            entry(9, 4, 1),
        ]);
        let moves = |k| b.entries(k).iter().map(|e| e.raw_move).collect::<Vec<_>>();
        assert_eq!(moves(5), [2, 3]);
        assert_eq!(moves(1), [1]);
        assert_eq!(moves(9), [4]);
        assert!(moves(0).is_empty() && moves(6).is_empty() && moves(10).is_empty());
        assert!(book(&[]).entries(5).is_empty());
    }

    #[test]
    fn bad_files_are_errors() {
        let one = entry(1, 1, 1).to_bytes();
        assert!(matches!(
            Book::from_bytes(&one[..15]),
            Err(BookError::Size { bytes: 15, .. })
        ));
        let unsorted: Vec<u8> = [entry(9, 1, 1), entry(1, 1, 1)]
            .iter()
            .flat_map(|e| e.to_bytes())
            .collect();
        assert!(matches!(
            Book::from_bytes(&unsorted),
            Err(BookError::Unsorted { index: 1, .. })
        ));
        let missing = Book::load("/nonexistent/tarpon-test-book.bin");
        assert!(matches!(missing, Err(BookError::Io { .. })));
    }

    /// A directory or a device is refused without reading: `/dev/zero` would never end.
    #[test]
    fn only_regular_files_are_read() {
        for path in [std::env::temp_dir(), std::path::PathBuf::from("/dev/zero")] {
            if !path.exists() {
                continue;
            }
            match Book::load(&path) {
                Err(BookError::Io { reason, .. }) => {
                    assert!(reason.contains("not a regular file"), "{reason}")
                }
                other => panic!("{}: {other:?}", path.display()),
            }
        }
    }

    /// Castling is stored as the king taking its own rook, as Tarpon stores it; promotions
    /// carry their piece in bits 12-14.
    #[test]
    fn raw_moves_convert_to_legal_moves() {
        let castling = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let board = Position::from_fen(castling, false).unwrap();
        for (text, uci) in [(0x0107, "e1g1"), (0x0100, "e1c1"), (0x0105, "e1f1")] {
            let m = to_move(&board, text).expect("legal");
            assert_eq!(to_uci(&board, m), uci);
            assert_eq!(to_raw(m), text);
        }
        assert_eq!(raw(castling, "e1g1"), 0x0107);
        // The king's destination square is not Polyglot's castling form.
        assert_eq!(to_move(&board, 0x0106), None);

        let promotion = "8/1P6/8/8/8/8/8/k6K w - - 0 1";
        let board = Position::from_fen(promotion, false).unwrap();
        let b7b8 = 49 << 6 | 57;
        for (code, uci) in [(1, "b7b8n"), (2, "b7b8b"), (3, "b7b8r"), (4, "b7b8q")] {
            let m = to_move(&board, code << 12 | b7b8).expect("legal");
            assert_eq!(to_uci(&board, m), uci);
            assert_eq!(raw(promotion, uci), code << 12 | b7b8);
        }
        // A promotion without a piece, or with an unknown code, is no move.
        assert_eq!(to_move(&board, b7b8), None);
        assert_eq!(to_move(&board, 5 << 12 | b7b8), None);

        let en_passant = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
        let board = Position::from_fen(en_passant, false).unwrap();
        let m = to_move(&board, raw(en_passant, "e5d6")).expect("legal");
        assert_eq!(m.kind(), crate::chess::MoveKind::EnPassant);
    }

    #[test]
    fn an_illegal_book_move_makes_the_probe_an_error() {
        let start = Position::startpos();
        let key = position_key(&start, None);
        let e2e5 = (12 << 6) | 36;
        let bad = book(&[entry(key, 0x031c, 3), entry(key, e2e5, 1)]);
        let error = bad.probe(&start, None).unwrap_err();
        assert!(error.to_string().contains("e2e5"), "{error}");
        let good = book(&[entry(key, 0x031c, 3), entry(key + 1, e2e5, 1)]);
        let moves = good.probe(&start, None).unwrap();
        assert_eq!(moves.len(), 1);
        assert_eq!(to_uci(&start, moves[0].0), "e2e4");
    }

    #[test]
    fn choice_by_weight() {
        let start = Position::startpos();
        let key = position_key(&start, None);
        let weights = [("e2e4", 0), ("d2d4", 30), ("c2c4", 10), ("g1f3", 30)];
        let entries: Vec<Entry> = weights
            .iter()
            .map(|&(m, w)| entry(key, raw(crate::chess::fen::START_FEN, m), w))
            .collect();
        let mut b = book(&entries);
        b.random = SplitMix64::new(12345);
        let moves = b.probe(&start, None).unwrap();
        // The best is the first of the highest weight.
        let best = b.choose(&moves, true).unwrap();
        assert_eq!(to_uci(&start, best.0), "d2d4");
        // Random picks follow the weights and never take a weight-0 move.
        let mut counts = [0u32; 4];
        for _ in 0..7000 {
            let (m, _) = b.choose(&moves, false).unwrap();
            let i = moves.iter().position(|(n, _)| *n == m).unwrap();
            counts[i] += 1;
        }
        assert_eq!(counts[0], 0);
        for (i, expected) in [(1, 3000), (2, 1000), (3, 3000)] {
            assert!(counts[i].abs_diff(expected) < 300, "{counts:?}");
        }
        // Only weight-0 moves: nothing to play.
        assert_eq!(b.choose(&moves[..1], false), None);
        assert_eq!(b.choose(&moves[..1], true), None);
    }

    /// A double push with no pawn beside it leaves no en-passant term, and history-based and
    /// FEN-based keys agree.
    #[test]
    fn keys_from_history_and_from_fen_agree() {
        let mut position = Position::startpos();
        for text in ["e2e4", "c7c5", "e4e5", "d7d5"] {
            let m = parse_uci(&position, text).unwrap();
            position.make(m);
        }
        let fen = "rnbqkbnr/pp2pppp/8/2ppP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
        let from_fen = Position::from_fen(fen, false).unwrap();
        assert_eq!(
            position_key(&position, None),
            position_key(&from_fen, fen_en_passant(fen))
        );
    }
}
