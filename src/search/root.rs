//! The root and its moves: what the search knows of each ([`RootMove`]), the tablebase
//! ranking of a root in the tables, and the order in which the root moves are searched
//! and recorded.

use super::score::{DRAW, INFINITE};
use super::searcher::{Searcher, TbUse};
use super::tt::Bound;
use crate::chess::Move;
use crate::tablebase::{self, RootMetric};

/// A move at the root with what the search knows about it.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub(super) mv: Move,
    /// Score from the current iteration (`-INFINITE` if not yet searched or not better
    /// than the best so far) and from the previous one, for ordering.
    pub(super) score: i32,
    pub(super) previous_score: i32,
    /// The iteration `score` comes from, and what kind of result it is: a root move that
    /// failed high or low against the aspiration window has only a bound.
    pub(super) score_depth: i32,
    pub(super) score_bound: Bound,
    pub(super) pv: Vec<Move>,
    pub(super) seldepth: usize,
    /// The tables' verdict when the root is in them (see `tablebase::RootRank`).
    pub(super) tb_rank: i32,
    pub(super) tb_score: i32,
    /// Nodes searched under this move in this search, all iterations together: the time
    /// manager reads how much of the effort the best move took.
    pub(super) nodes: u64,
}

impl RootMove {
    /// A root move the search has not scored yet.
    pub(super) fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITE,
            previous_score: -INFINITE,
            score_depth: 0,
            score_bound: Bound::Exact,
            pv: vec![mv],
            seldepth: 0,
            tb_rank: 0,
            tb_score: 0,
            nodes: 0,
        }
    }

    /// The score of the deepest search that has scored this move.
    pub(super) fn known_score(&self) -> i32 {
        if self.score == -INFINITE {
            self.previous_score
        } else {
            self.score
        }
    }
}

impl Searcher<'_> {
    /// Prepares the tablebase probes. A root in the tables gets its moves ranked by them;
    /// only the moves of the best rank are kept, so whatever the search then prefers keeps
    /// the win (or the draw) within the fifty-move rule. With DTZ that ranking is all
    /// the tables can add: probes below the root would only give every line the same
    /// score and hide the search's progress (mates, captures), so they are turned off,
    /// as they are when the best the tables promise is a draw or a loss.
    pub(super) fn setup_tablebases(&mut self) {
        let Some(settings) = self.options.tablebases.clone() else {
            return;
        };
        let max_pieces = settings.tables.max_pieces();
        self.tb = TbUse {
            tables: Some(settings.tables.clone()),
            cardinality: settings.probe_limit.min(max_pieces),
            // A limit above the largest tables loaded leaves no tier too costly to probe.
            probe_depth: if settings.probe_limit > max_pieces {
                0
            } else {
                settings.probe_depth
            },
            rule50: settings.rule50,
            ..TbUse::default()
        };
        if self.pos.occupied().count() as usize > self.tb.cardinality {
            return;
        }
        let moves: Vec<Move> = self.root_moves.iter().map(|rm| rm.mv).collect();
        let mut broken = Vec::new();
        let ranked = tablebase::rank_root_moves(
            &settings.tables,
            &mut self.pos,
            &moves,
            settings.rule50,
            &mut broken,
        );
        for text in broken {
            self.report(&format!("info string Syzygy: {text}"));
        }
        if let Some((ranks, metric)) = ranked {
            self.keep_best_ranked(&ranks);
            self.tb.hits += ranks.len() as u64;
            if metric == RootMetric::Dtz || self.root_moves[0].tb_score <= DRAW {
                self.tb.cardinality = 0;
            }
        }
    }

    /// Ranks the root moves (`ranks` in root-move order) and keeps the best-ranked.
    pub(super) fn keep_best_ranked(&mut self, ranks: &[tablebase::RootRank]) {
        for (rm, rank) in self.root_moves.iter_mut().zip(ranks) {
            rm.tb_rank = rank.rank;
            rm.tb_score = rank.score;
        }
        self.root_moves
            .sort_by_key(|rm| std::cmp::Reverse(rm.tb_rank));
        let best = self.root_moves[0].tb_rank;
        self.root_moves.retain(|rm| rm.tb_rank == best);
        self.tb.root_in_tb = true;
    }

    /// Whether the answer needs no search: there is no legal move. No helper thread
    /// starts then.
    pub(super) fn answer_is_immediate(&self) -> bool {
        self.root_moves.is_empty()
    }

    /// Whether the move is forced and the clock runs: thinking cannot change the move, so
    /// the search goes only `FORCED_MOVE_DEPTH` plies deep, for a score and a ponder move.
    pub(super) fn forced_on_the_clock(&self) -> bool {
        self.root_moves.len() == 1 && self.limits.uses_clock() && !self.pondering
    }

    /// Orders the root moves of the current line best first (earlier lines stay put).
    pub(super) fn sort_root_moves(&mut self) {
        self.root_moves[self.pv_index..]
            .sort_by_key(|rm| std::cmp::Reverse((rm.score, rm.previous_score)));
    }

    /// The percentage of this thread's root nodes, all iterations together, that went into
    /// the current best move: how little competition it has.
    pub(super) fn best_share(&self) -> u64 {
        let total: u64 = self.root_moves.iter().map(|rm| rm.nodes).sum();
        self.root_moves[0].nodes * 100 / total.max(1)
    }

    /// The next root move of the current MultiPV line (`root_moves` from `pv_index` on,
    /// in order), `index` counting them.
    pub(super) fn next_root_move(&self, index: &mut usize) -> Option<Move> {
        let m = self.root_moves.get(*index)?.mv;
        *index += 1;
        Some(m)
    }

    /// Root move `i` has scored `score` at `depth`: the line's first move and any move that
    /// beat alpha keep it, with its bound, seldepth and line (a fail-low keeps its old
    /// line); any other is marked as not better than the best so far.
    pub(super) fn record_root_move(
        &mut self,
        i: usize,
        score: i32,
        scored: bool,
        depth: i32,
        bound: Bound,
    ) {
        let rm = &mut self.root_moves[i];
        if !scored {
            rm.score = -INFINITE;
            return;
        }
        rm.score = score;
        rm.score_depth = depth;
        rm.score_bound = bound;
        // A fail-low proves no line, only that the move is worth no more: its line (for
        // the GUI and the ponder move) stays the last one the search proved.
        if bound == Bound::Upper && rm.pv.len() > 1 {
            return;
        }
        rm.seldepth = self.seldepth;
        rm.pv.clear();
        rm.pv.push(rm.mv);
        rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
    }
}
