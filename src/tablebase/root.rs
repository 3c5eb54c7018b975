//! Ranking the root moves by the tables, as Stockfish does, so that the search only
//! chooses among moves that keep the best result the fifty-move rule allows.
//!
//! With DTZ, each move gets the distance to zeroing of the position it leads to, counted
//! from the root (the move itself included). A win is certain when that distance plus
//! the plies already on the fifty-move counter stays below 100: all such wins rank alike,
//! and the search picks among them (it mates faster than DTZ-optimal play would). When
//! the counter is too far along, or the game has already repeated a position since the
//! last capture or pawn move (a sign of going round in circles), only the fastest wins
//! rank first. Losing moves rank alike unless the fifty-move rule can still save the game,
//! in which case the longest resistance ranks first. Without DTZ, moves rank by WDL alone.

use super::{Miss, Tablebases, Wdl};
use crate::chess::movegen::legal_moves;
use crate::chess::{Move, Position};
use crate::search::score::{DRAW, TB_WIN};

/// Above any DTZ plus fifty-move count: the rank of a certain win.
const MAX_DTZ: i32 = 1 << 18;
/// Plies of the fifty-move rule.
const FIFTY_MOVES: i32 = 100;
/// Cursed wins show as small scores growing to half a pawn as the win gets closer
/// (Stockfish's display), in units of this many centipawns per pawn.
const PAWN_CP: i32 = 100;

/// Which table ranked the root moves.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RootMetric {
    Dtz,
    Wdl,
}

/// A root move's place by the tables: higher ranks are better, equal ranks are equally
/// good. `score` is what the tables say the move is worth, for display.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct RootRank {
    pub rank: i32,
    pub score: i32,
}

/// Ranks `moves` (legal in `pos`), one rank each, by DTZ when every move can be probed
/// that way, otherwise by WDL; `None` when not even WDL covers them all. Read failures of
/// broken tables are added to `broken`, to be reported.
pub fn rank_root_moves(
    tables: &Tablebases,
    pos: &mut Position,
    moves: &[Move],
    rule50: bool,
    broken: &mut Vec<String>,
) -> Option<(Vec<RootRank>, RootMetric)> {
    if moves.is_empty() || !tables.covers(pos) {
        return None;
    }
    let mut note = |miss: Miss| {
        if let Miss::Broken(text) = miss {
            broken.push(text);
        }
    };
    match by_dtz(tables, pos, moves, rule50) {
        Ok(ranks) => return Some((ranks, RootMetric::Dtz)),
        Err(miss) => note(miss),
    }
    match by_wdl(tables, pos, moves, rule50) {
        Ok(ranks) => Some((ranks, RootMetric::Wdl)),
        Err(miss) => {
            note(miss);
            None
        }
    }
}

fn by_dtz(
    tables: &Tablebases,
    pos: &mut Position,
    moves: &[Move],
    rule50: bool,
) -> Result<Vec<RootRank>, Miss> {
    let clock = i32::from(pos.halfmove_clock());
    let repeated = pos.has_repetition_since_zeroing();
    moves
        .iter()
        .map(|&m| {
            let dtz = dtz_after(tables, pos, m)?;
            let rank = dtz_rank(dtz, clock, repeated);
            Ok(RootRank {
                rank,
                score: dtz_rank_score(rank, rule50),
            })
        })
        .collect()
}

/// The DTZ after playing `m`, from the root side's point of view and counting `m`.
fn dtz_after(tables: &Tablebases, pos: &mut Position, m: Move) -> Result<i32, Miss> {
    pos.make(m);
    let dtz = child_dtz(tables, pos);
    pos.unmake();
    dtz
}

fn child_dtz(tables: &Tablebases, child: &Position) -> Result<i32, Miss> {
    if child.halfmove_clock() == 0 {
        // A capture or pawn move: the zeroing happens now, so only the result matters.
        let wdl = tables.probe_wdl(child)?.flip();
        return Ok(dtz_of_zeroing_move(wdl));
    }
    if child.is_fifty_move_draw() || child.is_threefold_repetition() {
        return Ok(0);
    }
    let dtz = -tables.probe_dtz(child)?;
    let dtz = dtz + dtz.signum();
    // The table gives a mated position DTZ -1, which makes the mating move 2; mate is
    // as good as zeroing, so it counts 1.
    if dtz == 2 && child.in_check() && legal_moves(child).is_empty() {
        return Ok(1);
    }
    Ok(dtz)
}

/// The DTZ, counted from before it, of a move that itself captures or moves a pawn:
/// 1 ply for a win, 101 for a cursed win (one the fifty-move rule spoils).
fn dtz_of_zeroing_move(wdl: Wdl) -> i32 {
    match wdl {
        Wdl::Loss => -1,
        Wdl::BlessedLoss => -101,
        Wdl::Draw => 0,
        Wdl::CursedWin => 101,
        Wdl::Win => 1,
    }
}

fn dtz_rank(dtz: i32, clock: i32, repeated: bool) -> i32 {
    if dtz > 0 {
        if dtz + clock < FIFTY_MOVES && !repeated {
            MAX_DTZ
        } else {
            MAX_DTZ / 2 - (dtz + clock)
        }
    } else if dtz < 0 {
        if -dtz * 2 + clock < FIFTY_MOVES {
            -MAX_DTZ
        } else {
            -MAX_DTZ / 2 + (-dtz + clock)
        }
    } else {
        0
    }
}

/// Ranks at or beyond this are wins (losses) in spite of the fifty-move rule.
fn decided_rank(rule50: bool) -> i32 {
    if rule50 { MAX_DTZ / 2 - FIFTY_MOVES } else { 1 }
}

fn dtz_rank_score(rank: i32, rule50: bool) -> i32 {
    let decided = decided_rank(rule50);
    let near = MAX_DTZ / 2 - 2 * FIFTY_MOVES;
    if rank >= decided {
        TB_WIN
    } else if rank > 0 {
        (rank - near).max(3) * PAWN_CP / (2 * FIFTY_MOVES)
    } else if rank == 0 {
        DRAW
    } else if rank > -decided {
        (rank + near).min(-3) * PAWN_CP / (2 * FIFTY_MOVES)
    } else {
        -TB_WIN
    }
}

fn by_wdl(
    tables: &Tablebases,
    pos: &mut Position,
    moves: &[Move],
    rule50: bool,
) -> Result<Vec<RootRank>, Miss> {
    moves
        .iter()
        .map(|&m| {
            pos.make(m);
            let wdl = if pos.is_fifty_move_draw() || pos.is_threefold_repetition() {
                Ok(Wdl::Draw)
            } else {
                tables.probe_wdl(pos).map(Wdl::flip)
            };
            pos.unmake();
            let wdl = wdl?;
            Ok(RootRank {
                rank: wdl_rank(wdl),
                score: wdl_score(wdl, rule50),
            })
        })
        .collect()
}

fn wdl_rank(wdl: Wdl) -> i32 {
    match wdl {
        Wdl::Loss => -MAX_DTZ,
        Wdl::BlessedLoss => -MAX_DTZ + 101,
        Wdl::Draw => 0,
        Wdl::CursedWin => MAX_DTZ - 101,
        Wdl::Win => MAX_DTZ,
    }
}

fn wdl_score(wdl: Wdl, rule50: bool) -> i32 {
    match wdl {
        Wdl::Loss => -TB_WIN,
        Wdl::BlessedLoss if rule50 => DRAW - 2,
        Wdl::BlessedLoss => -TB_WIN,
        Wdl::Draw => DRAW,
        Wdl::CursedWin if rule50 => DRAW + 2,
        Wdl::CursedWin => TB_WIN,
        Wdl::Win => TB_WIN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn certain_wins_rank_alike_and_above_everything_else() {
        assert_eq!(dtz_rank(1, 0, false), dtz_rank(99, 0, false));
        assert!(dtz_rank(99, 0, false) > dtz_rank(60, 50, false));
        assert!(dtz_rank(60, 50, false) > dtz_rank(70, 50, false));
        assert!(dtz_rank(70, 50, false) > 0);
        assert!(dtz_rank(3, 0, true) > dtz_rank(5, 0, true));
    }

    #[test]
    fn losses_rank_alike_unless_the_fifty_move_rule_can_save() {
        assert_eq!(dtz_rank(-1, 0, false), dtz_rank(-49, 0, false));
        assert!(dtz_rank(-60, 0, false) > dtz_rank(-49, 0, false));
        assert!(dtz_rank(-70, 0, false) > dtz_rank(-60, 0, false));
        assert!(dtz_rank(-70, 0, false) < 0);
    }

    #[test]
    fn scores_follow_the_fifty_move_rule_setting() {
        assert_eq!(dtz_rank_score(dtz_rank(5, 0, false), true), TB_WIN);
        assert_eq!(dtz_rank_score(dtz_rank(-5, 0, false), true), -TB_WIN);
        let cursed = dtz_rank_score(dtz_rank(120, 0, false), true);
        assert!((1..=50).contains(&cursed), "{cursed}");
        assert_eq!(dtz_rank_score(dtz_rank(120, 0, false), false), TB_WIN);
        assert_eq!(dtz_rank_score(0, true), DRAW);
        assert_eq!(wdl_score(Wdl::CursedWin, true), 2);
        assert_eq!(wdl_score(Wdl::CursedWin, false), TB_WIN);
    }
}
