//! The answer of a search, once every thread has stopped: the thread whose move is played
//! ([`pick`]), the move and its expected reply (the ponder move), and for a strength
//! limit the weaker line it plays instead.

use super::SearchResult;
use super::root::RootMove;
use super::score::{DRAW, INFINITE, MATE, MATE_BOUND};
use super::searcher::Searcher;
use super::skill;
use crate::chess::Move;
use crate::chess::movegen::is_legal;

/// What one thread found, handed to the main thread when the search ends.
pub(super) struct Outcome {
    /// The deepest iteration the thread completed (0 if none).
    pub(super) completed_depth: i32,
    /// Its best root move with its line, `None` only without legal moves.
    pub(super) best: Option<RootMove>,
    pub(super) nodes: u64,
    pub(super) tb_hits: u64,
}

/// The thread whose move is played: the one with the deepest completed iteration, and
/// among those the best score; the main thread when nobody beats it. A proven mate for us
/// beats any depth, shortest first: it is not an estimate that a deeper search could
/// overturn. Helpers that completed no iteration do not take part.
pub(super) fn pick<'o>(main: &'o Outcome, helpers: &'o [Outcome]) -> &'o Outcome {
    helpers
        .iter()
        .filter(|o| o.completed_depth >= 1)
        .fold(main, |best, o| if better(o, best) { o } else { best })
}

fn better(a: &Outcome, b: &Outcome) -> bool {
    let (Some(ra), Some(rb)) = (&a.best, &b.best) else {
        return a.best.is_some();
    };
    let (sa, sb) = (ra.known_score(), rb.known_score());
    if sa >= MATE_BOUND || sb >= MATE_BOUND {
        return sa > sb;
    }
    (a.completed_depth, sa) > (b.completed_depth, sb)
}

impl Searcher<'_> {
    /// The score of a root without legal moves: mated, or stalemate.
    pub(super) fn no_move_score(&self) -> i32 {
        if self.pos.in_check() { -MATE } else { DRAW }
    }

    /// This thread's share of the result, once it has stopped.
    pub(super) fn outcome(&self) -> Outcome {
        Outcome {
            completed_depth: self.completed_depth,
            best: self.root_moves.first().cloned(),
            nodes: self.nodes,
            tb_hits: self.tb.hits,
        }
    }

    /// The result of the search, on the main thread once every helper has stopped and
    /// handed in its `outcome`: the move of the thread with the best completed result
    /// (`pick`), with the nodes and tablebase hits of all threads. The last `info`
    /// lines a GUI sees are those of the answer (`report_final`).
    pub(super) fn finish(&self, helpers: Vec<Outcome>) -> SearchResult {
        let main = self.outcome();
        let nodes = main.nodes + helpers.iter().map(|o| o.nodes).sum::<u64>();
        let tb_hits = main.tb_hits + helpers.iter().map(|o| o.tb_hits).sum::<u64>();
        // MultiPV lines are the main thread's: a helper's best line could repeat one of them.
        let chosen = if self.options.multi_pv == 1 {
            pick(&main, &helpers)
        } else {
            &main
        };
        let Some(best) = &chosen.best else {
            return SearchResult {
                best: Move::NONE,
                ponder: Move::NONE,
                score: self.no_move_score(),
                depth: 0,
                nodes,
                tb_hits,
            };
        };
        let mut lines = match &self.options.skill {
            // A limited level shows only the line it plays, not the better ones it passed.
            Some(skill) => vec![self.weakened_choice(skill).clone()],
            None if self.options.multi_pv == 1 => vec![best.clone()],
            None => self.latest_lines(),
        };
        // The expected reply is the line's second move (completed from the table when the
        // line stops after one move), so that `ponder` is a move the GUI was shown.
        let ponder = self.ponder_move(&lines[0]);
        if ponder.is_some() && lines[0].pv.len() < 2 {
            lines[0].pv.truncate(1);
            lines[0].pv.push(ponder);
        }
        // An iteration that completed has sent these lines already, unless a helper's move
        // is played.
        let shown_already = !self.stopped
            && std::ptr::eq(chosen, &main)
            && self.options.skill.is_none()
            && lines[0].pv.get(1).is_none_or(|&m| m == ponder);
        if !shown_already {
            self.report_final(&lines, chosen.completed_depth, nodes, tb_hits);
        }
        let rm = &lines[0];
        SearchResult {
            best: rm.mv,
            ponder,
            score: self.shown_score(rm),
            depth: Self::latest_depth(rm, chosen.completed_depth),
            nodes,
            tb_hits,
        }
    }

    /// The MultiPV lines by their latest results, best first: a search stopped inside an
    /// iteration has scored some lines at its depth and left the others at the depth
    /// before, and a line it re-searched may have overtaken an earlier one.
    pub(super) fn latest_lines(&self) -> Vec<RootMove> {
        let count = self.options.multi_pv.clamp(1, self.root_moves.len());
        let mut lines = self.root_moves[..count].to_vec();
        // (A stable sort: equal scores keep the search's order.)
        lines.sort_by_key(|rm| std::cmp::Reverse(rm.known_score()));
        lines
    }

    /// The depth of a root move's latest score: the iteration that scored it, or the last
    /// completed one when the iteration in progress had not reached it.
    pub(super) fn latest_depth(rm: &RootMove, completed_depth: i32) -> i32 {
        if rm.score == -INFINITE {
            completed_depth
        } else {
            rm.score_depth
        }
    }

    /// The move a strength-limited search plays: one of its MultiPV lines, chosen at random
    /// by score (`Skill::choose`), or the best in a mate the setting knows. Clearly
    /// winning, a line that gives the win up or goes back to a position of the game is
    /// left out while another remains. The line keeps its own score and ponder move.
    pub(super) fn weakened_choice(&self, skill: &skill::Skill) -> &RootMove {
        let lines = &self.root_moves[..self.options.multi_pv.clamp(1, self.root_moves.len())];
        let best = lines
            .iter()
            .map(RootMove::known_score)
            .max()
            .unwrap_or(DRAW);
        let mut choices: Vec<&RootMove> = lines.iter().collect();
        if best >= skill::CLEARLY_WINNING {
            choices.retain(|rm| rm.known_score() > DRAW && !self.goes_back(rm.mv));
            if choices.is_empty() {
                choices = lines.iter().collect();
            }
        }
        if skill.knows_the_mate(self.pos.board()) {
            // (`max_by_key` takes the last of equals: the first in the search's order.)
            return choices
                .iter()
                .rev()
                .max_by_key(|rm| rm.known_score())
                .unwrap();
        }
        let candidates: Vec<(Move, i32)> =
            choices.iter().map(|rm| (rm.mv, rm.known_score())).collect();
        let chosen = skill.choose(&candidates, &mut crate::rng::SplitMix64::from_clock());
        choices
            .iter()
            .find(|rm| rm.mv == chosen)
            .unwrap_or(&choices[0])
    }

    /// Whether playing `mv` at the root brings back a position the game had before.
    pub(super) fn goes_back(&self, mv: Move) -> bool {
        let mut pos = self.pos.clone();
        pos.make(mv);
        pos.repetitions() > 0
    }

    /// The reply to expect after `rm`'s move, for `bestmove ... ponder`: the second move of
    /// its line or, when the line stops after one move (a table hit cut it short), the
    /// table's move for the position after it. Only a legal move is offered; else none.
    pub(super) fn ponder_move(&self, rm: &RootMove) -> Move {
        let mut board = *self.pos.board();
        board.play(rm.mv);
        let candidate = match rm.pv.get(1) {
            Some(&m) => m,
            None => self.tt.probe(board.key()).map_or(Move::NONE, |e| e.mv),
        };
        if candidate.is_some() && is_legal(&board, candidate) {
            candidate
        } else {
            Move::NONE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::chess::movegen::legal_moves;
    use crate::search::score::mate_in;

    fn outcome(id: usize, depth: i32, score: i32) -> Outcome {
        let mv = legal_moves(&Position::startpos())[id];
        Outcome {
            completed_depth: depth,
            best: Some(RootMove {
                score,
                score_depth: depth,
                ..RootMove::new(mv)
            }),
            nodes: 0,
            tb_hits: 0,
        }
    }

    /// The thread `pick` chooses, by the move it found (`outcome` gives each id its own).
    fn picked(main: &Outcome, helpers: &[Outcome]) -> usize {
        let mv = pick(main, helpers).best.as_ref().expect("a move").mv;
        let moves = legal_moves(&Position::startpos());
        moves.iter().position(|&m| m == mv).expect("a start move")
    }

    #[test]
    fn the_deepest_then_best_scoring_thread_is_picked() {
        let main = outcome(0, 10, 30);
        // Shallower helpers lose even with a better score; at equal depth the better
        // score wins; the deepest wins even with a worse score.
        assert_eq!(picked(&main, &[outcome(1, 9, 200)]), 0);
        assert_eq!(picked(&main, &[outcome(1, 10, 30)]), 0, "ties go to main");
        assert_eq!(picked(&main, &[outcome(1, 10, 31), outcome(2, 9, 500)]), 1);
        assert_eq!(picked(&main, &[outcome(1, 10, 31), outcome(2, 11, -50)]), 2);
        // A helper without a completed iteration never counts.
        assert_eq!(picked(&main, &[outcome(1, 0, 900)]), 0);
        // A mate for us beats depth; the shorter mate beats the longer.
        assert_eq!(picked(&main, &[outcome(1, 7, mate_in(9))]), 1);
        let mating = outcome(0, 12, mate_in(9));
        assert_eq!(picked(&mating, &[outcome(1, 14, 900)]), 0);
        assert_eq!(picked(&mating, &[outcome(1, 6, mate_in(5))]), 1);
    }
}
