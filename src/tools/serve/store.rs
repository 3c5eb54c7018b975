//! The games the server holds, and the limits on them: at most `MAX_GAMES` games (the one
//! idle longest makes room for a new one), at most `MAX_SEARCHES` searches at a time over
//! all games, and one search per game (a new one takes over from the one running).

use super::api::ApiError;
use super::game::{Game, Setup};
use crate::search::SearchControl;
use crate::tools::engine::Engine;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

/// Games held at once; more than a person has tabs, few enough to bound the memory (each
/// game has its own hash table).
pub const MAX_GAMES: usize = 64;
/// Hash table per game: a few seconds' analysis fills it usefully, and `MAX_GAMES` of
/// them stay within half a gigabyte.
const GAME_HASH_MB: usize = 8;
/// Searches running at once over all games: more would only share the same cores.
pub const MAX_SEARCHES: usize = 8;
/// How long a new search waits for the game's previous one to stop.
const TAKEOVER_WAIT: Duration = Duration::from_secs(5);
/// How often the takeover repeats its stop signal (a search that was just starting resets
/// the signal when it begins).
const TAKEOVER_POLL: Duration = Duration::from_millis(5);

/// A game with its engine.
pub struct Slot {
    game: Mutex<Game>,
    /// Held for the whole of a search: one search per game. Made at the game's first
    /// search: a game that never searches (most analysis boards of a script, a game only
    /// looked at) costs no hash table.
    engine: Mutex<Option<Engine>>,
    /// Stops the game's running search.
    pub control: SearchControl,
    /// Counts the search requests and stops of this game: a search whose number is no
    /// longer the latest has been superseded and stops.
    generation: AtomicU64,
    /// Held while a search's number is checked and its stop sent (`stop_if_current`), and
    /// while a new search takes its number: so a stop meant for an old search can never
    /// land on the new one after it has begun.
    numbering: Mutex<()>,
    searching: AtomicBool,
}

impl Slot {
    /// The game, judged for a fallen flag and marked as used now.
    pub fn game(&self) -> MutexGuard<'_, Game> {
        // A panic in another request cannot leave the game half changed in a way that
        // matters more than refusing every later request would: go on with it.
        let mut game = self.game.lock().unwrap_or_else(|p| p.into_inner());
        game.last_used = Instant::now();
        game.judge_flag();
        game
    }

    pub fn is_searching(&self) -> bool {
        self.searching.load(Ordering::Relaxed)
    }

    /// Whether search number `generation` is still the latest.
    pub fn is_current(&self, generation: u64) -> bool {
        self.generation.load(Ordering::Acquire) == generation
    }

    fn numbering(&self) -> MutexGuard<'_, ()> {
        self.numbering.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stops the running search, if any; true if one was running.
    pub fn stop(&self) -> bool {
        {
            let _numbering = self.numbering();
            self.generation.fetch_add(1, Ordering::AcqRel);
            self.control.stop.store(true, Ordering::Relaxed);
        }
        self.is_searching()
    }

    /// Stops search number `generation` if it is still the latest. The check and the stop
    /// are one step: checked apart, a newer search could take over and begin in between,
    /// and the stop would end it instead.
    pub fn stop_if_current(&self, generation: u64) {
        let _numbering = self.numbering();
        if self.is_current(generation) {
            self.control.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Takes the game's engine for a new search, stopping the one running. Fails when a
    /// yet newer request came meanwhile, or the old search did not stop in time.
    pub fn take_engine(&self) -> Result<(u64, EngineTurn<'_>), ApiError> {
        let generation = {
            let _numbering = self.numbering();
            self.generation.fetch_add(1, Ordering::AcqRel) + 1
        };
        let deadline = Instant::now() + TAKEOVER_WAIT;
        loop {
            match self.engine.try_lock() {
                Ok(engine) => return Ok((generation, self.turn(engine))),
                Err(TryLockError::Poisoned(p)) => {
                    return Ok((generation, self.turn(p.into_inner())));
                }
                Err(TryLockError::WouldBlock) => {}
            }
            if !self.is_current(generation) {
                return Err(ApiError::conflict(
                    "A newer search of this game took over from this one",
                ));
            }
            if Instant::now() > deadline {
                return Err(ApiError::unavailable(
                    "The game's previous search did not stop in time; try again",
                ));
            }
            self.control.stop.store(true, Ordering::Relaxed);
            std::thread::sleep(TAKEOVER_POLL);
        }
    }

    fn turn<'a>(&'a self, engine: MutexGuard<'a, Option<Engine>>) -> EngineTurn<'a> {
        self.searching.store(true, Ordering::Relaxed);
        EngineTurn {
            guard: engine,
            searching: &self.searching,
        }
    }
}

/// The engine of a game for the time of one search.
pub struct EngineTurn<'a> {
    guard: MutexGuard<'a, Option<Engine>>,
    searching: &'a AtomicBool,
}

impl EngineTurn<'_> {
    /// The game's engine, made now if this is its first search.
    pub fn engine(&mut self) -> &mut Engine {
        self.guard
            .get_or_insert_with(|| Engine::new(GAME_HASH_MB, None).0)
    }
}

impl Drop for EngineTurn<'_> {
    fn drop(&mut self) {
        self.searching.store(false, Ordering::Relaxed);
    }
}

/// A place among the `MAX_SEARCHES`, given back when dropped.
pub struct SearchPermit {
    count: Arc<AtomicUsize>,
}

impl Drop for SearchPermit {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::AcqRel);
    }
}

pub struct Store {
    games: Mutex<HashMap<u64, Arc<Slot>>>,
    /// The last game id given out. Ids start from a random base for each start of the
    /// server, so that a page left open across a restart never finds its game's id given
    /// to another browser's game (it sets its own up again from what it kept).
    next_id: AtomicU64,
    searches: Arc<AtomicUsize>,
}

/// Game ids stay below 2^53, which a page's JavaScript numbers hold exactly; a start's
/// ids begin at a random multiple of 2^20 below that (a million games before two starts
/// could meet, with odds of one in 2^33 that two starts share a base at all).
const ID_BITS: u32 = 53;
const IDS_PER_START_BITS: u32 = 20;

impl Default for Store {
    fn default() -> Store {
        let base = crate::rng::SplitMix64::from_clock().next_u64() >> (64 - ID_BITS);
        Store {
            games: Mutex::default(),
            next_id: AtomicU64::new(base >> IDS_PER_START_BITS << IDS_PER_START_BITS),
            searches: Arc::default(),
        }
    }
}

impl Store {
    fn games(&self) -> MutexGuard<'_, HashMap<u64, Arc<Slot>>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds a game, making room by dropping the game idle longest when the store is full;
    /// 503 when every game is searching.
    pub fn add(&self, setup: Setup) -> Result<Arc<Slot>, ApiError> {
        let mut games = self.games();
        if games.len() >= MAX_GAMES {
            let idle = games
                .iter()
                .filter(|(_, slot)| !slot.is_searching())
                .min_by_key(|(_, slot)| slot.game().last_used)
                .map(|(&id, _)| id);
            match idle {
                Some(id) => {
                    games.remove(&id);
                }
                None => {
                    return Err(ApiError::unavailable(&format!(
                        "The server holds {MAX_GAMES} games, all of them searching: try later"
                    )));
                }
            }
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let slot = Arc::new(Slot {
            game: Mutex::new(Game::new(id, setup)),
            engine: Mutex::new(None),
            control: SearchControl::default(),
            generation: AtomicU64::new(0),
            numbering: Mutex::new(()),
            searching: AtomicBool::new(false),
        });
        games.insert(id, Arc::clone(&slot));
        Ok(slot)
    }

    pub fn get(&self, id: u64) -> Result<Arc<Slot>, ApiError> {
        self.games().get(&id).cloned().ok_or_else(|| {
            ApiError::not_found(&format!(
                "There is no game {id} (the server may have restarted, or dropped it to make room)"
            ))
        })
    }

    /// Removes a game, stopping its search.
    pub fn remove(&self, id: u64) -> Result<(), ApiError> {
        let slot = self.games().remove(&id);
        match slot {
            Some(slot) => {
                slot.stop();
                Ok(())
            }
            None => Err(ApiError::not_found(&format!("There is no game {id}"))),
        }
    }

    /// A place for one more search, or 503 when `MAX_SEARCHES` are running.
    pub fn search_permit(&self) -> Result<SearchPermit, ApiError> {
        let before = self.searches.fetch_add(1, Ordering::AcqRel);
        let permit = SearchPermit {
            count: Arc::clone(&self.searches),
        };
        if before >= MAX_SEARCHES {
            return Err(ApiError::unavailable(&format!(
                "Tarpon is running {MAX_SEARCHES} searches already: try again when one ends"
            )));
        }
        Ok(permit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen::START_FEN;
    use crate::tools::serve::game::Mode;

    /// Two starts of the server (two stores) give their first games different ids, so a
    /// page kept open across a restart cannot take another browser's game for its own.
    #[test]
    fn game_ids_are_not_reused_by_another_start() {
        let first: Vec<u64> = (0..20)
            .map(|_| {
                let store = Store::default();
                let slot = store
                    .add(Setup::for_test(Mode::Analysis, START_FEN))
                    .unwrap();
                let id = slot.game().id;
                assert!(
                    id < 1 << ID_BITS,
                    "{id} is beyond what JavaScript holds exactly"
                );
                id
            })
            .collect();
        let mut distinct = first.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), first.len(), "{first:?}");
        // Within one start they follow each other.
        let store = Store::default();
        let a = store
            .add(Setup::for_test(Mode::Analysis, START_FEN))
            .unwrap();
        let b = store
            .add(Setup::for_test(Mode::Analysis, START_FEN))
            .unwrap();
        assert_eq!(b.game().id, a.game().id + 1);
    }

    /// A stop meant for a search that a newer one has taken over from (a closed page's
    /// stream, an expired cap) leaves the newer search running; its own stop does not.
    #[test]
    fn a_stale_stop_leaves_the_newer_search_running() {
        let store = Store::default();
        let slot = store
            .add(Setup::for_test(Mode::Analysis, START_FEN))
            .unwrap();
        let (old, turn) = slot.take_engine().unwrap();
        drop(turn);
        let (new, _turn) = slot.take_engine().unwrap();
        slot.control.begin(false);
        slot.stop_if_current(old);
        assert!(!slot.control.stop.load(Ordering::Relaxed));
        slot.stop_if_current(new);
        assert!(slot.control.stop.load(Ordering::Relaxed));
    }
}
