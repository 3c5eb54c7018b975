//! Syzygy endgame tablebases: perfect knowledge of every position with few pieces.
//!
//! A Syzygy set has two files per material (`KRPvKR.rtbw`, `KRPvKR.rtbz`):
//! - WDL (win/draw/loss): the result with best play, under the fifty-move rule. The search
//!   probes it at nodes right after a capture or pawn move, where the value is exact.
//! - DTZ (distance to zeroing): how many plies to the next capture or pawn move on the way
//!   to that result. Only the root uses it, to keep the moves that still win (or hold)
//!   before the fifty-move rule can interfere; the search then chooses among them.
//!
//! Prober decision: the `shakmaty-syzygy` crate, not our own, because it is correct (fuzzed,
//! lichess's), does not allocate on the probe path once a table is open, and is
//! GPL-3.0-or-later like Tarpon. Writing one would mean ~2000 lines of a subtle compressed
//! format to get the same. Each probe converts Tarpon's board to the crate's `Chess`
//! (`convert.rs`): measured with `examples/syzygy_speed.rs` on the 3-4-5-piece test
//! tables, the conversion takes 0.04 us and a WDL probe 4.8 us (a DTZ probe 35 us).
//! The tables are read with plain positioned reads, not memory maps: maps made WDL probes
//! 2.2 us but need `unsafe` and crash the engine (SIGBUS) if a table file changes on disk
//! while it runs.
//!
//! Files: `load.rs` finds and checks the tables; `root.rs` ranks the root moves.

mod convert;
mod load;
mod root;

pub use convert::{material_key, to_chess};
pub use load::{load, path_separator};
pub use root::{RootMetric, RootRank, rank_root_moves};

use crate::chess::Board;
use convert::MaterialKey;
use shakmaty::Chess;
use shakmaty_syzygy::{Metric, ProbeError, SyzygyError, Tablebase};
use std::sync::{Arc, Mutex};

/// The largest number of pieces any Syzygy table has (the 7-piece set): the most the
/// `SyzygyProbeLimit` option can ask for.
pub const MAX_PIECES: usize = 7;

/// The material key of king against king.
const BARE_KINGS: MaterialKey = 0;

/// Win/draw/loss for the side to move, as stored in the tables. "Cursed" wins and "blessed"
/// losses are decided positions that the fifty-move rule turns into draws.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Wdl {
    Loss = -2,
    BlessedLoss = -1,
    Draw = 0,
    CursedWin = 1,
    Win = 2,
}

impl Wdl {
    fn from_crate(wdl: shakmaty_syzygy::Wdl) -> Wdl {
        match wdl {
            shakmaty_syzygy::Wdl::Loss => Wdl::Loss,
            shakmaty_syzygy::Wdl::BlessedLoss => Wdl::BlessedLoss,
            shakmaty_syzygy::Wdl::Draw => Wdl::Draw,
            shakmaty_syzygy::Wdl::CursedWin => Wdl::CursedWin,
            shakmaty_syzygy::Wdl::Win => Wdl::Win,
        }
    }

    /// -2 (loss) to 2 (win).
    pub fn value(self) -> i32 {
        self as i32
    }

    /// The same result seen from the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// Why a probe gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Miss {
    /// The position is not covered (too many pieces, castling rights, a table of the
    /// position or of one it reaches by a capture is not loaded): normal, say nothing.
    NotCovered,
    /// A table failed to read (corrupt or truncated file). The text explains, the first
    /// time only; afterwards the same failure is `NotCovered`.
    Broken(String),
}

/// The loaded tables, shared by the UCI loop and the search thread.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    /// Material keys of the WDL tables that passed the load checks, sorted.
    wdl_materials: Vec<MaterialKey>,
    max_pieces: usize,
    /// Failures already reported (probing a broken table fails again and again).
    reported: Mutex<Vec<String>>,
}

impl Tablebases {
    /// The most pieces of any loaded WDL table (0 when none loaded).
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// How many WDL tables are loaded.
    pub fn wdl_count(&self) -> usize {
        self.wdl_materials.len()
    }

    /// Whether the board's own material has a WDL table (tables of positions it reaches
    /// by captures may still be missing; the probe then says `NotCovered`). Bare kings
    /// have no table: the prober knows the draw.
    pub fn covers(&self, board: &Board) -> bool {
        let key = material_key(board);
        board.castling_rights() == 0
            && board.occupied().count() as usize <= self.max_pieces
            && (key == BARE_KINGS || self.wdl_materials.binary_search(&key).is_ok())
    }

    /// The WDL of `board`, exact when it was reached by a capture or pawn move (halfmove
    /// clock 0): the tables assume a fresh fifty-move count.
    pub fn probe_wdl(&self, board: &Board) -> Result<Wdl, Miss> {
        let pos = self.position(board)?;
        self.tables
            .probe_wdl_after_zeroing(&pos)
            .map(Wdl::from_crate)
            .map_err(|e| self.miss(e))
    }

    /// The DTZ of `board` in plies, positive when the side to move wins, negative when it
    /// loses, 0 for a draw. Values of tables that store them halved come back doubled
    /// ("rounded"), possibly one ply more than the truth, as in every Syzygy prober.
    pub fn probe_dtz(&self, board: &Board) -> Result<i32, Miss> {
        let pos = self.position(board)?;
        self.tables
            .probe_dtz(&pos)
            .map(|dtz| dtz.ignore_rounding().0)
            .map_err(|e| self.miss(e))
    }

    fn position(&self, board: &Board) -> Result<Chess, Miss> {
        if !self.covers(board) {
            return Err(Miss::NotCovered);
        }
        to_chess(board).ok_or(Miss::NotCovered)
    }

    /// Sorts a prober error into a `Miss`, remembering broken tables so that each is
    /// reported once.
    fn miss(&self, e: SyzygyError) -> Miss {
        let Some(text) = broken_table_text(&e) else {
            return Miss::NotCovered;
        };
        let Ok(mut reported) = self.reported.lock() else {
            return Miss::NotCovered;
        };
        if reported.contains(&text) {
            return Miss::NotCovered;
        }
        reported.push(text.clone());
        Miss::Broken(text)
    }
}

/// A readable sentence for an error that means a table file is bad; `None` for the
/// ordinary "not in the tables" cases.
fn broken_table_text(e: &SyzygyError) -> Option<String> {
    let SyzygyError::ProbeFailed {
        metric,
        material,
        error,
    } = e
    else {
        return None;
    };
    let extension = match metric {
        Metric::Wdl => "rtbw",
        Metric::Dtz => "rtbz",
    };
    let file = format!("{material}.{extension}");
    Some(match error.as_ref() {
        ProbeError::Read { error } => format!("{file}: read error ({error})"),
        ProbeError::Magic { .. } => format!("{file}: not a Syzygy table (wrong magic bytes)"),
        ProbeError::CorruptedTable { .. } => format!("{file}: corrupt or truncated"),
    })
}

/// How the search uses the tables: the UCI options that concern them.
#[derive(Clone)]
pub struct Settings {
    pub tables: Arc<Tablebases>,
    /// `SyzygyProbeDepth`: the search probes the largest tables only this deep or deeper
    /// (probing costs a file read; the smaller tables are probed at any depth).
    pub probe_depth: i32,
    /// `SyzygyProbeLimit`: the most pieces to probe.
    pub probe_limit: usize,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses count as draws (true) or as
    /// wins and losses (false).
    pub rule50: bool,
}
