//! The clocks of a game: the time control players agree on, both sides' remaining time,
//! and how it is shown on the terminal and in the PGN.

use crate::chess::Color;
use std::time::Duration;

/// Both players' clock: a base time and an increment added after each move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    /// The PGN `TimeControl` tag: seconds, `+` increment seconds.
    pub(crate) fn pgn_text(&self) -> String {
        let base = self.base.as_secs_f64();
        let inc = self.increment.as_secs_f64();
        format!("{base}+{inc}")
    }
}

/// Reads a time control as chess players write it, minutes then increment seconds:
/// `5+3`, `3+2`, `0.5+1`, or `10` for no increment.
pub fn parse_time_control(text: &str) -> Result<TimeControl, String> {
    let bad = || {
        format!(
            "'{text}' is not a time control: write minutes+increment in seconds, e.g. 5+3, 0.5+1 or 10"
        )
    };
    let (minutes, seconds) = text.split_once('+').unwrap_or((text, "0"));
    let number = |t: &str| -> Result<f64, String> {
        let v: f64 = t.trim().parse().map_err(|_| bad())?;
        if (0.0..=1e6).contains(&v) {
            Ok(v)
        } else {
            Err(bad())
        }
    };
    let (minutes, seconds) = (number(minutes)?, number(seconds)?);
    if minutes == 0.0 && seconds == 0.0 {
        return Err(format!("'{text}': a clock needs some time"));
    }
    Ok(TimeControl {
        base: Duration::from_secs_f64(minutes * 60.0),
        increment: Duration::from_secs_f64(seconds),
    })
}

/// Both sides' remaining time.
pub(crate) struct Clock {
    pub(crate) control: TimeControl,
    pub(crate) remaining: [Duration; 2],
}

impl Clock {
    /// Charges `used` to `side`; false if that was more than it had (its flag fell).
    pub(crate) fn charge(&mut self, side: Color, used: Duration) -> bool {
        let left = &mut self.remaining[side.index()];
        match left.checked_sub(used) {
            Some(rest) if !rest.is_zero() => {
                *left = rest + self.control.increment;
                true
            }
            _ => {
                *left = Duration::ZERO;
                false
            }
        }
    }
}

/// `m:ss`, with tenths in the last twenty seconds (when they matter).
fn clock_text(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 20.0 {
        format!("0:{:04.1}", secs)
    } else {
        let whole = d.as_secs();
        format!("{}:{:02}", whole / 60, whole % 60)
    }
}

/// Both clocks in words, `White 4:59  Black 5:00`; `running`: the side whose clock runs,
/// and for how long it has, not yet charged.
pub(super) fn clock_words(clock: Option<&Clock>, running: Option<(Color, Duration)>) -> String {
    let Some(clock) = clock else {
        return String::new();
    };
    let mut remaining = clock.remaining;
    if let Some((side, used)) = running {
        let left = &mut remaining[side.index()];
        *left = left.saturating_sub(used);
    }
    let [white, black] = remaining.map(clock_text);
    format!("White {white}  Black {black}")
}

/// `h:mm:ss` for a PGN `[%clk]` comment (whole seconds, as the clock shows them).
pub(super) fn pgn_clock(d: Duration) -> String {
    let secs = d.as_secs();
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_as_players_write_them() {
        let tc = parse_time_control("5+3").unwrap();
        assert_eq!(tc.base, Duration::from_secs(300));
        assert_eq!(tc.increment, Duration::from_secs(3));
        assert_eq!(tc.pgn_text(), "300+3");
        assert_eq!(
            parse_time_control("0.5+1").unwrap().base,
            Duration::from_secs(30)
        );
        assert_eq!(parse_time_control("10").unwrap().increment, Duration::ZERO);
        for bad in ["", "abc", "5+", "-1+2", "0+0", "5+3+1", "inf"] {
            assert!(parse_time_control(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_clock_adds_the_increment_and_flags() {
        let control = parse_time_control("1+2").unwrap();
        let mut clock = Clock {
            control,
            remaining: [control.base; 2],
        };
        assert!(clock.charge(Color::White, Duration::from_secs(10)));
        assert_eq!(clock.remaining[0], Duration::from_secs(52));
        assert!(!clock.charge(Color::Black, Duration::from_secs(60)));
        assert_eq!(clock_text(Duration::from_secs(125)), "2:05");
        assert_eq!(clock_text(Duration::from_millis(9_440)), "0:09.4");
        assert_eq!(pgn_clock(Duration::from_millis(3_725_900)), "1:02:05");
        assert_eq!(pgn_clock(Duration::from_millis(400)), "0:00:00");
    }
}
