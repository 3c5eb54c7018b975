//! The UCI loop: reads commands from a GUI line by line and answers on standard output.
//!
//! The search runs on its own thread, so the loop keeps reading while it thinks: `isready`
//! is answered at once, `stop` ends the search within milliseconds (the search checks its
//! stop flag every thousand nodes), `ponderhit` switches a ponder search to the clock.
//! The transposition table and the search threads' state move into the search thread for
//! the duration of a search and come back when it ends. That thread is the search's main
//! thread; with `Threads` above 1 it starts the helpers (`search::threads`).
//!
//! Pondering follows the UCI rules: after `go ponder` no `bestmove` is sent until `stop`
//! or `ponderhit`, however soon the search itself is done (a depth or node limit, a mate,
//! a single legal move); after `ponderhit` the search runs on the clock given with
//! `go ponder`, counted from the arrival of `ponderhit`.
//!
//! A `bestmove` answers a `go`, and nothing else: a search that waits for `stop` (`go
//! infinite`, or `go ponder` before `ponderhit`) answers only `stop`. Any other command
//! that must end it ends it silently: a new `go` replaces it, `ucinewgame` drops it, and
//! `setoption` restarts it with the new option (an analysis GUI that changes `MultiPV`
//! mid-analysis sees the new lines, and no stray `bestmove`). A limited search (a depth,
//! nodes, a clock) is never cut short by them: they wait for it to answer first, as
//! Stockfish does, so that a script may send `go depth 12` twice in a row; only `stop`
//! (and `quit`) end it early. A plain `go` without any limit, which would never end by
//! itself, is stopped (and answers).
//!
//! Bad input never stops the loop: it is answered with an `info string error: ...` line and
//! the engine's state is well defined. `go` parameters are read leniently (`5000.0` and
//! `1e4` are numbers), and a value that cannot be read counts as the smallest one (a clock
//! or `movetime` of 0, a depth or node count of 1), so that a timed `go` stays timed.
//! A rejected `position` (a bad FEN, or an illegal move in the list) leaves the position
//! that could be set up (the old one after a bad FEN, the legal moves before the bad one
//! otherwise, as Stockfish does), but the GUI believes in another position, so every `go`
//! is refused with `bestmove (none)` until a `position` (or `ucinewgame`) succeeds: a move
//! for a position the GUI does not have could be played for the wrong side.
//!
//! With `OwnBook` on and a Polyglot book in `BookFile`, `go` first looks the position up in
//! the book and, if the book has a move, answers with it at once instead of searching.
//!
//! This file holds the loop and the commands that set the engine up; `go` and the search
//! thread it starts are in `go.rs`, the options' names, ranges and parsing in `options.rs`.

mod go;
pub mod options;

use crate::book::{self, Book};
use crate::chess::fen::START_FEN;
use crate::chess::notation::parse_uci;
use crate::chess::{Position, Square};
use crate::eval::nnue::{self, Net};
use crate::learn;
use crate::search::skill::Skill;
use crate::search::threads::SearchThreads;
use crate::search::tt::TranspositionTable;
use crate::search::{Reporter, SearchControl};
use crate::tablebase::{self, Tablebases};
use crate::tools::bench;
use go::Go;
use options::{Change, Options};
use std::ffi::OsString;
use std::io::{self, BufRead, IsTerminal};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

const AUTHOR: &str = "the Tarpon developers";

/// What `uci help` answers: the commands a person at a terminal may want.
const HELP: &str = "\
Tarpon speaks UCI, the protocol of chess GUIs; `tarpon --help` lists its other tools.
Commands (a GUI sends these; you can type them too):
  uci                          identify, and list the options
  isready                      answers readyok
  setoption name <N> value <V> set an option (see 'uci' for the list)
  ucinewgame                   a new game: empty hash table and histories
  position startpos|fen <FEN> [moves <m1> <m2> ...]
  go [depth <d>] [nodes <n>] [movetime <ms>] [wtime <ms> btime <ms> [winc <ms> binc <ms>]]
     [movestogo <n>] [mate <n>] [searchmoves <m1> ...] [ponder] [infinite]
  go perft <depth>             count the leaf nodes, move by move
  stop, ponderhit              end a search / the opponent played the ponder move
  d                            show the board, its FEN and key
  debug on|off                 echo each command and how 'go' was read (info string)
  eval                         the evaluation of the position, term by term
  bench [depth] [threads] [hash]  search the benchmark positions
  genfens <n> seed <s> book <None|FILE> [chess960|dfrc] [plies <n>] [nodes <n>]
                               opening positions for OpenBench (docs/openbench.md)
  spsa                         the tunables as OpenBench's SPSA inputs (tune build)
  quit                         leave
Commands may also be given as arguments: tarpon \"genfens 10 seed 1 book None\" \"quit\"";

/// Whether the loop should go on after a command.
#[derive(PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Quit,
}

/// What a search needs that lasts from one search to the next.
struct Engine {
    tt: TranspositionTable,
    /// Each search thread's histories and pawn hash table.
    threads: SearchThreads,
    /// The evaluation the table's static evaluations came from (`None`: the hand-crafted
    /// one), so that a search with another one starts from an empty table.
    evaluation: Option<Arc<Net>>,
}

impl Engine {
    /// An empty table, for searches with `evaluation`.
    fn new(options: &Options, evaluation: Option<Arc<Net>>) -> Engine {
        Engine {
            tt: TranspositionTable::new(options.hash_mb),
            threads: SearchThreads::new(options.threads),
            evaluation,
        }
    }

    /// Empties the table if its entries were stored by a search with another evaluation:
    /// their static evaluations would be on the other evaluation's scale (the hand-crafted
    /// one and the network do not agree to the centipawn), and the search would mix them.
    fn use_evaluation(&mut self, evaluation: Option<Arc<Net>>) {
        let same = match (&self.evaluation, &evaluation) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        if !same {
            self.tt.clear();
            self.evaluation = evaluation;
        }
    }
}

/// The engine state that commands act on.
pub struct Uci {
    position: Position,
    options: Options,
    /// `None` while a search thread has it.
    engine: Option<Engine>,
    search: Option<JoinHandle<Engine>>,
    /// The running search waits for `stop` (`go infinite` or `go ponder`).
    search_waits_for_stop: bool,
    /// The running search is `go ponder` (without `infinite`): `ponderhit` lets it end.
    search_is_ponder: bool,
    /// The running search has a limit of its own (a depth, nodes, a time) that ends it:
    /// the next command waits for it (see `cancel_search`).
    search_is_limited: bool,
    /// Whether the running search sends its `bestmove` when it ends (`false` once another
    /// command than `stop` ended a search that waited for `stop`). The search thread prints
    /// under the lock, so the answer is either printed or cancelled, never both.
    answer: Arc<Mutex<bool>>,
    /// The last search started, to restart it when `setoption` interrupts it.
    last_go: Option<Go>,
    /// Why the last `position` command was rejected: `go` refuses to search until a
    /// `position` succeeds.
    rejected: Option<String>,
    /// A refused `go infinite` or `go ponder` still owes its `bestmove (none)`, sent when
    /// `stop` (or `ponderhit`) comes.
    owed_none: bool,
    control: Arc<SearchControl>,
    out: Reporter,
    /// The opening book, read when `OwnBook` and `BookFile` are both set.
    book: Option<Book>,
    /// The en-passant field of the last `position fen`: the book key needs it when no move
    /// has been played since (the board keeps the square only if a capture is legal).
    setup_en_passant: Option<Square>,
    /// The Syzygy tables of `SyzygyPath`, if any loaded.
    tablebases: Option<Arc<Tablebases>>,
    /// The network of `EvalFile` (the embedded one by default); the search uses it while
    /// `Use NNUE` is on.
    network: Arc<Net>,
    /// `debug on`: every command is echoed as an `info string`, and `go` says how it read
    /// its limits, for a GUI author to see what the engine understood.
    debug: bool,
    /// A command was unknown or could not be carried out (`genfens`): commands given as
    /// arguments (`run_commands`) then end with exit status 1.
    failed: bool,
    /// The last command that was not one Tarpon knows (for `run_commands`' message).
    unknown: Option<String>,
}

impl Default for Uci {
    fn default() -> Self {
        Uci::new()
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        self.finish_search();
    }
}

impl Uci {
    /// A UCI session that answers on standard output.
    pub fn new() -> Uci {
        Uci::with_output(Arc::new(|line: &str| crate::stdout::line(line)))
    }

    /// A UCI session that sends every output line to `out`.
    pub fn with_output(out: Reporter) -> Uci {
        let options = Options::default();
        Uci {
            position: Position::startpos(),
            engine: Some(Engine::new(&options, options.use_nnue.then(Net::embedded))),
            options,
            search: None,
            search_waits_for_stop: false,
            search_is_ponder: false,
            search_is_limited: false,
            answer: Arc::new(Mutex::new(true)),
            last_go: None,
            rejected: None,
            owed_none: false,
            control: Arc::new(SearchControl::default()),
            out,
            book: None,
            setup_en_passant: None,
            tablebases: None,
            network: Net::embedded(),
            debug: false,
            failed: false,
            unknown: None,
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    fn say(&self, text: &str) {
        (self.out)(text);
    }

    fn error(&self, text: &str) {
        self.say(&format!("info string error: {text}"));
    }

    /// Stops a running search (if any), which sends its `bestmove`, and takes the table
    /// and histories back.
    fn finish_search(&mut self) {
        if std::mem::take(&mut self.owed_none) {
            self.say("bestmove (none)");
        }
        self.search_waits_for_stop = false;
        if self.search.is_some() {
            self.control.stop.store(true, Ordering::Relaxed);
            self.control.pondering.store(false, Ordering::Relaxed);
            self.join_search();
        }
    }

    /// Waits for the search thread to end and takes the table and histories back.
    fn join_search(&mut self) {
        if let Some(handle) = self.search.take() {
            match handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    self.error("the search thread failed; starting with a fresh table");
                    self.engine = Some(Engine::new(&self.options, self.evaluation()));
                }
            }
        }
    }

    /// Ends a running search for another command than `stop`: one that waits for `stop`
    /// ends without a `bestmove` (nobody asked for one yet); a limited one (a depth, nodes,
    /// a clock) is waited for, and answers as usual: a script that sends its commands in a
    /// row expects each limited search to finish, as Stockfish does. A plain `go` without
    /// any limit would never finish: it is stopped, and answers.
    fn cancel_search(&mut self) {
        if self.search_waits_for_stop {
            *self.answer.lock().unwrap_or_else(|e| e.into_inner()) = false;
            self.owed_none = false;
            self.finish_search();
        } else if self.search_is_limited {
            self.join_search();
        } else {
            self.finish_search();
        }
    }

    /// The table and histories, once no search is using them (see `cancel_search`).
    fn engine(&mut self) -> &mut Engine {
        self.cancel_search();
        self.engine
            .as_mut()
            .expect("the engine is back once the search has finished")
    }

    /// Handles one input line.
    /// One line as read. A line that is not UTF-8 must not end the session: it is read
    /// with U+FFFD for the bad bytes (and answered as bad input), except for a `setoption`
    /// path, whose bytes name a file as they are (a Latin-1 folder name, say).
    pub fn handle_bytes(&mut self, bytes: &[u8]) -> Flow {
        if let Ok(line) = std::str::from_utf8(bytes) {
            return self.handle(line);
        }
        let line = String::from_utf8_lossy(bytes);
        if let Some(rest) = bytes.trim_ascii_start().strip_prefix(b"setoption")
            && rest.first().is_some_and(u8::is_ascii_whitespace)
        {
            if self.debug {
                self.say(&format!("info string debug: received '{}'", line.trim()));
            }
            match options::parse_bytes(rest) {
                Ok(change) => self.change_option(change),
                Err(e) => self.error(&e),
            }
            return Flow::Continue;
        }
        self.handle(&line)
    }

    pub fn handle(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return Flow::Continue;
        };
        if self.debug {
            self.say(&format!("info string debug: received '{}'", line.trim()));
        }
        match command {
            "uci" => {
                self.say(&format!("id name Tarpon {}", crate::version::version()));
                self.say(&format!("id author {AUTHOR}"));
                for option in options::declarations() {
                    self.say(&option);
                }
                self.say("uciok");
            }
            "isready" => self.say("readyok"),
            "help" => {
                for line in HELP.lines() {
                    self.say(line);
                }
            }
            "ucinewgame" => {
                self.cancel_search();
                self.rejected = None;
                let engine = self.engine();
                engine.tt.clear();
                engine.threads.clear();
                self.position = Position::startpos();
                self.setup_en_passant = None;
            }
            // (The value as written: a path may hold runs of spaces.)
            "setoption" => {
                let text = line.trim_start();
                self.set_option(&text[command.len()..]);
            }
            "position" => {
                if let Err(message) = self.set_position(args) {
                    self.error(&format!(
                        "{message}; 'go' answers 'bestmove (none)' until a 'position' command succeeds"
                    ));
                }
            }
            "go" => self.go(args),
            "stop" => self.finish_search(),
            "ponderhit" => {
                if self.search_is_ponder && std::mem::take(&mut self.owed_none) {
                    self.say("bestmove (none)");
                }
                self.control.ponderhit();
                // A ponder search now ends by itself, on the clock (`go infinite` does not).
                if self.search_is_ponder {
                    self.search_waits_for_stop = false;
                }
            }
            "eval" => {
                let in_use = self.evaluation().is_some();
                let text = nnue::eval_text(&self.position, &self.network, in_use);
                for line in text.lines() {
                    self.say(line);
                }
                // A blank line ends the table, as the other multi-line answers end.
                self.say("");
            }
            "bench" => {
                self.cancel_search();
                // bench [depth] [threads] [hash MB], as on the command line.
                let arg = |i: usize, default: u64, min: u64, max: u64| match args.get(i) {
                    None => Ok(default),
                    Some(text) => text
                        .parse()
                        .ok()
                        .filter(|n| (min..=max).contains(n))
                        .ok_or(()),
                };
                let Ok(depth) = arg(0, bench::DEFAULT_DEPTH as u64, 1, 64) else {
                    return self.bad("bench depth must be a number from 1 to 64");
                };
                let max_threads = options::THREADS_MAX as u64;
                let Ok(threads) = arg(1, 1, 1, max_threads) else {
                    return self.bad("bench threads must be a number from 1 to 1024");
                };
                let max_mb = options::HASH_MAX_MB as u64;
                let Ok(hash) = arg(2, bench::DEFAULT_HASH_MB as u64, 1, max_mb) else {
                    return self.bad("bench hash must be a number of MB from 1 to 65536");
                };
                let out = self.out.clone();
                let print = &mut |line: &str| out(line);
                // The session's evaluation (`Use NNUE`, `EvalFile`): the defaults give the
                // signature of `tarpon bench`.
                let nnue = self.nnue();
                bench::run_with_eval(depth as i32, threads as usize, hash as usize, nnue, print);
            }
            "d" => self.display(),
            "debug" => match args {
                ["on"] => self.debug = true,
                ["off"] => self.debug = false,
                _ => self.error("expected 'debug on' or 'debug off'"),
            },
            "quit" => {
                self.finish_search();
                return Flow::Quit;
            }
            "genfens" => self.genfens(args),
            // The tunables as OpenBench's SPSA inputs (a `--features tune` build).
            "spsa" => {
                let lines = crate::search::tunable::spsa_inputs();
                if lines.is_empty() {
                    self.failed = true;
                    self.error("this build has no tunables: build with --features tune");
                }
                for line in lines {
                    self.say(&line);
                }
            }
            _ => {
                self.failed = true;
                self.unknown = Some(command.to_string());
                self.error(&format!("unknown command '{command}'"));
            }
        }
        Flow::Continue
    }

    /// `genfens N seed S book <None|FILE> [extra]`: opening positions for OpenBench's
    /// data generation (`learn::genfens`), evaluated with the session's evaluation.
    fn genfens(&mut self, args: &[&str]) {
        self.cancel_search();
        let out = self.out.clone();
        let result = learn::genfens::parse(args).and_then(|request| {
            let control = SearchControl::default();
            learn::genfens::run(&request, self.nnue(), &control, &mut |line| out(line))
        });
        if let Err(e) = result {
            self.failed = true;
            self.error(&e);
        }
    }

    /// The end of the commands: a search with limits may finish and answer (handy for
    /// scripts piping commands in); one that would wait for `stop` is stopped.
    fn end_of_input(&mut self) {
        if !self.search_waits_for_stop
            && let Some(handle) = self.search.take()
        {
            let _ = handle.join();
        }
    }

    fn bad(&self, text: &str) -> Flow {
        self.error(text);
        Flow::Continue
    }

    /// `setoption`. During a search that waits for `stop` the option is applied and the
    /// same search started again (without a `bestmove` for the first): analysis goes on
    /// with the new setting, the hash table keeping what it had found.
    fn set_option(&mut self, text: &str) {
        match options::parse(text) {
            Ok(change) => self.change_option(change),
            Err(e) => self.error(&e),
        }
    }

    fn change_option(&mut self, change: Change) {
        let restart = if self.search.is_some() && self.search_waits_for_stop {
            self.cancel_search();
            self.last_go.clone()
        } else {
            None
        };
        self.apply_option(change);
        if let Some(go) = restart {
            self.start_search(go);
        }
    }

    fn apply_option(&mut self, change: Change) {
        match change {
            Change::Hash(mb) => {
                let result = self.engine().tt.resize(mb);
                match result {
                    Ok(()) => self.options.hash_mb = mb,
                    Err(e) => self.error(&format!(
                        "Hash {mb} MB: {e}; keeping {} MB",
                        self.options.hash_mb
                    )),
                }
            }
            Change::Threads(n) => {
                self.engine().threads.set_count(n);
                self.options.threads = n;
            }
            Change::ClearHash => self.engine().tt.clear(),
            Change::MoveOverhead(ms) => self.options.move_overhead = ms,
            Change::MultiPv(n) => self.options.multi_pv = n,
            Change::Contempt(cp) => self.options.contempt = cp,
            #[cfg(feature = "tune")]
            Change::Tune(name, value) => {
                // `parse` found the name and checked the range, so neither can fail here.
                if let Some(tunable) = crate::search::tunable::find(name) {
                    let _ = tunable.set(value);
                }
            }
            Change::Ponder(on) => self.options.ponder = on,
            Change::Chess960(on) => self.options.chess960 = on,
            Change::OwnBook(on) => {
                self.options.own_book = on;
                self.load_book();
            }
            Change::BookFile(path) => {
                self.options.book_file = path;
                self.load_book();
            }
            Change::BookBestMove(on) => self.options.book_best_move = on,
            Change::BookDepth(plies) => self.options.book_depth = plies,
            Change::SyzygyPath(paths) => self.load_tablebases(paths),
            Change::SyzygyProbeDepth(depth) => self.options.syzygy_probe_depth = depth,
            Change::SyzygyProbeLimit(pieces) => self.options.syzygy_probe_limit = pieces,
            Change::Syzygy50MoveRule(on) => self.options.syzygy_50_move_rule = on,
            Change::ShowWdl(on) => self.options.show_wdl = on,
            Change::LimitStrength(on) => self.options.limit_strength = on,
            Change::Elo(elo) => self.options.elo = elo,
            Change::SkillLevel(level) => self.options.skill_level = level,
            Change::UseNnue(on) => self.options.use_nnue = on,
            Change::EvalFile(path) => self.load_network(path),
        }
    }

    /// `EvalFile`: reads the network at `path` (`<embedded>`: the one in the binary). A
    /// file that cannot be read or is not a network this build can use is reported, and
    /// the network in use stays. A running search keeps the network it started with.
    fn load_network(&mut self, path: OsString) {
        let name = Path::new(&path).display();
        match Net::named(&path) {
            Ok(net) => {
                self.say(&format!("info string EvalFile: using network {name}"));
                self.network = net;
                self.options.eval_file = path;
            }
            Err(e) => self.error(&format!(
                "EvalFile {name}: {e}; still using network {}",
                Path::new(&self.options.eval_file).display()
            )),
        }
    }

    /// The network `Use NNUE` and `EvalFile` ask for: `None` for the hand-crafted
    /// evaluation.
    fn nnue(&self) -> Option<Arc<Net>> {
        self.options.use_nnue.then(|| self.network.clone())
    }

    /// The network a search evaluates with now: the one `nnue` gives, except that a
    /// strength-limited search always has the loaded network, whatever `Use NNUE` says:
    /// the settings' Elo scale was measured with it (docs/strength.md).
    fn evaluation(&self) -> Option<Arc<Net>> {
        if self.skill().is_some() {
            Some(self.network.clone())
        } else {
            self.nnue()
        }
    }

    /// The strength limit the options ask for (`UCI_LimitStrength`, `Skill Level`).
    fn skill(&self) -> Option<Skill> {
        Skill::from_options(
            self.options.limit_strength,
            self.options.elo,
            self.options.skill_level,
        )
    }

    /// Reads the book once both `OwnBook` and `BookFile` are set (GUIs send them in either
    /// order), and lets it go when either is unset. Reading the whole file here keeps file
    /// access out of the game; a file that cannot be used is reported and the engine goes
    /// on without a book.
    fn load_book(&mut self) {
        self.book = None;
        if !self.options.own_book {
            return;
        }
        let path = Path::new(&self.options.book_file);
        if path.as_os_str().is_empty() {
            self.say("info string OwnBook is on but BookFile is not set: no book yet");
            return;
        }
        match Book::load(path) {
            Ok(book) => {
                let entries = book.len();
                self.say(&format!(
                    "info string book {}: {entries} entries",
                    path.display()
                ));
                self.book = Some(book);
            }
            Err(e) => self.error(&format!("{e}; playing without a book")),
        }
    }

    /// `SyzygyPath`: replaces the tables by those found in `paths`. Every problem (a
    /// missing directory, a bad file) is reported and leaves the rest usable.
    fn load_tablebases(&mut self, paths: OsString) {
        // The running search holds the old tables; let it finish with them first.
        self.cancel_search();
        let (tables, notes) = tablebase::load(&paths);
        for note in notes {
            self.say(&format!("info string {note}"));
        }
        self.tablebases = tables.map(Arc::new);
        self.options.syzygy_path = paths;
    }

    /// How the next search uses the tables, from the options.
    fn tablebase_settings(&self) -> Option<tablebase::Settings> {
        self.tablebases.as_ref().map(|tables| tablebase::Settings {
            tables: tables.clone(),
            probe_depth: self.options.syzygy_probe_depth,
            probe_limit: self.options.syzygy_probe_limit,
            rule50: self.options.syzygy_50_move_rule,
        })
    }

    /// `position startpos|fen <fen> [moves <m1> ...]`. A bad FEN keeps the old position;
    /// an illegal move keeps the moves before it. Either way `go` is refused until the
    /// next `position` succeeds (see the module's notes).
    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let result = self.try_set_position(args);
        self.rejected = result.as_ref().err().cloned();
        result
    }

    fn try_set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args
            .iter()
            .position(|&t| t == "moves")
            .unwrap_or(args.len());
        let (setup, moves) = (&args[..moves_at], args.get(moves_at + 1..).unwrap_or(&[]));
        let chess960 = self.options.chess960;
        let setup_en_passant = match setup.split_first() {
            Some((&"fen", fen)) => book::fen_en_passant(&fen.join(" ")),
            _ => None,
        };
        let mut position = match setup.split_first() {
            Some((&"startpos", [])) => Position::from_fen(START_FEN, chess960),
            Some((&"fen", fen)) => Position::from_fen(&fen.join(" "), chess960),
            _ => {
                let e = "expected 'position startpos' or 'position fen <fen>'; position unchanged";
                return Err(e.to_string());
            }
        }
        .map_err(|e| format!("bad FEN: {e}; position unchanged"))?;
        let mut result = Ok(());
        for (i, text) in moves.iter().enumerate() {
            match parse_uci(&position, text) {
                Ok(m) => position.make(m),
                Err(e) => {
                    let kept = format!("the position after the {i} moves before it");
                    result = Err(format!("move {} of the list: {e}; {kept}", i + 1));
                    break;
                }
            }
        }
        self.position = position;
        self.setup_en_passant = setup_en_passant;
        result
    }

    fn display(&self) {
        let mut text = String::from(" +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8).rev() {
            for file in 0..8 {
                let piece = self.position.piece_on(Square::from_coords(file, rank));
                text.push_str(&format!(" | {}", piece.map_or(' ', |p| p.char())));
            }
            text.push_str(&format!(
                " | {}\n +---+---+---+---+---+---+---+---+\n",
                rank + 1
            ));
        }
        text.push_str("   a   b   c   d   e   f   g   h\n");
        for line in text.lines() {
            self.say(line);
        }
        // Shredder-FEN in Chess960 (rook files as castling rights), as Stockfish shows it.
        self.say(&format!("Fen: {}", self.position.shredder_fen()));
        self.say(&format!("Key: {:016X}", self.position.key()));
        let checkers: Vec<String> = self.position.checkers().map(|s| s.to_string()).collect();
        self.say(&format!("Checkers: {}", checkers.join(" ")));
    }
}

/// Runs the loop on standard input and output until `quit` or end of input.
pub fn run() {
    // The solved king-and-pawn ending, ready before a game reaches it.
    std::thread::spawn(crate::eval::kpk::prepare);
    let mut uci = Uci::new();
    // A person at a terminal gets a greeting (a GUI, on a pipe, needs none).
    if io::stdin().is_terminal() {
        uci.say(&format!(
            "Tarpon {} by {AUTHOR}: a UCI chess engine. Type 'help' for the commands.",
            crate::version::version()
        ));
    }
    let mut stdin = io::stdin().lock();
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match stdin.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if uci.handle_bytes(&bytes) == Flow::Quit {
            return;
        }
    }
    uci.end_of_input();
}

/// Runs each of `commands` as a line of UCI input, then ends as at the end of input: the
/// form OpenBench and Stockfish use, `tarpon "genfens 10 seed 1 book None" "quit"`. Exit
/// status 1 when a command was unknown or failed.
pub fn run_commands(commands: &[String]) -> std::process::ExitCode {
    std::thread::spawn(crate::eval::kpk::prepare);
    let mut uci = Uci::new();
    for command in commands {
        if uci.handle(command) == Flow::Quit {
            break;
        }
        // A mistyped subcommand (`tarpon benhc`) lands here too: say so where a shell
        // user looks.
        if let Some(word) = uci.unknown.take() {
            eprintln!(
                "error: '{word}' is neither a subcommand nor a UCI command\n\nFor more information, try '--help'."
            );
        }
    }
    uci.end_of_input();
    if uci.failed {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Move;
    use crate::search::tt::Bound;

    const KEY: u64 = 0x1234_5678_9abc_def0;

    fn has_entry(engine: &Engine) -> bool {
        engine.tt.probe(KEY).is_some()
    }

    #[test]
    fn a_table_filled_with_one_evaluation_is_emptied_for_another() {
        let embedded = Some(Net::embedded());
        let mut engine = Engine::new(&Options::default(), embedded.clone());
        let store = |engine: &Engine| engine.tt.store(KEY, Move::NONE, 10, 20, 3, Bound::Exact);
        store(&engine);
        engine.use_evaluation(embedded.clone());
        assert!(has_entry(&engine), "the same network keeps the table");
        engine.use_evaluation(None);
        assert!(
            !has_entry(&engine),
            "the hand-crafted evaluation starts afresh"
        );
        store(&engine);
        engine.use_evaluation(None);
        assert!(has_entry(&engine));
        // Another network, even one read from the same file, is another evaluation.
        let copy = Net::load("nets/default.nnue").expect("the network file reads");
        engine.use_evaluation(Some(Arc::new(copy)));
        assert!(!has_entry(&engine));
    }

    /// A session whose output lines are kept, for the test to read.
    fn recording_session() -> (Uci, Arc<Mutex<Vec<String>>>) {
        let said = Arc::new(Mutex::new(Vec::<String>::new()));
        let sink = said.clone();
        let uci = Uci::with_output(Arc::new(move |line: &str| {
            sink.lock().unwrap().push(line.to_string())
        }));
        (uci, said)
    }

    /// `debug on` was an unknown command; now it echoes commands and explains `go`.
    #[test]
    fn debug_on_echoes_commands_and_explains_go() {
        let (mut uci, said) = recording_session();
        uci.handle("debug on");
        uci.handle("go wtime 1000 btime 2000 movestogo 0 depth 1");
        uci.handle("isready");
        uci.handle("debug off");
        uci.handle("isready");
        uci.handle("debug maybe");
        let said = said.lock().unwrap().join("\n");
        assert!(
            said.contains("info string debug: received 'isready'"),
            "{said}"
        );
        assert!(
            said.contains(
                "go read as clock 1000 ms (increment 0 ms, moves to go -), movetime -, depth 1"
            ),
            "{said}"
        );
        assert_eq!(said.matches("received 'isready'").count(), 1, "{said}");
        assert!(
            said.contains("expected 'debug on' or 'debug off'"),
            "{said}"
        );
        assert!(!said.contains("unknown command"), "{said}");
    }

    /// Before, `setoption` rebuilt the value from its words: `no  such` became `no such`.
    #[test]
    fn an_option_path_keeps_its_runs_of_spaces() {
        let (mut uci, said) = recording_session();
        uci.handle("setoption name OwnBook value true");
        uci.handle("setoption  name BookFile value /no/such  folder/my\tbook.bin\r\n");
        assert_eq!(uci.options.book_file, "/no/such  folder/my\tbook.bin");
        let said = said.lock().unwrap();
        assert!(
            said.iter()
                .any(|l| l.contains("/no/such  folder/my\tbook.bin")),
            "{said:?}"
        );
    }

    /// Before, a path that was not UTF-8 (a Latin-1 folder name) lost its bytes to U+FFFD,
    /// so the file could not be found.
    #[cfg(unix)]
    #[test]
    fn an_option_path_keeps_bytes_that_are_not_utf8() {
        use std::os::unix::ffi::OsStrExt;
        let dir = std::env::temp_dir().join(format!("tarpon-latin1-{}", std::process::id()));
        // "Réseaux" in Latin-1: 0xE9 is no UTF-8.
        let folder = dir.join(std::ffi::OsStr::from_bytes(b"R\xe9seaux"));
        std::fs::create_dir_all(&folder).unwrap();
        let net = folder.join("default.nnue");
        std::fs::copy(
            concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue"),
            &net,
        )
        .unwrap();
        let (mut uci, said) = recording_session();
        let mut line = b"setoption name EvalFile value ".to_vec();
        line.extend_from_slice(net.as_os_str().as_bytes());
        line.extend_from_slice(b"\r\n");
        assert_eq!(uci.handle_bytes(&line), Flow::Continue);
        assert_eq!(uci.options.eval_file, net.as_os_str());
        // Elsewhere in a line, the bad bytes are read as U+FFFD and answered.
        uci.handle_bytes(b"setoption name Hash\xff value 8\n");
        uci.handle_bytes(b"go\xe9 depth 1\n");
        let said = said.lock().unwrap().join("\n");
        assert!(
            said.contains("info string EvalFile: using network"),
            "{said}"
        );
        assert!(said.contains("unknown option 'Hash\u{fffd}'"), "{said}");
        assert!(said.contains("unknown command"), "{said}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn each_search_records_the_evaluation_it_used() {
        let mut uci = Uci::with_output(Arc::new(|_: &str| {}));
        let search = |uci: &mut Uci, commands: &[&str]| {
            for command in commands {
                uci.handle(command);
            }
            uci.handle("go depth 2");
            uci.engine().evaluation.clone()
        };
        let network = search(&mut uci, &[]).expect("the network by default");
        assert!(Arc::ptr_eq(&network, &Net::embedded()));
        assert!(search(&mut uci, &["setoption name Use NNUE value false"]).is_none());
        assert!(search(&mut uci, &["setoption name Use NNUE value true"]).is_some());
        // A strength limit evaluates with the network whatever `Use NNUE` says.
        let limit = "setoption name UCI_LimitStrength value true";
        let off = "setoption name Use NNUE value false";
        assert!(search(&mut uci, &[off, limit]).is_some());
        let unlimited = "setoption name UCI_LimitStrength value false";
        assert!(search(&mut uci, &[unlimited]).is_none());
    }
}
