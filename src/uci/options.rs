//! The UCI options Tarpon offers, their limits, and `setoption` parsing.

use std::ffi::OsString;

/// Option values as the GUI set them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead: u64,
    pub multi_pv: usize,
    pub ponder: bool,
    pub chess960: bool,
    /// Play moves from the opening book (`book_file`) while it has one.
    pub own_book: bool,
    /// Path of a Polyglot `.bin` book; empty for none.
    pub book_file: OsString,
    /// Always the book's highest-weight move, instead of a random one by weight.
    pub book_best_move: bool,
    /// The book is used only while fewer plies than this have been played in the game.
    pub book_depth: u32,
    /// Directories of Syzygy tables, separated by `tablebase::path_separator()`; empty
    /// for none.
    pub syzygy_path: OsString,
    pub syzygy_probe_depth: i32,
    pub syzygy_probe_limit: usize,
    pub syzygy_50_move_rule: bool,
    /// `UCI_ShowWDL`: win/draw/loss chances in every `info` score.
    pub show_wdl: bool,
    /// `UCI_LimitStrength`: play at `elo` instead of full strength.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: i32,
    /// `Skill Level`, 0..=20; 20 is full strength. `UCI_LimitStrength` overrides it.
    pub skill_level: i32,
    /// `Use NNUE`: evaluate with the network; the hand-crafted evaluation otherwise.
    pub use_nnue: bool,
    /// `EvalFile`: the network file in use, or `<embedded>` for the one in the binary.
    pub eval_file: OsString,
    /// `Contempt`, in centipawns: how much worse than even a draw is for the side to move
    /// at the root (negative: better).
    pub contempt: i32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            threads: 1,
            move_overhead: 10,
            multi_pv: 1,
            ponder: false,
            chess960: false,
            own_book: false,
            book_file: OsString::new(),
            book_best_move: false,
            book_depth: 40,
            syzygy_path: OsString::new(),
            syzygy_probe_depth: 1,
            syzygy_probe_limit: crate::tablebase::MAX_PIECES,
            syzygy_50_move_rule: true,
            show_wdl: false,
            limit_strength: false,
            elo: 1500,
            skill_level: skill::LEVEL_MAX,
            use_nnue: true,
            eval_file: EMBEDDED_NAME.into(),
            contempt: 0,
        }
    }
}

use crate::eval::nnue::EMBEDDED_NAME;
use crate::search::skill;

pub const HASH_MAX_MB: usize = 65536;
pub const THREADS_MAX: usize = 1024;
pub const MOVE_OVERHEAD_MAX: u64 = 5000;
pub const MULTI_PV_MAX: usize = 256;
/// Deeper than any useful book; `polyglot make-book` keeps at most 1024 plies by default.
pub const BOOK_DEPTH_MAX: u32 = 1024;
pub const SYZYGY_PROBE_DEPTH_MAX: u64 = 100;
/// Contempt up to a pawn either way (the range Stockfish 11's `Contempt` had).
pub const CONTEMPT_MAX: i32 = 100;
/// What the GUI shows for an empty string option (a GUI may also send it back).
pub const EMPTY_STRING: &str = "<empty>";

/// The `option` lines of the `uci` answer.
pub fn declarations() -> Vec<String> {
    let d = Options::default();
    vec![
        format!(
            "option name Hash type spin default {} min 1 max {HASH_MAX_MB}",
            d.hash_mb
        ),
        format!(
            "option name Threads type spin default {} min 1 max {THREADS_MAX}",
            d.threads
        ),
        "option name Clear Hash type button".to_string(),
        format!(
            "option name Move Overhead type spin default {} min 0 max {MOVE_OVERHEAD_MAX}",
            d.move_overhead
        ),
        format!(
            "option name MultiPV type spin default {} min 1 max {MULTI_PV_MAX}",
            d.multi_pv
        ),
        format!("option name Ponder type check default {}", d.ponder),
        format!("option name UCI_Chess960 type check default {}", d.chess960),
        format!("option name OwnBook type check default {}", d.own_book),
        format!("option name BookFile type string default {EMPTY_STRING}"),
        format!(
            "option name BookBestMove type check default {}",
            d.book_best_move
        ),
        format!(
            "option name BookDepth type spin default {} min 0 max {BOOK_DEPTH_MAX}",
            d.book_depth
        ),
        format!("option name SyzygyPath type string default {EMPTY_STRING}"),
        format!(
            "option name SyzygyProbeDepth type spin default {} min 1 max {SYZYGY_PROBE_DEPTH_MAX}",
            d.syzygy_probe_depth
        ),
        format!(
            "option name Syzygy50MoveRule type check default {}",
            d.syzygy_50_move_rule
        ),
        format!(
            "option name SyzygyProbeLimit type spin default {} min 0 max {}",
            d.syzygy_probe_limit,
            crate::tablebase::MAX_PIECES
        ),
        format!("option name UCI_ShowWDL type check default {}", d.show_wdl),
        format!(
            "option name UCI_LimitStrength type check default {}",
            d.limit_strength
        ),
        format!(
            "option name UCI_Elo type spin default {} min {} max {}",
            d.elo,
            skill::ELO_MIN,
            skill::ELO_MAX
        ),
        format!(
            "option name Skill Level type spin default {} min 0 max {}",
            d.skill_level,
            skill::LEVEL_MAX
        ),
        format!("option name Use NNUE type check default {}", d.use_nnue),
        format!("option name EvalFile type string default {EMBEDDED_NAME}"),
        format!(
            "option name Contempt type spin default {} min {} max {CONTEMPT_MAX}",
            d.contempt, -CONTEMPT_MAX
        ),
    ]
    .into_iter()
    .chain(crate::search::tunable::declarations())
    .collect()
}

/// A `setoption` command understood: which option, with its new value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Hash(usize),
    Threads(usize),
    ClearHash,
    MoveOverhead(u64),
    MultiPv(usize),
    Ponder(bool),
    Chess960(bool),
    OwnBook(bool),
    /// A path (a file name need not be UTF-8: see [`parse_bytes`]).
    BookFile(OsString),
    BookBestMove(bool),
    BookDepth(u32),
    /// The directories as given (`<empty>` already turned into an empty string).
    SyzygyPath(OsString),
    SyzygyProbeDepth(i32),
    SyzygyProbeLimit(usize),
    Syzygy50MoveRule(bool),
    ShowWdl(bool),
    LimitStrength(bool),
    Elo(i32),
    SkillLevel(i32),
    UseNnue(bool),
    /// A path, or `<embedded>` (also for an empty value) for the embedded network.
    EvalFile(OsString),
    Contempt(i32),
    /// A search number for SPSA (builds with `--features tune` only), already checked
    /// against its range.
    #[cfg(feature = "tune")]
    Tune(&'static str, i32),
}

/// Parses the text after `setoption`. Names are case-insensitive and may contain spaces;
/// the value is the text after the word `value` as written, less the spaces around it, so
/// that a path keeps its runs of spaces. The error says what was wrong.
pub fn parse(text: &str) -> Result<Change, String> {
    let usage = "expected 'setoption name <name> [value <value>]'";
    let (before, value) = split_at_value(text);
    let words: Vec<&str> = before.split_whitespace().collect();
    let Some((&"name", name_words)) = words.split_first() else {
        return Err(usage.to_string());
    };
    let name = name_words.join(" ").to_ascii_lowercase();
    let need = |what: &str| format!("option '{}' needs {what}", name_words.join(" "));
    let spin = |max: u64, min: u64| -> Result<u64, String> {
        let v = value.ok_or_else(|| need(&format!("a value from {min} to {max}")))?;
        match v.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(need(&format!("a value from {min} to {max}, not '{v}'"))),
        }
    };
    let signed_spin = |min: i32, max: i32| -> Result<i32, String> {
        let v = value.ok_or_else(|| need(&format!("a value from {min} to {max}")))?;
        match v.parse::<i32>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(need(&format!("a value from {min} to {max}, not '{v}'"))),
        }
    };
    let check = || -> Result<bool, String> {
        match value.map(str::to_ascii_lowercase).as_deref() {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            _ => Err(need("the value true or false")),
        }
    };
    match name.as_str() {
        "hash" => Ok(Change::Hash(spin(HASH_MAX_MB as u64, 1)? as usize)),
        "threads" => Ok(Change::Threads(spin(THREADS_MAX as u64, 1)? as usize)),
        "clear hash" => Ok(Change::ClearHash),
        "move overhead" => Ok(Change::MoveOverhead(spin(MOVE_OVERHEAD_MAX, 0)?)),
        "multipv" => Ok(Change::MultiPv(spin(MULTI_PV_MAX as u64, 1)? as usize)),
        "ponder" => Ok(Change::Ponder(check()?)),
        "uci_chess960" => Ok(Change::Chess960(check()?)),
        "ownbook" => Ok(Change::OwnBook(check()?)),
        // No value, or the `<empty>` that GUIs send back, means no book file.
        "bookfile" => Ok(Change::BookFile(
            value.filter(|&v| v != EMPTY_STRING).unwrap_or("").into(),
        )),
        "bookbestmove" => Ok(Change::BookBestMove(check()?)),
        "bookdepth" => Ok(Change::BookDepth(spin(BOOK_DEPTH_MAX as u64, 0)? as u32)),
        "syzygypath" => Ok(Change::SyzygyPath(
            value.filter(|v| *v != EMPTY_STRING).unwrap_or("").into(),
        )),
        "syzygyprobedepth" => Ok(Change::SyzygyProbeDepth(
            spin(SYZYGY_PROBE_DEPTH_MAX, 1)? as i32
        )),
        "syzygyprobelimit" => Ok(Change::SyzygyProbeLimit(spin(
            crate::tablebase::MAX_PIECES as u64,
            0,
        )? as usize)),
        "syzygy50moverule" => Ok(Change::Syzygy50MoveRule(check()?)),
        "uci_showwdl" => Ok(Change::ShowWdl(check()?)),
        "uci_limitstrength" => Ok(Change::LimitStrength(check()?)),
        "uci_elo" => Ok(Change::Elo(
            spin(skill::ELO_MAX as u64, skill::ELO_MIN as u64)? as i32,
        )),
        "skill level" => Ok(Change::SkillLevel(spin(skill::LEVEL_MAX as u64, 0)? as i32)),
        "use nnue" => Ok(Change::UseNnue(check()?)),
        "evalfile" => Ok(Change::EvalFile(
            value
                .filter(|v| !v.is_empty() && *v != EMPTY_STRING)
                .unwrap_or(EMBEDDED_NAME)
                .into(),
        )),
        "contempt" => Ok(Change::Contempt(signed_spin(-CONTEMPT_MAX, CONTEMPT_MAX)?)),
        "" => Err(usage.to_string()),
        #[cfg(feature = "tune")]
        _ if let Some(t) = crate::search::tunable::find(&name) => {
            Ok(Change::Tune(t.name, signed_spin(t.min, t.max)?))
        }
        _ => Err(format!("unknown option '{}'", name_words.join(" "))),
    }
}

/// `parse` for a line that is not UTF-8: read with U+FFFD for the bad bytes, except that
/// the value of a path (`BookFile`, `SyzygyPath`, `EvalFile`) keeps its bytes, which name
/// the file as they are on Unix (a Latin-1 folder name, say).
pub fn parse_bytes(text: &[u8]) -> Result<Change, String> {
    let change = parse(&String::from_utf8_lossy(text))?;
    let Some(raw) = raw_value(text).filter(|v| std::str::from_utf8(v).is_err()) else {
        return Ok(change);
    };
    let path = os_string(raw);
    Ok(match change {
        Change::BookFile(_) => Change::BookFile(path),
        Change::SyzygyPath(_) => Change::SyzygyPath(path),
        Change::EvalFile(_) => Change::EvalFile(path),
        other => other,
    })
}

/// The bytes after the first word `value` (in any case), less the white space around.
fn raw_value(text: &[u8]) -> Option<&[u8]> {
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let end = text[i..]
            .iter()
            .position(u8::is_ascii_whitespace)
            .map_or(text.len(), |n| i + n);
        if text[i..end].eq_ignore_ascii_case(b"value") {
            return Some(text[end..].trim_ascii());
        }
        i = end;
    }
    None
}

/// Bytes as a file system name: as they are on Unix; elsewhere names are Unicode, so the
/// bad bytes become U+FFFD (and the file is reported as not found).
fn os_string(bytes: &[u8]) -> OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        OsString::from_vec(bytes.to_vec())
    }
    #[cfg(not(unix))]
    {
        String::from_utf8_lossy(bytes).into_owned().into()
    }
}

/// `text` split at its first word `value` (in any case): the text before the word, and the
/// text after it, trimmed (`None` without the word).
fn split_at_value(text: &str) -> (&str, Option<&str>) {
    for word in text.split_whitespace() {
        if word.eq_ignore_ascii_case("value") {
            // The word's place in `text`, from the slice `split_whitespace` gave.
            let start = word.as_ptr() as usize - text.as_ptr() as usize;
            let after = &text[start + word.len()..];
            return (&text[..start], Some(after.trim()));
        }
    }
    (text, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(line: &str) -> Result<Change, String> {
        parse(line)
    }

    /// Before, the value was rebuilt from its words: `My  Books` became `My Books`.
    #[test]
    fn a_value_keeps_its_runs_of_spaces() {
        assert_eq!(
            p("name BookFile value  /tmp/My  Books/a\tb.bin \r"),
            Ok(Change::BookFile("/tmp/My  Books/a\tb.bin".into()))
        );
        assert_eq!(
            p("name SyzygyPath VALUE /t b/x:/y"),
            Ok(Change::SyzygyPath("/t b/x:/y".into()))
        );
        let empty = "option 'Hash' needs a value from 1 to 65536, not ''";
        assert_eq!(p("name Hash value  "), Err(empty.to_string()));
    }

    #[test]
    fn names_are_case_insensitive_and_may_have_spaces() {
        assert_eq!(p("name hash value 64"), Ok(Change::Hash(64)));
        assert_eq!(
            p("name Move Overhead value 100"),
            Ok(Change::MoveOverhead(100))
        );
        assert_eq!(p("name clear HASH"), Ok(Change::ClearHash));
        assert_eq!(
            p("name UCI_Chess960 value TRUE"),
            Ok(Change::Chess960(true))
        );
        assert_eq!(p("name MultiPV value 256"), Ok(Change::MultiPv(256)));
        assert_eq!(p("name ownbook value true"), Ok(Change::OwnBook(true)));
        assert_eq!(p("name BookDepth value 0"), Ok(Change::BookDepth(0)));
        assert_eq!(
            p("name BookBestMove value false"),
            Ok(Change::BookBestMove(false))
        );
        assert_eq!(p("name use nnue value FALSE"), Ok(Change::UseNnue(false)));
        assert_eq!(
            p("name EvalFile value /nets/My Net.nnue"),
            Ok(Change::EvalFile("/nets/My Net.nnue".into()))
        );
        for embedded in ["name EvalFile", "name evalfile value <embedded>"] {
            assert_eq!(
                p(embedded),
                Ok(Change::EvalFile(EMBEDDED_NAME.into())),
                "{embedded}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_path_that_is_not_utf8_keeps_its_bytes() {
        use std::os::unix::ffi::OsStringExt;
        let raw = |bytes: &[u8]| OsString::from_vec(bytes.to_vec());
        assert_eq!(
            parse_bytes(b"name BookFile value  /b/R\xe9pertoire/a b.bin \r\n"),
            Ok(Change::BookFile(raw(b"/b/R\xe9pertoire/a b.bin")))
        );
        assert_eq!(
            parse_bytes(b" name SyzygyPath VALUE /t/\xe9:/u"),
            Ok(Change::SyzygyPath(raw(b"/t/\xe9:/u")))
        );
        assert_eq!(
            parse_bytes(b"name evalfile value /n/\xff.nnue"),
            Ok(Change::EvalFile(raw(b"/n/\xff.nnue")))
        );
        // Other options read the line as text, the bad bytes as U+FFFD.
        assert_eq!(parse_bytes(b"name Hash value 8"), Ok(Change::Hash(8)));
        assert!(parse_bytes(b"name Hash value 8\xff").is_err());
        assert!(parse_bytes(b"name Book\xe9File value x").is_err());
    }

    #[test]
    fn book_file_keeps_its_case_and_may_be_empty() {
        assert_eq!(
            p("name BookFile value /books/My Book.bin"),
            Ok(Change::BookFile("/books/My Book.bin".into()))
        );
        assert_eq!(
            p("name BookFile value <empty>"),
            Ok(Change::BookFile(OsString::new()))
        );
        assert_eq!(p("name BookFile"), Ok(Change::BookFile(OsString::new())));
        assert_eq!(
            p("name SyzygyPath value /tb/345:/tb/6"),
            Ok(Change::SyzygyPath("/tb/345:/tb/6".into()))
        );
        assert_eq!(
            p("name syzygypath value <empty>"),
            Ok(Change::SyzygyPath(OsString::new()))
        );
        assert_eq!(
            p("name SyzygyPath"),
            Ok(Change::SyzygyPath(OsString::new()))
        );
        assert_eq!(
            p("name SyzygyProbeDepth value 10"),
            Ok(Change::SyzygyProbeDepth(10))
        );
        assert_eq!(
            p("name SyzygyProbeLimit value 0"),
            Ok(Change::SyzygyProbeLimit(0))
        );
        assert_eq!(
            p("name Syzygy50MoveRule value false"),
            Ok(Change::Syzygy50MoveRule(false))
        );
        assert_eq!(p("name Contempt value -100"), Ok(Change::Contempt(-100)));
        assert_eq!(p("name contempt value 35"), Ok(Change::Contempt(35)));
    }

    #[test]
    fn bad_values_are_errors() {
        for bad in [
            "name Hash value 0",
            "name Hash value 65537",
            "name Hash value -5",
            "name Hash value lots",
            "name Hash",
            "name MultiPV value 257",
            "name Ponder value yes",
            "name Threads value 1025",
            "name BookDepth value 1025",
            "name OwnBook value 1",
            "name SyzygyProbeDepth value 0",
            "name SyzygyProbeLimit value 8",
            "name Syzygy50MoveRule value maybe",
            "name Use NNUE value 1",
            "name Use NNUE",
            "name Contempt value 101",
            "name Contempt value -101",
            "name Contempt value 1.5",
            "name Contempt",
            "name Nonsense value 1",
            "name",
            "value 3",
            "",
        ] {
            assert!(p(bad).is_err(), "{bad}");
        }
    }
}
