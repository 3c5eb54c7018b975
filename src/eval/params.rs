//! The list of every evaluation weight: its name, what it means, where the `eval` table
//! shows it, and whether it adds to the score directly or feeds the king-danger curve.
//!
//! The values themselves live in [`weights`], a file that `tarpon tune`
//! rewrites; everything else about a weight lives here, so a tuning run changes numbers
//! only. Each weight is either one `S(mg, eg)` pair or an array of them, and all of them
//! together are numbered `0..COUNT` in the order listed ("flat index"): the tracer
//! records coefficients by flat index, and the tuner works on the flat vector.
//!
//! Evaluation code names a weight with `w!`: `w!(DOUBLED_PAWN)` or
//! `w!(PASSED_PAWN[rank])` gives a [`Weight`], its value together with its flat index, so
//! the score and the trace can never disagree about which weight was used.

use super::S;
use super::weights;

/// How a weight enters the evaluation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Added to the score of the side that has the feature, `count` times.
    Linear,
    /// Added to the danger of the king of the given side; the danger sum then goes through
    /// the non-linear king-safety curve (see `king.rs`).
    Danger,
}

/// A weight's value and its flat index, as `w!` hands it to the evaluation.
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

    // ----- Pawn structure (cached in the pawn hash table) -----

    /// Per pawn with another pawn of its own side in front of it on the same file.
    DOUBLED_PAWN => "Doubled pawns", Linear;
    /// Per pawn with no pawn of its own side on either adjacent file: no pawn can ever
    /// defend it.
    ISOLATED_PAWN => "Isolated pawns", Linear;
    /// Per pawn whose neighbours have all advanced past it, so none can defend it, and
    /// whose square in front is attacked by an enemy pawn, so it cannot safely catch up.
    BACKWARD_PAWN => "Backward pawns", Linear;
    /// Per pawn defended by a pawn of its own side, by the pawn's relative rank (index 0 =
    /// its own back rank).
    CONNECTED_PAWN => "Connected pawns", Linear;
    /// Per pawn with a pawn of its own side beside it on the same rank, by relative rank.
    PHALANX_PAWN => "Connected pawns", Linear;
    /// Per passed pawn (no enemy pawn in front of it on its own or an adjacent file), by
    /// relative rank.
    PASSED_PAWN => "Passed pawns", Linear;

    // ----- Passed pawns and pieces (computed every time: they depend on pieces) -----

    /// Per passed pawn whose path to promotion is empty, by relative rank.
    PASSED_FREE_PATH => "Passed pawns", Linear;
    /// Per passed pawn whose path to promotion no enemy piece or pawn attacks, by
    /// relative rank.
    PASSED_SAFE_PATH => "Passed pawns", Linear;
    /// Per passed pawn that a piece or pawn of its own side defends, by relative rank.
    PASSED_DEFENDED => "Passed pawns", Linear;
    /// Per passed pawn, times the distance (in king moves) from its own king to the
    /// square in front of it, by relative rank: an escorting king helps.
    PASSED_OWN_KING_DISTANCE => "Passer king dist", Linear;
    /// Per passed pawn, times the distance from the enemy king to the square in front of
    /// it, by relative rank: a far-away defender cannot stop it.
    PASSED_ENEMY_KING_DISTANCE => "Passer king dist", Linear;
    /// Per passed pawn that the enemy king cannot catch (rule of the square) when the
    /// enemy has only king and pawns and the pawn's path is empty.
    UNSTOPPABLE_PASSER => "Passed pawns", Linear;

    // ----- Pieces -----

    /// Knight mobility: indexed by the number of safe squares it attacks (not attacked by
    /// enemy pawns, not occupied by its own pawns or king).
    KNIGHT_MOBILITY => "Knight mobility", Linear;
    /// Bishop mobility, indexed by safe squares attacked (as for knights).
    BISHOP_MOBILITY => "Bishop mobility", Linear;
    /// Rook mobility, indexed by safe squares attacked (as for knights).
    ROOK_MOBILITY => "Rook mobility", Linear;
    /// Queen mobility, indexed by safe squares attacked (as for knights).
    QUEEN_MOBILITY => "Queen mobility", Linear;
    /// For having bishops on both colours of square.
    BISHOP_PAIR => "Bishop pair", Linear;
    /// Per rook on a file without pawns.
    ROOK_OPEN_FILE => "Rook files", Linear;
    /// Per rook on a file with enemy pawns only.
    ROOK_SEMI_OPEN_FILE => "Rook files", Linear;
    /// Per rook on the seventh rank (relative) while the enemy king is on the eighth or
    /// enemy pawns are still on the seventh.
    ROOK_ON_SEVENTH => "Rook on 7th", Linear;
    /// Per knight on an outpost: relative rank 4 to 6, defended by a pawn, and out of reach
    /// of every enemy pawn now and later.
    KNIGHT_OUTPOST => "Outposts", Linear;
    /// Per bishop on an outpost (as for knights).
    BISHOP_OUTPOST => "Outposts", Linear;

    // ----- King safety: pawn shelter (linear) -----

    /// Per file of the king's three whose nearest own pawn in front of the king is 1, 2
    /// or 3+ ranks ahead.
    PAWN_SHIELD => "King shelter", Linear;
    /// Per file of the king's three whose nearest enemy pawn in front of the king is 1,
    /// 2, 3 or 4 ranks ahead and free to advance.
    PAWN_STORM => "King shelter", Linear;
    /// Per file of the king's three where the nearest enemy pawn, 1 to 4 ranks ahead, is
    /// stopped by an own pawn right in front of it (a blocked storm opens nothing).
    BLOCKED_STORM => "King shelter", Linear;
    /// Per file of the king's three with no pawn of either side in front of the king.
    KING_OPEN_FILE => "King shelter", Linear;
    /// Per file of the king's three with enemy pawns but no own pawn in front of the king.
    KING_SEMI_OPEN_FILE => "King shelter", Linear;

    // ----- King safety: danger inputs (through the non-linear curve) -----

    /// Danger per enemy knight, bishop, rook or queen attacking the king zone (the king's
    /// square, its neighbours, and one more rank towards the enemy).
    KING_ATTACKER_WEIGHT => "King danger", Danger;
    /// Danger per attack of an enemy piece on a square of the king zone.
    KING_ZONE_ATTACK => "King danger", Danger;
    /// Danger per king-zone square the enemy attacks and we defend at most once, with the
    /// king or the queen only.
    KING_WEAK_SQUARE => "King danger", Danger;
    /// Danger per square from which an enemy knight, bishop, rook or queen could give a
    /// check that we do not attack (a safe check).
    SAFE_CHECK => "King danger", Danger;
    /// Danger (negative) when the enemy has no queen: attacks rarely break through
    /// without one.
    NO_ENEMY_QUEEN => "King danger", Danger;

    // ----- Threats, space, tempo -----

    /// Per enemy knight, bishop, rook or queen that we attack and nobody defends.
    HANGING_PIECE => "Hanging pieces", Linear;
    /// Per enemy knight, bishop, rook or queen attacked by one of our pawns.
    THREAT_BY_PAWN => "Pawn threats", Linear;
    /// Per enemy rook or queen attacked by one of our knights or bishops.
    THREAT_BY_MINOR => "Piece threats", Linear;
    /// Per enemy queen attacked by one of our rooks.
    THREAT_BY_ROOK => "Piece threats", Linear;
    /// Per safe square in our half of the four centre files (counted twice behind our own
    /// pawns): room for the pieces to manoeuvre.
    SPACE => "Space", Linear;
    /// For having the move.
    TEMPO => "Tempo", Linear;

    // ----- Mating a lone king -----

    /// Times how far the lone enemy king is from the centre (0 to 6), when we have mating
    /// material against a bare king: drive it to the edge.
    MATE_EDGE => "Mating drive", Linear;
    /// Times how close our king is to the lone enemy king (14 minus their distance in
    /// files plus ranks), when mating a bare king: the attacking king must help.
    MATE_KING_PROXIMITY => "Mating drive", Linear;
    /// With king, bishop and knight against a bare king: times how close the enemy king is
    /// to a corner of the bishop's colour (14 minus files plus ranks), the only corners
    /// where mate can be forced.
    KBN_CORNER => "Mating drive", Linear;
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
        assert_eq!(values[offset::TEMPO], weights::TEMPO);
        assert_eq!(w!(PASSED_PAWN[5]).value, weights::PASSED_PAWN[5]);
        assert_eq!(w!(PASSED_PAWN[5]).index, offset::PASSED_PAWN + 5);
        assert_eq!(w!(KBN_CORNER).index, COUNT - 1);
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
