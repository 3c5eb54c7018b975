//! What the search learns about quiet moves while it runs, to try the promising ones first:
//! - *quiet history*: by side, from-square and to-square, how often a quiet move caused a
//!   beta cutoff (rewarded) or was tried before the move that did (punished), kept apart
//!   by whether the opponent attacks the from-square and the to-square: a move that takes
//!   a piece out of an attack and one that walks into one are different moves, even
//!   between the same two squares; it also learns from the static evaluation alone, by how
//!   far the move raised or lowered its side's evaluation (`alphabeta`, Step 5);
//! - *continuation history*: the same, but keyed by the piece and destination of the move
//!   one, two or four plies earlier, which captures "this reply works against that move"
//!   (and "this plan follows that one": four plies back is our own move before last);
//! - *capture history*: for captures and promotions, by moving piece, destination and
//!   captured piece type, how often the capture refuted the position; it orders captures
//!   of the same victim, which most-valuable-victim ordering alone cannot tell apart.
//!
//! Killer moves live in the search stack, one pair per ply.

use super::correction::Corrections;
use super::params::{HISTORY_BONUS_MAX, HISTORY_BONUS_PER_DEPTH, HISTORY_MAX};
use crate::chess::{Bitboard, Color, Move, Piece, PieceType, Square};

/// How many plies back the moves that continuation history is keyed by were played
/// (continuation history: ~38 Elo, S-10; four plies back: S-16).
pub const CONTINUATION_PLIES: [usize; 3] = [1, 2, 4];

/// Those moves, in that order (`None` for a null move or before the root).
pub type Context = [Option<PieceTo>; CONTINUATION_PLIES.len()];

/// The number of (piece, destination) pairs: the size of a continuation-history row.
const PIECE_TO: usize = 12 * 64;

/// Where the row of a move without continuation history (a null move, before the root)
/// starts: one row of zeros after the real ones, never updated.
const NO_CONTINUATION: usize = PIECE_TO * PIECE_TO;

/// A context's rows of continuation history, in `Context` order, as the index where each
/// row starts (see `context_rows`). Plain numbers rather than slices, so that a node can
/// keep them across its moves' searches, which change the tables.
pub type ContextRows = [usize; CONTINUATION_PLIES.len()];

/// A previous move as continuation history sees it: which piece went where.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PieceTo {
    pub piece: Piece,
    pub to: Square,
}

impl PieceTo {
    pub(super) fn index(self) -> usize {
        self.piece.index() * 64 + self.to.index()
    }
}

pub struct Histories {
    quiet: Vec<i16>,
    continuation: Vec<i16>,
    capture: Vec<i16>,
    /// How wrong the static evaluation has been (see `correction.rs`).
    pub corrections: Corrections,
}

impl Default for Histories {
    fn default() -> Self {
        Histories::new()
    }
}

/// The reward for a cutoff at `depth`: deeper cutoffs say more.
pub fn bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_PER_DEPTH.get() * depth).min(HISTORY_BONUS_MAX.get())
}

/// Moves an entry towards `+-HISTORY_MAX` by `bonus`, less the closer it already is, so
/// that entries saturate smoothly and old results fade as new ones arrive.
fn apply_gravity(entry: &mut i16, bonus: i32) {
    let value = *entry as i32;
    let updated = value + bonus - value * bonus.abs() / HISTORY_MAX;
    *entry = updated.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

impl Histories {
    pub fn new() -> Histories {
        Histories {
            quiet: vec![0; 2 * 4 * 64 * 64],
            continuation: vec![0; PIECE_TO * PIECE_TO + PIECE_TO],
            capture: vec![0; 12 * 64 * 6],
            corrections: Corrections::new(),
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.quiet.fill(0);
        self.continuation.fill(0);
        self.capture.fill(0);
        self.corrections.clear();
    }

    /// By side, by whether `threats` (the squares the opponent attacks) hold the from- and
    /// the to-square, then by the two squares.
    fn quiet_index(color: Color, m: Move, threats: Bitboard) -> usize {
        let threat = 2 * threats.contains(m.from()) as usize + threats.contains(m.to()) as usize;
        ((color.index() * 4 + threat) * 64 + m.from().index()) * 64 + m.to().index()
    }

    fn continuation_index(previous: PieceTo, current: PieceTo) -> usize {
        previous.index() * PIECE_TO + current.index()
    }

    /// Captures by what moves where and what it takes; a promotion without capture counts
    /// as taking a king (which no capture does).
    fn capture_index(moved: PieceTo, captured: Option<PieceType>) -> usize {
        moved.index() * 6 + captured.unwrap_or(PieceType::King).index()
    }

    pub fn capture(&self, moved: PieceTo, captured: Option<PieceType>) -> i32 {
        self.capture[Self::capture_index(moved, captured)] as i32
    }

    /// Rewards (`bonus > 0`) or punishes a capture or promotion.
    pub fn update_capture(&mut self, moved: PieceTo, captured: Option<PieceType>, bonus: i32) {
        apply_gravity(
            &mut self.capture[Self::capture_index(moved, captured)],
            bonus,
        );
    }

    pub fn quiet(&self, color: Color, m: Move, threats: Bitboard) -> i32 {
        self.quiet[Self::quiet_index(color, m, threats)] as i32
    }

    /// The continuation-history rows of a context: for each of its moves, where the scores
    /// of every piece-to that follows it start (a row of zeros for a null move or before
    /// the root). They are the same for every move of a node, so a node looks them up
    /// once: that took 8 % off the instructions of `tarpon bench` (callgrind).
    pub fn context_rows(previous: &Context) -> ContextRows {
        previous.map(|p| p.map_or(NO_CONTINUATION, |p| p.index() * PIECE_TO))
    }

    /// The score a quiet move is ordered by: its own history plus how it fared after the
    /// moves of its context (`rows`, from `context_rows`). Inlined: the move picker
    /// scores every quiet move of a node with it, in one loop.
    #[inline(always)]
    pub fn quiet_score(
        &self,
        color: Color,
        m: Move,
        threats: Bitboard,
        current: PieceTo,
        rows: &ContextRows,
    ) -> i32 {
        let to = current.index();
        self.quiet(color, m, threats)
            + rows
                .iter()
                .map(|row| self.continuation[row + to] as i32)
                .sum::<i32>()
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move in its own table only (not in
    /// continuation history).
    pub fn update_quiet_only(&mut self, color: Color, m: Move, threats: Bitboard, bonus: i32) {
        apply_gravity(&mut self.quiet[Self::quiet_index(color, m, threats)], bonus);
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move in every table it appears in.
    pub fn update_quiet(
        &mut self,
        color: Color,
        m: Move,
        threats: Bitboard,
        current: PieceTo,
        previous: &Context,
        bonus: i32,
    ) {
        self.update_quiet_only(color, m, threats, bonus);
        for p in previous.iter().flatten() {
            apply_gravity(
                &mut self.continuation[Self::continuation_index(*p, current)],
                bonus,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece_to(kind: PieceType, color: Color, to: u8) -> PieceTo {
        PieceTo {
            piece: Piece::new(color, kind),
            to: Square::new(to),
        }
    }

    /// A quiet move's score is its own history plus one entry per move of its context,
    /// read through the rows looked up once per node; a missing move adds nothing.
    #[test]
    fn quiet_score_reads_each_context_row() {
        let mut histories = Histories::new();
        let m = Move::new(Square::G1, Square::new(21)); // g1f3
        let current = piece_to(PieceType::Knight, Color::White, 21);
        let one_back = piece_to(PieceType::Pawn, Color::Black, 36);
        let four_back = piece_to(PieceType::Bishop, Color::White, 30);
        let mut context: Context = [None; CONTINUATION_PLIES.len()];
        context[0] = Some(one_back);
        context[2] = Some(four_back);
        histories.update_quiet(Color::White, m, Bitboard::EMPTY, current, &context, 500);

        let own = histories.quiet(Color::White, m, Bitboard::EMPTY);
        assert!(own > 0);
        let rows = Histories::context_rows(&context);
        assert_eq!(
            histories.quiet_score(Color::White, m, Bitboard::EMPTY, current, &rows),
            own * 3,
            "the quiet entry and the two continuation entries moved alike"
        );
        // Another context shares only the quiet entry. (The plies share one table: the
        // same move at another distance would read the same entry.)
        let mut other: Context = [None; CONTINUATION_PLIES.len()];
        other[0] = Some(piece_to(PieceType::Queen, Color::Black, 36));
        let rows = Histories::context_rows(&other);
        assert_eq!(
            histories.quiet_score(Color::White, m, Bitboard::EMPTY, current, &rows),
            own
        );
        let rows = Histories::context_rows(&[None; CONTINUATION_PLIES.len()]);
        assert_eq!(
            histories.quiet_score(Color::White, m, Bitboard::EMPTY, current, &rows),
            own
        );
    }
}
