//! `tarpon train`: trains the NNUE evaluation network on `tarpon datagen` data and writes
//! it in the engine's format (see `docs/nnue.md` for the whole procedure).
//!
//! 1. Load every position into memory, checked and filtered ([`data`]).
//! 2. Each epoch, shuffle all positions (Fisher–Yates, seeded by `--seed` and the epoch's
//!    number, so a resumed run repeats an uninterrupted one) and cut them into batches.
//! 3. For each batch, the mean gradient of the loss ([`model`]), computed on `--threads`
//!    threads ([`batch`]); one Adam step ([`adam`]); feature and output weights clipped to
//!    ±`WEIGHT_CLIP`.
//! 4. After each epoch, report the losses and, with `--checkpoint-dir`, write a checkpoint
//!    ([`checkpoint`]) and the quantised network ([`export`]); at the end, write the
//!    network to `--output`.
//!
//! The run's settings and their checks are [`options`]. The learning rate follows
//! `--lr-schedule` ([`Schedule`]): by default `--lr` until epoch
//! `--lr-drop` (three quarters of the epochs by default) and a tenth of it after: the
//! large rate finds the region, the small one settles in it. With one thread count and
//! seed a run is repeatable to the bit; another thread count sums the gradients in another
//! order, so the last bits differ.
//!
//! `--king-buckets` gives the network king input buckets ([`king_layouts`]); their
//! positions' inputs are still sparse (about thirty per perspective, in the king's bucket),
//! so the forward and backward passes cost the same, and only the feature weights and
//! Adam's moments grow with the number of buckets.

pub mod adam;
pub mod args;
pub mod batch;
pub mod checkpoint;
pub mod data;
pub mod export;
pub mod king_layouts;
pub mod loss;
pub mod model;
pub mod options;
pub mod rounding;

pub use options::{COSINE_FLOOR, Options, Schedule};

use crate::eval::nnue::format::{KingBuckets, Network};
use crate::rng::SplitMix64;
use checkpoint::State;
use data::{Filter, Record};
use model::{Layout, Net, Objective};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What one epoch did.
#[derive(Clone, Debug)]
pub struct Epoch {
    pub epoch: u32,
    /// The mean training loss over the epoch's batches (the weights moving meanwhile).
    pub train_loss: f64,
    /// The loss on the validation positions after the epoch: against the training target,
    /// and against game results alone (comparable between runs of different `lambda`).
    pub validation: Option<(f64, f64)>,
    pub lr: f32,
    /// Seconds spent in the epoch's batches, and since the run started.
    pub seconds: f64,
    pub elapsed: f64,
    pub positions_per_second: f64,
}

/// A random order of `n` positions for one epoch: Fisher–Yates over all of them, from a
/// generator seeded by the run's seed and the epoch's number.
pub fn epoch_order(n: usize, seed: u64, epoch: u32) -> Vec<u32> {
    let mut rng = SplitMix64::new(seed ^ u64::from(epoch).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut order: Vec<u32> = (0..n as u32).collect();
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    order
}

/// The `K` (centipawns) for which `sigmoid(score / K)` best predicts the game results of
/// `records` (least squared error, over at most a million positions spread through
/// them), to the nearest tenth of a centipawn.
///
/// The search scores and the results only agree on one scale, that of the engine that
/// played the games: with a `K` far from it the blended target pulls the network two
/// ways, and its scores drift from the scale the search's margins were tuned for (Tarpon's
/// own data fit `K` ≈ 155 cp; 400 cp, the usual default elsewhere, made the network's
/// scores about 1.5 times the hand-crafted evaluation's).
pub fn fit_scale(records: &[Record]) -> f32 {
    let sample = spread(records, 1_000_000, 0);
    let error = |k: f64| -> f64 {
        sample
            .iter()
            .map(|r| {
                let p = 1.0 / (1.0 + (-f64::from(data::score(r)) / k).exp());
                (p - f64::from(data::result(r))).powi(2)
            })
            .sum()
    };
    let k = crate::learn::tune::model::golden_section_min(20.0, 2000.0, error);
    (k * 10.0).round() as f32 / 10.0
}

/// [`epoch_order`] with a coin flipped for every position, from another generator seeded
/// by the same run and epoch: heads, it is seen mirrored this epoch
/// ([`batch::MIRRORED`]).
pub fn mirror_half(order: &mut [u32], seed: u64, epoch: u32) {
    let mut rng = SplitMix64::new(!seed ^ u64::from(epoch).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    for entry in order.iter_mut() {
        if rng.next_u64() & 1 == 1 {
            *entry |= batch::MIRRORED;
        }
    }
}

/// Trains `state` from its epoch up to `opts.epochs`. After every epoch `report` gets the
/// epoch's numbers and the state; an error from it stops the run.
pub fn train(
    records: &[Record],
    validation: Option<&[Record]>,
    opts: &Options,
    state: &mut State,
    report: &mut dyn FnMut(&Epoch, &State) -> Result<(), String>,
) -> Result<(), String> {
    let start = Instant::now();
    let objective = opts.objective();
    let results_only = Objective {
        lambda: 1.0,
        ..objective
    };
    let mut workers = batch::workers(state.net.layout, opts.threads);
    for epoch in state.epoch + 1..=opts.epochs {
        let epoch_start = Instant::now();
        let lr = opts.learning_rate(epoch);
        let mut order = epoch_order(records.len(), opts.seed, epoch);
        if opts.mirror {
            mirror_half(&mut order, opts.seed, epoch);
        }
        let bar = crate::learn::tune::progress(
            order.len() as u64,
            &format!("epoch {epoch}/{}", opts.epochs),
        );
        let mut loss = 0.0;
        for chunk in order.chunks(opts.batch_size) {
            let (grad, l) = batch::gradient(&state.net, records, chunk, objective, &mut workers);
            state.adam.update(&mut state.net.params, grad, lr);
            state.net.clip();
            loss += l;
            bar.inc(chunk.len() as u64);
        }
        bar.finish_and_clear();
        let seconds = epoch_start.elapsed().as_secs_f64();
        state.epoch = epoch;
        let validation = validation.map(|v| {
            let losses =
                batch::mean_losses(&state.net, v, &[objective, results_only], opts.threads);
            (losses[0], losses[1])
        });
        let summary = Epoch {
            epoch,
            train_loss: loss / records.len().max(1) as f64,
            validation,
            lr,
            seconds,
            elapsed: start.elapsed().as_secs_f64(),
            positions_per_second: records.len() as f64 / seconds.max(1e-9),
        };
        report(&summary, state)?;
    }
    Ok(())
}

/// What a run did, for the caller and the tests.
#[derive(Clone, Debug)]
pub struct Summary {
    pub positions: usize,
    pub epochs: Vec<Epoch>,
    pub state: State,
}

/// The whole run: check the settings and files, load, train, write.
pub fn run(opts: &Options) -> Result<Summary, String> {
    opts.check()?;
    // Everything that can fail is tried before the data is loaded and trained on, so
    // that a typo does not cost the length of a run.
    check_writable(&opts.output)?;
    if let Some(dir) = &opts.checkpoint_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        check_writable(&dir.join("epoch-000.nnue"))?;
    }
    let mut state = match (&opts.resume, &opts.init) {
        (Some(path), _) => resumed(path, opts)?,
        (None, Some(path)) => initialised(path, opts)?,
        (None, None) => State::new(opts.layout(), opts.seed),
    };
    let filter = Filter {
        max_score: opts.max_score,
        max_positions: opts.max_positions,
    };
    let records = load(&opts.files, filter, opts.threads)?;
    // Batch entries are u32 indices with the top bit for mirroring (64 GB of records).
    if records.len() >= batch::MIRRORED as usize {
        return Err(format!(
            "{} positions are more than one run can index",
            records.len()
        ));
    }
    // The whole validation file, whatever --max-positions: its loss must compare with
    // other runs' (its first records alone, from the first games, score differently).
    let validation_filter = Filter {
        max_positions: None,
        ..filter
    };
    let validation = match &opts.validation {
        Some(path) => Some(load(
            std::slice::from_ref(path),
            validation_filter,
            opts.threads,
        )?),
        None => None,
    };
    let fitted;
    let opts = match opts.scale {
        Some(_) => opts,
        None => {
            let k = fit_scale(&records);
            crate::outln!("fitted the sigmoid scale to the data: K = {k:.1} cp");
            fitted = Options {
                scale: Some(k),
                ..opts.clone()
            };
            &fitted
        }
    };
    announce(opts, records.len());
    if state.epoch > 0 {
        crate::outln!("resuming after epoch {}", state.epoch);
    }
    if !opts.hidden.is_multiple_of(ENGINE_LANES) {
        crate::outln!(
            "note: the engine embeds only networks of a multiple of {ENGINE_LANES} hidden neurons"
        );
    }
    // Positions spread over the data for rounding the output layer at each export, and
    // others (held-out ones when there are) to measure the rounding's effect on.
    let rounding_sample = spread(&records, rounding::SAMPLE, 0);
    let check_sample = match &validation {
        Some(v) => spread(v, 10_000, 0),
        None => spread(&records, 10_000, 1),
    };
    let mut epochs = Vec::new();
    train(
        &records,
        validation.as_deref(),
        opts,
        &mut state,
        &mut |e, state| {
            crate::outln!("{}", epoch_line(e));
            if let Some(dir) = &opts.checkpoint_dir {
                let name = format!("epoch-{:03}", e.epoch);
                let ckpt = dir.join(format!("{name}.ckpt"));
                checkpoint::write_atomically(&ckpt, &state.to_bytes())?;
                let path = dir.join(format!("{name}.nnue"));
                write_network(&state.net, &rounding_sample, &path)?;
            }
            epochs.push(e.clone());
            Ok(())
        },
    )?;
    let written = write_network(&state.net, &rounding_sample, &opts.output)?;
    // The engine computes in integers: say how much the rounding changes the scores.
    let (mean, worst) = export::rounding_error(&state.net, &written, &check_sample);
    let nearest = export::rounding_error(&state.net, &export::quantise(&state.net), &check_sample);
    crate::outln!(
        "wrote {}; its integer scores are {mean:.1} cp from the float network's on average, \
         {worst:.0} cp at most, over {} {} positions (with all weights rounded to nearest: \
         {:.1} and {:.0})",
        opts.output.display(),
        check_sample.len(),
        if validation.is_some() {
            "validation"
        } else {
            "training"
        },
        nearest.0,
        nearest.1
    );
    Ok(Summary {
        positions: records.len(),
        epochs,
        state,
    })
}

/// The engine's vector kernels step through the hidden layer this many neurons at a time
/// (AVX-512's `i16` lanes; `build.rs` refuses to embed other widths).
const ENGINE_LANES: usize = 32;

/// Says what the run will do: the network's shape, the data and the recipe.
fn announce(opts: &Options, positions: usize) {
    let shape = format!(
        "{} -> {} neurons x 2 -> 1 of {} output bucket(s)",
        inputs_text(&opts.layout()),
        opts.hidden,
        opts.buckets
    );
    if opts.epochs == 0 {
        // Nothing to train: the data only picks the output layer's rounding (and a
        // network read from a file rounds back to itself).
        let init = opts.init.as_deref().unwrap_or(Path::new(""));
        crate::outln!(
            "writing {} as {shape}, untrained (--epochs 0)",
            init.display()
        );
        return;
    }
    let schedule = match opts.lr_schedule {
        Schedule::Step => format!("x0.1 after epoch {}", opts.lr_drop_epoch()),
        Schedule::Cosine => format!("cosine to x{COSINE_FLOOR} at the last epoch"),
    };
    let mirrored = if opts.mirror {
        ", mirrored at random"
    } else {
        ""
    };
    crate::outln!(
        "training {shape} on {positions} positions: {} epochs of batches of {}, Adam lr {} \
         ({schedule}), lambda {}, scale {} cp, {} thread(s), seed {}{mirrored}",
        opts.epochs,
        opts.batch_size,
        opts.lr,
        opts.lambda,
        opts.objective().scale,
        opts.threads,
        opts.seed,
    );
}

/// The inputs in words: `768`, or `768 x 4 king buckets (layout 4, mirrored)`.
fn inputs_text(layout: &Layout) -> String {
    let inputs = crate::eval::nnue::format::INPUTS;
    let kings = &layout.kings;
    if *kings == KingBuckets::NONE {
        inputs.to_string()
    } else {
        format!(
            "{inputs} x {} king buckets (layout {}{}{})",
            kings.count(),
            king_layouts::name_of(kings),
            if kings.mirrored() { ", mirrored" } else { "" },
            if layout.factorised {
                ", factorised"
            } else {
                ""
            }
        )
    }
}

fn epoch_line(e: &Epoch) -> String {
    let validation = match e.validation {
        Some((target, results)) => {
            format!(", validation {target:.6} (against results {results:.6})")
        }
        None => String::new(),
    };
    format!(
        "epoch {:>3}: train loss {:.6}{validation}, lr {:.2e}, {:.0} pos/s, {:.1} s, {:.1} s in all",
        e.epoch, e.train_loss, e.lr, e.positions_per_second, e.seconds, e.elapsed
    )
}

/// Loads and filters a set of files, printing what was kept.
fn load(files: &[PathBuf], filter: Filter, threads: usize) -> Result<Vec<Record>, String> {
    let start = Instant::now();
    let (records, stats) = data::load(files, filter, threads)?;
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    crate::outln!(
        "{}: {} records, {} kept, {} invalid, {} with |score| > {} ({:.1} s)",
        names.join(" "),
        stats.records,
        records.len(),
        stats.invalid,
        stats.filtered,
        filter.max_score,
        start.elapsed().as_secs_f64()
    );
    if records.is_empty() {
        return Err(format!("no usable positions in {}", names.join(" ")));
    }
    Ok(records)
}

/// The state of a checkpoint, if it fits this run.
fn resumed(path: &Path, opts: &Options) -> Result<State, String> {
    let state = State::load(path)?;
    let layout = state.net.layout;
    if layout != opts.layout() {
        return Err(format!(
            "{} has {} hidden neurons, {} output buckets and inputs {}, but --hidden is {}, \
             --output-buckets {} and --king-buckets {}{}",
            path.display(),
            layout.hidden,
            layout.buckets,
            inputs_text(&layout),
            opts.hidden,
            opts.buckets,
            king_layouts::name_of(&opts.king_buckets),
            if opts.factorise { " --factorise" } else { "" }
        ));
    }
    if state.epoch >= opts.epochs {
        return Err(format!(
            "{} is after epoch {}: nothing left to do with --epochs {}",
            path.display(),
            state.epoch,
            opts.epochs
        ));
    }
    Ok(state)
}

/// A run that starts from the network in `path`, if its shape fits this run: the same
/// output buckets, as many hidden neurons or fewer (the network is widened, see
/// [`model::Net::widened`]), and the same king buckets, none (which then start every
/// bucket alike) or coarser ones that this run's split (see [`export::dequantise`]).
fn initialised(path: &Path, opts: &Options) -> Result<State, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let network = Network::from_bytes(&bytes)
        .map_err(|e| format!("{} is not a network: {e}", path.display()))?;
    let mut net = export::dequantise(&network, opts.king_buckets, opts.factorise)
        .map_err(|e| format!("cannot start from {}: {e}", path.display()))?;
    if net.layout.hidden < opts.hidden && net.layout.buckets == opts.buckets {
        net = net.widened(opts.hidden, opts.seed);
    }
    let layout = net.layout;
    if layout != opts.layout() {
        return Err(format!(
            "cannot start from {}: it has {} hidden neurons and {} output buckets, but \
             --hidden is {} (at least as many needed) and --output-buckets {}",
            path.display(),
            layout.hidden,
            layout.buckets,
            opts.hidden,
            opts.buckets,
        ));
    }
    Ok(State {
        adam: adam::Adam::new(layout.parameter_count()),
        net,
        epoch: 0,
    })
}

/// Fails early if `path` cannot be written (a missing folder, no permission).
fn check_writable(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!("cannot write {}: it is a folder", path.display()));
    }
    let mut probe = path.as_os_str().to_owned();
    probe.push(".tmp");
    let probe = PathBuf::from(probe);
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Quantises the network (see [`export::quantise_on`]) and writes it in the engine's
/// format.
fn write_network(net: &Net, sample: &[Record], path: &Path) -> Result<Network, String> {
    let quantised = export::quantise_on(net, sample);
    checkpoint::write_atomically(path, &quantised.to_bytes())?;
    Ok(quantised)
}

/// About `n` records spread evenly over `records` (every k-th, from `offset`): positions
/// from all the games, not the first few.
fn spread(records: &[Record], n: usize, offset: usize) -> Vec<Record> {
    let stride = (records.len() / n.max(1)).max(1);
    records
        .iter()
        .skip(offset)
        .step_by(stride)
        .take(n)
        .copied()
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::chess::{Color, PieceType};
    use crate::eval::nnue::format::{OUTPUT_BUCKETS, SCALE};
    use crate::learn::bulletformat::{self, GameResult};
    use crate::learn::tune::model::tests::random_positions;

    /// Positions from random games labelled by material alone: the search score is 100
    /// centipawns a pawn (1, 3, 3, 5, 9) for the side to move, and the side a knight or
    /// more ahead wins. A network can learn this exactly, and fast.
    pub(crate) fn material_records(n: usize, seed: u64) -> Vec<Record> {
        random_positions(n, seed)
            .iter()
            .map(|b| {
                let material = |c: Color| -> i32 {
                    [1, 3, 3, 5, 9]
                        .iter()
                        .zip(PieceType::ALL)
                        .map(|(v, kind)| v * b.pieces(c, kind).count() as i32)
                        .sum()
                };
                let us = b.side_to_move();
                let balance = material(us) - material(us.flip());
                let result = match balance {
                    3.. => GameResult::WhiteWin,
                    ..=-3 => GameResult::BlackWin,
                    _ => GameResult::Draw,
                };
                // pack takes the result for White and stores it for the side to move.
                let result = match (result, us) {
                    (GameResult::Draw, _) => GameResult::Draw,
                    (r, Color::White) => r,
                    (GameResult::WhiteWin, Color::Black) => GameResult::BlackWin,
                    (_, Color::Black) => GameResult::WhiteWin,
                };
                bulletformat::pack(b, (100 * balance) as i16, result, false).unwrap()
            })
            .collect()
    }

    /// Trains a fresh network on `records`, returning the state and the epochs' reports.
    pub(crate) fn trained(records: &[Record], opts: &Options) -> (State, Vec<Epoch>) {
        let mut state = State::new(opts.layout(), opts.seed);
        let mut epochs = Vec::new();
        train(records, Some(records), opts, &mut state, &mut |e, _| {
            epochs.push(e.clone());
            Ok(())
        })
        .unwrap();
        (state, epochs)
    }

    pub(crate) fn small() -> Options {
        Options {
            files: vec![PathBuf::from("unused")],
            epochs: 6,
            batch_size: 256,
            lr: 0.01,
            hidden: 32,
            buckets: 1,
            lambda: 0.0,
            ..Options::default()
        }
    }

    #[test]
    fn learns_material_in_a_few_epochs() {
        learns_material(small(), 450.0);
        // With the engine's eight output buckets the full board (31 pieces here) has its
        // own output, which the random games' positions reach less often.
        learns_material(
            Options {
                buckets: OUTPUT_BUCKETS,
                epochs: 12,
                ..small()
            },
            450.0,
        );
    }

    #[test]
    fn learns_material_from_mirrored_positions_too() {
        // Each square's weights see half the examples unmirrored, so the same few epochs
        // get less far: -420 cp for the queen.
        learns_material(
            Options {
                mirror: true,
                ..small()
            },
            350.0,
        );
    }

    /// Trains on positions labelled by material alone and checks the network learnt it:
    /// the loss falls tenfold, and the side a queen down scores below `-queen_down` cp.
    fn learns_material(opts: Options, queen_down: f32) {
        let records = material_records(4000, 17);
        let objective = opts.objective();
        let untrained = Net::new(opts.layout(), opts.seed);
        let before = batch::mean_losses(&untrained, &records, &[objective], 2)[0];
        let (state, epochs) = trained(&records, &opts);
        let after = batch::mean_losses(&state.net, &records, &[objective], 2)[0];
        for e in &epochs {
            println!("{}", epoch_line(e));
        }
        assert!(after < before / 10.0, "{before} -> {after}");
        // And it scores a queen up (the start position without Black's queen, Black to
        // move) clearly lost: -900 cp for the labels, -600 after these few epochs.
        let queen_up = crate::chess::fen::parse(
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
            false,
        )
        .unwrap();
        let record = bulletformat::pack(&queen_up, 0, GameResult::Draw, false).unwrap();
        let mut scratch = model::Scratch::new(state.net.layout);
        let features = state.net.layout.features(&record);
        let cp = state.net.forward(&features, &mut scratch) * SCALE as f32;
        assert!((-1300.0..-queen_down).contains(&cp), "{cp}");
    }

    #[test]
    fn learns_material_with_king_buckets_too() {
        // Each bucket's weights see only the positions of its kings, so the same epochs
        // get less far than with one set of inputs (-212 cp for the queen after 6, -282
        // after 12).
        learns_material(
            Options {
                king_buckets: king_layouts::named("4").unwrap(),
                epochs: 12,
                ..small()
            },
            250.0,
        );
    }

    #[test]
    fn a_resumed_run_ends_with_the_weights_of_an_uninterrupted_one() {
        let opts = Options {
            epochs: 4,
            lr_drop: Some(2),
            threads: 2,
            ..small()
        };
        resumed_equals_uninterrupted(opts.clone());
        // With king buckets and the cosine schedule.
        resumed_equals_uninterrupted(Options {
            king_buckets: king_layouts::named("8").unwrap(),
            lr_schedule: Schedule::Cosine,
            lr_drop: None,
            ..opts
        });
    }

    fn resumed_equals_uninterrupted(opts: Options) {
        let records = material_records(1500, 4);
        let (whole, _) = trained(&records, &opts);

        // The same run, stopped after epoch 2 with a checkpoint, then resumed from it.
        let mut state = State::new(opts.layout(), opts.seed);
        let mut saved = Vec::new();
        let stopped = train(&records, None, &opts, &mut state, &mut |e, s| {
            if e.epoch == 2 {
                saved = s.to_bytes();
                return Err("interrupted".into());
            }
            Ok(())
        });
        assert_eq!(stopped, Err("interrupted".to_string()));
        let mut resumed = State::from_bytes(&saved).unwrap();
        assert_eq!(resumed.epoch, 2);
        train(&records, None, &opts, &mut resumed, &mut |_, _| Ok(())).unwrap();
        assert_eq!(resumed.epoch, 4);
        assert!(resumed.net.params == whole.net.params, "weights differ");
        assert_eq!(resumed.adam, whole.adam);
        // Another seed gives another network (the comparison above can fail).
        let (other, _) = trained(&records, &Options { seed: 2, ..opts });
        assert!(other.net.params != whole.net.params);
    }

    #[test]
    fn epochs_are_shuffled_differently_and_repeatably() {
        let a = epoch_order(1000, 1, 1);
        assert_eq!(a, epoch_order(1000, 1, 1));
        assert_ne!(a, epoch_order(1000, 1, 2));
        assert_ne!(a, epoch_order(1000, 2, 1));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..1000).collect::<Vec<u32>>());
        // Every position can land anywhere: the first slot over many epochs.
        let firsts: std::collections::HashSet<u32> =
            (1..200).map(|e| epoch_order(1000, 1, e)[0]).collect();
        assert!(firsts.len() > 150, "{}", firsts.len());
    }

    #[test]
    fn the_fitted_scale_is_the_one_the_results_were_drawn_with() {
        // Scores spread over ±600 cp; each game won with probability sigmoid(score / 180).
        let base = material_records(1, 3)[0];
        let mut rng = SplitMix64::new(9);
        let records: Vec<Record> = (0..200_000)
            .map(|_| {
                let score = rng.below(1201) as i16 - 600;
                let p_win = 1.0 / (1.0 + (-f64::from(score) / 180.0).exp());
                let won = rng.unit() <= p_win;
                let mut r = base;
                r[24..26].copy_from_slice(&score.to_le_bytes());
                r[26] = if won { 2 } else { 0 };
                r
            })
            .collect();
        let k = fit_scale(&records);
        assert!((165.0..195.0).contains(&k), "{k}");
    }

    #[test]
    fn mirroring_flags_about_half_of_the_positions_each_epoch_repeatably() {
        let mut a = epoch_order(10_000, 1, 3);
        let plain = a.clone();
        mirror_half(&mut a, 1, 3);
        let flagged = a.iter().filter(|&&i| i & batch::MIRRORED != 0).count();
        assert!((4_700..5_300).contains(&flagged), "{flagged}");
        // The same positions in the same order, only flagged.
        let indices: Vec<u32> = a.iter().map(|&i| i & !batch::MIRRORED).collect();
        assert_eq!(indices, plain);
        let mut again = plain.clone();
        mirror_half(&mut again, 1, 3);
        assert_eq!(again, a);
        let mut next_epoch = plain;
        mirror_half(&mut next_epoch, 1, 4);
        assert_ne!(next_epoch, a);
    }

    /// The whole run with `--hidden 512 --king-buckets 4`: it writes a version 3 file that
    /// an engine of that width reads, whose scores are the exporter's integer formula
    /// exactly, and near the float network's.
    #[test]
    fn a_king_bucketed_512_network_trains_and_the_engine_reads_it() {
        use crate::chess::Board;
        use crate::eval::nnue::Net as EngineNet;
        let dir = std::env::temp_dir().join(format!("tarpon-train-512-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let records = material_records(3000, 23);
        let data = dir.join("data.bin");
        std::fs::write(&data, records.concat()).unwrap();
        let output = dir.join("big.nnue");
        let kings = king_layouts::named("4").unwrap();
        let opts = Options {
            files: vec![data],
            output: output.clone(),
            epochs: 3,
            batch_size: 256,
            lr: 0.005,
            hidden: 512,
            king_buckets: kings,
            lr_schedule: Schedule::Cosine,
            threads: 2,
            ..Options::default()
        };
        let summary = run(&opts).unwrap();
        let bytes = std::fs::read(&output).unwrap();
        assert_eq!(&bytes[8..12], &3u32.to_le_bytes());
        let network = Network::from_bytes(&bytes).unwrap();
        assert_eq!(network.king_buckets, kings);
        let engine = EngineNet::<512>::load(output.to_str().unwrap()).unwrap();
        let float = &summary.state.net;
        let mut scratch = model::Scratch::new(float.layout);
        let (mut total, mut worst) = (0.0f32, 0.0f32);
        let boards = random_positions(400, 31);
        for board in &boards {
            let record = bulletformat::pack(board, 0, GameResult::Draw, false).unwrap();
            let features = float.layout.features(&record);
            let cp = engine.evaluate(board);
            // The engine shrinks scores by the fifty-move clock, which records do not keep.
            let integer = export::integer_score(&network, &features);
            let integer = crate::eval::fifty_move_scaled(integer, board);
            assert_eq!(cp, integer, "{}", fen(board));
            let difference =
                (float.forward(&features, &mut scratch) * SCALE as f32 - cp as f32).abs();
            total += difference;
            worst = worst.max(difference);
        }
        let mean = total / boards.len() as f32;
        println!(
            "512 hidden, 4 king buckets: float vs engine {mean:.2} cp on average, {worst:.1} at most"
        );
        assert!(mean < 10.0 && worst < 60.0, "mean {mean} worst {worst}");
        std::fs::remove_dir_all(&dir).unwrap();

        fn fen(board: &Board) -> String {
            crate::chess::fen::to_fen(board)
        }
    }
}
