//! The small vocabulary of the board: colours, piece types, pieces, squares.
//!
//! Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63 ("little-endian rank-file"), so a
//! square's index is also its bit in a [`Bitboard`](super::bitboard::Bitboard).

use std::fmt;

/// The side to move or the owner of a piece.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// +1 for White, -1 for Black: the direction this side's pawns walk in ranks.
    pub const fn forward(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// The rank index (0..8) as seen from this side: rank 1 for White is rank 8 for Black.
    #[inline(always)]
    pub const fn relative_rank(self, rank: u8) -> u8 {
        match self {
            Color::White => rank,
            Color::Black => 7 - rank,
        }
    }
}

/// The six kinds of chess piece, in order of value (the order is used by tables).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum PieceType {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl PieceType {
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case letter as in FEN and UCI promotions ("p", "n", ...).
    pub const fn char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    /// Parses a piece letter in either case.
    pub fn from_char(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_lowercase() {
            'p' => PieceType::Pawn,
            'n' => PieceType::Knight,
            'b' => PieceType::Bishop,
            'r' => PieceType::Rook,
            'q' => PieceType::Queen,
            'k' => PieceType::King,
            _ => return None,
        })
    }
}

/// A coloured piece. The discriminant is `colour * 8 + type`, which keeps both parts one
/// mask or shift away and lets `Option<Piece>` fit in one byte.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Piece {
    WhitePawn = 0,
    WhiteKnight = 1,
    WhiteBishop = 2,
    WhiteRook = 3,
    WhiteQueen = 4,
    WhiteKing = 5,
    BlackPawn = 8,
    BlackKnight = 9,
    BlackBishop = 10,
    BlackRook = 11,
    BlackQueen = 12,
    BlackKing = 13,
}

impl Piece {
    const BY_COLOR_AND_TYPE: [[Piece; 6]; 2] = [
        [
            Piece::WhitePawn,
            Piece::WhiteKnight,
            Piece::WhiteBishop,
            Piece::WhiteRook,
            Piece::WhiteQueen,
            Piece::WhiteKing,
        ],
        [
            Piece::BlackPawn,
            Piece::BlackKnight,
            Piece::BlackBishop,
            Piece::BlackRook,
            Piece::BlackQueen,
            Piece::BlackKing,
        ],
    ];

    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece::BY_COLOR_AND_TYPE[color.index()][kind.index()]
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if (self as u8) & 8 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        PieceType::ALL[(self as u8 & 7) as usize]
    }

    /// A dense index 0..12 (White pawn .. Black king) for tables such as Zobrist keys.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color().index() * 6 + self.kind().index()
    }

    /// FEN letter: upper case for White.
    pub const fn char(self) -> char {
        let c = self.kind().char();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let kind = PieceType::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}

/// A square of the board, 0 (a1) to 63 (h8).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const E8: Square = Square(60);
    pub const H8: Square = Square(63);

    /// The square with this index; `index` must be below 64.
    #[inline(always)]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1); both must be below 8.
    #[inline(always)]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square(rank * 8 + file)
    }

    /// Every square, a1 to h8.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The square `delta` steps away in index order (8 = one rank up), if it is on the board.
    /// Callers must know the step does not wrap around a board edge.
    #[inline(always)]
    pub const fn offset(self, delta: i8) -> Square {
        Square((self.0 as i8 + delta) as u8)
    }

    /// The same square seen from the other side (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Parses a square name such as `e4`.
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let (f, r) = (b[0].wrapping_sub(b'a'), b[1].wrapping_sub(b'1'));
        (f < 8 && r < 8).then(|| Square::from_coords(f, r))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}
