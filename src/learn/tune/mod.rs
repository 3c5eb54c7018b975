//! `tarpon tune`: Texel tuning of every evaluation weight.
//!
//! 1. Read positions with their game results from `bulletformat` files ([`data`]).
//! 2. Keep the quiet ones (see [`is_quiet`]; endings against a lone king are left out,
//!    see [`is_lone_king`]) and trace their evaluation: the coefficient
//!    of every weight and the danger inputs of each king ([`model`]).
//! 3. Fit the sigmoid scale `k` that best maps the current evaluation to results.
//! 4. Minimise the squared error between `sigmoid(k * eval)` and the result with Adam,
//!    in shuffled mini-batches, on all middlegame and endgame weights at once.
//! 5. Write the rounded weights to `src/eval/weights.rs` ([`write`](mod@write)).
//!
//! Every weight the evaluation uses is tuned, king-danger weights included (through the
//! derivative of the danger curve). The endgame scale factors are not weights (see
//! `eval/endgame.rs`): the tuner keeps each position's recorded factor.

pub mod args;
pub mod data;
pub mod model;
pub mod write;

use crate::chess::movegen::noisy_moves;
use crate::chess::{Board, Color};
use crate::eval::{self, S, params};
use crate::rng::SplitMix64;
use crate::search::see::see_ge;
use indicatif::{ProgressBar, ProgressStyle};
use model::{Adam, Dataset, Target};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The settings of one tuning run (see `tarpon tune --help`).
#[derive(Clone, Debug)]
pub struct Options {
    pub files: Vec<PathBuf>,
    /// Positions to report the loss on after every epoch, without training on them.
    pub validation: Option<PathBuf>,
    pub epochs: usize,
    pub lr: f64,
    /// The learning rate is multiplied by this after every epoch.
    pub lr_decay: f64,
    pub batch_size: usize,
    pub threads: usize,
    pub output: PathBuf,
    /// Use this `k` instead of fitting it.
    pub k: Option<f64>,
    /// How much of the target is the recorded search score rather than the result.
    pub score_weight: f64,
    pub max_positions: Option<usize>,
    pub seed: u64,
    /// Values counted in fewer positions than this are not changed.
    pub min_positions: usize,
    /// Strength of the L2 penalty on moving away from the starting values.
    pub l2: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            files: Vec::new(),
            validation: None,
            epochs: 20,
            lr: 1.0,
            lr_decay: 0.9,
            batch_size: 16384,
            threads: 2,
            output: PathBuf::from("src/eval/weights.rs"),
            k: None,
            score_weight: 0.0,
            max_positions: None,
            seed: 1,
            min_positions: 1000,
            l2: 0.0,
        }
    }
}

/// What a run did, for the caller (and the tests).
#[derive(Clone, Debug)]
pub struct Summary {
    pub positions: usize,
    pub k: f64,
    pub loss_before: f64,
    pub loss_after: f64,
    pub weights: Vec<S>,
}

/// A position is quiet when the side to move is not in check and has no capture or
/// promotion that wins material by static exchange evaluation. The evaluation is static:
/// fitting it to positions in the middle of an exchange would teach it to expect material
/// it does not have. This test needs only the position; the alternative, comparing the
/// recorded search score with the static evaluation, would keep the positions the current
/// weights already get right and so bias the fit towards them.
pub fn is_quiet(board: &Board) -> bool {
    !board.in_check()
        && noisy_moves(board)
            .as_slice()
            .iter()
            .all(|&m| !see_ge(board, m, 1))
}

/// Whether a side has nothing but its king. Such endings are left out of the training
/// data: their result says whether the search found the mate (or the defence), not what
/// the position is worth, and fitting the mating-drive weights to it taught them to avoid
/// the edge (self-play at a few thousand nodes fails to convert often enough).
pub fn is_lone_king(board: &Board) -> bool {
    Color::ALL.iter().any(|&c| !board.color(c).more_than_one())
}

/// Counts of what happened to the records read.
#[derive(Copy, Clone, Debug, Default)]
pub struct LoadStats {
    pub records: usize,
    pub invalid: usize,
    pub noisy: usize,
    pub lone_king: usize,
}

/// Turns records into traced training positions, on `threads` threads.
pub fn load(records: &[[u8; data::RECORD_SIZE]], threads: usize) -> (Dataset, LoadStats) {
    let bar = progress(records.len() as u64, "tracing positions");
    let done = AtomicU64::new(0);
    let chunk = records.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(Dataset, LoadStats)> = std::thread::scope(|s| {
        let handles: Vec<_> = records
            .chunks(chunk)
            .map(|part| {
                let (bar, done) = (&bar, &done);
                s.spawn(move || {
                    let mut out = (Dataset::default(), LoadStats::default());
                    let kinds = model::kinds();
                    for (i, bytes) in part.iter().enumerate() {
                        add_record(&mut out, bytes, &kinds);
                        if i % 4096 == 4095 {
                            bar.set_position(done.fetch_add(4096, Ordering::Relaxed) + 4096);
                        }
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    bar.finish_and_clear();
    let mut data = Dataset::default();
    let mut stats = LoadStats {
        records: records.len(),
        ..LoadStats::default()
    };
    for (part, s) in parts {
        data.append(part);
        stats.invalid += s.invalid;
        stats.noisy += s.noisy;
        stats.lone_king += s.lone_king;
    }
    (data, stats)
}

fn add_record(
    (data, stats): &mut (Dataset, LoadStats),
    bytes: &[u8; data::RECORD_SIZE],
    kinds: &[params::Kind],
) {
    let record = data::decode(bytes);
    let Some(board) = record.board() else {
        stats.invalid += 1;
        return;
    };
    if !is_quiet(&board) {
        stats.noisy += 1;
        return;
    }
    if is_lone_king(&board) {
        stats.lone_king += 1;
        return;
    }
    let trace = eval::traced(&board);
    data.push(
        &trace,
        kinds,
        record.result_score() as f32,
        record.score as f32,
    );
}

/// A progress bar with the rate and time left (hidden when stderr is not a terminal);
/// `tarpon train` uses it too.
pub(crate) fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if let Ok(style) =
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({per_sec}, {eta} left)")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_string());
    bar
}

/// Reads every record of the files (up to `max` in all); game shards give their trainable
/// positions.
fn read_files(
    files: &[PathBuf],
    max: Option<usize>,
) -> Result<Vec<[u8; data::RECORD_SIZE]>, String> {
    let mut out = Vec::new();
    for path in files {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if let Some(records) = crate::learn::games::training_records(path, &bytes)? {
            out.extend(records);
            continue;
        }
        let (records, rest) = data::records(&bytes);
        out.extend(records.copied());
        if rest != 0 {
            eprintln!(
                "warning: {} ends with {rest} bytes that are not a whole record; ignored",
                path.display()
            );
        }
        if let Some(max) = max
            && out.len() >= max
        {
            out.truncate(max);
            break;
        }
    }
    Ok(out)
}

/// Shuffles `items` (Fisher-Yates); the seeded generator makes the batch order repeatable.
fn shuffle(rng: &mut SplitMix64, items: &mut [u32]) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// The mean gradient over `batch`, computed on `threads` threads; returns the summed
/// squared error too.
fn batch_gradient(
    data: &Dataset,
    w: &model::Weights,
    target: Target,
    batch: &[u32],
    grads: &mut [Vec<[f64; 2]>],
) -> (Vec<[f64; 2]>, f64) {
    let chunk = batch.len().div_ceil(grads.len()).max(1);
    let errors: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = grads
            .iter_mut()
            .zip(batch.chunks(chunk))
            .map(|(g, part)| {
                s.spawn(move || {
                    g.iter_mut().for_each(|x| *x = [0.0; 2]);
                    model::gradient(data, w, target, part, g)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(0.0))
            .collect()
    });
    let mut total = vec![[0.0; 2]; w.len()];
    let used = batch.len().div_ceil(chunk);
    for g in grads.iter().take(used) {
        for (t, x) in total.iter_mut().zip(g) {
            t[0] += x[0];
            t[1] += x[1];
        }
    }
    let n = batch.len().max(1) as f64;
    total.iter_mut().for_each(|t| {
        t[0] /= n;
        t[1] /= n;
    });
    (total, errors.iter().sum())
}

/// Runs Adam over the data for `epochs` epochs, starting from `w`; calls `report` with
/// the epoch number, its mean training loss and the weights after it.
pub fn train(
    data: &Dataset,
    w: &mut model::Weights,
    target: Target,
    opts: &Options,
    report: &mut dyn FnMut(usize, f64, &model::Weights),
) {
    let start = w.to_vec();
    let trainable = trainable(data, w.len(), opts.min_positions);
    let mut adam = Adam::new(w.len(), opts.lr);
    let mut rng = SplitMix64::new(opts.seed);
    let mut order: Vec<u32> = (0..data.entries.len() as u32).collect();
    let mut grads = vec![vec![[0.0; 2]; w.len()]; opts.threads.max(1)];
    let mut lr = opts.lr;
    for epoch in 1..=opts.epochs {
        shuffle(&mut rng, &mut order);
        let bar = progress(
            order.len() as u64,
            &format!("epoch {epoch}/{}", opts.epochs),
        );
        let mut error = 0.0;
        for batch in order.chunks(opts.batch_size.max(1)) {
            let (mut grad, e) = batch_gradient(data, w, target, batch, &mut grads);
            error += e;
            for (i, g) in grad.iter_mut().enumerate() {
                if !trainable[i] {
                    *g = [0.0; 2];
                    continue;
                }
                // L2 regularisation towards the starting values.
                for half in 0..2 {
                    g[half] += 2.0 * opts.l2 * (w[i][half] - start[i][half]);
                }
            }
            adam.update(w, &grad);
            bar.inc(batch.len() as u64);
        }
        bar.finish_and_clear();
        report(epoch, error / order.len().max(1) as f64, w);
        lr *= opts.lr_decay;
        adam.set_lr(lr);
    }
}

/// Which values the data says enough about: those counted in at least `min_positions`
/// positions. The others keep their values: a weight seen in a handful of positions
/// would otherwise be fitted to those few results (Adam moves every weight at about the
/// same speed, however rarely it is seen).
fn trainable(data: &Dataset, n: usize, min_positions: usize) -> Vec<bool> {
    data.occurrences(n)
        .iter()
        .map(|&count| count as usize >= min_positions)
        .collect()
}

/// Reads and filters the positions of `files`, printing what was kept.
fn load_files(files: &[PathBuf], opts: &Options) -> Result<Dataset, String> {
    let start = Instant::now();
    let records = read_files(files, opts.max_positions)?;
    let (data, stats) = load(&records, opts.threads);
    crate::outln!(
        "{}: {} records, {} quiet positions kept, {} not quiet, {} with a lone king, \
         {} invalid ({:.1} s)",
        files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(" "),
        stats.records,
        data.entries.len(),
        stats.noisy,
        stats.lone_king,
        stats.invalid,
        start.elapsed().as_secs_f64()
    );
    if data.entries.is_empty() {
        return Err("no usable positions in the data".to_string());
    }
    Ok(data)
}

/// The loss of `w` over all of `data`.
fn full_loss(data: &Dataset, w: &model::Weights, target: Target) -> f64 {
    let all: Vec<u32> = (0..data.entries.len() as u32).collect();
    model::loss(data, w, target, &all)
}

/// The whole run: read, filter, fit `k`, train, write.
pub fn run(opts: &Options) -> Result<Summary, String> {
    let start = Instant::now();
    let data = load_files(&opts.files, opts)?;
    let validation = match &opts.validation {
        Some(path) => Some(load_files(std::slice::from_ref(path), opts)?),
        None => None,
    };
    let mut w = as_real(&params::values());
    let all: Vec<u32> = (0..data.entries.len() as u32).collect();
    let k = match opts.k {
        Some(k) => k,
        None => model::fit_k(&data, &w, &all),
    };
    let target = Target {
        k,
        score_weight: opts.score_weight,
    };
    // The held-out loss is always against game results alone: that is what the evaluation
    // is for, and it keeps runs with different --score-weight comparable.
    let results_only = Target {
        k,
        score_weight: 0.0,
    };
    let held_out = |w: &model::Weights| match &validation {
        Some(v) => format!(", validation {:.6}", full_loss(v, w, results_only)),
        None => String::new(),
    };
    let loss_before = full_loss(&data, &w, target);
    crate::outln!(
        "k = {k:.6}; loss with the current weights {loss_before:.6}{}",
        held_out(&w)
    );
    report_frozen(&data, w.len(), opts.min_positions);

    train(&data, &mut w, target, opts, &mut |epoch, loss, w| {
        crate::outln!("epoch {epoch:>3}: loss {loss:.6}{}", held_out(w));
    });

    let weights = write::round(&w);
    let loss_after = full_loss(&data, &as_real(&weights), target);
    crate::outln!(
        "loss with the tuned (rounded) weights {loss_after:.6}{}",
        held_out(&as_real(&weights))
    );
    let source = format!(
        "tuned by `tarpon tune` on {} quiet positions, k = {k:.6}, {} epochs, lr {}, \
         loss {loss_before:.6} -> {loss_after:.6}.",
        data.entries.len(),
        opts.epochs,
        opts.lr
    );
    write_file(&opts.output, &write::render(&weights, &source))?;
    crate::outln!(
        "wrote {} ({:.1} s in all)",
        opts.output.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(Summary {
        positions: data.entries.len(),
        k,
        loss_before,
        loss_after,
        weights,
    })
}

fn report_frozen(data: &Dataset, n: usize, min_positions: usize) {
    let frozen = trainable(data, n, min_positions)
        .iter()
        .filter(|t| !**t)
        .count();
    crate::outln!(
        "{frozen} of {n} values are counted in fewer than {min_positions} positions \
         and keep their values"
    );
}

fn as_real(values: &[S]) -> Vec<[f64; 2]> {
    values
        .iter()
        .map(|s| [s.mg() as f64, s.eg() as f64])
        .collect()
}

/// Writes through a temporary file, so an interrupted run never leaves half a file.
fn write_file(path: &PathBuf, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("rs.tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::model::{Blend, Feature};
    use super::*;
    use crate::chess::fen;

    #[test]
    fn recovers_known_weights_from_synthetic_data() {
        // Four weights with known values; positions with random coefficients and phases;
        // the target is the exact win probability of the true evaluation.
        let truth = [[50.0, 80.0], [-30.0, 20.0], [10.0, -40.0], [100.0, 60.0]];
        let k = 0.01;
        let mut rng = SplitMix64::new(42);
        let mut data = Dataset::default();
        for _ in 0..4000 {
            let features: Vec<Feature> = (0..4u16)
                .map(|index| Feature {
                    index,
                    coef: (rng.below(7)) as i16 - 3,
                })
                .collect();
            let blend = Blend {
                phase: (rng.below(25)) as u8,
                scale: [64, 64],
                halfmove: 0,
            };
            data.push_features(&features, [&[], &[]], blend, 0.0, 0.0);
            let e = data.entries.last().copied().unwrap();
            let p = model::sigmoid(k, data.evaluate(&e, &truth)) as f32;
            data.entries.last_mut().unwrap().result = p;
        }
        let target = Target {
            k,
            score_weight: 0.0,
        };
        let all: Vec<u32> = (0..data.entries.len() as u32).collect();
        let mut w = vec![[0.0; 2]; 4];
        let before = model::loss(&data, &w, target, &all);
        let opts = Options {
            epochs: 150,
            lr: 2.0,
            lr_decay: 0.97,
            batch_size: 500,
            ..Options::default()
        };
        train(&data, &mut w, target, &opts, &mut |_, _, _| {});
        let after = model::loss(&data, &w, target, &all);
        assert!(after < before / 100.0, "{before} -> {after}");
        for (got, want) in w.iter().zip(&truth) {
            for half in 0..2 {
                assert!((got[half] - want[half]).abs() < 2.0, "{w:?}");
            }
        }
    }

    #[test]
    fn quiet_and_lone_king_filters() {
        let board = |text| fen::parse(text, false).unwrap();
        assert!(is_quiet(&board(fen::START_FEN)));
        // A hanging queen can be taken: not quiet. In check: not quiet.
        assert!(!is_quiet(&board("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1")));
        assert!(!is_quiet(&board("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")));
        // A defended pawn is no gain for a queen.
        assert!(is_quiet(&board("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1")));
        assert!(is_lone_king(&board("8/8/4k3/8/8/3Q4/8/4K3 w - - 0 1")));
        assert!(!is_lone_king(&board("8/4p3/4k3/8/8/3Q4/8/4K3 w - - 0 1")));
    }

    #[test]
    fn rarely_seen_weights_keep_their_values() {
        // Weight 0 is in every position, weight 1 in ten: with a threshold of 100
        // positions only weight 0 moves.
        let mut data = Dataset::default();
        let blend = Blend {
            phase: 12,
            scale: [64, 64],
            halfmove: 0,
        };
        for i in 0..1000 {
            let mut features = vec![Feature { index: 0, coef: 1 }];
            if i % 100 == 0 {
                features.push(Feature { index: 1, coef: 1 });
            }
            data.push_features(&features, [&[], &[]], blend, 1.0, 0.0);
        }
        let target = Target {
            k: 0.01,
            score_weight: 0.0,
        };
        let mut w = vec![[0.0; 2]; 2];
        let opts = Options {
            epochs: 5,
            batch_size: 100,
            min_positions: 100,
            ..Options::default()
        };
        train(&data, &mut w, target, &opts, &mut |_, _, _| {});
        assert!(w[0][0] > 1.0 && w[0][1] > 1.0, "{w:?}");
        assert_eq!(w[1], [0.0, 0.0]);
    }

    #[test]
    fn a_run_reads_files_tunes_and_writes_weights_rs() {
        // Positions from random games, labelled by material alone (the side a knight or
        // more ahead wins), which the other terms only blur: tuning must improve the fit,
        // and write a valid file.
        let dir = std::env::temp_dir().join(format!("tarpon-tune-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut bytes = Vec::new();
        let boards = model::tests::random_positions(1500, 3);
        for b in &boards {
            let material = |c| {
                [(1, 1), (2, 3), (3, 3), (4, 5), (5, 9)]
                    .iter()
                    .map(|&(k, v)| v * b.pieces(c, crate::chess::PieceType::ALL[k - 1]).count())
                    .sum::<u32>() as i32
            };
            let us = b.side_to_move();
            let balance = material(us) - material(us.flip());
            let result = 1 + balance.signum() * (balance.abs() >= 3) as i32;
            bytes.extend_from_slice(&data::encode(b, 0, result as u8).unwrap());
        }
        bytes.extend_from_slice(&[0xFF; data::RECORD_SIZE]); // garbage: skipped
        let input = dir.join("data.bin");
        std::fs::write(&input, &bytes).unwrap();
        let output = dir.join("weights.rs");
        let opts = Options {
            files: vec![input],
            epochs: 5,
            lr: 2.0,
            batch_size: 32,
            min_positions: 0,
            output: output.clone(),
            ..Options::default()
        };
        let summary = run(&opts).unwrap();
        assert!(summary.positions > 150, "{}", summary.positions);
        assert!(summary.loss_after <= summary.loss_before, "{summary:?}");
        let text = std::fs::read_to_string(&output).unwrap();
        assert_eq!(write::parse_pairs(&text), summary.weights);
        assert!(write::source_of(&text).unwrap().contains("tarpon tune"));
        std::fs::remove_dir_all(&dir).unwrap();

        // A missing file is an error, not a panic.
        let missing = Options {
            files: vec![dir.join("nothing-here.bin")],
            ..Options::default()
        };
        assert!(run(&missing).is_err());
    }
}
