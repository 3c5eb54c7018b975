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

#[cfg(test)]
mod tests {
    use super::super::params::TUNABLES;

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
