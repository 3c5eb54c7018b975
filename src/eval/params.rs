//! The list of every evaluation weight: its name, what it means, where the `eval` table
//! shows it, and whether it adds to the score directly or feeds the king-danger curve.
//!
//! The values themselves live in [`weights`](super::weights), a file that `tarpon tune`
//! rewrites; everything else about a weight lives here, so a tuning run changes numbers
//! only. Each weight is either one `S(mg, eg)` pair or an array of them, and all of them
//! together are numbered `0..COUNT` in the order listed ("flat index"): the tracer
//! records coefficients by flat index, and the tuner works on the flat vector.
//!
//! Evaluation code names a weight with [`w!`]: `w!(DOUBLED_PAWN)` or
//! `w!(PASSED_PAWN[rank])` gives a [`Weight`], its value together with its flat index, so
//! the score and the trace can never disagree about which weight was used.

use super::S;
use super::weights;

/// How a weight enters the evaluation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Added to the score of the side that has the feature, `count` times.
    Linear,
}

/// A weight's value and its flat index, as [`w!`] hands it to the evaluation.
#[derive(Copy, Clone, Debug)]
pub struct Weight {
    pub index: usize,
    pub value: S,
}

/// What the tuner and the `eval` table need to know about one named weight.
#[derive(Copy, Clone, Debug)]
pub struct Info {
    pub name: &'static str,
    /// The documentation comment (one line per line of `///`), copied into `weights.rs`.
    pub doc: &'static str,
    /// The row of the `eval` table its contribution is shown in.
    pub label: &'static str,
    pub kind: Kind,
    /// Flat index of its first value.
    pub offset: usize,
    /// How many values it has (1 for a single pair).
    pub len: usize,
    /// Whether it is an array (`[S; len]`) rather than a single `S`.
    pub array: bool,
}

/// The two shapes a weight can have.
pub trait Shape {
    const LEN: usize;
    const ARRAY: bool;
    fn flatten(&self, out: &mut Vec<S>);
}

impl Shape for S {
    const LEN: usize = 1;
    const ARRAY: bool = false;
    fn flatten(&self, out: &mut Vec<S>) {
        out.push(*self);
    }
}

impl<const N: usize> Shape for [S; N] {
    const LEN: usize = N;
    const ARRAY: bool = true;
    fn flatten(&self, out: &mut Vec<S>) {
        out.extend_from_slice(self);
    }
}

const fn len_of<T: Shape>(_: &T) -> usize {
    T::LEN
}

const fn is_array<T: Shape>(_: &T) -> bool {
    T::ARRAY
}

/// The flat index of the `i`-th named weight: the sizes of all those before it, summed.
const fn offset_of(i: usize) -> usize {
    let mut sum = 0;
    let mut j = 0;
    while j < i {
        sum += LENS[j];
        j += 1;
    }
    sum
}

/// How many values there are in all.
pub const COUNT: usize = offset_of(LENS.len());

/// Names a weight for the evaluation: `w!(NAME)` or `w!(NAME[i])`.
macro_rules! w {
    ($name:ident) => {
        $crate::eval::params::Weight {
            index: $crate::eval::params::offset::$name,
            value: $crate::eval::weights::$name,
        }
    };
    ($name:ident[$i:expr]) => {{
        let i: usize = $i;
        $crate::eval::params::Weight {
            index: $crate::eval::params::offset::$name + i,
            value: $crate::eval::weights::$name[i],
        }
    }};
}
pub(crate) use w;

/// Declares the weights: an ordinal per name, the offsets, [`INFO`] and [`values`].
macro_rules! registry {
    ($( $(#[doc = $doc:literal])+ $name:ident => $label:literal, $kind:ident; )+) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Copy, Clone)]
        enum Id { $($name),+ }

        const LENS: &[usize] = &[$(len_of(&weights::$name)),+];

        /// The flat index of each weight's first value.
        pub mod offset {
            $(pub const $name: usize = super::offset_of(super::Id::$name as usize);)+
        }

        /// Every named weight, in flat-index order.
        pub const INFO: &[Info] = &[$(Info {
            name: stringify!($name),
            doc: concat!($($doc, "\n"),+),
            label: $label,
            kind: Kind::$kind,
            offset: offset::$name,
            len: len_of(&weights::$name),
            array: is_array(&weights::$name),
        }),+];

        /// The compiled-in value of every weight, by flat index.
        pub fn values() -> Vec<S> {
            let mut out = Vec::with_capacity(COUNT);
            $(Shape::flatten(&weights::$name, &mut out);)+
            out
        }
    };
}

registry! {
    // ----- Material and piece-square tables -----

    /// What each piece is worth: pawn, knight, bishop, rook, queen (the king is never
    /// traded, so it has no value). Started from PeSTO (Ronald Friederich's Texel-tuned
    /// tables, as published on the Chess Programming Wiki).
    PIECE_VALUE => "Material", Linear;
    /// Bonus for a pawn on each square. All six tables are laid out as printed, from
    /// White's side with rank 8 first (a8..h8, then a7..h7, ...); a Black piece reads its
    /// mirrored square. Started from PeSTO; the rank 1 and rank 8 entries are never used.
    PAWN_PST => "Pawn PST", Linear;
    /// Bonus for a knight on each square (layout as for `PAWN_PST`).
    KNIGHT_PST => "Knight PST", Linear;
    /// Bonus for a bishop on each square (layout as for `PAWN_PST`).
    BISHOP_PST => "Bishop PST", Linear;
    /// Bonus for a rook on each square (layout as for `PAWN_PST`).
    ROOK_PST => "Rook PST", Linear;
    /// Bonus for a queen on each square (layout as for `PAWN_PST`).
    QUEEN_PST => "Queen PST", Linear;
    /// Bonus for the king on each square (layout as for `PAWN_PST`): sheltered in the
    /// middlegame, central in the endgame.
    KING_PST => "King PST", Linear;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_contiguous_and_values_line_up() {
        let values = values();
        assert_eq!(values.len(), COUNT);
        let mut next = 0;
        for info in INFO {
            assert_eq!(info.offset, next, "{}", info.name);
            next += info.len;
        }
        assert_eq!(next, COUNT);
        assert_eq!(values[offset::PIECE_VALUE + 1], weights::PIECE_VALUE[1]);
        assert_eq!(w!(KNIGHT_PST[5]).value, weights::KNIGHT_PST[5]);
        assert_eq!(w!(KNIGHT_PST[5]).index, offset::KNIGHT_PST + 5);
        assert_eq!(w!(KING_PST[63]).index, COUNT - 1);
    }

    #[test]
    fn every_weight_is_documented_and_labelled() {
        for info in INFO {
            assert!(!info.doc.trim().is_empty(), "{}", info.name);
            assert!(
                !info.label.is_empty() && info.label.len() <= 16,
                "{}",
                info.name
            );
        }
    }
}
