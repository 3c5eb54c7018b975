//! Portable Game Notation: reading games (for `tarpon analyse`) and writing them (`play`
//! saves its games, `analyse` writes annotated ones).
//!
//! The reader takes what people and programs commonly write: tag pairs, SAN movetext with
//! or without move numbers (also the long form `Ng1-f3`, figurines `♘f3` and the mark
//! `exd6 e.p.`), `{...}` and `;` comments, NAGs (`$2`) and the traditional suffixes (`?`,
//! `!?`, ...), result tokens, and `%` escape lines. A null move (`--`, `Z0`) leaves its
//! variation out, and the caller is told; in the game's own moves it is an error, and so is
//! a variation never closed (which moves are the game's cannot be known). Variations (`(...)`,
//! nested) are kept with their own comments and NAGs, so that a game annotated by Tarpon
//! still holds everything its author wrote; their moves must be legal like the game's. A
//! game may start from a `FEN` tag; a `Variant` tag naming Chess960 reads its castling
//! that way. A game that cannot be read does not stop the reader: `read_records` gives
//! the error in its place and goes on with the next game.
//!
//! Why not the `pgn-reader` crate (which the tests use as an independent reader): it skips
//! a move it cannot read without a word and gives no line numbers, where `analyse` and
//! the board must name the game and the line, and it reads no figurines or long algebraic
//! moves.
//!
//! The writer produces the export form: the Seven Tag Roster first, `SetUp`/`FEN` for a
//! game that does not start from the initial position, NAGs as `$n`, lines of at most 80
//! characters.

use crate::chess::fen::{self, START_FEN};
use crate::chess::notation::{parse_san, to_san};
use crate::chess::{Board, Color, Move, Position};
use std::fmt;

/// The tags every exported game carries, in the order the PGN standard gives them.
const SEVEN_TAG_ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
const LINE_WIDTH: usize = 80;

/// One move of a game with what is written after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameMove {
    pub mv: Move,
    /// Numeric annotation glyphs: 1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`, 6 `?!`, ...
    pub nags: Vec<u8>,
    pub comments: Vec<String>,
    /// Alternatives to this move, each a line played from the position before it: those
    /// of the game as read, then any an annotator adds.
    pub variations: Vec<Line>,
}

impl GameMove {
    pub fn new(mv: Move) -> GameMove {
        GameMove {
            mv,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// A variation: moves, each with its own NAGs, comments and variations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Comments before the first move.
    pub comments: Vec<String>,
    pub moves: Vec<GameMove>,
}

impl Line {
    /// A line of bare moves.
    pub fn of_moves(moves: &[Move]) -> Line {
        Line {
            comments: Vec::new(),
            moves: moves.iter().map(|&m| GameMove::new(m)).collect(),
        }
    }
}

/// A game: its tags, where it starts, its moves and its result.
#[derive(Clone, Debug)]
pub struct Game {
    /// In the order read (or set); `Result`, `SetUp` and `FEN` are written from the game
    /// itself, whatever these say.
    pub tags: Vec<(String, String)>,
    pub start: Board,
    /// Comments before the first move.
    pub comments: Vec<String>,
    pub moves: Vec<GameMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (unfinished or unknown).
    pub result: String,
    /// Variations of the text read that were left out, with why: a move in them could not
    /// be read (the game's own moves could).
    pub dropped: Vec<PgnError>,
}

impl Game {
    pub fn new(start: Board) -> Game {
        Game {
            tags: Vec::new(),
            start,
            comments: Vec::new(),
            moves: Vec::new(),
            result: "*".to_string(),
            dropped: Vec::new(),
        }
    }

    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing its value if the game has it already.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The position before each move (`[i]` before move `i`) and after the last one, with
    /// the game's history, so that repetitions count.
    pub fn positions(&self) -> Vec<Position> {
        let mut position = Position::from_board(self.start);
        let mut out = vec![position.clone()];
        for m in &self.moves {
            position.make(m.mv);
            out.push(position.clone());
        }
        out
    }
}

/// Why a PGN text could not be read: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based: the game in the file, and the line of the text.
    pub game: usize,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "game {}, line {}: {}",
            self.game, self.line, self.message
        )
    }
}

impl std::error::Error for PgnError {}

/// The pieces of PGN text.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Tag(String, String),
    /// A move, a move number or a result: a run of symbol characters.
    Symbol(String),
    Comment(String),
    Nag(u8),
    Open,
    Close,
    /// Text that cannot be read, and why: a tag line, which belongs with the tags of its
    /// game...
    BadTag(String),
    /// ... or anything in the movetext.
    Bad(String),
}

/// Splits PGN text into tokens, each with its line number. Periods (after move numbers)
/// and unknown characters separate tokens and are otherwise ignored. Text that cannot be
/// read becomes a `Bad` or `BadTag` token and reading goes on after it, so that one broken
/// game does not hide the others; only a comment never closed swallows the rest.
fn tokenize(text: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let mut at_line_start = true;
    while i < chars.len() {
        let c = chars[i];
        let start_line = line;
        if c == '%' && at_line_start {
            // An escape line, for other programs' private data.
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        at_line_start = false;
        match c {
            '\n' => {
                line += 1;
                at_line_start = true;
                i += 1;
            }
            '{' => {
                let mut body = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '}' {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    body.push(chars[i]);
                    i += 1;
                }
                if i == chars.len() {
                    let message = "a comment '{' is never closed".to_string();
                    tokens.push((Token::Bad(message), start_line));
                    break;
                }
                i += 1;
                tokens.push((Token::Comment(normalize_space(&body)), start_line));
            }
            ';' => {
                let mut body = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '\n' {
                    body.push(chars[i]);
                    i += 1;
                }
                tokens.push((Token::Comment(normalize_space(&body)), start_line));
            }
            '[' => {
                // The tag ends at the first `]` outside its quoted value.
                let (mut quoted, mut escaped, mut end) = (false, false, None);
                for (j, &c) in chars.iter().enumerate().skip(i + 1) {
                    match c {
                        '\n' => break,
                        _ if escaped => escaped = false,
                        '\\' if quoted => escaped = true,
                        '"' => quoted = !quoted,
                        ']' if !quoted => {
                            end = Some(j);
                            break;
                        }
                        _ => {}
                    }
                }
                let Some(end) = end else {
                    let message = "a tag '[' is not closed on its line".to_string();
                    tokens.push((Token::BadTag(message), start_line));
                    while i < chars.len() && chars[i] != '\n' {
                        i += 1;
                    }
                    continue;
                };
                let inner: String = chars[i + 1..end].iter().collect();
                let token = parse_tag(&inner).unwrap_or_else(Token::BadTag);
                tokens.push((token, start_line));
                i = end + 1;
            }
            '(' => {
                tokens.push((Token::Open, line));
                i += 1;
            }
            ')' => {
                tokens.push((Token::Close, line));
                i += 1;
            }
            '$' => {
                let digits: String = chars[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .collect();
                let token = match digits.parse::<u8>() {
                    Ok(nag) => Token::Nag(nag),
                    Err(_) => Token::Bad(format!("bad annotation glyph '${digits}'")),
                };
                tokens.push((token, line));
                i += 1 + digits.len();
            }
            '!' | '?' => {
                let suffix: String = chars[i..]
                    .iter()
                    .take_while(|&&c| c == '!' || c == '?')
                    .collect();
                let token = match suffix.as_str() {
                    "!" => Token::Nag(1),
                    "?" => Token::Nag(2),
                    "!!" => Token::Nag(3),
                    "??" => Token::Nag(4),
                    "!?" => Token::Nag(5),
                    "?!" => Token::Nag(6),
                    _ => Token::Bad(format!("unknown move annotation '{suffix}'")),
                };
                tokens.push((token, line));
                i += suffix.chars().count();
            }
            // "exd6 e.p." (an en passant capture marked as one, as older books and
            // programs write it): the mark adds nothing to the move before it.
            'e' if chars[i..].starts_with(&['e', '.', 'p', '.'])
                && matches!(tokens.last(), Some((Token::Symbol(_), _))) =>
            {
                i += 4;
            }
            c if is_symbol_char(c) => {
                let mut symbol: String = chars[i..]
                    .iter()
                    .take_while(|&&c| is_symbol_char(c))
                    .collect();
                i += symbol.chars().count();
                // The en passant mark written onto the move: "exf6e.p.".
                if symbol.len() > 1
                    && symbol.ends_with('e')
                    && chars[i..].starts_with(&['.', 'p', '.'])
                {
                    symbol.pop();
                    i += 3;
                }
                tokens.push((Token::Symbol(symbol), line));
            }
            _ => i += 1,
        }
    }
    tokens
}

/// The characters of moves, move numbers and results, the chess figurines among them
/// (`♘f3`, read as `Nf3`).
fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_+#=:-/*".contains(c) || ('♔'..='♟').contains(&c)
}

/// Whether a move text is a null move (a pass), as ChessBase (`--`) and others (`Z0`)
/// write one in analysis.
fn is_null_move(symbol: &str) -> bool {
    matches!(symbol.trim_end_matches(['+', '#']), "--" | "Z0")
}

/// Collapses runs of white space (line breaks in a comment) into single spaces.
fn normalize_space(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The inside of `[Name "value"]`; the value may contain `\"` and `\\`.
fn parse_tag(inner: &str) -> Result<Token, String> {
    let inner = inner.trim();
    let name_end = inner
        .find(|c: char| c.is_whitespace() || c == '"')
        .unwrap_or(inner.len());
    let name = &inner[..name_end];
    let rest = inner[name_end..].trim();
    if name.is_empty() || !rest.starts_with('"') || !rest.ends_with('"') || rest.len() < 2 {
        return Err(format!("a tag must read [Name \"value\"], not [{inner}]"));
    }
    let mut value = String::new();
    let mut escaped = false;
    for c in rest[1..rest.len() - 1].chars() {
        if escaped || c != '\\' {
            value.push(c);
            escaped = false;
        } else {
            escaped = true;
        }
    }
    Ok(Token::Tag(name.to_string(), value))
}

/// Whether a `Variant` tag names Chess960, as the programs that write PGN spell it:
/// `Chess960` (lichess), `fischerandom` (Cute Chess, XBoard), `Fischer Random`,
/// `Freestyle`.
fn is_chess960(variant: &str) -> bool {
    let v = variant.to_ascii_lowercase();
    v.contains("960") || v.contains("fischer") || v.contains("freestyle")
}

fn is_result(symbol: &str) -> bool {
    matches!(symbol, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// The text of a PGN file: UTF-8, or else Latin-1 (ISO 8859-1, the character set the PGN
/// standard names, which older programs and databases still write), byte for character,
/// so that a name such as "Réti" comes through whole. With the line of the first byte
/// that is not UTF-8 when the file was read as Latin-1, for a note to the user.
pub fn decode(bytes: &[u8]) -> (String, Option<usize>) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (text.to_string(), None),
        Err(e) => {
            let line = 1 + bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            (bytes.iter().map(|&b| char::from(b)).collect(), Some(line))
        }
    }
}

/// The note for a file `decode` read as Latin-1.
pub fn latin1_note(path: &std::path::Path, line: usize) -> String {
    format!(
        "{}: line {line}: not UTF-8; the file is read as Latin-1 (ISO 8859-1, PGN's own character set)",
        path.display()
    )
}

/// Reads every game of a PGN text. Stops at the first error, which names the game and
/// the line.
pub fn read_games(text: &str) -> Result<Vec<Game>, PgnError> {
    read_records(text).into_iter().collect()
}

/// Reads every game of a PGN text, in order: each game, or the first error in it (naming
/// the game and the line). After an error the reader passes over the rest of that game,
/// to its result or to the tags of the next one, and goes on from there.
pub fn read_records(text: &str) -> Vec<Result<Game, PgnError>> {
    let mut records = Vec::new();
    let mut reader = GameReader::default();
    for (token, line) in tokenize(text) {
        let is_tag = matches!(token, Token::Tag(..) | Token::BadTag(_));
        // A tag after movetext begins the next game, even if the last one had no result.
        if is_tag && reader.in_movetext {
            records.push(std::mem::take(&mut reader).finish(records.len() + 1));
        }
        reader.in_movetext |= !is_tag;
        if reader.error.is_some() {
            if matches!(&token, Token::Symbol(s) if is_result(s)) {
                records.push(std::mem::take(&mut reader).finish(records.len() + 1));
            }
            continue;
        }
        match reader.take(token, records.len() + 1, line) {
            Ok(true) => records.push(std::mem::take(&mut reader).finish(records.len() + 1)),
            Ok(false) => {}
            Err(message) => {
                reader.error = Some(PgnError {
                    game: records.len() + 1,
                    line,
                    message,
                })
            }
        }
    }
    if reader.in_movetext || !reader.tags.is_empty() || reader.error.is_some() {
        if reader.error.is_none()
            && let Err(message) = reader.begin()
        {
            reader.error = Some(PgnError {
                game: records.len() + 1,
                line: text.lines().count(),
                message,
            });
        }
        records.push(reader.finish(records.len() + 1));
    }
    records
}

/// One game being read.
#[derive(Default)]
struct GameReader {
    tags: Vec<(String, String)>,
    /// Whether anything but tags came: a tag then begins the next game.
    in_movetext: bool,
    /// Set at the first movetext token: the tags before it say where the game starts.
    start: Option<Board>,
    /// The game's own moves first, then the variations being read, innermost last.
    lines: Vec<LineReader>,
    result: Option<String>,
    /// The first error in the game: the rest of it is passed over.
    error: Option<PgnError>,
    /// Variations left out for an error in them, and how many parentheses are open inside
    /// the one being passed over.
    dropped: Vec<PgnError>,
    skipping: usize,
    /// The line of the `(` that began the variation being passed over.
    skipped_from: usize,
}

/// A line of moves being read: the game's own or a variation.
struct LineReader {
    line: Line,
    /// The position after the moves read so far...
    board: Board,
    /// ... and before the last of them, where a variation replacing it starts.
    before_last: Option<Board>,
    /// The text's line of the `(` that opened it (a variation's).
    opened_on: usize,
}

impl LineReader {
    fn new(board: Board, opened_on: usize) -> LineReader {
        LineReader {
            line: Line::default(),
            board,
            before_last: None,
            opened_on,
        }
    }
}

impl GameReader {
    /// Sets up the start position from the tags, once.
    fn begin(&mut self) -> Result<(), String> {
        if self.start.is_some() {
            return Ok(());
        }
        let tag = |name: &str| {
            self.tags
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let chess960 = tag("Variant").as_deref().is_some_and(is_chess960);
        let fen_text = tag("FEN").unwrap_or_else(|| START_FEN.to_string());
        let board = fen::parse(&fen_text, chess960)
            .map_err(|e| format!("bad FEN tag \"{fen_text}\": {e}"))?;
        self.start = Some(board);
        self.lines = vec![LineReader::new(board, 0)];
        Ok(())
    }

    /// Takes one token, the `game`th of the text's, on `line`; returns whether it ended
    /// the game (a result).
    fn take(&mut self, token: Token, game: usize, line: usize) -> Result<bool, String> {
        if self.skipping > 0 {
            match token {
                Token::Open => self.skipping += 1,
                Token::Close => self.skipping -= 1,
                Token::Bad(message) | Token::BadTag(message) => return Err(message),
                _ => {}
            }
            return Ok(false);
        }
        match token {
            Token::Tag(name, value) => {
                self.tags.push((name, value));
                return Ok(false);
            }
            Token::BadTag(message) | Token::Bad(message) => return Err(message),
            _ => {}
        }
        self.begin()?;
        let depth = self.lines.len() - 1;
        let current = self.lines.last_mut().expect("begun above");
        match token {
            Token::Tag(..) | Token::BadTag(_) | Token::Bad(_) => unreachable!("handled above"),
            Token::Open => {
                let board = current
                    .before_last
                    .ok_or("a variation '(' comes before any move it could replace")?;
                self.lines.push(LineReader::new(board, line));
            }
            Token::Close => {
                if depth == 0 {
                    return Err("')' without a variation to close".to_string());
                }
                let variation = self.lines.pop().expect("inside a variation").line;
                let parent = self.lines.last_mut().expect("the line it belongs to");
                let replaced = parent
                    .line
                    .moves
                    .last_mut()
                    .expect("a variation follows a move");
                if variation.moves.is_empty() {
                    // A variation of comments alone: they are about the move.
                    replaced.comments.extend(variation.comments);
                } else {
                    replaced.variations.push(variation);
                }
            }
            Token::Comment(text) => match current.line.moves.last_mut() {
                Some(last) => last.comments.push(text),
                None => current.line.comments.push(text),
            },
            Token::Nag(nag) => {
                // Once each: `b5?! $6` (a glyph and its number) is one annotation, not two.
                if let Some(last) = current.line.moves.last_mut()
                    && !last.nags.contains(&nag)
                {
                    last.nags.push(nag);
                }
            }
            // A result inside a variation (some programs write one) ends nothing.
            Token::Symbol(symbol) if is_result(&symbol) => {
                if depth == 0 {
                    self.result = Some(symbol);
                    return Ok(true);
                }
            }
            Token::Symbol(symbol) if symbol.chars().all(|c| c.is_ascii_digit()) => {}
            Token::Symbol(symbol) => {
                let board = current.board;
                let parsed = if is_null_move(&symbol) {
                    Err("a null move (a pass), which Tarpon cannot play over".to_string())
                } else {
                    parse_san(&board, &symbol).map_err(|e| e.to_string())
                };
                let m = match parsed {
                    Ok(m) => m,
                    Err(e) => {
                        let number = board.fullmove_number();
                        let dots = if board.side_to_move() == Color::White {
                            "."
                        } else {
                            "..."
                        };
                        let message = format!("move {number}{dots} {symbol}: {e}");
                        if depth == 0 {
                            return Err(message);
                        }
                        // A mistake in a side line does not make the game unreadable:
                        // the variation is left out, and the caller told.
                        let variation = self.lines.pop().expect("inside a variation");
                        self.skipping = 1;
                        self.skipped_from = variation.opened_on;
                        self.dropped.push(PgnError {
                            game,
                            line,
                            message: format!("in a variation, {message}"),
                        });
                        return Ok(false);
                    }
                };
                current.before_last = Some(board);
                current.board.play(m);
                current.line.moves.push(GameMove::new(m));
            }
        }
        Ok(false)
    }

    /// The game read (the `game`th of the text), or its error. A variation never closed
    /// is an error: where it was meant to end, and so which moves are the game's, cannot be
    /// known.
    fn finish(mut self, game: usize) -> Result<Game, PgnError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let unclosed = match self.lines.get(1) {
            Some(variation) => Some(variation.opened_on),
            None => (self.skipping > 0).then_some(self.skipped_from),
        };
        if let Some(line) = unclosed {
            return Err(PgnError {
                game,
                line,
                message: "a variation '(' is never closed: which moves are the game's is unknown"
                    .to_string(),
            });
        }
        let main = self.lines.pop().map(|l| l.line).unwrap_or_default();
        let start = self.start.unwrap_or_else(|| *Position::startpos().board());
        let result = self
            .result
            .or_else(|| {
                self.tags
                    .iter()
                    .find(|(n, v)| n == "Result" && is_result(v))
                    .map(|(_, v)| v.clone())
            })
            .unwrap_or_else(|| "*".to_string());
        Ok(Game {
            tags: self.tags,
            start,
            comments: main.comments,
            moves: main.moves,
            result,
            dropped: self.dropped,
        })
    }
}

/// The game as export-format PGN text, ending with a blank line (games written one after
/// another stay separated).
pub fn write_game(game: &Game) -> String {
    let mut text = String::new();
    let starts_normally = fen::to_fen(&game.start) == START_FEN;
    for name in SEVEN_TAG_ROSTER {
        let value = match name {
            "Result" => game.result.clone(),
            "Date" => game.tag(name).unwrap_or("????.??.??").to_string(),
            _ => game.tag(name).unwrap_or("?").to_string(),
        };
        text.push_str(&tag_line(name, &value));
    }
    if !starts_normally {
        text.push_str(&tag_line("SetUp", "1"));
        text.push_str(&tag_line("FEN", &fen::to_fen(&game.start)));
    }
    for (name, value) in &game.tags {
        if !SEVEN_TAG_ROSTER.contains(&name.as_str()) && name != "SetUp" && name != "FEN" {
            text.push_str(&tag_line(name, value));
        }
    }
    text.push('\n');

    let mut words = Vec::new();
    push_line(&mut words, &game.start, &game.comments, &game.moves);
    words.push(game.result.clone());
    text.push_str(&wrap(&words));
    text.push_str("\n\n");
    text
}

/// Adds a line of moves played from `board` with everything written about them: comments
/// before it, then each move with its NAGs, comments and variations (in parentheses,
/// nested as deep as they go).
fn push_line(words: &mut Vec<String>, board: &Board, comments: &[String], moves: &[GameMove]) {
    for comment in comments {
        push_comment(words, comment);
    }
    let mut board = *board;
    // Black's move needs its number when something comes between it and White's move.
    let mut number_needed = true;
    for m in moves {
        push_move(words, &board, m.mv, number_needed);
        number_needed = false;
        for nag in &m.nags {
            words.push(format!("${nag}"));
        }
        for comment in &m.comments {
            push_comment(words, comment);
            number_needed = true;
        }
        for line in m.variations.iter().filter(|line| !line.moves.is_empty()) {
            let first = words.len();
            push_line(words, &board, &line.comments, &line.moves);
            words[first].insert(0, '(');
            if let Some(last) = words.last_mut() {
                last.push(')');
            }
            number_needed = true;
        }
        board.play(m.mv);
    }
}

fn tag_line(name: &str, value: &str) -> String {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{escaped}\"]\n")
}

/// Adds a move as one word, with its number before it when White moves or when asked:
/// `12. Nf3` or `12... Nf6` (the number and the move stay together on a line).
fn push_move(words: &mut Vec<String>, board: &Board, m: Move, number_needed: bool) {
    let san = to_san(board, m);
    let n = board.fullmove_number();
    words.push(match board.side_to_move() {
        Color::White => format!("{n}. {san}"),
        Color::Black if number_needed => format!("{n}... {san}"),
        Color::Black => san,
    });
}

/// Adds a comment word by word, so that long comments wrap; `}` cannot appear inside.
fn push_comment(words: &mut Vec<String>, comment: &str) {
    let clean = comment.replace('}', ")");
    let mut parts: Vec<String> = clean.split_whitespace().map(str::to_string).collect();
    if parts.is_empty() {
        parts.push(String::new());
    }
    parts[0].insert_str(0, "{ ");
    if let Some(last) = parts.last_mut() {
        last.push_str(" }");
    }
    words.extend(parts);
}

/// Joins words with spaces into lines of at most `LINE_WIDTH` characters (a single longer
/// word gets a line of its own).
fn wrap(words: &[String]) -> String {
    let mut text = String::new();
    let mut line_len = 0;
    for word in words {
        let len = word.chars().count();
        if line_len > 0 && line_len + 1 + len > LINE_WIDTH {
            text.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            text.push(' ');
            line_len += 1;
        }
        text.push_str(word);
        line_len += len;
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Before, `[Variant "fischerandom"]` (Cute Chess) was not read as Chess960, and the
    /// game's X-FEN castling (`KQkq` with rooks not on a and h) was refused.
    #[test]
    fn chess960_variants_as_other_programs_name_them() {
        for variant in ["fischerandom", "Fischer Random", "chess960", "Chess 960"] {
            let text = format!(
                "[Variant \"{variant}\"]\n[SetUp \"1\"]\n\
                 [FEN \"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1\"]\n\n\
                 1. O-O-O Kf8 *\n"
            );
            let games = read_games(&text).unwrap_or_else(|e| panic!("{variant}: {e}"));
            assert_eq!(games[0].moves.len(), 2, "{variant}");
        }
        assert!(!is_chess960("Standard") && !is_chess960("crazyhouse"));
    }

    /// Before, one Latin-1 byte in a header refused the whole file, without a line.
    #[test]
    fn a_latin1_file_is_read_as_latin1_with_the_line_named() {
        let bytes = b"[Event \"?\"]\n[White \"R\xe9ti\"]\n[Result \"*\"]\n\n1. e4 *\n";
        let (text, line) = decode(bytes);
        assert_eq!(line, Some(2));
        let games = read_games(&text).unwrap();
        assert_eq!(games[0].tag("White"), Some("R\u{e9}ti"));
        assert_eq!(decode("1. e4 *".as_bytes()), ("1. e4 *".to_string(), None));
    }
    use crate::chess::notation::parse_uci;

    const SAMPLE: &str = r#"% produced by hand
[Event "Test \"quoted\""]
[Site "?"]
[Result "1-0"]

{Opening comment} 1. e4 e5 $1 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6 3. Bb5!? ; the Spanish
a6 4. Ba4 Nf6 5. O-O Be7 {a long
comment over two lines} 1-0

[Event "Second"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40"]

40. e4 Kd7 41. e5 *
"#;

    #[test]
    fn reads_tags_moves_comments_nags_and_variations() {
        let games = read_games(SAMPLE).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("Test \"quoted\""));
        assert_eq!(g.result, "1-0");
        assert_eq!(g.comments, vec!["Opening comment"]);
        assert_eq!(g.moves.len(), 10);
        assert_eq!(g.moves[1].nags, vec![1]);
        // (2. f4 exf4 (2... d5) 3. Nf3): a variation with one nested in it.
        let sans = |board: &Board, line: &Line| {
            let mut b = *board;
            let mut out = Vec::new();
            for m in &line.moves {
                out.push(to_san(&b, m.mv));
                b.play(m.mv);
            }
            out
        };
        let before_nf3 = g.positions()[2].board().to_owned();
        assert_eq!(g.moves[2].variations.len(), 1);
        let f4 = &g.moves[2].variations[0];
        assert_eq!(sans(&before_nf3, f4), ["f4", "exf4", "Nf3"]);
        let mut after_f4 = before_nf3;
        after_f4.play(f4.moves[0].mv);
        assert_eq!(sans(&after_f4, &f4.moves[1].variations[0]), ["d5"]);
        assert_eq!(g.moves[4].nags, vec![5]);
        assert_eq!(g.moves[4].comments, vec!["the Spanish"]);
        assert_eq!(g.moves[9].comments, vec!["a long comment over two lines"]);
        let last = g.positions().pop().unwrap();
        assert_eq!(
            last.fen(),
            "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6"
        );
        let second = &games[1];
        assert_eq!(second.result, "*");
        assert_eq!(second.moves.len(), 3);
        assert_eq!(second.start.fullmove_number(), 40);
    }

    #[test]
    fn written_games_read_back_the_same() {
        let games = read_games(SAMPLE).unwrap();
        for g in &games {
            let text = write_game(g);
            assert!(
                text.lines().all(|l| l.chars().count() <= LINE_WIDTH),
                "{text}"
            );
            let again = read_games(&text).unwrap();
            assert_eq!(again.len(), 1, "{text}");
            assert_eq!(again[0].moves, g.moves, "{text}");
            assert_eq!(again[0].result, g.result);
            assert_eq!(fen::to_fen(&again[0].start), fen::to_fen(&g.start));
        }
        let text = write_game(&games[1]);
        assert!(
            text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 40\"]"),
            "{text}"
        );
        assert!(text.contains("40. e4 Kd7 41. e5 *"), "{text}");
    }

    #[test]
    fn writes_numbers_after_comments_and_variations_in_parentheses() {
        let start = fen::parse(START_FEN, false).unwrap();
        let mut game = Game::new(start);
        let mut b = start;
        for text in ["e2e4", "e7e5", "g1f3"] {
            let m = parse_uci(&b, text).unwrap();
            game.moves.push(GameMove::new(m));
            b.play(m);
        }
        game.moves[0].comments.push("best by test".to_string());
        let mut after_e4 = start;
        after_e4.play(game.moves[0].mv);
        let c5 = parse_uci(&after_e4, "c7c5").unwrap();
        let mut after_c5 = after_e4;
        after_c5.play(c5);
        game.moves[1]
            .variations
            .push(Line::of_moves(&[c5, parse_uci(&after_c5, "g1f3").unwrap()]));
        game.moves[1].nags.push(6);
        let text = write_game(&game);
        assert!(
            text.contains("1. e4 { best by test } 1... e5 $6 (1... c5 2. Nf3) 2. Nf3 *"),
            "{text}"
        );
    }

    /// A glyph and the same NAG by number are one annotation: read once, written once.
    #[test]
    fn an_annotation_given_twice_is_kept_once() {
        let game = read_games("1. e4 b5?! $6 2. Bxb5 $1 ! *")
            .unwrap()
            .remove(0);
        assert_eq!(game.moves[1].nags, [6]);
        assert_eq!(game.moves[2].nags, [1]);
        let written = write_game(&game);
        assert!(written.contains("1. e4 b5 $6 2. Bxb5 $1 *"), "{written}");
    }

    #[test]
    fn variations_keep_their_comments_nags_and_nesting_when_written() {
        let text = "1. e4 e5 2. Nf3 $1 { good } (2. Qh5 Nc6 3. Bc4 Nf6?? { oh } (3... g6) \
                    4. Qxf7#) (2. f4) 2... Nc6 *";
        let game = read_games(text).unwrap().remove(0);
        let written = write_game(&game);
        let flat = written.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(
                "2. Nf3 $1 { good } (2. Qh5 Nc6 3. Bc4 Nf6 $4 { oh } (3... g6) 4. Qxf7#) \
                 (2. f4) 2... Nc6 *"
            ),
            "{written}"
        );
        assert_eq!(read_games(&written).unwrap()[0].moves, game.moves);
        // A variation of comments alone leaves its comments to the move.
        let game = read_games("1. e4 ({ or d4 }) e5 *").unwrap().remove(0);
        assert_eq!(game.moves[0].comments, ["or d4"]);
        assert!(game.moves[0].variations.is_empty());
        // A variation with a move that cannot be read is left out, nested ones with it,
        // and said so; the game and its other variations stay.
        let game = read_games("1. e4 e5 (1... Ke3 (1... Kd2) 2. d4) (1... c5) 2. Nf3 *")
            .unwrap()
            .remove(0);
        assert_eq!(game.moves.len(), 3);
        assert_eq!(game.moves[1].variations.len(), 1);
        assert_eq!(game.dropped.len(), 1);
        assert_eq!(
            game.dropped[0].to_string(),
            "game 1, line 1: in a variation, move 1... Ke3: illegal move 'Ke3'"
        );
        for (text, words) in [
            ("(1. e4) 1. d4 *", "before any move"),
            ("1. e4 ) e5 *", "without a variation"),
        ] {
            let err = read_games(text).unwrap_err();
            assert!(err.message.contains(words), "{text}: {}", err.message);
        }
    }

    #[test]
    fn a_bad_game_is_reported_in_its_place_and_the_others_read() {
        let text = "[Event \"a\"]\n\n1. e4 e5 *\n\n\
                    [Event \"b\"]\n\n1. e4 e4 2. Nf3 (2. Nc3) 2... Nc6 1-0\n\n\
                    [Event \"c\"]\n[FEN \"nonsense\"]\n\n1. e4 *\n\n\
                    [Event \"d\n\n1. d4 $999 *\n\n\
                    [Event \"e\"]\n\n1. d4 d5 *\n";
        let records = read_records(text);
        let summary: Vec<Result<&str, (usize, usize)>> = records
            .iter()
            .map(|r| match r {
                Ok(game) => Ok(game.tag("Event").unwrap_or("")),
                Err(e) => Err((e.game, e.line)),
            })
            .collect();
        assert_eq!(
            summary,
            [Ok("a"), Err((2, 7)), Err((3, 12)), Err((4, 14)), Ok("e")],
            "{records:?}"
        );
        assert_eq!(records[4].as_ref().unwrap().moves.len(), 2);
        // The strict reader stops at the first.
        assert_eq!(read_games(text).unwrap_err().game, 2);
        // A game without tags after a broken one is found by its result.
        let records = read_records("1. e4 Ke7 Ke3 *\n1. d4 d5 *\n");
        assert!(records[0].is_err() && records[1].is_ok(), "{records:?}");
    }

    #[test]
    fn moves_as_other_programs_write_them() {
        let uci_of = |game: &Game| -> Vec<String> {
            let mut board = game.start;
            let mut moves = Vec::new();
            for m in &game.moves {
                moves.push(crate::chess::notation::to_uci(&board, m.mv));
                board.play(m.mv);
            }
            moves
        };
        let plain = ["e2e4", "g8f6", "e4e5", "d7d5", "e5d6"]
            .map(String::from)
            .to_vec();
        // Long algebraic, figurines and an en passant capture marked as one.
        for text in [
            "1. e2-e4 Ng8-f6 2. e4-e5 d7-d5 3. e5xd6 e.p. *",
            "1. e4 ♞f6 2. e5 d5 3. exd6 e.p. *",
            "1. e4 Nf6 2. e5 d5 3. exd6e.p. *",
        ] {
            let game = read_games(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"))
                .remove(0);
            assert_eq!(uci_of(&game), plain, "{text}");
            assert_eq!(game.result, "*");
        }
        // A knight figurine is a knight: "♘e4" is illegal at the start, never a pawn move.
        let err = read_games("1. ♘e4 *").unwrap_err();
        assert!(
            err.message.contains("illegal move '♘e4'"),
            "{}",
            err.message
        );
        // A null move in a variation (a threat shown by a pass) leaves that variation out,
        // said so; in the game's own moves it is an error naming the move.
        for null in ["--", "Z0"] {
            let text = format!("1. e4 e5 2. Nf3 ({null} Nc6) 2... Nc6 *");
            let game = read_games(&text).unwrap().remove(0);
            assert_eq!(game.moves.len(), 4, "{text}");
            assert!(game.moves[2].variations.is_empty());
            assert!(
                game.dropped[0].message.contains("null move"),
                "{:?}",
                game.dropped
            );
            let err = read_games(&format!("1. e4 {null} 2. d4 *")).unwrap_err();
            assert!(
                err.message.contains(&format!("1... {null}: a null move")),
                "{err}"
            );
        }
        // A variation never closed is an error naming its line, not a shorter game; the
        // next game is read.
        let text =
            "[Event \"a\"]\n\n1. e4 e5 2. Nf3\n(2. d4 exd4 3. c3 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        let records = read_records(text);
        let err = records[0].as_ref().unwrap_err();
        assert_eq!((err.game, err.line), (1, 4), "{err}");
        assert!(err.message.contains("never closed"), "{err}");
        assert_eq!(records[1].as_ref().unwrap().moves.len(), 1);
        let err = read_games("1. e4 (1. d4 d5 (1... Nf6 *").unwrap_err();
        assert!(err.message.contains("never closed"), "{err}");
        // So is one passed over for a mistake in it.
        let err = read_games("1. e4 (1. d4 Ke3 2. c4 *").unwrap_err();
        assert!(err.message.contains("never closed"), "{err}");
    }

    #[test]
    fn errors_name_the_game_and_line() {
        let err =
            read_games("[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 e4 *\n").unwrap_err();
        assert_eq!((err.game, err.line), (2, 7));
        assert!(err.message.contains("1... e4"), "{}", err.message);
        let err = read_games("1. e4 {never closed").unwrap_err();
        assert!(err.message.contains("never closed"));
        let err = read_games("[FEN \"nonsense\"]\n1. e4 *").unwrap_err();
        assert!(err.message.contains("FEN"), "{}", err.message);
    }
}
