//! Piece activity: mobility, the bishop pair, rooks on open files and the seventh rank,
//! outposts. This pass also fills the attack maps and counts the attackers of each king
//! zone, which king safety and threats use afterwards.

use super::masks::relative_rank;
use super::params::{Weight, w};
use super::{Eval, MINORS_AND_MAJORS, Tracer};
use crate::chess::attacks::piece_attacks;
use crate::chess::{Bitboard, Color, PieceType, Square};

pub fn evaluate<T: Tracer>(e: &mut Eval<'_, T>) {
    for color in Color::ALL {
        // Squares worth counting for mobility: not attacked by an enemy pawn (a piece
        // going there is simply lost or chased away) and not taken by our own pawns or
        // king (which rarely move out of the way).
        let them = color.flip();
        let blocked = e.board.pieces(color, PieceType::Pawn) | e.king[color.index()];
        let area = !(e.pawns.attacks[them.index()] | blocked);
        for kind in MINORS_AND_MAJORS {
            for sq in e.board.pieces(color, kind) {
                piece(e, color, kind, sq, area);
            }
        }
        bishop_pair(e, color);
    }
}

/// Everything about one knight, bishop, rook or queen.
fn piece<T: Tracer>(
    e: &mut Eval<'_, T>,
    color: Color,
    kind: PieceType,
    sq: Square,
    area: Bitboard,
) {
    let attacks = piece_attacks(kind, sq, e.board.occupied());
    e.record_attacks(color, kind, attacks);
    let safe = (attacks & area).count() as usize;
    e.add(color, mobility_weight(kind, safe), 1);
    king_attack(e, color, kind, attacks);
    match kind {
        PieceType::Knight => outpost(e, color, sq, w!(KNIGHT_OUTPOST)),
        PieceType::Bishop => outpost(e, color, sq, w!(BISHOP_OUTPOST)),
        PieceType::Rook => rook(e, color, sq),
        _ => {}
    }
}

#[inline(always)]
fn mobility_weight(kind: PieceType, safe: usize) -> Weight {
    match kind {
        PieceType::Knight => w!(KNIGHT_MOBILITY[safe]),
        PieceType::Bishop => w!(BISHOP_MOBILITY[safe]),
        PieceType::Rook => w!(ROOK_MOBILITY[safe]),
        _ => w!(QUEEN_MOBILITY[safe]),
    }
}

/// A piece attacking squares of the enemy king zone adds to that king's danger: once for
/// being an attacker (weighted by its type), and once per zone square it hits.
fn king_attack<T: Tracer>(e: &mut Eval<'_, T>, color: Color, kind: PieceType, attacks: Bitboard) {
    let them = color.flip();
    let hits = (attacks & e.king_zone[them.index()]).count() as i32;
    if hits > 0 {
        e.add_danger(them, w!(KING_ATTACKER_WEIGHT[kind.index() - 1]), 1);
        e.add_danger(them, w!(KING_ZONE_ATTACK), hits);
    }
}

/// An outpost: a square in the enemy half (relative ranks 4 to 6) that one of our pawns
/// defends and that no enemy pawn can ever attack, so a piece there cannot be chased off.
fn outpost<T: Tracer>(e: &mut Eval<'_, T>, color: Color, sq: Square, weight: Weight) {
    let c = color.index();
    let rank = relative_rank(color, sq);
    if (3..=5).contains(&rank)
        && e.pawns.attacks[c].contains(sq)
        && !e.pawns.attack_span[1 - c].contains(sq)
    {
        e.add(color, weight, 1);
    }
}

/// Rooks want open files (no pawns: the rook sees all the way through) or half-open ones
/// (only enemy pawns: targets), and the seventh rank when there is something to attack
/// there.
fn rook<T: Tracer>(e: &mut Eval<'_, T>, color: Color, sq: Square) {
    let them = color.flip();
    let file = Bitboard::file(sq.file());
    let own_pawns = e.board.pieces(color, PieceType::Pawn);
    let their_pawns = e.board.pieces(them, PieceType::Pawn);
    if (file & own_pawns).is_empty() {
        if (file & their_pawns).is_empty() {
            e.add(color, w!(ROOK_OPEN_FILE), 1);
        } else {
            e.add(color, w!(ROOK_SEMI_OPEN_FILE), 1);
        }
    }
    if relative_rank(color, sq) == 6 {
        let seventh = Bitboard::rank(sq.rank());
        let king_on_eighth = relative_rank(color, e.king[them.index()]) == 7;
        if king_on_eighth || (seventh & their_pawns).is_nonempty() {
            e.add(color, w!(ROOK_ON_SEVENTH), 1);
        }
    }
}

/// Two bishops on different square colours cover the whole board between them.
fn bishop_pair<T: Tracer>(e: &mut Eval<'_, T>, color: Color) {
    let bishops = e.board.pieces(color, PieceType::Bishop);
    let dark = bishops & Bitboard::DARK_SQUARES;
    if dark.is_nonempty() && (bishops & !Bitboard::DARK_SQUARES).is_nonempty() {
        e.add(color, w!(BISHOP_PAIR), 1);
    }
}
