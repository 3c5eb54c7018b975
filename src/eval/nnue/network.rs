//! The network the engine evaluates with: a [`Network`]'s weights laid out for the
//! kernels, the default network embedded in the binary, and loading another one from a
//! file (the `EvalFile` option).
//!
//! A `Network` keeps the file's flat vectors; here every feature's weight column starts on
//! a 64-byte boundary (a cache line, and the alignment of any vector width), so that
//! updating an accumulator touches as few cache lines as possible.

use super::format::{
    HIDDEN, Header, INPUTS, KingBuckets, MAX_INPUT_BUCKETS, Network, NetworkError, OUTPUT_BUCKETS,
    QA, QB, SCALE, file_size,
};
use super::simd::{Kernels, Lanes, MAX_OUTPUT_WEIGHT};
use crate::eval::EVAL_LIMIT;
use std::sync::{Arc, OnceLock};

/// The name of the embedded network, as the `EvalFile` option shows it (and accepts it).
pub const EMBEDDED_NAME: &str = "<embedded>";

/// The default network, compiled into the binary so that a fresh build plays with it:
/// `nets/default.nnue`, or the file `TARPON_NET` named at build time (see `build.rs`).
static EMBEDDED_BYTES: &[u8] = include_bytes!(env!("TARPON_EMBEDDED_NET"));

/// Lanes on a 64-byte boundary.
#[repr(C, align(64))]
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Column<const H: usize = HIDDEN>(pub Lanes<H>);

/// A network ready to evaluate with, of `H` hidden neurons: the search uses
/// [`HIDDEN`], the embedded network's width; the tests also build networks of other widths.
/// Search threads share one through an `Arc`.
#[derive(Debug)]
pub struct Net<const H: usize = HIDDEN> {
    /// One column per input (`king_buckets.inputs()` of them): the weights of input `f`
    /// into each hidden neuron.
    columns: Vec<Column<H>>,
    biases: Column<H>,
    /// Each output bucket's weights: the side to move's half, then the other side's.
    output: Vec<[Column<H>; 2]>,
    /// Each output bucket's bias.
    output_biases: Vec<i32>,
    /// Which inputs each king square selects.
    king_buckets: KingBuckets,
    /// Where it came from: [`EMBEDDED_NAME`] or the file's path.
    name: String,
}

/// Why a network file cannot be used.
#[derive(Debug)]
pub enum LoadError {
    Read(std::io::Error),
    Format(NetworkError),
    /// An output weight too large for the output kernel (see `simd.rs`); a network the
    /// trainer exported never has one.
    OutputWeight {
        index: usize,
        value: i16,
    },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            LoadError::Read(e) => write!(f, "cannot read the network file ({e})"),
            LoadError::Format(e) => write!(f, "{e}"),
            LoadError::OutputWeight { index, value } => write!(
                f,
                "output weight {index} is {value}, beyond the ±{MAX_OUTPUT_WEIGHT} this build can use"
            ),
        }
    }
}

impl std::error::Error for LoadError {}

impl From<NetworkError> for LoadError {
    fn from(e: NetworkError) -> LoadError {
        LoadError::Format(e)
    }
}

impl<const H: usize> Net<H> {
    /// The shape this build evaluates, in words, for messages.
    fn expected_shape() -> String {
        format!("{INPUTS} (any king buckets) -> {H}x2 -> {OUTPUT_BUCKETS}")
    }

    /// Whether a network of this header can be laid out for `H` neurons.
    fn check_shape(header: &Header) -> Result<(), NetworkError> {
        if header.hidden == H && header.output_buckets == OUTPUT_BUCKETS {
            Ok(())
        } else {
            Err(NetworkError::WrongShape {
                found: header.shape(),
                expected: Self::expected_shape(),
            })
        }
    }

    /// Lays out `network` for the kernels, after checking its shape and output weights.
    /// `name` says where it came from.
    pub fn from_network(network: &Network, name: &str) -> Result<Net<H>, LoadError> {
        Self::check_shape(&network.header())?;
        if let Some((index, &value)) = network
            .output_weights
            .iter()
            .enumerate()
            .find(|&(_, w)| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16)
        {
            return Err(LoadError::OutputWeight { index, value });
        }
        let lanes = |values: &[i16]| -> Column<H> {
            Column(values.try_into().expect("a slice of H values"))
        };
        Ok(Net {
            columns: network.feature_weights.chunks_exact(H).map(lanes).collect(),
            biases: lanes(&network.hidden_biases),
            output: network
                .output_weights
                .chunks_exact(2 * H)
                .map(|w| [lanes(&w[..H]), lanes(&w[H..])])
                .collect(),
            output_biases: network.output_biases.clone(),
            king_buckets: network.king_buckets,
            name: name.to_string(),
        })
    }

    /// Reads a network from file bytes (see `format.rs` for the format). A file of
    /// another shape is refused by its header, before its length is looked at.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Net<H>, LoadError> {
        Self::check_shape(&Header::parse(bytes)?)?;
        Net::from_network(&Network::from_bytes(bytes)?, name)
    }

    /// Reads the network file at `path`. Only a regular file is read (`EvalFile` set to
    /// a device or a pipe, `/dev/zero` or a FIFO, would never end or block the engine),
    /// and no more of it than the largest network of this width, so a huge file costs
    /// nothing either.
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<Net<H>, LoadError> {
        use std::io::{Error, ErrorKind, Read};
        let path = path.as_ref();
        // Looked at before opening: opening a FIFO blocks until something writes to it.
        let metadata = std::fs::metadata(path).map_err(LoadError::Read)?;
        if !metadata.is_file() {
            let e = Error::new(ErrorKind::InvalidInput, "not a regular file");
            return Err(LoadError::Read(e));
        }
        let file = std::fs::File::open(path).map_err(LoadError::Read)?;
        let limit = file_size(H, OUTPUT_BUCKETS, MAX_INPUT_BUCKETS) as u64 + 1;
        let mut bytes = Vec::new();
        file.take(limit)
            .read_to_end(&mut bytes)
            .map_err(LoadError::Read)?;
        match Net::from_bytes(&bytes, &path.display().to_string()) {
            // Only part of a long file was read: report the whole file's length.
            Err(LoadError::Format(NetworkError::WrongLength { expected, .. })) => {
                Err(LoadError::Format(NetworkError::WrongLength {
                    expected,
                    found: usize::try_from(metadata.len()).unwrap_or(usize::MAX),
                }))
            }
            net => net,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Which inputs each king square selects.
    #[inline(always)]
    pub fn king_buckets(&self) -> &KingBuckets {
        &self.king_buckets
    }

    /// The weights of input `feature` (`View::index`).
    #[inline(always)]
    pub fn column(&self, feature: usize) -> &Lanes<H> {
        &self.columns[feature].0
    }

    /// Every accumulator starts from these.
    pub fn biases(&self) -> &Lanes<H> {
        &self.biases.0
    }

    /// The network's output through output `bucket`, from the hidden layer's values of the
    /// side to move's perspective (`us`) and the other side's (`them`), in centipawns from
    /// the side to move's point of view: the formula of `format.rs`, held within the
    /// evaluation's limits (a position is never scored like a mate or a tablebase win).
    #[inline]
    pub fn output(&self, us: &Lanes<H>, them: &Lanes<H>, bucket: usize, kernels: Kernels) -> i32 {
        let [w_us, w_them] = &self.output[bucket];
        let sum = kernels.output(us, &w_us.0, them, &w_them.0);
        // The formula in i64: for any network the trainer writes the i32 version of it
        // cannot overflow and the result is the same; a random or hand-made file whose
        // sum is extreme must still not overflow.
        let bias = i64::from(self.output_biases[bucket]);
        let scaled = (i64::from(sum / QA) + bias) * i64::from(SCALE) / i64::from(QA * QB);
        scaled.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }
}

impl Net {
    /// The network a name gives (`EvalFile`, `datagen --nnue`): the embedded one for
    /// [`EMBEDDED_NAME`], otherwise the file at that path ([`Net::load`]).
    pub fn named(name: impl AsRef<std::ffi::OsStr>) -> Result<Arc<Net>, LoadError> {
        let name = name.as_ref();
        if name == EMBEDDED_NAME {
            Ok(Net::embedded())
        } else {
            Net::load(name).map(Arc::new)
        }
    }

    /// The network embedded in the binary, read on first use.
    pub fn embedded() -> Arc<Net> {
        static EMBEDDED: OnceLock<Arc<Net>> = OnceLock::new();
        EMBEDDED
            .get_or_init(|| {
                let net = Net::from_bytes(EMBEDDED_BYTES, EMBEDDED_NAME);
                Arc::new(net.expect("the embedded network is valid (the tests read it)"))
            })
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;
    use crate::eval::nnue::shape::KING_BUCKETS;

    #[test]
    fn the_embedded_network_is_valid() {
        let net = Net::embedded();
        assert_eq!(net.name(), EMBEDDED_NAME);
        let again: Net = Net::from_bytes(EMBEDDED_BYTES, "x").unwrap();
        assert_eq!(again.columns.len(), KING_BUCKETS * INPUTS);
    }

    #[test]
    fn the_embedded_network_is_the_shape_the_code_declares() {
        use crate::eval::nnue::shape;
        let net = Net::embedded();
        let declared = KingBuckets::new(
            shape::KING_BUCKETS as u32,
            shape::KING_MIRRORED,
            shape::KING_BUCKET_MAP,
        )
        .unwrap();
        assert_eq!(net.king_buckets(), &declared);
        let header = Header::parse(EMBEDDED_BYTES).unwrap();
        assert_eq!(header.hidden, shape::HIDDEN);
        assert_eq!(header.output_buckets, shape::OUTPUT_BUCKETS);
    }

    #[test]
    fn columns_are_aligned_to_cache_lines() {
        let net: Net = Net::from_network(&Network::random(1), "random").unwrap();
        for f in [0, 1, 383, INPUTS - 1] {
            assert_eq!(net.column(f).as_ptr() as usize % 64, 0);
        }
        assert_eq!(
            net.column(5)[..],
            Network::random(1).feature_weights[5 * HIDDEN..6 * HIDDEN]
        );
    }

    #[test]
    fn only_regular_files_of_the_right_size_are_read() {
        let dir = std::env::temp_dir().join(format!("tarpon-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dir_text = dir.to_str().unwrap();
        let e = Net::<HIDDEN>::load(dir_text).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let mut bytes = Network::random(4).to_bytes();
        let size = bytes.len();
        let good = dir.join("good.nnue");
        std::fs::write(&good, &bytes).unwrap();
        let net = Net::<HIDDEN>::load(good.to_str().unwrap()).unwrap();
        assert_eq!(net.name(), good.to_str().unwrap());
        // Longer than a network: refused with the file's true length.
        bytes.extend_from_slice(&[0; 5000]);
        let long = dir.join("long.nnue");
        std::fs::write(&long, &bytes).unwrap();
        let e = Net::<HIDDEN>::load(long.to_str().unwrap()).unwrap_err();
        let want = NetworkError::WrongLength {
            expected: size,
            found: size + 5000,
        };
        assert!(matches!(&e, LoadError::Format(f) if *f == want), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn output_weights_too_large_for_the_kernel_are_refused() {
        let mut network = Network::random(2);
        network.output_weights[3000] = MAX_OUTPUT_WEIGHT;
        network.output_weights[3001] = -MAX_OUTPUT_WEIGHT;
        assert!(Net::<HIDDEN>::from_network(&network, "edge").is_ok());
        network.output_weights[3001] = -MAX_OUTPUT_WEIGHT - 1;
        let e = Net::<HIDDEN>::from_network(&network, "too big").unwrap_err();
        assert!(
            matches!(
                e,
                LoadError::OutputWeight {
                    index: 3001,
                    value: -129
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn the_output_follows_the_formula_of_the_contract() {
        // One neuron at 100 in both perspectives, everything else off: the score is
        // (100 · 100 · (w_us + w_them) / QA + bias) · SCALE / (QA · QB) with the weights
        // and bias of the position's bucket, then shrunk by the fifty-move scaling.
        let mut network = Network::random(3);
        network.hidden_biases = vec![-1000; HIDDEN];
        network.hidden_biases[7] = 100;
        network.feature_weights = vec![0; INPUTS * HIDDEN];
        network.output_weights = vec![0; OUTPUT_BUCKETS * 2 * HIDDEN];
        for b in 0..OUTPUT_BUCKETS {
            network.output_weights[2 * b * HIDDEN + 7] = 90 - 10 * b as i16;
            network.output_weights[(2 * b + 1) * HIDDEN + 7] = -50;
            network.output_biases[b] = 5000 + 300 * b as i32;
        }
        let net = Net::<HIDDEN>::from_network(&network, "hand-made").unwrap();
        let want = |b: i32| {
            let sum = 100 * 100 * (90 - 10 * b) + 100 * 100 * -50;
            (sum / QA + 5000 + 300 * b) * SCALE / (QA * QB)
        };
        // 32 pieces: bucket 7, clock 0.
        let start = fen::parse(fen::START_FEN, false).unwrap();
        assert_eq!(net.evaluate(&start), want(7));
        assert_eq!(net.evaluate_white(&start), want(7));
        // Six pieces: bucket 1; the clock at 40 plies takes a fifth off.
        let ending = fen::parse("8/5k2/3p4/8/2PB4/4K3/6r1/8 b - - 40 70", false).unwrap();
        assert_eq!(net.evaluate(&ending), want(1) * 160 / 200);
        assert_eq!(net.evaluate_white(&ending), -want(1) * 160 / 200);
        assert_ne!(want(1), want(7));
    }
}
