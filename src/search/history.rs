//! What the search learns about quiet moves while it runs, to try the promising ones first:
//! - *quiet history*: by side, from-square and to-square, how often a quiet move caused a
//!   beta cutoff (rewarded) or was tried before the move that did (punished);
//! - *continuation history*: the same, but keyed by the piece and destination of the move
//!   one or two plies earlier, which captures "this reply works against that move".
//!
//! Killer moves live in the search stack, one pair per ply.

use super::params::{HISTORY_BONUS_MAX, HISTORY_BONUS_PER_DEPTH, HISTORY_MAX};
use crate::chess::{Color, Move, Piece, Square};

/// A previous move as continuation history sees it: which piece went where.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PieceTo {
    pub piece: Piece,
    pub to: Square,
}

impl PieceTo {
    fn index(self) -> usize {
        self.piece.index() * 64 + self.to.index()
    }
}

pub struct Histories {
    quiet: Vec<i16>,
    continuation: Vec<i16>,
}

impl Default for Histories {
    fn default() -> Self {
        Histories::new()
    }
}

/// The reward for a cutoff at `depth`: deeper cutoffs say more.
pub fn bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_PER_DEPTH * depth).min(HISTORY_BONUS_MAX)
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
            quiet: vec![0; 2 * 64 * 64],
            continuation: vec![0; 12 * 64 * 12 * 64],
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.quiet.fill(0);
        self.continuation.fill(0);
    }

    fn quiet_index(color: Color, m: Move) -> usize {
        (color.index() * 64 + m.from().index()) * 64 + m.to().index()
    }

    fn continuation_index(previous: PieceTo, current: PieceTo) -> usize {
        previous.index() * 12 * 64 + current.index()
    }

    pub fn quiet(&self, color: Color, m: Move) -> i32 {
        self.quiet[Self::quiet_index(color, m)] as i32
    }

    pub fn continuation(&self, previous: Option<PieceTo>, current: PieceTo) -> i32 {
        previous.map_or(0, |p| {
            self.continuation[Self::continuation_index(p, current)] as i32
        })
    }

    /// The score a quiet move is ordered by: its own history plus how it fared after the
    /// last two moves.
    pub fn quiet_score(
        &self,
        color: Color,
        m: Move,
        current: PieceTo,
        previous: &[Option<PieceTo>; 2],
    ) -> i32 {
        self.quiet(color, m)
            + self.continuation(previous[0], current)
            + self.continuation(previous[1], current)
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move in every table it appears in.
    pub fn update_quiet(
        &mut self,
        color: Color,
        m: Move,
        current: PieceTo,
        previous: &[Option<PieceTo>; 2],
        bonus: i32,
    ) {
        apply_gravity(&mut self.quiet[Self::quiet_index(color, m)], bonus);
        for p in previous.iter().flatten() {
            apply_gravity(
                &mut self.continuation[Self::continuation_index(*p, current)],
                bonus,
            );
        }
    }
}
