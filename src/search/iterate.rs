//! Iterative deepening: the root searched to depth 1, 2, 3, ..., each depth inside an
//! aspiration window around the last score, until the clock, a limit or a signal says
//! stop (checked at every node by `check_stop`); and the waits a `go ponder` or
//! `go infinite` owes its GUI before answering.

use super::params::*;
use super::root::RootMove;
use super::score::{self, INFINITE, MATE, MATE_BOUND, MAX_PLY, TB_WIN_BOUND};
use super::searcher::Searcher;
use super::skill;
use crate::chess::Move;
use std::sync::atomic::Ordering;
use std::time::Instant;

impl Searcher<'_> {
    /// Searches depth after depth until a limit or a signal ends the search. The main
    /// thread then waits, if it is pondering or in `go infinite`, for the command that
    /// allows it to answer; the caller collects the result (`outcome`, `finish`).
    pub(super) fn iterative_deepening(&mut self) {
        if self.root_moves.is_empty() {
            let score = self.no_move_score();
            let wdl = self.wdl_text(score);
            self.report(&format!("info depth 0 score {}{wdl}", score::to_uci(score)));
            self.wait_while_pondering_or_infinite();
            return;
        }
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        let mut stable_iterations = 0;
        let mut previous_best = Move::NONE;
        let mut previous_score = 0;
        for depth in 1..=max_depth {
            if self.skips_depth(depth, max_depth) {
                continue;
            }
            // Scores of this iteration start unknown: if it is stopped early, a move it has
            // not reached must not outrank, with a score from the last iteration, the
            // moves it has already searched deeper.
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
                rm.score = -INFINITE;
            }
            let lines = self.options.multi_pv.clamp(1, self.root_moves.len());
            for pv_index in 0..lines {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.aspiration(depth);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            // Each line was searched with the earlier ones excluded, so a later line can
            // come out better than an earlier one: report (and play) them best first.
            self.root_moves[..lines].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            self.completed_depth = depth;
            // (Formatting a line costs a PV walk: not worth it when nobody reads it, as
            // in datagen, which searches without reporting.)
            if self.is_main() && self.options.report.is_some() {
                for line in 0..lines {
                    let text = self.info_line(depth, line, "");
                    self.report(&text);
                }
            }

            let best = &self.root_moves[0];
            stable_iterations = if best.mv == previous_best {
                stable_iterations + 1
            } else {
                0
            };
            let score_drop = previous_score - best.score;
            previous_best = best.mv;
            previous_score = best.score;
            if self.limits_reached_after_iteration(stable_iterations, score_drop)
                || (self.forced_on_the_clock() && depth >= FORCED_MOVE_DEPTH)
                || self.mates_are_settled(depth, lines)
            {
                break;
            }
        }
        // A helper that completed the requested depth has a result as good as the main
        // thread's would be: `go depth` is answered then (see `Shared::depth_reached`).
        // Not with MultiPV, whose lines only the main thread reports.
        if !self.is_main()
            && self.limits.depth.is_some()
            && self.completed_depth == max_depth
            && self.options.multi_pv == 1
        {
            self.shared.depth_reached.store(true, Ordering::Relaxed);
        }
        self.wait_while_pondering_or_infinite();
        self.take_a_persons_time();
    }

    /// A strength-limited search on the clock answers when a person of its rating would
    /// (`Skill::think_time`), not the moment its few nodes are spent: `go movetime` takes
    /// its time, a clock a share of it. `stop` ends the wait.
    pub(super) fn take_a_persons_time(&mut self) {
        let Some(skill) = self.options.skill else {
            return;
        };
        self.notice_ponderhit();
        let Some((planned, most)) = self.time.planned() else {
            return;
        };
        if !self.is_main() || self.pondering || self.root_moves.is_empty() {
            return;
        }
        let target = if self.limits.move_time.is_some() {
            most
        } else {
            let scores: Vec<i32> = self
                .latest_lines()
                .iter()
                .map(RootMove::known_score)
                .collect();
            let position = skill::Situation {
                legal_moves: self.root_moves.len(),
                lead_over_second: scores.get(1).map(|&s| scores[0] - s),
                opening: self.pos.board().fullmove_number() <= skill::OPENING_MOVES,
                known_mate: skill.knows_the_mate(self.pos.board()),
            };
            skill.think_time(
                planned,
                most,
                &position,
                &mut crate::rng::SplitMix64::from_clock(),
            )
        };
        let control = self.shared.control;
        while self.time.elapsed() < target && !control.stop.load(Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// Whether every line of play is a mate (for or against the side to move) that deeper
    /// iterations would only repeat: `depth` is more than twice the longest of them, plus a
    /// margin for the reductions that might have hidden a shorter mate (or a longer
    /// defence). Without this a mated or mating root runs to the deepest depth in
    /// milliseconds, a flood of lines for the log; `go infinite` then waits for `stop`.
    /// A `go depth` gets the depth it asked for.
    pub(super) fn mates_are_settled(&self, depth: i32, lines: usize) -> bool {
        let lines = &self.root_moves[..lines];
        self.limits.depth.is_none()
            && lines.iter().all(|rm| score::is_mate(rm.score))
            && lines
                .iter()
                .all(|rm| depth >= 2 * (MATE - rm.score.abs()) + MATE_SETTLED_MARGIN)
    }

    /// Helper threads vary their iterations so that they do not all search the same tree
    /// in step with the main thread: odd-numbered helpers skip every other depth (1, 3, 5,
    /// ... for helper 1; 1, 2, 4, 6, ... for helper 3, and so on), so they are often an
    /// iteration ahead and leave deeper results in the table for the others. Even-numbered
    /// helpers search every depth; they still differ from the main thread through their
    /// own histories and the timing of what the others store. Depth 1 and the last depth
    /// are never skipped.
    pub(super) fn skips_depth(&self, depth: i32, max_depth: i32) -> bool {
        self.id % 2 == 1
            && depth > 1
            && depth < max_depth
            && (depth + (self.id / 2) as i32) % 2 == 0
    }

    /// Searches the root with a narrow window around the previous score, widening it on
    /// each failure until the true score falls inside.
    pub(super) fn aspiration(&mut self, depth: i32) {
        let previous = self.root_moves[self.pv_index].previous_score;
        let mut delta = ASPIRATION_WINDOW.get();
        let (mut alpha, mut beta) =
            if depth >= ASPIRATION_MIN_DEPTH && previous.abs() < TB_WIN_BOUND {
                (
                    (previous - delta).max(-INFINITE),
                    (previous + delta).min(INFINITE),
                )
            } else {
                (-INFINITE, INFINITE)
            };
        loop {
            let score = self.alphabeta(alpha, beta, depth, 0, false);
            self.sort_root_moves();
            if self.stopped {
                return;
            }
            // (Only the main thread reports: helpers need not format the line at all.)
            let reports = self.options.report.is_some();
            if score <= alpha {
                if reports {
                    let text = self.info_line(depth, self.pv_index, " upperbound");
                    self.report(&text);
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                if reports {
                    let text = self.info_line(depth, self.pv_index, " lowerbound");
                    self.report(&text);
                }
                beta = (score + delta).min(INFINITE);
            } else {
                return;
            }
            delta += delta / 2;
        }
    }

    /// Whether to stop after a completed iteration: a mate found within `go mate`, the
    /// node limit, or the time manager's verdict.
    pub(super) fn limits_reached_after_iteration(
        &mut self,
        stable_iterations: usize,
        score_drop: i32,
    ) -> bool {
        self.notice_ponderhit();
        if self.stopped || self.shared.should_stop() {
            return true;
        }
        let best = self.root_moves[0].score;
        if let Some(moves) = self.limits.mate
            && best >= MATE_BOUND
            && (MATE - best + 1) / 2 <= moves as i32
        {
            return true;
        }
        if self
            .limits
            .nodes
            .is_some_and(|n| self.nodes + self.other_nodes >= n)
        {
            return true;
        }
        !self.pondering
            && !self.limits.infinite
            && self.time.should_stop_after_iteration(
                stable_iterations,
                score_drop,
                self.best_share(),
            )
    }

    /// Called every node: whether the search must stop now. The main thread always
    /// completes depth 1 first (at most 481 nodes over the WAC suite), so that even a
    /// `stop` sent right after `go` is answered with a searched move, never the first legal
    /// one. Then `stop`, the node limit and the clock end the search. (`go nodes` counts
    /// the nodes of all threads: a helper's count reaches the others every
    /// `CLOCK_CHECK_NODES` of its nodes.)
    pub(super) fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.is_main() && self.completed_depth < 1 {
            return false;
        }
        if self
            .limits
            .nodes
            .is_some_and(|n| self.nodes + self.other_nodes >= n)
        {
            self.stopped = true;
            return true;
        }
        if !self.nodes.is_multiple_of(CLOCK_CHECK_NODES) {
            return false;
        }
        self.other_nodes = self.shared.publish(self.id, self.nodes, self.tb.hits);
        if self.shared.should_stop() {
            self.stopped = true;
            return true;
        }
        self.notice_ponderhit();
        if !self.pondering && self.time.hard_limit_reached() {
            self.stopped = true;
        }
        self.stopped
    }

    /// Looks for `ponderhit`: the opponent played the expected move, so the search now
    /// plays by the clock, counted from the moment `ponderhit` arrived (the search may
    /// notice it a little later). With a single legal move there is nothing to think about:
    /// the search stops and answers at once once it has the forced move's score.
    pub(super) fn notice_ponderhit(&mut self) {
        if self.pondering && !self.shared.control.pondering.load(Ordering::Acquire) {
            self.pondering = false;
            let at = self.shared.control.ponderhit_time();
            self.time.restart_at(at.unwrap_or_else(Instant::now));
            if self.forced_on_the_clock() && self.completed_depth >= 1 {
                self.stopped = true;
            }
        }
    }

    /// `go infinite` and `go ponder` must not answer before `stop` (or `ponderhit`), even
    /// when the search has nothing more to do: no legal move, a mate found, the depth or
    /// node limit reached. Helpers never wait: they just end.
    pub(super) fn wait_while_pondering_or_infinite(&mut self) {
        if !self.is_main() {
            return;
        }
        let control = self.shared.control;
        loop {
            let stop = control.stop.load(Ordering::Relaxed);
            let pondering = control.pondering.load(Ordering::Acquire);
            if stop || !(self.limits.infinite || (self.limits.ponder && pondering)) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}
