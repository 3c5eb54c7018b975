//! Win/draw/loss estimates for a score: what `UCI_ShowWDL` adds to every `info` score as
//! `wdl <win> <draw> <loss>`, in per mille, from the side to move's point of view.
//!
//! A centipawn score says who is better, not how likely that is to win. The model here
//! answers the second question from Tarpon's own games: given a search score and how much
//! material is left, how often did such positions end in a win, a draw, a loss? With many
//! pieces on the board a +150 is far from a sure win; with a few pawns each it converts
//! more often, and an equal score is more often a draw.
//!
//! The model (fitted by `scripts/fit_wdl.py`, which documents the fit):
//!
//! ```text
//! win(s)  = 1 / (1 + exp(-(s - a) / b))
//! loss(s) = 1 / (1 + exp(-(-s - a) / b))      (a win for the other side, by symmetry)
//! draw    = 1 - win - loss
//! ```
//!
//! where `a` (the score at which a win is as likely as not) and `b` (how fast the odds move
//! with the score) are polynomials (up to cubic) in the material left, `m / 58`.
//!
//! The chances depend on the time control: the longer the games, the more draws. The model
//! assumes games of 60,000 nodes a move (about 30 ms at Tarpon's speed: blitz) from
//! balanced openings; it says 227/603/170 for the start position's +0.20. At analysis
//! depths draws are more frequent still than it says, and in bullet less (self-play at
//! 5,000 nodes a move from random openings draws 22 % of positions with all pieces on,
//! against 56 % here).

use super::score::{DRAW, is_decisive};
use crate::chess::{Board, PieceType};

/// Material counts are clamped to this range, as in the fit.
const MATERIAL_MIN: i32 = 4;
const MATERIAL_MAX: i32 = 78;
/// The material count at which the polynomials' variable is 1.
const MATERIAL_REF: f64 = 58.0;

// Fitted by `scripts/fit_wdl.py --degree 2` (quadratics: a cubic fits noise on this few
// games) on 32,785 positions of 329 self-play games of network D (docs/log/networks.md):
// `tarpon datagen --nnue embedded --nodes 60000 --book openings.epd --random-plies 0`
// (balanced openings of 8 moves a side; the scores are the ones the search prints).
// Log-loss 0.564 per position.
// The scores of that fit are the network's own. The search now scales them by the
// material left (`MATERIAL_SCALE_*`), so `Searcher::wdl_text` turns a score back into the
// network's scale before asking the model; datagen writes that scale too, so a new fit on
// its games stays consistent with this step.
/// Coefficients of `a`, highest power first.
const A: [f64; 4] = [0.0, 381.041, -700.449, 409.515];
/// Coefficients of `b`, highest power first.
const B: [f64; 4] = [0.0, 160.356, -225.962, 125.373];

/// Both sides' material as the model counts it: pawn 1, knight and bishop 3, rook 5,
/// queen 9.
pub fn material(board: &Board) -> i32 {
    let count = |kind| board.kind(kind).count() as i32;
    count(PieceType::Pawn)
        + 3 * count(PieceType::Knight)
        + 3 * count(PieceType::Bishop)
        + 5 * count(PieceType::Rook)
        + 9 * count(PieceType::Queen)
}

/// Win, draw and loss chances in per mille (they sum to 1000) of `score` (centipawns or a
/// mate or tablebase score, for the side to move) with `material` on the board.
pub fn wdl(score: i32, material: i32) -> (u32, u32, u32) {
    if is_decisive(score) {
        return if score > DRAW {
            (1000, 0, 0)
        } else {
            (0, 0, 1000)
        };
    }
    let t = f64::from(material.clamp(MATERIAL_MIN, MATERIAL_MAX)) / MATERIAL_REF;
    let poly = |c: &[f64; 4]| ((c[0] * t + c[1]) * t + c[2]) * t + c[3];
    let (a, b) = (poly(&A), poly(&B).max(1.0));
    let s = f64::from(score);
    let chance = |x: f64| 1.0 / (1.0 + (-(x - a) / b).exp());
    let win = (1000.0 * chance(s)).round() as u32;
    let loss = (1000.0 * chance(-s)).round() as u32;
    // `a` is positive over the fitted range, so win + loss stays below 1000; the `min`
    // keeps the sum exact even if it were not.
    let loss = loss.min(1000 - win);
    (win, 1000 - win - loss, loss)
}

/// `wdl <w> <d> <l>` for an `info` line.
pub fn to_uci(score: i32, material: i32) -> String {
    let (w, d, l) = wdl(score, material);
    format!("wdl {w} {d} {l}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{mate_in, mated_in, tb_win_in};

    #[test]
    fn the_chances_sum_to_a_thousand() {
        for material in 0..=90 {
            for score in (-3000..=3000).step_by(7) {
                let (w, d, l) = wdl(score, material);
                assert_eq!(w + d + l, 1000, "score {score}, material {material}");
            }
        }
    }

    #[test]
    fn a_better_score_wins_more_and_loses_less() {
        for material in [6, 20, 40, 60, 78] {
            let mut last = wdl(-2000, material);
            for score in (-1990..=2000).step_by(10) {
                let now = wdl(score, material);
                assert!(now.0 >= last.0 && now.2 <= last.2, "{score} {material}");
                last = now;
            }
            assert!(wdl(1500, material).0 > 900, "material {material}");
            let (w, d, l) = wdl(0, material);
            assert!(w == l && d >= 100, "material {material}: {w} {d} {l}");
        }
    }

    #[test]
    fn even_scores_are_symmetric() {
        for material in [10, 40, 70] {
            for score in [0, 35, 120, 400] {
                let (w, d, l) = wdl(score, material);
                assert_eq!(wdl(-score, material), (l, d, w));
            }
        }
    }

    #[test]
    fn mates_and_tablebase_wins_are_certain() {
        assert_eq!(wdl(mate_in(3), 40), (1000, 0, 0));
        assert_eq!(wdl(mated_in(2), 40), (0, 0, 1000));
        assert_eq!(wdl(tb_win_in(10), 5), (1000, 0, 0));
        assert_eq!(to_uci(mate_in(1), 10), "wdl 1000 0 0");
    }

    #[test]
    fn the_start_position_is_mostly_drawn() {
        // The start position's usual score (+0.20) with all material: as Stockfish shows
        // it, a draw is the likeliest result.
        let (w, d, l) = wdl(20, 78);
        assert!(d > 500 && w > l && w < 300, "{w} {d} {l}");
    }

    #[test]
    fn material_counts_both_sides() {
        assert_eq!(material(crate::chess::Position::startpos().board()), 78);
    }
}
