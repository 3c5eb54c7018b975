//! The settings of one `tarpon train` run, their defaults and their checks, and the
//! learning rate's schedule over the epochs.

use super::model::{Layout, Objective};
use crate::eval::nnue::format::{HIDDEN, KingBuckets, OUTPUT_BUCKETS, SCALE};
use std::path::PathBuf;

/// The settings of one run (see `tarpon train --help`).
#[derive(Clone, Debug)]
pub struct Options {
    pub files: Vec<PathBuf>,
    /// Positions to report the loss on after every epoch, without training on them.
    pub validation: Option<PathBuf>,
    pub output: PathBuf,
    /// Passes over the data; 0 (with `init` only) writes the starting network in this
    /// run's shape, untrained.
    pub epochs: u32,
    pub batch_size: usize,
    pub lr: f32,
    /// The learning rate drops to a tenth after this epoch (`None`: three quarters of
    /// the epochs, rounded up).
    pub lr_drop: Option<u32>,
    /// The weight of the game result in the target (the search score has `1 − lambda`).
    pub lambda: f32,
    /// `K`, centipawns per unit of the logistic curve (`None`: fitted to the data, see
    /// [`fit_scale`](super::fit_scale)).
    pub scale: Option<f32>,
    pub hidden: usize,
    /// Output buckets (1 to `format::OUTPUT_BUCKETS`; the engine reads only its own).
    pub buckets: usize,
    pub threads: usize,
    pub seed: u64,
    pub checkpoint_dir: Option<PathBuf>,
    pub resume: Option<PathBuf>,
    /// Start from this network's weights instead of random ones (see
    /// [`export::dequantise`](super::export::dequantise)), with a fresh optimiser.
    pub init: Option<PathBuf>,
    pub max_score: i32,
    pub max_positions: Option<usize>,
    /// Show each position at each visit mirrored left to right or not, at random (see
    /// [`data::features_of`](super::data::features_of)). Refused with mirrored king
    /// buckets, whose inputs are the same for a position and its mirror image.
    pub mirror: bool,
    /// The king input buckets ([`king_layouts`](super::king_layouts); `KingBuckets::NONE`
    /// for none).
    pub king_buckets: KingBuckets,
    /// How the learning rate changes from epoch to epoch.
    pub lr_schedule: Schedule,
    /// Train the king buckets factorised (see
    /// [`model::Layout::factorised`](super::model::Layout::factorised)).
    pub factorise: bool,
}

/// The learning rate's course over the epochs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// `--lr` until epoch `--lr-drop`, a tenth of it after (the default).
    Step,
    /// From `--lr` at the first epoch down half a cosine wave to `--lr` ×
    /// [`COSINE_FLOOR`] at the last: a rate that eases off gradually instead of at once.
    Cosine,
}

/// The last epoch's learning rate under [`Schedule::Cosine`], as a fraction of `--lr`.
pub const COSINE_FLOOR: f32 = 0.01;

impl std::str::FromStr for Schedule {
    type Err = String;
    fn from_str(name: &str) -> Result<Schedule, String> {
        match name {
            "step" => Ok(Schedule::Step),
            "cosine" => Ok(Schedule::Cosine),
            _ => Err(format!(
                "unknown learning-rate schedule {name:?} (step or cosine)"
            )),
        }
    }
}

impl std::fmt::Display for Schedule {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            Schedule::Step => "step",
            Schedule::Cosine => "cosine",
        })
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            files: Vec::new(),
            validation: None,
            output: PathBuf::from("net.nnue"),
            epochs: 8,
            batch_size: 16384,
            lr: 0.0005,
            lr_drop: None,
            lambda: 0.5,
            scale: None,
            hidden: HIDDEN,
            buckets: OUTPUT_BUCKETS,
            threads: 2,
            seed: 1,
            checkpoint_dir: None,
            resume: None,
            init: None,
            max_score: 10_000,
            max_positions: None,
            mirror: false,
            king_buckets: KingBuckets::NONE,
            lr_schedule: Schedule::Step,
            factorise: false,
        }
    }
}

impl Options {
    /// The epoch after which the learning rate is a tenth of `lr`.
    pub fn lr_drop_epoch(&self) -> u32 {
        self.lr_drop.unwrap_or((self.epochs * 3).div_ceil(4))
    }

    /// The learning rate of epoch `epoch` (counted from 1).
    pub fn learning_rate(&self, epoch: u32) -> f32 {
        match self.lr_schedule {
            Schedule::Step if epoch > self.lr_drop_epoch() => self.lr * 0.1,
            Schedule::Step => self.lr,
            Schedule::Cosine => {
                // The fraction of the run done before this epoch: 0 at the first, 1 at
                // the last.
                let done = (epoch.max(1) - 1) as f32 / (self.epochs.max(2) - 1) as f32;
                let wave = 0.5 * (1.0 + (std::f32::consts::PI * done.min(1.0)).cos());
                self.lr * (COSINE_FLOOR + (1.0 - COSINE_FLOOR) * wave)
            }
        }
    }

    /// The network's shape.
    pub fn layout(&self) -> Layout {
        Layout {
            hidden: self.hidden,
            buckets: self.buckets,
            kings: self.king_buckets,
            factorised: self.factorise,
        }
    }

    pub(super) fn objective(&self) -> Objective {
        Objective {
            lambda: self.lambda,
            scale: self.scale.unwrap_or(SCALE as f32),
        }
    }

    /// Settings that make no sense, as a message.
    pub(super) fn check(&self) -> Result<(), String> {
        let positive = |x: f32| x.is_finite() && x > 0.0;
        if self.files.is_empty() {
            return Err("no data files given".into());
        }
        if self.epochs == 0 && self.init.is_none() {
            return Err(
                "--epochs 0 trains nothing: it only writes an --init network in this run's \
                 shape, so give --init (or at least one epoch)"
                    .into(),
            );
        }
        if self.batch_size == 0 {
            return Err("--batch-size must be at least 1".into());
        }
        if !positive(self.lr) {
            return Err("--lr must be a positive number".into());
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err("--lambda must be between 0 and 1".into());
        }
        if self.scale.is_some_and(|k| !positive(k)) {
            return Err("--scale must be a positive number of centipawns".into());
        }
        if !(1..=4096).contains(&self.hidden) {
            return Err("--hidden must be between 1 and 4096".into());
        }
        if !(1..=OUTPUT_BUCKETS).contains(&self.buckets) {
            return Err(format!(
                "--output-buckets must be between 1 and {OUTPUT_BUCKETS}"
            ));
        }
        if !(1..=256).contains(&self.threads) {
            return Err("--threads must be between 1 and 256".into());
        }
        if self.mirror && self.king_buckets.mirrored() {
            return Err(
                "--mirror does nothing with mirrored king buckets (a position and its \
                        mirror image have the same inputs): leave it out"
                    .into(),
            );
        }
        if self.factorise && self.king_buckets == KingBuckets::NONE {
            return Err(
                "--factorise shares weights between king buckets: give --king-buckets".into(),
            );
        }
        if self.resume.is_some() && self.init.is_some() {
            return Err(
                "--init starts a run from a network, --resume goes on with a checkpoint: \
                 give one of them"
                    .into(),
            );
        }
        if self.lr_drop.is_some() && self.lr_schedule != Schedule::Step {
            return Err("--lr-drop belongs to --lr-schedule step".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::train::king_layouts;
    use crate::learn::train::tests::small;

    #[test]
    fn the_cosine_schedule_eases_from_the_rate_to_a_hundredth_of_it() {
        let opts = Options {
            epochs: 11,
            lr: 0.001,
            lr_schedule: Schedule::Cosine,
            ..Options::default()
        };
        let rates: Vec<f32> = (1..=11).map(|e| opts.learning_rate(e)).collect();
        assert_eq!(rates[0], 0.001);
        assert!((rates[10] - 0.001 * COSINE_FLOOR).abs() < 1e-9, "{rates:?}");
        // Half-way, half-way between the two; falling all along.
        assert!((rates[5] - 0.001 * (1.0 + COSINE_FLOOR) / 2.0).abs() < 1e-7);
        assert!(rates.windows(2).all(|w| w[1] < w[0]), "{rates:?}");
        let one_epoch = Options {
            epochs: 1,
            ..opts.clone()
        };
        assert_eq!(one_epoch.learning_rate(1), 0.001);
        assert_eq!("cosine".parse::<Schedule>(), Ok(Schedule::Cosine));
        assert_eq!("step".parse::<Schedule>(), Ok(Schedule::Step));
        assert!("linear".parse::<Schedule>().is_err());
    }

    #[test]
    fn settings_that_do_nothing_are_refused() {
        let with = |opts: Options| opts.check().err().unwrap_or_default();
        let e = with(Options {
            mirror: true,
            king_buckets: king_layouts::named("1").unwrap(),
            ..small()
        });
        assert!(e.contains("--mirror does nothing"), "{e}");
        // Without king buckets mirroring is augmentation, as before.
        assert_eq!(
            Options {
                mirror: true,
                ..small()
            }
            .check(),
            Ok(())
        );
        let e = with(Options {
            lr_drop: Some(3),
            lr_schedule: Schedule::Cosine,
            ..small()
        });
        assert!(e.contains("--lr-drop"), "{e}");
        // No epoch only rewrites a starting network.
        let e = with(Options {
            epochs: 0,
            ..small()
        });
        assert!(e.contains("give --init"), "{e}");
        assert_eq!(
            Options {
                epochs: 0,
                init: Some(PathBuf::from("start.nnue")),
                ..small()
            }
            .check(),
            Ok(())
        );
    }

    #[test]
    fn learning_rate_drops_after_three_quarters_of_the_epochs() {
        let opts = Options {
            epochs: 20,
            lr: 0.002,
            ..Options::default()
        };
        assert_eq!(opts.lr_drop_epoch(), 15);
        assert_eq!(opts.learning_rate(15), 0.002);
        assert!((opts.learning_rate(16) - 0.0002).abs() < 1e-9);
        assert_eq!(
            Options {
                epochs: 1,
                ..opts.clone()
            }
            .learning_rate(1),
            0.002
        );
        assert_eq!(
            Options {
                lr_drop: Some(3),
                ..opts
            }
            .lr_drop_epoch(),
            3
        );
    }
}
