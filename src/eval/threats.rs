//! Threats (pieces that are attacked and cannot simply stay), space, and the tempo bonus.
//! All of these need the complete attack maps.

use super::masks::backward;
use super::params::w;
use super::{Eval, MINORS_AND_MAJORS, Tracer};
use crate::chess::{Bitboard, Color, PieceType};

/// Files c to f: the centre where space matters.
const CENTRE_FILES: Bitboard = Bitboard(0x3C3C_3C3C_3C3C_3C3C);

/// Relative ranks 2 to 4 of each colour: ranks 2-4 for White, 7-5 for Black.
const SPACE_RANKS: [Bitboard; 2] = [
    Bitboard(0x0000_0000_FFFF_FF00),
    Bitboard(0x00FF_FFFF_0000_0000),
];

pub fn evaluate<T: Tracer>(e: &mut Eval<'_, T>) {
    for color in Color::ALL {
        threats(e, color);
        space(e, color);
    }
    // Having the move is worth something: the side to move acts first on every threat.
    let side = e.board.side_to_move();
    e.add(side, w!(TEMPO), 1);
}

/// What `color` threatens: undefended pieces, and pieces attacked by something cheaper.
fn threats<T: Tracer>(e: &mut Eval<'_, T>, color: Color) {
    let (c, t) = (color.index(), color.flip().index());
    let them = color.flip();
    let board = e.board;
    let pieces = |kind: PieceType| board.pieces(them, kind);
    let targets = pieces(PieceType::Knight)
        | pieces(PieceType::Bishop)
        | pieces(PieceType::Rook)
        | pieces(PieceType::Queen);

    let hanging = (targets & e.attacked[c] & !e.attacked[t]).count() as i32;
    if hanging > 0 {
        e.add(color, w!(HANGING_PIECE), hanging);
    }

    let by_pawn = e.attacked_by[c][PieceType::Pawn.index()];
    for (i, kind) in MINORS_AND_MAJORS.into_iter().enumerate() {
        let n = (pieces(kind) & by_pawn).count() as i32;
        if n > 0 {
            e.add(color, w!(THREAT_BY_PAWN[i]), n);
        }
    }

    let by_minor =
        e.attacked_by[c][PieceType::Knight.index()] | e.attacked_by[c][PieceType::Bishop.index()];
    for (i, kind) in [PieceType::Rook, PieceType::Queen].into_iter().enumerate() {
        let n = (pieces(kind) & by_minor).count() as i32;
        if n > 0 {
            e.add(color, w!(THREAT_BY_MINOR[i]), n);
        }
    }

    let by_rook = e.attacked_by[c][PieceType::Rook.index()];
    let n = (pieces(PieceType::Queen) & by_rook).count() as i32;
    if n > 0 {
        e.add(color, w!(THREAT_BY_ROOK), n);
    }
}

/// Space: safe squares on the centre files in our own half behind the front line
/// (relative ranks 2 to 4), not attacked by enemy pawns and not taken by our pawns.
/// Squares up to three ranks behind our own pawns count twice: they are firmly ours.
fn space<T: Tracer>(e: &mut Eval<'_, T>, color: Color) {
    let t = color.flip().index();
    let own_pawns = e.board.pieces(color, PieceType::Pawn);
    let area = CENTRE_FILES & SPACE_RANKS[color.index()];
    let safe = area & !own_pawns & !e.pawns.attacks[t];
    let mut behind = backward(color, own_pawns);
    behind |= backward(color, behind);
    behind |= backward(color, behind);
    let n = (safe.count() + (safe & behind).count()) as i32;
    if n > 0 {
        e.add(color, w!(SPACE), n);
    }
}
