//! The network's shape, its quantisation, and its file format: the contract between the
//! trainer (`tarpon train`, which writes networks) and the engine (which reads them).
//!
//! # Architecture
//!
//! Each side of the board has its own *perspective*: 768 binary inputs, one per (piece
//! colour relative to that side, piece kind, square), with the board mirrored top to
//! bottom for Black, so that both sides see their own pieces marching up the board. The
//! inputs of a perspective feed a hidden layer of [`HIDDEN`] neurons (the *accumulator*;
//! the feature weights are shared by both perspectives). The side to move's accumulator
//! and then the other side's are concatenated, passed through a squared clipped ReLU,
//! `screlu(x) = clamp(x, 0, 1)²`, and an output neuron gives the score for the side to
//! move, scaled by [`SCALE`] to centipawns.
//!
//! There are [`OUTPUT_BUCKETS`] output neurons, of which a position uses one, chosen by
//! how many pieces are on the board ([`output_bucket`]): the hidden layer is shared, but
//! what its neurons are worth is learned separately for the opening, the middlegame and
//! each stage of the ending. The accumulators do not depend on the bucket, so choosing
//! one costs a population count per evaluation.
//!
//! # Quantisation
//!
//! Training is in floating point; the engine computes in integers. Feature weights and
//! hidden biases are multiplied by [`QA`] and stored as `i16`, output weights by [`QB`]
//! as `i16`, and the output biases by `QA * QB` as `i32`. The trainer clips feature weights
//! and output weights to ±[`WEIGHT_CLIP`] before quantising, which keeps an accumulator
//! inside `i16` and a clipped activation times an output weight inside `i16` (255 × 127 <
//! 32767), the product the SIMD kernels form.
//!
//! With `a` the accumulator value clipped to `[0, QA]`, the engine computes
//!
//! ```text
//! sum   = Σ a · a · w_out[b]                   (i32, wrapping; over both halves)
//! score = (sum / QA + bias_out[b]) · SCALE / (QA · QB)   (integer division, toward zero)
//! ```
//!
//! with `b` the position's output bucket, which is the floating-point network's output
//! times `SCALE`, up to rounding.
//!
//! # File format (all integers little-endian)
//!
//! | bytes                | content                                                    |
//! |----------------------|------------------------------------------------------------|
//! | 0..8                 | magic `TARPNNUE`                                           |
//! | 8..12                | `u32` format version, [`VERSION`]                          |
//! | 12..16               | `u32` hidden size, must equal [`HIDDEN`]                   |
//! | 16..20               | `u32` output buckets, must equal [`OUTPUT_BUCKETS`]        |
//! | then                 | `i16` feature weights, 768 × HIDDEN, feature by feature (the HIDDEN weights of feature 0, then of feature 1, ...) |
//! | then                 | `i16` hidden biases, HIDDEN                                |
//! | then                 | `i16` output weights, OUTPUT_BUCKETS × 2 × HIDDEN: bucket by bucket, each the side to move's half first |
//! | then                 | `i32` output biases, OUTPUT_BUCKETS                        |
//!
//! Nothing follows; a file of any other length is rejected.

use crate::chess::{Color, PieceType, Square};

/// Inputs per perspective: 2 colours × 6 piece kinds × 64 squares.
pub const INPUTS: usize = 768;
/// Neurons in the hidden layer (the accumulator's width) of each perspective.
pub const HIDDEN: usize = 256;
/// Quantisation factor of the feature weights and hidden biases (the activation's 1.0).
pub const QA: i32 = 255;
/// Quantisation factor of the output weights.
pub const QB: i32 = 64;
/// The network's output times `SCALE` is the score in centipawns.
pub const SCALE: i32 = 400;
/// Feature and output weights are clipped to this magnitude (in floating point) before
/// quantisation; see the module documentation.
pub const WEIGHT_CLIP: f32 = 1.98;
/// Output neurons, one per range of piece counts (see [`output_bucket`]).
pub const OUTPUT_BUCKETS: usize = 8;
/// The file format version this build reads and writes (version 1 had one output).
pub const VERSION: u32 = 2;
/// The first eight bytes of every network file.
pub const MAGIC: &[u8; 8] = b"TARPNNUE";
/// The bytes before the weights: magic, version, hidden size, output buckets.
pub const HEADER_SIZE: usize = 20;
/// The exact size in bytes of a network file with [`HIDDEN`] neurons and
/// [`OUTPUT_BUCKETS`] outputs.
pub const FILE_SIZE: usize = file_size(HIDDEN, OUTPUT_BUCKETS);

/// The size in bytes of a network file of this shape.
pub const fn file_size(hidden: usize, buckets: usize) -> usize {
    HEADER_SIZE + 2 * (INPUTS * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

/// The output bucket of a position with `pieces` pieces on the board, kings included:
/// 2–5 pieces use output 0, 6–9 output 1, and so on up to 30–32, output 7. Capped at
/// `buckets − 1`, so a network with fewer outputs (the trainer can make one, to measure
/// what the buckets bring) lumps the fullest boards together.
#[inline(always)]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) / 4).min(buckets - 1)
}

/// The input index of a `color` `kind` on `square`, seen from `perspective`: pieces of
/// the perspective's own colour come first (0..384), the opponent's after (384..768), and
/// Black's perspective mirrors the board top to bottom.
#[inline(always)]
pub fn feature_index(perspective: Color, color: Color, kind: PieceType, square: Square) -> usize {
    let relative_square = match perspective {
        Color::White => square.index(),
        Color::Black => square.index() ^ 56,
    };
    let side = if color == perspective { 0 } else { 384 };
    side + kind.index() * 64 + relative_square
}

/// A quantised network, as read from or written to a file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Network {
    /// `INPUTS × HIDDEN`: the weights of feature `f` are `[f * HIDDEN .. (f + 1) * HIDDEN]`.
    pub feature_weights: Vec<i16>,
    /// `HIDDEN`: the accumulator's starting values.
    pub hidden_biases: Vec<i16>,
    /// `OUTPUT_BUCKETS × 2 × HIDDEN`: bucket `b`'s weights are `[2b · HIDDEN .. 2(b + 1) ·
    /// HIDDEN]`, the first half multiplying the side to move's accumulator.
    pub output_weights: Vec<i16>,
    /// `OUTPUT_BUCKETS`, in units of `QA · QB`.
    pub output_biases: Vec<i32>,
}

/// Why a byte string is not a network this build can use.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NetworkError {
    BadMagic,
    UnsupportedVersion(u32),
    WrongHiddenSize(u32),
    WrongBucketCount(u32),
    WrongLength { expected: usize, found: usize },
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            NetworkError::BadMagic => write!(
                f,
                "not a Tarpon network (the file does not start with TARPNNUE)"
            ),
            NetworkError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "network format version {v}, this build reads version {VERSION}"
                )
            }
            NetworkError::WrongHiddenSize(n) => {
                write!(
                    f,
                    "network has {n} hidden neurons, this build needs {HIDDEN}"
                )
            }
            NetworkError::WrongBucketCount(n) => {
                write!(
                    f,
                    "network has {n} output buckets, this build needs {OUTPUT_BUCKETS}"
                )
            }
            NetworkError::WrongLength { expected, found } => {
                write!(f, "network file is {found} bytes, expected {expected}")
            }
        }
    }
}

impl std::error::Error for NetworkError {}

impl Network {
    /// Parses a network file, checking magic, version, hidden size, output buckets and
    /// exact length.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < 12 || &bytes[0..8] != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let version = u32_at(8);
        if version != VERSION {
            return Err(NetworkError::UnsupportedVersion(version));
        }
        if bytes.len() < HEADER_SIZE {
            return Err(NetworkError::WrongLength {
                expected: FILE_SIZE,
                found: bytes.len(),
            });
        }
        let hidden = u32_at(12);
        if hidden as usize != HIDDEN {
            return Err(NetworkError::WrongHiddenSize(hidden));
        }
        let buckets = u32_at(16);
        if buckets as usize != OUTPUT_BUCKETS {
            return Err(NetworkError::WrongBucketCount(buckets));
        }
        if bytes.len() != FILE_SIZE {
            return Err(NetworkError::WrongLength {
                expected: FILE_SIZE,
                found: bytes.len(),
            });
        }
        let mut rest = &bytes[HEADER_SIZE..];
        let mut take_i16 = |n: usize| -> Vec<i16> {
            let (head, tail) = rest.split_at(2 * n);
            rest = tail;
            head.chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        let feature_weights = take_i16(INPUTS * HIDDEN);
        let hidden_biases = take_i16(HIDDEN);
        let output_weights = take_i16(OUTPUT_BUCKETS * 2 * HIDDEN);
        let output_biases = rest
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        Ok(Network {
            feature_weights,
            hidden_biases,
            output_weights,
            output_biases,
        })
    }

    /// The file bytes of this network (the inverse of [`Network::from_bytes`] for the
    /// engine's shape). The header states the vectors' own hidden size and bucket count,
    /// so the trainer writes networks of other shapes with it too (which this build
    /// refuses to load, and a build of that shape reads).
    pub fn to_bytes(&self) -> Vec<u8> {
        let hidden = self.hidden_biases.len();
        let buckets = self.output_biases.len();
        assert_eq!(self.feature_weights.len(), INPUTS * hidden);
        assert_eq!(self.output_weights.len(), buckets * 2 * hidden);
        let mut out = Vec::with_capacity(file_size(hidden, buckets));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(hidden as u32).to_le_bytes());
        out.extend_from_slice(&(buckets as u32).to_le_bytes());
        for v in self
            .feature_weights
            .iter()
            .chain(&self.hidden_biases)
            .chain(&self.output_weights)
        {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for b in &self.output_biases {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// A network of random weights from `seed`, for tests and for development before a
    /// trained network exists (never to play with). The feature weights and hidden biases
    /// are small enough that a position's accumulator values spread across the clipping
    /// range `[0, QA]` and a little beyond it on both sides, so that every part of the
    /// activation is exercised; the output weights are small too, so that scores come out
    /// at a few hundred centipawns rather than at the evaluation's limits, where distinct
    /// outputs would be clamped to the same number.
    pub fn random(seed: u64) -> Network {
        let mut rng = crate::rng::SplitMix64::new(seed);
        let mut uniform = |n: usize, lo: i32, hi: i32| -> Vec<i16> {
            (0..n)
                .map(|_| (lo + rng.below((hi - lo + 1) as u64) as i32) as i16)
                .collect()
        };
        let feature_weights = uniform(INPUTS * HIDDEN, -60, 60);
        let hidden_biases = uniform(HIDDEN, -100, 300);
        let output_weights = uniform(OUTPUT_BUCKETS * 2 * HIDDEN, -6, 6);
        // Up to about a pawn (the bias is in units of QA · QB, see the module docs).
        let output_biases = uniform(OUTPUT_BUCKETS, -4000, 4000)
            .into_iter()
            .map(i32::from)
            .collect();
        Network {
            feature_weights,
            hidden_biases,
            output_weights,
            output_biases,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Network {
        let pattern = |n: usize, k: usize| (0..n).map(|i| ((i * k) % 511) as i16 - 255).collect();
        Network {
            feature_weights: pattern(INPUTS * HIDDEN, 7),
            hidden_biases: pattern(HIDDEN, 13),
            output_weights: pattern(OUTPUT_BUCKETS * 2 * HIDDEN, 29),
            output_biases: (0..OUTPUT_BUCKETS as i32)
                .map(|b| b * 1000 - 123_456)
                .collect(),
        }
    }

    #[test]
    fn file_round_trips() {
        let net = sample();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_SIZE);
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
    }

    #[test]
    fn bad_files_are_rejected_with_the_reason() {
        let bytes = sample().to_bytes();
        assert_eq!(
            Network::from_bytes(&bytes[..10]),
            Err(NetworkError::BadMagic)
        );
        let mut wrong_magic = bytes.clone();
        wrong_magic[0] = b'X';
        assert_eq!(
            Network::from_bytes(&wrong_magic),
            Err(NetworkError::BadMagic)
        );
        let mut wrong_version = bytes.clone();
        wrong_version[8] = 9;
        assert_eq!(
            Network::from_bytes(&wrong_version),
            Err(NetworkError::UnsupportedVersion(9))
        );
        let mut wrong_hidden = bytes.clone();
        wrong_hidden[12..16].copy_from_slice(&128u32.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&wrong_hidden),
            Err(NetworkError::WrongHiddenSize(128))
        );
        let mut wrong_buckets = bytes.clone();
        wrong_buckets[16..20].copy_from_slice(&1u32.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&wrong_buckets),
            Err(NetworkError::WrongBucketCount(1))
        );
        assert_eq!(
            Network::from_bytes(&bytes[..18]),
            Err(NetworkError::WrongLength {
                expected: FILE_SIZE,
                found: 18
            })
        );
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(
            Network::from_bytes(&long),
            Err(NetworkError::WrongLength {
                expected: FILE_SIZE,
                found: FILE_SIZE + 1
            })
        );
    }

    #[test]
    fn output_buckets_follow_the_piece_count() {
        let buckets: Vec<usize> = (2..=32).map(|n| output_bucket(n, OUTPUT_BUCKETS)).collect();
        assert_eq!(&buckets[..8], &[0, 0, 0, 0, 1, 1, 1, 1]);
        assert_eq!(&buckets[28..], &[7, 7, 7]);
        assert!(buckets.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        assert!((2..=32).all(|n| output_bucket(n, 1) == 0));
        assert_eq!(output_bucket(32, 3), 2);
    }

    #[test]
    fn feature_indices_mirror_between_perspectives() {
        let e2 = Square::new(12);
        let e7 = Square::new(52);
        // A white pawn on e2 for White is a black pawn on e7 for Black.
        assert_eq!(
            feature_index(Color::White, Color::White, PieceType::Pawn, e2),
            feature_index(Color::Black, Color::Black, PieceType::Pawn, e7)
        );
        assert_eq!(
            feature_index(Color::White, Color::White, PieceType::Pawn, e2),
            12
        );
        assert_eq!(
            feature_index(Color::Black, Color::White, PieceType::King, e2),
            384 + 5 * 64 + 52
        );
    }
}
