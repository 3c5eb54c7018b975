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
//! with the score) are cubic polynomials in the material left, `m / 58`.

use super::score::{DRAW, is_decisive};
use crate::chess::{Board, PieceType};

/// Material counts are clamped to this range, as in the fit.
const MATERIAL_MIN: i32 = 4;
const MATERIAL_MAX: i32 = 78;
/// The material count at which the polynomials' variable is 1.
const MATERIAL_REF: f64 = 58.0;

// Fitted by scripts/fit_wdl.py on 780761 positions of 9289 self-play games of the tuned
// hand-crafted evaluation (`tarpon datagen --nodes 5000 --threads 2 --seed 4`; the scores are
// the ones that build's search prints). Log-loss 0.677 per position.
/// Coefficients of `a`, highest power first.
const A: [f64; 4] = [-798.292, 2196.215, -1946.471, 641.510];
/// Coefficients of `b`, highest power first.
const B: [f64; 4] = [-421.013, 1044.980, -731.058, 246.123];

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
    fn material_counts_both_sides() {
        assert_eq!(material(crate::chess::Position::startpos().board()), 78);
    }
}
