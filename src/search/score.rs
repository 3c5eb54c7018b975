//! Search scores: centipawns from the side to move's point of view, with mate scores at the
//! far ends of the range.
//!
//! A mate found `ply` plies from the root scores `MATE - ply` (the sooner the better), being
//! mated scores `-(MATE - ply)`. Everything above `MATE_BOUND` in absolute value is a mate.

/// Larger than any real score: the initial alpha-beta window.
pub const INFINITE: i32 = 32_001;
/// The score of checkmating on the very next ply (minus the ply of the mate).
pub const MATE: i32 = 32_000;
/// The deepest ply the search ever reaches (stacks and arrays are sized by it).
pub const MAX_PLY: usize = 246;
/// Scores beyond this (in absolute value) are mates within `MAX_PLY`.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const DRAW: i32 = 0;

/// The score of delivering mate `ply` plies from the root.
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The score of being mated `ply` plies from the root.
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// A mate score relative to the root turned into one relative to the current node, for the
/// transposition table: the same position can be reached at different plies, and a mate
/// "in n from here" must stay right wherever it is found again.
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of `to_tt`.
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The score as UCI writes it: `cp <n>` or `mate <moves>` (negative when being mated).
pub fn to_uci(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate {}", -((MATE + score) / 2))
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
            for s in [mate_in(7), mated_in(9), 123, -5] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
    }
}
