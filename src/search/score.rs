//! Search scores: centipawns from the side to move's point of view, with mate scores at the
//! far ends of the range.
//!
//! A mate found `ply` plies from the root scores `MATE - ply` (the sooner the better), being
//! mated scores `-(MATE - ply)`. Everything above `MATE_BOUND` in absolute value is a mate.
//!
//! Just below the mates lies the band of tablebase wins: a position the Syzygy tables call
//! won, `ply` plies from the root, scores `TB_WIN - ply`. It ranks above every evaluation
//! (a certain win beats any advantage) but below every real mate (a mate found by the
//! search is a proof, and nearer). Like mates, these scores depend on the ply, so the
//! transposition table stores them relative to the node. UCI shows them as large
//! centipawn scores (`cp 20000` minus the ply), as Stockfish does: they are not mates.

/// Larger than any real score: the initial alpha-beta window.
pub const INFINITE: i32 = 32_001;
/// The score of checkmating on the very next ply (minus the ply of the mate).
pub const MATE: i32 = 32_000;
/// The deepest ply the search ever reaches (stacks and arrays are sized by it).
pub const MAX_PLY: usize = 246;
/// Scores beyond this (in absolute value) are mates within `MAX_PLY`.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const DRAW: i32 = 0;
/// The score of a tablebase win at the root: the highest score that is not a mate.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores beyond this (in absolute value) are tablebase wins (or mates): "decisive".
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// How UCI shows a tablebase win at the root (Stockfish's convention), in centipawns.
pub const TB_WIN_CP: i32 = 20_000;

/// The score of delivering mate `ply` plies from the root.
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The score of being mated `ply` plies from the root.
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The score of a tablebase win `ply` plies from the root.
pub const fn tb_win_in(ply: usize) -> i32 {
    TB_WIN - ply as i32
}

/// The score of a tablebase loss `ply` plies from the root.
pub const fn tb_loss_in(ply: usize) -> i32 {
    -TB_WIN + ply as i32
}

pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// A mate or a tablebase win or loss: a score no evaluation can reach.
pub const fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_WIN_BOUND
}

/// A mate or tablebase score relative to the root turned into one relative to the current
/// node, for the transposition table: the same position can be reached at different plies,
/// and a mate "in n from here" must stay right wherever it is found again.
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of `to_tt`.
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The score as UCI writes it: `cp <n>` or `mate <moves>` (negative when being mated).
/// Tablebase wins show as `cp 20000` less the plies to the tablebase position.
pub fn to_uci(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate {}", -((MATE + score) / 2))
    } else if score >= TB_WIN_BOUND {
        format!("cp {}", TB_WIN_CP - (TB_WIN - score))
    } else if score <= -TB_WIN_BOUND {
        format!("cp {}", -TB_WIN_CP + (TB_WIN + score))
    } else {
        format!("cp {score}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_mate_counts_moves_not_plies() {
        assert_eq!(to_uci(mate_in(1)), "mate 1");
        assert_eq!(to_uci(mate_in(3)), "mate 2");
        assert_eq!(to_uci(mated_in(2)), "mate -1");
        assert_eq!(to_uci(mated_in(0)), "mate 0");
        assert_eq!(to_uci(-35), "cp -35");
    }

    #[test]
    fn tt_round_trip() {
        for ply in [0, 5, 40] {
            for s in [
                mate_in(7),
                mated_in(9),
                tb_win_in(12),
                tb_loss_in(3),
                123,
                -5,
            ] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
    }

    #[test]
    fn tablebase_scores_lie_between_evaluations_and_mates() {
        let deepest_tb_win = tb_win_in(MAX_PLY);
        let slowest_mate = mate_in(MAX_PLY);
        assert!(tb_win_in(0) < slowest_mate);
        assert!(is_decisive(deepest_tb_win) && !is_mate(tb_win_in(0)));
        assert!(!is_decisive(deepest_tb_win - 1));
        // Relative to the node, a win found at a deep ply stays in the band.
        assert_eq!(to_tt(tb_win_in(40), 40), TB_WIN);
        assert!(to_tt(tb_loss_in(40), 40) >= -TB_WIN);
    }

    #[test]
    fn tablebase_scores_show_as_large_centipawns() {
        assert_eq!(to_uci(tb_win_in(0)), "cp 20000");
        assert_eq!(to_uci(tb_win_in(5)), "cp 19995");
        assert_eq!(to_uci(tb_loss_in(2)), "cp -19998");
        assert_eq!(to_uci(mate_in(1)), "mate 1");
    }
}
