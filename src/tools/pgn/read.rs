//! Reading PGN text: the bytes decoded (UTF-8, or Latin-1 as older files are), the games
//! read one by one, each from the tokens of its text.

use super::{Game, GameMove, Line, PgnError};
use crate::chess::fen::{self, START_FEN};
use crate::chess::notation::parse_san;
use crate::chess::{Board, Color, Position};

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
pub(super) fn is_chess960(variant: &str) -> bool {
    let v = variant.to_ascii_lowercase();
    v.contains("960") || v.contains("fischer") || v.contains("freestyle")
}

fn is_result(symbol: &str) -> bool {
    matches!(symbol, "1-0" | "0-1" | "1/2-1/2" | "*")
}
