//! From the float network to the engine's file: quantisation as the network module
//! specifies it, the file's bytes, and an integer forward pass that follows the engine's
//! formula step by step (a plain reference for the tests and for checking a file; the
//! engine has its own, vectorised).

use super::data::{Features, Record};
use super::model::{Layout, Net, Scratch};
use crate::eval::nnue::format::{
    INPUTS, KingBuckets, Network, QA, QB, SCALE, WEIGHT_CLIP, output_bucket,
};

/// `x · factor`, rounded to the nearest integer and saturated to `i16` (only the hidden
/// biases are not clipped in training; a bias beyond ±128 would be a broken network).
fn to_i16(x: f32, factor: i32) -> i16 {
    (x * factor as f32)
        .round()
        .clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

/// The output bias `b` in the file's units (`QA · QB`), rounded to nearest.
pub fn quantise_bias(b: f64) -> i32 {
    (b * f64::from(QA * QB))
        .round()
        .clamp(i32::MIN.into(), i32::MAX.into()) as i32
}

/// The float network whose weights are exactly `q`'s, laid out for the king buckets
/// `kings`: `q`'s own; any when `q` has none, whose 768 inputs' weights then start every
/// bucket alike (the network it makes evaluates as `q` does, the mirrored half as `q` sees
/// the mirror image); or a finer split of `q`'s (each of the new buckets within one of
/// `q`'s, as `8` splits `4`), each new bucket starting as the one it was split from, so
/// that the network still evaluates as `q` does. That is how a trained network seeds a
/// larger input layer, or a run on new data (`tarpon train --init`). `factorised`: `q`'s
/// weights go to the factor rows if it has no buckets (the buckets' own rows start at 0),
/// else to the buckets' rows (the factor rows start at 0).
pub fn dequantise(q: &Network, kings: KingBuckets, factorised: bool) -> Result<Net, String> {
    let parents = if q.king_buckets == KingBuckets::NONE {
        vec![0; kings.count()]
    } else {
        split_from(&q.king_buckets, &kings).ok_or(
            "its king buckets differ from --king-buckets, which does not split each of them",
        )?
    };
    let layout = Layout {
        hidden: q.hidden_biases.len(),
        buckets: q.output_biases.len(),
        kings,
        factorised,
    };
    // Every weight is set below, so it starts from zeros, not from `Net::new`'s random ones.
    let mut net = Net {
        layout,
        params: vec![0.0; layout.parameter_count()],
    };
    let l = net.layout;
    let h = l.hidden;
    let features = &mut net.params[l.feature_weights()];
    let to = match (factorised, q.king_buckets == KingBuckets::NONE) {
        // Into the factor rows, which every bucket shares.
        (true, true) => &mut features[l.inputs() * h..],
        // A network without buckets is one bucket's worth, repeated.
        (false, _) => features,
        (true, false) => &mut features[..l.inputs() * h],
    };
    // Each bucket's rows from those of the bucket it comes from (a network without
    // buckets is one bucket's worth).
    let bucket_len = INPUTS * h;
    for (rows, &parent) in to.chunks_mut(bucket_len).zip(&parents) {
        let from = &q.feature_weights[parent * bucket_len..(parent + 1) * bucket_len];
        for (p, &x) in rows.iter_mut().zip(from) {
            *p = f32::from(x) / QA as f32;
        }
    }
    let sections = [
        (l.hidden_biases(), &q.hidden_biases, QA),
        (l.output_weights(), &q.output_weights, QB),
    ];
    for (range, values, factor) in sections {
        for (p, &x) in net.params[range].iter_mut().zip(values) {
            *p = f32::from(x) / factor as f32;
        }
    }
    for (p, &b) in net.params[l.output_biases()]
        .iter_mut()
        .zip(&q.output_biases)
    {
        *p = b as f32 / (QA * QB) as f32;
    }
    Ok(net)
}

/// For each bucket of `finer`, the bucket of `coarser` it lies in, if every king square
/// of a `finer` bucket is in the same `coarser` bucket (and both mirror alike).
fn split_from(coarser: &KingBuckets, finer: &KingBuckets) -> Option<Vec<usize>> {
    if coarser.mirrored() != finer.mirrored() {
        return None;
    }
    let mut parents = vec![None; finer.count()];
    for (&new, &old) in finer.map().iter().zip(coarser.map()) {
        let parent = &mut parents[usize::from(new)];
        if parent.is_some_and(|p| p != usize::from(old)) {
            return None;
        }
        *parent = Some(usize::from(old));
    }
    Some(parents.into_iter().map(|p| p.unwrap_or(0)).collect())
}

/// The feature weights as the network file has them: factorised, each input's own row
/// plus its factor row ([`Net::merge_factors_into`]), clipped as training clips a weight.
fn merged_feature_weights(net: &Net) -> Vec<f32> {
    let l = net.layout;
    if !l.factorised {
        return net.params[l.feature_weights()].to_vec();
    }
    let mut merged = Net {
        layout: l,
        params: Vec::new(),
    };
    net.merge_factors_into(&mut merged);
    merged.params.truncate(merged.layout.feature_weights().end);
    for w in &mut merged.params {
        *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
    }
    merged.params
}

/// The quantised network. Its vectors have the float network's shape, which need not be
/// the engine's (see [`Network::to_bytes`]).
pub fn quantise(net: &Net) -> Network {
    let l = net.layout;
    let p = &net.params;
    Network {
        king_buckets: l.kings,
        feature_weights: merged_feature_weights(net)
            .iter()
            .map(|&w| to_i16(w, QA))
            .collect(),
        hidden_biases: p[l.hidden_biases()]
            .iter()
            .map(|&b| to_i16(b, QA))
            .collect(),
        output_weights: p[l.output_weights()]
            .iter()
            .map(|&w| to_i16(w, QB))
            .collect(),
        output_biases: p[l.output_biases()]
            .iter()
            .map(|&b| quantise_bias(f64::from(b)))
            .collect(),
    }
}

/// The quantised network with its output layer rounded to stay close to the float
/// network on `sample` (see [`super::rounding`]); nearest rounding without a sample.
pub fn quantise_on(net: &Net, sample: &[Record]) -> Network {
    let mut quantised = quantise(net);
    super::rounding::fit_output_layer(net, &mut quantised, sample);
    quantised
}

/// The engine's score in centipawns for a position, computed in integers exactly as the
/// network module's documentation says: accumulators of `i16` weights, clipped to
/// `[0, QA]`, `Σ a·a·w` in wrapping `i32` with the position's output bucket's weights,
/// then `(sum / QA + bias) · SCALE / (QA · QB)` with divisions towards zero.
pub fn integer_score(net: &Network, features: &Features) -> i32 {
    let h = net.hidden_biases.len();
    let bucket = output_bucket(features.count, net.output_biases.len());
    let weights = &net.output_weights[bucket * 2 * h..][..2 * h];
    let mut sum = 0i32;
    for (side, inputs) in [features.stm(), features.other()].into_iter().enumerate() {
        let acc = accumulator(net, inputs);
        for (a, &w) in acc.iter().zip(&weights[side * h..][..h]) {
            let a = a.clamp(&0, &QA);
            sum = sum.wrapping_add((a * a).wrapping_mul(i32::from(w)));
        }
    }
    (sum / QA + net.output_biases[bucket]) * SCALE / (QA * QB)
}

/// The accumulator of a perspective with these active inputs: the hidden biases plus
/// the inputs' columns (in `i32`; the engine's `i16` holds them, see the network module).
pub fn accumulator(net: &Network, inputs: &[u16]) -> Vec<i32> {
    let h = net.hidden_biases.len();
    let mut acc: Vec<i32> = net.hidden_biases.iter().map(|&b| i32::from(b)).collect();
    for &f in inputs {
        let column = &net.feature_weights[f as usize * h..][..h];
        acc.iter_mut()
            .zip(column)
            .for_each(|(a, &w)| *a += i32::from(w));
    }
    acc
}

/// How far the quantised network's scores are from the float network's, in centipawns
/// over `records`: the mean and the largest difference.
pub fn rounding_error(net: &Net, quantised: &Network, records: &[Record]) -> (f64, f64) {
    let mut scratch = Scratch::new(net.layout);
    let (mut total, mut worst) = (0.0f64, 0.0f64);
    for record in records {
        let features = net.layout.features(record);
        let float = f64::from(net.forward(&features, &mut scratch)) * f64::from(SCALE);
        let difference = (float - f64::from(integer_score(quantised, &features))).abs();
        total += difference;
        worst = worst.max(difference);
    }
    (total / records.len().max(1) as f64, worst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;
    use crate::chess::types::Color;
    use crate::eval::nnue::format::{HIDDEN, OUTPUT_BUCKETS, file_size};
    use crate::learn::bulletformat::{self, GameResult};
    use crate::learn::train::data;
    use crate::learn::train::king_layouts;
    use crate::learn::train::model::Layout;
    use crate::learn::tune::model::tests::random_positions;

    /// Features of positions from random games.
    fn positions(n: usize) -> Vec<Features> {
        random_positions(n, 5)
            .iter()
            .map(|b| {
                let record = bulletformat::pack(b, 0, GameResult::Draw, false).unwrap();
                data::features(&record, &KingBuckets::NONE)
            })
            .collect()
    }

    /// A network with weights of a trained network's sizes: accumulators spread over
    /// the activation's range and beyond, output weights of about 0.1 (those of a
    /// network trained on Tarpon's data are 0.05 to 0.1 on average).
    fn realistic(hidden: usize, seed: u64) -> Net {
        let mut net = Net::new(
            Layout {
                hidden,
                buckets: OUTPUT_BUCKETS,
                kings: KingBuckets::NONE,
                factorised: false,
            },
            seed,
        );
        let l = net.layout;
        let mut rng = crate::rng::SplitMix64::new(seed ^ 77);
        let mut uniform =
            |spread: f32| ((rng.next_u64() >> 40) as f32 / 16_777_216.0 * 2.0 - 1.0) * spread;
        for b in &mut net.params[l.hidden_biases()] {
            *b = 0.3 + uniform(0.3);
        }
        for w in &mut net.params[l.output_weights()] {
            *w = uniform(0.2);
        }
        net.params[l.output_biases()].fill(0.05);
        net
    }

    #[test]
    fn integer_score_agrees_with_the_float_network() {
        // A network of the engine's size trained for a few epochs (on positions labelled
        // by material), and positions from random games.
        let records = crate::learn::train::tests::material_records(3000, 8);
        let opts = crate::learn::train::Options {
            epochs: 4,
            batch_size: 128,
            lr: 0.005,
            ..Default::default()
        };
        let (state, _) = crate::learn::train::tests::trained(&records, &opts);
        let net = state.net;
        let quantised = quantise(&net);
        let exact = dequantise(&quantised, KingBuckets::NONE, false).unwrap();
        let mut scratch = Scratch::new(net.layout);
        let (mut worst, mut total) = (0.0f32, 0.0f32);
        let positions = positions(500);
        for f in &positions {
            let int = integer_score(&quantised, f) as f32;
            // The integer arithmetic is the float network of the rounded weights, up to
            // its two divisions towards zero (less than a centipawn each).
            let rounded = exact.forward(f, &mut scratch) * SCALE as f32;
            assert!((rounded - int).abs() < 2.0, "{rounded} vs {int}");
            let float = net.forward(f, &mut scratch) * SCALE as f32;
            worst = worst.max((float - int).abs());
            total += (float - int).abs();
        }
        let mean = total / positions.len() as f32;
        println!("float vs integer: mean {mean:.2} cp, worst {worst:.2} cp");
        // Against the unrounded network: the weights move by up to half a step, 1/510
        // for the accumulator's, 1/128 for the output's (the main source of the
        // difference: hundreds of activations times their weights' rounding errors). On
        // networks trained on Tarpon's games the mean is 3 to 4 cp.
        assert!(mean < 10.0 && worst < 40.0, "mean {mean} worst {worst}");
    }

    #[test]
    fn a_network_seeds_a_finer_split_of_its_king_buckets_to_evaluate_as_it_did() {
        // Four buckets whose weights differ, from a network without buckets.
        let four = king_layouts::named("4").unwrap();
        let mut seeded = dequantise(&quantise(&realistic(32, 6)), four, false).unwrap();
        let mut rng = crate::rng::SplitMix64::new(3);
        for w in &mut seeded.params[seeded.layout.feature_weights()] {
            *w += (rng.unit() as f32 - 0.5) * 0.05;
        }
        let q = quantise(&seeded);
        let coarse = dequantise(&q, four, false).unwrap();
        for (finer, factorised) in [("8", false), ("16", true)] {
            let kings = king_layouts::named(finer).unwrap();
            let split = dequantise(&q, kings, factorised).unwrap();
            let (mut a, mut b) = (Scratch::new(coarse.layout), Scratch::new(split.layout));
            for board in random_positions(200, 4) {
                let record = bulletformat::pack(&board, 0, GameResult::Draw, false).unwrap();
                let x = coarse.forward(&data::features(&record, &four), &mut a);
                let y = split.forward(&data::features(&record, &kings), &mut b);
                assert!((x - y).abs() < 1e-4, "{finer}: {x} vs {y}");
            }
        }
        // Not the other way: eight buckets do not fit into four, nor four into none.
        let eight = quantise(&dequantise(&q, king_layouts::named("8").unwrap(), false).unwrap());
        let error = dequantise(&eight, four, false).unwrap_err();
        assert!(error.contains("does not split"), "{error}");
        assert!(dequantise(&q, KingBuckets::NONE, false).is_err());
    }

    #[test]
    fn a_network_without_king_buckets_seeds_every_bucket_to_evaluate_as_it_did() {
        let q = quantise(&realistic(32, 6));
        let plain = dequantise(&q, KingBuckets::NONE, false).unwrap();
        let kings = king_layouts::named("8").unwrap();
        let seeded = dequantise(&q, kings, false).unwrap();
        assert_eq!(seeded.layout.kings, kings);
        // Factorised: the plain weights in the shared rows, the buckets' own at 0.
        let factorised = dequantise(&q, kings, true).unwrap();
        assert!(factorised.layout.factorised);
        let mut scratch = Scratch::new(seeded.layout);
        let mut factorised_scratch = Scratch::new(factorised.layout);
        let mut plain_scratch = Scratch::new(plain.layout);
        let (mut west, mut east) = (0, 0);
        for board in random_positions(400, 9) {
            let record = bulletformat::pack(&board, 0, GameResult::Draw, false).unwrap();
            let files = [Color::White, Color::Black].map(|c| board.king_square(c).file());
            // Both kings on files a-d: the bucketed inputs are the plain ones, moved to
            // their bucket; both on e-h: those of the mirror image.
            let mirrored = if files.iter().all(|&f| f < 4) {
                west += 1;
                false
            } else if files.iter().all(|&f| f >= 4) {
                east += 1;
                true
            } else {
                continue;
            };
            let a = seeded.forward(&data::features(&record, &kings), &mut scratch);
            let f = factorised.forward(&data::features(&record, &kings), &mut factorised_scratch);
            assert!((a - f).abs() < 1e-4, "{a} vs {f}");
            let b = plain.forward(
                &data::features_of(&record, mirrored, &KingBuckets::NONE),
                &mut plain_scratch,
            );
            assert!((a - b).abs() < 1e-4, "{a} vs {b}");
        }
        assert!(west > 20 && east > 20, "{west} {east}");
        // A network's own king buckets are kept; other ones are refused.
        let again = dequantise(&quantise(&seeded), kings, false).unwrap();
        assert_eq!(again.params, seeded.params);
        let other = king_layouts::named("4").unwrap();
        assert!(dequantise(&quantise(&seeded), other, false).is_err());
        // The file of a factorised network has each input's own row plus its shared row,
        // clipped as a trained weight is.
        let mut written = quantise(&factorised);
        assert_eq!(written.feature_weights, quantise(&seeded).feature_weights);
        assert_eq!(written.king_buckets, kings);
        let mut big = factorised.clone();
        let shared = big.layout.factor_row(0).unwrap() * big.layout.hidden;
        big.params[0] = 1.5;
        big.params[shared] = 1.5;
        written = quantise(&big);
        assert_eq!(written.feature_weights[0], to_i16(WEIGHT_CLIP, QA));
    }

    #[test]
    fn the_file_is_the_engine_s_format() {
        let net = realistic(HIDDEN, 4);
        let quantised = quantise(&net);
        let bytes = quantised.to_bytes();
        assert_eq!(bytes.len(), file_size(HIDDEN, OUTPUT_BUCKETS, 1));
        assert_eq!(Network::from_bytes(&bytes), Ok(quantised.clone()));
        assert!(crate::eval::nnue::Net::<HIDDEN>::from_bytes(&bytes, "x").is_ok());
        // Clipped weights stay inside what the engine's arithmetic expects.
        assert!(quantised.feature_weights.iter().all(|w| w.abs() <= 505));
        assert!(quantised.output_weights.iter().all(|w| w.abs() <= 127));
        // Other shapes: the same layout, which this build's engine refuses by its header,
        // naming both shapes.
        let shape = |hidden, buckets, kings| {
            let layout = Layout {
                hidden,
                buckets,
                kings,
                factorised: false,
            };
            quantise(&Net::new(layout, 1)).to_bytes()
        };
        let engine_error = |bytes: &[u8]| {
            crate::eval::nnue::Net::<HIDDEN>::from_bytes(bytes, "x")
                .unwrap_err()
                .to_string()
        };
        let small = shape(32, OUTPUT_BUCKETS, KingBuckets::NONE);
        assert_eq!(small.len(), file_size(32, OUTPUT_BUCKETS, 1));
        assert_eq!(small.len(), 92 + 2 * (INPUTS * 32 + 32 + 8 * 64) + 4 * 8);
        assert!(Network::from_bytes(&small).is_ok());
        let e = engine_error(&small);
        assert!(
            e.contains("network is 768 -> 32x2 -> 8") && e.contains(&format!("-> {HIDDEN}x2 -> 8")),
            "{e}"
        );
        let one_output = shape(HIDDEN, 1, KingBuckets::NONE);
        assert_eq!(one_output.len(), file_size(HIDDEN, 1, 1));
        let e = engine_error(&one_output);
        assert!(e.contains(&format!("-> {HIDDEN}x2 -> 1,")), "{e}");
        // King buckets: any count loads in an engine of the same width.
        let kings = king_layouts::named("16").unwrap();
        let bucketed = shape(HIDDEN, OUTPUT_BUCKETS, kings);
        assert_eq!(bucketed.len(), file_size(HIDDEN, OUTPUT_BUCKETS, 16));
        let header = crate::eval::nnue::format::Header::parse(&bucketed).unwrap();
        assert_eq!(header.king_buckets, kings);
        assert!(crate::eval::nnue::Net::<HIDDEN>::from_bytes(&bucketed, "x").is_ok());
        let wide = shape(2 * HIDDEN, OUTPUT_BUCKETS, kings);
        let e = engine_error(&wide);
        assert!(
            e.contains(&format!(
                "768x16 king buckets, mirrored -> {}x2 -> 8",
                2 * HIDDEN
            )),
            "{e}"
        );
    }

    #[test]
    fn quantisation_follows_the_factors() {
        let layout = Layout {
            hidden: 2,
            buckets: OUTPUT_BUCKETS,
            kings: KingBuckets::NONE,
            factorised: false,
        };
        let mut net = Net::new(layout, 1);
        let l = net.layout;
        net.params[l.feature_weights()][0] = 0.5;
        net.params[l.hidden_biases()][1] = -0.25;
        net.params[l.output_weights()][3] = 1.5;
        net.params[l.output_biases()][7] = 0.125;
        let q = quantise(&net);
        assert_eq!(q.feature_weights[0], 128); // 127.5 rounds away from zero
        assert_eq!(q.hidden_biases[1], -64);
        assert_eq!(q.output_weights[3], 96);
        assert_eq!(q.output_biases[7], 2040);
        let start = data::features(
            &bulletformat::pack(
                &fen::parse(fen::START_FEN, false).unwrap(),
                0,
                GameResult::Draw,
                false,
            )
            .unwrap(),
            &KingBuckets::NONE,
        );
        // Only the output bias of the position's bucket (7: 32 pieces) reaches the
        // output of a network without hidden weights.
        let mut empty = Net::new(layout, 1);
        empty.params.fill(0.0);
        empty.params[l.output_biases()][7] = 0.125;
        empty.params[l.output_biases()][6] = -0.5;
        assert_eq!(integer_score(&quantise(&empty), &start), 50);
    }
}
