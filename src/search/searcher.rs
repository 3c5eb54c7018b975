//! One thread's search: the [`Searcher`], which owns the position being searched, the
//! search stack (one [`Frame`] per ply), the principal-variation table and the thread's
//! histories and accumulators, and the two ways it changes the position (making and taking
//! back moves, which keeps the network's accumulators in step) and judges it (`evaluate`).
//! The other files of the search add its methods: `root.rs`, `iterate.rs`,
//! `alphabeta.rs`, `answer.rs` and `info.rs`.

use super::SearchOptions;
use super::history::{Histories, PieceTo};
use super::params::*;
use super::root::RootMove;
use super::score::{self, DRAW, INFINITE, MAX_PLY};
use super::shared::Shared;
use super::timeman::{Limits, TimeManager};
use super::tt::TranspositionTable;
use crate::chess::movegen::legal_moves;
use crate::chess::{Bitboard, Move, Position};
use crate::eval::nnue::AccumulatorStack;
use crate::eval::{EvalCache, endgame};
use crate::tablebase::Tablebases;
use std::sync::Arc;
use std::time::Instant;

/// A thread's own state, lent to its `Searcher` for one search.
pub(super) struct ThreadState<'a> {
    pub(super) histories: &'a mut Histories,
    pub(super) eval_cache: &'a mut EvalCache,
    pub(super) nnue: &'a mut AccumulatorStack,
}

/// Per-ply state of the search.
#[derive(Copy, Clone)]
pub(super) struct Frame {
    pub(super) static_eval: i32,
    pub(super) killers: [Move; 2],
    /// The move made from this ply (piece and destination), `None` for a null move.
    pub(super) moved: Option<PieceTo>,
    /// The move made from this ply when it is quiet, with the squares the opponent
    /// attacked (its quiet-history key), for the child's evaluation to judge it.
    pub(super) quiet: Option<(Move, Bitboard)>,
    /// The move a singular-extension search leaves out at this ply (`Move::NONE` outside
    /// one).
    pub(super) excluded: Move,
    /// Double extensions on the line from the root to this ply (they are limited, or a
    /// line could keep extending).
    pub(super) double_extensions: i32,
}

pub(super) const EMPTY_FRAME: Frame = Frame {
    static_eval: -INFINITE,
    killers: [Move::NONE; 2],
    moved: None,
    quiet: None,
    excluded: Move::NONE,
    double_extensions: 0,
};

/// How this search uses the tablebases.
#[derive(Default, Clone)]
pub(super) struct TbUse {
    pub(super) tables: Option<Arc<Tablebases>>,
    /// Positions with at most this many pieces are probed below the root; 0 for none.
    pub(super) cardinality: usize,
    /// Positions with exactly `cardinality` pieces are probed only at this depth or more.
    pub(super) probe_depth: i32,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses score as draws.
    pub(super) rule50: bool,
    /// The root is in the tables: its moves were ranked and the best kept.
    pub(super) root_in_tb: bool,
    pub(super) hits: u64,
}

pub struct Searcher<'a> {
    /// 0 for the main thread, which alone reports and manages the time; 1.. for helpers.
    pub(super) id: usize,
    pub(super) pos: Position,
    pub(super) tt: &'a TranspositionTable,
    pub(super) histories: &'a mut Histories,
    /// What the threads of this search share besides the table (signals, node counts).
    pub(super) shared: &'a Shared<'a>,
    pub(super) limits: Limits,
    pub(super) options: SearchOptions,
    pub(super) time: TimeManager,
    pub(super) start: Instant,
    pub(super) pondering: bool,
    /// This thread's nodes, exact.
    pub(super) nodes: u64,
    /// The other threads' nodes as last published (see `shared::Counters`): they count
    /// towards `go nodes`.
    pub(super) other_nodes: u64,
    pub(super) seldepth: usize,
    pub(super) stack: Vec<Frame>,
    /// Triangular principal-variation table: `pv[ply]` is the best line found from `ply`.
    pub(super) pv: Vec<[Move; MAX_PLY + 1]>,
    pub(super) pv_len: Vec<usize>,
    pub(super) root_moves: Vec<RootMove>,
    /// MultiPV: root moves before this index are earlier lines, excluded from this one.
    pub(super) pv_index: usize,
    pub(super) completed_depth: i32,
    pub(super) stopped: bool,
    /// Null-move pruning is disabled below this ply while a null-move cut is verified.
    pub(super) nmp_min_ply: usize,
    pub(super) lmr: Vec<[i32; LMR_TABLE_SIZE]>,
    pub(super) tb: TbUse,
    /// This thread's own evaluation state (the pawn hash table).
    pub(super) eval_cache: &'a mut EvalCache,
    /// This thread's NNUE accumulators along the current line, kept in step with `pos`
    /// by `make_move` and `unmake_move` (used only with `options.nnue`).
    pub(super) nnue: &'a mut AccumulatorStack,
}

/// What a helper thread takes over from the main thread's setup: the root position, its
/// (filtered, tablebase-ranked) root moves and the settings.
#[derive(Clone)]
pub(super) struct HelperSetup {
    pub(super) pos: Position,
    pub(super) root_moves: Vec<RootMove>,
    pub(super) limits: Limits,
    pub(super) options: SearchOptions,
    pub(super) tb: TbUse,
}

impl<'a> Searcher<'a> {
    /// The main thread's searcher: finds the root moves (and ranks them by the tablebases).
    pub(super) fn new(
        pos: &Position,
        limits: Limits,
        searchmoves: &[Move],
        options: SearchOptions,
        tt: &'a TranspositionTable,
        state: ThreadState<'a>,
        shared: &'a Shared<'a>,
    ) -> Searcher<'a> {
        let root_moves = legal_moves(pos)
            .iter()
            .filter(|m| searchmoves.is_empty() || searchmoves.contains(m))
            .map(|&mv| RootMove::new(mv))
            .collect();
        let time = TimeManager::new(&limits, options.move_overhead);
        let mut searcher = Searcher {
            id: 0,
            pos: pos.clone(),
            tt,
            histories: state.histories,
            shared,
            pondering: limits.ponder,
            limits,
            options,
            time,
            start: Instant::now(),
            nodes: 0,
            other_nodes: 0,
            seldepth: 0,
            stack: vec![EMPTY_FRAME; MAX_PLY + 4],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: vec![0; MAX_PLY + 1],
            root_moves,
            pv_index: 0,
            completed_depth: 0,
            stopped: false,
            nmp_min_ply: 0,
            lmr: lmr_table(),
            tb: TbUse::default(),
            eval_cache: state.eval_cache,
            nnue: state.nnue,
        };
        searcher.reset_nnue();
        searcher.setup_tablebases();
        searcher
    }

    /// What helper threads need to search the same root (see `helper`).
    pub(super) fn helper_setup(&self) -> HelperSetup {
        // Helpers search until the main thread stops them, or to the depth limit; the
        // clock, `go mate`, pondering and `go infinite` are the main thread's business.
        // `go nodes` counts every thread's nodes, so helpers keep that limit too.
        let limits = Limits {
            depth: self.limits.depth,
            nodes: self.limits.nodes,
            ..Limits::default()
        };
        let mut tb = self.tb.clone();
        tb.hits = 0;
        HelperSetup {
            pos: self.pos.clone(),
            root_moves: self.root_moves.clone(),
            limits,
            options: SearchOptions {
                // Only the main thread speaks.
                report: None,
                ..self.options.clone()
            },
            tb,
        }
    }

    /// Helper thread `id`'s searcher, from the main thread's `setup`.
    pub(super) fn helper(
        id: usize,
        setup: HelperSetup,
        tt: &'a TranspositionTable,
        state: ThreadState<'a>,
        shared: &'a Shared<'a>,
    ) -> Searcher<'a> {
        let time = TimeManager::new(&setup.limits, setup.options.move_overhead);
        let mut searcher = Searcher {
            id,
            pos: setup.pos,
            tt,
            histories: state.histories,
            shared,
            pondering: false,
            limits: setup.limits,
            options: setup.options,
            time,
            start: Instant::now(),
            nodes: 0,
            other_nodes: 0,
            seldepth: 0,
            stack: vec![EMPTY_FRAME; MAX_PLY + 4],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: vec![0; MAX_PLY + 1],
            root_moves: setup.root_moves,
            pv_index: 0,
            completed_depth: 0,
            stopped: false,
            nmp_min_ply: 0,
            lmr: lmr_table(),
            tb: setup.tb,
            eval_cache: state.eval_cache,
            nnue: state.nnue,
        };
        searcher.reset_nnue();
        searcher
    }

    /// Starts the NNUE accumulators at the root (computed from scratch, the only time).
    pub(super) fn reset_nnue(&mut self) {
        if let Some(net) = &self.options.nnue {
            self.nnue.reset(&self.pos, net);
        }
    }

    // The search makes and takes back moves only through these three functions, so that
    // the position and the NNUE accumulators always describe the same line. (The one
    // exception, tablebase ranking at the root, makes and unmakes each root move on the
    // position alone before any evaluation, leaving the root as it was.)

    /// Makes legal move `m`.
    #[inline(always)]
    pub(super) fn make_move(&mut self, m: Move) {
        // First, so that the table's memory is on its way while the move is made.
        self.tt.prefetch(self.pos.key_after(m));
        self.make_prefetched_move(m);
    }

    /// Makes legal move `m` whose hash-table entry was already asked for (the main search
    /// does so when the move is picked).
    #[inline(always)]
    pub(super) fn make_prefetched_move(&mut self, m: Move) {
        if self.options.nnue.is_some() {
            self.nnue.push(&self.pos, m);
        }
        self.pos.make(m);
    }

    /// Passes the move (null-move pruning).
    #[inline(always)]
    pub(super) fn make_null_move(&mut self) {
        if self.options.nnue.is_some() {
            self.nnue.push_null();
        }
        self.pos.make_null();
        self.tt.prefetch(self.pos.key());
    }

    /// Takes back the last move or null move.
    #[inline(always)]
    pub(super) fn unmake_move(&mut self) {
        if self.options.nnue.is_some() {
            self.nnue.pop();
        }
        self.pos.unmake();
    }

    /// The static evaluation of the current position for the side to move: the network's
    /// when there is one, else the hand-crafted evaluation; a lone king against mating
    /// material is a known win, scored by its own drive to mate
    /// (`endgame::known_win_score`).
    #[inline(always)]
    pub(super) fn evaluate(&mut self) -> i32 {
        if let Some(score) = endgame::known_win_score(self.pos.board()) {
            return score;
        }
        if endgame::known_draw(self.pos.board()) {
            return DRAW;
        }
        match &self.options.nnue {
            Some(net) => {
                let score = self.nnue.evaluate(&self.pos, net);
                // Builds with debug assertions (the tests) check now and then that the
                // incremental accumulators still describe the position the search is in.
                debug_assert!(
                    !self.nodes.is_multiple_of(97) || score == net.evaluate(&self.pos),
                    "NNUE accumulators out of step at {}",
                    self.pos.fen()
                );
                // Scaled by the material left (S-48).
                material_scaled(score, self.pos.board())
            }
            None => crate::eval::evaluate(&self.pos, self.eval_cache),
        }
    }

    pub(super) fn is_main(&self) -> bool {
        self.id == 0
    }
}

/// Late-move reductions by depth and move number: `LMR_BASE + ln(d) ln(n) / LMR_DIVISOR`.
pub(super) fn lmr_table() -> Vec<[i32; LMR_TABLE_SIZE]> {
    let base = f64::from(LMR_BASE_HUNDREDTHS.get()) / 100.0;
    let divisor = f64::from(LMR_DIVISOR_HUNDREDTHS.get()) / 100.0;
    // Every search builds its table (the parameters are tunable at run time), so the
    // logarithms are taken once rather than twice per entry.
    let ln: [f64; LMR_TABLE_SIZE] = std::array::from_fn(|i| (i as f64).ln());
    (0..LMR_TABLE_SIZE)
        .map(|d| {
            let mut row = [0; LMR_TABLE_SIZE];
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                if d > 0 {
                    *r = (base + ln[d] * ln[n] / divisor) as i32;
                }
            }
            row
        })
        .collect()
}

/// The multiplier of the network's score (`MATERIAL_SCALE_*`) with the pieces of `board`
/// on it, in `1 / MATERIAL_SCALE_DIVISOR`.
pub(super) fn material_scale(board: &crate::chess::Board) -> i32 {
    use crate::chess::PieceType;
    let count = |kind| board.kind(kind).count() as i32;
    MATERIAL_SCALE_BASE
        + MATERIAL_SCALE_MINOR * (count(PieceType::Knight) + count(PieceType::Bishop))
        + MATERIAL_SCALE_ROOK * count(PieceType::Rook)
        + MATERIAL_SCALE_QUEEN * count(PieceType::Queen)
}

/// The network's score of `board` as the search takes it: a little higher with most
/// pieces on the board, lower with few, where an edge is harder to turn into a win and the
/// network's judgement of it less sure.
pub(super) fn material_scaled(score: i32, board: &crate::chess::Board) -> i32 {
    score * material_scale(board) / MATERIAL_SCALE_DIVISOR
}

/// A search score of `board` with the network evaluating, back on the network's own scale
/// (the material scaling undone; mates and tablebase scores as they are): for what was made
/// from the network's scores, the win/draw/loss model, and what will be, the training data.
pub fn network_scale(score: i32, board: &crate::chess::Board) -> i32 {
    if score::is_decisive(score) {
        score
    } else {
        score * MATERIAL_SCALE_DIVISOR / material_scale(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;

    /// The network's score grows a little with every piece on the board, shrinks with pawns
    /// only, and the win/draw/loss model gets it back on the network's scale.
    #[test]
    fn material_scaling_and_its_inverse() {
        let start = Position::startpos();
        let pawns = Position::from_fen("4k3/pppp4/8/8/8/8/4PPPP/4K3 w - - 0 1", false).unwrap();
        assert_eq!(material_scaled(1000, start.board()), 1074);
        assert_eq!(material_scaled(1000, pawns.board()), 808);
        assert_eq!(material_scaled(-1000, pawns.board()), -808);
        for board in [start.board(), pawns.board()] {
            for score in [-700, -35, 0, 1, 90, 1234] {
                let back = network_scale(material_scaled(score, board), board);
                assert!((back - score).abs() <= 2, "{score} came back as {back}");
            }
            // Mates and tablebase results are not the network's: they stay as they are.
            for decisive in [score::mate_in(3), score::mated_in(4), score::tb_win_in(10)] {
                assert_eq!(network_scale(decisive, board), decisive);
            }
        }
    }
}
