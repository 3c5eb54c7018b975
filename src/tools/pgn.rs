//! Portable Game Notation: reading games (for `tarpon analyse`) and writing them (`play`
//! saves its games, `analyse` writes annotated ones).
//!
//! The reader takes what people and programs commonly write: tag pairs, SAN movetext with
//! or without move numbers, `{...}` and `;` comments, NAGs (`$2`) and the traditional
//! suffixes (`?`, `!?`, ...), result tokens, and `%` escape lines. Variations (`(...)`,
//! nested) are read over and dropped: the tools work on the game as played. A game may
//! start from a `FEN` tag; a `Variant` tag naming Chess960 reads its castling that way.
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
    /// Alternatives to this move, each a line played from the position before it. Only
    /// written (the annotator's suggestions); the reader drops variations.
    pub variations: Vec<Vec<Move>>,
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
}

impl Game {
    pub fn new(start: Board) -> Game {
        Game {
            tags: Vec::new(),
            start,
            comments: Vec::new(),
            moves: Vec::new(),
            result: "*".to_string(),
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
}

/// Splits PGN text into tokens, each with its line number. Periods (after move numbers)
/// and unknown characters separate tokens and are otherwise ignored.
fn tokenize(text: &str) -> Result<Vec<(Token, usize)>, (usize, String)> {
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
                    return Err((start_line, "a comment '{' is never closed".to_string()));
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
                let end = end.ok_or((
                    start_line,
                    "a tag '[' is not closed on its line".to_string(),
                ))?;
                let inner: String = chars[i + 1..end].iter().collect();
                tokens.push((parse_tag(&inner).map_err(|e| (start_line, e))?, start_line));
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
                let nag = digits
                    .parse::<u8>()
                    .map_err(|_| (line, format!("bad annotation glyph '${digits}'")))?;
                tokens.push((Token::Nag(nag), line));
                i += 1 + digits.len();
            }
            '!' | '?' => {
                let suffix: String = chars[i..]
                    .iter()
                    .take_while(|&&c| c == '!' || c == '?')
                    .collect();
                let nag = match suffix.as_str() {
                    "!" => 1,
                    "?" => 2,
                    "!!" => 3,
                    "??" => 4,
                    "!?" => 5,
                    "?!" => 6,
                    _ => return Err((line, format!("unknown move annotation '{suffix}'"))),
                };
                tokens.push((Token::Nag(nag), line));
                i += suffix.chars().count();
            }
            c if is_symbol_char(c) => {
                let symbol: String = chars[i..]
                    .iter()
                    .take_while(|&&c| is_symbol_char(c))
                    .collect();
                i += symbol.chars().count();
                tokens.push((Token::Symbol(symbol), line));
            }
            _ => i += 1,
        }
    }
    Ok(tokens)
}

fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_+#=:-/*".contains(c)
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

fn is_result(symbol: &str) -> bool {
    matches!(symbol, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Reads every game of a PGN text. Stops at the first error, which names the game and
/// the line.
pub fn read_games(text: &str) -> Result<Vec<Game>, PgnError> {
    let tokens = tokenize(text).map_err(|(line, message)| PgnError {
        game: 1,
        line,
        message,
    })?;
    let mut games = Vec::new();
    let mut reader = GameReader::default();
    for (token, line) in tokens {
        let error = |message: String, games: &Vec<Game>| PgnError {
            game: games.len() + 1,
            line,
            message,
        };
        // A tag after movetext begins the next game, even if the last one had no result.
        if matches!(token, Token::Tag(..)) && reader.position.is_some() {
            games.push(std::mem::take(&mut reader).finish());
        }
        match reader.take(token) {
            Ok(true) => games.push(std::mem::take(&mut reader).finish()),
            Ok(false) => {}
            Err(message) => return Err(error(message, &games)),
        }
    }
    if reader.position.is_some() || !reader.tags.is_empty() {
        let line = text.lines().count();
        let game = games.len() + 1;
        let finished = reader.begin().map_err(|message| PgnError {
            game,
            line,
            message,
        });
        games.push(finished.map(|()| reader.finish())?);
    }
    Ok(games)
}

/// One game being read.
#[derive(Default)]
struct GameReader {
    tags: Vec<(String, String)>,
    /// Set at the first movetext token: the tags before it say where the game starts.
    position: Option<Position>,
    start: Option<Board>,
    comments: Vec<String>,
    moves: Vec<GameMove>,
    result: Option<String>,
    /// How deep inside variations the reader is (0: the game's own moves).
    depth: usize,
}

impl GameReader {
    /// Sets up the start position from the tags, once.
    fn begin(&mut self) -> Result<(), String> {
        if self.position.is_some() {
            return Ok(());
        }
        let tag = |name: &str| {
            self.tags
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let chess960 = tag("Variant").is_some_and(|v| v.contains("960"));
        let fen_text = tag("FEN").unwrap_or_else(|| START_FEN.to_string());
        let board = fen::parse(&fen_text, chess960)
            .map_err(|e| format!("bad FEN tag \"{fen_text}\": {e}"))?;
        self.start = Some(board);
        self.position = Some(Position::from_board(board));
        Ok(())
    }

    /// Takes one token; returns whether it ended the game (a result).
    fn take(&mut self, token: Token) -> Result<bool, String> {
        if let Token::Tag(name, value) = token {
            self.tags.push((name, value));
            return Ok(false);
        }
        self.begin()?;
        match token {
            Token::Tag(..) => unreachable!("handled above"),
            Token::Open => self.depth += 1,
            Token::Close => {
                self.depth = self
                    .depth
                    .checked_sub(1)
                    .ok_or("')' without a variation to close")?;
            }
            _ if self.depth > 0 => {}
            Token::Comment(text) => match self.moves.last_mut() {
                Some(last) => last.comments.push(text),
                None => self.comments.push(text),
            },
            Token::Nag(nag) => {
                if let Some(last) = self.moves.last_mut() {
                    last.nags.push(nag);
                }
            }
            Token::Symbol(symbol) if is_result(&symbol) => {
                self.result = Some(symbol);
                return Ok(true);
            }
            Token::Symbol(symbol) if symbol.chars().all(|c| c.is_ascii_digit()) => {}
            Token::Symbol(symbol) => {
                let position = self.position.as_mut().expect("begun above");
                let m = parse_san(position, &symbol).map_err(|e| {
                    let number = position.fullmove_number();
                    let dots = if position.side_to_move() == Color::White {
                        "."
                    } else {
                        "..."
                    };
                    format!("move {number}{dots} {symbol}: {e}")
                })?;
                position.make(m);
                self.moves.push(GameMove::new(m));
            }
        }
        Ok(false)
    }

    fn finish(self) -> Game {
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
        Game {
            tags: self.tags,
            start,
            comments: self.comments,
            moves: self.moves,
            result,
        }
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
    for comment in &game.comments {
        push_comment(&mut words, comment);
    }
    let mut board = game.start;
    // Black's move needs its number when something comes between it and White's move.
    let mut number_needed = true;
    for m in &game.moves {
        push_move(&mut words, &board, m.mv, number_needed);
        number_needed = false;
        for nag in &m.nags {
            words.push(format!("${nag}"));
        }
        for comment in &m.comments {
            push_comment(&mut words, comment);
            number_needed = true;
        }
        for line in m.variations.iter().filter(|line| !line.is_empty()) {
            let first = words.len();
            let mut b = board;
            for (i, &v) in line.iter().enumerate() {
                push_move(&mut words, &b, v, i == 0);
                b.play(v);
            }
            words[first].insert(0, '(');
            if let Some(last) = words.last_mut() {
                last.push(')');
            }
            number_needed = true;
        }
        board.play(m.mv);
    }
    words.push(game.result.clone());
    text.push_str(&wrap(&words));
    text.push_str("\n\n");
    text
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
    fn reads_tags_moves_comments_nags_and_skips_variations() {
        let games = read_games(SAMPLE).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("Test \"quoted\""));
        assert_eq!(g.result, "1-0");
        assert_eq!(g.comments, vec!["Opening comment"]);
        assert_eq!(g.moves.len(), 10);
        assert_eq!(g.moves[1].nags, vec![1]);
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
            .push(vec![c5, parse_uci(&after_c5, "g1f3").unwrap()]);
        game.moves[1].nags.push(6);
        let text = write_game(&game);
        assert!(
            text.contains("1. e4 { best by test } 1... e5 $6 (1... c5 2. Nf3) 2. Nf3 *"),
            "{text}"
        );
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
