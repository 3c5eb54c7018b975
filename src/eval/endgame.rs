//! Endgame knowledge: driving a lone king to where it can be mated, and recognising
//! endings that material alone misjudges as wins.
//!
//! Mating patterns are ordinary weights (`MATE_EDGE`, `MATE_KING_PROXIMITY`,
//! `KBN_CORNER`): they pull the evaluation towards positions from which the search can
//! see the mate.
//!
//! Drawish endings are handled by a *scale factor* out of [`SCALE_MAX`] applied to the
//! whole score when the side it concerns is ahead: 0 for dead draws, a fraction for
//! endings that are hard to win. The factors are fixed constants, not tuned weights:
//! they encode endgame theory, and the positions they apply to are too rare in game data
//! to fit them reliably.

use super::masks::{centre_distance, distance, manhattan};
use super::params::w;
use super::{Eval, MINORS_AND_MAJORS, SCALE_MAX, Tracer};
use crate::chess::{Bitboard, Board, Color, PieceType, Square};

/// Piece values used only to classify endings (pawn, knight, bishop, rook, queen): fixed,
/// so that the classification does not move when the tuner changes the real values.
const NOMINAL: [i32; 5] = [100, 320, 330, 500, 1000];
const BISHOP: i32 = NOMINAL[2];
const ROOK: i32 = NOMINAL[3];

/// Opposite-coloured bishops and pawns only: the defender blockades on the other colour.
pub const OPPOSITE_BISHOPS_ONLY: i32 = 32;
/// Opposite-coloured bishops with at most one more minor piece or rook each.
pub const OPPOSITE_BISHOPS_WITH_PIECES: i32 = 48;
/// No pawns, less than a rook ahead, and the defender has at most a bishop (e.g. rook
/// against minor piece): usually drawn.
pub const NO_PAWNS_VS_MINOR: i32 = 8;
/// No pawns, less than a rook ahead, the defender has more than a minor piece (e.g. rook
/// and bishop against rook): drawish.
pub const NO_PAWNS_VS_MORE: i32 = 16;

/// The pieces other than pawns and king, valued nominally.
fn non_pawn_material(board: &Board, color: Color) -> i32 {
    MINORS_AND_MAJORS
        .into_iter()
        .map(|kind| NOMINAL[kind.index()] * board.pieces(color, kind).count() as i32)
        .sum()
}

/// Whether `color` has only its king left.
fn bare_king(board: &Board, color: Color) -> bool {
    !board.color(color).more_than_one()
}

/// Bonuses for the side mating a bare king.
pub fn mating<T: Tracer>(e: &mut Eval<'_, T>) {
    for strong in Color::ALL {
        let weak = strong.flip();
        if !bare_king(e.board, weak) || !has_mating_material(e.board, strong) {
            continue;
        }
        let (own, lone) = (e.king[strong.index()], e.king[weak.index()]);
        e.add(strong, w!(MATE_KING_PROXIMITY), 14 - manhattan(own, lone));
        match kbn_bishop(e.board, strong) {
            Some(bishop) => e.add(strong, w!(KBN_CORNER), 14 - corner_distance(lone, bishop)),
            None => e.add(strong, w!(MATE_EDGE), centre_distance(lone)),
        }
    }
}

/// What a known win is worth beyond its evaluation: a lone king against enough to force
/// mate is won, whatever the evaluation says (it only measures how far the mate is).
pub const KNOWN_WIN: i32 = 2000;

/// The known win's drive, in centipawns per step (fixed, not tuned: these endings are too
/// rare in game data to fit, and their technique is known). Per step of the lone king
/// away from the centre: mate is only on the edge.
const WIN_EDGE_PULL: i32 = 10;
/// With bishop and knight, per step of the lone king nearer a corner of the bishop's
/// colour, the only corners where mate can be forced. Stronger than the edge pull, so
/// that a king on the edge is walked along it from a wrong corner to a right one.
const WIN_CORNER_PULL: i32 = 45;
/// Per step the kings come closer (in king moves): the mating king must help.
const WIN_KING_PULL: i32 = 12;

/// Whether one side has only its king left and the other enough to force mate. The
/// network has hardly seen such endings (self-play games are adjudicated as wins long
/// before), and misjudges them (king and queen against king: +2.8 instead of a won
/// game), so the search scores them with [`known_win_score`] instead.
pub fn lone_king_against_mating_material(board: &Board) -> bool {
    mating_side(board).is_some()
}

/// The side that has enough to mate a lone king, if one does.
fn mating_side(board: &Board) -> Option<Color> {
    Color::ALL
        .into_iter()
        .find(|&strong| bare_king(board, strong.flip()) && has_mating_material(board, strong))
}

/// The search's score of a lone king against mating material, for the side to move
/// (`None` in every other position): [`KNOWN_WIN`] plus the material, plus a drive that
/// grows as the lone king nears the edge (with bishop and knight, a corner of the bishop's
/// colour) and the kings near each other. Not shrunk by the fifty-move counter: that would
/// make every deeper leaf worth less, by more than a step of the drive. The general
/// evaluation's terms (mobility, squares, king safety) would drown the drive: with them,
/// bishop and knight mated in 9 of 24 random positions at 100 ms a move, with this score
/// in 19 (22 of 24 at 150,000 nodes, against 10).
pub fn known_win_score(board: &Board) -> Option<i32> {
    let strong = mating_side(board)?;
    let lone = board.king_square(strong.flip());
    let own = board.king_square(strong);
    let pawns = NOMINAL[0] * board.pieces(strong, PieceType::Pawn).count() as i32;
    let drive = match kbn_bishop(board, strong) {
        Some(bishop) => WIN_CORNER_PULL * (7 - corner_distance(lone, bishop)),
        None => 0,
    } + WIN_EDGE_PULL * centre_distance(lone)
        + WIN_KING_PULL * (7 - distance(own, lone));
    let score = KNOWN_WIN + non_pawn_material(board, strong) + pawns + drive;
    Some(if strong == board.side_to_move() {
        score
    } else {
        -score
    })
}

/// Whether the position is a draw that no evaluation should score otherwise: no pawns and
/// nothing that can force mate (at most a minor piece each, or two knights against a bare
/// king), or a king and pawn against king that the solved ending (`kpk`) calls drawn.
/// Neither the network nor the hand-crafted terms know these (a knight or a pawn up looks
/// like an advantage), and without tablebases the search cannot see the draw coming.
pub fn known_draw(board: &Board) -> bool {
    if board.occupied().count() > 5 {
        return false;
    }
    if let Some(wins) = super::kpk::pawn_side_wins(board) {
        return !wins;
    }
    if (board.pieces(Color::White, PieceType::Pawn) | board.pieces(Color::Black, PieceType::Pawn))
        .is_nonempty()
    {
        return false;
    }
    let at_most_a_minor = |c: Color| non_pawn_material(board, c) <= BISHOP;
    let two_knights_against_nothing =
        |c: Color| only_two_knights(board, c) && bare_king(board, c.flip());
    Color::ALL
        .into_iter()
        .all(|c| at_most_a_minor(c) || two_knights_against_nothing(c))
}

/// Enough to force mate against a bare king: a queen, a rook, bishops on both colours, or
/// bishop and knight.
fn has_mating_material(board: &Board, color: Color) -> bool {
    let bishops = board.pieces(color, PieceType::Bishop);
    let both_colours = (bishops & Bitboard::DARK_SQUARES).is_nonempty()
        && (bishops & !Bitboard::DARK_SQUARES).is_nonempty();
    board.pieces(color, PieceType::Queen).is_nonempty()
        || board.pieces(color, PieceType::Rook).is_nonempty()
        || both_colours
        || (bishops.is_nonempty() && board.pieces(color, PieceType::Knight).is_nonempty())
}

/// The bishop's square when `color` has exactly king, bishop and knight.
fn kbn_bishop(board: &Board, color: Color) -> Option<Square> {
    let bishops = board.pieces(color, PieceType::Bishop);
    let knights = board.pieces(color, PieceType::Knight);
    let exactly = board.color(color).count() == 3 && bishops.count() == 1 && knights.count() == 1;
    exactly.then(|| bishops.lsb())
}

/// Files plus ranks from `sq` to the nearer corner of the colour of `bishop`: mate with
/// bishop and knight can only be forced in those corners.
fn corner_distance(sq: Square, bishop: Square) -> i32 {
    let dark = Bitboard::DARK_SQUARES.contains(bishop);
    let corners = if dark {
        [Square::A1, Square::H8]
    } else {
        [Square::H1, Square::A8]
    };
    manhattan(sq, corners[0]).min(manhattan(sq, corners[1]))
}

/// The scale factor (out of [`SCALE_MAX`]) for the score when `strong` is the side ahead.
pub fn scale_factor(board: &Board, strong: Color) -> i32 {
    if board.pieces(strong, PieceType::Pawn).is_empty()
        && let Some(scale) = without_pawns(board, strong)
    {
        return scale;
    }
    if wrong_bishop(board, strong) {
        return 0;
    }
    opposite_bishops(board)
}

/// Endings where the side ahead has no pawns left: it must mate with pieces alone.
fn without_pawns(board: &Board, strong: Color) -> Option<i32> {
    let weak = strong.flip();
    let (ours, theirs) = (
        non_pawn_material(board, strong),
        non_pawn_material(board, weak),
    );
    if ours - theirs < ROOK {
        // Less than a rook ahead cannot force mate (a lone minor piece never can).
        return Some(if ours < ROOK {
            0
        } else if theirs <= BISHOP {
            NO_PAWNS_VS_MINOR
        } else {
            NO_PAWNS_VS_MORE
        });
    }
    // Two knights cannot force mate against a bare king.
    (only_two_knights(board, strong) && bare_king(board, weak)).then_some(0)
}

fn only_two_knights(board: &Board, color: Color) -> bool {
    let knights = board.pieces(color, PieceType::Knight);
    board.color(color).count() == 3 && knights.count() == 2
}

/// Bishop and rook pawn(s) against a king in the corner, when the bishop does not control
/// the promotion square: the king cannot be driven out, a draw however many pawns.
fn wrong_bishop(board: &Board, strong: Color) -> bool {
    let weak = strong.flip();
    let pawns = board.pieces(strong, PieceType::Pawn);
    let bishops = board.pieces(strong, PieceType::Bishop);
    let only_bishop = bishops.count() == 1 && board.color(strong).count() == 2 + pawns.count();
    if !only_bishop || pawns.is_empty() || board.has_non_pawn_material(weak) {
        return false;
    }
    let file = if (pawns & !Bitboard::FILE_A).is_empty() {
        0
    } else if (pawns & !Bitboard::FILE_H).is_empty() {
        7
    } else {
        return false;
    };
    let promotion = Square::from_coords(file, strong.relative_rank(7));
    let bishop_dark = Bitboard::DARK_SQUARES.contains(bishops.lsb());
    let corner_dark = Bitboard::DARK_SQUARES.contains(promotion);
    bishop_dark != corner_dark && distance(board.king_square(weak), promotion) <= 1
}

/// Opposite-coloured bishops: each side has exactly one bishop, on different colours.
/// Drawish with only pawns besides; less so with more pieces, and not at all with queens
/// or much material.
fn opposite_bishops(board: &Board) -> i32 {
    let white = board.pieces(Color::White, PieceType::Bishop);
    let black = board.pieces(Color::Black, PieceType::Bishop);
    if white.count() != 1 || black.count() != 1 {
        return SCALE_MAX;
    }
    let white_dark = (white & Bitboard::DARK_SQUARES).is_nonempty();
    let black_dark = (black & Bitboard::DARK_SQUARES).is_nonempty();
    if white_dark == black_dark {
        return SCALE_MAX;
    }
    let material = Color::ALL.map(|c| non_pawn_material(board, c));
    if material == [BISHOP, BISHOP] {
        OPPOSITE_BISHOPS_ONLY
    } else if board.kind(PieceType::Queen).is_empty()
        && material.iter().all(|&m| m <= BISHOP + ROOK)
    {
        OPPOSITE_BISHOPS_WITH_PIECES
    } else {
        SCALE_MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;

    fn board(text: &str) -> Board {
        fen::parse(text, false).unwrap()
    }

    /// The known win's score leads to the mate: with bishop and knight (dark-squared here)
    /// a lone king in a dark corner scores more for the mating side than one on the edge
    /// next to a light corner, and that more than one in the light corner itself, all above
    /// the known win plus the bishop; with a rook a lone king on the edge scores more than
    /// one in the centre, and more than one on the edge far from the mating king. The score
    /// belongs to the side to move, and only lone kings get one.
    #[test]
    fn known_wins_drive_the_lone_king_to_its_mate() {
        let score = |fen: &str| known_win_score(&board(fen)).unwrap();
        let right = score("7k/8/8/3K4/8/4N3/8/4B3 w - - 0 1");
        let wrong = score("k7/8/8/3K4/8/4N3/8/4B3 w - - 0 1");
        let along = score("1k6/8/8/3K4/8/4N3/8/4B3 w - - 0 1");
        assert!(right > along && along > wrong, "{right} {along} {wrong}");
        assert!(wrong > KNOWN_WIN + BISHOP);
        assert_eq!(score("7k/8/8/3K4/8/4N3/8/4B3 b - - 0 1"), -right);

        let edge = score("k7/8/8/8/3K4/8/8/1R6 w - - 0 1");
        let centre = score("8/8/4k3/8/3K4/8/8/1R6 w - - 0 1");
        let far = score("k7/8/8/8/8/8/8/1R5K w - - 0 1");
        assert!(edge > centre && edge > far, "{edge} {centre} {far}");

        assert_eq!(
            known_win_score(&board("8/8/4k3/8/8/3NN3/8/4K3 w - - 0 1")),
            None
        );
        assert_eq!(
            known_win_score(&board("8/8/4k3/4p3/8/3Q4/8/4K3 w - - 0 1")),
            None
        );
    }

    #[test]
    fn scale_factors_of_known_endings() {
        // KNN v K
        assert_eq!(
            scale_factor(&board("8/8/4k3/8/8/3NN3/8/4K3 w - - 0 1"), Color::White),
            0
        );
        // KB v K: a lone minor piece
        assert_eq!(
            scale_factor(&board("8/8/4k3/8/8/3B4/8/4K3 w - - 0 1"), Color::White),
            0
        );
        // KR v KB
        assert_eq!(
            scale_factor(&board("8/8/4k3/3b4/8/3R4/8/4K3 w - - 0 1"), Color::White),
            NO_PAWNS_VS_MINOR
        );
        // KQ v KR is a win: not scaled.
        assert_eq!(
            scale_factor(&board("8/8/4k3/3r4/8/3Q4/8/4K3 w - - 0 1"), Color::White),
            SCALE_MAX
        );
        // KBN v K is a win.
        assert_eq!(
            scale_factor(&board("8/8/4k3/8/8/3BN3/8/4K3 w - - 0 1"), Color::White),
            SCALE_MAX
        );
        // Wrong bishop: light-squared bishop, h-pawn, promotion on dark h8, king in the corner.
        assert_eq!(
            scale_factor(&board("7k/8/8/8/7P/8/3B4/4K3 w - - 0 1"), Color::White),
            SCALE_MAX
        );
        assert_eq!(
            scale_factor(&board("7k/8/8/8/7P/8/4B3/4K3 w - - 0 1"), Color::White),
            0
        );
        // Opposite-coloured bishops with pawns.
        assert_eq!(
            scale_factor(&board("4k3/p4b2/8/8/8/8/P3PB2/4K3 w - - 0 1"), Color::White),
            OPPOSITE_BISHOPS_ONLY
        );
    }
}
