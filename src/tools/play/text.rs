//! Words laid out for the terminal: lines broken between words, the terminal's width,
//! choices in words.

/// `label` and `words` separated by spaces, in lines of at most `width` columns broken
/// between words, never inside one; the lines after the first are indented by two spaces.
pub(super) fn wrap_words(label: &str, words: &[String], width: usize) -> String {
    const INDENT: &str = "  ";
    let mut text = label.to_string();
    let mut line_length = label.chars().count();
    for word in words {
        let length = word.chars().count();
        if line_length + 1 + length > width && line_length > INDENT.len() {
            text.push('\n');
            text.push_str(INDENT);
            line_length = INDENT.len();
        } else {
            text.push(' ');
            line_length += 1;
        }
        text.push_str(word);
        line_length += length;
    }
    text
}

/// The width of the output in columns: the terminal's, else `COLUMNS` (which shells set),
/// else 80.
pub(super) fn width() -> usize {
    terminal_columns()
        .or_else(|| {
            std::env::var("COLUMNS")
                .ok()
                .and_then(|c| c.trim().parse().ok())
        })
        .filter(|&columns: &usize| columns > 0)
        .unwrap_or(80)
}

/// The columns of the terminal standard output writes to, if it is one.
fn terminal_columns() -> Option<usize> {
    let (terminal_size::Width(columns), _) = terminal_size::terminal_size_of(std::io::stdout())?;
    (columns > 0).then_some(usize::from(columns))
}

/// `a`, `a or b`, `a, b or c`: choices in words.
pub(super) fn one_of(choices: &[String]) -> String {
    match choices {
        [] => String::new(),
        [only] => only.clone(),
        [first @ .., last] => format!("{} or {last}", first.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_wrap_between_moves() {
        let words: Vec<String> = ["e4", "Nf3", "O-O-O", "exd8=Q+"].map(String::from).to_vec();
        assert_eq!(
            wrap_words("Moves:", &words, 80),
            "Moves: e4 Nf3 O-O-O exd8=Q+"
        );
        assert_eq!(
            wrap_words("Moves:", &words, 12),
            "Moves: e4\n  Nf3 O-O-O\n  exd8=Q+"
        );
        // A word longer than the width has a line of its own.
        assert_eq!(
            wrap_words("Moves:", &words, 4),
            "Moves:\n  e4\n  Nf3\n  O-O-O\n  exd8=Q+"
        );
    }
}
