//! `tarpon loss`: the loss of finished networks on held-out positions, measured as
//! `tarpon train --validation` reports it after each epoch, without training anything.
//!
//! Networks from different runs are compared on the same positions that none of them
//! trained on: the shared validation shard, or a slice of the newest self-play games
//! (`docs/nnue.md` has the filter this serves). Each network is read from its file, its
//! integer weights turned back into floats (as `tarpon train --init` does: the network
//! that plays, not the float one its run ended with), and its mean loss is computed over
//! every position of the data, at the given λ and K and against the game results alone.
//! Use the λ and K of the training runs, so that the figures compare with their epochs'.

use super::data::{Filter, Record};
use super::model::Objective;
use super::{batch, export, fit_scale, load};
use crate::eval::nnue::format::Network;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `tarpon loss`'s arguments.
#[derive(clap::Args)]
#[command(
    after_help = "Prints, for each network, its mean loss on every position of the data: \
the squared error between sigmoid(output * 400 / scale) and lambda * result + (1 - lambda) * sigmoid(score / scale), \
as tarpon train's validation figure, and in brackets the loss against the results alone (lambda 1). \
A network that cannot be read is reported and the others are still measured. See docs/nnue.md.\n\n\
Examples:\n  tarpon loss nets/default.nnue --data validation.games --lambda 0.25 --scale 148.6\n  \
tarpon loss nets/default.nnue candidate.nnue --data slice.bin --lambda 0.25 --scale 148.6"
)]
pub struct LossArgs {
    /// Networks to measure: files in the engine's format, as tarpon train writes them
    #[arg(required = true, value_name = "NETWORK")]
    networks: Vec<PathBuf>,
    /// Held-out data: tarpon datagen output, game shards (their trainable positions) or 32-byte bulletformat records
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    data: Vec<PathBuf>,
    /// Weight of the game result in the target; the search score gets 1 - lambda (tarpon train's default)
    #[arg(long, value_name = "WEIGHT", default_value_t = super::Options::default().lambda)]
    lambda: f32,
    /// Sigmoid scale K in centipawns (default: fitted to the data, which differs from run to run: give the training's)
    #[arg(long, value_name = "K")]
    scale: Option<f32>,
    /// Leave out positions whose score is beyond this (centipawns, either sign), as tarpon train does
    #[arg(long, value_name = "CP", default_value_t = super::Options::default().max_score, value_parser = clap::value_parser!(i32).range(0..=32767))]
    max_score: i32,
    /// Worker threads
    #[arg(long, value_name = "N", default_value_t = super::Options::default().threads as u16, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
}

impl LossArgs {
    /// `tarpon loss`.
    pub fn run(self) -> ExitCode {
        crate::tools::exit_status(self.measure_all())
    }

    /// Loads the data once, then measures each network in turn; fails at the end if any
    /// network could not be measured (after reporting every one).
    fn measure_all(&self) -> Result<(), String> {
        let positive = |x: f32| x.is_finite() && x > 0.0;
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err("--lambda must be between 0 and 1".into());
        }
        if self.scale.is_some_and(|k| !positive(k)) {
            return Err("--scale must be a positive number of centipawns".into());
        }
        let filter = Filter {
            max_score: self.max_score,
            max_positions: None,
        };
        let threads = usize::from(self.threads);
        let records = load(&self.data, filter, threads)?;
        let scale = match self.scale {
            Some(k) => k,
            None => {
                let k = fit_scale(&records);
                crate::outln!("fitted the sigmoid scale to the data: K = {k:.1} cp");
                k
            }
        };
        let objective = Objective {
            lambda: self.lambda,
            scale,
        };
        crate::outln!(
            "loss at lambda {}, scale {scale:.1} cp, on {} positions (against results in brackets):",
            self.lambda,
            records.len()
        );
        let mut failed = Vec::new();
        for path in &self.networks {
            match measure(path, &records, objective, threads) {
                Ok(Losses { target, results }) => crate::outln!(
                    "{target:.6} (against results {results:.6})  {}",
                    path.display()
                ),
                Err(e) => {
                    eprintln!("error: {e}");
                    failed.push(path.display().to_string());
                }
            }
        }
        if failed.is_empty() {
            Ok(())
        } else {
            Err(format!("not measured: {}", failed.join(", ")))
        }
    }
}

/// A network's mean losses on a set of positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Losses {
    /// Against the objective's target (its λ mix of result and score).
    pub target: f64,
    /// Against the game results alone (λ 1), which compares between values of λ.
    pub results: f64,
}

/// The losses of the network in the file at `path` on `records`.
pub fn measure(
    path: &Path,
    records: &[Record],
    objective: Objective,
    threads: usize,
) -> Result<Losses, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let network = Network::from_bytes(&bytes)
        .map_err(|e| format!("{} is not a network: {e}", path.display()))?;
    Ok(losses_of(&network, records, objective, threads))
}

/// The losses of `network` on `records`: its weights as floats in its own king buckets
/// (no factoriser: the file holds the merged weights), its output buckets by piece count.
fn losses_of(
    network: &Network,
    records: &[Record],
    objective: Objective,
    threads: usize,
) -> Losses {
    let net = export::dequantise(network, network.king_buckets, false)
        .expect("a network's own king buckets split themselves");
    let results_only = Objective {
        lambda: 1.0,
        ..objective
    };
    let losses = batch::mean_losses(&net, records, &[objective, results_only], threads);
    Losses {
        target: losses[0],
        results: losses[1],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::train::checkpoint::State;
    use crate::learn::train::tests::{material_records, trained};
    use crate::learn::train::{Options, king_layouts};

    fn objective() -> Objective {
        Objective {
            lambda: 0.25,
            scale: 150.0,
        }
    }

    /// A network trained on material, written to a file, measures about what its run's
    /// last epoch reported on the same positions (the file's weights are rounded), and
    /// far below an untrained network of the same shape: the figure is the training's,
    /// through the file.
    #[test]
    fn a_written_network_measures_as_its_run_reported() {
        let dir = std::env::temp_dir().join(format!("tarpon-loss-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let records = material_records(3000, 21);
        let opts = Options {
            files: vec![PathBuf::from("unused")],
            epochs: 8,
            batch_size: 256,
            lr: 0.01,
            hidden: 32,
            lambda: objective().lambda,
            scale: Some(objective().scale),
            king_buckets: king_layouts::named("4").unwrap(),
            factorise: true,
            ..Options::default()
        };
        let (state, epochs) = trained(&records, &opts);
        let reported = epochs.last().unwrap().validation.unwrap();
        let path = dir.join("trained.nnue");
        std::fs::write(&path, export::quantise(&state.net).to_bytes()).unwrap();
        let measured = measure(&path, &records, objective(), 2).unwrap();
        let close = |a: f64, b: f64| (a - b).abs() <= 0.1 * b;
        assert!(
            close(measured.target, reported.0),
            "{measured:?} against {reported:?}"
        );
        assert!(
            close(measured.results, reported.1),
            "{measured:?} against {reported:?}"
        );

        let fresh = State::new(opts.layout(), 7);
        let untrained = dir.join("untrained.nnue");
        std::fs::write(&untrained, export::quantise(&fresh.net).to_bytes()).unwrap();
        let baseline = measure(&untrained, &records, objective(), 1).unwrap();
        assert!(
            baseline.target > 3.0 * measured.target,
            "{baseline:?} against {measured:?}"
        );
        // One thread or two sum the same positions.
        let one = measure(&path, &records, objective(), 1).unwrap();
        assert!((one.target - measured.target).abs() < 1e-9);
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A file that is not a network, or not there, is named in the error.
    #[test]
    fn bad_network_files_are_named() {
        let dir = std::env::temp_dir().join(format!("tarpon-loss-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let records = material_records(10, 3);
        let text = dir.join("notes.txt");
        std::fs::write(&text, "not a network").unwrap();
        let err = measure(&text, &records, objective(), 1).unwrap_err();
        assert!(
            err.contains("notes.txt") && err.contains("not a network"),
            "{err}"
        );
        let missing = dir.join("missing.nnue");
        let err = measure(&missing, &records, objective(), 1).unwrap_err();
        assert!(
            err.contains("missing.nnue") && err.contains("cannot read"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
