//! The subcommands of the `tarpon` program that people use: play, serve (the board in
//! the browser), analyse and epd, and for developers bench, perft, eval and book. (The
//! learning pipeline, datagen, tune and train, is in `crate::learn`.) Each module holds
//! its subcommand's arguments (`PlayArgs`, ...), which `main.rs` parses with clap, and
//! what turns them into its options and runs it.
pub mod analyse;
pub mod bench;
pub mod book;
pub mod diagram;
pub mod engine;
pub mod epd;
pub mod eval;
pub mod interrupt;
pub mod perft;
pub mod pgn;
pub mod play;
pub mod serve;

/// The exit status of `analyse` and `epd` when they skipped games or positions they could
/// not read (each reported on standard error) and did the rest. Not 1, which means an
/// error that stopped everything, nor 2, which clap gives bad arguments: a script can
/// tell "done, but not all of it" apart.
pub const EXIT_SKIPPED: u8 = 3;

/// A subcommand's exit status: 0, or 1 after printing the error.
pub fn exit_status<T>(result: Result<T, String>) -> std::process::ExitCode {
    match result {
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// `analyse` and `epd`: exit status 0 when everything was done, `EXIT_SKIPPED` when
/// `skipped` games or positions could not be read (they are reported already) and the rest
/// was done, 1 after printing the error that stopped everything, 130 after a Ctrl-C (what
/// was done is kept and reported).
pub fn exit_status_skipping(result: Result<usize, String>) -> std::process::ExitCode {
    match result {
        _ if interrupt::interrupted() => std::process::ExitCode::from(interrupt::EXIT_INTERRUPTED),
        Ok(0) => std::process::ExitCode::SUCCESS,
        Ok(_) => std::process::ExitCode::from(EXIT_SKIPPED),
        Err(e) => exit_status::<()>(Err(e)),
    }
}

/// A FEN given as words on the command line (quoting is optional), or the start position.
pub fn fen_or_start(words: &[String]) -> String {
    if words.is_empty() {
        crate::chess::fen::START_FEN.to_string()
    } else {
        words.join(" ")
    }
}
