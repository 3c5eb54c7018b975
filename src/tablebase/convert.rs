//! From Tarpon's board to what the prober understands: a `shakmaty::Chess` position, and a
//! material signature to know, before any work, whether a table for the position exists.

use crate::chess::{Board, Color, PieceType};
use shakmaty::{
    Bitboard as SBitboard, ByColor, ByRole, CastlingMode, Chess, FromSetup, PositionError, Setup,
    Square as SSquare,
};
use std::num::NonZeroU32;

/// The board as a shakmaty position, without castling rights (tables have none; callers
/// never probe a position that has them). Both libraries number squares a1 = 0 .. h8 = 63,
/// so bitboards carry over unchanged. `None` for a board shakmaty rejects (which a legal
/// Tarpon board never is, but a probe must not trust that).
pub fn to_chess(board: &Board) -> Option<Chess> {
    let kind = |k: PieceType| SBitboard(board.kind(k).0);
    let by_role = ByRole {
        pawn: kind(PieceType::Pawn),
        knight: kind(PieceType::Knight),
        bishop: kind(PieceType::Bishop),
        rook: kind(PieceType::Rook),
        queen: kind(PieceType::Queen),
        king: kind(PieceType::King),
    };
    let by_color = ByColor {
        white: SBitboard(board.color(Color::White).0),
        black: SBitboard(board.color(Color::Black).0),
    };
    let mut setup = Setup::empty();
    setup.board = shakmaty::Board::try_from_bitboards(by_role, by_color).ok()?;
    setup.turn = match board.side_to_move() {
        Color::White => shakmaty::Color::White,
        Color::Black => shakmaty::Color::Black,
    };
    setup.ep_square = board
        .en_passant()
        .and_then(|sq| SSquare::try_from(sq.index()).ok());
    setup.halfmoves = u32::from(board.halfmove_clock());
    setup.fullmoves = NonZeroU32::new(board.fullmove_number().into()).unwrap_or(NonZeroU32::MIN);
    // Tarpon's own checks are the rules; shakmaty's "impossible check" test is stricter
    // than legality (it rejects some set-up positions that Tarpon accepts from a FEN).
    Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .ok()
}

/// Piece counts of one side packed 4 bits per kind (pawn, knight, bishop, rook, queen),
/// the king implied.
type SideMaterial = u32;

/// What a table is named after (`KRPvKR`): piece counts of both sides, with the two sides
/// in a fixed order so that a table and its colour-swapped positions share one key.
pub type MaterialKey = u64;

const KINDS: [PieceType; 5] = [
    PieceType::Pawn,
    PieceType::Knight,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Queen,
];

fn pair_key(a: SideMaterial, b: SideMaterial) -> MaterialKey {
    let (high, low) = if a >= b { (a, b) } else { (b, a) };
    u64::from(high) << 32 | u64::from(low)
}

/// The material key of a board.
pub fn material_key(board: &Board) -> MaterialKey {
    let side = |color: Color| -> SideMaterial {
        KINDS
            .iter()
            .enumerate()
            .map(|(i, &k)| board.pieces(color, k).count().min(15) << (4 * i))
            .sum()
    };
    pair_key(side(Color::White), side(Color::Black))
}

/// The material key of a table name such as `KRPvKR` (either side may come first), or
/// `None` when the name is not one: each side one king and at most 15 of each other kind.
pub fn material_key_of_name(name: &str) -> Option<MaterialKey> {
    let (a, b) = name.split_once('v')?;
    let side = |text: &str| -> Option<SideMaterial> {
        let mut material = 0;
        let mut kings = 0;
        for c in text.chars() {
            let kind = PieceType::from_char(c).filter(|_| c.is_ascii_uppercase())?;
            if kind == PieceType::King {
                kings += 1;
                continue;
            }
            let shift = 4 * KINDS.iter().position(|&k| k == kind)?;
            if (material >> shift) & 15 == 15 {
                return None;
            }
            material += 1 << shift;
        }
        (kings == 1).then_some(material)
    };
    Some(pair_key(side(a)?, side(b)?))
}

/// The number of pieces, kings included, of a table name's material.
pub fn piece_count_of_name(name: &str) -> usize {
    name.chars().filter(|c| c.is_ascii_uppercase()).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use shakmaty::Position as _;

    fn board(fen: &str) -> Board {
        *Position::from_fen(fen, false).unwrap().board()
    }

    #[test]
    fn names_and_boards_agree_either_way_round() {
        let krpvkr = material_key_of_name("KRPvKR").unwrap();
        assert_eq!(material_key_of_name("KRvKRP"), Some(krpvkr));
        assert_eq!(
            material_key(&board("8/8/8/8/8/2k5/P1r5/KR6 w - - 0 1")),
            krpvkr
        );
        assert_eq!(
            material_key(&board("kr6/p1R5/2K5/8/8/8/8/8 b - - 0 1")),
            krpvkr
        );
        assert_ne!(material_key_of_name("KRvKP"), Some(krpvkr));
        assert_eq!(piece_count_of_name("KRPvKR"), 5);
    }

    #[test]
    fn bad_names_have_no_key() {
        for bad in ["", "KRPKR", "KRvR", "KKvK", "KXvK", "krvk", "KvK v K"] {
            assert_eq!(material_key_of_name(bad), None, "{bad}");
        }
        assert!(material_key_of_name("KvK").is_some());
    }

    #[test]
    fn conversion_keeps_pieces_side_and_en_passant() {
        let fen = "8/8/8/3pP3/8/8/k7/4K3 w - d6 0 7";
        let chess = to_chess(&board(fen)).unwrap();
        let fen_back = shakmaty::fen::Fen::from_position(&chess, shakmaty::EnPassantMode::Legal);
        assert_eq!(fen_back.to_string(), fen);
        assert_eq!(chess.legal_moves().len(), 7);
    }
}
