//! The training-data record format: Tarpon's packing against the bulletformat crate (the
//! reference implementation of the layout), and pack/unpack round trips over random games.

mod common;

// The crate has the name of Tarpon's module; rename it to keep the two apart.
extern crate bulletformat as bulletformat_crate;

use common::Rng;
use tarpon::chess::movegen::legal_moves;
use tarpon::chess::{Board, Color, Position, Square, fen};
use tarpon::tools::bulletformat::{self, GameResult};

/// Positions from random games (all phases: castling rights held and lost, Black to
/// move, promotions, few and many pieces).
fn random_positions(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut boards = Vec::new();
    while boards.len() < count {
        let mut pos = Position::startpos();
        for _ in 0..rng.below(300) {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            // Prefer captures and promotions now and then, to reach endings.
            let noisy: Vec<_> = moves
                .iter()
                .filter(|m| m.promotion_piece().is_some() || pos.piece_on(m.to()).is_some())
                .copied()
                .collect();
            let m = if !noisy.is_empty() && rng.chance(40) {
                *rng.pick(&noisy)
            } else {
                *rng.pick(&moves)
            };
            pos.make(m);
            boards.push(*pos.board());
        }
    }
    boards.truncate(count);
    boards
}

/// The bytes the bulletformat crate's text reader makes of a position (its text format
/// takes the score and result for White).
fn reference_bytes(board: &Board, white_score: i16, result: GameResult) -> [u8; 32] {
    let white_result = match result {
        GameResult::WhiteWin => "1.0",
        GameResult::Draw => "0.5",
        GameResult::BlackWin => "0.0",
    };
    let line = format!("{} | {white_score} | {white_result}", fen::to_fen(board));
    let cb: bulletformat_crate::ChessBoard = line.parse().expect("bulletformat parses it");
    let mut bytes = [0u8; 32];
    bytes[0..8].copy_from_slice(&cb.occ.to_le_bytes());
    bytes[8..24].copy_from_slice(&cb.pcs);
    bytes[24..26].copy_from_slice(&cb.score.to_le_bytes());
    bytes[26] = cb.result;
    bytes[27] = cb.ksq;
    bytes[28] = cb.opp_ksq;
    bytes[29..32].copy_from_slice(&cb.extra);
    bytes
}

#[test]
fn packing_matches_the_bulletformat_crate() {
    let results = [GameResult::WhiteWin, GameResult::Draw, GameResult::BlackWin];
    let mut blacks = 0;
    for (i, board) in random_positions(3000, 11).iter().enumerate() {
        let result = results[i % 3];
        let stm_score = (i as i16 % 2001) - 1000;
        let white_score = match board.side_to_move() {
            Color::White => stm_score,
            Color::Black => -stm_score,
        };
        blacks += usize::from(board.side_to_move() == Color::Black);
        let ours = bulletformat::pack(board, stm_score, result, false).unwrap();
        let reference = reference_bytes(board, white_score, result);
        // Bytes 29..32 are the spare bytes that Tarpon fills and bulletformat leaves zero.
        assert_eq!(ours[..29], reference[..29], "{}", fen::to_fen(board));
        assert_eq!(reference[29..], [0, 0, 0]);
        // The crate's own reading of our record: the same features, score and result.
        let theirs = bulletformat_crate::ChessBoard {
            occ: u64::from_le_bytes(ours[0..8].try_into().unwrap()),
            pcs: ours[8..24].try_into().unwrap(),
            score: i16::from_le_bytes([ours[24], ours[25]]),
            result: ours[26],
            ksq: ours[27],
            opp_ksq: ours[28],
            extra: ours[29..32].try_into().unwrap(),
        };
        use bulletformat_crate::BulletFormat;
        assert_eq!(theirs.score(), stm_score);
        let stm_result = result.for_side(board.side_to_move());
        assert_eq!(theirs.result(), f32::from(stm_result) / 2.0);
        let features: Vec<(u8, u8)> = theirs.into_iter().collect();
        assert_eq!(features.len() as u32, board.occupied().count());
    }
    assert!(blacks > 1000, "both sides to move are covered");
}

#[test]
fn records_round_trip_over_random_games() {
    let mut seen_black = false;
    let mut seen_promoted = false;
    let mut seen_partial_castling = false;
    for (i, board) in random_positions(5000, 5).iter().enumerate() {
        let result = [GameResult::WhiteWin, GameResult::Draw, GameResult::BlackWin][i % 3];
        let score = (i as i16).wrapping_mul(37) % 3000;
        let bytes = bulletformat::pack(board, score, result, i % 7 == 0).unwrap();
        let sample = bulletformat::unpack(&bytes).unwrap();
        for sq in Square::all() {
            assert_eq!(sample.board.piece_on(sq), board.piece_on(sq));
        }
        assert_eq!(sample.board.side_to_move(), board.side_to_move());
        assert_eq!(
            sample.board.halfmove_clock(),
            board.halfmove_clock().min(255)
        );
        assert_eq!(sample.score, score);
        assert_eq!(sample.game_result(), result);
        assert_eq!(sample.game_start, i % 7 == 0);
        // Packing the decoded board again gives the same record.
        assert_eq!(
            bulletformat::pack(&sample.board, score, result, i % 7 == 0).unwrap(),
            bytes
        );
        seen_black |= board.side_to_move() == Color::Black;
        let white_pieces = board.color(Color::White).count();
        let queens = board.kind(tarpon::chess::PieceType::Queen).count();
        seen_promoted |= queens > 2 || (white_pieces == 16 && queens == 2);
        seen_partial_castling |= board.castling_rights() != 0 && board.castling_rights() != 15;
    }
    assert!(seen_black && seen_promoted && seen_partial_castling);
}
