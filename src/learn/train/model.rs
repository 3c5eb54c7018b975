//! The network in floating point, as the trainer sees it: its parameters, the forward
//! pass, the loss and its gradient.
//!
//! The shape is the engine's (see [`crate::eval::nnue::format`]) with a hidden size and
//! a number of output buckets chosen at run time. For one position, with `x_s` the
//! active inputs of perspective `s` (`s = 0` the side to move, `s = 1` the other side)
//! and `b` its output bucket (by the number of pieces, `format::output_bucket`):
//!
//! ```text
//! a_s   = b1 + Σ_{f ∈ x_s} W1[f]             (HIDDEN values; W1[f] is input f's column)
//! out   = Σ_s W2[b]_s · screlu(a_s) + b2[b]    screlu(v) = clamp(v, 0, 1)²
//! p     = sigmoid(out · SCALE / K)             the predicted expected score
//! t     = λ · result + (1 − λ) · sigmoid(score / K)
//! loss  = (p − t)²
//! ```
//!
//! `out · SCALE` is the engine's score in centipawns, so `K` (`--scale`) says how many
//! centipawns move the expected score by one unit of the logistic curve: the same `K`
//! turns the recorded search score into an expected score, so the network learns the
//! score's scale as well as the result's. The loss is the squared error of expected
//! scores (probabilities): large errors in a decided position (a score of +900 against
//! +1200) cost little, which is what the engine needs.
//!
//! All parameters live in one vector, in the order of the network file: feature weights
//! (input by input), hidden biases, output weights (bucket by bucket, each the side to
//! move's half first), output biases. Gradients have the same layout, so the optimiser and the checkpoints treat them
//! as flat arrays.

use super::data::{self, Features, Record};
use crate::eval::nnue::format::{KingBuckets, SCALE, WEIGHT_CLIP, output_bucket};
use crate::rng::SplitMix64;
use std::ops::Range;

/// Where each kind of parameter lives in the flat vector.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub hidden: usize,
    /// Output buckets: 1 to `format::OUTPUT_BUCKETS`.
    pub buckets: usize,
    /// The king input buckets: 768 inputs per bucket ([`KingBuckets::NONE`]: 768 in all).
    pub kings: KingBuckets,
    /// With king buckets: 768 more feature weight rows, shared by all buckets ("factor"
    /// rows). An input's weight is its bucket's row plus the factor row of the same piece
    /// and square, so what every bucket has in common is learned from all positions and
    /// each bucket learns only how it differs. The network written adds them together.
    pub factorised: bool,
}

impl Layout {
    /// The output bucket of a position with these inputs (one per piece).
    #[inline(always)]
    pub fn bucket(self, features: &Features) -> usize {
        output_bucket(features.count, self.buckets)
    }
    /// The inputs of a record, for this layout's king buckets.
    pub fn features(&self, record: &Record) -> Features {
        data::features(record, &self.kings)
    }
    /// Inputs per perspective: 768 per king bucket.
    pub fn inputs(self) -> usize {
        self.kings.inputs()
    }
    /// Rows of feature weights: one per input, and the 768 factor rows if factorised.
    pub fn rows(self) -> usize {
        self.inputs() + if self.factorised { FACTOR_ROWS } else { 0 }
    }
    /// The factor row that input `f` shares with the same piece and square in the other
    /// buckets, if factorised.
    #[inline(always)]
    pub fn factor_row(self, f: u16) -> Option<usize> {
        self.factorised
            .then(|| self.inputs() + f as usize % FACTOR_ROWS)
    }
    pub fn feature_weights(self) -> Range<usize> {
        0..self.rows() * self.hidden
    }
    pub fn hidden_biases(self) -> Range<usize> {
        let start = self.rows() * self.hidden;
        start..start + self.hidden
    }
    /// All buckets' output weights.
    pub fn output_weights(self) -> Range<usize> {
        let start = (self.rows() + 1) * self.hidden;
        start..start + self.buckets * 2 * self.hidden
    }
    /// Output bucket `bucket`'s weights, relative to the start of [`Layout::output_weights`].
    pub fn bucket_weights(self, bucket: usize) -> Range<usize> {
        let start = bucket * 2 * self.hidden;
        start..start + 2 * self.hidden
    }
    pub fn output_biases(self) -> Range<usize> {
        let start = self.output_weights().end;
        start..start + self.buckets
    }
    /// The number of parameters.
    pub fn parameter_count(self) -> usize {
        self.output_biases().end
    }

    /// The gradient of this factorised layout from `merged`, the gradient of the same
    /// network as [`Net::merge_factors_into`] writes it: an input's own row gets its merged
    /// row's gradient, and a factor row the sum of those of every bucket's input of its
    /// piece and square (it is added into each of them).
    pub fn fold_factor_gradient(self, merged: &[f32], grad: &mut [f32]) {
        debug_assert!(self.factorised);
        let h = self.hidden;
        let own = self.inputs() * h;
        grad[..own].copy_from_slice(&merged[..own]);
        let (_, factors) = grad[self.feature_weights()].split_at_mut(own);
        factors.fill(0.0);
        for bucket in merged[..own].chunks_exact(FACTOR_ROWS * h) {
            factors.iter_mut().zip(bucket).for_each(|(g, m)| *g += m);
        }
        let tail = self.hidden_biases().start;
        grad[tail..].copy_from_slice(&merged[own..]);
    }
}

/// Factor rows: one per piece and square, as in a network without king buckets.
pub const FACTOR_ROWS: usize = 768;

/// The parameters, split by kind, read-only.
struct Parts<'a> {
    feature_weights: &'a [f32],
    hidden_biases: &'a [f32],
    output_weights: &'a [f32],
    output_biases: &'a [f32],
}

fn parts(params: &[f32], layout: Layout) -> Parts<'_> {
    Parts {
        feature_weights: &params[layout.feature_weights()],
        hidden_biases: &params[layout.hidden_biases()],
        output_weights: &params[layout.output_weights()],
        output_biases: &params[layout.output_biases()],
    }
}

/// A network in floating point.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub layout: Layout,
    pub params: Vec<f32>,
}

/// The spread of the starting feature weights (uniform in ±this). A position has about
/// 30 active inputs, so an accumulator starts as a sum of 30 such weights, about ±0.3:
/// inside the activation's working range (0 to 1), where it has a gradient.
pub const INIT_FEATURE: f32 = 0.1;

impl Net {
    /// A network ready to train: feature weights uniform in ±[`INIT_FEATURE`], output
    /// weights uniform in ±1/√(2·hidden) (so the output starts near 0, an expected score
    /// near 0.5, whatever the position), biases 0. The seed makes it repeatable.
    pub fn new(layout: Layout, seed: u64) -> Net {
        let hidden = layout.hidden;
        let mut params = vec![0.0; layout.parameter_count()];
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |spread: f32| {
            // 24 random bits: a uniform float in [0, 1), then in ±spread.
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * spread
        };
        // Factorised, the buckets start alike: the factor rows random, the buckets' own 0.
        let own = if layout.factorised {
            layout.inputs() * hidden
        } else {
            0
        };
        for w in &mut params[layout.feature_weights()][own..] {
            *w = uniform(INIT_FEATURE);
        }
        let spread = 1.0 / (2.0 * hidden as f32).sqrt();
        for w in &mut params[layout.output_weights()] {
            *w = uniform(spread);
        }
        Net { layout, params }
    }

    /// This network with `hidden` neurons per perspective, at least as many as it has: the
    /// old neurons keep their weights, and each new one gets random input weights (as in
    /// [`Net::new`]) and output weights of 0. So the wider network evaluates every position
    /// exactly as this one does, and training starts from what it knows. The new neurons
    /// learn nonetheless: their activations are not 0, so their output weights get a
    /// gradient from the first step, and through those their input weights. (With input
    /// weights of 0 instead, a neuron would stay at 0, where the activation is flat.)
    pub fn widened(&self, hidden: usize, seed: u64) -> Net {
        let old = self.layout;
        assert!(hidden >= old.hidden, "a network only widens");
        let layout = Layout { hidden, ..old };
        // Random everywhere first: the new neurons' input weights stay as `new` made them
        // (factorised: random in the shared rows, 0 in each bucket's own).
        let mut net = Net::new(layout, seed);
        let (h, wide) = (old.hidden, hidden);
        let from = &self.params;
        let to = &mut net.params;
        for row in 0..old.rows() {
            let src = &from[old.feature_weights()][row * h..][..h];
            to[layout.feature_weights()][row * wide..][..h].copy_from_slice(src);
        }
        // `new` left the biases at 0, the new neurons' among them.
        to[layout.hidden_biases()][..h].copy_from_slice(&from[old.hidden_biases()]);
        to[layout.output_weights()].fill(0.0);
        for bucket in 0..old.buckets {
            for side in 0..2 {
                let src = &from[old.output_weights()][old.bucket_weights(bucket)][side * h..][..h];
                let dst = layout.bucket_weights(bucket).start + side * wide;
                to[layout.output_weights()][dst..][..h].copy_from_slice(src);
            }
        }
        to[layout.output_biases()].copy_from_slice(&from[old.output_biases()]);
        net
    }

    /// The network's output for a position (the engine's score is this times `SCALE`),
    /// leaving both accumulators in `scratch` for [`Net::backward`].
    pub fn forward(&self, features: &Features, scratch: &mut Scratch) -> f32 {
        let p = parts(&self.params, self.layout);
        let h = self.layout.hidden;
        let bucket = self.layout.bucket(features);
        let w_out = &p.output_weights[self.layout.bucket_weights(bucket)];
        let mut out = p.output_biases[bucket];
        for (side, inputs) in [features.stm(), features.other()].into_iter().enumerate() {
            let acc = &mut scratch.acc[side];
            acc.copy_from_slice(p.hidden_biases);
            for &f in inputs {
                let column = &p.feature_weights[f as usize * h..][..h];
                acc.iter_mut().zip(column).for_each(|(a, w)| *a += w);
                if let Some(row) = self.layout.factor_row(f) {
                    let column = &p.feature_weights[row * h..][..h];
                    acc.iter_mut().zip(column).for_each(|(a, w)| *a += w);
                }
            }
            out += screlu_dot(acc, &w_out[side * h..][..h]);
        }
        out
    }

    /// Adds `d_out` times the gradient of the output (at the position of the last
    /// [`Net::forward`] with `scratch`) to `grad`. Only the active inputs' columns of the
    /// feature weights are touched.
    pub fn backward(
        &self,
        features: &Features,
        scratch: &mut Scratch,
        d_out: f32,
        grad: &mut [f32],
    ) {
        let l = self.layout;
        let h = l.hidden;
        let bucket = l.bucket(features);
        let output_weights = &self.params[l.output_weights()][l.bucket_weights(bucket)];
        grad[l.output_biases()][bucket] += d_out;
        for (side, inputs) in [features.stm(), features.other()].into_iter().enumerate() {
            let acc = &scratch.acc[side];
            let w_out = &output_weights[side * h..][..h];
            let g_out = &mut grad[l.output_weights()][l.bucket_weights(bucket)][side * h..][..h];
            for ((g, &a), (&w, d)) in g_out
                .iter_mut()
                .zip(acc)
                .zip(w_out.iter().zip(&mut scratch.d_acc))
            {
                *g += d_out * screlu(a);
                // d screlu(a) / da = 2a inside (0, 1), 0 outside.
                *d = if a > 0.0 && a < 1.0 {
                    d_out * w * 2.0 * a
                } else {
                    0.0
                };
            }
            let d_acc = &scratch.d_acc;
            grad[l.hidden_biases()]
                .iter_mut()
                .zip(d_acc)
                .for_each(|(g, d)| *g += d);
            let g_features = &mut grad[l.feature_weights()];
            for &f in inputs {
                let column = &mut g_features[f as usize * h..][..h];
                column.iter_mut().zip(d_acc).for_each(|(g, d)| *g += d);
                if let Some(row) = l.factor_row(f) {
                    let column = &mut g_features[row * h..][..h];
                    column.iter_mut().zip(d_acc).for_each(|(g, d)| *g += d);
                }
            }
        }
    }

    /// A factorised network as one without factor rows: each input's row plus its factor
    /// row, the other parameters as they are. It gives every position the same output
    /// (up to the order of float additions) with half the additions, so the trainer runs
    /// its passes on it ([`super::batch`]) and folds the gradient back with
    /// [`Layout::fold_factor_gradient`]. `into` keeps its allocation from batch to batch.
    pub fn merge_factors_into(&self, into: &mut Net) {
        let l = self.layout;
        debug_assert!(l.factorised, "only a factorised network has factor rows");
        let merged = Layout {
            factorised: false,
            ..l
        };
        let h = l.hidden;
        into.layout = merged;
        into.params.resize(merged.parameter_count(), 0.0);
        let weights = &self.params[l.feature_weights()];
        for (f, row) in into.params[merged.feature_weights()]
            .chunks_exact_mut(h)
            .enumerate()
        {
            let own = &weights[f * h..][..h];
            let shared = &weights[(l.inputs() + f % FACTOR_ROWS) * h..][..h];
            for ((m, a), b) in row.iter_mut().zip(own).zip(shared) {
                *m = a + b;
            }
        }
        // Hidden biases, output weights and output biases follow the feature weights in
        // both layouts, in the same order.
        let rest = self.params[l.hidden_biases().start..].iter();
        into.params[merged.hidden_biases().start..]
            .iter_mut()
            .zip(rest)
            .for_each(|(m, p)| *m = *p);
    }

    /// Clips the feature and output weights to ±`WEIGHT_CLIP`, the range the engine's
    /// integer arithmetic is built for (see the network module).
    pub fn clip(&mut self) {
        for range in [self.layout.feature_weights(), self.layout.output_weights()] {
            for w in &mut self.params[range] {
                *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
        }
    }
}

/// Per-thread working memory of the forward and backward passes.
#[derive(Clone, Debug)]
pub struct Scratch {
    acc: [Vec<f32>; 2],
    d_acc: Vec<f32>,
}

impl Scratch {
    pub fn new(layout: Layout) -> Scratch {
        let h = layout.hidden;
        Scratch {
            acc: [vec![0.0; h], vec![0.0; h]],
            d_acc: vec![0.0; h],
        }
    }
}

pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// `Σ screlu(acc[i]) · w[i]`, in eight running sums so that the compiler can use vector
/// instructions (one running sum would force it to add in order, one at a time).
fn screlu_dot(acc: &[f32], w: &[f32]) -> f32 {
    let mut sums = [0.0f32; 8];
    let mut a = acc.chunks_exact(8);
    let mut b = w.chunks_exact(8);
    for (x, y) in (&mut a).zip(&mut b) {
        for i in 0..8 {
            sums[i] += screlu(x[i]) * y[i];
        }
    }
    let tail: f32 = a
        .remainder()
        .iter()
        .zip(b.remainder())
        .map(|(&x, &y)| screlu(x) * y)
        .sum();
    sums.iter().sum::<f32>() + tail
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What the network is trained to predict (see the module notes).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Objective {
    /// The weight of the game's result in the target; the search score has `1 − lambda`.
    pub lambda: f32,
    /// `K`: centipawns per unit of the logistic curve.
    pub scale: f32,
}

impl Objective {
    /// The target expected score of a position with this search score and result.
    pub fn target(&self, score: i16, result: f32) -> f32 {
        self.lambda * result + (1.0 - self.lambda) * sigmoid(f32::from(score) / self.scale)
    }

    /// The loss of a network output against a target, and its derivative by the output.
    pub fn loss(&self, out: f32, target: f32) -> (f32, f32) {
        let k = SCALE as f32 / self.scale;
        let p = sigmoid(out * k);
        let error = p - target;
        (error * error, 2.0 * error * p * (1.0 - p) * k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::format::OUTPUT_BUCKETS;
    use crate::learn::bulletformat::{self, GameResult};
    use crate::learn::train::king_layouts;
    use crate::learn::tune::model::tests::random_positions;

    fn records(n: usize, seed: u64) -> Vec<Record> {
        random_positions(n, seed)
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let result = [GameResult::WhiteWin, GameResult::Draw, GameResult::BlackWin][i % 3];
                bulletformat::pack(b, (i as i16 % 7 - 3) * 90, result, false).unwrap()
            })
            .collect()
    }

    /// The loss of one position and the analytic gradient of that loss.
    fn loss_and_gradient(net: &Net, record: &Record, objective: Objective) -> (f32, Vec<f32>) {
        let features = net.layout.features(record);
        let mut scratch = Scratch::new(net.layout);
        let out = net.forward(&features, &mut scratch);
        let target = objective.target(data::score(record), data::result(record));
        let (loss, d_out) = objective.loss(out, target);
        let mut grad = vec![0.0; net.params.len()];
        net.backward(&features, &mut scratch, d_out, &mut grad);
        (loss, grad)
    }

    #[test]
    fn analytic_gradient_matches_finite_differences() {
        // Without king buckets, and with (the inputs then lie in the kings' buckets), and
        // with factorised ones (each input's gradient also goes to its factor row).
        let eight = king_layouts::named("8").unwrap();
        for (kings, factorised) in [(KingBuckets::NONE, false), (eight, false), (eight, true)] {
            gradient_matches_finite_differences(kings, factorised);
        }
    }

    fn gradient_matches_finite_differences(kings: KingBuckets, factorised: bool) {
        // A tiny network whose accumulators sit inside the activation's range (biases
        // 0.5, small feature weights), so that a small nudge does not cross a kink.
        let mut net = Net::new(
            Layout {
                hidden: 4,
                buckets: OUTPUT_BUCKETS,
                kings,
                factorised,
            },
            3,
        );
        let l = net.layout;
        net.params[l.hidden_biases()].fill(0.5);
        for w in &mut net.params[l.feature_weights()] {
            *w *= 0.3;
        }
        for (i, w) in net.params[l.output_weights()].iter_mut().enumerate() {
            *w = if i % 2 == 0 { 0.9 } else { -0.6 };
        }
        net.params[l.output_biases()].fill(0.1);
        let objective = Objective {
            lambda: 0.3,
            scale: 250.0,
        };
        let mut checked = 0;
        for record in &records(6, 8) {
            let (_, grad) = loss_and_gradient(&net, record, objective);
            let features = l.features(record);
            // Weights of each kind: two active inputs of each perspective, an inactive
            // input (gradient 0), every hidden bias, output weights of both halves of
            // every bucket (only the position's own have a gradient), every output bias.
            let inactive = (0..l.inputs() as u16)
                .find(|f| !features.stm().contains(f) && !features.other().contains(f))
                .unwrap();
            let mut indices = Vec::new();
            for f in [
                features.stm()[0],
                features.stm()[3],
                features.other()[1],
                features.other()[5],
                inactive,
            ] {
                indices.extend([f as usize * 4, f as usize * 4 + 3]);
                if let Some(row) = l.factor_row(f) {
                    indices.extend([row * 4, row * 4 + 1]);
                }
            }
            indices.extend(l.hidden_biases());
            indices.extend(l.output_weights().step_by(3));
            indices.extend(l.output_biases());
            for i in indices {
                let eps = 1e-3;
                let mut nudged = net.clone();
                nudged.params[i] += eps;
                let (up, _) = loss_and_gradient(&nudged, record, objective);
                nudged.params[i] -= 2.0 * eps;
                let (down, _) = loss_and_gradient(&nudged, record, objective);
                let numeric = (up - down) / (2.0 * eps);
                let analytic = grad[i];
                assert!(
                    (numeric - analytic).abs() <= 2e-5 + 1e-2 * analytic.abs(),
                    "parameter {i}: analytic {analytic}, numeric {numeric}"
                );
                checked += usize::from(analytic != 0.0);
            }
        }
        assert!(checked >= 90, "{checked} nonzero gradients checked");
    }

    #[test]
    fn a_widened_network_evaluates_as_before_and_its_new_neurons_learn() {
        let eight = king_layouts::named("8").unwrap();
        for (kings, factorised) in [(KingBuckets::NONE, false), (eight, true)] {
            let narrow = Net::new(
                Layout {
                    hidden: 8,
                    buckets: OUTPUT_BUCKETS,
                    kings,
                    factorised,
                },
                5,
            );
            let wide = narrow.widened(16, 6);
            assert_eq!(wide.layout.hidden, 16);
            let (mut s8, mut s16) = (Scratch::new(narrow.layout), Scratch::new(wide.layout));
            let objective = Objective {
                lambda: 0.5,
                scale: 200.0,
            };
            let mut new_output_gradient = 0.0f32;
            for record in &records(30, 9) {
                let features = narrow.layout.features(record);
                let (a, b) = (
                    narrow.forward(&features, &mut s8),
                    wide.forward(&features, &mut s16),
                );
                assert!((a - b).abs() < 1e-5, "narrow {a}, widened {b}");
                let (_, grad) = loss_and_gradient(&wide, record, objective);
                let bucket = wide.layout.bucket(&features);
                let w = &grad[wide.layout.output_weights()][wide.layout.bucket_weights(bucket)];
                // The new neurons of both halves: 8..16 and 24..32.
                new_output_gradient += w[8..16]
                    .iter()
                    .chain(&w[24..32])
                    .map(|g| g.abs())
                    .sum::<f32>();
            }
            assert!(new_output_gradient > 0.0, "the new neurons get no gradient");
        }
    }

    #[test]
    fn features_shared_by_both_perspectives_sum_their_gradients() {
        // The start position's inputs: each perspective has the other's pieces, so the
        // same columns get gradient from both sides; the batch gradient must match the
        // single-position one whatever the thread count. Factorised, the batch runs on
        // the merged network and folds its gradient back into the factor rows: the same
        // numbers as the factorised passes of a single position.
        let four = king_layouts::named("4").unwrap();
        for (kings, factorised) in [(KingBuckets::NONE, false), (four, false), (four, true)] {
            batch_gradient_is_the_mean_of_single_ones(kings, factorised);
        }
    }

    fn batch_gradient_is_the_mean_of_single_ones(kings: KingBuckets, factorised: bool) {
        let recs = records(40, 21);
        let mut net = Net::new(
            Layout {
                hidden: 8,
                buckets: OUTPUT_BUCKETS,
                kings,
                factorised,
            },
            2,
        );
        // Factorised, the buckets' own rows start at 0: give them weights of their own,
        // so that a mix-up of own and factor rows shows.
        let own = net.layout.inputs() * net.layout.hidden;
        for (i, w) in net.params[..own].iter_mut().enumerate() {
            *w += (i % 13) as f32 * 0.004 - 0.024;
        }
        let objective = Objective {
            lambda: 0.5,
            scale: 400.0,
        };
        let mut expected = vec![0.0f32; net.params.len()];
        for r in &recs {
            let (_, g) = loss_and_gradient(&net, r, objective);
            expected
                .iter_mut()
                .zip(&g)
                .for_each(|(e, g)| *e += g / recs.len() as f32);
        }
        let batch: Vec<u32> = (0..recs.len() as u32).collect();
        for threads in [1, 3, 64] {
            let mut workers = crate::learn::train::batch::workers(net.layout, threads);
            let (grad, _) =
                crate::learn::train::batch::gradient(&net, &recs, &batch, objective, &mut workers);
            assert_eq!(grad.len(), expected.len());
            for (i, (g, e)) in grad.iter().zip(&expected).enumerate() {
                assert!(
                    (g - e).abs() <= 1e-6 + 1e-4 * e.abs(),
                    "{kings:?} factorised {factorised}, {threads} threads, {i}: {g} vs {e}"
                );
            }
        }
    }

    #[test]
    fn target_blends_result_and_score() {
        let o = Objective {
            lambda: 0.25,
            scale: 400.0,
        };
        // sigmoid(400 / 400) = 0.7311
        assert!((o.target(400, 1.0) - (0.25 + 0.75 * 0.731_058_6)).abs() < 1e-6);
        assert!((o.target(0, 0.0) - 0.375).abs() < 1e-6);
        // The prediction is sigmoid(out · 400 / K): out = 1 with K = 400 predicts 0.7311.
        let (loss, _) = o.loss(1.0, 0.731_058_6);
        assert!(loss < 1e-12);
    }
}
