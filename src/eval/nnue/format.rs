//! The network's shape, its quantisation, and its file format: the contract between the
//! trainer (`tarpon train`, which writes networks) and the engine (which reads them).
//!
//! # Architecture
//!
//! Each side of the board has its own *perspective*: 768 binary inputs, one per (piece
//! colour relative to that side, piece kind, square), with the board mirrored top to
//! bottom for Black, so that both sides see their own pieces marching up the board. The
//! inputs of a perspective feed a hidden layer of `hidden` neurons (the *accumulator*;
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
//! # King input buckets
//!
//! A network may also have several sets of 768 inputs, *input buckets*, of which a
//! perspective uses the one its own king's square selects ([`KingBuckets`]): a knight on f3
//! is then worth one thing beside a king castled short and another beside a king in the
//! centre. The map from the king's square (seen from the perspective, so rank 1 is always
//! the side's own first rank) to its bucket is in the file. A *mirrored* network also
//! reflects the board left to right (file a ↔ h, square `^ 7`) for a perspective whose king
//! stands on files e–h, so a king only ever sees itself on files a–d: chess without
//! castling rights is the same game reflected, and the same examples train half as many
//! weights. The input of a piece is then
//!
//! ```text
//! bucket(king) · 768 + (colour relative to the side) · 384 + kind · 64 + square'
//! ```
//!
//! with `square'` the square flipped top to bottom for Black and, in a mirrored network
//! with that side's king on files e–h, left to right as well ([`View::index`]). Format
//! version 2 files have one bucket and no mirroring, where this is the plain index
//! ([`feature_index`]). The embedded network's shape, its width and its king buckets, is
//! written out in `shape.rs` and checked against the file by `build.rs`; the width is
//! compiled into the vector loops, while any other network's king buckets are read from
//! its file.
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
//! Version 3, which the trainer writes:
//!
//! | bytes    | content                                                                 |
//! |----------|-------------------------------------------------------------------------|
//! | 0..8     | magic `TARPNNUE`                                                        |
//! | 8..12    | `u32` format version, 3                                                 |
//! | 12..16   | `u32` hidden size `H` (the engine reads only its own, [`HIDDEN`])       |
//! | 16..20   | `u32` output buckets, must equal [`OUTPUT_BUCKETS`] for the engine      |
//! | 20..24   | `u32` input buckets `B`, 1 to [`MAX_INPUT_BUCKETS`]                     |
//! | 24..28   | `u32` flags: bit 0, mirrored (see above); the other bits must be 0      |
//! | 28..92   | `u8` × 64: the bucket of the side's own king on each square a1, b1, …, h8, seen from that side (rank-flipped for Black; before the left-right mirror). Each entry is below `B`; in a mirrored network a square and its mirror image (`^ 7`) have the same bucket |
//! | then     | `i16` feature weights, `B` × 768 × `H`, input by input (the `H` weights of input 0, then of input 1, ...); bucket `b`'s inputs are `b · 768 ..` |
//! | then     | `i16` hidden biases, `H`                                                |
//! | then     | `i16` output weights, OUTPUT_BUCKETS × 2 × `H`: bucket by bucket, each the side to move's half first |
//! | then     | `i32` output biases, OUTPUT_BUCKETS                                     |
//!
//! Nothing follows; a file of any other length is rejected. Version 2 (the networks up to
//! king buckets, the default network before 2026-11-26 among them) is the same without
//! bytes 20..92: one input bucket, not mirrored. Both are read.

use crate::chess::{Color, PieceType, Square};

pub use super::shape::{HIDDEN, INPUTS, OUTPUT_BUCKETS};
/// Quantisation factor of the feature weights and hidden biases (the activation's 1.0).
pub const QA: i32 = 255;
/// Quantisation factor of the output weights.
pub const QB: i32 = 64;
/// The network's output times `SCALE` is the score in centipawns.
pub const SCALE: i32 = 400;
/// Feature and output weights are clipped to this magnitude (in floating point) before
/// quantisation; see the module documentation.
pub const WEIGHT_CLIP: f32 = 1.98;
/// The file format version the trainer writes (version 1 had one output, version 2 no
/// king buckets).
pub const VERSION: u32 = 3;
/// The oldest version still read.
pub const OLDEST_VERSION: u32 = 2;
/// The first eight bytes of every network file.
pub const MAGIC: &[u8; 8] = b"TARPNNUE";
/// The bytes before the weights in a version 2 file: magic, version, hidden size, output
/// buckets.
pub const HEADER_SIZE_V2: usize = 20;
/// The bytes before the weights in a version 3 file: version 2's, then input buckets,
/// flags and the 64-square king map.
pub const HEADER_SIZE: usize = HEADER_SIZE_V2 + 4 + 4 + 64;
/// The most input buckets a network may have: one per square of half a board.
pub const MAX_INPUT_BUCKETS: usize = 32;
/// The widest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 4096;
/// Flag bit of a mirrored network.
const FLAG_MIRRORED: u32 = 1;
/// The exact size in bytes of a version 2 network file with [`HIDDEN`] neurons and
/// [`OUTPUT_BUCKETS`] outputs.
pub const FILE_SIZE: usize = file_size_v2(HIDDEN, OUTPUT_BUCKETS);

/// The little-endian `u32` at byte `at` of a header, in a `const` context.
const fn header_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The size of the weights (everything after the header) of a network of this shape.
const fn weights_size(hidden: usize, output_buckets: usize, input_buckets: usize) -> usize {
    2 * (input_buckets * INPUTS * hidden + hidden + output_buckets * 2 * hidden)
        + 4 * output_buckets
}

/// The size in bytes of a version 2 network file of this shape.
pub const fn file_size_v2(hidden: usize, buckets: usize) -> usize {
    HEADER_SIZE_V2 + weights_size(hidden, buckets, 1)
}

/// The size in bytes of a version 3 network file of this shape.
pub const fn file_size(hidden: usize, output_buckets: usize, input_buckets: usize) -> usize {
    HEADER_SIZE + weights_size(hidden, output_buckets, input_buckets)
}

/// The output bucket of a position with `pieces` pieces on the board, kings included:
/// 2–5 pieces use output 0, 6–9 output 1, and so on up to 30–32, output 7. Capped at
/// `buckets − 1`, so a network with fewer outputs (the trainer can make one, to measure
/// what the buckets bring) lumps the fullest boards together.
#[inline(always)]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) / 4).min(buckets - 1)
}

/// The input index of a `color` `kind` on `square`, seen from `perspective`, in a network
/// without king buckets or mirroring (version 2): pieces of the perspective's own colour
/// come first (0..384), the opponent's after (384..768), and Black's perspective mirrors
/// the board top to bottom.
#[inline(always)]
pub fn feature_index(perspective: Color, color: Color, kind: PieceType, square: Square) -> usize {
    View::plain(perspective).index(color, kind, square)
}

/// Which set of inputs each square of a side's own king selects, and whether the board is
/// mirrored left to right (see the module documentation).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct KingBuckets {
    count: u8,
    mirrored: bool,
    /// Indexed by the king's square seen from its own side (rank-flipped for Black).
    map: [u8; 64],
}

/// How one perspective sees the board: the king bucket's first input, and the squares'
/// transformation (`^ 56` for Black, `^ 7` when mirrored, both or neither), from which
/// [`View::index`] gives each piece's input.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct View {
    perspective: Color,
    /// `bucket · 768`.
    base: u16,
    /// Xored into a square: the perspective's rank flip and the king's file mirror.
    square_xor: u8,
    /// Which refresh-table entry of the perspective holds this view (`bucket · 2 + mirrored`).
    slot: u8,
}

impl View {
    /// The view of a network without king buckets or mirroring.
    #[inline(always)]
    pub const fn plain(perspective: Color) -> View {
        View {
            perspective,
            base: 0,
            square_xor: rank_flip(perspective),
            slot: 0,
        }
    }

    /// The input of a `color` `kind` on `square` (see the module documentation).
    #[inline(always)]
    pub fn index(self, color: Color, kind: PieceType, square: Square) -> usize {
        let side = if color == self.perspective { 0 } else { 384 };
        usize::from(self.base)
            + side
            + kind.index() * 64
            + (square.index() ^ usize::from(self.square_xor))
    }

    /// The refresh-table slot of this view: a number below [`KingBuckets::views`], the same
    /// for two king squares exactly when their inputs are the same.
    #[inline(always)]
    pub fn slot(self) -> usize {
        usize::from(self.slot)
    }

    pub fn perspective(self) -> Color {
        self.perspective
    }
}

/// `^ 56` (rank 1 ↔ rank 8) for Black's perspective, nothing for White's.
#[inline(always)]
const fn rank_flip(perspective: Color) -> u8 {
    match perspective {
        Color::White => 0,
        Color::Black => 56,
    }
}

/// Why a king-bucket map cannot be used.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum KingBucketError {
    /// Not 1 to [`MAX_INPUT_BUCKETS`].
    Count(u32),
    /// Flag bits this build does not know.
    Flags(u32),
    /// A square's bucket is not below the count.
    Bucket {
        square: usize,
        bucket: u8,
        count: u32,
    },
    /// A mirrored network gives a square and its mirror image different buckets.
    Asymmetric { square: usize },
}

impl std::fmt::Display for KingBucketError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            KingBucketError::Count(n) => write!(
                f,
                "{n} king input buckets, expected 1 to {MAX_INPUT_BUCKETS}"
            ),
            KingBucketError::Flags(bits) => write!(f, "unknown flags {bits:#x}"),
            KingBucketError::Bucket {
                square,
                bucket,
                count,
            } => write!(
                f,
                "the king bucket map gives square {} bucket {bucket}, but there are {count}",
                Square::new(*square as u8)
            ),
            KingBucketError::Asymmetric { square } => write!(
                f,
                "the network is mirrored but its king bucket map gives {} and {} different buckets",
                Square::new(*square as u8),
                Square::new((*square ^ 7) as u8)
            ),
        }
    }
}

impl KingBuckets {
    /// One bucket, no mirroring: the inputs of a version 2 network.
    pub const NONE: KingBuckets = KingBuckets {
        count: 1,
        mirrored: false,
        map: [0; 64],
    };

    /// A map of `count` buckets, checked as a file's is.
    pub fn new(count: u32, mirrored: bool, map: [u8; 64]) -> Result<KingBuckets, KingBucketError> {
        if !(1..=MAX_INPUT_BUCKETS as u32).contains(&count) {
            return Err(KingBucketError::Count(count));
        }
        for (square, &bucket) in map.iter().enumerate() {
            if u32::from(bucket) >= count {
                return Err(KingBucketError::Bucket {
                    square,
                    bucket,
                    count,
                });
            }
            if mirrored && map[square ^ 7] != bucket {
                return Err(KingBucketError::Asymmetric { square });
            }
        }
        Ok(KingBuckets {
            count: count as u8,
            mirrored,
            map,
        })
    }

    /// The number of input buckets.
    pub fn count(&self) -> usize {
        usize::from(self.count)
    }

    pub fn mirrored(&self) -> bool {
        self.mirrored
    }

    /// The bucket of each square of the side's own king, seen from that side.
    pub fn map(&self) -> &[u8; 64] {
        &self.map
    }

    /// Whether the inputs depend on the king at all (if not, a king move is an ordinary
    /// update and no accumulator ever needs a refresh).
    pub fn king_dependent(&self) -> bool {
        self.count > 1 || self.mirrored
    }

    /// The inputs per perspective: 768 per bucket.
    pub fn inputs(&self) -> usize {
        self.count() * INPUTS
    }

    /// How many different views a perspective can have: one per bucket and mirror half.
    pub fn views(&self) -> usize {
        2 * self.count()
    }

    /// The first input and the square transformation for a king on `relative_king`, a
    /// square seen from the king's own side: `(bucket · 768, 7 if mirrored else 0)`. The
    /// trainer, whose records are already seen from one side, works with these directly.
    #[inline(always)]
    pub fn frame(&self, relative_king: usize) -> (usize, usize) {
        let bucket = usize::from(self.map[relative_king]);
        let mirror = if self.mirrored && relative_king & 7 >= 4 {
            7
        } else {
            0
        };
        (bucket * INPUTS, mirror)
    }

    /// How `perspective` sees the board with its king on `king`.
    #[inline(always)]
    pub fn view(&self, perspective: Color, king: Square) -> View {
        let flip = rank_flip(perspective);
        let (base, mirror) = self.frame(king.index() ^ usize::from(flip));
        let bucket = base / INPUTS;
        View {
            perspective,
            base: base as u16,
            square_xor: flip ^ mirror as u8,
            slot: (2 * bucket + usize::from(mirror != 0)) as u8,
        }
    }
}

/// The fields of a network file's header.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Header {
    pub version: u32,
    pub hidden: usize,
    pub output_buckets: usize,
    pub king_buckets: KingBuckets,
}

impl Header {
    /// The bytes of the header in the file.
    pub fn size(&self) -> usize {
        if self.version >= 3 {
            HEADER_SIZE
        } else {
            HEADER_SIZE_V2
        }
    }

    /// The exact size of the whole file.
    pub fn file_size(&self) -> usize {
        self.size() + weights_size(self.hidden, self.output_buckets, self.king_buckets.count())
    }

    /// The shape in words, for messages: `768x4 (mirrored) -> 512x2 -> 8`.
    pub fn shape(&self) -> String {
        let kings = &self.king_buckets;
        let inputs = match (kings.count(), kings.mirrored()) {
            (1, false) => format!("{INPUTS}"),
            (n, mirrored) => format!(
                "{INPUTS}x{n} king buckets{}",
                if mirrored { ", mirrored" } else { "" }
            ),
        };
        format!("{inputs} -> {}x2 -> {}", self.hidden, self.output_buckets)
    }

    /// Reads and checks a file's header: magic, version, sizes, king buckets (not the
    /// file's length).
    pub fn parse(bytes: &[u8]) -> Result<Header, NetworkError> {
        if bytes.len() < 12 || &bytes[0..8] != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let u32_at = |at: usize| header_u32(bytes, at);
        let version = u32_at(8);
        if !(OLDEST_VERSION..=VERSION).contains(&version) {
            return Err(NetworkError::UnsupportedVersion(version));
        }
        let header_size = if version >= 3 {
            HEADER_SIZE
        } else {
            HEADER_SIZE_V2
        };
        if bytes.len() < header_size {
            return Err(NetworkError::Truncated {
                found: bytes.len(),
                header: header_size,
            });
        }
        let hidden = u32_at(12);
        if !(1..=MAX_HIDDEN as u32).contains(&hidden) {
            return Err(NetworkError::WrongHiddenSize(hidden));
        }
        let output_buckets = u32_at(16);
        if !(1..=OUTPUT_BUCKETS as u32).contains(&output_buckets) {
            return Err(NetworkError::WrongBucketCount(output_buckets));
        }
        let king_buckets = if version >= 3 {
            let flags = u32_at(24);
            if flags & !FLAG_MIRRORED != 0 {
                return Err(NetworkError::KingBuckets(KingBucketError::Flags(flags)));
            }
            let map = bytes[28..92].try_into().expect("64 bytes");
            KingBuckets::new(u32_at(20), flags & FLAG_MIRRORED != 0, map)
                .map_err(NetworkError::KingBuckets)?
        } else {
            KingBuckets::NONE
        };
        Ok(Header {
            version,
            hidden: hidden as usize,
            output_buckets: output_buckets as usize,
            king_buckets,
        })
    }
}

/// A quantised network, as read from or written to a file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Network {
    /// The king input buckets (`KingBuckets::NONE` for a version 2 file).
    pub king_buckets: KingBuckets,
    /// `king_buckets.inputs() × HIDDEN`: the weights of input `f` are `[f * HIDDEN ..
    /// (f + 1) * HIDDEN]`.
    pub feature_weights: Vec<i16>,
    /// `HIDDEN`: the accumulator's starting values.
    pub hidden_biases: Vec<i16>,
    /// `OUTPUT_BUCKETS × 2 × HIDDEN`: bucket `b`'s weights are `[2b · HIDDEN .. 2(b + 1) ·
    /// HIDDEN]`, the first half multiplying the side to move's accumulator.
    pub output_weights: Vec<i16>,
    /// `OUTPUT_BUCKETS`, in units of `QA · QB`.
    pub output_biases: Vec<i32>,
}

/// Why a byte string is not a network, or not one this build can use.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NetworkError {
    BadMagic,
    UnsupportedVersion(u32),
    /// A hidden size no network has (0, or beyond [`MAX_HIDDEN`]).
    WrongHiddenSize(u32),
    /// An output bucket count no network has (0, or beyond [`OUTPUT_BUCKETS`]).
    WrongBucketCount(u32),
    /// Shorter than its own header.
    Truncated {
        found: usize,
        header: usize,
    },
    KingBuckets(KingBucketError),
    WrongLength {
        expected: usize,
        found: usize,
    },
    /// A good file of another shape than this build evaluates (`found` and `expected`
    /// are [`Header::shape`]s).
    WrongShape {
        found: String,
        expected: String,
    },
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            NetworkError::BadMagic => write!(
                f,
                "not a Tarpon network (the file does not start with TARPNNUE)"
            ),
            NetworkError::UnsupportedVersion(v) => write!(
                f,
                "network format version {v}, this build reads versions {OLDEST_VERSION} to {VERSION}"
            ),
            NetworkError::WrongHiddenSize(n) => write!(
                f,
                "network header says {n} hidden neurons, expected 1 to {MAX_HIDDEN}"
            ),
            NetworkError::WrongBucketCount(n) => write!(
                f,
                "network header says {n} output buckets, expected 1 to {OUTPUT_BUCKETS}"
            ),
            NetworkError::Truncated { found, header } => write!(
                f,
                "network file is {found} bytes, shorter than its {header}-byte header"
            ),
            NetworkError::KingBuckets(e) => write!(f, "network header: {e}"),
            NetworkError::WrongLength { expected, found } => {
                write!(f, "network file is {found} bytes, expected {expected}")
            }
            NetworkError::WrongShape { found, expected } => write!(
                f,
                "network is {found}, but this build evaluates {expected} networks \
                 (rebuild with TARPON_NET=<file> to embed and play one of another width)"
            ),
        }
    }
}

impl std::error::Error for NetworkError {}

impl Network {
    /// Parses a network file of any shape (version 2 or 3), checking the header and the
    /// exact length. Whether this build can evaluate it is `Net`'s question.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let header = Header::parse(bytes)?;
        if bytes.len() != header.file_size() {
            return Err(NetworkError::WrongLength {
                expected: header.file_size(),
                found: bytes.len(),
            });
        }
        let hidden = header.hidden;
        let buckets = header.output_buckets;
        let mut rest = &bytes[header.size()..];
        let mut take_i16 = |n: usize| -> Vec<i16> {
            let (head, tail) = rest.split_at(2 * n);
            rest = tail;
            head.chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        let feature_weights = take_i16(header.king_buckets.inputs() * hidden);
        let hidden_biases = take_i16(hidden);
        let output_weights = take_i16(buckets * 2 * hidden);
        let output_biases = rest
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        Ok(Network {
            king_buckets: header.king_buckets,
            feature_weights,
            hidden_biases,
            output_weights,
            output_biases,
        })
    }

    /// The network's shape, as its file's header states it.
    pub fn header(&self) -> Header {
        Header {
            version: VERSION,
            hidden: self.hidden_biases.len(),
            output_buckets: self.output_biases.len(),
            king_buckets: self.king_buckets,
        }
    }

    /// The bytes of a version 3 file of this network (the inverse of
    /// [`Network::from_bytes`]). The header states the vectors' own shape, so the trainer
    /// writes networks of every shape with it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let header = self.header();
        let kings = &self.king_buckets;
        assert_eq!(self.feature_weights.len(), kings.inputs() * header.hidden);
        assert_eq!(
            self.output_weights.len(),
            header.output_buckets * 2 * header.hidden
        );
        let mut out = Vec::with_capacity(header.file_size());
        out.extend_from_slice(MAGIC);
        let flags = if kings.mirrored() { FLAG_MIRRORED } else { 0 };
        for field in [
            VERSION,
            header.hidden as u32,
            header.output_buckets as u32,
            kings.count() as u32,
            flags,
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(kings.map());
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
        debug_assert_eq!(out.len(), header.file_size());
        out
    }

    /// A network of random weights of the embedded width and no king buckets, from
    /// `seed`: see [`Network::random_shaped`].
    pub fn random(seed: u64) -> Network {
        Network::random_shaped(seed, HIDDEN, KingBuckets::NONE)
    }

    /// A network of random weights from `seed`, for tests and for development before a
    /// trained network exists (never to play with). The feature weights and hidden biases
    /// are small enough that a position's accumulator values spread across the clipping
    /// range `[0, QA]` and a little beyond it on both sides, so that every part of the
    /// activation is exercised; the output weights are small too, so that scores come out
    /// at a few hundred centipawns rather than at the evaluation's limits, where distinct
    /// outputs would be clamped to the same number.
    pub fn random_shaped(seed: u64, hidden: usize, king_buckets: KingBuckets) -> Network {
        let mut rng = crate::rng::SplitMix64::new(seed);
        let mut uniform = |n: usize, lo: i32, hi: i32| -> Vec<i16> {
            (0..n)
                .map(|_| (lo + rng.below((hi - lo + 1) as u64) as i32) as i16)
                .collect()
        };
        let feature_weights = uniform(king_buckets.inputs() * hidden, -60, 60);
        let hidden_biases = uniform(hidden, -100, 300);
        let output_weights = uniform(OUTPUT_BUCKETS * 2 * hidden, -6, 6);
        // Up to about a pawn (the bias is in units of QA · QB, see the module docs).
        let output_biases = uniform(OUTPUT_BUCKETS, -4000, 4000)
            .into_iter()
            .map(i32::from)
            .collect();
        Network {
            king_buckets,
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

    /// Four buckets: the king's first rank on files a–b, c–d, its second rank, and the rest;
    /// mirrored, so files e–h repeat a–d.
    pub(crate) fn four_buckets() -> KingBuckets {
        let mut map = [3u8; 64];
        for (square, bucket) in map.iter_mut().enumerate() {
            let file = (square % 8).min(7 - square % 8);
            *bucket = match square / 8 {
                0 if file < 2 => 0,
                0 => 1,
                1 => 2,
                _ => 3,
            };
        }
        KingBuckets::new(4, true, map).unwrap()
    }

    fn sample(king_buckets: KingBuckets) -> Network {
        let pattern = |n: usize, k: usize| (0..n).map(|i| ((i * k) % 511) as i16 - 255).collect();
        Network {
            king_buckets,
            feature_weights: pattern(king_buckets.inputs() * HIDDEN, 7),
            hidden_biases: pattern(HIDDEN, 13),
            output_weights: pattern(OUTPUT_BUCKETS * 2 * HIDDEN, 29),
            output_biases: (0..OUTPUT_BUCKETS as i32)
                .map(|b| b * 1000 - 123_456)
                .collect(),
        }
    }

    /// The version 2 file of a network without king buckets: version 3's without the
    /// input buckets, flags and map.
    pub(crate) fn version_2_bytes(net: &Network) -> Vec<u8> {
        assert_eq!(net.king_buckets, KingBuckets::NONE);
        let v3 = net.to_bytes();
        let mut v2 = v3[..HEADER_SIZE_V2].to_vec();
        v2[8..12].copy_from_slice(&2u32.to_le_bytes());
        v2.extend_from_slice(&v3[HEADER_SIZE..]);
        v2
    }

    #[test]
    fn files_round_trip() {
        for kings in [KingBuckets::NONE, four_buckets()] {
            let net = sample(kings);
            let bytes = net.to_bytes();
            assert_eq!(
                bytes.len(),
                file_size(HIDDEN, OUTPUT_BUCKETS, kings.count())
            );
            assert_eq!(&bytes[8..12], &3u32.to_le_bytes());
            assert_eq!(Network::from_bytes(&bytes), Ok(net));
        }
        assert_eq!(
            file_size(512, 8, 4),
            92 + 2 * (4 * 768 * 512 + 512 + 8 * 2 * 512) + 4 * 8
        );
    }

    #[test]
    fn version_2_files_read_as_one_bucket_without_mirroring() {
        let net = sample(KingBuckets::NONE);
        let v2 = version_2_bytes(&net);
        assert_eq!(v2.len(), FILE_SIZE);
        assert_eq!(Network::from_bytes(&v2), Ok(net.clone()));
        // Written again, it is version 3 with the same weights.
        assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
    }

    #[test]
    fn bad_files_are_rejected_with_the_reason() {
        let bytes = sample(four_buckets()).to_bytes();
        let edited = |at: usize, value: u32| {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&value.to_le_bytes());
            Network::from_bytes(&b)
        };
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
        assert_eq!(edited(8, 9), Err(NetworkError::UnsupportedVersion(9)));
        assert_eq!(edited(8, 1), Err(NetworkError::UnsupportedVersion(1)));
        assert_eq!(edited(12, 0), Err(NetworkError::WrongHiddenSize(0)));
        assert_eq!(edited(16, 9), Err(NetworkError::WrongBucketCount(9)));
        // A header cut short, and a file cut short or too long.
        assert_eq!(
            Network::from_bytes(&bytes[..50]),
            Err(NetworkError::Truncated {
                found: 50,
                header: HEADER_SIZE
            })
        );
        let expected = bytes.len();
        assert_eq!(
            Network::from_bytes(&bytes[..expected - 1]),
            Err(NetworkError::WrongLength {
                expected,
                found: expected - 1
            })
        );
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(
            Network::from_bytes(&long),
            Err(NetworkError::WrongLength {
                expected,
                found: expected + 1
            })
        );
        // The king buckets: their count, the flags, the map.
        assert_eq!(
            edited(20, 0),
            Err(NetworkError::KingBuckets(KingBucketError::Count(0)))
        );
        assert_eq!(
            edited(20, 33),
            Err(NetworkError::KingBuckets(KingBucketError::Count(33)))
        );
        assert_eq!(
            edited(24, 3),
            Err(NetworkError::KingBuckets(KingBucketError::Flags(3)))
        );
        // Square e1 (4) in bucket 4 of 4, and e1 in bucket 0 while d1 is in 1.
        let mut beyond = bytes.clone();
        beyond[28 + 4] = 4;
        beyond[28 + 3] = 4;
        let e = Network::from_bytes(&beyond).unwrap_err();
        assert_eq!(
            e,
            NetworkError::KingBuckets(KingBucketError::Bucket {
                square: 3,
                bucket: 4,
                count: 4
            })
        );
        assert!(e.to_string().contains("d1 bucket 4"), "{e}");
        let mut asymmetric = bytes.clone();
        asymmetric[28 + 4] = 0;
        let e = Network::from_bytes(&asymmetric).unwrap_err();
        assert_eq!(
            e,
            NetworkError::KingBuckets(KingBucketError::Asymmetric { square: 3 })
        );
        assert!(e.to_string().contains("d1 and e1"), "{e}");
        // Unmirrored, the same map is fine.
        let mut unmirrored = asymmetric.clone();
        unmirrored[24] = 0;
        assert!(Network::from_bytes(&unmirrored).is_ok());
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
        // Without king buckets the king's square changes nothing.
        for king in [0, 7, 36, 63] {
            for perspective in Color::ALL {
                let view = KingBuckets::NONE.view(perspective, Square::new(king));
                assert_eq!(view, View::plain(perspective));
            }
        }
    }

    #[test]
    fn king_buckets_select_inputs_and_mirror_the_board() {
        let kings = four_buckets();
        let sq = |name: &str| -> Square {
            let b = name.as_bytes();
            Square::new((b[1] - b'1') * 8 + (b[0] - b'a'))
        };
        let index = |perspective, king: &str, color, kind, square: &str| {
            kings
                .view(perspective, sq(king))
                .index(color, kind, sq(square))
        };
        let (w, b) = (Color::White, Color::Black);
        let pawn = PieceType::Pawn;
        // White king on b1: bucket 0, not mirrored: the plain index.
        assert_eq!(index(w, "b1", w, pawn, "e2"), 12);
        // On g1: bucket 0 and mirrored, so e2 is seen as d2.
        assert_eq!(index(w, "g1", w, pawn, "e2"), 11);
        // On d1 (bucket 1) and e1 (bucket 1, mirrored).
        assert_eq!(index(w, "d1", w, pawn, "e2"), 768 + 12);
        assert_eq!(index(w, "e1", w, pawn, "e2"), 768 + 11);
        // Black's king on g8 is on its own g1: bucket 0, mirrored; e7 is its e2, seen as d2.
        assert_eq!(index(b, "g8", b, pawn, "e7"), 11);
        // Black's king on e2 (its e7): bucket 3, mirrored; White's pawn on a1 is Black's
        // opponent's pawn on its a8, mirrored to h8.
        assert_eq!(index(b, "e2", w, pawn, "a1"), 3 * 768 + 384 + 63);
        // Slots: one per bucket and half.
        let slot = |king: &str| kings.view(w, sq(king)).slot();
        assert_eq!(
            [slot("a1"), slot("h1"), slot("d1"), slot("e1")],
            [0, 1, 2, 3]
        );
        assert_eq!([slot("a5"), slot("h8")], [6, 7]);
        assert!((0..64).all(|k| kings.view(b, Square::new(k)).slot() < kings.views()));
    }
}
