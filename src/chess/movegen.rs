//! Legal move generation.
//!
//! Moves are generated legal from the start instead of generating pseudo-legal moves and
//! testing each one afterwards:
//! - the king may go only to squares the enemy does not attack (tested with the king taken
//!   off the board, so it cannot hide behind its own square from a slider);
//! - in double check only the king moves; in single check every other piece must capture
//!   the checker or block the line (the *check mask*);
//! - a pinned piece may move only along the line through its king and the pinner;
//! - en passant, which removes two pieces from one rank, is tested on the resulting
//!   occupancy (`Board::en_passant_is_legal`);
//! - castling checks that the squares are empty and the king's path is not attacked.
//!
//! Three entry points split the moves into disjoint sets whose union is every legal move:
//! *noisy* moves (captures, en passant, and every promotion) for quiescence search, and
//! *quiet* moves (the rest, castling included). A fourth lists only the quiet moves that
//! give check, for the searches that want no others (quiescence's first ply, and a node
//! whose other quiet moves were pruned).

use super::attacks::{between, bishop_attacks, king_attacks, knight_attacks, line, rook_attacks};
use super::bitboard::Bitboard;
use super::board::{Board, rights};
use super::moves::{Move, MoveKind, MoveList};
use super::types::{PieceType, Square};

/// Which moves to generate.
const ALL: u8 = 0;
const NOISY: u8 = 1;
const QUIET: u8 = 2;

/// Every legal move.
pub fn legal_moves(board: &Board) -> MoveList {
    let mut list = MoveList::new();
    generate::<ALL>(board, Bitboard::ALL, &mut list);
    list
}

/// `legal_moves` written into a list the caller owns.
pub fn legal_moves_into(board: &Board, list: &mut MoveList) {
    list.clear();
    generate::<ALL>(board, Bitboard::ALL, list);
}

/// Legal captures (en passant included) and promotions (every piece, capturing or not).
pub fn noisy_moves(board: &Board) -> MoveList {
    let mut list = MoveList::new();
    generate::<NOISY>(board, Bitboard::ALL, &mut list);
    list
}

/// `noisy_moves` written into a list the caller owns (the move picker refills its own
/// list at every node; returning a fresh one would copy it there).
pub fn noisy_moves_into(board: &Board, list: &mut MoveList) {
    list.clear();
    generate::<NOISY>(board, Bitboard::ALL, list);
}

/// Legal moves that neither capture nor promote, castling included.
pub fn quiet_moves(board: &Board) -> MoveList {
    let mut list = MoveList::new();
    generate::<QUIET>(board, Bitboard::ALL, &mut list);
    list
}

/// `quiet_moves` written into a list the caller owns.
pub fn quiet_moves_into(board: &Board, list: &mut MoveList) {
    list.clear();
    generate::<QUIET>(board, Bitboard::ALL, list);
}

/// The quiet moves that give check (by `checks`, worked out for this board), in the order
/// `quiet_moves_into` lists them. Each piece's destinations are narrowed to its checking
/// squares before the moves are listed, instead of listing every quiet move and testing it.
pub fn quiet_checks_into(board: &Board, checks: &CheckInfo, list: &mut MoveList) {
    list.clear();
    generate_checks::<QUIET>(board, Bitboard::ALL, Some(checks), list);
}

/// Legal moves of the piece on `from` only (used to check a single move cheaply).
pub fn legal_moves_from(board: &Board, from: Square) -> MoveList {
    let mut list = MoveList::new();
    generate::<ALL>(board, Bitboard::from_square(from), &mut list);
    list
}

/// Whether `m` is legal here. Safe for moves from anywhere (a hash table, a killer slot,
/// user input): anything malformed or belonging to another position is simply not legal.
///
/// The search asks this of its hash move and killers at nearly every node, so the common
/// case, a move of a piece other than the king, is judged directly: can the piece reach the
/// square, does the move answer a check, does it leave the king exposed? King moves,
/// castling and en passant are rare enough to go to the generator, whose answer the fast
/// path must always give too (a test compares them on every possible move).
pub fn is_legal(board: &Board, m: Move) -> bool {
    let us = board.side_to_move();
    let (from, to) = (m.from(), m.to());
    let piece = match board.piece_on(from) {
        Some(p) if p.color() == us => p.kind(),
        _ => return false,
    };
    if piece == PieceType::King || matches!(m.kind(), MoveKind::Castling | MoveKind::EnPassant) {
        return legal_moves_from(board, from).contains(m);
    }
    let occupied = board.occupied();
    let theirs = board.color(us.flip());
    let reach = match piece {
        PieceType::Pawn => {
            let (single, double) = pawn_pushes(board, Bitboard::from_square(from));
            single | double | (super::attacks::pawn_attacks(us, from) & theirs)
        }
        PieceType::Knight => knight_attacks(from),
        PieceType::Bishop => bishop_attacks(from, occupied),
        PieceType::Rook => rook_attacks(from, occupied),
        _ => bishop_attacks(from, occupied) | rook_attacks(from, occupied),
    };
    if !(reach & !board.color(us)).contains(to) {
        return false;
    }
    // A pawn reaching the last rank must promote, and only then is a move a promotion; a
    // plain move carries no stray bits (a move from the table is any 16 bits).
    let last_rank = Bitboard::rank(us.relative_rank(7));
    let promotes = piece == PieceType::Pawn && last_rank.contains(to);
    match m.kind() {
        MoveKind::Promotion if !promotes => return false,
        MoveKind::Normal if promotes || m != Move::new(from, to) => return false,
        _ => {}
    }
    let king = board.king_square(us);
    let checkers = board.checkers();
    if checkers.more_than_one()
        || (checkers.is_nonempty() && !between(king, checkers.lsb()).contains(to))
    {
        return false;
    }
    // Pinned: leaving the line through the king uncovers a slider behind the piece.
    let pin_line = line(king, from);
    if pin_line.is_empty() || pin_line.contains(to) {
        return true;
    }
    let after = occupied.without(from).with(to);
    let exposed = (bishop_attacks(king, after) & board.diagonal_sliders(us.flip()))
        | (rook_attacks(king, after) & board.straight_sliders(us.flip()));
    (exposed & !Bitboard::from_square(to)).is_empty()
}

/// Number of legal moves, counted without listing them (perft's last ply needs only this).
pub fn count_legal_moves(board: &Board) -> u64 {
    let mut counter = MoveCounter(0);
    generate::<ALL>(board, Bitboard::ALL, &mut counter);
    counter.0
}

/// Where the generator puts moves: a move list, or just a counter. Pawn moves arrive as
/// whole sets of destinations (each from `delta` squares behind), which a counter can
/// count with one popcount.
trait MoveSink {
    fn push(&mut self, m: Move);
    /// Ordinary moves from `from` to every square of `targets`.
    fn push_targets(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves (not promotions) to every square of `targets`.
    fn push_pawn_moves(&mut self, targets: Bitboard, delta: i8);
    /// Promotions to each of the four pieces, to every square of `targets`.
    fn push_promotions(&mut self, targets: Bitboard, delta: i8);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }

    #[inline(always)]
    fn push_targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            MoveList::push(self, Move::new(from, to));
        }
    }

    #[inline(always)]
    fn push_pawn_moves(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            MoveList::push(self, Move::new(to.offset(-delta), to));
        }
    }

    #[inline(always)]
    fn push_promotions(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            // Queen first: move ordering will look at it first anyway.
            for piece in [
                PieceType::Queen,
                PieceType::Knight,
                PieceType::Rook,
                PieceType::Bishop,
            ] {
                MoveList::push(self, Move::promotion(to.offset(-delta), to, piece));
            }
        }
    }
}

struct MoveCounter(u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn push_targets(&mut self, _: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }

    #[inline(always)]
    fn push_pawn_moves(&mut self, targets: Bitboard, _: i8) {
        self.0 += targets.count() as u64;
    }

    #[inline(always)]
    fn push_promotions(&mut self, targets: Bitboard, _: i8) {
        self.0 += 4 * targets.count() as u64;
    }
}

/// Appends the legal moves of type `KIND` made by pieces on `sources` to `list`.
#[inline(always)]
fn generate<const KIND: u8>(board: &Board, sources: Bitboard, list: &mut impl MoveSink) {
    generate_checks::<KIND>(board, sources, None, list);
}

/// `generate`, keeping only the moves that give check when `checks` is given. (Every
/// caller passes a constant, so the test for it is compiled away.)
#[inline(always)]
fn generate_checks<const KIND: u8>(
    board: &Board,
    sources: Bitboard,
    checks: Option<&CheckInfo>,
    list: &mut impl MoveSink,
) {
    // The squares a normal move of a `kind` from `from` may end on.
    let checking = |from: Square, kind: PieceType| {
        checks.map_or(Bitboard::ALL, |c| c.checking_targets(from, kind))
    };
    let us = board.side_to_move();
    let them = us.flip();
    let occupied = board.occupied();
    let ours = board.color(us);
    let theirs = board.color(them);
    let king = board.king_square(us);
    let checkers = board.checkers();

    // Squares a move of this kind may end on, before checks and pins.
    let targets = match KIND {
        NOISY => theirs,
        QUIET => !occupied,
        _ => !ours,
    };

    if sources.contains(king) {
        let without_king = occupied.without(king);
        for to in king_attacks(king) & targets & checking(king, PieceType::King) {
            if !board.is_attacked(to, them, without_king) {
                list.push(Move::new(king, to));
            }
        }
        if KIND != NOISY && checkers.is_empty() {
            match checks {
                None => generate_castling(board, list),
                Some(c) => {
                    let mut castles = MoveList::new();
                    generate_castling(board, &mut castles);
                    for &m in castles.iter().filter(|&&m| c.gives_check(board, m)) {
                        list.push(m);
                    }
                }
            }
        }
    }
    if checkers.more_than_one() {
        return;
    }
    let check_mask = if checkers.is_nonempty() {
        between(king, checkers.lsb())
    } else {
        Bitboard::ALL
    };
    let pinned = board.pinned();
    let targets = targets & check_mask;

    for from in board.pieces(us, PieceType::Knight) & sources & !pinned {
        list.push_targets(
            from,
            knight_attacks(from) & targets & checking(from, PieceType::Knight),
        );
    }
    // A queen's moves come in both loops, each time narrowed to the queen's checks.
    let kind_on = |from: Square| {
        board
            .piece_on(from)
            .expect("a slider stands on its square")
            .kind()
    };
    for from in board.diagonal_sliders(us) & sources {
        let mut to = bishop_attacks(from, occupied) & targets;
        if checks.is_some() {
            to &= checking(from, kind_on(from));
        }
        if pinned.contains(from) {
            to &= line(king, from);
        }
        list.push_targets(from, to);
    }
    for from in board.straight_sliders(us) & sources {
        let mut to = rook_attacks(from, occupied) & targets;
        if checks.is_some() {
            to &= checking(from, kind_on(from));
        }
        if pinned.contains(from) {
            to &= line(king, from);
        }
        list.push_targets(from, to);
    }

    let pawns = board.pieces(us, PieceType::Pawn) & sources;
    generate_pawns::<KIND>(board, pawns & !pinned, check_mask, checks, list);
    for from in pawns & pinned {
        generate_pawns::<KIND>(
            board,
            Bitboard::from_square(from),
            check_mask & line(king, from),
            checks,
            list,
        );
    }
}

/// Shifts a set of squares by a whole number of ranks and files (positive = towards h8),
/// dropping squares that would leave the board.
#[inline(always)]
fn shift(b: Bitboard, delta: i8) -> Bitboard {
    // A move one file sideways must not wrap from the h-file to the a-file or back.
    let b = match delta.rem_euclid(8) {
        1 => b & !Bitboard::FILE_H,
        7 => b & !Bitboard::FILE_A,
        _ => b,
    };
    if delta > 0 {
        Bitboard(b.0 << delta)
    } else {
        Bitboard(b.0 >> -delta)
    }
}

/// The squares the side to move's `pawns` reach by one step forward and by two (from
/// their starting rank, both squares empty).
#[inline(always)]
fn pawn_pushes(board: &Board, pawns: Bitboard) -> (Bitboard, Bitboard) {
    let us = board.side_to_move();
    let up = 8 * us.forward();
    let empty = !board.occupied();
    let single = shift(pawns, up) & empty;
    let third = Bitboard::rank(us.relative_rank(2));
    (single, shift(single & third, up) & empty)
}

/// Pawn moves of the pawns in `pawns`, restricted to destinations in `allowed` (the check
/// mask, narrowed to the pin line for a pinned pawn), and to checks when `checks` is given
/// (pushes only: it comes with `QUIET`). En passant is tested on its own.
#[inline(always)]
fn generate_pawns<const KIND: u8>(
    board: &Board,
    pawns: Bitboard,
    allowed: Bitboard,
    checks: Option<&CheckInfo>,
    list: &mut impl MoveSink,
) {
    if pawns.is_empty() {
        return;
    }
    let us = board.side_to_move();
    let up = 8 * us.forward();
    let (left, right) = (up - 1, up + 1);
    let empty = !board.occupied();
    let theirs = board.color(us.flip());
    let seventh = Bitboard::rank(us.relative_rank(6));

    let (promoting, others) = (pawns & seventh, pawns & !seventh);

    if KIND != NOISY {
        let (mut single, mut double) = pawn_pushes(board, others);
        if let Some(c) = checks {
            // Pushes onto the pawn's checking squares, and any push of a pawn that
            // uncovers a check (a push along the line to their king uncovers nothing).
            let direct = c.check_squares[PieceType::Pawn as usize];
            let (mut uncovered_single, mut uncovered_double) = (Bitboard::EMPTY, Bitboard::EMPTY);
            for from in others & c.discoverers {
                let off_line = !line(from, c.their_king);
                uncovered_single |= shift(Bitboard::from_square(from), up) & off_line;
                uncovered_double |= shift(Bitboard::from_square(from), 2 * up) & off_line;
            }
            single &= direct | uncovered_single;
            double &= direct | uncovered_double;
        }
        list.push_pawn_moves(single & allowed, up);
        list.push_pawn_moves(double & allowed, 2 * up);
    }
    if KIND != QUIET {
        list.push_pawn_moves(shift(others, left) & theirs & allowed, left);
        list.push_pawn_moves(shift(others, right) & theirs & allowed, right);
        if promoting.is_nonempty() {
            list.push_promotions(shift(promoting, up) & empty & allowed, up);
            list.push_promotions(shift(promoting, left) & theirs & allowed, left);
            list.push_promotions(shift(promoting, right) & theirs & allowed, right);
        }
        if let Some(ep) = board.en_passant() {
            for from in super::attacks::pawn_attacks(us.flip(), ep) & pawns {
                if board.en_passant_is_legal(from, ep) {
                    list.push(Move::with_kind(from, ep, MoveKind::EnPassant));
                }
            }
        }
    }
}

/// Castling moves of the side to move, which is not in check.
///
/// The squares the king and rook cross and land on must be empty (apart from the two pieces
/// themselves), and no square the king crosses or lands on may be attacked. In Chess960 the
/// castling rook itself may have been shielding the king's destination along the back rank,
/// so the destination is tested again without it.
fn generate_castling(board: &Board, list: &mut impl MoveSink) {
    let us = board.side_to_move();
    let them = us.flip();
    if board.castling_rights() & (rights::of(us, true) | rights::of(us, false)) == 0 {
        return;
    }
    let king = board.king_square(us);
    let occupied = board.occupied();
    for short in [true, false] {
        let Some(rook) = board.castling_rook(rights::of(us, short)) else {
            continue;
        };
        let (king_to, rook_to) = board.castling_destinations(king, rook);
        let both = Bitboard::from_square(king) | rook;
        let must_be_empty = (between(king, king_to) | between(rook, rook_to)) & !both;
        if (must_be_empty & occupied).is_nonempty() {
            continue;
        }
        let king_path = between(king, king_to) | king_to;
        if king_path
            .into_iter()
            .any(|sq| board.is_attacked(sq, them, occupied))
        {
            continue;
        }
        if board.is_attacked(king_to, them, occupied.without(rook)) {
            continue;
        }
        list.push(Move::with_kind(king, rook, MoveKind::Castling));
    }
}

/// What testing moves for check needs to know about a position, worked out once per node:
/// with it, most moves are tested with two bit lookups instead of the two slider lookups
/// that `gives_check` makes for every move (the search asks about every move it tries).
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// For each piece type, the squares from which a piece of ours of that type would
    /// attack their king (empty for the king, which never gives check itself).
    check_squares: [Bitboard; 6],
    /// Our pieces that alone stand between one of our sliders and their king: moving one
    /// off that line uncovers a check.
    discoverers: Bitboard,
    their_king: Square,
}

impl CheckInfo {
    pub fn new(board: &Board) -> CheckInfo {
        let us = board.side_to_move();
        let them = us.flip();
        let king = board.king_square(them);
        let occupied = board.occupied();
        let diagonal = bishop_attacks(king, occupied);
        let straight = rook_attacks(king, occupied);
        let check_squares = [
            super::attacks::pawn_attacks(them, king),
            knight_attacks(king),
            diagonal,
            straight,
            diagonal | straight,
            Bitboard::EMPTY,
        ];
        // Our sliders that would see the king through an empty board; each one with a
        // single piece of ours (and nothing else) in between makes that piece a discoverer.
        let snipers = (bishop_attacks(king, Bitboard::EMPTY) & board.diagonal_sliders(us))
            | (rook_attacks(king, Bitboard::EMPTY) & board.straight_sliders(us));
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper).without(sniper) & occupied;
            if blockers.is_nonempty() && !blockers.more_than_one() {
                discoverers |= blockers & board.color(us);
            }
        }
        CheckInfo {
            check_squares,
            discoverers,
            their_king: king,
        }
    }

    /// The squares on which a normal move of our piece of type `kind` from `from` gives
    /// check: its checking squares, and, when it shields their king from one of our
    /// sliders, every square off that line.
    #[inline(always)]
    fn checking_targets(&self, from: Square, kind: PieceType) -> Bitboard {
        let uncovered = if self.discoverers.contains(from) {
            !line(from, self.their_king)
        } else {
            Bitboard::EMPTY
        };
        self.check_squares[kind as usize] | uncovered
    }

    /// Whether the legal move `m` gives check; the same answer as `gives_check`.
    /// Castling, en passant and promotions, which change more than one square or the
    /// piece, are rare: they take the full test.
    #[inline]
    pub fn gives_check(&self, board: &Board, m: Move) -> bool {
        if m.kind() != MoveKind::Normal {
            return gives_check(board, m);
        }
        let (from, to) = (m.from(), m.to());
        let Some(piece) = board.piece_on(from) else {
            return false;
        };
        self.check_squares[piece.kind() as usize].contains(to)
            || (self.discoverers.contains(from) && !line(from, self.their_king).contains(to))
    }
}

/// Whether the legal move `m` gives check. It replays the move on the occupancy only:
/// direct checks from the moved piece, discovered checks from sliders behind it, and the
/// special cases (castling rook, en passant, promotion) all fall out of one attack test.
pub fn gives_check(board: &Board, m: Move) -> bool {
    let us = board.side_to_move();
    let their_king = board.king_square(us.flip());
    let (from, to) = (m.from(), m.to());
    let Some(piece) = board.piece_on(from) else {
        return false;
    };

    let mut occupied = board.occupied().without(from);
    let (mut moved_to, mut moved_kind) = (to, piece.kind());
    match m.kind() {
        MoveKind::Castling => {
            let (king_to, rook_to) = board.castling_destinations(from, to);
            occupied = occupied.without(to).with(king_to).with(rook_to);
            moved_to = rook_to;
            moved_kind = PieceType::Rook;
        }
        MoveKind::EnPassant => occupied = occupied.without(to.offset(-8 * us.forward())).with(to),
        MoveKind::Promotion => {
            occupied = occupied.with(to);
            moved_kind = m.promotion_piece().unwrap_or(PieceType::Queen);
        }
        MoveKind::Normal => occupied = occupied.with(to),
    }

    // Direct check by the piece that moved (the rook, for castling).
    let direct = match moved_kind {
        PieceType::Pawn => super::attacks::pawn_attacks(us, moved_to).contains(their_king),
        PieceType::King => false,
        kind => super::attacks::piece_attacks(kind, moved_to, occupied).contains(their_king),
    };
    if direct {
        return true;
    }
    // Discovered check by a slider that stayed in place (a captured slider no longer counts).
    let stayed = board.color(us).without(from).without(to);
    ((bishop_attacks(their_king, occupied) & board.diagonal_sliders(us) & stayed)
        | (rook_attacks(their_king, occupied) & board.straight_sliders(us) & stayed))
        .is_nonempty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;

    /// The perft positions (Chess960 ones included) and every position one legal move
    /// after each standard one: checks, pins, promotions, en passant and castling all
    /// occur there.
    fn positions_one_move_deep() -> Vec<Board> {
        let mut boards = Vec::new();
        let suites = [
            (include_str!("../../tests/data/perft.epd"), false),
            (include_str!("../../tests/data/perft960.epd"), true),
        ];
        for (suite, chess960) in suites {
            for line in suite.lines().filter(|l| !l.trim().is_empty()) {
                let fen = line.split(';').next().unwrap().trim();
                let board = fen::parse(fen, chess960).unwrap();
                if !chess960 {
                    for m in legal_moves(&board).iter() {
                        let mut child = board;
                        child.play(*m);
                        boards.push(child);
                    }
                }
                boards.push(board);
            }
        }
        assert!(boards.len() > 3000, "{} positions", boards.len());
        boards
    }

    /// The quiet checks are the quiet moves that `gives_check` says check, in the same
    /// order (the search hands them out in list order, so the order is part of the tree).
    #[test]
    fn quiet_checks_are_the_checking_quiet_moves_in_order() {
        let mut checks_seen = 0;
        for board in positions_one_move_deep() {
            let expected: Vec<Move> = quiet_moves(&board)
                .iter()
                .copied()
                .filter(|&m| gives_check(&board, m))
                .collect();
            let mut list = MoveList::new();
            quiet_checks_into(&board, &CheckInfo::new(&board), &mut list);
            assert_eq!(
                list.iter().copied().collect::<Vec<_>>(),
                expected,
                "{}",
                fen::to_fen(&board)
            );
            checks_seen += expected.len();
        }
        assert!(checks_seen > 1000, "{checks_seen} quiet checks");
    }

    /// The fast path of `is_legal` against the generator on every one of the 65,536
    /// possible move words, in `positions_one_move_deep`.
    #[test]
    fn is_legal_agrees_with_the_generator_on_every_move_word() {
        let boards = positions_one_move_deep();
        let mut legal = vec![false; 1 << 16];
        for board in &boards {
            legal.fill(false);
            for m in legal_moves(board).iter() {
                legal[m.bits() as usize] = true;
            }
            for bits in 0..=u16::MAX {
                let m = Move::from_bits(bits);
                assert_eq!(
                    is_legal(board, m),
                    legal[bits as usize],
                    "{m:?} in {}",
                    fen::to_fen(board)
                );
            }
        }
    }
}
