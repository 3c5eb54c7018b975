//! The search numbers that SPSA tunes (see `scripts/spsa.py` and docs/spsa.md).
//!
//! A normal build reads each of them as a constant: `RFP_MARGIN.get()` compiles to the
//! number itself. A build with `--features tune` keeps them in atomics instead and lists
//! them as UCI spin options under their own names (`setoption name RFP_MARGIN value 80`),
//! so that a tuner can play games between two settings without rebuilding.

#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable number: its value now, its default and the range a tuner may try.
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    #[cfg(feature = "tune")]
    value: AtomicI32,
}

impl Tunable {
    pub const fn new(name: &'static str, default: i32, min: i32, max: i32) -> Tunable {
        Tunable {
            name,
            default,
            min,
            max,
            #[cfg(feature = "tune")]
            value: AtomicI32::new(default),
        }
    }

    /// The value the search uses.
    #[cfg(not(feature = "tune"))]
    #[inline(always)]
    pub const fn get(&self) -> i32 {
        self.default
    }

    /// The value the search uses (the last `setoption`, or the default).
    #[cfg(feature = "tune")]
    #[inline(always)]
    pub fn get(&self) -> i32 {
        // Relaxed: a value is set between searches, never while one reads it.
        self.value.load(Ordering::Relaxed)
    }

    /// Sets the value; out of range is an error naming the range.
    #[cfg(feature = "tune")]
    pub fn set(&self, value: i32) -> Result<(), String> {
        if !(self.min..=self.max).contains(&value) {
            return Err(format!(
                "option '{}' needs a value from {} to {}, not {value}",
                self.name, self.min, self.max
            ));
        }
        self.value.store(value, Ordering::Relaxed);
        Ok(())
    }
}

/// Declares a tunable number: a constant in a normal build, a static (whose value can
/// change) in a build with the `tune` feature. `tunable!(NAME = default, min, max);`
macro_rules! tunable {
    ($(#[$doc:meta])* $name:ident = $default:expr, $min:expr, $max:expr) => {
        $(#[$doc])*
        #[cfg(not(feature = "tune"))]
        pub const $name: $crate::search::tunable::Tunable =
            $crate::search::tunable::Tunable::new(stringify!($name), $default, $min, $max);
        $(#[$doc])*
        #[cfg(feature = "tune")]
        pub static $name: $crate::search::tunable::Tunable =
            $crate::search::tunable::Tunable::new(stringify!($name), $default, $min, $max);
    };
}
pub(crate) use tunable;

/// The tunable whose name is `name` (case-insensitive, as UCI option names are).
pub fn find(name: &str) -> Option<&'static Tunable> {
    super::params::TUNABLES
        .iter()
        .copied()
        .find(|t| t.name.eq_ignore_ascii_case(name))
}

/// The `option` lines for the tunables: one per tunable in a `tune` build, none otherwise.
pub fn declarations() -> Vec<String> {
    if !cfg!(feature = "tune") {
        return Vec::new();
    }
    super::params::TUNABLES
        .iter()
        .map(|t| {
            format!(
                "option name {} type spin default {} min {} max {}",
                t.name, t.default, t.min, t.max
            )
        })
        .collect()
}

/// SPSA's step sizes at the end of a run, as `scripts/spsa.py` uses them and Fishtest and
/// OpenBench state them: the perturbation `c_end` as this share of a number's range (at
/// least 1)...
pub const SPSA_C_END_FRACTION: f64 = 0.05;
/// ... and the learning rate `r_end` there.
pub const SPSA_R_END: f64 = 0.002;

/// The tunables in OpenBench's SPSA input form, one line each: `name, int, start, min,
/// max, c_end, r_end` (empty in a build without the `tune` feature, whose numbers are
/// constants that no option reaches).
pub fn spsa_inputs() -> Vec<String> {
    if !cfg!(feature = "tune") {
        return Vec::new();
    }
    super::params::TUNABLES
        .iter()
        .map(|t| {
            let c_end = (SPSA_C_END_FRACTION * f64::from(t.max - t.min)).max(1.0);
            format!(
                "{}, int, {}, {}, {}, {c_end:.2}, {SPSA_R_END}",
                t.name, t.default, t.min, t.max
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::params::TUNABLES;

    /// The SPSA input lines: seven fields, the range and step as `scripts/spsa.py` has them.
    #[cfg(feature = "tune")]
    #[test]
    fn spsa_inputs_have_openbenchs_seven_fields() {
        let lines = super::spsa_inputs();
        assert_eq!(lines.len(), TUNABLES.len());
        for (line, t) in lines.iter().zip(TUNABLES) {
            let fields: Vec<&str> = line.split(", ").collect();
            assert_eq!(fields.len(), 7, "{line}");
            assert_eq!(fields[0], t.name);
            assert_eq!(fields[1], "int");
            let numbers: Vec<i32> = fields[2..5].iter().map(|f| f.parse().unwrap()).collect();
            assert_eq!(numbers, [t.default, t.min, t.max], "{line}");
            let c_end: f64 = fields[5].parse().unwrap();
            assert!(c_end >= 1.0 && c_end <= f64::from(t.max - t.min), "{line}");
            assert_eq!(fields[6], "0.002");
        }
    }

    #[cfg(not(feature = "tune"))]
    #[test]
    fn a_normal_build_has_no_spsa_inputs() {
        assert!(super::spsa_inputs().is_empty());
    }

    /// Every default lies inside its range, the range leaves room to move both ways, and
    /// no two tunables share a name (the UCI option would be ambiguous).
    #[test]
    fn tunables_are_well_formed() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min < t.default && t.default < t.max, "{}", t.name);
            assert!(
                TUNABLES[..i]
                    .iter()
                    .all(|u| !u.name.eq_ignore_ascii_case(t.name)),
                "{} twice",
                t.name
            );
            assert_eq!(super::find(&t.name.to_lowercase()).unwrap().name, t.name);
        }
    }

    /// A tune build refuses values outside the range, keeping the old one.
    #[cfg(feature = "tune")]
    #[test]
    fn a_tune_build_sets_values_in_range() {
        // Other tests search at the same time: the value set is the default.
        let t = super::find("ASPIRATION_WINDOW").unwrap();
        assert!(t.set(t.max + 1).is_err());
        assert!(t.set(t.min - 1).is_err());
        assert_eq!(t.get(), t.default);
        t.set(t.default).unwrap();
        assert_eq!(t.get(), t.default);
    }
}
