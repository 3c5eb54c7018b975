//! A player's accuracy in a reviewed game, by lichess's published model
//! (<https://lichess.org/page/accuracy>), so that the percentages read as a lichess player
//! knows them:
//!
//! 1. Each evaluation becomes a *win percentage* for White: `50 + 50 · (2 / (1 + e^(−k·cp))
//!    − 1)` with `k = 0.00368208` (the same curve as the expected score Tarpon's reviews
//!    mark mistakes by), the score first clamped to ±1000 centipawns (a mate counts as
//!    1000).
//! 2. A move's accuracy is `103.1668 · e^(−0.04354 · drop) − 3.1669`, plus 1 for the
//!    engine's own uncertainty, within 0–100, where `drop` is how many points of win
//!    percentage the mover's side lost with it (100 when it lost none).
//! 3. A side's game accuracy is the mean of two averages of its moves' accuracies: one
//!    weighted by how much the win percentage swung around each move (the standard
//!    deviation over a window of a tenth of the game, 2 to 8 plies, within 0.5–12), so that
//!    quiet stretches weigh less than sharp ones; and the harmonic mean (each accuracy at
//!    least 1), which one blunder pulls down far more than a plain mean does.
//!
//! Lichess fits the first curve to Stockfish's centipawns; Tarpon's are on a similar scale
//! (both engines normalise a pawn's worth by winning chances), so the percentages compare,
//! but are not the same numbers lichess would show for the same game.

/// The centipawns beyond which more advantage changes the win percentage no further.
const CP_CEILING: i32 = 1000;
/// The logistic's slope: lichess's fit of win chances to centipawns.
const WIN_K: f64 = 0.003_682_08;

/// White's chances in percent (0–100) for a score of `cp` centipawns from White's side.
pub fn win_percent(cp: i32) -> f64 {
    let cp = f64::from(cp.clamp(-CP_CEILING, CP_CEILING));
    50.0 + 50.0 * (2.0 / (1.0 + (-WIN_K * cp).exp()) - 1.0)
}

/// The accuracy (0–100) of a move that took its side's win percentage from `before` to
/// `after`.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let drop = before - after;
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411;
    // The bonus of one point: an engine's evaluation is not perfect either.
    (raw + 1.0).clamp(0.0, 100.0)
}

/// White's and Black's accuracy over a game whose positions, from the start on, scored
/// `white_cps` (centipawns from White's side, the start position first); `white_first`
/// when White made the first move. `None` for a side that made no move.
pub fn game_accuracy(white_cps: &[i32], white_first: bool) -> [Option<f64>; 2] {
    let wins: Vec<f64> = white_cps.iter().map(|&cp| win_percent(cp)).collect();
    let moves = wins.len().saturating_sub(1);
    if moves == 0 {
        return [None, None];
    }
    let weights = volatility_weights(&wins, moves);
    // (accuracy, weight) of each side's moves, White's first.
    let mut sides: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, pair) in wins.windows(2).enumerate() {
        let white_moved = (i % 2 == 0) == white_first;
        let accuracy = if white_moved {
            move_accuracy(pair[0], pair[1])
        } else {
            move_accuracy(100.0 - pair[0], 100.0 - pair[1])
        };
        sides[usize::from(!white_moved)].push((accuracy, weights[i]));
    }
    sides.map(|own| side_accuracy(&own))
}

/// The weight of each move: the swing of the win percentage around it. The windows are
/// `size` positions long and slide over the game; the first moves, before a whole window
/// fits behind them, take the first window's.
fn volatility_weights(wins: &[f64], moves: usize) -> Vec<f64> {
    let size = (moves / 10).clamp(2, 8).min(wins.len());
    let first = &wins[..size];
    let mut windows: Vec<&[f64]> = vec![first; size - 2];
    windows.extend(wins.windows(size));
    windows
        .iter()
        .map(|w| standard_deviation(w).clamp(0.5, 12.0))
        .take(moves)
        .collect()
}

/// The population standard deviation.
fn standard_deviation(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// The mean of the weighted mean and the harmonic mean of one side's moves.
fn side_accuracy(own: &[(f64, f64)]) -> Option<f64> {
    if own.is_empty() {
        return None;
    }
    let weight: f64 = own.iter().map(|&(_, w)| w).sum();
    let weighted = own.iter().map(|&(a, w)| a * w).sum::<f64>() / weight;
    let harmonic = own.len() as f64 / own.iter().map(|&(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
    Some((weighted + harmonic) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start position as lichess scores it when it has no analysis of it: 15.
    const START: i32 = 15;

    /// Game accuracy for the scores after each move, after a start of +15.
    fn accuracy(after_moves: &[i32], white_first: bool) -> [Option<f64>; 2] {
        let mut cps = vec![START];
        cps.extend_from_slice(after_moves);
        game_accuracy(&cps, white_first)
    }

    fn near(value: Option<f64>, expected: f64, within: f64) -> bool {
        value.is_some_and(|v| (v - expected).abs() <= within)
    }

    /// The cases lichess checks its own implementation with (its AccuracyPercentTest):
    /// the same scores give accuracies within the same bounds of the same figures.
    #[test]
    fn lichess_reference_cases() {
        let cases: Vec<(Vec<i32>, bool, f64, f64, f64, f64)> = vec![
            // scores after each move, White first, White's figure ± bound, Black's ± bound
            (vec![15, 15], true, 100.0, 1.0, 100.0, 1.0),
            (vec![-900, -900], true, 10.0, 5.0, 100.0, 1.0),
            (vec![15, 900], true, 100.0, 1.0, 10.0, 5.0),
            (vec![-900, 0], true, 10.0, 5.0, 10.0, 5.0),
            (vec![15; 20], true, 100.0, 1.0, 100.0, 1.0),
            (
                [vec![15; 20], vec![-900]].concat(),
                true,
                50.0,
                5.0,
                100.0,
                1.0,
            ),
            (
                [vec![15; 21], vec![900]].concat(),
                true,
                100.0,
                1.0,
                50.0,
                5.0,
            ),
            ([-50, 15].repeat(5), true, 76.0, 8.0, 76.0, 8.0),
            ([-50, 15].repeat(50), true, 76.0, 8.0, 76.0, 8.0),
            ([-135, 15].repeat(50), true, 54.0, 8.0, 54.0, 8.0),
            ([-435, 15].repeat(50), true, 20.0, 8.0, 20.0, 8.0),
            // Black moving first.
            (vec![15, 15], false, 100.0, 1.0, 100.0, 1.0),
            (vec![900, 900], false, 100.0, 1.0, 10.0, 5.0),
            (vec![15, -900], false, 10.0, 5.0, 100.0, 1.0),
            (vec![900, 0], false, 10.0, 5.0, 10.0, 5.0),
        ];
        for (scores, white_first, white, white_within, black, black_within) in cases {
            let [w, b] = accuracy(&scores, white_first);
            assert!(
                near(w, white, white_within) && near(b, black, black_within),
                "{scores:?} (White first: {white_first}): White {w:?}, Black {b:?}"
            );
        }
    }

    /// One move in all: the side that did not move has no accuracy; no move, neither.
    #[test]
    fn a_side_without_moves_has_no_accuracy() {
        assert_eq!(accuracy(&[], true), [None, None]);
        let [w, b] = accuracy(&[15], true);
        assert!(w.is_some() && b.is_none());
    }

    #[test]
    fn the_curves_have_lichess_points() {
        assert!((win_percent(0) - 50.0).abs() < 1e-9);
        assert!(
            (win_percent(100) - 59.1).abs() < 0.05,
            "{}",
            win_percent(100)
        );
        assert_eq!(win_percent(5000), win_percent(1000));
        assert!((win_percent(-300) + win_percent(300) - 100.0).abs() < 1e-9);
        assert_eq!(move_accuracy(40.0, 60.0), 100.0);
        assert!((move_accuracy(50.0, 50.0) - 100.0).abs() < 1e-9);
        // A drop of 10 points of win percentage: 64.6 %.
        assert!(
            (move_accuracy(60.0, 50.0) - 64.58).abs() < 0.01,
            "{}",
            move_accuracy(60.0, 50.0)
        );
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }
}
