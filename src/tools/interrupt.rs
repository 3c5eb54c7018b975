//! Ctrl-C in the long tools (`analyse --pgn`, `epd`): the first one stops the searches in
//! progress and lets the tool keep and report what it has done; a second one ends the
//! program at once (exit status 130, as a shell reports a Ctrl-C).
//!
//! One flag for the whole process: the searches of these tools poll it while they wait
//! (`engine::Engine::search_lines`), so neither the tool nor the search needs to be told
//! where its stop signal lives.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The exit status of a tool stopped by Ctrl-C after it kept its work: 128 + SIGINT.
pub const EXIT_INTERRUPTED: u8 = 130;

/// Catches Ctrl-C (and the termination signal) for the rest of the run; `what` says on
/// standard error what happens to the work, the first time.
pub fn catch(what: &'static str) {
    let handler = move || {
        if INTERRUPTED.swap(true, Ordering::Relaxed) {
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
        eprintln!("\nInterrupted: {what} (Ctrl-C again to quit at once)");
    };
    if let Err(e) = ctrlc::set_handler(handler) {
        eprintln!("warning: cannot catch Ctrl-C ({e}): it will end the run at once");
    }
}

/// Whether Ctrl-C has come.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}
