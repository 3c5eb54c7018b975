//! SplitMix64, the one small pseudo-random generator Tarpon uses: for the Zobrist keys (at
//! compile time), the book's weighted choice, datagen's openings, the tuner's batch order and
//! test data. It is fast, has a 64-bit state that a seed sets directly (so runs repeat), and
//! its outputs pass the usual statistical tests; nothing here needs more.

/// One step: the next state and the output for it.
pub const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// A SplitMix64 generator.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// Seeded from the clock and the process id: for choices that should differ between
    /// runs (book moves), not repeat.
    pub fn from_clock() -> SplitMix64 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        SplitMix64(nanos ^ u64::from(std::process::id()).rotate_left(32))
    }

    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = splitmix(self.0);
        self.0 = state;
        out
    }

    /// A number in `0..n`, `n > 0` (the modulo bias is negligible for the small `n` used).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A number in `[0, 1)`, from the top 53 bits (all that an `f64` holds exactly).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
