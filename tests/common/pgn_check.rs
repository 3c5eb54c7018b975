//! Replays PGN text with shakmaty, independently of Tarpon's own PGN reader, so the tests
//! of `play` and `analyse` check that what Tarpon writes is PGN another program reads.

use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

/// One game as shakmaty saw it.
pub struct Replayed {
    pub tags: Vec<(String, String)>,
    /// The SAN of the game's own moves (variations and comments left out).
    pub sans: Vec<String>,
    pub result: String,
    pub final_position: Chess,
}

impl Replayed {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn final_fen(&self) -> String {
        Fen::from_position(&self.final_position, EnPassantMode::Legal).to_string()
    }
}

/// Replays every game of `text`; panics, naming the move, on anything shakmaty rejects.
pub fn replay(text: &str) -> Vec<Replayed> {
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut movetext = String::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if !movetext.trim().is_empty() {
                games.push(replay_game(std::mem::take(&mut tags), &movetext));
                movetext.clear();
            }
            let (name, value) = inner.split_once(' ').expect("tag name and value");
            let value = value.trim().trim_matches('"').replace("\\\"", "\"");
            tags.push((name.to_string(), value));
        } else {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    if !movetext.trim().is_empty() {
        games.push(replay_game(tags, &movetext));
    }
    games
}

fn replay_game(tags: Vec<(String, String)>, movetext: &str) -> Replayed {
    let mut position: Chess = match tags.iter().find(|(n, _)| n == "FEN") {
        Some((_, fen)) => Fen::from_ascii(fen.as_bytes())
            .expect("FEN tag syntax")
            .into_position(CastlingMode::Standard)
            .expect("FEN tag position"),
        None => Chess::default(),
    };
    // Drop comments and variations (which may nest), keeping the game's own tokens.
    let mut plain = String::new();
    let (mut in_comment, mut depth) = (false, 0);
    for c in movetext.chars() {
        match c {
            '{' if !in_comment => in_comment = true,
            '}' if in_comment => in_comment = false,
            _ if in_comment => {}
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth > 0 => {}
            _ => plain.push(c),
        }
    }
    let mut sans = Vec::new();
    let mut result = String::new();
    for token in plain.split_whitespace() {
        if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
            result = token.to_string();
            continue;
        }
        // Move numbers ("12." or "12...") and annotation glyphs ("$4") are not moves.
        let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if token.is_empty() || token.starts_with('$') {
            continue;
        }
        let san: San = token
            .trim_end_matches(['+', '#'])
            .parse()
            .unwrap_or_else(|e| panic!("shakmaty cannot read the SAN {token}: {e}"));
        let m = san
            .to_move(&position)
            .unwrap_or_else(|e| panic!("{token} is not legal for shakmaty: {e}"));
        position.play_unchecked(m);
        sans.push(token.to_string());
    }
    Replayed {
        tags,
        sans,
        result,
        final_position: position,
    }
}
