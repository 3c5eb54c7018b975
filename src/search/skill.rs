//! Playing strength for people: `UCI_LimitStrength` with `UCI_Elo`, and `Skill Level`.
//!
//! A weakened engine should lose like a human of its rating, not like a program that plays
//! perfectly and then throws a piece away at random. Two things make Tarpon weaker:
//!
//! - **It looks less far**: the search gets a node budget that grows exponentially with the
//!   rating (each 100 Elo multiplies it by `NODE_GROWTH`), so a weak setting misses deeper
//!   tactics the way a weak player does, and still sees the simple ones.
//! - **It does not always pick its best move**: the search keeps several candidate moves
//!   (MultiPV) and one is chosen at random, a move `loss` centipawns worse than the best
//!   having the weight `exp(-loss / temperature)`. The temperature falls as the rating
//!   rises. A slightly worse move is often chosen when several are close (as a human picks
//!   one of several plausible moves); a much worse one seldom, and only when it was among
//!   the candidates, that is, a move that looked reasonable to a shallow search.
//!
//! The constants were calibrated by games against Stockfish's `UCI_Elo` and the engine's
//! own settings (`scripts/calibrate_strength.py`), with the network, which a limited
//! search always evaluates with; docs/strength.md has the tables.

use super::SearchOptions;
use super::timeman::Limits;
use crate::chess::Move;
use crate::rng::SplitMix64;

/// The lowest and highest `UCI_Elo`.
pub const ELO_MIN: i32 = 800;
pub const ELO_MAX: i32 = 2800;
/// `Skill Level` 20 is full strength; 0..=19 map to ratings (see `elo_of_level`).
pub const LEVEL_MAX: i32 = 20;

/// Nodes per move at `ELO_MIN`.
const NODES_AT_MIN: f64 = 4.8;
/// How the node budget grows per 100 Elo.
const NODE_GROWTH: f64 = 2.0;
/// Temperature of the move choice at `ELO_MIN`, in centipawns; it shrinks by the factor
/// `TEMPERATURE_DECAY` per 100 Elo, so that the choice sharpens by the same proportion at
/// every level (131 cp at 800, 44 at 1400, 15 at 2000, 3.5 at 2800).
const TEMPERATURE_AT_MIN: f64 = 130.6;
const TEMPERATURE_DECAY: f64 = 0.834;
/// Candidate moves searched for the choice (the MultiPV of the weakened search).
pub const CANDIDATES: usize = 4;

/// A strength limit: the rating to play at.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Skill {
    elo: i32,
}

impl Skill {
    /// The limit for a `UCI_Elo` value (clamped to the supported range).
    pub fn from_elo(elo: i32) -> Skill {
        Skill {
            elo: elo.clamp(ELO_MIN, ELO_MAX),
        }
    }

    /// The limit for a `Skill Level`: `None` (full strength) at `LEVEL_MAX`.
    pub fn from_level(level: i32) -> Option<Skill> {
        (level < LEVEL_MAX).then(|| Skill::from_elo(elo_of_level(level)))
    }

    /// What the UCI options ask for: `UCI_LimitStrength` uses `UCI_Elo`, otherwise the
    /// `Skill Level` applies (as in Stockfish).
    pub fn from_options(limit_strength: bool, elo: i32, level: i32) -> Option<Skill> {
        if limit_strength {
            Some(Skill::from_elo(elo))
        } else {
            Skill::from_level(level)
        }
    }

    pub fn elo(&self) -> i32 {
        self.elo
    }

    /// The most nodes the search may spend on a move.
    pub fn nodes(&self) -> u64 {
        (NODES_AT_MIN * NODE_GROWTH.powf(self.steps())) as u64
    }

    /// The limits and options of a search at this strength: at most `nodes()` nodes (and
    /// the `go` command's own limits), and at least `CANDIDATES` lines to choose from.
    pub fn restrict(&self, limits: Limits, options: SearchOptions) -> (Limits, SearchOptions) {
        let nodes = limits.nodes.map_or(self.nodes(), |n| n.min(self.nodes()));
        let limits = Limits {
            nodes: Some(nodes),
            ..limits
        };
        let options = SearchOptions {
            multi_pv: options.multi_pv.max(CANDIDATES),
            ..options
        };
        (limits, options)
    }

    /// The temperature of the move choice, in centipawns.
    pub fn temperature(&self) -> f64 {
        TEMPERATURE_AT_MIN * TEMPERATURE_DECAY.powf(self.steps())
    }

    /// Steps of 100 Elo above `ELO_MIN`: both curves are geometric in them.
    fn steps(&self) -> f64 {
        f64::from(self.elo - ELO_MIN) / 100.0
    }

    /// Chooses among the searched candidates, each a move with its score (centipawns for
    /// the side to move; the best first or not, any order). Mates are handled as scores:
    /// missing a mate for a losing alternative is a large loss and thus rare.
    pub fn choose(&self, candidates: &[(Move, i32)], rng: &mut SplitMix64) -> Move {
        let Some(best) = candidates.iter().map(|&(_, s)| s).max() else {
            return Move::NONE;
        };
        let t = self.temperature();
        let weights: Vec<f64> = candidates
            .iter()
            .map(|&(_, s)| (-(f64::from(best) - f64::from(s)) / t).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut pick = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (&(mv, _), w) in candidates.iter().zip(&weights) {
            if pick < *w {
                return mv;
            }
            pick -= w;
        }
        candidates[0].0
    }
}

/// The rating of a `Skill Level` below 20: 800 at level 0, 100 more per level.
pub fn elo_of_level(level: i32) -> i32 {
    ELO_MIN + 100 * level.clamp(0, LEVEL_MAX - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Move, Square};

    fn mv(to: u8) -> Move {
        Move::new(Square::new(12), Square::new(to))
    }

    #[test]
    fn stronger_settings_search_more_and_choose_more_sharply() {
        let mut last = Skill::from_elo(ELO_MIN);
        for elo in (ELO_MIN + 100..=ELO_MAX).step_by(100) {
            let s = Skill::from_elo(elo);
            assert!(s.nodes() > last.nodes() && s.temperature() < last.temperature());
            last = s;
        }
        assert_eq!(Skill::from_elo(100).elo(), ELO_MIN);
        assert_eq!(Skill::from_elo(5000).elo(), ELO_MAX);
    }

    #[test]
    fn levels_and_options() {
        assert_eq!(Skill::from_level(20), None);
        assert_eq!(Skill::from_level(0), Some(Skill::from_elo(800)));
        assert_eq!(Skill::from_level(10), Some(Skill::from_elo(1800)));
        assert_eq!(
            Skill::from_options(true, 1500, 20),
            Some(Skill::from_elo(1500))
        );
        assert_eq!(Skill::from_options(false, 1500, 20), None);
        assert_eq!(
            Skill::from_options(false, 1500, 5),
            Some(Skill::from_elo(1300))
        );
    }

    #[test]
    fn a_limited_search_has_a_node_budget_and_candidates() {
        let options = SearchOptions {
            nnue: Some(crate::eval::nnue::Net::embedded()),
            ..SearchOptions::default()
        };
        let (limits, options) = Skill::from_elo(1500).restrict(Limits::default(), options);
        assert!(options.nnue.is_some());
        assert_eq!(limits.nodes, Some(Skill::from_elo(1500).nodes()));
        assert!(options.multi_pv >= CANDIDATES);
        let fewer = Limits {
            nodes: Some(10),
            ..Limits::default()
        };
        let (limits, _) = Skill::from_elo(1500).restrict(fewer, SearchOptions::default());
        assert_eq!(limits.nodes, Some(10));
    }

    #[test]
    fn the_choice_follows_the_scores() {
        // A best move, a close second and a blunder.
        let candidates = [(mv(20), 50), (mv(28), 40), (mv(21), -300)];
        let counts = |elo: i32| {
            let skill = Skill::from_elo(elo);
            let mut rng = SplitMix64::new(7);
            let mut counts = [0u32; 3];
            for _ in 0..10_000 {
                let chosen = skill.choose(&candidates, &mut rng);
                counts[candidates.iter().position(|c| c.0 == chosen).unwrap()] += 1;
            }
            counts
        };
        let mut last = [10_000, 0, 0];
        for elo in [2400, 2000, 1600, 1200, 800] {
            let c = counts(elo);
            // The best is chosen most, the close second more than the blunder, and the
            // blunder seldom (fewer than 12 times in 100, even at 800).
            assert!(c[0] > c[1] && c[1] > c[2], "{elo}: {c:?}");
            assert!(c[2] < 1200, "{elo}: {c:?}");
            // A weaker setting strays from the best move more often.
            assert!(
                c[0] < last[0] && c[1] > last[1],
                "{elo}: {c:?} after {last:?}"
            );
            last = c;
        }
        assert!(counts(800)[1] > 2500, "{:?}", counts(800));
        assert_eq!(
            Skill::from_elo(800).choose(&[], &mut SplitMix64::new(1)),
            Move::NONE
        );
    }
}
