//! The two loops the NNUE evaluation spends its time in, written once portably and once
//! for each instruction set that speeds them up (AVX2, AVX-512), with the choice made at
//! run time.
//!
//! - [`Kernels::update`]: `dst = src + Σ adds − Σ subs`, element by element over one
//!   perspective's values (`H` of them, [`HIDDEN`] in the engine). After a move, a child
//!   accumulator is its parent plus the weight columns of the features that appeared,
//!   minus those that disappeared.
//! - [`Kernels::output`]: `Σ clamp(a, 0, QA)² · w` over both perspectives, the integer
//!   core of the output neuron (see `format.rs` for the formula around it).
//!
//! Everything is integer arithmetic that wraps on overflow (`i16` accumulators, `i32`
//! sums), in every version alike. Wrapping addition is associative and commutative, so
//! the order in which a vector version adds its lanes cannot change the result: the
//! versions agree bit for bit, and the tests check that they do.
//!
//! # Why `a · w` fits in an `i16`
//!
//! The output kernel multiplies the clipped activation `a` (0 to 255) by the output weight
//! `w` in 16 bits, then multiplies by `a` again while widening to 32 bits (`madd`: two such
//! products added into one `i32` lane). That needs `|a · w| ≤ 32767`, i.e. `|w| ≤ 128`.
//! The trainer clips output weights to ±1.98 before quantising by `QB` = 64, so
//! `|w| ≤ 127` and `|a · w| ≤ 32385`; the engine refuses a file with any output weight
//! beyond ±[`MAX_OUTPUT_WEIGHT`] (`network.rs`), so the product never wraps. The `madd` pair
//! sum is at most `2 · 32640 · 255`, far inside an `i32`. Only the total over all 512
//! neurons could pass the `i32` range, and only for a network with nearly every weight at
//! its limit and every activation saturated, which training does not produce; the
//! wrapping is defined so that every version agrees even then.
//!
//! # Choosing a version
//!
//! [`Kernels::best`] asks the CPU once per process (`is_x86_feature_detected!`) and
//! remembers the answer: AVX-512 (F and BW) where there is one, else AVX2, else the
//! portable code. A [`Kernels`] value for a vector version can only be obtained from that
//! detection, which is what makes calling the `#[target_feature]` functions sound.
//!
//! AVX-512 earns its place by measurement (`examples/nnue_speed.rs`, on the development
//! machine, a Xeon with AVX-512, busy with other work, six interleaved runs): an update
//! plus output took 38-244 ns with AVX-512 against 75-302 ns with AVX2, faster in every
//! run, and the output alone 26-59 ns against 33-118 ns. (The portable code, compiled for
//! the native CPU, is auto-vectorised: its updates are nearly as fast, its output is not.)
//!
//! The NNUE code keeps all its `unsafe` in this module, of two kinds only: unaligned
//! vector loads and stores through raw pointers, each bounds-checked by an assertion, and
//! calls into functions compiled for a CPU feature, each behind that feature's detection.

use super::format::{HIDDEN, QA};
use std::sync::OnceLock;

/// The largest output weight magnitude for which `a · w` fits in an `i16` for every
/// clipped activation `a` (`255 · 128 = 32640`; see the module documentation).
pub const MAX_OUTPUT_WEIGHT: i16 = 128;

/// One perspective's accumulator values, or one feature's weight column: `H` values, the
/// hidden layer's width, [`HIDDEN`] (the embedded network's) unless said otherwise. The
/// kernels are generic in the width so that the tests can run networks of other widths;
/// the engine's search instantiates them for `HIDDEN` only.
pub type Lanes<const H: usize = HIDDEN> = [i16; H];

/// A set of kernels: the portable ones, or a vector version the CPU was found to support.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Kernels(Isa);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Isa {
    Portable,
    /// Constructed only after `is_x86_feature_detected!("avx2")` returned true.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// Constructed only after AVX-512 F and BW were detected.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Kernels {
    /// Plain Rust, for any CPU: the reference the vector versions must match.
    pub const PORTABLE: Kernels = Kernels(Isa::Portable);

    /// The fastest kernels this CPU can run, found on the first call.
    pub fn best() -> Kernels {
        static BEST: OnceLock<Kernels> = OnceLock::new();
        *BEST.get_or_init(|| {
            *Kernels::available()
                .last()
                .expect("the portable kernels are always available")
        })
    }

    /// Every set of kernels this CPU can run, slowest (portable) first.
    pub fn available() -> Vec<Kernels> {
        let mut found = vec![Kernels::PORTABLE];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            found.push(Kernels(Isa::Avx2));
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
        {
            found.push(Kernels(Isa::Avx512));
        }
        found
    }

    /// The instruction set's name, for messages.
    pub fn name(self) -> &'static str {
        match self.0 {
            Isa::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => "AVX2",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => "AVX-512",
        }
    }

    /// `dst = src + Σ adds − Σ subs`, wrapping. `A` and `S` are compile-time counts (a
    /// move adds and removes at most two features per perspective), so that each
    /// combination gets its own fully unrolled loop.
    #[inline(always)]
    pub fn update<const H: usize, const A: usize, const S: usize>(
        self,
        dst: &mut Lanes<H>,
        src: &Lanes<H>,
        adds: [&Lanes<H>; A],
        subs: [&Lanes<H>; S],
    ) {
        match self.0 {
            Isa::Portable => portable::update(dst, src, adds, subs),
            // SAFETY: an `Isa::Avx2` value exists only where the CPU reported AVX2 (see
            // `available`), which is all `avx2::update` requires. (The block is not
            // needed, and so not `unsafe`, when AVX2 is enabled for the whole build.)
            #[cfg(target_arch = "x86_64")]
            #[allow(unused_unsafe)]
            Isa::Avx2 => unsafe { avx2::update(dst, src, adds, subs) },
            // SAFETY: likewise, an `Isa::Avx512` value exists only where the CPU reported
            // AVX-512F and AVX-512BW, which is all `avx512::update` requires.
            #[cfg(target_arch = "x86_64")]
            #[allow(unused_unsafe)]
            Isa::Avx512 => unsafe { avx512::update(dst, src, adds, subs) },
        }
    }

    /// `Σ clamp(a, 0, QA) · w · clamp(a, 0, QA)` over `us` with `w_us` and over `them` with
    /// `w_them`, the `a · w` product formed in an `i16` and everything summed in a wrapping
    /// `i32` (see the module documentation for why nothing is lost).
    #[inline(always)]
    pub fn output<const H: usize>(
        self,
        us: &Lanes<H>,
        w_us: &Lanes<H>,
        them: &Lanes<H>,
        w_them: &Lanes<H>,
    ) -> i32 {
        match self.0 {
            Isa::Portable => portable::output(us, w_us, them, w_them),
            // SAFETY: as in `update`: the value proves the CPU has AVX2.
            #[cfg(target_arch = "x86_64")]
            #[allow(unused_unsafe)]
            Isa::Avx2 => unsafe { avx2::output(us, w_us, them, w_them) },
            // SAFETY: as in `update`: the value proves the CPU has AVX-512F and AVX-512BW.
            #[cfg(target_arch = "x86_64")]
            #[allow(unused_unsafe)]
            Isa::Avx512 => unsafe { avx512::output(us, w_us, them, w_them) },
        }
    }
}

/// The reference versions, in plain Rust.
mod portable {
    use super::{Lanes, QA};

    pub(super) fn update<const H: usize, const A: usize, const S: usize>(
        dst: &mut Lanes<H>,
        src: &Lanes<H>,
        adds: [&Lanes<H>; A],
        subs: [&Lanes<H>; S],
    ) {
        for (i, out) in dst.iter_mut().enumerate() {
            let mut v = src[i];
            for column in adds {
                v = v.wrapping_add(column[i]);
            }
            for column in subs {
                v = v.wrapping_sub(column[i]);
            }
            *out = v;
        }
    }

    pub(super) fn output<const H: usize>(
        us: &Lanes<H>,
        w_us: &Lanes<H>,
        them: &Lanes<H>,
        w_them: &Lanes<H>,
    ) -> i32 {
        half(us, w_us).wrapping_add(half(them, w_them))
    }

    fn half<const H: usize>(acc: &Lanes<H>, weights: &Lanes<H>) -> i32 {
        acc.iter().zip(weights).fold(0i32, |sum, (&a, &w)| {
            let a = a.clamp(0, QA as i16);
            // The same 16-bit product as the vector versions (exact for allowed weights).
            let aw = a.wrapping_mul(w);
            sum.wrapping_add(i32::from(aw) * i32::from(a))
        })
    }
}

/// AVX2: sixteen `i16` lanes per 256-bit register.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Lanes, QA};
    use std::arch::x86_64::*;

    const LANES: usize = 16;

    /// One register's worth of `values` from `i`: 16 lanes.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn load<const H: usize>(values: &Lanes<H>, i: usize) -> __m256i {
        assert!(i + LANES <= H);
        // SAFETY: the assertion keeps the 32 bytes read inside `values` (the compiler
        // removes it, `i` coming from loops bounded by it). The load is unaligned, so the
        // array's alignment does not matter.
        unsafe { _mm256_loadu_si256(values.as_ptr().add(i).cast()) }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn update<const H: usize, const A: usize, const S: usize>(
        dst: &mut Lanes<H>,
        src: &Lanes<H>,
        adds: [&Lanes<H>; A],
        subs: [&Lanes<H>; S],
    ) {
        const { assert!(H.is_multiple_of(LANES), "the width is whole registers") };
        for i in (0..H).step_by(LANES) {
            let mut v = load(src, i);
            for column in adds {
                v = _mm256_add_epi16(v, load(column, i));
            }
            for column in subs {
                v = _mm256_sub_epi16(v, load(column, i));
            }
            assert!(i + LANES <= H);
            // SAFETY: the 32 bytes written lie inside `dst` (the assertion); unaligned
            // store, so alignment does not matter.
            unsafe { _mm256_storeu_si256(dst.as_mut_ptr().add(i).cast(), v) };
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn output<const H: usize>(
        us: &Lanes<H>,
        w_us: &Lanes<H>,
        them: &Lanes<H>,
        w_them: &Lanes<H>,
    ) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        const { assert!(H.is_multiple_of(LANES), "the width is whole registers") };
        for (acc, weights) in [(us, w_us), (them, w_them)] {
            for i in (0..H).step_by(LANES) {
                let a = _mm256_min_epi16(_mm256_max_epi16(load(acc, i), zero), qa);
                let aw = _mm256_mullo_epi16(a, load(weights, i));
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(aw, a));
            }
        }
        // Add the eight i32 lanes: the two 128-bit halves, then within a half.
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let pairs = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let total = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b10_11_00_01>(pairs));
        _mm_cvtsi128_si32(total)
    }
}

/// AVX-512: thirty-two `i16` lanes per 512-bit register (the 16-bit operations need BW).
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Lanes, QA};
    use std::arch::x86_64::*;

    const LANES: usize = 32;

    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn load<const H: usize>(values: &Lanes<H>, i: usize) -> __m512i {
        assert!(i + LANES <= H);
        // SAFETY: the 64 bytes read lie inside `values` (the assertion); unaligned load.
        unsafe { _mm512_loadu_si512(values.as_ptr().add(i).cast()) }
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn update<const H: usize, const A: usize, const S: usize>(
        dst: &mut Lanes<H>,
        src: &Lanes<H>,
        adds: [&Lanes<H>; A],
        subs: [&Lanes<H>; S],
    ) {
        const { assert!(H.is_multiple_of(LANES), "the width is whole registers") };
        for i in (0..H).step_by(LANES) {
            let mut v = load(src, i);
            for column in adds {
                v = _mm512_add_epi16(v, load(column, i));
            }
            for column in subs {
                v = _mm512_sub_epi16(v, load(column, i));
            }
            assert!(i + LANES <= H);
            // SAFETY: the 64 bytes written lie inside `dst` (the assertion); unaligned.
            unsafe { _mm512_storeu_si512(dst.as_mut_ptr().add(i).cast(), v) };
        }
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn output<const H: usize>(
        us: &Lanes<H>,
        w_us: &Lanes<H>,
        them: &Lanes<H>,
        w_them: &Lanes<H>,
    ) -> i32 {
        let zero = _mm512_setzero_si512();
        let qa = _mm512_set1_epi16(QA as i16);
        let mut sum = _mm512_setzero_si512();
        const { assert!(H.is_multiple_of(LANES), "the width is whole registers") };
        for (acc, weights) in [(us, w_us), (them, w_them)] {
            for i in (0..H).step_by(LANES) {
                let a = _mm512_min_epi16(_mm512_max_epi16(load(acc, i), zero), qa);
                let aw = _mm512_mullo_epi16(a, load(weights, i));
                sum = _mm512_add_epi32(sum, _mm512_madd_epi16(aw, a));
            }
        }
        _mm512_reduce_add_epi32(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    fn random_lanes(rng: &mut SplitMix64, lo: i32, hi: i32) -> Box<Lanes> {
        let mut v = Box::new([0i16; HIDDEN]);
        for x in v.iter_mut() {
            *x = (lo + rng.below((hi - lo + 1) as u64) as i32) as i16;
        }
        v
    }

    #[test]
    fn every_available_version_matches_the_portable_one() {
        let mut rng = SplitMix64::new(0x51_3D);
        for round in 0..200 {
            // Accumulators anywhere in i16 (wrapping included) or near the clipping range.
            let (lo, hi) = if round % 2 == 0 {
                (-32768, 32767)
            } else {
                (-300, 600)
            };
            let src = random_lanes(&mut rng, lo, hi);
            let cols: Vec<Box<Lanes>> = (0..4).map(|_| random_lanes(&mut rng, lo, hi)).collect();
            let m = MAX_OUTPUT_WEIGHT as i32;
            let w0 = random_lanes(&mut rng, -m, m);
            let w1 = random_lanes(&mut rng, -m, m);
            for k in Kernels::available() {
                let (mut want, mut got) = (Box::new([0i16; HIDDEN]), Box::new([0i16; HIDDEN]));
                Kernels::PORTABLE.update(&mut want, &src, [&cols[0], &cols[1]], [&cols[2]]);
                k.update(&mut got, &src, [&cols[0], &cols[1]], [&cols[2]]);
                assert_eq!(want, got, "{}", k.name());
                Kernels::PORTABLE.update(&mut want, &src, [], [&cols[3], &cols[0]]);
                k.update(&mut got, &src, [], [&cols[3], &cols[0]]);
                assert_eq!(want, got, "{}", k.name());
                assert_eq!(
                    Kernels::PORTABLE.output(&src, &w0, &cols[0], &w1),
                    k.output(&src, &w0, &cols[0], &w1),
                    "{}",
                    k.name()
                );
            }
        }
    }

    #[test]
    fn output_is_the_sum_of_squared_clipped_activations_times_weights() {
        let mut acc = [0i16; HIDDEN];
        let mut w = [0i16; HIDDEN];
        // Below zero clips to 0, inside stays, above QA clips to QA.
        acc[0] = -5;
        acc[1] = 10;
        acc[2] = 1000;
        w[0] = 100;
        w[1] = 3;
        w[2] = -MAX_OUTPUT_WEIGHT;
        let zero = [0i16; HIDDEN];
        let want = 10 * 10 * 3 - QA * QA * 128;
        for k in Kernels::available() {
            assert_eq!(k.output(&acc, &w, &zero, &zero), want, "{}", k.name());
            assert_eq!(k.output(&zero, &zero, &acc, &w), want, "{}", k.name());
        }
    }
}
