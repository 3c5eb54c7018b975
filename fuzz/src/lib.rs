//! The bodies of Tarpon's fuzz targets, one function per target, each taking the raw bytes
//! a fuzzer made up. They are shared by two drivers:
//!
//! - the cargo-fuzz targets in `fuzz/fuzz_targets/` (nightly Rust, libFuzzer), which search
//!   for inputs that make a body panic;
//! - `tests/all/fuzz_replay.rs` in Tarpon's own test suite (stable Rust), which includes this
//!   file as a module and replays every input in `fuzz/regressions/` and `fuzz/seeds/`,
//!   plus a few thousand seeded mutations of them, on every `cargo test`.
//!
//! So this file may only use what both see: Tarpon's public API, `shakmaty` (a dependency of
//! Tarpon as well as of the fuzz package) and the standard library.
//!
//! A body panics when it finds a bug. Besides "Tarpon must never panic, whatever the input",
//! the bodies check what must hold for any input that is accepted: a FEN reads back from
//! its own output, the moves agree with shakmaty's, every move text parses back to the same
//! move, a game read from PGN writes out and reads back as itself, every `bestmove` and
//! `pv` the engine prints is legal, a book only ever offers legal moves of positive weight,
//! a training record packs again into one that reads the same.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position as _};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tarpon::book::{self, Book, Entry};
use tarpon::chess::movegen::legal_moves;
use tarpon::chess::notation::{parse_san, parse_uci, to_san, to_uci};
use tarpon::chess::{Board, Move, Position, fen};
use tarpon::search::history::Histories;
use tarpon::search::timeman::Limits;
use tarpon::search::tt::TranspositionTable;
use tarpon::search::{SearchControl, SearchOptions, think};
use tarpon::tablebase;
use tarpon::uci::{Flow, Uci};

/// A fuzz target's body: takes the fuzzer's bytes, panics on a bug.
pub type Body = fn(&[u8]);

/// The fuzz targets by name, for drivers that loop over all of them.
pub const TARGETS: [(&str, Body); 10] = [
    ("fen", fen),
    ("moves", moves),
    ("pgn", pgn),
    ("epd", epd),
    ("uci", uci),
    ("polyglot", polyglot),
    ("syzygy", syzygy),
    ("games", games),
    ("records", records),
    ("network", network),
];

/// The input as text, the way Tarpon's input loop reads a line it cannot decode: invalid
/// UTF-8 becomes U+FFFD rather than being refused.
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

// ----- FEN -----

/// `fen`: the first byte chooses standard chess or Chess960 (its low bit), the rest is the
/// FEN text.
pub fn fen(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let chess960 = flags & 1 == 1;
    let Ok(board) = fen::parse(&text(rest), chess960) else {
        return;
    };
    let written = fen::to_fen(&board);
    let again = fen::parse(&written, chess960)
        .unwrap_or_else(|e| panic!("Tarpon rejects its own FEN {written:?}: {e}"));
    assert!(again == board, "{written:?} reads back as another board");
    assert_eq!(fen::to_fen(&again), written);

    check_moves_against_shakmaty(&board, &written);
    for m in legal_moves(&board).iter().copied() {
        check_move_texts(&board, m);
        let mut after = board;
        after.play(m);
        assert_eq!(
            after.key(),
            after.compute_key().0,
            "incremental key after {} in {written}",
            to_uci(&board, m)
        );
    }
    let position = Position::from_board(board);
    let _ = position.outcome();
    let _ = tarpon::eval::evaluate_without_cache(&board);
    short_search(&position);
}

/// The legal moves must be shakmaty's, in any position both accept. (shakmaty refuses some
/// positions Tarpon accepts, such as impossible checks; those are skipped.)
fn check_moves_against_shakmaty(board: &Board, written: &str) {
    let mode = if board.is_chess960() {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let Ok(parsed) = Fen::from_ascii(written.as_bytes()) else {
        panic!("shakmaty cannot read the FEN syntax of {written:?}");
    };
    let Ok(theirs) = parsed.into_position::<Chess>(mode) else {
        return;
    };
    let mut their_moves: Vec<String> = theirs
        .legal_moves()
        .into_iter()
        .map(|m| UciMove::from_move(m, mode).to_string())
        .collect();
    let mut our_moves: Vec<String> = legal_moves(board)
        .iter()
        .map(|&m| to_uci(board, m))
        .collect();
    their_moves.sort();
    our_moves.sort();
    assert_eq!(our_moves, their_moves, "legal moves of {written}");
}

/// A legal move's UCI and SAN texts both read back as that move.
fn check_move_texts(board: &Board, m: Move) {
    let uci = to_uci(board, m);
    assert_eq!(
        parse_uci(board, &uci),
        Ok(m),
        "UCI {uci} does not read back"
    );
    let san = to_san(board, m);
    assert_eq!(
        parse_san(board, &san),
        Ok(m),
        "SAN {san} does not read back"
    );
}

thread_local! {
    /// One small table and history set per thread, reused: allocating them for every input
    /// would cost more than the search itself.
    static SEARCH_STATE: RefCell<(TranspositionTable, Box<Histories>)> =
        RefCell::new((TranspositionTable::new(1), Box::new(Histories::new())));
}

/// A search of a few hundred nodes, which must answer with a legal move (or none when
/// there is none).
fn short_search(position: &Position) {
    SEARCH_STATE.with_borrow_mut(|(tt, histories)| {
        tt.clear();
        histories.clear();
        let limits = Limits {
            nodes: Some(300),
            ..Limits::default()
        };
        let result = think(
            position,
            limits,
            &[],
            SearchOptions::default(),
            tt,
            histories,
            &SearchControl::default(),
        );
        let moves = legal_moves(position);
        if moves.is_empty() {
            assert_eq!(result.best, Move::NONE);
        } else {
            assert!(
                moves.contains(result.best),
                "search answered an illegal move in {}",
                position.fen()
            );
        }
    });
}

// ----- Move text -----

/// Positions for the move parser, each with the Chess960 flag it is read with: the start,
/// one with every kind of special move (castling both ways, en passant, promotions with and
/// without capture, checks), and Chess960 positions where castling and a king move could
/// be confused.
const MOVE_POSITIONS: [(&str, bool); 8] = [
    (fen::START_FEN, false),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    ),
    ("r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1", false),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        false,
    ),
    ("1rk2r2/pppppppp/8/8/8/8/PPPPPPPP/1RK2R2 w KQkq - 0 1", true),
    ("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", true),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        true,
    ),
    ("7k/8/8/8/8/8/6Q1/K7 w - - 0 1", false),
];

/// `moves`: the first byte picks one of [`MOVE_POSITIONS`]; the rest is text split at
/// white space, each word read as a UCI move, else as SAN, and played when it is legal.
pub fn moves(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (start, chess960) = MOVE_POSITIONS[usize::from(pick) % MOVE_POSITIONS.len()];
    let mut position = Position::from_fen(start, chess960).expect("valid start position");
    let start_fen = position.fen();
    let input = text(rest);
    let mut played = 0;
    for word in input.split_whitespace().take(600) {
        let parsed = parse_uci(&position, word).or_else(|_| parse_san(&position, word));
        let Ok(m) = parsed else { continue };
        assert!(
            legal_moves(&position).contains(m),
            "{word:?} read as an illegal move in {}",
            position.fen()
        );
        check_move_texts(&position, m);
        position.make(m);
        played += 1;
        assert_eq!(
            position.key(),
            position.board().compute_key().0,
            "incremental key after {word}"
        );
        let _ = position.outcome();
    }
    for _ in 0..played {
        position.unmake();
    }
    assert_eq!(position.fen(), start_fen, "unmaking every move");
}

// ----- PGN -----

/// `pgn`: the bytes as a PGN file, decoded as `tarpon analyse` and the board decode one
/// (UTF-8, else Latin-1), read game by game (the first 20). A game that cannot be read is
/// refused with its game number, line and reason. A game that is read writes its moves in
/// lines of at most 80 characters (the writer's width), and what it writes reads back as
/// one game with the same start, moves, NAGs, variations and result, and writes the same
/// text again: nothing the reader took is lost or changed on the way out.
pub fn pgn(data: &[u8]) {
    use tarpon::tools::pgn;
    let (text, _) = pgn::decode(data);
    for (i, record) in pgn::read_records(&text).into_iter().take(20).enumerate() {
        let game = match record {
            Ok(game) => game,
            Err(e) => {
                assert!(e.game == i + 1 && e.line >= 1, "{e} is not game {}", i + 1);
                assert!(!e.message.is_empty(), "a refusal without a reason");
                continue;
            }
        };
        let _ = game.positions();
        let written = pgn::write_game(&game);
        assert!(
            written
                .lines()
                .filter(|l| !l.starts_with('['))
                .all(|l| l.chars().count() <= 80 || !l.contains(' ')),
            "a movetext line longer than 80 characters:\n{written}"
        );
        let again = match pgn::read_games(&written) {
            Ok(games) if games.len() == 1 => games.into_iter().next().expect("one game"),
            other => {
                panic!("the written game does not read back as one game ({other:?}):\n{written}")
            }
        };
        assert!(again.start == game.start, "another start:\n{written}");
        assert_eq!(
            bare(&again.moves),
            bare(&game.moves),
            "other moves, NAGs or variations:\n{written}"
        );
        assert_eq!(again.result, game.result, "another result:\n{written}");
        assert_eq!(pgn::write_game(&again), written, "written twice, two texts");
    }
}

/// A line of moves without its comments (which the writer may respell: `}` cannot be
/// inside one, and white space is one space), as text to compare a game with its
/// read-back self: each move with its NAGs and its variations (an empty one is not written).
fn bare(moves: &[tarpon::tools::pgn::GameMove]) -> String {
    let words: Vec<String> = moves
        .iter()
        .map(|m| {
            let variations: Vec<String> = m
                .variations
                .iter()
                .filter(|line| !line.moves.is_empty())
                .map(|line| bare(&line.moves))
                .collect();
            format!("{:?}{:?}({})", m.mv, m.nags, variations.join(" | "))
        })
        .collect();
    words.join(" ")
}

/// `epd`: the bytes as a test suite for `tarpon epd` (bytes that are not UTF-8 become
/// U+FFFD). Every test read names its line, sits in a legal position and asks for
/// something (a best move, a move to avoid or a mate) with legal moves only; every line
/// left out is named with its reason.
pub fn epd(data: &[u8]) {
    let input = text(data);
    let lines = input.lines().count();
    let suite = tarpon::tools::epd::read_suite(&input);
    for test in &suite.tests {
        assert!(
            (1..=lines).contains(&test.line),
            "test on line {}",
            test.line
        );
        assert!(!test.id.is_empty(), "a test without a name");
        assert!(
            !test.best.is_empty() || !test.avoid.is_empty() || test.mate.is_some(),
            "line {}: nothing to test",
            test.line
        );
        let legal = legal_moves(&test.board);
        for m in test.best.iter().chain(&test.avoid) {
            assert!(
                legal.contains(*m),
                "line {}: an illegal move read",
                test.line
            );
        }
        assert_eq!(test.board.key(), test.board.compute_key().0);
    }
    for skipped in &suite.skipped {
        let named = skipped
            .strip_prefix("line ")
            .and_then(|rest| rest.split_once(": "))
            .is_some_and(|(n, why)| n.parse::<usize>().is_ok() && !why.is_empty());
        assert!(
            named,
            "a line left out without its number and reason: {skipped:?}"
        );
    }
}

// ----- UCI -----

/// `uci`: the text, line by line, into the real command handler, [`Uci::handle`], as the
/// input loop does (with U+FFFD for bytes that are not UTF-8).
///
/// A few commands are tamed first so that one input stays fast: every `go` gets a `depth
/// 2` at the end (the last limit given wins; `infinite` still waits for `stop`), `go perft`
/// at most depth 2, `bench` depth 1, `Hash` at most 4 MB, `Threads` at most 2, and file
/// paths are replaced by a small book this harness writes (`BookFile`) or a missing
/// directory or file (`SyzygyPath`, `EvalFile` other than `<embedded>`), since the fuzzer
/// must not make the engine read the machine's files.
///
/// What is checked: no panic; `quit` and only `quit` ends the session; every search
/// answers exactly one `bestmove`, legal in the position it was started in, with a legal
/// `ponder` move after it; every `pv` in an `info` line is a legal sequence.
pub fn uci(data: &[u8]) {
    UCI_SESSION.with_borrow_mut(|slot| {
        let session = slot.get_or_insert_with(Session::new);
        session.reset();
        session.run(data);
    });
}

thread_local! {
    /// One session per thread, reset before each input: a fresh `Uci` costs a 16 MB table,
    /// which would make allocating it most of the work of every input.
    static UCI_SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// A UCI session with its output collected.
struct Session {
    uci: Uci,
    lines: Arc<Mutex<Vec<String>>>,
    /// The last input changed `Hash`: the reset must set it back.
    hash_changed: bool,
}

impl Session {
    fn new() -> Session {
        let lines = Arc::new(Mutex::new(Vec::<String>::new()));
        let sink = lines.clone();
        let uci = Uci::with_output(Arc::new(move |line: &str| {
            sink.lock().unwrap().push(line.to_string())
        }));
        Session {
            uci,
            lines,
            hash_changed: true,
        }
    }

    /// Back to the state of a new session (with a 1 MB table): no search, every option at
    /// its default, a new game. The defaults are read from the `uci` answer's option list,
    /// so an option added later is reset too.
    fn reset(&mut self) {
        self.uci.handle("stop");
        for declaration in tarpon::uci::options::declarations() {
            let Some(rest) = declaration.strip_prefix("option name ") else {
                continue;
            };
            let Some((name, kind)) = rest.split_once(" type ") else {
                continue;
            };
            let default = kind
                .split_once(" default ")
                .map(|(_, d)| d.split(" min ").next().unwrap_or(d));
            match (name, default) {
                ("Hash", _) if self.hash_changed => {
                    self.uci.handle("setoption name Hash value 1");
                }
                ("Hash", _) | (_, None) => {}
                (name, Some(value)) => {
                    self.uci
                        .handle(&format!("setoption name {name} value {value}"));
                }
            }
        }
        self.hash_changed = false;
        self.uci.handle("ucinewgame");
        self.lines.lock().unwrap().clear();
    }

    fn run(&mut self, data: &[u8]) {
        // Every search started, in order; the n-th `bestmove` answers the n-th of those
        // that answer at all (a search waiting for `stop` that another command ended
        // sends none).
        let mut searched: Vec<Search> = Vec::new();
        // Whether the last `position` was rejected: `go` then answers `bestmove (none)`.
        let mut rejected = false;
        let input = text(data);
        for raw in input.split('\n').take(100) {
            let line = tame(raw);
            let words: Vec<&str> = line.split_whitespace().collect();
            let first = words.first().copied();
            let starts_search = first == Some("go") && words.get(1) != Some(&"perft");
            // A new search, `ucinewgame` and `bench` end a search that waits for `stop`
            // without its `bestmove`; `stop` (and, for `go ponder`, `ponderhit`) makes it
            // answer.
            if let Some(last) = searched.last_mut().filter(|s| s.waits) {
                match first {
                    Some("go" | "ucinewgame" | "bench") if first != Some("go") || starts_search => {
                        last.answers = false;
                        last.waits = false;
                    }
                    Some("stop" | "quit") => last.waits = false,
                    Some("ponderhit") if last.ponder_only => last.waits = false,
                    // Anything else leaves it waiting: `setoption` restarts it, and the
                    // restarted search answers in its place.
                    _ => {}
                }
            }
            if starts_search {
                let infinite = words.contains(&"infinite");
                let ponder = words.contains(&"ponder");
                searched.push(Search {
                    position: self.uci.position().clone(),
                    none: rejected,
                    answers: true,
                    waits: infinite || ponder,
                    ponder_only: ponder && !infinite,
                });
            }
            if words.first() == Some(&"setoption")
                && words.iter().any(|w| w.eq_ignore_ascii_case("hash"))
            {
                self.hash_changed = true;
            }
            let before = self.lines.lock().unwrap().len();
            let flow = self.uci.handle(&line);
            assert_eq!(
                flow == Flow::Quit,
                words.first() == Some(&"quit"),
                "{line:?} and the session's end"
            );
            if flow == Flow::Quit {
                break;
            }
            match first {
                Some("position") => {
                    rejected = self.lines.lock().unwrap()[before..].iter().any(|l| {
                        l.starts_with("info string error") && l.contains("until a 'position'")
                    });
                }
                Some("ucinewgame") => rejected = false,
                _ => {}
            }
            if starts_search && !searched.last().is_some_and(|s| s.waits) {
                let due = searched.iter().filter(|s| s.answers && !s.waits).count();
                wait_for_bestmoves(&self.lines, due, &line);
            }
        }
        // `stop` ends a search that waits for it (`infinite`, `ponder`) and collects its
        // answer.
        self.uci.handle("stop");
        if let Some(last) = searched.last_mut() {
            last.waits = false;
        }
        let lines = self.lines.lock().unwrap();
        check_search_output(&lines, &searched);
    }
}

/// A search the harness started, and what its answer must be.
struct Search {
    position: Position,
    /// Started after a rejected `position`: the answer is `bestmove (none)`.
    none: bool,
    /// Whether it sends a `bestmove` at all.
    answers: bool,
    /// Still waiting for `stop` (`go infinite`, or `go ponder` before `ponderhit`).
    waits: bool,
    ponder_only: bool,
}

/// Waits (a few seconds at most) until `count` searches have answered.
fn wait_for_bestmoves(lines: &Mutex<Vec<String>>, count: usize, line: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let answered = lines
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count();
        if answered >= count {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "no bestmove for {line:?} within 10 seconds"
        );
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Rewrites the commands that would make one input slow or touch the machine's files.
fn tame(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["go", "perft", depth] => match depth.parse::<u32>() {
            Ok(d) if d > 2 => "go perft 2".to_string(),
            _ => line.to_string(),
        },
        // Twice: a keyword left without its value at the end of the line (`go movetime`)
        // takes the first `depth` as its (bad) value, and the second pair still applies.
        ["go", ..] => format!("{line} depth 2 depth 2"),
        ["bench"] => "bench 1".to_string(),
        ["bench", depth] if depth.parse::<i32>().is_ok_and(|d| d > 1) => "bench 1".to_string(),
        ["setoption", "name", rest @ ..] => {
            let Some(at) = rest.iter().position(|w| w.eq_ignore_ascii_case("value")) else {
                return line.to_string();
            };
            let name = rest[..at].join(" ").to_ascii_lowercase();
            let value = rest[at + 1..].join(" ");
            let number = value.trim().parse::<u64>();
            let tamed = match name.as_str() {
                "hash" if number.as_ref().is_ok_and(|&n| n > 4) => "4".to_string(),
                "threads" if number.as_ref().is_ok_and(|&n| n > 2) => "2".to_string(),
                "bookfile" if !value.trim().is_empty() => harness_book().display().to_string(),
                "syzygypath" if !value.trim().is_empty() => "/nonexistent/tarpon-fuzz".to_string(),
                "evalfile" if !value.trim().is_empty() && value.trim() != "<embedded>" => {
                    "/nonexistent/tarpon-fuzz.nnue".to_string()
                }
                _ => return line.to_string(),
            };
            format!("setoption name {} value {tamed}", rest[..at].join(" "))
        }
        _ => line.to_string(),
    }
}

/// Every `bestmove` is legal where its search started (with a legal `ponder` move after
/// it), or `(none)` where there was no move to give; there is one per search that answers,
/// and every `pv` is a sequence of legal moves in the position of a search still open.
fn check_search_output(lines: &[String], searched: &[Search]) {
    // The first search not yet answered (or passed over because it never answers).
    let mut cursor = 0;
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first() {
            Some(&"bestmove") => {
                let at = (cursor..searched.len())
                    .find(|&i| searched[i].answers)
                    .unwrap_or_else(|| panic!("{line:?} answers no search"));
                cursor = at + 1;
                let search = &searched[at];
                let moves = &words[1..];
                if search.none || legal_moves(&search.position).is_empty() {
                    assert_eq!(moves, ["(none)"], "bestmove without a move to give");
                    continue;
                }
                match moves {
                    [best] => check_line(&search.position, &[best]),
                    [best, "ponder", reply] => check_line(&search.position, &[best, reply]),
                    _ => panic!("malformed {line:?}"),
                }
            }
            Some(&"info") => {
                let Some(pv_at) = words.iter().position(|w| *w == "pv") else {
                    continue;
                };
                // The searches that may still be talking: those ended without an answer
                // since the last `bestmove`, and the next one that answers.
                let open = searched[cursor.min(searched.len())..]
                    .iter()
                    .scan(false, |done, s| {
                        (!*done).then(|| {
                            *done = s.answers;
                            s
                        })
                    });
                let pv = &words[pv_at + 1..];
                let fits = open.clone().any(|s| line_is_legal(&s.position, pv));
                assert!(fits, "{line:?} belongs to no search");
            }
            _ => {}
        }
    }
    let due = searched.iter().filter(|s| s.answers).count();
    let answered = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(answered, due, "searches without a bestmove");
}

/// Whether `moves` are legal one after the other from `position`, written as the board
/// writes them.
fn line_is_legal(position: &Position, moves: &[&str]) -> bool {
    let mut board = *position.board();
    for text in moves {
        match parse_uci(&board, text) {
            Ok(m) if to_uci(&board, m) == *text => board.play(m),
            _ => return false,
        }
    }
    true
}

/// `moves` are legal one after the other from `position`.
fn check_line(position: &Position, moves: &[&str]) {
    let mut board = *position.board();
    for text in moves {
        let m = parse_uci(&board, text)
            .unwrap_or_else(|e| panic!("{e} in {} (line {moves:?})", fen::to_fen(&board)));
        assert_eq!(
            &to_uci(&board, m),
            text,
            "move text not in the board's notation"
        );
        board.play(m);
    }
}

/// A small opening book for `BookFile`, written once per process: two moves for the
/// start position and a reply to 1.e4, so `go` with `OwnBook` takes the book path.
fn harness_book() -> &'static Path {
    static BOOK: OnceLock<PathBuf> = OnceLock::new();
    BOOK.get_or_init(|| {
        let dir = scratch_dir("book");
        let start = Position::startpos();
        let mut after_e4 = start.clone();
        after_e4.make(parse_uci(&after_e4, "e2e4").unwrap());
        let mut entries = [
            book_entry(&start, "e2e4", 10),
            book_entry(&start, "d2d4", 5),
            book_entry(&after_e4, "e7e5", 1),
        ];
        entries.sort_by_key(|e| e.key);
        let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
        let path = dir.join("book.bin");
        std::fs::write(&path, bytes).expect("write the harness book");
        path
    })
}

fn book_entry(position: &Position, uci: &str, weight: u16) -> Entry {
    let m = parse_uci(position, uci).expect("book move is legal");
    Entry {
        key: book::position_key(position, None),
        raw_move: book::to_raw(m),
        weight,
        learn: 0,
    }
}

/// A directory of this process for files the harness writes, emptied on first use.
fn scratch_dir(purpose: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tarpon-fuzz-{purpose}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

// ----- Polyglot books -----

/// Positions whose book entries the `polyglot` target probes.
fn book_positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let mut positions = vec![Position::startpos()];
        for line in [
            "e2e4",
            "e2e4 e7e5",
            "d2d4 d7d5 c2c4",
            "e2e4 c7c5 g1f3 d7d6 f1b5",
        ] {
            let mut position = Position::startpos();
            for text in line.split(' ') {
                position.make(parse_uci(&position, text).unwrap());
            }
            positions.push(position);
        }
        for (fen, chess960) in &MOVE_POSITIONS[1..] {
            positions.push(Position::from_fen(fen, *chess960).unwrap());
        }
        positions
    })
}

/// `polyglot`: the bytes as a book file, read as they are; then again with each entry's key
/// replaced by the key of one of a few known positions (picked by the key) and
/// the entries sorted, so that the moves and weights of arbitrary bytes reach the probing
/// and choosing code (random keys would never match a position).
pub fn polyglot(data: &[u8]) {
    if let Ok(mut book) = Book::from_bytes(data) {
        probe_all(&mut book);
    }
    let positions = book_positions();
    let keys: Vec<u64> = positions
        .iter()
        .map(|p| book::position_key(p, None))
        .collect();
    let (chunks, _) = data.as_chunks::<16>();
    let mut entries: Vec<Entry> = chunks
        .iter()
        .map(|chunk| {
            let mut entry = entry_from_bytes(chunk);
            entry.key = keys[entry.key as usize % keys.len()];
            entry
        })
        .collect();
    entries.sort_by_key(|e| e.key);
    let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
    let mut book = Book::from_bytes(&bytes).expect("whole, sorted entries make a book");
    assert_eq!(book.len(), entries.len());
    probe_all(&mut book);
}

fn entry_from_bytes(bytes: &[u8; 16]) -> Entry {
    let word = |range: std::ops::Range<usize>| {
        bytes[range]
            .iter()
            .fold(0u64, |acc, &b| acc << 8 | u64::from(b))
    };
    Entry {
        key: word(0..8),
        raw_move: word(8..10) as u16,
        weight: word(10..12) as u16,
        learn: word(12..16) as u32,
    }
}

/// Probes every known position: an answer lists legal moves only, each the move its raw
/// bits say, and a chosen move is one of them with a positive weight.
fn probe_all(book: &mut Book) {
    for position in book_positions() {
        let Ok(moves) = book.probe(position, None) else {
            continue;
        };
        let legal = legal_moves(position);
        for (m, entry) in &moves {
            assert!(legal.contains(*m), "book offers an illegal move");
            assert_eq!(
                book::to_raw(*m),
                entry.raw_move & 0x7fff,
                "book move decoded to another move"
            );
        }
        let total = moves.iter().map(|(_, e)| u64::from(e.weight)).sum();
        for best in [true, false] {
            if let Some((m, entry)) = book.choose(&moves, best) {
                assert!(entry.weight > 0, "book chose a move of weight 0");
                assert!(moves.iter().any(|(o, _)| *o == m));
                let _ = book::describe(position, m, entry, total);
            }
        }
    }
}

// ----- Syzygy tables -----

/// Materials the `syzygy` target writes tables for: the fuzz seeds are the real tables of
/// these, from the test set.
pub const SYZYGY_MATERIALS: [&str; 6] = ["KQvK", "KRvK", "KPvK", "KBNvK", "KRvKR", "KNvK"];

/// `syzygy`: byte 0 picks a material from [`SYZYGY_MATERIALS`]. If byte 1 is odd, bytes
/// 2-5 (little-endian) give the length of a WDL table and the bytes after it are the DTZ
/// table of the same material; otherwise everything after byte 1 is the WDL table. The
/// files go into a directory of their own, which `tablebase::load` (the `SyzygyPath` code)
/// then loads; positions of the material are probed as the search and the root ranking
/// would.
pub fn syzygy(data: &[u8]) {
    let [pick, flags, rest @ ..] = data else {
        return;
    };
    let material = SYZYGY_MATERIALS[usize::from(*pick) % SYZYGY_MATERIALS.len()];
    let (wdl, dtz) = match (flags & 1, rest) {
        (1, [a, b, c, d, tables @ ..]) => {
            let split = (u32::from_le_bytes([*a, *b, *c, *d]) as usize).min(tables.len());
            (&tables[..split], Some(&tables[split..]))
        }
        (1, _) => return,
        _ => (rest, None),
    };
    let dir = syzygy_dir();
    for entry in std::fs::read_dir(dir)
        .expect("read the scratch directory")
        .flatten()
    {
        let _ = std::fs::remove_file(entry.path());
    }
    std::fs::write(dir.join(format!("{material}.rtbw")), wdl).expect("write a table");
    if let Some(dtz) = dtz {
        std::fs::write(dir.join(format!("{material}.rtbz")), dtz).expect("write a table");
    }
    let (tables, _notes) = tablebase::load(dir);
    let Some(tables) = tables else {
        return;
    };
    let mut broken = Vec::new();
    for mut position in material_positions(material) {
        let _ = tables.probe_wdl(&position);
        let _ = tables.probe_dtz(&position);
        let moves: Vec<Move> = legal_moves(&position).iter().copied().collect();
        let _ = tablebase::rank_root_moves(&tables, &mut position, &moves, true, &mut broken);
    }
}

fn syzygy_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| scratch_dir("syzygy"))
}

/// A few legal positions of `material` (`KRvKP`: White has the first side's pieces), the
/// same every time, with either side to move.
fn material_positions(material: &str) -> Vec<Position> {
    let mut random = tarpon::rng::SplitMix64::new(material.len() as u64);
    let mut positions = Vec::new();
    let (white, black) = material.split_once('v').expect("a material name");
    for attempt in 0..64 {
        if positions.len() == 6 {
            break;
        }
        let mut squares = [None::<char>; 64];
        for (side, upper) in [(white, true), (black, false)] {
            for piece in side.chars() {
                let letter = if upper {
                    piece
                } else {
                    piece.to_ascii_lowercase()
                };
                let free: Vec<usize> = (0..64).filter(|&s| squares[s].is_none()).collect();
                let s = free[random.below(free.len() as u64) as usize];
                squares[s] = Some(letter);
            }
        }
        let side = if attempt % 2 == 0 { "w" } else { "b" };
        let fen = format!("{} {side} - - 0 1", placement(&squares));
        if let Ok(position) = Position::from_fen(&fen, false) {
            positions.push(position);
        }
    }
    positions
}

/// The placement field of a FEN from a square-indexed board (a1 = 0).
fn placement(squares: &[Option<char>; 64]) -> String {
    let mut ranks = Vec::new();
    for rank in (0..8).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    ranks.join("/")
}

// ----- Game shards -----

/// `games`: the bytes as a game shard (behind the magic, so that the fuzzer works on the
/// games). Whatever it reads must be whole, legal games that encode back to the same bytes,
/// and whatever is left must be named as damage at the right offset.
pub fn games(data: &[u8]) {
    use tarpon::learn::games;
    let mut bytes = games::MAGIC.to_vec();
    bytes.extend_from_slice(data);
    let shard = games::parse(Path::new("fuzz.games"), &bytes).expect("the magic is there");
    let mut at = games::MAGIC.len();
    for game in &shard.games {
        let encoded = games::encode(game);
        assert_eq!(
            &bytes[at..at + encoded.len()],
            &encoded[..],
            "a game read back encodes to other bytes"
        );
        at += encoded.len();
        for (board, m, _) in game.positions() {
            assert!(
                m.is_none() || legal_moves(&board).contains(m),
                "an illegal move was read"
            );
        }
        let _ = game.training_positions();
    }
    match &shard.damage {
        None => assert_eq!(at, bytes.len(), "bytes left over but no damage named"),
        Some((offset, _)) => assert_eq!(*offset as usize, at, "damage named at another offset"),
    }
    let _ = shard.describe();
}

// ----- Training records -----

/// `records`: the bytes as 32-byte bulletformat records (the first 64; the trainer reads
/// them from `tarpon datagen` files and from other programs'). A record is refused with a
/// reason or read as a legal position, and a record read packs again into one that reads
/// as the same sample.
pub fn records(data: &[u8]) {
    use tarpon::learn::bulletformat::{self, RECORD_SIZE};
    for chunk in data.chunks_exact(RECORD_SIZE).take(64) {
        let bytes: &[u8; RECORD_SIZE] = chunk.try_into().expect("a whole record");
        let sample = match bulletformat::unpack(bytes) {
            Ok(sample) => sample,
            Err(reason) => {
                assert!(!reason.is_empty(), "a refusal without a reason");
                continue;
            }
        };
        let board = &sample.board;
        assert_eq!(board.key(), board.compute_key().0);
        let _ = legal_moves(board);
        let again =
            bulletformat::pack(board, sample.score, sample.game_result(), sample.game_start)
                .expect("a record's position has at most 32 pieces");
        let reread = bulletformat::unpack(&again).expect("a packed record reads back");
        assert!(
            reread == sample,
            "a record packed again reads as another sample"
        );
    }
}

// ----- Network files -----

/// The width of the networks `network` reads: small, so that whole files stay a few
/// hundred kilobytes and each input runs fast.
const FUZZ_WIDTH: usize = 32;

/// A valid network file of [`FUZZ_WIDTH`] neurons with two mirrored king buckets (the king
/// on its first rank, or not), made once.
fn fuzz_network_file() -> &'static [u8] {
    use tarpon::eval::nnue::format::{KingBuckets, Network};
    static FILE: OnceLock<Vec<u8>> = OnceLock::new();
    FILE.get_or_init(|| {
        let map = std::array::from_fn(|square| u8::from(square >= 8));
        let kings = KingBuckets::new(2, true, map).expect("a symmetric map of two buckets");
        Network::random_shaped(0xF022, FUZZ_WIDTH, kings).to_bytes()
    })
}

/// `network`: a network file. The input is read twice: as a whole file, and laid over the
/// start of a valid file (so its first bytes are the header: version, widths, king
/// buckets, their map), which reaches the weights with a header the fuzzer chose. Every
/// file must be refused with a reason or accepted; an accepted one must write back to the
/// same bytes (version 3) and evaluate a line of moves, chosen by the input's bytes after
/// the header, with incremental accumulators (the refresh table included) equal to ones
/// computed from scratch.
pub fn network(data: &[u8]) {
    use tarpon::eval::nnue::format::HEADER_SIZE;
    network_file(data, data);
    let mut file = fuzz_network_file().to_vec();
    let overlay = data.len().min(HEADER_SIZE);
    file[..overlay].copy_from_slice(&data[..overlay]);
    network_file(&file, data.get(HEADER_SIZE..).unwrap_or_default());
}

fn network_file(file: &[u8], moves: &[u8]) {
    use tarpon::eval::nnue::format::{Header, Network};
    use tarpon::eval::nnue::{Accumulator, AccumulatorStack, Net};
    if let Ok(network) = Network::from_bytes(file)
        && Header::parse(file).is_ok_and(|header| header.version == 3)
    {
        assert!(
            network.to_bytes() == file,
            "a network read back writes other bytes"
        );
    }
    let net = match Net::<FUZZ_WIDTH>::from_bytes(file, "fuzz.nnue") {
        Ok(net) => net,
        Err(e) => {
            assert!(!e.to_string().is_empty(), "a refusal without a reason");
            return;
        }
    };
    // Kings free to walk across files d and e and off their first rank.
    let mut pos = Position::from_fen("r3k2r/pp3ppp/8/3pP3/8/8/PP3PPP/R3K2R w KQkq d6 0 1", false)
        .expect("a valid FEN");
    let mut stack = AccumulatorStack::<FUZZ_WIDTH>::new();
    stack.reset(&pos, &net);
    for &byte in moves.iter().take(60) {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let m = moves[usize::from(byte) % moves.len()];
        stack.push(&pos, m);
        pos.make(m);
        let scratch = Accumulator::from_board(&pos, &net);
        assert!(
            *stack.current(&pos, &net) == scratch,
            "incremental accumulator differs from a refresh at {}",
            pos.fen()
        );
        assert_eq!(stack.evaluate(&pos, &net), net.evaluate(&pos));
    }
}
