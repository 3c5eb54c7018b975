//! `tarpon analyse`: the evaluation and best line of a position, or a whole game annotated.
//!
//! For a game, every position is searched once. A move's value for the side that made it
//! is the negated evaluation of the position after it, so each move is judged by how much
//! of its side's *expected score* it gave away compared with the best move: the
//! evaluation before the move against the evaluation after it, both turned into expected
//! scores (`engine::expected_score`). Losses count in expected score, not centipawns,
//! because a pawn thrown away at +6 changes nothing while a pawn at equality may decide
//! the game. Marks, by the share of a point lost (the scale chess.com's "expected points"
//! classification uses):
//!
//! | loss   | mark | NAG |
//! | ------ | ---- | --- |
//! | ≥ 0.05 | ?!   | $6  |
//! | ≥ 0.10 | ?    | $2  |
//! | ≥ 0.20 | ??   | $4  |
//!
//! At equality that is about half a pawn, one pawn and two and a half pawns.
//!
//! The annotations join what the game held rather than replace it: the author's comments,
//! variations and move judgements stay (see `annotate_game`), so that an annotated lichess
//! export keeps its clock times and its author's notes.

use super::engine::{self, Analysis, Engine, Eval, Settings, expected_score, write_error};
use super::interrupt;
use super::pgn::{self, Game};
use crate::chess::movegen::legal_moves;
use crate::chess::{Color, Move, Outcome, Position};
use crate::search::score;
use crate::search::tt::Bound;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Expected-score losses from which a move is an inaccuracy, a mistake, a blunder.
pub const INACCURACY: f64 = 0.05;
pub const MISTAKE: f64 = 0.10;
pub const BLUNDER: f64 = 0.20;

/// A better line shown after a marked move: long enough to see the point, short enough
/// to read.
const VARIATION_PLIES: usize = 8;

/// What `tarpon analyse` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    /// The position to analyse (the initial position if neither this nor `pgn`).
    pub fen: Option<String>,
    /// Games to annotate.
    pub pgn: Option<PathBuf>,
    /// Where to write the annotated games (standard output without it).
    pub output: Option<PathBuf>,
    pub search: Settings,
}

/// `tarpon analyse`'s arguments.
#[derive(clap::Args)]
#[command(
    after_help = "A game's moves get an [%eval] comment, the best move where a worse one was played, and\n\
a mark by the expected score they give away: ?! from 0.05, ? from 0.10, ?? from 0.20\n\
(with a better line). Scores are for White. The game's comments, variations and NAGs stay:\n\
an [%eval] in a comment is replaced, [%clk] kept; where the author's !, ?, ?! ... differs\n\
from Tarpon's judgement it stays, and the comment says 'Tarpon: Blunder (...), not ! as\n\
annotated.'\n\
A game that cannot be read (an illegal move, a bad FEN tag) is named on standard error with\n\
its line and skipped, as is a variation with an unreadable move; the rest is annotated.\n\
Exit status: 0 done, 1 error, 2 bad arguments, 3 games or variations skipped.\n\n\
Examples:\n  tarpon analyse --fen 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3' --depth 14\n  \
tarpon analyse --pgn game.pgn --movetime 500 --output game-annotated.pgn\n  \
tarpon analyse --pgn games.pgn --depth 10 > annotated.pgn"
)]
pub struct AnalyseArgs {
    /// The position to analyse (a FEN, in quotes; default: the initial position)
    #[arg(long, value_name = "FEN", conflicts_with = "pgn")]
    fen: Option<String>,
    /// Annotate every move of the games in this PGN file (default: analyse the --fen position)
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Where to write the annotated games (default: standard output)
    #[arg(long, short, value_name = "FILE", requires = "pgn")]
    output: Option<PathBuf>,
    #[command(flatten)]
    search: engine::SearchArgs,
}

impl From<AnalyseArgs> for Options {
    fn from(args: AnalyseArgs) -> Options {
        Options {
            fen: args.fen,
            pgn: args.pgn,
            output: args.output,
            search: args.search.into(),
        }
    }
}

impl AnalyseArgs {
    /// `tarpon analyse`.
    pub fn run(self) -> std::process::ExitCode {
        super::exit_status_skipping(run(&self.into()))
    }
}

/// Analyses as asked; returns how many games of the PGN file, or variations in them, could
/// not be read and were skipped (each reported on standard error), or the error that
/// stopped everything.
pub fn run(options: &Options) -> Result<usize, String> {
    match &options.pgn {
        Some(path) => annotate_file(path, options),
        None => analyse_position(options).map(|()| 0),
    }
}

/// Searches one position, printing each iteration, then the best move.
fn analyse_position(options: &Options) -> Result<(), String> {
    let fen = options
        .fen
        .as_deref()
        .unwrap_or(crate::chess::fen::START_FEN);
    let position = Position::from_fen(fen, false).map_err(|e| format!("bad FEN: {e}"))?;
    // Written with errors checked, so that output cut short (a closed pipe) ends the
    // command with a message instead of a panic.
    let mut out = std::io::stdout().lock();
    writeln!(out, "Position: {}", position.fen()).map_err(write_error)?;
    if let Some(outcome) = position.outcome()
        && matches!(outcome, Outcome::Checkmate { .. } | Outcome::Stalemate)
    {
        return writeln!(out, "No legal moves: {}", outcome_words(outcome)).map_err(write_error);
    }
    let (mut engine, notes) = Engine::new(options.search.hash_mb, options.search.syzygy.as_deref());
    for note in notes {
        eprintln!("{note}");
    }
    writeln!(
        out,
        "Searching ({}); scores are for White.\n{:>5} {:>7} {:>11} {:>7}  line",
        options.search.describe(),
        "depth",
        "score",
        "nodes",
        "time"
    )
    .map_err(write_error)?;
    let side = position.side_to_move();
    let mut failed = None;
    let analysis = engine.search(&position, options.search.limits(), |it| {
        let mark = bound_mark(it.bound, side);
        let line = writeln!(
            out,
            "{:>5} {:>7} {:>11} {:>6.1}s  {}",
            it.depth,
            format!("{mark}{}", it.eval.for_white(side)),
            it.nodes,
            it.time.as_secs_f64(),
            engine::san_line(&position, &it.pv)
        );
        failed = failed.take().or(line.err());
    });
    if let Some(e) = failed {
        return Err(write_error(e));
    }
    let best = engine::numbered_san(&position, analysis.best);
    let line = engine::san_line(&position, &analysis.pv);
    // A forced move under a time limit is answered without a search, and without a score.
    let Some(score) = analysis.searched_score() else {
        return writeln!(
            out,
            "Best move: {best} (the only legal move: not searched)\nLine: {line}"
        )
        .map_err(write_error);
    };
    writeln!(
        out,
        "Best move: {best} ({}{} for White, depth {}, {} nodes, {:.1} s)\nLine: {line}",
        bound_mark(analysis.bound, side),
        Eval::from_score(score).for_white(side),
        analysis.depth,
        analysis.nodes,
        analysis.time.as_secs_f64(),
    )
    .map_err(write_error)
}

/// How a bound is marked before a score for White: at least (>=) or at most (<=) this
/// much; nothing for an exact score. (A search stopped inside an iteration may have only a
/// bound for its move.)
fn bound_mark(bound: Bound, side: Color) -> &'static str {
    match (bound, side) {
        (Bound::Exact, _) => "",
        (Bound::Lower, Color::White) | (Bound::Upper, Color::Black) => ">=",
        _ => "<=",
    }
}

fn outcome_words(outcome: Outcome) -> String {
    match outcome {
        Outcome::Checkmate { winner } => format!("checkmate, {winner:?} wins"),
        Outcome::Stalemate => "stalemate".to_string(),
        Outcome::ThreefoldRepetition => "threefold repetition".to_string(),
        Outcome::FiftyMoveRule => "fifty-move rule".to_string(),
        Outcome::InsufficientMaterial => "insufficient material".to_string(),
    }
}

/// How bad a move was, by the expected score it gave away (see the module comment).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// The mark of a move that gave away `loss` of a point; `None` below the thresholds.
    pub fn of_loss(loss: f64) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The PGN annotation glyph ($4, $2, $6).
    pub fn nag(self) -> u8 {
        match self {
            Mark::Blunder => 4,
            Mark::Mistake => 2,
            Mark::Inaccuracy => 6,
        }
    }

    /// As written after a move: `??`, `?`, `?!`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Blunder => "??",
            Mark::Mistake => "?",
            Mark::Inaccuracy => "?!",
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Mark::Blunder => "Blunder",
            Mark::Mistake => "Mistake",
            Mark::Inaccuracy => "Inaccuracy",
        }
    }
}

/// The share of a point a move gave away: `best` is the score of the position before it
/// (its side to move's view, the best move's value), `after` the score of the position
/// after it (the opponent's view). Nothing when the move played was the best.
pub fn move_loss(best: i32, after: i32, played_best: bool) -> f64 {
    if played_best {
        0.0
    } else {
        (expected_score(best) - expected_score(-after)).max(0.0)
    }
}

/// The marks of one side in a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    pub moves: usize,
    /// Expected score given away, summed over the side's moves.
    pub total_loss: f64,
}

impl SideSummary {
    fn text(&self) -> String {
        let count =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let average = self.total_loss / self.moves.max(1) as f64;
        format!(
            "{}, {}, {}, average loss {average:.3}",
            count(self.inaccuracies, "inaccuracy", "inaccuracies"),
            count(self.mistakes, "mistake", "mistakes"),
            count(self.blunders, "blunder", "blunders")
        )
    }
}

/// Reads the games of a PGN file, annotates each, and writes them out. A game that cannot
/// be read is reported on standard error and skipped: one broken game in a long file
/// should not cost the analysis of all the others. So is a variation that cannot be read
/// (it is left out of its game). Returns how many games and variations were skipped.
fn annotate_file(path: &Path, options: &Options) -> Result<usize, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (text, latin1) = pgn::decode(&bytes);
    if let Some(line) = latin1 {
        eprintln!("{}", pgn::latin1_note(path, line));
    }
    let records = pgn::read_records(&text);
    if records.is_empty() {
        return Err(format!("{} holds no game", path.display()));
    }
    // Each game with its number in the file, which the summary and the errors use.
    let mut games = Vec::new();
    let (mut skipped, mut dropped) = (0, 0);
    for (i, record) in records.into_iter().enumerate() {
        match record {
            Ok(game) => {
                for e in &game.dropped {
                    eprintln!("{}: {e} (variation left out)", path.display());
                }
                dropped += game.dropped.len();
                games.push((i + 1, game));
            }
            Err(e) => {
                eprintln!("{}: {e} (game skipped)", path.display());
                skipped += 1;
            }
        }
    }
    if games.is_empty() {
        return Err(format!("{}: no game could be read", path.display()));
    }
    // An output that cannot be written is found now, not after hours of analysis.
    let mut sink = Sink::open(options.output.as_deref())?;
    let (mut engine, notes) = Engine::new(options.search.hash_mb, options.search.syzygy.as_deref());
    for note in notes {
        eprintln!("{note}");
    }
    interrupt::catch("the game in progress is dropped; the finished games are kept");
    let positions: usize = games.iter().map(|(_, g)| g.moves.len() + 1).sum();
    let bar = ProgressBar::new(positions as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{msg} [{bar:30}] {pos}/{len} positions ({elapsed}, {eta} left)",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    let count = games.len();
    let mut summaries = Vec::new();
    for (i, (_, game)) in games.iter_mut().enumerate() {
        bar.set_message(format!("game {}/{count}", i + 1));
        engine.clear();
        let summary = annotate_game(game, &mut engine, &options.search, &bar);
        if interrupt::interrupted() {
            break;
        }
        // Each game is written as soon as it is done: Ctrl-C or a crash keeps it.
        bar.suspend(|| sink.add(&pgn::write_game(game)))?;
        summaries.push(summary);
    }
    bar.finish_and_clear();

    // The summary goes where it does not mix with the games.
    let mut lines = Vec::new();
    for ((number, game), [white, black]) in games.iter().zip(&summaries) {
        lines.push(format!(
            "Game {number} ({} - {}, {}): White {}; Black {}",
            game.tag("White").unwrap_or("?"),
            game.tag("Black").unwrap_or("?"),
            game.result,
            white.text(),
            black.text()
        ));
    }
    if summaries.len() < count {
        lines.push(format!(
            "Interrupted: {} of {count} games annotated, the game in progress dropped",
            summaries.len()
        ));
    }
    if let Some(out) = &options.output
        && !summaries.is_empty()
    {
        lines.push(format!("Annotated PGN written to {}", out.display()));
    }
    if skipped > 0 {
        lines.push(format!(
            "{skipped} of {} games could not be read and were skipped",
            skipped + count
        ));
    }
    if dropped > 0 {
        let s = if dropped == 1 { "" } else { "s" };
        lines.push(format!(
            "{dropped} variation{s} could not be read and left out"
        ));
    }
    let to_file = options.output.is_some();
    let text = lines.join("\n");
    if to_file {
        writeln!(std::io::stdout(), "{text}").map_err(write_error)?;
    } else {
        eprintln!("{text}");
    }
    Ok(skipped + dropped)
}

/// Where the annotated games go, each as soon as it is done: standard output, or a file
/// rewritten through a temporary file beside it and a rename, so that the file always
/// holds the games finished so far, whole, whenever the run ends.
enum Sink {
    Stdout,
    File {
        path: PathBuf,
        temporary: PathBuf,
        text: String,
    },
}

impl Sink {
    /// Checks that `output` can be written (not a directory, in a folder that exists and
    /// takes files) before any search.
    fn open(output: Option<&Path>) -> Result<Sink, String> {
        let Some(path) = output else {
            return Ok(Sink::Stdout);
        };
        let cannot = |why: String| format!("cannot write {}: {why}", path.display());
        if path.is_dir() {
            return Err(cannot("it is a directory".to_string()));
        }
        let name = path
            .file_name()
            .ok_or_else(|| cannot("no file name".to_string()))?;
        let temporary = path.with_file_name(format!(".{}.part", name.to_string_lossy()));
        std::fs::File::create(&temporary).map_err(|e| cannot(e.to_string()))?;
        Ok(Sink::File {
            path: path.to_path_buf(),
            temporary,
            text: String::new(),
        })
    }

    /// Adds one annotated game.
    fn add(&mut self, game: &str) -> Result<(), String> {
        match self {
            Sink::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(game.as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(write_error)
            }
            Sink::File {
                path,
                temporary,
                text,
            } => {
                text.push_str(game);
                std::fs::write(&*temporary, text.as_bytes())
                    .and_then(|()| std::fs::rename(&*temporary, &*path))
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))
            }
        }
    }
}

impl Drop for Sink {
    /// The temporary file is left only while a game is being written.
    fn drop(&mut self) {
        if let Sink::File { temporary, .. } = self {
            let _ = std::fs::remove_file(temporary);
        }
    }
}

/// The score of a position at the end of the game that the rules have decided (mate,
/// stalemate, a draw), side to move's view; `None` if play could go on.
pub fn final_score(position: &Position) -> Option<i32> {
    match position.outcome()? {
        Outcome::Checkmate { .. } => Some(-score::MATE),
        _ => Some(score::DRAW),
    }
}

/// The value of a move for the side that made it, from the score of the position after
/// it (the opponent's view): negated, and a mate or tablebase result one ply further away.
fn move_value(after: i32) -> i32 {
    let value = -after;
    if score::is_decisive(value) {
        value - value.signum()
    } else {
        value
    }
}

/// The text of a NAG from `$1` to `$6` as written after a move.
fn nag_symbol(nag: u8) -> &'static str {
    match nag {
        1 => "!",
        2 => "?",
        3 => "!!",
        4 => "??",
        5 => "!?",
        _ => "?!",
    }
}

/// Puts the `[%eval]` command `eval` into a move's comments, lichess's way: in place of the
/// first `[%eval ...]` there (any other is removed, so the move keeps one evaluation, the
/// new one), or else at the front of the first comment holding another command, such as
/// `[%clk ...]`. Returns whether it found a place; comments left empty are removed.
/// Without an `eval` (the game ended with the move) the old ones go all the same: every
/// evaluation in the annotated game is Tarpon's, not some other engine's.
fn place_eval(comments: &mut Vec<String>, eval: Option<&str>) -> bool {
    const OPEN: &str = "[%eval";
    let mut placed = false;
    for comment in comments.iter_mut() {
        let mut kept = String::new();
        let mut rest = comment.as_str();
        while let Some(start) = rest.find(OPEN) {
            let after = &rest[start + OPEN.len()..];
            let end = after
                .find(']')
                .filter(|_| after.starts_with(char::is_whitespace));
            let Some(end) = end else {
                kept.push_str(&rest[..start + OPEN.len()]);
                rest = after;
                continue;
            };
            kept.push_str(&rest[..start]);
            if !placed && let Some(eval) = eval {
                kept.push_str(eval);
                placed = true;
            }
            kept.push(' ');
            rest = &after[end + 1..];
        }
        kept.push_str(rest);
        *comment = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    comments.retain(|c| !c.is_empty());
    if !placed
        && let Some(eval) = eval
        && let Some(comment) = comments.iter_mut().find(|c| c.contains("[%"))
    {
        comment.insert_str(0, &format!("{eval} "));
        placed = true;
    }
    placed
}

/// Annotates a game in place: an `[%eval]` comment on every move, the best move where a
/// worse one was played, and a mark with a better line where the loss reaches the
/// thresholds. What the game's author wrote stays: comments (an `[%eval]` in them is
/// replaced by Tarpon's, other commands such as `[%clk]` are kept), variations, and move
/// judgements (`$1` to `$6`): where Tarpon judges the move otherwise, the author's NAG is
/// kept and Tarpon's view written in the comment ("Tarpon: Blunder (...), not ! as
/// annotated."). Returns the marks of White and Black (Tarpon's own).
pub fn annotate_game(
    game: &mut Game,
    engine: &mut Engine,
    settings: &Settings,
    bar: &ProgressBar,
) -> [SideSummary; 2] {
    let positions = game.positions();
    let last = positions.len() - 1;
    // Each position's score for its side to move, and the search behind it. Only the final
    // position is judged by the rules: earlier repetitions and fifty-move counts were not
    // claimed, and play went on.
    let mut scores: Vec<Option<i32>> = Vec::with_capacity(positions.len());
    let mut analyses: Vec<Option<Analysis>> = Vec::with_capacity(positions.len());
    for (i, position) in positions.iter().enumerate() {
        match final_score(position).filter(|_| i == last) {
            Some(score) => {
                scores.push(Some(score));
                analyses.push(None);
            }
            None => {
                let analysis = engine.search(position, settings.limits(), |_| {});
                scores.push(analysis.searched_score());
                analyses.push(Some(analysis));
            }
        }
        bar.inc(1);
    }
    // A position the search did not search has a single legal move, which the game played:
    // it is worth that move's value, known from the position after it.
    for i in (0..last).rev() {
        if scores[i].is_none() && legal_moves(positions[i].board()).len() == 1 {
            scores[i] = scores[i + 1].map(move_value);
        }
    }

    let mut summaries = [SideSummary::default(), SideSummary::default()];
    for (i, record) in game.moves.iter_mut().enumerate() {
        let before = &positions[i];
        let after = &positions[i + 1];
        let mover = before.side_to_move();
        let Some(analysis) = &analyses[i] else {
            continue;
        };
        // A move is as good as the best when it is the search's choice, when it mates
        // (nothing is better), or when it scores as much: another move of equal value is
        // no better, and suggesting it would be noise.
        let mates = matches!(after.outcome(), Some(Outcome::Checkmate { .. }));
        let best_score = scores[i];
        let played_best = record.mv == analysis.best
            || mates
            || matches!((best_score, scores[i + 1]), (Some(best), Some(a)) if move_value(a) >= best);
        let loss = match (best_score, scores[i + 1]) {
            (Some(best), Some(a)) => move_loss(best, a, played_best),
            _ => 0.0,
        };
        let summary = &mut summaries[mover.index()];
        summary.moves += 1;
        summary.total_loss += loss;

        let mut words = Vec::new();
        // No evaluation after a move that ended the game: the result says it all.
        let command = scores[i + 1]
            .filter(|_| analyses[i + 1].is_some())
            .map(|score| {
                // The score of the position after the move, turned to White's view.
                // Negating it into the mover's score first would go wrong for mates: they
                // are counted in moves of the side to move, and the mover is not to move.
                let eval = Eval::from_score(score).for_white(after.side_to_move());
                format!("[%eval {}]", eval.pgn_text())
            });
        if !place_eval(&mut record.comments, command.as_deref())
            && let Some(command) = command
        {
            words.push(command);
        }
        let mark = Mark::of_loss(loss);
        match mark {
            Some(Mark::Blunder) => summary.blunders += 1,
            Some(Mark::Mistake) => summary.mistakes += 1,
            Some(Mark::Inaccuracy) => summary.inaccuracies += 1,
            None => {}
        }
        let judged = record.nags.iter().copied().find(|n| (1..=6).contains(n));
        match (judged, mark) {
            (None, Some(mark)) => {
                record.nags.push(mark.nag());
                words.push(format!(
                    "{} (gives away {loss:.2} of a point).",
                    mark.word()
                ));
            }
            (Some(nag), Some(mark)) if nag == mark.nag() => {
                words.push(format!(
                    "{} (gives away {loss:.2} of a point).",
                    mark.word()
                ));
            }
            (Some(nag), Some(mark)) => words.push(format!(
                "Tarpon: {} (gives away {loss:.2} of a point), not {} as annotated.",
                mark.word(),
                nag_symbol(nag)
            )),
            // Tarpon marks errors only: its silence does not contradict a `!`, `!!` or `!?`.
            (Some(nag @ (2 | 4 | 6)), None) => words.push(format!(
                "Tarpon: no error (gives away {loss:.2} of a point), not {} as annotated.",
                nag_symbol(nag)
            )),
            (_, None) => {}
        }
        if mark.is_some() {
            let line: Vec<Move> = analysis.pv.iter().copied().take(VARIATION_PLIES).collect();
            record.variations.push(pgn::Line::of_moves(&line));
        }
        // The better move is named where the difference changes the judgement (the move
        // is marked), as lichess does: a tenth of a pawn in a won ending is no lesson.
        if !played_best && mark.is_some() {
            let best = engine::numbered_san(before, analysis.best);
            words.push(match best_score {
                Some(score) => format!(
                    "Best: {best} ({}).",
                    Eval::from_score(score).for_white(mover)
                ),
                None => format!("Best: {best}."),
            });
        }
        if !words.is_empty() {
            record.comments.push(words.join(" "));
        }
    }

    let tarpon = format!("Tarpon {}", env!("CARGO_PKG_VERSION"));
    game.set_tag("Annotator", &tarpon);
    game.comments.push(format!(
        "{tarpon}, {}, scores for White. White: {}. Black: {}.",
        settings.describe(),
        summaries[Color::White.index()].text(),
        summaries[Color::Black.index()].text()
    ));
    summaries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_in_pawns_at_equality() {
        // The documented sizes: about half a pawn, a pawn, two and a half pawns.
        let loss = |cp: i32| expected_score(0) - expected_score(-cp);
        assert!(loss(50) < INACCURACY && loss(60) >= INACCURACY);
        assert!(loss(100) < MISTAKE && loss(115) >= MISTAKE);
        assert!(loss(220) < BLUNDER && loss(240) >= BLUNDER);
    }

    #[test]
    fn the_new_evaluation_replaces_the_old_and_joins_other_commands() {
        let place = |comments: &[&str]| {
            let mut comments: Vec<String> = comments.iter().map(|c| c.to_string()).collect();
            let placed = place_eval(&mut comments, Some("[%eval 0.25]"));
            (placed, comments)
        };
        assert_eq!(
            place(&["[%eval 0.3] [%clk 0:03:00]"]),
            (true, vec!["[%eval 0.25] [%clk 0:03:00]".to_string()])
        );
        assert_eq!(
            place(&["[%clk 0:03:00]"]),
            (true, vec!["[%eval 0.25] [%clk 0:03:00]".to_string()])
        );
        // One evaluation per move: a second old one goes, and a comment left empty.
        assert_eq!(
            place(&["good [%eval #2]", "[%eval -1.0]", "[%evaluation] stays"]),
            (
                true,
                vec![
                    "good [%eval 0.25]".to_string(),
                    "[%evaluation] stays".to_string()
                ]
            )
        );
        assert_eq!(
            place(&["just words"]),
            (false, vec!["just words".to_string()])
        );
        // Without a new evaluation, the old ones go all the same.
        let mut comments = vec![
            "[%eval #1] [%clk 0:01:00]".to_string(),
            "[%eval 9]".to_string(),
        ];
        assert!(!place_eval(&mut comments, None));
        assert_eq!(comments, ["[%clk 0:01:00]"]);
    }

    #[test]
    fn move_values_count_a_mate_from_before_the_move() {
        // Mated on the board after the move: the move mates in one.
        assert_eq!(move_value(-score::MATE), score::mate_in(1));
        assert_eq!(move_value(score::mate_in(2)), score::mated_in(3));
        assert_eq!(move_value(-35), 35);
    }

    #[test]
    fn a_game_ending_in_mate_is_annotated() {
        let mut game = pgn::read_games("1. f3 e5 2. g4 Qh4# 0-1")
            .unwrap()
            .remove(0);
        let (mut engine, _) = Engine::new(1, None);
        let settings = Settings {
            depth: Some(4),
            hash_mb: 1,
            ..Settings::default()
        };
        let [white, black] =
            annotate_game(&mut game, &mut engine, &settings, &ProgressBar::hidden());
        assert_eq!(white.blunders, 1, "{white:?}");
        assert_eq!(game.moves[2].nags, vec![4]);
        assert!(
            game.moves[2].comments[0].contains("Blunder"),
            "{:?}",
            game.moves[2].comments
        );
        assert_eq!(black.blunders + black.mistakes, 0, "{black:?}");
        // The mating move has no evaluation (the game is over), but is the best move.
        assert!(
            game.moves[3].comments.is_empty(),
            "{:?}",
            game.moves[3].comments
        );
        assert_eq!(
            game.tag("Annotator").map(|a| a.starts_with("Tarpon")),
            Some(true)
        );
    }
}
