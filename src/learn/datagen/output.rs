//! Where a `datagen` run's games go: a new game shard, or a bulletformat file (new, or
//! appended to), each game written whole and flushed.

use super::play::Game;
use super::{DatagenError, Format, Options, Stats};
use crate::learn::bulletformat;
use crate::learn::games::ShardWriter;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Where the games go.
pub(super) enum Writer {
    Records(BufWriter<File>),
    Games(ShardWriter),
}

/// The output file with the counts of what it holds.
pub(super) struct Output {
    pub(super) writer: Writer,
    pub(super) path: PathBuf,
    pub(super) stats: Stats,
}

/// A new shard's name in `dir`: `tarpon-s<seed>.games`, or with `-2`, `-3`, ... when a
/// shard of that seed is already there.
fn new_shard_path(dir: &Path, seed: u64) -> PathBuf {
    let mut path = dir.join(format!("tarpon-s{seed}.games"));
    let mut n = 1;
    while path.exists() {
        n += 1;
        path = dir.join(format!("tarpon-s{seed}-{n}.games"));
    }
    path
}

/// Opens the output as the options ask, with the path written to.
pub(super) fn open_output(options: &Options) -> Result<(Writer, PathBuf), DatagenError> {
    let format = options
        .format
        .unwrap_or_else(|| Format::implied_by(&options.output));
    if format == Format::Bulletformat {
        return open_records(options)
            .map(|f| (Writer::Records(BufWriter::new(f)), options.output.clone()));
    }
    if options.append {
        return Err(DatagenError::AppendGames);
    }
    let path = if options.output.is_dir() {
        new_shard_path(&options.output, options.seed)
    } else {
        options.output.clone()
    };
    if let Some(meta) = std::fs::metadata(&path).ok().filter(|m| m.is_file()) {
        return Err(DatagenError::OutputExists {
            path,
            bytes: meta.len(),
        });
    }
    match ShardWriter::create(&path) {
        Ok(writer) => Ok((Writer::Games(writer), path)),
        Err(error) => Err(DatagenError::Output { path, error }),
    }
}

/// Opens a bulletformat output: a new (or empty) file, or an existing one to append to.
fn open_records(options: &Options) -> Result<File, DatagenError> {
    let path = &options.output;
    let existing = std::fs::metadata(path).ok().filter(|m| m.is_file());
    if let Some(meta) = existing {
        let bytes = meta.len();
        if bytes > 0 && !options.append {
            return Err(DatagenError::OutputExists {
                path: path.clone(),
                bytes,
            });
        }
        if bytes % bulletformat::RECORD_SIZE as u64 != 0 {
            return Err(DatagenError::OutputPartial {
                path: path.clone(),
                bytes,
            });
        }
    }
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|error| DatagenError::Output {
            path: path.clone(),
            error,
        })
}

/// Appends a game (as a whole game, or as its trainable positions) and flushes it, so the
/// file holds whole games only.
pub(super) fn write_game(output: &Mutex<Output>, game: &Game) -> Result<(), DatagenError> {
    let mut output = output.lock().expect("no panic");
    let (written, positions) = match &mut output.writer {
        Writer::Games(shard) => (shard.write(&game.record), game.record.plies.len()),
        Writer::Records(file) => {
            let positions = game.record.training_positions();
            let mut bytes = Vec::with_capacity(positions.len() * bulletformat::RECORD_SIZE);
            for (i, (board, score)) in positions.iter().enumerate() {
                let record = bulletformat::pack(board, *score, game.record.result, i == 0)
                    .expect("positions of a game have at most 32 pieces");
                bytes.extend_from_slice(&record);
            }
            let written = file.write_all(&bytes).and_then(|()| file.flush());
            (written, positions.len())
        }
    };
    written.map_err(|error| DatagenError::Write {
        path: output.path.clone(),
        error,
    })?;
    output.stats.add(game, positions);
    Ok(())
}
