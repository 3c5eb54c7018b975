//! The `info` lines a GUI sees: after each iteration, at each aspiration failure, and the
//! last ones, which are always those of the move played.

use super::root::RootMove;
use super::score::{self, INFINITE, MATE};
use super::searcher::{Searcher, network_scale};
use super::tt::Bound;
use super::wdl;
use crate::chess::Move;
use crate::chess::notation::to_uci;
use crate::tablebase::Miss;

impl Searcher<'_> {
    /// A tablebase probe failed on a broken table: say so (once per table).
    pub(super) fn report_miss(&self, miss: Miss) {
        if let Miss::Broken(text) = miss {
            self.report(&format!("info string Syzygy: {text}"));
        }
    }

    /// The last `info` lines of a search, one per line of play in `lines`, the first being
    /// the move played: each with its latest score (marked as a bound when the aspiration
    /// window left it one), the nodes of all threads and a line that starts with the move
    /// and continues with the `ponder` move.
    pub(super) fn report_final(
        &self,
        lines: &[RootMove],
        completed_depth: i32,
        nodes: u64,
        tb_hits: u64,
    ) {
        if !self.is_main() || self.options.report.is_none() {
            return;
        }
        for (i, rm) in lines.iter().enumerate() {
            let bound = match rm.score_bound {
                _ if rm.score == -INFINITE => "",
                Bound::Lower => " lowerbound",
                Bound::Upper => " upperbound",
                Bound::Exact => "",
            };
            let depth = Self::latest_depth(rm, completed_depth).max(1);
            let text = self.format_info(rm, depth, i, bound, nodes, tb_hits);
            self.report(&text);
        }
    }

    /// The score to show for a root move: the search's, unless the root is in the
    /// tablebases and the search found no mate; then the tables' verdict, which the
    /// search (seeing only evaluations below the root) cannot know.
    pub(super) fn shown_score(&self, rm: &RootMove) -> i32 {
        let score = rm.known_score();
        if self.tb.root_in_tb && !score::is_mate(score) {
            rm.tb_score
        } else {
            score
        }
    }

    /// ` wdl <w> <d> <l>` for `score` at the root when `UCI_ShowWDL` is on, else nothing.
    pub(super) fn wdl_text(&self, score: i32) -> String {
        if self.options.show_wdl {
            // The model was fitted on the network's scores before the search scaled them.
            let board = self.pos.board();
            let score = if self.options.nnue.is_some() {
                network_scale(score, board)
            } else {
                score
            };
            format!(" {}", wdl::to_uci(score, wdl::material(board)))
        } else {
            String::new()
        }
    }

    pub(super) fn report(&self, text: &str) {
        if let Some(report) = &self.options.report {
            report(text);
        }
    }

    /// The `info` line of MultiPV line `line` (0-based), `bound` being "", " lowerbound" or
    /// " upperbound". Nodes and tablebase hits are those of all threads.
    pub(super) fn info_line(&self, depth: i32, line: usize, bound: &str) -> String {
        let (nodes, tb_hits) = self.shared.totals(self.id, self.nodes, self.tb.hits);
        self.format_info(&self.root_moves[line], depth, line, bound, nodes, tb_hits)
    }

    pub(super) fn format_info(
        &self,
        rm: &RootMove,
        depth: i32,
        line: usize,
        bound: &str,
        nodes: u64,
        tb_hits: u64,
    ) -> String {
        let elapsed = self.start.elapsed();
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64;
        let score = self.shown_score(rm);
        // A tablebase score is exact: the window's bound says nothing about it.
        let bound = if score == rm.known_score() { bound } else { "" };
        let pv: Vec<String> = rm.pv.iter().map(|&m| self.pv_text(m, &rm.pv)).collect();
        format!(
            "info depth {depth} seldepth {} multipv {} score {}{}{bound} nodes {} nps {nps} hashfull {} tbhits {} time {} pv {}",
            rm.seldepth.max(1),
            line + 1,
            score::to_uci(score.clamp(-MATE, MATE)),
            self.wdl_text(score),
            nodes,
            self.tt.hashfull(),
            tb_hits,
            elapsed.as_millis(),
            pv.join(" ")
        )
    }

    /// UCI text of a PV move, played out from the root to know the board it is made on.
    pub(super) fn pv_text(&self, m: Move, pv: &[Move]) -> String {
        let mut board = *self.pos.board();
        for &earlier in pv {
            if earlier == m {
                break;
            }
            board.play(earlier);
        }
        to_uci(&board, m)
    }
}
