//! Time management: how long to think about one move.
//!
//! Two limits come out of the clock. The *soft* limit is the time the move is planned to
//! take; after each iteration the search stops if it has used it, scaled up when the best
//! move keeps changing, the score is falling or the other moves take much of the effort,
//! and down when the best move is stable and takes nearly all the nodes. The
//! *hard* limit is never exceeded: the search checks the clock every few thousand nodes
//! and stops there even in the middle of an iteration.

use super::params::*;
use std::time::{Duration, Instant};

/// What `go` asked for.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Remaining time and increment of the side to move, in milliseconds.
    pub time: Option<u64>,
    pub increment: u64,
    pub moves_to_go: Option<u64>,
    pub move_time: Option<u64>,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Stop when a mate in this many moves (or fewer) is found.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// When the `go` command arrived. The clock runs from then, not from when the search
    /// thread starts, which on a busy machine can be noticeably later.
    pub received: Option<Instant>,
}

impl Limits {
    /// Whether the search plays against a clock (and so may answer a forced move at once).
    pub fn uses_clock(&self) -> bool {
        self.time.is_some() || self.move_time.is_some()
    }
}

#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// `go movetime`: the GUI asked for exactly this long, so use all of it.
    fixed: bool,
}

/// Soft and hard limits in milliseconds for a move played on a clock with `time` left and
/// `increment` per move, `moves_to_go` moves before the next time control (if the GUI says).
///
/// The time planned for this move is an equal share of a "bank": the clock plus the
/// increments still to come, less `overhead` for every one of those moves. Reserving the
/// overhead per move, not once, is what keeps a short clock from draining: when the clock
/// is nearly empty the bank is too, and each move uses less than its increment, so the time
/// the GUI loses around every move is paid for out of the increment.
fn clock_limits(time: u64, increment: u64, moves_to_go: Option<u64>, overhead: u64) -> (u64, u64) {
    let moves_to_go = moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 100);
    let bank = time
        .saturating_add(increment.saturating_mul(moves_to_go - 1))
        .saturating_sub(overhead.saturating_mul(moves_to_go + 1));
    let available = time.saturating_sub(overhead).max(1);
    let cap = if moves_to_go == 1 {
        // The last move before the time control may use nearly all of the time.
        available - available / 10
    } else {
        percent(available, MAX_TIME_SHARE_PERCENT)
    };
    let soft = (bank / moves_to_go).min(cap).max(1);
    let hard = soft.saturating_mul(HARD_LIMIT_FACTOR).min(cap).max(1);
    (soft, hard)
}

/// The soft-limit scale, in percent, for a best move that took `best_share` percent of
/// the root's nodes (see `NODE_SHARE_BASE`).
fn node_share_scale(best_share: u64) -> u64 {
    (NODE_SHARE_BASE - best_share.min(100)) * NODE_SHARE_FACTOR / 100
}

/// `p` percent of `x`, without overflow for any clock a GUI may send.
fn percent(x: u64, p: u64) -> u64 {
    (u128::from(x) * u128::from(p) / 100) as u64
}

impl TimeManager {
    /// Limits for a search starting now. `overhead` is the time lost per move outside the
    /// engine (GUI, network), kept in reserve.
    pub fn new(limits: &Limits, overhead: u64) -> TimeManager {
        // `go movetime` is used as given, as the UCI text ("search exactly x mseconds") and
        // Stockfish do: the GUI that asks for a time per move has already allowed for its
        // own delays, and `Move Overhead` is a reserve against running out of a clock.
        let (soft, hard) = if let Some(move_time) = limits.move_time {
            let t = move_time.max(1);
            (t, t)
        } else if let Some(time) = limits.time {
            clock_limits(time, limits.increment, limits.moves_to_go, overhead)
        } else {
            return TimeManager {
                start: limits.received.unwrap_or_else(Instant::now),
                soft: None,
                hard: None,
                fixed: false,
            };
        };
        TimeManager {
            start: limits.received.unwrap_or_else(Instant::now),
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
            fixed: limits.move_time.is_some(),
        }
    }

    /// Restarts the clock at `at` (on `ponderhit`, the move's own time begins then).
    pub fn restart_at(&mut self, at: Instant) {
        self.start = at;
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time planned for the move (the soft limit), and the most it may take (the hard
    /// limit); `None` without a clock or `movetime`.
    pub fn planned(&self) -> Option<(Duration, Duration)> {
        self.soft.zip(self.hard)
    }

    /// Whether the hard limit has passed.
    pub fn hard_limit_reached(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether to stop after a completed iteration. `stable_iterations` counts how many
    /// iterations in a row kept the same best move; `score_drop` is how much the score
    /// fell since the previous iteration; `best_share` is the percentage of the root's nodes
    /// spent on the best move.
    pub fn should_stop_after_iteration(
        &self,
        stable_iterations: usize,
        score_drop: i32,
        best_share: u64,
    ) -> bool {
        let Some(soft) = self.soft else { return false };
        if self.fixed {
            return self.hard_limit_reached();
        }
        let mut percent =
            STABILITY_SCALE_PERCENT[stable_iterations.min(STABILITY_SCALE_PERCENT.len() - 1)];
        if score_drop > SCORE_DROP_MARGIN {
            percent = percent * SCORE_DROP_SCALE_PERCENT / 100;
        }
        percent = percent * node_share_scale(best_share) / 100;
        let scaled = soft * percent as u32 / 100;
        let limit = self.hard.map_or(scaled, |h| scaled.min(h));
        self.elapsed() >= limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(time: u64, increment: u64, moves_to_go: Option<u64>) -> Limits {
        Limits {
            time: Some(time),
            increment,
            moves_to_go,
            ..Limits::default()
        }
    }

    #[test]
    fn hard_limit_never_exceeds_the_clock() {
        for time in [1, 5, 10, 50, 100, 1000, 60_000, 10_000_000] {
            for inc in [0, 10, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let tm = TimeManager::new(&limits(time, inc, mtg), 10);
                    let hard = tm.hard.unwrap().as_millis() as u64;
                    assert!(
                        hard <= time.saturating_sub(10).max(1),
                        "time {time} inc {inc} mtg {mtg:?}: {hard}"
                    );
                    assert!(tm.soft.unwrap() <= tm.hard.unwrap());
                }
            }
        }
    }

    /// Plays a long game on a short clock: every move loses `lost` milliseconds outside the
    /// engine (less than the `overhead` it was told to reserve) and the engine uses its soft
    /// limit stretched to the most an unstable best move may take. The clock must not drain.
    #[test]
    fn short_clock_with_increment_never_drains() {
        let stretch =
            STABILITY_SCALE_PERCENT[0] * SCORE_DROP_SCALE_PERCENT / 100 * node_share_scale(0) / 100;
        for (base, inc, overhead, lost) in [(1000, 10, 10, 6), (1000, 10, 5, 2), (100, 20, 10, 8)] {
            let mut clock: u64 = base;
            for mv in 0..500 {
                let tm = TimeManager::new(&limits(clock, inc, None), overhead);
                let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
                let used = (soft * stretch as u32 / 100).min(hard).as_millis() as u64 + lost;
                assert!(
                    used < clock,
                    "{base}+{inc}, overhead {overhead}, lost {lost}: flag fell at move {mv}"
                );
                clock = clock - used + inc;
            }
        }
    }

    #[test]
    fn absurd_clocks_do_not_overflow() {
        for time in [u64::MAX, u64::MAX / 2] {
            let tm = TimeManager::new(&limits(time, u64::MAX, Some(100)), u64::MAX / 3);
            assert!(tm.soft.unwrap() <= tm.hard.unwrap());
        }
    }

    /// A search with a long-stable best move, asked after an iteration at 60 % of its soft
    /// limit: a best move that took nearly all the nodes ends it, a contested one goes on.
    #[test]
    fn a_contested_best_move_gets_more_time() {
        let mut tm = TimeManager::new(&limits(100_000, 0, Some(10)), 0);
        let soft = tm.soft.unwrap();
        tm.restart_at(Instant::now() - soft * 60 / 100);
        assert!(node_share_scale(95) < 75 && node_share_scale(40) > 140);
        assert!(tm.should_stop_after_iteration(4, 0, 95));
        assert!(!tm.should_stop_after_iteration(4, 0, 40));
    }

    /// `go movetime` is used as given: `Move Overhead` (20 here) is for clocks.
    #[test]
    fn move_time_is_both_limits() {
        let tm = TimeManager::new(
            &Limits {
                move_time: Some(500),
                ..Limits::default()
            },
            20,
        );
        assert_eq!(tm.soft, Some(Duration::from_millis(500)));
        assert_eq!(tm.hard, Some(Duration::from_millis(500)));
    }

    #[test]
    fn no_clock_no_limits() {
        let tm = TimeManager::new(
            &Limits {
                depth: Some(5),
                ..Limits::default()
            },
            10,
        );
        assert!(!tm.hard_limit_reached());
        assert!(!tm.should_stop_after_iteration(10, 0, 100));
    }
}
