//! `tarpon epd`: runs a test suite, positions in EPD with the moves to find.
//!
//! A line is the first four FEN fields (the two clocks may follow, or come as `hmvc` and
//! `fmvn` operations), then operations `opcode operand ...;`. Tarpon checks:
//!
//! - `bm` (best move): Tarpon's move must be one of these;
//! - `am` (avoid move): it must be none of these;
//! - `dm` (direct mate): it must find a mate in at most this many moves.
//!
//! Moves may be written in SAN or UCI notation. `id` names the position in the report;
//! other operations are ignored. Blank lines and lines starting with `#` are skipped.
//!
//! With `--threads T`, T positions are searched at once, each by its own single-threaded
//! engine: the searches are exactly those of one thread, only the suite finishes sooner.
//! Every position starts with a cleared hash table, so a result never depends on the
//! order of the suite or on the number of threads (searches limited by time still vary
//! from run to run, as timed searches do).

use super::engine::{Analysis, Engine, Eval, SearchArgs, Settings, parse_move_text, write_error};
use super::interrupt;
use crate::chess::notation::to_san;
use crate::chess::{Board, Move, fen};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// What `tarpon epd` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    pub file: PathBuf,
    pub search: Settings,
    /// Positions searched at the same time.
    pub threads: usize,
}

/// `tarpon epd`'s arguments.
#[derive(clap::Args)]
#[command(
    after_help = "Each line: the four FEN fields, then operations such as bm Nf3; am Qxb7; dm 3; id \"name\";\n\
Moves in SAN or UCI notation. Prints the failures with Tarpon's move and score (for White,\n\
as analyse gives scores, whoever is to move), then 'Solved: <x>/<y> in <t> s'.\n\
--threads N searches N positions at a time (each its own single-threaded search).\n\
A line that cannot be read (a bad FEN, an illegal bm/am move) is named on standard error and\n\
skipped; the others run. Exit status: 0 done, 1 error, 2 bad arguments, 3 lines skipped.\n\n\
Examples:\n  tarpon epd wac.epd --movetime 1000\n  tarpon epd mates.epd --depth 8 --threads 2\n  \
tarpon epd suite.epd --nodes 100000"
)]
pub struct EpdArgs {
    /// The suite, one position per line
    file: PathBuf,
    #[command(flatten)]
    search: SearchArgs,
    /// Positions searched at the same time
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
}

impl From<EpdArgs> for Options {
    fn from(args: EpdArgs) -> Options {
        Options {
            file: args.file,
            search: args.search.into(),
            threads: args.threads.into(),
        }
    }
}

impl EpdArgs {
    /// `tarpon epd`.
    pub fn run(self) -> std::process::ExitCode {
        super::exit_status_skipping(run(&self.into()).map(|report| report.skipped.len()))
    }
}

/// One position of a suite with what Tarpon must find there.
#[derive(Clone, Debug)]
pub struct Test {
    /// 1-based line of the file.
    pub line: usize,
    /// The `id` operation, or "line N".
    pub id: String,
    pub board: Board,
    pub best: Vec<Move>,
    pub avoid: Vec<Move>,
    pub mate: Option<u32>,
}

impl Test {
    /// Why Tarpon's search failed this test, or `None` if it passed.
    pub fn failure(&self, analysis: &Analysis) -> Option<String> {
        let played = to_san(&self.board, analysis.best);
        let sans = |moves: &[Move]| {
            moves
                .iter()
                .map(|&m| to_san(&self.board, m))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut reasons = Vec::new();
        if !self.best.is_empty() && !self.best.contains(&analysis.best) {
            reasons.push(format!("expected bm {}", sans(&self.best)));
        }
        if self.avoid.contains(&analysis.best) {
            reasons.push(format!(
                "expected a move other than am {}",
                sans(&self.avoid)
            ));
        }
        if let Some(moves) = self.mate {
            let found = matches!(analysis.eval(), Eval::Mate(n) if n >= 1 && n <= moves as i32);
            if !found {
                reasons.push(format!("expected dm {moves}"));
            }
        }
        // For White, as `analyse` gives scores, whoever is to move.
        let value = match analysis.searched_score() {
            Some(score) => format!(
                "{} for White, depth {}",
                Eval::from_score(score).for_white(self.board.side_to_move()),
                analysis.depth
            ),
            None => "the only legal move, not searched".to_string(),
        };
        (!reasons.is_empty())
            .then(|| format!("{}; Tarpon played {played} ({value})", reasons.join(", ")))
    }
}

/// A suite as read: its tests, and the lines that could not be read.
#[derive(Clone, Debug)]
pub struct Suite {
    pub tests: Vec<Test>,
    /// Why each unreadable line was left out, naming it: "line 3: bm: illegal move ...".
    pub skipped: Vec<String>,
}

/// Reads a suite. A line with a problem (a bad FEN, an illegal or unreadable move, nothing
/// to check) is left out with an error naming it, and the other lines are read: one typo
/// should not stop a suite of hundreds, but the run must say that its score leaves a
/// position out (`run` does, and ends with a distinct exit status).
pub fn read_suite(text: &str) -> Suite {
    let mut suite = Suite {
        tests: Vec::new(),
        skipped: Vec::new(),
    };
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match read_line(line, i + 1) {
            Ok(test) => suite.tests.push(test),
            Err(e) => suite.skipped.push(format!("line {}: {e}", i + 1)),
        }
    }
    suite
}

fn read_line(line: &str, number: usize) -> Result<Test, String> {
    let mut rest = line;
    let mut fields = Vec::new();
    // The four position fields, then the clocks if they are written as in a FEN.
    while fields.len() < 6 {
        let trimmed = rest.trim_start();
        let end = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
        let word = &trimmed[..end];
        if word.is_empty() || (fields.len() >= 4 && word.parse::<u32>().is_err()) {
            break;
        }
        fields.push(word);
        rest = &trimmed[end..];
    }
    if fields.len() < 4 {
        return Err(
            "expected the four FEN fields (placement, side, castling, en passant)".to_string(),
        );
    }
    let operations = read_operations(rest)?;
    let operand = |name: &str| {
        operations
            .iter()
            .find(|(op, _)| op == name)
            .and_then(|(_, args)| args.first().cloned())
    };
    let halfmove = fields
        .get(4)
        .map(|s| s.to_string())
        .or_else(|| operand("hmvc"));
    let fullmove = fields
        .get(5)
        .map(|s| s.to_string())
        .or_else(|| operand("fmvn"));
    let fen_text = format!(
        "{} {} {}",
        fields[..4].join(" "),
        halfmove.as_deref().unwrap_or("0"),
        fullmove.as_deref().unwrap_or("1")
    );
    let board = fen::parse(&fen_text, false).map_err(|e| format!("bad position: {e}"))?;
    let mut test = Test {
        line: number,
        id: format!("line {number}"),
        board,
        best: Vec::new(),
        avoid: Vec::new(),
        mate: None,
    };
    for (op, args) in &operations {
        match op.as_str() {
            "bm" | "am" => {
                for text in args {
                    let m = parse_move_text(&board, text).map_err(|e| format!("{op}: {e}"))?;
                    if op == "bm" {
                        test.best.push(m);
                    } else {
                        test.avoid.push(m);
                    }
                }
            }
            "dm" => {
                let moves = args
                    .first()
                    .and_then(|a| a.parse::<u32>().ok())
                    .filter(|&n| (1..=100).contains(&n))
                    .ok_or_else(|| {
                        format!("dm needs a number of moves from 1 to 100, not {args:?}")
                    })?;
                test.mate = Some(moves);
            }
            "id" => {
                // An empty `id ""` keeps the line's name: the report must name every test.
                if let Some(id) = args.first().filter(|id| !id.trim().is_empty()) {
                    test.id = id.clone();
                }
            }
            _ => {}
        }
    }
    if test.best.is_empty() && test.avoid.is_empty() && test.mate.is_none() {
        return Err("nothing to test: no bm, am or dm operation".to_string());
    }
    Ok(test)
}

/// Splits `opcode operand ...;` operations. Operands are words or quoted strings (which
/// may hold spaces and semicolons); the last `;` may be missing.
fn read_operations(text: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut operations = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut finish = |words: &mut Vec<String>| {
        if !words.is_empty() {
            let op = words.remove(0);
            operations.push((op, std::mem::take(words)));
        }
    };
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == ';' {
            chars.next();
            finish(&mut words);
        } else if c == '"' {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => s.push(c),
                    None => return Err("a quoted string is never closed".to_string()),
                }
            }
            words.push(s);
        } else {
            let mut s = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == ';' || c == '"' {
                    break;
                }
                s.push(c);
                chars.next();
            }
            words.push(s);
        }
    }
    finish(&mut words);
    Ok(operations)
}

/// The outcome of a run.
#[derive(Clone, Debug)]
pub struct Report {
    pub solved: usize,
    pub total: usize,
    /// `(line, id, why)` of each failed test, in file order.
    pub failures: Vec<(usize, String, String)>,
    /// The lines that could not be read, with why (not counted in `total`).
    pub skipped: Vec<String>,
}

/// Runs the suite in `options.file`, printing the header, the failures and the final
/// `Solved: x/y in t s` line; a progress bar on standard error meanwhile.
pub fn run(options: &Options) -> Result<Report, String> {
    let text = std::fs::read_to_string(&options.file)
        .map_err(|e| format!("cannot read {}: {e}", options.file.display()))?;
    let Suite { tests, skipped } = read_suite(&text);
    for why in &skipped {
        eprintln!("{}: {why} (line skipped)", options.file.display());
    }
    if tests.is_empty() && skipped.is_empty() {
        return Err(format!("{} holds no position", options.file.display()));
    }
    if tests.is_empty() {
        return Err(format!(
            "{}: no position could be read",
            options.file.display()
        ));
    }
    let skipped_note = match skipped.len() {
        0 => String::new(),
        1 => " (1 line skipped)".to_string(),
        n => format!(" ({n} lines skipped)"),
    };
    let threads = options.threads.clamp(1, tests.len());
    // Written with errors checked: output cut short (a closed pipe) ends the run with a
    // message instead of a panic.
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: {} positions{skipped_note}, {}, {threads} at a time; scores are for White",
        options.file.display(),
        tests.len(),
        options.search.describe()
    )
    .map_err(write_error)?;
    let start = Instant::now();
    let bar = ProgressBar::new(tests.len() as u64);
    if let Ok(style) = ProgressStyle::with_template("[{bar:30}] {pos}/{len} {msg} ({eta} left)") {
        bar.set_style(style.progress_chars("=> "));
    }
    // (The search threads print to standard output too.)
    drop(out);
    interrupt::catch("the searches in progress are dropped; the results so far are kept");
    let next = AtomicUsize::new(0);
    let solved = AtomicUsize::new(0);
    let searched = AtomicUsize::new(0);
    // Failures as they are found (in the order found), printed at once: Ctrl-C or a
    // closed pipe loses none of those already known.
    let failures: Mutex<Vec<(usize, String, String)>> = Mutex::new(Vec::new());
    let printed: Mutex<Result<(), String>> = Mutex::new(Ok(()));
    let notes: Mutex<Vec<String>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let (mut engine, found) =
                    Engine::new(options.search.hash_mb, options.search.syzygy.as_deref());
                // Every thread loads the same tables and finds the same problems: keep
                // one thread's notes.
                let mut shared_notes = notes.lock().expect("no panic");
                if shared_notes.is_empty() {
                    shared_notes.extend(found);
                }
                drop(shared_notes);
                while !interrupt::interrupted() {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(test) = tests.get(i) else { break };
                    engine.clear();
                    let mut limits = options.search.limits();
                    limits.mate = test.mate;
                    let position = crate::chess::Position::from_board(test.board);
                    let analysis = engine.search(&position, limits, |_| {});
                    if interrupt::interrupted() {
                        break;
                    }
                    searched.fetch_add(1, Ordering::Relaxed);
                    match test.failure(&analysis) {
                        None => {
                            solved.fetch_add(1, Ordering::Relaxed);
                        }
                        Some(why) => {
                            let mut failures = failures.lock().expect("no panic");
                            let mut out = std::io::stdout().lock();
                            let header = if failures.is_empty() { "Failed:\n" } else { "" };
                            let line =
                                format!("{header}  line {} ({}): {why}\n", test.line, test.id);
                            let written = bar.suspend(|| {
                                out.write_all(line.as_bytes()).and_then(|()| out.flush())
                            });
                            if let Err(e) = written {
                                *printed.lock().expect("no panic") = Err(write_error(e));
                            }
                            failures.push((test.line, test.id.clone(), why));
                        }
                    }
                    bar.set_message(format!("solved {}", solved.load(Ordering::Relaxed)));
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let elapsed = start.elapsed();
    for note in notes.into_inner().expect("no panic") {
        eprintln!("{note}");
    }
    printed.into_inner().expect("no panic")?;
    let mut out = std::io::stdout().lock();
    let mut failures = failures.into_inner().expect("no panic");
    failures.sort();
    let searched = searched.into_inner();
    let report = Report {
        solved: searched - failures.len(),
        total: searched,
        failures,
        skipped,
    };
    let interrupted = match tests.len() - searched {
        0 => String::new(),
        n => format!(
            " (interrupted: {n} of {} positions not searched)",
            tests.len()
        ),
    };
    writeln!(
        out,
        "Solved: {}/{} in {:.2} s{interrupted}",
        report.solved,
        report.total,
        elapsed.as_secs_f64()
    )
    .map_err(write_error)?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_operations_in_san_and_uci_with_quoted_ids() {
        let suite = "\
# a comment
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5 d2d4; id \"two; best\";
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30 dm 1; am Kf1;

k7/8/1K6/8/8/8/7Q/8 w - - hmvc 12; fmvn 60; bm Qh8#;
";
        let Suite { tests, skipped } = read_suite(suite);
        assert!(skipped.is_empty(), "{skipped:?}");
        assert_eq!(tests.len(), 3);
        assert_eq!(tests[0].id, "two; best");
        let bests: Vec<String> = tests[0]
            .best
            .iter()
            .map(|&m| to_san(&tests[0].board, m))
            .collect();
        assert_eq!(bests, ["Bb5", "d4"]);
        assert_eq!(
            (tests[1].line, tests[1].mate, tests[1].avoid.len()),
            (3, Some(1), 1)
        );
        assert_eq!(tests[1].board.fullmove_number(), 30);
        assert_eq!(tests[2].id, "line 5");
        assert_eq!(
            (
                tests[2].board.halfmove_clock(),
                tests[2].board.fullmove_number()
            ),
            (12, 60)
        );
        let mate = tests[2].best[0];
        assert_eq!(
            crate::tools::engine::numbered_san(&tests[2].board, mate),
            "60. Qh8#"
        );
    }

    #[test]
    fn bad_lines_are_skipped_with_errors_naming_the_line() {
        for (suite, words) in [
            ("8/8/8 w - - bm Ka1;", "line 1: bad position"),
            ("4k3/8/8/8/8/8/8/4K3 w - - bm Ke3;", "line 1: bm: illegal"),
            (
                "\n4k3/8/8/8/8/8/8/4K3 w - - id \"x\";",
                "line 2: nothing to test",
            ),
            ("4k3/8/8/8/8/8/8/4K3 w - - dm zero;", "line 1: dm needs"),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - id \"open;",
                "line 1: a quoted string is never closed",
            ),
        ] {
            let read = read_suite(suite);
            assert!(read.tests.is_empty(), "{suite}");
            assert_eq!(read.skipped.len(), 1, "{suite}");
            assert!(
                read.skipped[0].starts_with(words),
                "{suite}: {:?}",
                read.skipped
            );
        }
        // The good lines around a bad one are read.
        let read = read_suite(
            "4k3/8/8/8/8/8/8/4K3 w - - bm Ke2;\n8/8 w - - bm Ka1;\n4k3/8/8/8/8/8/8/4K3 w - - bm Kd2;\n",
        );
        assert_eq!(
            (read.tests.len(), read.tests[1].line, read.skipped.len()),
            (2, 3, 1)
        );
    }
}
