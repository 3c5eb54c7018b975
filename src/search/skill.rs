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
//! - **It plays like a person in the endings people learn**: from the rating at which a
//!   player knows a basic mate (the queen or the rook at 1200, two bishops at 1800, bishop
//!   and knight at 2200) the search gets at least `TECHNIQUE_NODES` and plays its best
//!   line, since a random choice among moves a few centipawns apart walks the king in
//!   circles until the fifty-move rule. And clearly winning, no setting plays a move back
//!   into a position of the game (the way to a draw by repetition).
//!
//! - **It takes a person's time**: on a clock it answers when a person would (a share of
//!   what the full-strength search would plan, less for forced, obvious and known moves),
//!   not the moment its few nodes are spent; `go movetime` takes all its time.
//!
//! The constants were calibrated by games against Stockfish's `UCI_Elo` and the engine's
//! own settings (`scripts/calibrate_strength.py`), with the network, which a limited
//! search always evaluates with; docs/strength.md has the tables.

use super::SearchOptions;
use super::timeman::Limits;
use crate::chess::{Bitboard, Board, Move, PieceType};
use crate::eval::endgame;
use crate::rng::SplitMix64;
use std::time::Duration;

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
/// every level (44 cp at 1400, 15 at 2000, 3.5 at 2800)...
const TEMPERATURE_AT_MIN: f64 = 130.6;
const TEMPERATURE_DECAY: f64 = 0.834;
/// ... and below `WARMER_BELOW` it is warmer by the factor `WARMING` per 200 Elo (163 cp
/// at 1000, 423 at 800): there the node budget no longer weakens the search (depth 1 is
/// always completed), so the nodes alone left 1000 only about 80 Elo below 1200.
const WARMER_BELOW: i32 = 1200;
const WARMING: f64 = 1.8;
/// Candidate moves searched for the choice (the MultiPV of the weakened search).
pub const CANDIDATES: usize = 4;
/// The nodes a setting that knows a basic mate spends on each of its moves, at least: at
/// full strength 1,000 nodes a move mate with queen or rook and 20,000 with two bishops,
/// against Stockfish's defence, in 6 random positions each (`scripts/level_endgames.py`).
const TECHNIQUE_NODES: u64 = 20_000;
/// The ratings from which a player knows the mates with a queen or rook, with two
/// bishops, and with bishop and knight.
const KNOWS_MAJOR_MATE: i32 = 1200;
const KNOWS_BISHOPS_MATE: i32 = 1800;
const KNOWS_BISHOP_KNIGHT_MATE: i32 = 2200;
/// A score this good (centipawns, for the side to move) is clearly winning: no move back
/// into a position of the game.
pub const CLEARLY_WINNING: i32 = 300;

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

    /// The limits and options of a search at this strength from `board`: at most
    /// `nodes()` nodes (`TECHNIQUE_NODES` at least in a mate this setting knows) and the
    /// `go` command's own limits, and at least `CANDIDATES` lines to choose from.
    pub fn restrict(
        &self,
        limits: Limits,
        options: SearchOptions,
        board: &Board,
    ) -> (Limits, SearchOptions) {
        let budget = if self.knows_the_mate(board) {
            self.nodes().max(TECHNIQUE_NODES)
        } else {
            self.nodes()
        };
        let nodes = limits.nodes.map_or(budget, |n| n.min(budget));
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

    /// Whether the side to move has a bare king to mate with material whose technique a
    /// player of this rating knows.
    pub fn knows_the_mate(&self, board: &Board) -> bool {
        let us = board.side_to_move();
        if !endgame::lone_king_against_mating_material(board) || board.color(us.flip()).count() != 1
        {
            return false;
        }
        let has = |kind: PieceType| board.pieces(us, kind).is_nonempty();
        let bishops = board.pieces(us, PieceType::Bishop);
        let bishop_pair = (bishops & Bitboard::DARK_SQUARES).is_nonempty()
            && (bishops & !Bitboard::DARK_SQUARES).is_nonempty();
        let needed = if has(PieceType::Queen) || has(PieceType::Rook) {
            KNOWS_MAJOR_MATE
        } else if bishop_pair {
            KNOWS_BISHOPS_MATE
        } else {
            KNOWS_BISHOP_KNIGHT_MATE
        };
        self.elo >= needed
    }

    /// The temperature of the move choice, in centipawns.
    pub fn temperature(&self) -> f64 {
        let below = f64::from((WARMER_BELOW - self.elo).max(0)) / 200.0;
        TEMPERATURE_AT_MIN * TEMPERATURE_DECAY.powf(self.steps()) * WARMING.powf(below)
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
        let mut pick = rng.unit() * total;
        for (&(mv, _), w) in candidates.iter().zip(&weights) {
            if pick < *w {
                return mv;
            }
            pick -= w;
        }
        candidates[0].0
    }
}

/// The moves of the game in which a person plays what they know (an opening), quickly.
pub const OPENING_MOVES: u16 = 8;

/// What a person's time on a move depends on, as the search found the position.
#[derive(Clone, Debug)]
pub struct Situation {
    pub legal_moves: usize,
    /// How much better the best line scored than the second (centipawns), if there is one.
    pub lead_over_second: Option<i32>,
    /// Whether the game is in its first `OPENING_MOVES` moves.
    pub opening: bool,
    /// Whether this is a basic mate the setting knows (`Skill::knows_the_mate`).
    pub known_mate: bool,
}

impl Skill {
    /// How long a person would think over this move with `planned` the time a full-strength
    /// search plans for it on this clock, never more than `most`: a forced move at once, an
    /// opening move, an obvious one (a recapture, say: the best line far ahead of the
    /// second) and a mating pattern they know in a fraction of it, a choice between close
    /// moves in a rich position in more; and never twice alike (a random factor from 0.6
    /// to 1.4).
    pub fn think_time(
        &self,
        planned: Duration,
        most: Duration,
        position: &Situation,
        rng: &mut SplitMix64,
    ) -> Duration {
        let share = if position.legal_moves <= 1 {
            0.1
        } else {
            let lead = position.lead_over_second.unwrap_or(0);
            let obvious = if lead >= OBVIOUS_LEAD {
                0.4
            } else if lead <= CLOSE_CALL && position.legal_moves >= RICH_POSITION {
                1.3
            } else {
                1.0
            };
            let known = if position.opening {
                0.25
            } else if position.known_mate {
                0.4
            } else {
                1.0
            };
            obvious * known
        };
        let noise = 0.6 + 0.8 * rng.unit();
        planned.mul_f64(share * noise).min(most)
    }
}

/// A best line this far ahead of the second (centipawns) makes the move obvious...
const OBVIOUS_LEAD: i32 = 150;
/// ... and lines this close, in a position with at least `RICH_POSITION` legal moves, a
/// hard choice.
const CLOSE_CALL: i32 = 20;
const RICH_POSITION: usize = 30;

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
        // The warming below 1200 leaves the settings from 1200 up as they were measured.
        let cp = |elo| (Skill::from_elo(elo).temperature() * 10.0).round() / 10.0;
        assert_eq!(
            (cp(800), cp(1000), cp(1200), cp(2000)),
            (423.1, 163.5, 63.2, 14.8)
        );
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
        let start = *crate::chess::Position::startpos().board();
        let (limits, options) = Skill::from_elo(1500).restrict(Limits::default(), options, &start);
        assert!(options.nnue.is_some());
        assert_eq!(limits.nodes, Some(Skill::from_elo(1500).nodes()));
        assert!(options.multi_pv >= CANDIDATES);
        let fewer = Limits {
            nodes: Some(10),
            ..Limits::default()
        };
        let (limits, _) = Skill::from_elo(1500).restrict(fewer, SearchOptions::default(), &start);
        assert_eq!(limits.nodes, Some(10));
    }

    #[test]
    fn the_basic_mates_are_known_from_their_ratings() {
        let board = |fen: &str| {
            *crate::chess::Position::from_fen(fen, false)
                .unwrap()
                .board()
        };
        let knows = |elo: i32, fen: &str| Skill::from_elo(elo).knows_the_mate(&board(fen));
        let (queen, rook) = (
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        );
        let bishops = "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1";
        let bishop_knight = "4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1";
        for fen in [queen, rook] {
            assert!(
                !knows(1100, fen) && knows(1200, fen) && knows(2800, fen),
                "{fen}"
            );
        }
        assert!(!knows(1700, bishops) && knows(1800, bishops));
        assert!(!knows(2100, bishop_knight) && knows(2200, bishop_knight));
        // Not for the side with the bare king, nor with anything left to the defence.
        assert!(!knows(2800, "4k3/8/8/8/8/8/8/R3K3 b - - 0 1"));
        assert!(!knows(2800, "4k3/7p/8/8/8/8/8/R3K3 w - - 0 1"));
        assert!(!knows(
            2800,
            "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"
                .replace("KB2", "K3")
                .as_str()
        ));
        // The budget grows to the technique's, never above a `go nodes` limit.
        let (limits, _) = Skill::from_elo(1200).restrict(
            Limits::default(),
            SearchOptions::default(),
            &board(rook),
        );
        assert_eq!(limits.nodes, Some(TECHNIQUE_NODES));
        let few = Limits {
            nodes: Some(500),
            ..Limits::default()
        };
        let (limits, _) =
            Skill::from_elo(1200).restrict(few, SearchOptions::default(), &board(rook));
        assert_eq!(limits.nodes, Some(500));
    }

    #[test]
    fn a_person_takes_less_time_on_forced_obvious_and_known_moves() {
        let (planned, most) = (Duration::from_secs(10), Duration::from_secs(30));
        let skill = Skill::from_elo(1500);
        let mut rng = SplitMix64::new(3);
        let mut mean = |position: &Situation| {
            let runs = 200;
            let total: Duration = (0..runs)
                .map(|_| skill.think_time(planned, most, position, &mut rng))
                .sum();
            total.as_secs_f64() / f64::from(runs)
        };
        let plain = Situation {
            legal_moves: 25,
            lead_over_second: Some(40),
            opening: false,
            known_mate: false,
        };
        let forced = mean(&Situation {
            legal_moves: 1,
            ..plain.clone()
        });
        let opening = mean(&Situation {
            opening: true,
            ..plain.clone()
        });
        let obvious = mean(&Situation {
            lead_over_second: Some(400),
            ..plain.clone()
        });
        let hard = mean(&Situation {
            legal_moves: 40,
            lead_over_second: Some(5),
            ..plain.clone()
        });
        let plain = mean(&plain);
        assert!((9.0..11.0).contains(&plain), "{plain}");
        assert!(
            forced < 1.5 && opening < 3.5 && obvious < 5.0,
            "{forced} {opening} {obvious}"
        );
        assert!(hard > 12.0, "{hard}");
        // Never beyond the most the clock allows.
        let short = Duration::from_millis(1500);
        for _ in 0..100 {
            let hard = Situation {
                legal_moves: 40,
                lead_over_second: Some(0),
                opening: false,
                known_mate: false,
            };
            assert!(skill.think_time(planned, short, &hard, &mut rng) <= short);
        }
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
        for elo in [2400, 2000, 1600, 1200, 1000, 800] {
            let c = counts(elo);
            // The best is chosen most, the close second more than the blunder, and the
            // blunder seldom (fewer than 8 times in 100 from 1000 up; fewer than 20 at 800,
            // a beginner).
            assert!(c[0] > c[1] && c[1] > c[2], "{elo}: {c:?}");
            assert!(c[2] < if elo > 800 { 800 } else { 2000 }, "{elo}: {c:?}");
            // A weaker setting strays from the best move more often.
            assert!(
                c[0] < last[0] && c[2] >= last[2],
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
