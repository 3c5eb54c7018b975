//! Writing a game in PGN's export form.

use super::{Game, GameMove};
use crate::chess::fen::{self, START_FEN};
use crate::chess::notation::to_san;
use crate::chess::{Board, Color, Move};

/// The tags every exported game carries, in the order the PGN standard gives them.
const SEVEN_TAG_ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
pub(super) const LINE_WIDTH: usize = 80;

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
