//! `tarpon convert`: training data from one format to the other, and a check of files.
//!
//! Inputs are game shards ([`super::games`]) and bulletformat files
//! ([`super::bulletformat`]), told apart by their first bytes, and PGN files (by the
//! `.pgn` name) whose moves carry the engine's score in a comment, as fastchess and
//! cutechess write them (`{+0.49/17 0.551s}`): match games, a second source of data.
//! Games become the positions worth training on ([`super::games::trainable`]); a
//! bulletformat record becomes a game of one position without a move, so nothing is lost
//! either way that the target can hold.
//! A damaged shard is reported with where it stops and its games before that point are
//! used; a file that is neither format, or an empty one, stops the conversion before
//! anything is written.

use super::bulletformat::{self, GameResult, RECORD_SIZE};
use super::games::{self, ShardWriter};
use crate::chess::Move;
use crate::search::score;
use crate::tools::pgn;
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
    /// The scored games of a PGN file; `unreadable` could not be read as PGN, `unused`
    /// had no result or no scored move.
    Pgn {
        path: PathBuf,
        games: Vec<games::Game>,
        unreadable: usize,
        unused: usize,
        /// Each game left out, and why (`game 3: no result`, or the reader's error).
        skipped: Vec<String>,
    },
}

impl Input {
    /// The games of a shard or a PGN file (none for records).
    fn games(&self) -> &[games::Game] {
        match self {
            Input::Games(shard) => &shard.games,
            Input::Pgn { games, .. } => games,
            Input::Records { .. } => &[],
        }
    }

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
            Input::Pgn {
                path,
                games,
                unreadable,
                unused,
                skipped,
            } => {
                let plies: usize = games.iter().map(|g| g.plies.len()).sum();
                let mut text = format!(
                    "{}: {} games with scored moves, {plies} positions",
                    path.display(),
                    games.len()
                );
                if *unreadable > 0 {
                    text += &format!("; {unreadable} games are not readable PGN: left out");
                }
                if *unused > 0 {
                    text += &format!("; {unused} without a result or a scored move: left out");
                }
                // The first few games left out, each with its reason.
                const SHOWN: usize = 5;
                for why in skipped.iter().take(SHOWN) {
                    text += &format!("\n  left out: {why}");
                }
                if skipped.len() > SHOWN {
                    text += &format!("\n  ... and {} more", skipped.len() - SHOWN);
                }
                text
            }
        }
    }
}

/// The engine's score in a move's comment, in centipawns for the side that moved:
/// `+0.49/17 ...` (pawns, then the depth) or `-M3/...` (mate in 3 moves, as a mate score,
/// which training leaves out). `None` when the comment holds no search: no score and
/// depth, or depth 0 (a move played without searching, such as a book move).
fn comment_score(comment: &str) -> Option<i16> {
    let (value, rest) = comment.trim().split_once('/')?;
    let depth: u32 = rest.split_whitespace().next()?.parse().ok()?;
    if depth == 0 {
        return None;
    }
    let (sign, magnitude) = match value.strip_prefix('-') {
        Some(m) => (-1, m),
        None => (1, value.strip_prefix('+').unwrap_or(value)),
    };
    let centipawns = match magnitude.strip_prefix('M') {
        Some(moves) => {
            let moves: usize = moves.parse().ok()?;
            score::mate_in((2 * moves).saturating_sub(1).min(score::MAX_PLY))
        }
        None => {
            let pawns: f64 = magnitude.parse().ok()?;
            if !pawns.is_finite() {
                return None;
            }
            (pawns * 100.0).round().clamp(0.0, f64::from(score::MATE)) as i32
        }
    };
    Some((sign * centipawns) as i16)
}

/// A PGN game as a game of the shard format: from the first move with a score on (the
/// moves before it, an opening, are the way to its start), as long as every move has one.
/// Why not, for a game without a result or without a scored move.
fn scored_game(game: &pgn::Game) -> Result<games::Game, String> {
    let result = match game.result.as_str() {
        "1-0" => GameResult::WhiteWin,
        "0-1" => GameResult::BlackWin,
        "1/2-1/2" => GameResult::Draw,
        other => return Err(format!("no result ('{other}')")),
    };
    let mut board = game.start;
    let mut start = None;
    let mut plies = Vec::new();
    for played in &game.moves {
        match (
            played.comments.first().and_then(|c| comment_score(c)),
            start,
        ) {
            (Some(score), _) => {
                start.get_or_insert(board);
                plies.push((played.mv, score));
            }
            (None, None) => {}
            // A move without a search after scored ones: the scored run ends here.
            (None, Some(_)) => break,
        }
        board.play(played.mv);
    }
    Ok(games::Game {
        start: start.ok_or("no move with a score and depth in its comment")?,
        result,
        plies,
    })
}

/// The scored games of a PGN text (see `scored_game`).
fn read_pgn(path: &Path, bytes: &[u8]) -> Result<Input, String> {
    let (text, latin1) = pgn::decode(bytes);
    if let Some(line) = latin1 {
        eprintln!("{}", pgn::latin1_note(path, line));
    }
    let (mut games, mut unreadable, mut unused) = (Vec::new(), 0, 0);
    let mut skipped = Vec::new();
    for (i, record) in pgn::read_records(&text).into_iter().enumerate() {
        match record.map(|game| scored_game(&game)) {
            Ok(Ok(game)) => games.push(game),
            Ok(Err(why)) => {
                unused += 1;
                skipped.push(format!("game {}: {why}", i + 1));
            }
            Err(e) => {
                unreadable += 1;
                skipped.push(e.to_string());
            }
        }
    }
    if games.is_empty() {
        // A file that is not UTF-8 and holds no game is most likely not PGN at all.
        let charset = latin1.map_or(String::new(), |line| {
            format!(" (not UTF-8 from line {line}: is it a PGN file?)")
        });
        let reasons: String = skipped
            .iter()
            .take(5)
            .map(|why| format!("\n  {why}"))
            .collect();
        return Err(format!(
            "{}: no game with a result and scored moves (comments such as {{+0.49/17 0.551s}}) \
             in {} games{charset}{reasons}",
            path.display(),
            unreadable + unused
        ));
    }
    Ok(Input::Pgn {
        path: path.to_path_buf(),
        games,
        unreadable,
        unused,
        skipped,
    })
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
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
    {
        return read_pgn(path, &bytes);
    }
    if !bytes.len().is_multiple_of(RECORD_SIZE) {
        return Err(format!(
            "{} is neither a game shard (it does not start with {:?}) nor bulletformat records \
             ({} bytes is not a multiple of {RECORD_SIZE}: truncated, or another format), \
             nor named .pgn",
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
    after_help = "Examples:\n  tarpon convert --check $TARPON_DATA/games/*.games\n  tarpon convert $TARPON_DATA/games/*.games --output all.bin      # trainable positions\n  tarpon convert old.bin --output old.games                       # one-position games\n  tarpon convert matches/*.pgn --output matches.games             # scored match games\n\nGames become the positions worth training on (not in check, no capture or promotion\nas best move, no mate score). A damaged shard (cut short, or corrupt) is reported with\nwhere it stops; its games before that point are used."
)]
pub struct ConvertArgs {
    /// Input files: game shards, bulletformat files and PGN files (`.pgn`) whose moves
    /// carry the engine's score (`{+0.49/17 0.551s}`, as fastchess writes), mixed as you like
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
            Input::Games(_) | Input::Pgn { .. } => {
                for game in input.games() {
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
            Input::Games(_) | Input::Pgn { .. } => {
                for game in input.games() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;
    use crate::chess::notation::parse_uci;

    #[test]
    fn comment_scores_are_centipawns_for_the_mover_or_none() {
        assert_eq!(comment_score("+0.49/17 0.551s"), Some(49));
        assert_eq!(comment_score("-1.5/3"), Some(-150));
        assert_eq!(comment_score(" 0.00/1 0.010s, n=100, nps=10000"), Some(0));
        assert_eq!(comment_score("+M3/20 0.1s"), Some(score::mate_in(5) as i16));
        assert_eq!(comment_score("-M1/4"), Some(-score::mate_in(1) as i16));
        for no_search in ["book", "+0.30/0 0.000s", "", "/12", "+0.3", "nan/4", "+M/3"] {
            assert_eq!(comment_score(no_search), None, "{no_search:?}");
        }
    }

    const PGN: &str = r#"[Event "scored"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
[Result "1-0"]

1... e5 {-0.30/12 0.1s} 2. Nf3 {+0.45/13 0.1s} Nc6 {-M2/5 0.1s} 1-0

[Event "unfinished"]
[Result "*"]

1. e4 {+0.20/10 0.2s} e5 {-0.15/9 0.2s} *

[Event "opening, then scored, then a move without a search"]
[Result "1/2-1/2"]

1. e4 {book} e5 {+0.10/0 0.0s} 2. Nf3 {+0.20/10 0.2s} Nc6 {-0.15/9 0.2s}
3. Bb5 a6 {-0.20/8 0.2s} 1/2-1/2
"#;

    /// Scored runs of moves become games from their first scored move; a game without
    /// a result is left out and counted.
    #[test]
    fn pgn_games_become_games_from_their_first_scored_move() {
        let Input::Pgn {
            games,
            unreadable,
            unused,
            skipped,
            ..
        } = read_pgn(Path::new("t.pgn"), PGN.as_bytes()).unwrap()
        else {
            panic!("not read as PGN");
        };
        assert_eq!((games.len(), unreadable, unused), (2, 0, 1));
        assert_eq!(skipped.len(), 1);
        assert!(skipped[0].starts_with("game "), "{skipped:?}");

        let first = &games[0];
        assert_eq!(
            fen::to_fen(&first.start),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(first.result, GameResult::WhiteWin);
        let scores: Vec<i16> = first.plies.iter().map(|p| p.1).collect();
        assert_eq!(scores, [-30, 45, -(score::mate_in(3) as i16)]);
        let mut board = first.start;
        for (uci, (m, _)) in ["e7e5", "g1f3", "b8c6"].iter().zip(&first.plies) {
            assert_eq!(*m, parse_uci(&board, uci).unwrap());
            board.play(*m);
        }

        let second = &games[1];
        assert_eq!(
            fen::to_fen(&second.start),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        assert_eq!(second.result, GameResult::Draw);
        assert_eq!(
            second.plies.len(),
            2,
            "the run stops at 3. Bb5, which has no score"
        );
        // The mate score stays in the game and out of the training positions.
        assert_eq!(first.training_positions().len(), 2);
    }

    #[test]
    fn a_pgn_without_scored_games_is_an_error_naming_the_file() {
        let text = "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
        let Err(e) = read_pgn(Path::new("plain.pgn"), text.as_bytes()) else {
            panic!("read");
        };
        assert!(e.contains("plain.pgn") && e.contains("no game"), "{e}");
        let Err(e) = read_pgn(Path::new("bin.pgn"), &[0xff, 0xfe, 0x00]) else {
            panic!("read");
        };
        assert!(e.contains("not UTF-8"), "{e}");
    }
}
