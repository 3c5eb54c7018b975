//! Writing to standard output when nobody may be reading any more.
//!
//! `println!` panics when standard output is a pipe whose reader has gone: a GUI that quit
//! without sending `quit`, or `tarpon bench | head -3`. (Rust ignores SIGPIPE, so the
//! write fails with an error instead of ending the process the way it ends a C program.)
//! With no reader left there is nothing useful to do, so [`line()`] and [`text`] end the
//! process quietly with status 0 in that case, as SIGPIPE would, and report any other
//! write error on standard error with status 1. They never panic.

use std::fmt::Display;
use std::io::{ErrorKind, Write};

/// Writes `text` and a newline to standard output and flushes it (a GUI must see each UCI
/// line at once).
pub fn line(text: impl Display) {
    write(format_args!("{text}\n"));
}

/// Writes `text` to standard output as it is and flushes it.
pub fn text(text: impl Display) {
    write(format_args!("{text}"));
}

fn write(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

/// `println!` through [`line()`]: `outln!("{nodes} nodes")`.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::stdout::line("")
    };
    ($($arg:tt)*) => {
        $crate::stdout::line(format_args!($($arg)*))
    };
}
