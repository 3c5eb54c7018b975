//! Static exchange evaluation (SEE): what a move wins or loses in material on its target
//! square, assuming both sides then take turns capturing there with their least valuable
//! piece, and each may stop whenever capturing further would cost more than it gains.
//!
//! The search asks this for move ordering (winning captures first, losing ones late) and
//! to skip captures in quiescence that cannot win enough. It looks at one square only:
//! checks, other threats and pieces left hanging elsewhere are ignored.
//!
//! Model of the exchange:
//! - The move itself is always made; afterwards the side to capture picks its least
//!   valuable piece that attacks the square, and may instead stop (a capture is never
//!   forced).
//! - Sliders lined up behind a piece that captures (or behind a pawn taken en passant)
//!   join in once the line opens ("x-rays").
//! - A piece pinned to its own king does not capture while the pin still holds, that is
//!   while lifting it off its line would expose the king to an enemy slider. A pinned
//!   piece that stays between king and pinner, or that takes the pinner, may capture.
//! - A king captures only when the other side has no attacker left on the square, pinned
//!   ones included (a pinned piece still gives check).
//! - A pawn that captures onto its last rank becomes a queen: it gains
//!   queen minus pawn, and a queen is what the other side can then win back. The move
//!   being evaluated promotes to whatever piece it names.
//! - Castling is worth 0: the king and rook land on squares the move generator has
//!   already checked, and nothing is captured.
//!
//! [`see_ge`] is the one the search calls: it stops as soon as the answer is known and
//! allocates nothing. [`see`] gives the exact number (for tests and tracing); both follow
//! the same capture sequence, so `see_ge(b, m, t) == (see(b, m) >= t)` for every `t`.

use crate::chess::attacks::{bishop_attacks, line, rook_attacks};
use crate::chess::{Bitboard, Board, Color, Move, MoveKind, PieceType, Square};

/// Piece values for exchanges, indexed by [`PieceType::index`]: pawn, knight, bishop, rook,
/// queen, king. A king is never actually lost (it captures only onto a square the other
/// side no longer attacks); its value is large so that, even so, no amount of other
/// material could ever look worth it.
pub const SEE_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 20_000];

const PAWN: i32 = SEE_VALUES[0];
const QUEEN: i32 = SEE_VALUES[4];
/// What a pawn gains by becoming a queen.
const QUEENING_GAIN: i32 = QUEEN - PAWN;

/// Thresholds are clamped to this range so that the arithmetic below cannot overflow;
/// no exchange is worth anywhere near this much, so clamping changes no answer.
const THRESHOLD_LIMIT: i32 = 1_000_000;

/// Pieces tried as capturers, cheapest first. The king comes last and separately.
const CAPTURERS: [PieceType; 5] = [
    PieceType::Pawn,
    PieceType::Knight,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Queen,
];

/// A piece's value in exchanges (`SEE_VALUES`).
#[inline(always)]
pub fn value(kind: PieceType) -> i32 {
    SEE_VALUES[kind.index()]
}

/// Whether the exchange started by `m` wins at least `threshold` (centipawns) for the side
/// making it. `m` must be legal on `board`.
pub fn see_ge(board: &Board, m: Move, threshold: i32) -> bool {
    if m.kind() == MoveKind::Castling {
        return threshold <= 0;
    }
    let threshold = threshold.clamp(-THRESHOLD_LIMIT, THRESHOLD_LIMIT);
    let (mut exchange, first_gain) = Exchange::start(board, m);

    // Write V for what the side about to capture next can secure from here on, given that
    // it may stop (so V >= 0): V = max(0, gain of its capture - V of the reply). The move
    // reaches the threshold when first_gain - V >= threshold, i.e. when V < `need` with
    // need = first_gain - threshold + 1. Asking "V >= need?" of the side to capture turns,
    // after its capture, into "is the reply's V <= gain - need?", which is the negation of
    // "reply's V >= gain - need + 1?". So each capture turns the question into the same
    // question for the other side with a new `need`, and flips the answer's sense.
    let mut need = first_gain - threshold + 1;
    // True while the answer is the negation of "V >= need" for the side to capture.
    let mut negated = true;
    // The attackers are found only once a capture has to be made: most of the calls
    // (a capture of a piece worth at least the capturer, a quiet move against a low
    // threshold) are answered by the two tests below on the first pass, without them.
    let mut attackers_found = false;
    loop {
        if need <= 0 {
            // Stopping already secures `need`.
            return !negated;
        }
        if need > exchange.max_gain() {
            // V never exceeds the gain of the next capture, so `need` is out of reach.
            return negated;
        }
        if !attackers_found {
            exchange.find_attackers();
            attackers_found = true;
        }
        match exchange.next_capture() {
            Some(gain) => {
                need = gain - need + 1;
                negated = !negated;
            }
            // Nothing can capture, so V = 0 < need.
            None => return negated,
        }
    }
}

/// The exact material balance of the exchange started by `m`, for the side making it.
/// `m` must be legal on `board`.
pub fn see(board: &Board, m: Move) -> i32 {
    if m.kind() == MoveKind::Castling {
        return 0;
    }
    let (mut exchange, first_gain) = Exchange::start(board, m);
    exchange.find_attackers();
    // Every capture lifts a different piece off the board, so 32 entries are enough.
    let mut gains = [0i32; 32];
    let mut count = 0;
    while count < gains.len() {
        match exchange.next_capture() {
            Some(gain) => {
                gains[count] = gain;
                count += 1;
            }
            None => break,
        }
    }
    // Walk back from the last capture: each side captures only if that beats stopping.
    let reply = gains[..count]
        .iter()
        .rev()
        .fold(0, |later, &gain| (gain - later).max(0));
    first_gain - reply
}

/// The state of an exchange on one square after some captures: which pieces are gone,
/// who captures next and what stands on the square. Pieces that have not taken part
/// still stand on their squares on `board`, so the board's bitboards, masked with
/// `occupied`, describe them; those that have are off `occupied`.
struct Exchange<'a> {
    board: &'a Board,
    /// The square fought over.
    to: Square,
    /// Squares still holding a piece. `to` is always in it: some piece stands there.
    occupied: Bitboard,
    /// Pieces of both colours, still on their own squares, that attack `to` through
    /// `occupied` (empty until [`Exchange::find_attackers`]).
    attackers: Bitboard,
    /// The side to capture next.
    side: Color,
    /// Value of the piece on `to`: what the next capture wins (plus any promotion).
    on_square: i32,
}

impl<'a> Exchange<'a> {
    /// The exchange right after `m` (not castling) is made, and what `m` itself gained.
    /// Its attackers are not found yet: call [`Exchange::find_attackers`] before the first
    /// [`Exchange::next_capture`].
    #[inline]
    fn start(board: &'a Board, m: Move) -> (Exchange<'a>, i32) {
        let (from, to) = (m.from(), m.to());
        let mover = board
            .piece_on(from)
            .expect("see: the move starts on an empty square");
        let mut occupied = (board.occupied() ^ from) | to;
        let mut gain = match m.kind() {
            MoveKind::EnPassant => {
                // The pawn taken stands beside the target square, not on it; lifting it
                // may open a file for a rook or queen behind it.
                let captured = to.offset(-8 * mover.color().forward());
                occupied ^= captured;
                PAWN
            }
            _ => board.piece_on(to).map_or(0, |p| value(p.kind())),
        };
        let on_square = match m.promotion_piece() {
            Some(promoted) => {
                gain += value(promoted) - PAWN;
                value(promoted)
            }
            None => value(mover.kind()),
        };
        let exchange = Exchange {
            board,
            to,
            occupied,
            attackers: Bitboard::EMPTY,
            side: mover.color().flip(),
            on_square,
        };
        (exchange, gain)
    }

    /// Finds the pieces that attack the target square once the move is made.
    #[inline]
    fn find_attackers(&mut self) {
        self.attackers = self.board.attackers_to(self.to, self.occupied) & self.occupied;
    }

    /// Whether a pawn of the side to capture would promote on the target square.
    #[inline(always)]
    fn promotes(&self) -> bool {
        self.to.rank() == self.side.relative_rank(7)
    }

    /// The most the next capture could gain, whoever makes it.
    #[inline(always)]
    fn max_gain(&self) -> i32 {
        if self.promotes() {
            self.on_square + QUEENING_GAIN
        } else {
            self.on_square
        }
    }

    /// Makes the next capture, by the side to capture with its least valuable piece that
    /// may take part, and returns what it gains; `None` when that side cannot capture.
    #[inline]
    fn next_capture(&mut self) -> Option<i32> {
        let ours = self.attackers & self.board.color(self.side);
        if ours.is_empty() {
            return None;
        }
        for kind in CAPTURERS {
            for from in ours & self.board.kind(kind) {
                if !self.pinned(from) {
                    return Some(self.capture(from, kind));
                }
            }
        }
        let king = ours & self.board.kind(PieceType::King);
        if king.is_empty() {
            return None;
        }
        // Recompute the other side's attackers with the king lifted: a slider behind the
        // king, on the far side from the square, would guard it too.
        let king_from = king.lsb();
        let without_king = self.occupied ^ king_from;
        let theirs = self.board.attackers_to(self.to, without_king)
            & without_king
            & self.board.color(self.side.flip());
        if theirs.is_nonempty() {
            return None;
        }
        Some(self.capture(king_from, PieceType::King))
    }

    /// Moves the piece of type `kind` on `from` onto the target square.
    #[inline(always)]
    fn capture(&mut self, from: Square, kind: PieceType) -> i32 {
        let mut gain = self.on_square;
        self.on_square = value(kind);
        if kind == PieceType::Pawn && self.promotes() {
            gain += QUEENING_GAIN;
            self.on_square = QUEEN;
        }
        self.occupied ^= from;
        // The piece left a line through the target square: a slider further along that
        // line now sees the square. Pawns, bishops and queens capture along diagonals,
        // rooks and queens along ranks and files; knights and kings uncover nothing.
        if matches!(kind, PieceType::Pawn | PieceType::Bishop | PieceType::Queen) {
            self.attackers |= bishop_attacks(self.to, self.occupied)
                & (self.board.kind(PieceType::Bishop) | self.board.kind(PieceType::Queen));
        }
        if matches!(kind, PieceType::Rook | PieceType::Queen) {
            self.attackers |= rook_attacks(self.to, self.occupied)
                & (self.board.kind(PieceType::Rook) | self.board.kind(PieceType::Queen));
        }
        // Drops `from`, and any slider that already took part but still stands on its
        // square on `board` and was picked up again by the lines above.
        self.attackers &= self.occupied;
        self.side = self.side.flip();
        gain
    }

    /// Whether the piece on `from` (not a king) of the side to capture is pinned: taking
    /// on the target square would leave its king attacked by an enemy slider along the
    /// line through king and piece. Decided on the current state of the exchange, so a pin
    /// appears once the last other blocker has gone and ends once the pinner has left its
    /// square (to capture) or when the target square itself is on the line between.
    #[inline(always)]
    fn pinned(&self, from: Square) -> bool {
        let king = self.board.king_square(self.side);
        let through = line(king, from);
        // The piece on the target square is about to be captured, so it pins nothing.
        let them = self.board.color(self.side.flip()) & self.occupied.without(self.to);
        let enemy_sliders = through
            & them
            & (self.board.kind(PieceType::Bishop)
                | self.board.kind(PieceType::Rook)
                | self.board.kind(PieceType::Queen));
        if enemy_sliders.is_empty() {
            // Not aligned with the king, or no enemy slider on that line at all: the usual
            // case, settled without a slider lookup.
            return false;
        }
        // The position after the capture: `from` empty, the target square occupied.
        let after = self.occupied ^ from;
        let exposed = (bishop_attacks(king, after)
            & (self.board.kind(PieceType::Bishop) | self.board.kind(PieceType::Queen)))
            | (rook_attacks(king, after)
                & (self.board.kind(PieceType::Rook) | self.board.kind(PieceType::Queen)));
        (exposed & enemy_sliders).is_nonempty()
    }
}
