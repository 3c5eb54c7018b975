// The architecture of the network this engine embeds, as constants: the shape the vector
// loops are compiled for and the one a reader of the evaluation should picture. (This file
// holds constants only, no `use` and no inner docs, because `build.rs` includes it too:
// the build checks the embedded file's header against these numbers and stops, naming
// both, when they differ. To embed a network of another shape, change them here.)
//
//   768 inputs × 8 king buckets (mirrored)  →  256 hidden (×2 perspectives, SCReLU)  →  8 outputs
//
// The formats and the quantisation are in `format.rs`; what the buckets mean is there too.

/// Inputs per perspective and king bucket: 2 colours × 6 piece kinds × 64 squares.
pub const INPUTS: usize = 768;

/// Neurons in the hidden layer (the accumulator) of each perspective. The two
/// perspectives' accumulators, side to move first, make the output layer's 512 inputs.
/// A whole number of the widest vector register's lanes (AVX-512: 32 `i16`), since the
/// kernels step through it a register at a time.
pub const HIDDEN: usize = 256;

/// Output neurons, one per range of piece counts (`format::output_bucket`).
pub const OUTPUT_BUCKETS: usize = 8;

/// King input buckets: sets of [`INPUTS`] inputs, of which a perspective uses the one its
/// own king's square selects ([`KING_BUCKET_MAP`]).
pub const KING_BUCKETS: usize = 8;

/// Whether a perspective whose king stands on files e–h sees the board mirrored left to
/// right (so a king only ever sees itself on files a–d).
pub const KING_MIRRORED: bool = true;

/// The king bucket of each square of a side's own king, a1, b1, ..., h8, seen from that
/// side (rank 1 is its first rank): rank 1 one bucket for each file (a, b, c, d and their
/// mirror images), rank 2 a–b and c–d, rank 3, ranks 4 to 8 (the trainer's layout `8`).
#[rustfmt::skip]
pub const KING_BUCKET_MAP: [u8; 64] = [
    0, 1, 2, 3, 3, 2, 1, 0,
    4, 4, 5, 5, 5, 5, 4, 4,
    6, 6, 6, 6, 6, 6, 6, 6,
    7, 7, 7, 7, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 7, 7, 7,
];
