//! Correction history: how far the search's results have strayed from the static
//! evaluation in positions like this one, learned while searching and added back to the
//! evaluation.
//!
//! An evaluation is wrong in patterns: a pawn structure it misjudges is misjudged in every
//! position that has it, and so is a piece set-up or the kind of position a pair of moves
//! leads to. Each table here keeps, for one such feature of the position, a running mean
//! of `search score - static evaluation` from nodes whose search result can be trusted for
//! it, and the evaluation the search prunes with is the static one plus a weighted sum of
//! those means (`correct`). The features:
//! - the pawn structure (the pawn key), by side to move;
//! - each side's pieces other than pawns (the non-pawn keys), by side to move;
//! - the two previous moves (piece and destination of each): the kind of position that
//!   a line reaches, whatever else is on the board.
//!
//! Each entry is a mean in units of `1 / GRAIN` centipawns, moved towards each new sample
//! by a weight that grows with the sample's depth (deeper searches are truer).

use super::history::{PieceTo, PieceToTable};
use super::memory;
use super::params::{
    CORRECTION_CONTINUATION_WEIGHT, CORRECTION_MAX, CORRECTION_NON_PAWN_WEIGHT,
    CORRECTION_PAWN_WEIGHT,
};
use crate::chess::{Board, Color};

/// Entries per side in the keyed tables (a power of two: keys are masked).
const KEYED_ENTRIES: usize = 16384;
/// Entries hold centipawns times this, so that small errors still move them.
const GRAIN: i32 = 64;
/// The weights of the sum (`CORRECTION_*_WEIGHT`) are in 1/WEIGHT_SCALE.
const WEIGHT_SCALE: i32 = 256;
/// A sample's weight in the running mean is `min(depth + 1, MAX_SAMPLE_WEIGHT) / 256`.
const MAX_SAMPLE_WEIGHT: i32 = 16;

pub struct Corrections {
    /// `[side to move][pawn key]`.
    pawn: Box<[[i16; KEYED_ENTRIES]; 2]>,
    /// `[side to move][colour of the pieces][non-pawn key of that colour]`.
    non_pawn: Box<[[[i16; KEYED_ENTRIES]; 2]; 2]>,
    /// `[move two plies back][previous move's piece][its destination]`, the move two
    /// plies back as its `PieceTo::index`.
    continuation: Box<[PieceToTable]>,
}

impl Default for Corrections {
    fn default() -> Self {
        Corrections::new()
    }
}

/// Where a position's entries are in each table.
struct Slots {
    /// The side to move.
    us: usize,
    /// The pawn key, and each colour's non-pawn key, masked to the table.
    pawn: usize,
    non_pawn: [usize; 2],
    /// The last two moves: the earlier one's row, the later one's entry in it.
    continuation: Option<(usize, PieceTo)>,
}

impl Corrections {
    pub fn new() -> Corrections {
        Corrections {
            pawn: Box::new([[0; KEYED_ENTRIES]; 2]),
            non_pawn: Box::new([[[0; KEYED_ENTRIES]; 2]; 2]),
            continuation: vec![[[0; 64]; 12]; 12 * 64].into_boxed_slice(),
        }
    }

    pub fn clear(&mut self) {
        *self.pawn = [[0; KEYED_ENTRIES]; 2];
        *self.non_pawn = [[[0; KEYED_ENTRIES]; 2]; 2];
        self.continuation.fill([[0; 64]; 12]);
    }

    fn slots(board: &Board, previous: &[Option<PieceTo>; 2]) -> Slots {
        let keyed = |key: u64| key as usize & (KEYED_ENTRIES - 1);
        Slots {
            us: board.side_to_move().index(),
            pawn: keyed(board.pawn_key()),
            non_pawn: Color::ALL.map(|color| keyed(board.non_pawn_key(color))),
            continuation: match previous {
                [Some(last), Some(before)] => Some((before.index(), *last)),
                _ => None,
            },
        }
    }

    /// Starts loading the entries `correct` will read for `board` and `previous` (the
    /// tables are larger than the fast caches, and their entries are scattered).
    #[inline(always)]
    pub fn prefetch(&self, board: &Board, previous: &[Option<PieceTo>; 2]) {
        let s = Self::slots(board, previous);
        memory::prefetch(&self.pawn[s.us][s.pawn]);
        memory::prefetch(&self.non_pawn[s.us][0][s.non_pawn[0]]);
        memory::prefetch(&self.non_pawn[s.us][1][s.non_pawn[1]]);
        if let Some((row, last)) = s.continuation {
            memory::prefetch(&self.continuation[row][last.piece.index()][last.to.index()]);
        }
    }

    /// The static evaluation `eval` of `board` (side to move's view), corrected by what
    /// the tables have learned. `previous` are the last two moves (`None` for a null move
    /// or before the root).
    pub fn correct(&self, board: &Board, previous: &[Option<PieceTo>; 2], eval: i32) -> i32 {
        let s = Self::slots(board, previous);
        let continuation = s
            .continuation
            .map_or(0, |(row, last)| last.entry(&self.continuation[row]) as i32);
        let non_pawn = &self.non_pawn[s.us];
        let weighted = CORRECTION_PAWN_WEIGHT.get() * self.pawn[s.us][s.pawn] as i32
            + CORRECTION_NON_PAWN_WEIGHT.get()
                * (non_pawn[0][s.non_pawn[0]] as i32 + non_pawn[1][s.non_pawn[1]] as i32)
            + CORRECTION_CONTINUATION_WEIGHT.get() * continuation;
        eval + weighted / (GRAIN * WEIGHT_SCALE)
    }

    /// Learns from a node searched to `depth` whose result `score` is trusted to say how
    /// wrong its static evaluation `raw_eval` (before correction) was.
    pub fn update(
        &mut self,
        board: &Board,
        previous: &[Option<PieceTo>; 2],
        depth: i32,
        score: i32,
        raw_eval: i32,
    ) {
        let s = Self::slots(board, previous);
        let error = (score - raw_eval).clamp(-CORRECTION_MAX, CORRECTION_MAX) * GRAIN;
        let weight = (depth + 1).min(MAX_SAMPLE_WEIGHT);
        let learn = |entry: &mut i16| {
            let mean = *entry as i32;
            let moved = mean + (error - mean) * weight / 256;
            *entry = moved.clamp(-CORRECTION_MAX * GRAIN, CORRECTION_MAX * GRAIN) as i16;
        };
        learn(&mut self.pawn[s.us][s.pawn]);
        learn(&mut self.non_pawn[s.us][0][s.non_pawn[0]]);
        learn(&mut self.non_pawn[s.us][1][s.non_pawn[1]]);
        if let Some((row, last)) = s.continuation {
            learn(last.entry_mut(&mut self.continuation[row]));
        }
    }
}
