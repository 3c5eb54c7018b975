//! The evaluation as the tuner sees it: a function of the weights, rebuilt for each
//! position from the coefficients the tracer recorded, with its gradient.
//!
//! For one position, with weights `w[i] = (mg, eg)`:
//!
//! ```text
//! mg = sum over linear weights of  c[i] * w[i].mg
//!      - Pmg(Dw.mg) + Pmg(Db.mg)          Dc = sum over danger weights of d[c][i] * w[i]
//! eg = (the same with .eg and Peg)        Pmg(d) = max(d,0)^2 / 720, Peg(d) = max(d,0) / 20
//! E  = (mg * phase + eg * (24 - phase)) / 24  *  scale / 64  *  (200 - clock) / 200
//! ```
//!
//! where `c[i]` is White's count minus Black's, `Dw` and `Db` the danger against White's
//! and Black's king, and `scale` the endgame scale factor for whichever side `E` favours
//! (both candidates are recorded). This is the engine's evaluation in real numbers (the
//! engine rounds at each division), so it can be differentiated exactly:
//! `dE/dw` is `c[i]` times the blend factors for a linear weight, and goes through the
//! derivative of the danger curve for a danger weight.

use crate::eval::king::{DANGER_EG_DIVISOR, DANGER_MG_DIVISOR};
use crate::eval::params::{INFO, Kind};
use crate::eval::{FIFTY_MOVE_BASE, MAX_PHASE, SCALE_MAX, Trace};

/// One weight's coefficient in one position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Feature {
    pub index: u16,
    pub coef: i16,
}

/// One training position: where its features are, how its totals blend, and the target.
#[derive(Copy, Clone, Debug)]
pub struct Entry {
    /// First feature in [`Dataset::features`]: `linear` linear features, then the danger
    /// features against White's king, then those against Black's.
    start: u64,
    linear: u16,
    danger: [u16; 2],
    blend: Blend,
    /// The game result for White (0, 0.5, 1).
    pub result: f32,
    /// The recorded search score for White, in centipawns.
    pub score: f32,
}

/// How a position's totals become its score (see the module notes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Blend {
    pub phase: u8,
    /// Scale factor if White, or Black, is the side ahead.
    pub scale: [u8; 2],
    pub halfmove: u8,
}

/// Training positions and their features, packed into two vectors.
#[derive(Default, Debug)]
pub struct Dataset {
    pub entries: Vec<Entry>,
    pub features: Vec<Feature>,
}

/// Which kind each flat index is, from the registry.
pub fn kinds() -> Vec<Kind> {
    INFO.iter()
        .flat_map(|info| std::iter::repeat_n(info.kind, info.len))
        .collect()
}

impl Dataset {
    /// Adds a position from its trace; `result` and `score` from White's point of view.
    pub fn push(&mut self, trace: &Trace, kinds: &[Kind], result: f32, score: f32) {
        let feature = |i: usize, coef: i32| Feature {
            index: i as u16,
            coef: coef.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
        };
        let mut linear = Vec::new();
        let mut danger = [Vec::new(), Vec::new()];
        for (i, c) in trace.coef.iter().enumerate() {
            match kinds[i] {
                Kind::Linear if c[0] != c[1] => linear.push(feature(i, c[0] - c[1])),
                Kind::Danger => {
                    for side in 0..2 {
                        if c[side] != 0 {
                            danger[side].push(feature(i, c[side]));
                        }
                    }
                }
                _ => {}
            }
        }
        let b = &trace.blend;
        self.push_features(
            &linear,
            [&danger[0], &danger[1]],
            Blend {
                phase: b.phase as u8,
                scale: [trace.scale_if[0] as u8, trace.scale_if[1] as u8],
                halfmove: b.halfmove as u8,
            },
            result,
            score,
        );
    }

    /// Adds a position from its features: linear ones (White minus Black), danger ones
    /// against White's and Black's king.
    pub fn push_features(
        &mut self,
        linear: &[Feature],
        danger: [&[Feature]; 2],
        blend: Blend,
        result: f32,
        score: f32,
    ) {
        let start = self.features.len() as u64;
        self.features.extend_from_slice(linear);
        self.features.extend_from_slice(danger[0]);
        self.features.extend_from_slice(danger[1]);
        self.entries.push(Entry {
            start,
            linear: linear.len() as u16,
            danger: [danger[0].len() as u16, danger[1].len() as u16],
            blend,
            result,
            score,
        });
    }

    /// Appends another dataset (built by another thread).
    pub fn append(&mut self, mut other: Dataset) {
        let offset = self.features.len() as u64;
        for e in &mut other.entries {
            e.start += offset;
        }
        self.entries.append(&mut other.entries);
        self.features.append(&mut other.features);
    }

    /// For each of the `n` flat indices, in how many positions its coefficient is not 0.
    pub fn occurrences(&self, n: usize) -> Vec<u32> {
        let mut counts = vec![0u32; n];
        for e in &self.entries {
            for part in self.parts(e) {
                for f in part {
                    counts[f.index as usize] += 1;
                }
            }
        }
        counts
    }

    fn parts(&self, e: &Entry) -> [&[Feature]; 3] {
        let start = e.start as usize;
        let a = start + e.linear as usize;
        let b = a + e.danger[0] as usize;
        let c = b + e.danger[1] as usize;
        [
            &self.features[start..a],
            &self.features[a..b],
            &self.features[b..c],
        ]
    }
}

/// Weights as real numbers, `[mg, eg]` per flat index.
pub type Weights = [[f64; 2]];

/// The pieces of one evaluation that the gradient needs.
struct Forward {
    value: f64,
    /// dE/dmg and dE/deg.
    blend: [f64; 2],
    /// The danger sums against White's and Black's king.
    danger: [[f64; 2]; 2],
}

fn penalty(d: [f64; 2]) -> [f64; 2] {
    let (mg, eg) = (d[0].max(0.0), d[1].max(0.0));
    [
        mg * mg / DANGER_MG_DIVISOR as f64,
        eg / DANGER_EG_DIVISOR as f64,
    ]
}

fn penalty_slope(d: [f64; 2]) -> [f64; 2] {
    [
        2.0 * d[0].max(0.0) / DANGER_MG_DIVISOR as f64,
        if d[1] > 0.0 {
            1.0 / DANGER_EG_DIVISOR as f64
        } else {
            0.0
        },
    ]
}

fn sum(features: &[Feature], w: &Weights) -> [f64; 2] {
    features.iter().fold([0.0, 0.0], |acc, f| {
        let [mg, eg] = w[f.index as usize];
        let c = f.coef as f64;
        [acc[0] + c * mg, acc[1] + c * eg]
    })
}

impl Dataset {
    fn forward(&self, e: &Entry, w: &Weights) -> Forward {
        let [linear, white_king, black_king] = self.parts(e);
        let mut total = sum(linear, w);
        let danger = [sum(white_king, w), sum(black_king, w)];
        let (pw, pb) = (penalty(danger[0]), penalty(danger[1]));
        total[0] += pb[0] - pw[0];
        total[1] += pb[1] - pw[1];
        let phase = e.blend.phase as f64 / MAX_PHASE as f64;
        let tapered = total[0] * phase + total[1] * (1.0 - phase);
        let ahead = if tapered >= 0.0 { 0 } else { 1 };
        let scale = e.blend.scale[ahead] as f64 / SCALE_MAX as f64;
        let fifty = (FIFTY_MOVE_BASE - e.blend.halfmove as i32) as f64 / FIFTY_MOVE_BASE as f64;
        let factor = scale * fifty;
        Forward {
            value: tapered * factor,
            blend: [phase * factor, (1.0 - phase) * factor],
            danger,
        }
    }

    /// The model's evaluation of entry `e` (White's view, centipawns).
    pub fn evaluate(&self, e: &Entry, w: &Weights) -> f64 {
        self.forward(e, w).value
    }

    /// Adds `dL/dE * dE/dw` of entry `e` to `grad`, where `d_loss` turns the value `E`
    /// into `dL/dE`.
    fn backward(
        &self,
        e: &Entry,
        w: &Weights,
        grad: &mut Weights,
        mut d_loss: impl FnMut(f64) -> f64,
    ) {
        let f = self.forward(e, w);
        let d_value = d_loss(f.value);
        if d_value == 0.0 {
            return;
        }
        let [linear, white_king, black_king] = self.parts(e);
        let g = [d_value * f.blend[0], d_value * f.blend[1]];
        for feat in linear {
            let c = feat.coef as f64;
            let slot = &mut grad[feat.index as usize];
            slot[0] += g[0] * c;
            slot[1] += g[1] * c;
        }
        // White's king danger is subtracted from White's score, Black's added.
        for (features, danger, sign) in [
            (white_king, f.danger[0], -1.0),
            (black_king, f.danger[1], 1.0),
        ] {
            let slope = penalty_slope(danger);
            let h = [sign * g[0] * slope[0], sign * g[1] * slope[1]];
            if h == [0.0, 0.0] {
                continue;
            }
            for feat in features {
                let c = feat.coef as f64;
                let slot = &mut grad[feat.index as usize];
                slot[0] += h[0] * c;
                slot[1] += h[1] * c;
            }
        }
    }
}

/// The win probability a score in centipawns stands for, with scale `k`.
#[inline]
pub fn sigmoid(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + (-k * score).exp())
}

/// What the tuner fits: the game result, optionally blended with the win probability of
/// the recorded search score (`score_weight` of it).
#[derive(Copy, Clone, Debug)]
pub struct Target {
    pub k: f64,
    pub score_weight: f64,
}

impl Target {
    pub fn of(&self, e: &Entry) -> f64 {
        let result = e.result as f64;
        if self.score_weight == 0.0 {
            result
        } else {
            (1.0 - self.score_weight) * result + self.score_weight * sigmoid(self.k, e.score as f64)
        }
    }
}

/// Mean squared error between the predicted win probability and the target over the
/// entries `indices`.
pub fn loss(data: &Dataset, w: &Weights, target: Target, indices: &[u32]) -> f64 {
    let total: f64 = indices
        .iter()
        .map(|&i| {
            let e = &data.entries[i as usize];
            let p = sigmoid(target.k, data.evaluate(e, w));
            (p - target.of(e)).powi(2)
        })
        .sum();
    total / indices.len().max(1) as f64
}

/// The gradient of the summed squared error over `indices` (not yet divided by their
/// number), added into `grad`; returns the summed squared error.
pub fn gradient(
    data: &Dataset,
    w: &Weights,
    target: Target,
    indices: &[u32],
    grad: &mut Weights,
) -> f64 {
    let mut error = 0.0;
    for &i in indices {
        let e = &data.entries[i as usize];
        let t = target.of(e);
        data.backward(e, w, grad, |value| {
            let p = sigmoid(target.k, value);
            error += (p - t).powi(2);
            2.0 * (p - t) * p * (1.0 - p) * target.k
        });
    }
    error
}

/// The `k` that best fits the current evaluation to the game results (golden-section search
/// on the loss, which is unimodal in `k` for any sensible data). Always against results:
/// against a blend with the recorded search scores the fit is biased toward small `k`
/// (with scores alone it degenerates, since a flat sigmoid matches a flat sigmoid).
pub fn fit_k(data: &Dataset, w: &Weights, indices: &[u32]) -> f64 {
    let evals: Vec<(f64, &Entry)> = indices
        .iter()
        .map(|&i| {
            let e = &data.entries[i as usize];
            (data.evaluate(e, w), e)
        })
        .collect();
    let loss_at = |k: f64| {
        let target = Target {
            k,
            score_weight: 0.0,
        };
        evals
            .iter()
            .map(|(v, e)| (sigmoid(k, *v) - target.of(e)).powi(2))
            .sum::<f64>()
    };
    golden_section_min(1e-4, 0.05, loss_at)
}

/// The `x` in `[lo, hi]` where `f` is least, for an `f` with a single minimum there
/// (golden-section search: 60 steps shrink the interval to 0.618^60, about 3e-13, of
/// its width, each step evaluating `f` once).
pub fn golden_section_min(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..60 {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - ratio * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + ratio * (hi - lo);
            fb = f(b);
        }
    }
    (lo + hi) / 2.0
}

/// Adam: per-parameter step sizes from running averages of the gradient and its square.
pub struct Adam {
    lr: f64,
    step: i32,
    m: Vec<[f64; 2]>,
    v: Vec<[f64; 2]>,
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-8;

impl Adam {
    pub fn new(n: usize, lr: f64) -> Adam {
        Adam {
            lr,
            step: 0,
            m: vec![[0.0; 2]; n],
            v: vec![[0.0; 2]; n],
        }
    }

    pub fn set_lr(&mut self, lr: f64) {
        self.lr = lr;
    }

    /// One step against `grad`.
    pub fn update(&mut self, w: &mut Weights, grad: &Weights) {
        self.step += 1;
        let c1 = 1.0 - BETA1.powi(self.step);
        let c2 = 1.0 - BETA2.powi(self.step);
        for i in 0..w.len() {
            for half in 0..2 {
                let g = grad[i][half];
                let m = &mut self.m[i][half];
                let v = &mut self.v[i][half];
                *m = BETA1 * *m + (1.0 - BETA1) * g;
                *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                w[i][half] -= self.lr * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::chess::fen::{self, START_FEN};
    use crate::chess::movegen::legal_moves;
    use crate::chess::{Board, Color};
    use crate::eval::{self, EVAL_LIMIT, params};

    /// Positions from random games, for checks over many kinds of position.
    pub fn random_positions(count: usize, seed: u64) -> Vec<Board> {
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut out = Vec::new();
        while out.len() < count {
            let mut b = fen::parse(START_FEN, false).unwrap();
            for _ in 0..(next() % 120) {
                let moves = legal_moves(&b);
                if moves.is_empty() {
                    break;
                }
                b.play(moves.as_slice()[(next() % moves.len() as u64) as usize]);
            }
            out.push(b);
        }
        out
    }

    fn current_weights() -> Vec<[f64; 2]> {
        params::values()
            .iter()
            .map(|s| [s.mg() as f64, s.eg() as f64])
            .collect()
    }

    fn dataset(boards: &[Board]) -> (Dataset, Vec<i32>) {
        let kinds = kinds();
        let mut data = Dataset::default();
        let mut scores = Vec::new();
        for b in boards {
            let t = eval::traced(b);
            data.push(&t, &kinds, 0.5, 0.0);
            scores.push(t.blend.white);
        }
        (data, scores)
    }

    #[test]
    fn the_model_is_the_engines_evaluation() {
        let boards = random_positions(3000, 7);
        let (data, scores) = dataset(&boards);
        let w = current_weights();
        let mut danger_seen = 0;
        for ((e, b), score) in data.entries.iter().zip(&boards).zip(&scores) {
            if score.abs() >= EVAL_LIMIT {
                continue;
            }
            let model = data.evaluate(e, &w);
            // The engine rounds towards zero at each of a few divisions.
            assert!(
                (model - *score as f64).abs() <= 4.0,
                "{}: engine {score}, model {model}",
                fen::to_fen(b)
            );
            danger_seen += (e.danger != [0, 0]) as usize;
        }
        assert!(danger_seen > 100);
        // Colours: the model of a position whose side to move is Black still reads White's
        // view, like the engine's trace.
        assert!(boards.iter().any(|b| b.side_to_move() == Color::Black));
    }

    #[test]
    fn gradient_matches_finite_differences() {
        // Positions with king danger and with every scale and phase.
        let boards: Vec<Board> = random_positions(400, 11);
        let (mut data, _) = dataset(&boards);
        for (i, e) in data.entries.iter_mut().enumerate() {
            e.result = (i % 3) as f32 / 2.0;
        }
        let w = current_weights();
        let target = Target {
            k: 0.006,
            score_weight: 0.0,
        };
        let all: Vec<u32> = (0..data.entries.len() as u32).collect();
        let mut grad = vec![[0.0; 2]; w.len()];
        gradient(&data, &w, target, &all, &mut grad);
        let n = all.len() as f64;
        let mut checked = 0;
        let mut danger_checked = 0;
        for info in params::INFO {
            // The first value of each weight that has any gradient.
            let Some(i) = (info.offset..info.offset + info.len).find(|&i| grad[i] != [0.0, 0.0])
            else {
                continue;
            };
            for half in 0..2 {
                let analytic = grad[i][half] / n;
                let h = 0.01;
                let mut plus = w.clone();
                plus[i][half] += h;
                let mut minus = w.clone();
                minus[i][half] -= h;
                let numeric = (loss(&data, &plus, target, &all)
                    - loss(&data, &minus, target, &all))
                    / (2.0 * h);
                let tolerance = 1e-3 * analytic.abs().max(numeric.abs()) + 1e-9;
                assert!(
                    (analytic - numeric).abs() <= tolerance,
                    "{} [{}] half {half}: analytic {analytic}, numeric {numeric}",
                    info.name,
                    i - info.offset
                );
                checked += 1;
                danger_checked += (info.kind == Kind::Danger) as usize;
            }
        }
        assert!(checked > 60, "{checked}");
        assert!(danger_checked >= 6, "{danger_checked}");
    }

    #[test]
    fn fits_k_to_data_made_with_a_known_k() {
        let mut data = Dataset::default();
        let blend = Blend {
            phase: 12,
            scale: [64, 64],
            halfmove: 0,
        };
        for i in -200..=200 {
            let feature = Feature {
                index: 0,
                coef: i as i16,
            };
            let p = sigmoid(0.004, 2.0 * i as f64) as f32;
            data.push_features(&[feature], [&[], &[]], blend, p, 0.0);
        }
        let w = [[2.0, 2.0]];
        let all: Vec<u32> = (0..data.entries.len() as u32).collect();
        let k = fit_k(&data, &w, &all);
        assert!((k - 0.004).abs() < 1e-5, "{k}");
    }
}
