//! King safety, in two parts.
//!
//! The pawn shelter is linear: pawns in front of the king (the shield), enemy pawns
//! advancing on it (the storm), and files near it without pawns.
//!
//! Attacks are not linear: one attacker is rarely dangerous, three usually are. Each
//! king accumulates a *danger* sum (attackers of the king zone weighted by type, attacks
//! on zone squares, weakly defended zone squares, safe checks, the absence of an enemy
//! queen; all of them [`Danger`](super::params::Kind::Danger) weights, tuned like the
//! rest), and the penalty grows with the square of the danger in the middlegame and
//! linearly in the endgame:
//!
//! ```text
//! penalty.mg = max(danger.mg, 0)^2 / DANGER_MG_DIVISOR
//! penalty.eg = max(danger.eg, 0)   / DANGER_EG_DIVISOR
//! ```
//!
//! The two divisors only fix the scale of the danger weights; the tuner differentiates
//! through this curve.

use super::masks::{forward_ranks_of, relative_rank};
use super::params::w;
use super::{Eval, MINORS_AND_MAJORS, S, Tracer};
use crate::chess::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use crate::chess::{Bitboard, Color, PieceType, Square};

pub const DANGER_MG_DIVISOR: i32 = 720;
pub const DANGER_EG_DIVISOR: i32 = 20;

pub fn evaluate<T: Tracer>(e: &mut Eval<'_, T>) {
    for color in Color::ALL {
        shelter(e, color);
        danger_inputs(e, color);
        let danger = e.danger[color.index()];
        let penalty = danger_penalty(danger);
        e.score[color.index()] -= penalty;
        e.trace_king_danger(color, danger, penalty);
    }
}

/// The king-safety penalty for a danger sum (see the module notes).
#[inline(always)]
pub fn danger_penalty(danger: S) -> S {
    let mg = danger.mg().max(0);
    let eg = danger.eg().max(0);
    S(mg * mg / DANGER_MG_DIVISOR, eg / DANGER_EG_DIVISOR)
}

/// Shield, storm and open files on the king's file and the two beside it.
fn shelter<T: Tracer>(e: &mut Eval<'_, T>, color: Color) {
    let king = e.king[color.index()];
    let ahead = forward_ranks_of(color, king.rank());
    let ours = e.board.pieces(color, PieceType::Pawn) & ahead;
    let theirs = e.board.pieces(color.flip(), PieceType::Pawn) & ahead;
    let king_rank = relative_rank(color, king) as i32;
    let first = king.file().saturating_sub(1);
    let last = (king.file() + 1).min(7);
    for file in first..=last {
        let on_file = Bitboard::file(file);
        let own = nearest(color, ours & on_file);
        let enemy = nearest(color, theirs & on_file);
        match own {
            Some(sq) => {
                let d = relative_rank(color, sq) as i32 - king_rank;
                e.add(color, w!(PAWN_SHIELD[(d.min(3) - 1) as usize]), 1);
            }
            None if enemy.is_none() => e.add(color, w!(KING_OPEN_FILE), 1),
            None => e.add(color, w!(KING_SEMI_OPEN_FILE), 1),
        }
        if let Some(sq) = enemy {
            storm(e, color, sq, king_rank);
        }
    }
}

/// One file's storming enemy pawn, the nearest to our king, if it is within four ranks.
fn storm<T: Tracer>(e: &mut Eval<'_, T>, color: Color, pawn: Square, king_rank: i32) {
    let d = relative_rank(color, pawn) as i32 - king_rank;
    if d > 4 {
        return;
    }
    // The enemy pawn advances towards us: its next square is one rank nearer our side.
    let next = pawn.offset(-8 * color.forward());
    if e.board.pieces(color, PieceType::Pawn).contains(next) {
        e.add(color, w!(BLOCKED_STORM), 1);
    } else {
        e.add(color, w!(PAWN_STORM[(d - 1) as usize]), 1);
    }
}

/// The square of `pawns` (on one file, ahead of the king) nearest to `color`'s side.
fn nearest(color: Color, pawns: Bitboard) -> Option<Square> {
    if pawns.is_empty() {
        return None;
    }
    Some(match color {
        Color::White => pawns.lsb(),
        Color::Black => Square::new(63 - pawns.0.leading_zeros() as u8),
    })
}

/// The danger inputs that need the complete attack maps: weak zone squares, safe checks,
/// and whether the enemy has a queen. (Attackers of the zone were counted with mobility.)
fn danger_inputs<T: Tracer>(e: &mut Eval<'_, T>, color: Color) {
    let (c, t) = (color.index(), color.flip().index());
    let king = e.king[c];
    // Squares the enemy attacks that we defend at most once, and then only with the king
    // or the queen, which cannot really hold them.
    let weak = e.attacked[t]
        & !e.attacked_twice[c]
        & (!e.attacked[c]
            | e.attacked_by[c][PieceType::Queen.index()]
            | e.attacked_by[c][PieceType::King.index()]);
    let weak_in_zone = (weak & e.king_zone[c]).count() as i32;
    if weak_in_zone > 0 {
        e.add_danger(color, w!(KING_WEAK_SQUARE), weak_in_zone);
    }
    safe_checks(e, color, king);
    if e.board.pieces(color.flip(), PieceType::Queen).is_empty() {
        e.add_danger(color, w!(NO_ENEMY_QUEEN), 1);
    }
}

/// Squares from which an enemy piece could check our king and that we do not attack.
fn safe_checks<T: Tracer>(e: &mut Eval<'_, T>, color: Color, king: Square) {
    let (c, t) = (color.index(), color.flip().index());
    let occupied = e.board.occupied();
    let safe = !e.attacked[c] & !e.board.color(color.flip());
    let diagonal = bishop_attacks(king, occupied);
    let straight = rook_attacks(king, occupied);
    let checks = [
        knight_attacks(king),
        diagonal,
        straight,
        diagonal | straight,
    ];
    for (i, kind) in MINORS_AND_MAJORS.into_iter().enumerate() {
        let n = (checks[i] & e.attacked_by[t][kind.index()] & safe).count() as i32;
        if n > 0 {
            e.add_danger(color, w!(SAFE_CHECK[i]), n);
        }
    }
}
