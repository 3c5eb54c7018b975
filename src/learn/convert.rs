//! `tarpon convert`: training data from one format to the other, and a check of files.
//!
//! Inputs are game shards ([`super::games`]) and bulletformat files
//! ([`super::bulletformat`]), told apart by their first bytes. Games become the positions
//! worth training on ([`super::games::trainable`]); a bulletformat record becomes a game of
//! one position without a move, so nothing is lost either way that the target can hold.
//! A damaged shard is reported with where it stops and its games before that point are
//! used; a file that is neither format, or an empty one, stops the conversion before
//! anything is written.

use super::bulletformat::{self, RECORD_SIZE};
use super::games::{self, ShardWriter};
use crate::chess::Move;
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// One input, read and checked.
enum Input {
    Games(games::Shard),
    /// The raw records and their decoded samples (records that do not decode are left
    /// out and counted).
    Records {
        path: PathBuf,
        samples: Vec<bulletformat::Sample>,
        invalid: usize,
    },
}

impl Input {
    fn describe(&self) -> String {
        match self {
            Input::Games(shard) => shard.describe(),
            Input::Records {
                path,
                samples,
                invalid,
            } => {
                let mut text =
                    format!("{}: {} bulletformat records", path.display(), samples.len());
                if *invalid > 0 {
                    text +=
                        &format!(" ({invalid} more do not decode to a legal position: left out)");
                }
                text
            }
        }
    }
}

/// Reads one input file as whichever format it is.
fn read_input(path: &Path) -> Result<Input, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.is_empty() {
        return Err(format!("{} is empty", path.display()));
    }
    if games::is_shard(&bytes) {
        return games::parse(path, &bytes)
            .map(Input::Games)
            .map_err(|e| e.to_string());
    }
    if !bytes.len().is_multiple_of(RECORD_SIZE) {
        return Err(format!(
            "{} is neither a game shard (it does not start with {:?}) nor bulletformat records \
             ({} bytes is not a multiple of {RECORD_SIZE}: truncated, or another format)",
            path.display(),
            std::str::from_utf8(&games::MAGIC).unwrap_or(""),
            bytes.len()
        ));
    }
    let mut samples = Vec::with_capacity(bytes.len() / RECORD_SIZE);
    let mut invalid = 0;
    for chunk in bytes.chunks_exact(RECORD_SIZE) {
        match bulletformat::unpack(chunk.try_into().expect("a whole record")) {
            Ok(sample) => samples.push(sample),
            Err(_) => invalid += 1,
        }
    }
    if samples.is_empty() {
        return Err(format!(
            "{}: none of its {invalid} records decodes to a legal position: not bulletformat",
            path.display()
        ));
    }
    Ok(Input::Records {
        path: path.to_path_buf(),
        samples,
        invalid,
    })
}

/// `tarpon convert`'s arguments.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  tarpon convert --check $TARPON_DATA/games/*.games\n  tarpon convert $TARPON_DATA/games/*.games --output all.bin      # trainable positions\n  tarpon convert old.bin --output old.games                       # one-position games\n\nGames become the positions worth training on (not in check, no capture or promotion\nas best move, no mate score). A damaged shard (cut short, or corrupt) is reported with\nwhere it stops; its games before that point are used."
)]
pub struct ConvertArgs {
    /// Input files: game shards and bulletformat files, mixed as you like
    #[arg(required = true, value_name = "FILES")]
    inputs: Vec<PathBuf>,
    /// Output file, new: a .games name writes a shard, any other bulletformat (required
    /// unless --check)
    #[arg(long, short, value_name = "FILE", required_unless_present = "check")]
    output: Option<PathBuf>,
    /// Only read the inputs and report what they hold (games, positions, damage)
    #[arg(long, conflicts_with = "output")]
    check: bool,
}

impl ConvertArgs {
    /// `tarpon convert`.
    pub fn run(self) -> std::process::ExitCode {
        let target = if self.check {
            None
        } else {
            self.output.as_deref()
        };
        crate::tools::exit_status(run(&self.inputs, target))
    }
}

/// Reads every input (and reports each); converts them into `output` when given. The
/// output must not exist: a conversion never overwrites data.
pub fn run(inputs: &[PathBuf], output: Option<&Path>) -> Result<(), String> {
    if let Some(out) = output
        && out.exists()
    {
        return Err(format!(
            "{} already exists: choose a new output file",
            out.display()
        ));
    }
    let mut read = Vec::with_capacity(inputs.len());
    for path in inputs {
        let input = read_input(path)?;
        crate::stdout::line(input.describe());
        read.push(input);
    }
    let Some(out) = output else {
        return Ok(());
    };
    let to_games = out.extension().is_some_and(|e| e == "games");
    let written = if to_games {
        write_games(&read, out)
    } else {
        write_records(&read, out)
    }
    .map_err(|e| format!("writing {} failed: {e}", out.display()))?;
    crate::stdout::line(format!("Wrote {written} to {}", out.display()));
    Ok(())
}

/// Writes a shard: games as they are, records as one-position games.
fn write_games(inputs: &[Input], out: &Path) -> std::io::Result<String> {
    let mut writer = ShardWriter::create(out)?;
    let (mut count, mut positions) = (0, 0);
    for input in inputs {
        match input {
            Input::Games(shard) => {
                for game in &shard.games {
                    writer.write(game)?;
                    count += 1;
                    positions += game.plies.len();
                }
            }
            Input::Records { samples, .. } => {
                for sample in samples {
                    writer.write(&games::Game {
                        start: sample.board,
                        result: sample.game_result(),
                        plies: vec![(Move::NONE, sample.score)],
                    })?;
                    count += 1;
                    positions += 1;
                }
            }
        }
    }
    Ok(format!("{count} games, {positions} positions"))
}

/// Writes bulletformat records: the trainable positions of games, records as they are.
fn write_records(inputs: &[Input], out: &Path) -> std::io::Result<String> {
    let file = OpenOptions::new().write(true).create_new(true).open(out)?;
    let mut writer = BufWriter::new(file);
    let mut count = 0;
    for input in inputs {
        match input {
            Input::Games(shard) => {
                for game in &shard.games {
                    for (i, (board, score)) in game.training_positions().iter().enumerate() {
                        let record = bulletformat::pack(board, *score, game.result, i == 0)
                            .map_err(|e| std::io::Error::other(e.to_string()))?;
                        writer.write_all(&record)?;
                        count += 1;
                    }
                }
            }
            Input::Records { samples, .. } => {
                for sample in samples {
                    let record = bulletformat::pack(
                        &sample.board,
                        sample.score,
                        sample.game_result(),
                        sample.game_start,
                    )
                    .map_err(|e| std::io::Error::other(e.to_string()))?;
                    writer.write_all(&record)?;
                    count += 1;
                }
            }
        }
    }
    writer.flush()?;
    Ok(format!("{count} positions"))
}
