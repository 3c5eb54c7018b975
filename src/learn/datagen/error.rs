//! Why a `datagen` run could not start, or stopped.

use crate::learn::bulletformat;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why a run could not start, or stopped.
#[derive(Debug)]
pub enum DatagenError {
    Book {
        path: PathBuf,
        error: io::Error,
    },
    BookLine {
        path: PathBuf,
        line: usize,
        message: String,
    },
    BookEmpty {
        path: PathBuf,
    },
    OutputExists {
        path: PathBuf,
        bytes: u64,
    },
    OutputPartial {
        path: PathBuf,
        bytes: u64,
    },
    Output {
        path: PathBuf,
        error: io::Error,
    },
    Write {
        path: PathBuf,
        error: io::Error,
    },
    NoOpening {
        tries: u32,
    },
    /// `--append` with game shards, which are never appended to.
    AppendGames,
    /// No random plies and a single start position: every game would be the same.
    SameGames,
    /// A Chess960 share beyond 100 %.
    Chess960Percent(u32),
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        use DatagenError::*;
        match self {
            Book { path, error } => write!(f, "cannot read book {}: {error}", path.display()),
            BookLine {
                path,
                line,
                message,
            } => write!(f, "book {} line {line}: {message}", path.display()),
            BookEmpty { path } => write!(
                f,
                "book {} has no usable position (one FEN or EPD per line)",
                path.display()
            ),
            OutputExists { path, bytes } => write!(
                f,
                "output {} already exists ({bytes} bytes); remove it, choose another file, \
                 or pass --append (with another --seed, or the same games come again)",
                path.display()
            ),
            OutputPartial { path, bytes } => write!(
                f,
                "output {} is {bytes} bytes, not a whole number of {}-byte records: \
                 not a datagen file, or damaged; will not append to it",
                path.display(),
                bulletformat::RECORD_SIZE
            ),
            Output { path, error } => write!(f, "cannot write {}: {error}", path.display()),
            Write { path, error } => write!(f, "writing {} failed: {error}", path.display()),
            SameGames => write!(
                f,
                "with --random-plies 0 and a single start position every game is the same \
                 (the search is deterministic): use random plies or a --book of several positions"
            ),
            Chess960Percent(percent) => write!(
                f,
                "--chess960 {percent}: the share of Chess960 starts is a percentage, 0 to 100"
            ),
            AppendGames => write!(
                f,
                "game shards are never appended to (a damaged end would sit in the middle): \
                 each run writes a new shard; give a directory as --output to get one there"
            ),
            NoOpening { tries } => write!(
                f,
                "no playable opening in {tries} tries: every one was over or scored beyond \
                 --opening-max-score (check the book, --random-plies, --opening-max-score)"
            ),
        }
    }
}

impl std::error::Error for DatagenError {}
