//! The board: where every piece stands, whose move it is, and the state that the rules
//! need (castling rights, en-passant square, move clocks), with incrementally updated
//! Zobrist keys. `play` makes a move in place.
//!
//! Moves are taken back by copy-make: the caller keeps the board from before the move
//! (`Board` is `Copy`, about 180 bytes) instead of undoing the move piece by piece. Measured
//! with perft against a make/unmake version of the same code (25 paired runs, median):
//! copy-make took 0.94x the time from the start position (depth 6) and 0.97x on Kiwipete
//! (depth 5), and it cannot get an undo wrong.
//!
//! Game history (for repetition and for taking back several moves) is kept one level up,
//! in [`Position`](super::position::Position).

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use super::bitboard::Bitboard;
use super::moves::{Move, MoveKind};
use super::types::{Color, Piece, PieceType, Square};
use super::zobrist;

/// Castling rights as a 4-bit set.
pub mod rights {
    pub const WHITE_SHORT: u8 = 1;
    pub const WHITE_LONG: u8 = 2;
    pub const BLACK_SHORT: u8 = 4;
    pub const BLACK_LONG: u8 = 8;
    pub const ALL: u8 = 15;

    /// The right for `color` castling short (`short = true`) or long.
    pub const fn of(color: super::Color, short: bool) -> u8 {
        let bit = if short { WHITE_SHORT } else { WHITE_LONG };
        match color {
            super::Color::White => bit,
            super::Color::Black => bit << 2,
        }
    }

    /// Index 0..4 of a single right, in the order of the bits above.
    pub const fn index(right: u8) -> usize {
        right.trailing_zeros() as usize
    }
}

/// Where the castling rooks stand, which never changes during a game. Storing the rook
/// squares (not just "king side" and "queen side") is what makes Chess960 castling work
/// with the same code as standard chess.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct CastlingSetup {
    /// Rook square for each right, indexed by `rights::index`; meaningful only while the
    /// right is held.
    pub rook: [Square; 4],
    /// Chess960 notation: castling written as king-takes-rook, FEN with rook files.
    pub chess960: bool,
}

impl CastlingSetup {
    /// The rights (of those held: the caller masks) that a move of `piece` from `from` to
    /// `to` takes away: both of its side's when it is the king, and the right of a rook
    /// that leaves its square or is captured on it. Worked out rather than looked up in a
    /// table by square: the table made every board 64 bytes larger, and the search copies
    /// a board at every move it makes and takes back.
    #[inline(always)]
    fn rights_lost(&self, piece: Piece, from: Square, to: Square) -> u8 {
        let mut lost = 0;
        if piece.kind() == PieceType::King {
            lost = rights::of(piece.color(), true) | rights::of(piece.color(), false);
        }
        for (i, &rook) in self.rook.iter().enumerate() {
            if rook == from || rook == to {
                lost |= 1 << i;
            }
        }
        lost
    }

    pub const NONE: CastlingSetup = CastlingSetup {
        rook: [Square::H1, Square::A1, Square::H8, Square::A8],
        chess960: false,
    };
}

/// The squares one side attacks, by the cheapest kind of attacker (`Board::graded_attacks`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GradedAttacks {
    pub by_pawns: Bitboard,
    /// By pawns, knights or bishops.
    pub by_minors: Bitboard,
    /// By pawns, knights, bishops or rooks.
    pub by_rooks: Bitboard,
    /// By anything.
    pub all: Bitboard,
}

#[derive(Copy, Clone, Debug)]
pub struct Board {
    by_type: [Bitboard; 6],
    by_color: [Bitboard; 2],
    squares: [Option<Piece>; 64],
    side: Color,
    castling: u8,
    /// Set only when the side to move has a legal en-passant capture; otherwise `None`,
    /// so that positions differing only in an unusable en-passant square hash alike.
    en_passant: Option<Square>,
    halfmove_clock: u16,
    fullmove_number: u16,
    key: u64,
    pawn_key: u64,
    /// The Zobrist key of each colour's pieces other than pawns (kings included), by
    /// colour: what the search's correction history keys "this material" by.
    non_pawn_keys: [u64; 2],
    /// Enemy pieces giving check to the side to move.
    checkers: Bitboard,
    setup: CastlingSetup,
}

impl PartialEq for Board {
    /// Boards are equal when every field agrees (the derived keys included), except that
    /// the castling setup is compared only for the rights still held: the rook square of
    /// a right that is gone can never matter again, and a board read from FEN does not
    /// have it (a FEN names only the rights held), so a position reached in a game must
    /// equal the same position read back from its FEN.
    fn eq(&self, other: &Board) -> bool {
        let held = self.castling;
        let same_live_setup = self.setup.chess960 == other.setup.chess960
            && (0..4)
                .filter(|i| held & 1 << i != 0)
                .all(|i| self.setup.rook[i] == other.setup.rook[i]);
        self.by_type == other.by_type
            && self.by_color == other.by_color
            && self.squares == other.squares
            && self.side == other.side
            && self.castling == other.castling
            && self.en_passant == other.en_passant
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
            && self.key == other.key
            && self.pawn_key == other.pawn_key
            && self.non_pawn_keys == other.non_pawn_keys
            && self.checkers == other.checkers
            && same_live_setup
    }
}

impl Board {
    /// An empty board with White to move; FEN parsing fills it.
    pub(crate) fn empty() -> Board {
        Board {
            by_type: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            squares: [None; 64],
            side: Color::White,
            castling: 0,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            key: 0,
            pawn_key: 0,
            non_pawn_keys: [0; 2],
            checkers: Bitboard::EMPTY,
            setup: CastlingSetup::NONE,
        }
    }

    // ----- Queries -----

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    pub fn color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Pieces of one type, both colours.
    #[inline(always)]
    pub fn kind(&self, kind: PieceType) -> Bitboard {
        self.by_type[kind.index()]
    }

    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceType) -> Bitboard {
        self.by_color[color.index()] & self.by_type[kind.index()]
    }

    /// Whether `color` has a piece other than pawns and the king (null-move pruning is
    /// unsafe without one: pawn endings are full of zugzwang).
    #[inline(always)]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        (self.by_color[color.index()] & !(self.by_type[0] | self.by_type[5])).is_nonempty()
    }

    /// Bishops and queens of `color`: the pieces that attack along diagonals.
    #[inline(always)]
    pub fn diagonal_sliders(&self, color: Color) -> Bitboard {
        self.by_color[color.index()] & (self.by_type[2] | self.by_type[4])
    }

    /// Rooks and queens of `color`: the pieces that attack along ranks and files.
    #[inline(always)]
    pub fn straight_sliders(&self, color: Color) -> Bitboard {
        self.by_color[color.index()] & (self.by_type[3] | self.by_type[4])
    }

    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, PieceType::King).lsb()
    }

    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.is_nonempty()
    }

    /// The castling rights still held, as a set of `rights` bits.
    #[inline(always)]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    pub fn castling_setup(&self) -> &CastlingSetup {
        &self.setup
    }

    /// The rook square of a castling right (one bit of `rights`), if that right is held.
    pub fn castling_rook(&self, right: u8) -> Option<Square> {
        (self.castling & right != 0).then(|| self.setup.rook[rights::index(right)])
    }

    pub fn is_chess960(&self) -> bool {
        self.setup.chess960
    }

    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Plies since the last capture or pawn move (the fifty-move rule counts these).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    /// The Zobrist key of the whole position.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key of the pawns alone (for a pawn-structure cache).
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// The Zobrist key of `color`'s pieces other than pawns (its king included).
    #[inline(always)]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.non_pawn_keys[color.index()]
    }

    /// Every piece of either colour that attacks `sq`, given the occupancy `occupied`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, PieceType::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, PieceType::Pawn))
            | (knight_attacks(sq) & self.by_type[PieceType::Knight.index()])
            | (king_attacks(sq) & self.by_type[PieceType::King.index()])
            | (bishop_attacks(sq, occupied) & (self.by_type[2] | self.by_type[4]))
            | (rook_attacks(sq, occupied) & (self.by_type[3] | self.by_type[4]))
    }

    /// The squares `by` attacks (with the board's own occupancy), graded by the cheapest
    /// attacker: what its pawns attack, its pawns or minor pieces, its pawns, minor pieces
    /// or rooks, and anything. What the other side must reckon with before it puts a piece
    /// there or leaves it there.
    pub fn graded_attacks(&self, by: Color) -> GradedAttacks {
        let occupied = self.occupied();
        let pawns = self.pieces(by, PieceType::Pawn).0;
        let (not_a, not_h) = (!0x0101_0101_0101_0101u64, !0x8080_8080_8080_8080u64);
        let pawn_targets = match by {
            Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
            Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
        };
        let by_pawns = Bitboard(pawn_targets);
        let mut by_minors = by_pawns;
        for sq in self.pieces(by, PieceType::Knight) {
            by_minors |= knight_attacks(sq);
        }
        for sq in self.pieces(by, PieceType::Bishop) {
            by_minors |= bishop_attacks(sq, occupied);
        }
        let mut by_rooks = by_minors;
        for sq in self.pieces(by, PieceType::Rook) {
            by_rooks |= rook_attacks(sq, occupied);
        }
        let mut all = by_rooks | king_attacks(self.king_square(by));
        for sq in self.pieces(by, PieceType::Queen) {
            all |= bishop_attacks(sq, occupied) | rook_attacks(sq, occupied);
        }
        GradedAttacks {
            by_pawns,
            by_minors,
            by_rooks,
            all,
        }
    }

    /// Whether any piece of `by` attacks `sq`, given the occupancy `occupied`.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        (pawn_attacks(by.flip(), sq) & self.pieces(by, PieceType::Pawn)).is_nonempty()
            || (knight_attacks(sq) & self.pieces(by, PieceType::Knight)).is_nonempty()
            || (king_attacks(sq) & self.pieces(by, PieceType::King)).is_nonempty()
            || (bishop_attacks(sq, occupied) & self.diagonal_sliders(by)).is_nonempty()
            || (rook_attacks(sq, occupied) & self.straight_sliders(by)).is_nonempty()
    }

    /// Pieces of the side to move that are pinned to their own king: moving one off the
    /// line between the king and the pinning slider would expose the king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        let us = self.side;
        let them = us.flip();
        let king = self.king_square(us);
        let occupied = self.occupied();
        let snipers = (rook_attacks(king, self.color(them)) & self.straight_sliders(them))
            | (bishop_attacks(king, self.color(them)) & self.diagonal_sliders(them));
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper).without(sniper) & occupied;
            if !blockers.more_than_one() {
                pinned |= blockers & self.color(us);
            }
        }
        pinned
    }

    /// Whether the side to move may legally capture en passant with the pawn on `from`
    /// onto `ep`: the capture removes two pieces from one rank at once, so the test is done
    /// on the occupancy after the capture rather than with pin masks.
    pub fn en_passant_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.side;
        let captured = ep.offset(-8 * us.forward());
        let king = self.king_square(us);
        let occupied = (self.occupied() ^ from ^ captured) | ep;
        let them = self.color(us.flip()).without(captured);
        (self.attackers_to(king, occupied) & them).is_empty()
    }

    // ----- Changing the board -----

    #[inline(always)]
    fn put(&mut self, piece: Piece, sq: Square) {
        self.by_type[piece.kind().index()] |= sq;
        self.by_color[piece.color().index()] |= sq;
        self.squares[sq.index()] = Some(piece);
    }

    #[inline(always)]
    fn take(&mut self, piece: Piece, sq: Square) {
        self.by_type[piece.kind().index()] ^= sq;
        self.by_color[piece.color().index()] ^= sq;
        self.squares[sq.index()] = None;
    }

    #[inline(always)]
    fn shift(&mut self, piece: Piece, from: Square, to: Square) {
        let both = Bitboard::from_square(from) | to;
        self.by_type[piece.kind().index()] ^= both;
        self.by_color[piece.color().index()] ^= both;
        self.squares[from.index()] = None;
        self.squares[to.index()] = Some(piece);
    }

    /// Key contribution of a piece on a square, to the main and the pawn key.
    #[inline(always)]
    fn toggle_key(&mut self, piece: Piece, sq: Square) {
        let k = zobrist::piece_square(piece, sq);
        self.key ^= k;
        if piece.kind() == PieceType::Pawn {
            self.pawn_key ^= k;
        } else {
            self.non_pawn_keys[piece.color().index()] ^= k;
        }
    }

    /// Places a piece while setting up a position (FEN parsing), keys included.
    pub(crate) fn set_up_piece(&mut self, piece: Piece, sq: Square) {
        self.put(piece, sq);
        self.toggle_key(piece, sq);
    }

    pub(crate) fn set_up_state(
        &mut self,
        side: Color,
        castling: u8,
        setup: CastlingSetup,
        halfmove_clock: u16,
        fullmove_number: u16,
    ) {
        self.side = side;
        self.castling = castling;
        self.setup = setup;
        self.halfmove_clock = halfmove_clock;
        self.fullmove_number = fullmove_number;
        if side == Color::Black {
            self.key ^= zobrist::side();
        }
        self.key ^= zobrist::castling(castling);
        self.checkers =
            self.attackers_to(self.king_square(side), self.occupied()) & self.color(side.flip());
    }

    /// Sets the en-passant square from a FEN, keeping it only if a capture is legal.
    pub(crate) fn set_up_en_passant(&mut self, ep: Square) {
        self.update_en_passant(ep);
    }

    /// After a double pawn push that passed `ep`, records `ep` (and its key) if the side now
    /// to move has a legal en-passant capture onto it.
    #[inline(always)]
    fn update_en_passant(&mut self, ep: Square) {
        let capturers =
            pawn_attacks(self.side.flip(), ep) & self.pieces(self.side, PieceType::Pawn);
        if capturers.is_nonempty()
            && capturers
                .into_iter()
                .any(|from| self.en_passant_is_legal(from, ep))
        {
            self.en_passant = Some(ep);
            self.key ^= zobrist::en_passant(ep);
        }
    }

    /// The king and rook destinations of castling with the rook on `rook`.
    #[inline(always)]
    pub fn castling_destinations(&self, king: Square, rook: Square) -> (Square, Square) {
        let rank = king.rank();
        if rook > king {
            (Square::from_coords(6, rank), Square::from_coords(5, rank))
        } else {
            (Square::from_coords(2, rank), Square::from_coords(3, rank))
        }
    }

    /// The hash key after legal move `m`, for prefetching the hash-table entry of the next
    /// position before the move is made. Exact for quiet moves and plain captures that
    /// keep the castling rights and make no en-passant square; other moves (castling, en
    /// passant, promotions, double pushes, moves that lose a right) may get another key,
    /// which costs nothing but a useless prefetch. Nothing else may rely on it.
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let mut key = self.key ^ zobrist::side();
        if let Some(ep) = self.en_passant {
            key ^= zobrist::en_passant(ep);
        }
        if let Some(piece) = self.squares[from.index()] {
            key ^= zobrist::piece_square(piece, from) ^ zobrist::piece_square(piece, to);
        }
        if let Some(captured) = self.squares[to.index()] {
            key ^= zobrist::piece_square(captured, to);
        }
        key
    }

    /// Makes a legal move. There is no unmake: to take a move back, keep a copy of the
    /// board from before it (see the module comment).
    pub fn play(&mut self, m: Move) {
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let piece = self.squares[from.index()].expect("move from an empty square");

        self.key ^= zobrist::side();
        if let Some(ep) = self.en_passant.take() {
            self.key ^= zobrist::en_passant(ep);
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        let mut double_push = None;

        match m.kind() {
            MoveKind::Castling => {
                let rook = Piece::new(us, PieceType::Rook);
                let (king_to, rook_to) = self.castling_destinations(from, to);
                // Lift both pieces before placing either: in Chess960 their squares may overlap.
                self.take(piece, from);
                self.take(rook, to);
                self.put(piece, king_to);
                self.put(rook, rook_to);
                self.toggle_key(piece, from);
                self.toggle_key(rook, to);
                self.toggle_key(piece, king_to);
                self.toggle_key(rook, rook_to);
            }
            kind => {
                let captured_sq = if kind == MoveKind::EnPassant {
                    to.offset(-8 * us.forward())
                } else {
                    to
                };
                if let Some(captured) = self.squares[captured_sq.index()] {
                    self.take(captured, captured_sq);
                    self.toggle_key(captured, captured_sq);
                    self.halfmove_clock = 0;
                }
                self.shift(piece, from, to);
                self.toggle_key(piece, from);
                self.toggle_key(piece, to);
                if piece.kind() == PieceType::Pawn {
                    self.halfmove_clock = 0;
                    if let Some(promoted) = m.promotion_piece() {
                        let promoted = Piece::new(us, promoted);
                        self.take(piece, to);
                        self.toggle_key(piece, to);
                        self.put(promoted, to);
                        self.toggle_key(promoted, to);
                    } else if from.index() ^ to.index() == 16 {
                        double_push = Some(from.offset(8 * us.forward()));
                    }
                }
            }
        }

        if self.castling != 0 {
            let lost = self.setup.rights_lost(piece, from, to);
            if self.castling & lost != 0 {
                self.key ^= zobrist::castling(self.castling);
                self.castling &= !lost;
                self.key ^= zobrist::castling(self.castling);
            }
        }

        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side = us.flip();
        self.checkers =
            self.attackers_to(self.king_square(self.side), self.occupied()) & self.color(us);
        if let Some(ep) = double_push {
            self.update_en_passant(ep);
        }
    }

    /// Passes the move to the opponent (for null-move pruning). Not allowed in check.
    pub fn play_null(&mut self) {
        debug_assert!(!self.in_check());
        self.key ^= zobrist::side();
        if let Some(ep) = self.en_passant.take() {
            self.key ^= zobrist::en_passant(ep);
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if self.side == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side = self.side.flip();
        self.checkers = Bitboard::EMPTY;
    }

    /// The Zobrist key computed from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> (u64, u64) {
        let (mut key, mut pawn_key) = (0, 0);
        for sq in self.occupied() {
            let piece = self.squares[sq.index()].expect("occupied square without a piece");
            key ^= zobrist::piece_square(piece, sq);
            if piece.kind() == PieceType::Pawn {
                pawn_key ^= zobrist::piece_square(piece, sq);
            }
        }
        if self.side == Color::Black {
            key ^= zobrist::side();
        }
        key ^= zobrist::castling(self.castling);
        if let Some(ep) = self.en_passant {
            key ^= zobrist::en_passant(ep);
        }
        (key, pawn_key)
    }

    /// The non-pawn keys computed from scratch, White's first (tests compare them with the
    /// incremental ones).
    pub fn compute_non_pawn_keys(&self) -> [u64; 2] {
        let mut keys = [0; 2];
        for sq in self.occupied() {
            let piece = self.squares[sq.index()].expect("occupied square without a piece");
            if piece.kind() != PieceType::Pawn {
                keys[piece.color().index()] ^= zobrist::piece_square(piece, sq);
            }
        }
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search copies the board at every move it makes and takes back (copy-make, see
    /// the module documentation): it stays within three cache lines.
    #[test]
    fn a_board_fits_in_three_cache_lines() {
        let size = std::mem::size_of::<Board>();
        assert!(size <= 192, "a board takes {size} bytes");
    }

    /// Each grade of a side's attack map holds exactly the squares that pieces of that
    /// grade or cheaper attack, and the whole map those that `is_attacked` names.
    #[test]
    fn graded_attacks_agree_with_the_attackers_of_every_square() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "7k/P7/8/8/8/8/7p/K7 b - - 0 1",
        ] {
            let board = crate::chess::fen::parse(fen, false).expect("a valid FEN");
            let occupied = board.occupied();
            for by in Color::ALL {
                let graded = board.graded_attacks(by);
                let mine = |kind| board.pieces(by, kind);
                for index in 0..64 {
                    let sq = Square::new(index);
                    let pawn = (pawn_attacks(by.flip(), sq) & mine(PieceType::Pawn)).is_nonempty();
                    let minor = pawn
                        || (knight_attacks(sq) & mine(PieceType::Knight)).is_nonempty()
                        || (bishop_attacks(sq, occupied) & mine(PieceType::Bishop)).is_nonempty();
                    let rook =
                        minor || (rook_attacks(sq, occupied) & mine(PieceType::Rook)).is_nonempty();
                    let what = format!("{fen}: {by:?} on {sq:?}");
                    assert_eq!(graded.by_pawns.contains(sq), pawn, "pawns, {what}");
                    assert_eq!(graded.by_minors.contains(sq), minor, "minors, {what}");
                    assert_eq!(graded.by_rooks.contains(sq), rook, "rooks, {what}");
                    assert_eq!(
                        graded.all.contains(sq),
                        board.is_attacked(sq, by, occupied),
                        "all, {what}"
                    );
                }
            }
        }
    }
}
