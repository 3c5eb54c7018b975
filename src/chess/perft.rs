//! Perft: counts the leaf nodes of the legal move tree to a fixed depth. The counts are
//! known for many positions, so perft proves the move generator and make-move exact;
//! it is also the standard speed test for them.

use super::board::Board;
use super::movegen::{count_legal_moves, legal_moves};
use super::moves::Move;

/// Number of leaf nodes `depth` plies below `board`.
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // Bulk counting: one ply above the leaves, the number of legal moves is the answer.
    if depth == 1 {
        return count_legal_moves(board);
    }
    let mut nodes = 0;
    for &m in legal_moves(board).iter() {
        let mut child = *board;
        child.play(m);
        nodes += perft(&child, depth - 1);
    }
    nodes
}

/// Leaf counts under each root move ("divide"), in move-generation order.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    legal_moves(board)
        .iter()
        .map(|&m| {
            let mut child = *board;
            child.play(m);
            (
                m,
                if depth <= 1 {
                    1
                } else {
                    perft(&child, depth - 1)
                },
            )
        })
        .collect()
}
