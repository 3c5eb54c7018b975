//! Tarpon's side of a game: the engine, how long it thinks and at what strength.

use super::super::engine::{Analysis, Engine, Settings};
use crate::chess::Position;
use crate::search::skill::Skill;
use crate::search::timeman::Limits;
use std::time::Duration;

/// Tarpon's side of the game: its engine and how long it may think. Settings of its
/// strength belong here too (in `engine.options`).
pub struct Opponent {
    engine: Engine,
    settings: Settings,
    strength: Option<Skill>,
}

impl Opponent {
    /// The opponent, and notes on its tablebases (if asked for) for the user.
    pub fn new(settings: Settings, strength: Option<Skill>) -> (Opponent, Vec<String>) {
        let (engine, notes) = Engine::new(settings.hash_mb, settings.syzygy.as_deref());
        let opponent = Opponent {
            engine,
            settings,
            strength,
        };
        (opponent, notes)
    }

    /// Chooses Tarpon's move. `clock`: its remaining time and increment, if on a clock; a
    /// depth or node limit given with the clock still applies (a weaker opponent).
    pub fn choose_move(
        &mut self,
        position: &Position,
        clock: Option<(Duration, Duration)>,
    ) -> Analysis {
        let limits = move_limits(&self.settings, clock);
        self.engine.options.skill = self.strength;
        self.engine.search(position, limits, |_| {})
    }

    /// A short search of `position` for its evaluation, at full strength: at most
    /// `EVAL_MS`, and within a depth or node limit if one was given.
    pub fn evaluate(&mut self, position: &Position) -> Analysis {
        self.engine.options.skill = None;
        let mut limits = self.settings.limits();
        limits.move_time = Some(limits.move_time.map_or(EVAL_MS, |ms| ms.min(EVAL_MS)));
        self.engine.search(position, limits, |_| {})
    }

    /// The move Tarpon would play for the person: its own limits without the clock (so
    /// one second, unless a depth, time or node limit was given).
    /// The hint is at full strength: the person asks for the best move, not a weak one.
    pub fn hint(&mut self, position: &Position) -> Analysis {
        self.engine.options.skill = None;
        self.engine.search(position, self.settings.limits(), |_| {})
    }
}

/// The longest search for `eval`: long enough for a sound figure, short enough to ask
/// for it at any moment of a game.
const EVAL_MS: u64 = 500;

/// The limits of Tarpon's search for a move: its clock (remaining time and increment) if
/// the game has one, with a depth or node limit of `settings` still applying (a weaker
/// opponent); otherwise the limits of `settings`.
pub(crate) fn move_limits(settings: &Settings, clock: Option<(Duration, Duration)>) -> Limits {
    match clock {
        Some((time, increment)) => Limits {
            time: Some(time.as_millis() as u64),
            increment: increment.as_millis() as u64,
            depth: settings.depth,
            nodes: settings.nodes,
            ..Limits::default()
        },
        None => settings.limits(),
    }
}
