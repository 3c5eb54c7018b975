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

/// The number of (piece, destination) pairs: the rows of continuation history.
const PIECE_TO: usize = 12 * 64;

/// One `i16` per (piece, destination): `[piece][to]`, as [`PieceTo`] names them.
pub type PieceToTable = [[i16; 64]; 12];

/// The row of a move without continuation history (a null move, before the root): one
/// row of zeros after the real ones, never updated.
const NO_CONTINUATION: usize = PIECE_TO;

/// A context's rows of continuation history, in `Context` order (see `context_rows`).
/// Row numbers rather than references, so that a node can keep them across its moves'
/// searches, which change the tables.
pub type ContextRows = [usize; CONTINUATION_PLIES.len()];

/// A previous move as continuation history sees it: which piece went where.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PieceTo {
    pub piece: Piece,
    pub to: Square,
}

impl PieceTo {
    /// Its number among the `12 * 64` pairs.
    pub(super) fn index(self) -> usize {
        self.piece.index() * 64 + self.to.index()
    }

    /// Its entry in a table of one entry per pair.
    #[inline(always)]
    pub(super) fn entry(self, table: &PieceToTable) -> i16 {
        table[self.piece.index()][self.to.index()]
    }

    #[inline(always)]
    pub(super) fn entry_mut(self, table: &mut PieceToTable) -> &mut i16 {
        &mut table[self.piece.index()][self.to.index()]
    }
}

/// One `i16` per quiet move of one side: `[from][to]`.
type FromToTable = [[i16; 64]; 64];

pub struct Histories {
    /// `[side][from-square attacked][to-square attacked][from][to]`.
    quiet: Box<[[[FromToTable; 2]; 2]; 2]>,
    /// `[row of the earlier move][piece][to]`: a [`PieceToTable`] for each earlier move
    /// (`PieceTo::index`) and, last, the row of zeros (`NO_CONTINUATION`).
    continuation: Box<[PieceToTable]>,
    /// `[moving piece][destination][captured type]`, a promotion without capture counted
    /// as taking a king (which no capture does).
    capture: Box<[[[i16; 6]; 64]; 12]>,
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

/// Whether the opponent attacks a quiet move's from-square and its to-square (`threats`):
/// the quiet table's second and third indices.
#[inline(always)]
fn attacked(m: Move, threats: Bitboard) -> [usize; 2] {
    [
        threats.contains(m.from()) as usize,
        threats.contains(m.to()) as usize,
    ]
}

/// The captured type's index in the capture table.
#[inline(always)]
fn victim(captured: Option<PieceType>) -> usize {
    captured.unwrap_or(PieceType::King).index()
}

impl Histories {
    pub fn new() -> Histories {
        Histories {
            quiet: Box::new([[[[[0; 64]; 64]; 2]; 2]; 2]),
            continuation: vec![[[0; 64]; 12]; PIECE_TO + 1].into_boxed_slice(),
            capture: Box::new([[[0; 6]; 64]; 12]),
            corrections: Corrections::new(),
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self.quiet = [[[[[0; 64]; 64]; 2]; 2]; 2];
        self.continuation.fill([[0; 64]; 12]);
        *self.capture = [[[0; 6]; 64]; 12];
        self.corrections.clear();
    }

    fn quiet_entry(&mut self, color: Color, m: Move, threats: Bitboard) -> &mut i16 {
        let [from_attacked, to_attacked] = attacked(m, threats);
        &mut self.quiet[color.index()][from_attacked][to_attacked][m.from().index()][m.to().index()]
    }

    pub fn capture(&self, moved: PieceTo, captured: Option<PieceType>) -> i32 {
        self.capture[moved.piece.index()][moved.to.index()][victim(captured)] as i32
    }

    /// Rewards (`bonus > 0`) or punishes a capture or promotion.
    pub fn update_capture(&mut self, moved: PieceTo, captured: Option<PieceType>, bonus: i32) {
        let entry = &mut self.capture[moved.piece.index()][moved.to.index()][victim(captured)];
        apply_gravity(entry, bonus);
    }

    pub fn quiet(&self, color: Color, m: Move, threats: Bitboard) -> i32 {
        let [from_attacked, to_attacked] = attacked(m, threats);
        self.quiet[color.index()][from_attacked][to_attacked][m.from().index()][m.to().index()]
            as i32
    }

    /// The continuation-history rows of a context: for each of its moves, the row of
    /// scores of every piece-to that follows it (the row of zeros for a null move or
    /// before the root). They are the same for every move of a node, so a node looks them
    /// up once: that took 8 % off the instructions of `tarpon bench` (callgrind).
    pub fn context_rows(previous: &Context) -> ContextRows {
        previous.map(|p| p.map_or(NO_CONTINUATION, PieceTo::index))
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
        self.quiet(color, m, threats)
            + rows
                .iter()
                .map(|&row| current.entry(&self.continuation[row]) as i32)
                .sum::<i32>()
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move in its own table only (not in
    /// continuation history).
    pub fn update_quiet_only(&mut self, color: Color, m: Move, threats: Bitboard, bonus: i32) {
        apply_gravity(self.quiet_entry(color, m, threats), bonus);
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
            apply_gravity(current.entry_mut(&mut self.continuation[p.index()]), bonus);
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
