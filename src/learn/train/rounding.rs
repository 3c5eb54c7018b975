//! Rounding the output layer so that the integer network keeps the float network's scores.
//!
//! Rounding each output weight to the nearest step of 1/`QB` (1/64) moves it by up to
//! 1/128, and a score sums hundreds of activations times those errors. The activations of
//! different positions are much alike (most neurons are active in most positions), so the
//! errors do not average out: on a network trained on Tarpon's games (output weights
//! within ±0.27, 17 steps), nearest rounding put the integer scores 16 cp from the float
//! ones on average, most of it the same offset for every position.
//!
//! Each weight can be rounded down or up; this chooses among the two so that the squared
//! difference between the float network's output and the quantised network's is smallest
//! over a sample of positions, then sets the output bias to cancel the mean difference. The
//! quantised network is otherwise unchanged: every weight stays within one step of its
//! float value. The search is coordinate descent: with the activations' covariance `C`
//! and the current output errors, moving weight `i` by one step `s = ±1/QB` changes the
//! summed squared error by `−2·s·g[i] + s²·C[i][i]`, where `g` is the correlation of the
//! errors with activation `i`; take every move that lowers it, and repeat until none does.
//! On that network the mean difference on held-out positions fell from 16 cp to 5.4 (of
//! which 3.5 come from the feature weights' rounding, which this leaves alone); letting
//! weights move by two steps fitted the sample better and held-out positions worse.
//!
//! Each output bucket has its own weights and bias, fitted on the sample's positions of
//! that bucket.

use super::data::{Features, Record};
use super::export::{accumulator, quantise_bias};
use super::model::{Net, Scratch};
use crate::eval::nnue::format::{Network, QA, QB};

/// The training positions the trainer passes (spread over the data): enough that the
/// rarer buckets get thousands (on the 5.56M training positions of network `4a58e8a`, 4,865 of
/// this sample fell in the 2–5 piece bucket, the rarest, and 10,304 in the fullest).
pub const SAMPLE: usize = 65_536;

/// At most this many positions of a bucket are used (the covariance costs
/// `positions × (2·hidden)²`).
pub const MAX_PER_BUCKET: usize = 8192;

/// Re-rounds `quantised`'s output weights and biases (see the module notes) on `sample`.
/// `quantised` must be `net` rounded to nearest. A bucket without sample positions keeps
/// its nearest rounding.
pub fn fit_output_layer(net: &Net, quantised: &mut Network, sample: &[Record]) {
    let layout = net.layout;
    let mut by_bucket: Vec<Vec<Features>> = vec![Vec::new(); layout.buckets];
    for record in sample {
        let features = layout.features(record);
        let positions = &mut by_bucket[layout.bucket(&features)];
        if positions.len() < MAX_PER_BUCKET {
            positions.push(features);
        }
    }
    for (bucket, positions) in by_bucket.iter().enumerate() {
        if !positions.is_empty() {
            fit_bucket(net, quantised, bucket, positions);
        }
    }
}

/// [`fit_output_layer`] for the weights and bias of one bucket, on its positions.
fn fit_bucket(net: &Net, quantised: &mut Network, bucket: usize, sample: &[Features]) {
    let layout = net.layout;
    let n = 2 * layout.hidden;
    let weights = layout.bucket_weights(bucket);
    let mut scratch = Scratch::new(layout);
    // The quantised network's activations and the float network's outputs.
    let mut acts: Vec<f64> = Vec::with_capacity(sample.len() * n);
    let mut outs: Vec<f64> = Vec::with_capacity(sample.len());
    for features in sample {
        outs.push(f64::from(net.forward(features, &mut scratch)));
        acts.extend(activations(quantised, features));
    }
    let quantised_weights = &mut quantised.output_weights[weights.clone()];
    let count = sample.len() as f64;
    let mean_act: Vec<f64> = (0..n)
        .map(|i| acts.iter().skip(i).step_by(n).sum::<f64>() / count)
        .collect();
    let mean_out = outs.iter().sum::<f64>() / count;
    for row in acts.chunks_exact_mut(n) {
        row.iter_mut().zip(&mean_act).for_each(|(a, m)| *a -= m);
    }

    // Centred: the bias absorbs the means at the end.
    let step = 1.0 / f64::from(QB);
    let weight = |q: i16| f64::from(q) * step;
    let mut covariance = vec![0.0f64; n * n];
    let mut g = vec![0.0f64; n];
    for (row, out) in acts.chunks_exact(n).zip(&outs) {
        let predicted: f64 = row
            .iter()
            .zip(quantised_weights.iter())
            .map(|(a, &q)| a * weight(q))
            .sum();
        let error = (out - mean_out) - predicted;
        for (i, &a) in row.iter().enumerate() {
            g[i] += error * a;
            let line = &mut covariance[i * n..(i + 1) * n];
            line.iter_mut().zip(row).for_each(|(c, b)| *c += a * b);
        }
    }

    let float_weights = &net.params[layout.output_weights()][weights];
    for _sweep in 0..100 {
        let mut moved = false;
        for i in 0..n {
            let exact = f64::from(float_weights[i]) / step;
            let q = quantised_weights[i];
            for s in [-1i16, 1] {
                let candidate = q + s;
                // Stay within a step of the float weight, and inside the clip.
                if (f64::from(candidate) - exact).abs() >= 1.0 || candidate.abs() > 127 {
                    continue;
                }
                let ds = f64::from(s) * step;
                let change = -2.0 * ds * g[i] + ds * ds * covariance[i * n + i];
                if change < -1e-12 {
                    quantised_weights[i] = candidate;
                    let column = &covariance[i * n..(i + 1) * n];
                    g.iter_mut().zip(column).for_each(|(gj, c)| *gj -= ds * c);
                    moved = true;
                    break;
                }
            }
        }
        if !moved {
            break;
        }
    }

    let predicted_mean: f64 = mean_act
        .iter()
        .zip(quantised_weights.iter())
        .map(|(a, &q)| a * weight(q))
        .sum();
    quantised.output_biases[bucket] = quantise_bias(mean_out - predicted_mean);
}

/// The quantised network's activations for a position, both halves, as real numbers
/// (`(clamp(acc, 0, QA) / QA)²`).
fn activations(net: &Network, features: &Features) -> Vec<f64> {
    let mut out = Vec::with_capacity(2 * net.hidden_biases.len());
    for inputs in [features.stm(), features.other()] {
        out.extend(accumulator(net, inputs).iter().map(|&a| {
            let x = f64::from(a.clamp(0, QA)) / f64::from(QA);
            x * x
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::format::OUTPUT_BUCKETS;
    use crate::learn::train::Options;
    use crate::learn::train::export::{quantise, rounding_error};
    use crate::learn::train::tests::{material_records, trained};

    #[test]
    fn fitted_rounding_stays_within_a_step_and_is_closer_on_other_positions() {
        let records = material_records(3000, 12);
        // With one output the 2,000 fitting positions all fit the same weights; with
        // eight each bucket gets a few hundred, so the fit gains less on other positions.
        for (buckets, gain) in [(1, 0.8), (OUTPUT_BUCKETS, 1.0)] {
            let opts = Options {
                epochs: 3,
                batch_size: 128,
                lr: 0.005,
                buckets,
                ..Options::default()
            };
            let (state, _) = trained(&records, &opts);
            let net = &state.net;
            let nearest = quantise(net);
            let mut fitted = nearest.clone();
            fit_output_layer(net, &mut fitted, &records[..2000]);
            // Only the output layer changes, each weight by at most the one step that
            // separates rounding down from rounding up.
            assert_eq!(fitted.feature_weights, nearest.feature_weights);
            assert_eq!(fitted.hidden_biases, nearest.hidden_biases);
            let float_weights = &net.params[net.layout.output_weights()];
            let mut changed = 0;
            for ((&f, &n), &w) in fitted
                .output_weights
                .iter()
                .zip(&nearest.output_weights)
                .zip(float_weights)
            {
                assert!(
                    (f64::from(f) - f64::from(w) * f64::from(QB)).abs() < 1.0,
                    "{f} for {w}"
                );
                changed += usize::from(f != n);
            }
            assert!(changed > 0);
            // Measured on positions the fit did not see.
            let held_out = &records[2000..];
            let (fitted_error, _) = rounding_error(net, &fitted, held_out);
            let (nearest_error, _) = rounding_error(net, &nearest, held_out);
            println!(
                "{buckets} bucket(s): {nearest_error:.2} cp -> {fitted_error:.2} cp, {changed} weights changed"
            );
            assert!(
                fitted_error < gain * nearest_error,
                "{buckets} bucket(s): {nearest_error} -> {fitted_error}"
            );
        }
    }
}
