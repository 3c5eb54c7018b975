//! The board as a terminal picture, for `tarpon play`: Unicode chess figures where the
//! terminal can show them, letters otherwise; coloured squares on a terminal that takes
//! colours; the last move's two squares marked, and the king in check.

use crate::chess::{Board, Color, PieceType, Square};
use std::io::IsTerminal;

/// How to draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Style {
    /// Chess figures (U+2654..U+265F) instead of letters.
    pub unicode: bool,
    /// ANSI colours (256-colour palette) for the squares.
    pub color: bool,
}

impl Style {
    /// Letters and no colours: what any output shows (a file, a pipe, a log).
    pub const PLAIN: Style = Style {
        unicode: false,
        color: false,
    };

    /// What standard output can show, unless the user asked for less. Colours only on a
    /// terminal, and not when `NO_COLOR` is set (the informal standard, no-color.org) or
    /// `TERM` is `dumb`. Figures when the locale says UTF-8 (where terminals have a font for
    /// them); Windows terminals take UTF-8 without saying so in the environment.
    pub fn detect(ascii: bool, no_color: bool) -> Style {
        let env = |name: &str| std::env::var(name).unwrap_or_default();
        let color = !no_color
            && std::io::stdout().is_terminal()
            && env("NO_COLOR").is_empty()
            && env("TERM") != "dumb";
        // The first locale variable that is set decides, as in the C library.
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
            .into_iter()
            .map(env)
            .find(|v| !v.is_empty())
            .unwrap_or_default()
            .to_ascii_lowercase();
        let utf8 = locale.contains("utf-8") || locale.contains("utf8") || cfg!(windows);
        Style {
            unicode: utf8 && !ascii,
            color,
        }
    }
}

// 256-colour palette numbers: light squares, dark squares, and the same two tinted for the
// last move's squares and for a king in check. All light enough for black figures.
const LIGHT: u8 = 223;
const DARK: u8 = 180;
const LIGHT_MARKED: u8 = 193;
const DARK_MARKED: u8 = 150;
const CHECK: u8 = 210;
const FIGURE: u8 = 16;

/// The board with White at the bottom, or Black when `black_below`. `marked` squares (the
/// last move's origin and destination) are tinted, or bracketed without colours.
pub fn draw(board: &Board, style: Style, black_below: bool, marked: &[Square]) -> String {
    let files: Vec<u8> = if black_below {
        (0..8).rev().collect()
    } else {
        (0..8).collect()
    };
    let ranks: Vec<u8> = if black_below {
        (0..8).collect()
    } else {
        (0..8).rev().collect()
    };
    let checked_king = board
        .in_check()
        .then(|| board.king_square(board.side_to_move()));
    let border = "   +------------------------+\n";
    let mut text = String::new();
    if !style.color {
        text.push_str(border);
    }
    for &rank in &ranks {
        text.push_str(&format!(
            " {} {}",
            rank + 1,
            if style.color { "" } else { "|" }
        ));
        for &file in &files {
            let sq = Square::from_coords(file, rank);
            // On coloured squares an empty one needs no dot.
            let figure = match figure(board, sq, style.unicode) {
                '.' | '·' if style.color => ' ',
                f => f,
            };
            let is_marked = marked.contains(&sq);
            if style.color {
                let light = (file + rank) % 2 == 1;
                let background = match (Some(sq) == checked_king, is_marked, light) {
                    (true, _, _) => CHECK,
                    (_, true, true) => LIGHT_MARKED,
                    (_, true, false) => DARK_MARKED,
                    (_, false, true) => LIGHT,
                    (_, false, false) => DARK,
                };
                text.push_str(&format!(
                    "\x1b[48;5;{background}m\x1b[38;5;{FIGURE}m {figure} \x1b[0m"
                ));
            } else if is_marked {
                text.push_str(&format!("[{figure}]"));
            } else {
                text.push_str(&format!(" {figure} "));
            }
        }
        text.push_str(if style.color { "\n" } else { "|\n" });
    }
    if !style.color {
        text.push_str(border);
    }
    text.push_str("    ");
    for &file in &files {
        text.push_str(&format!(" {} ", (b'a' + file) as char));
    }
    text.push('\n');
    text
}

/// The character for what stands on `sq`: a figure (outlined for White, solid for Black,
/// as printed diagrams have them) or a letter (upper case for White), a dot if empty.
fn figure(board: &Board, sq: Square, unicode: bool) -> char {
    let Some(piece) = board.piece_on(sq) else {
        return if unicode { '·' } else { '.' };
    };
    if !unicode {
        return piece.char();
    }
    let white = piece.color() == Color::White;
    match (piece.kind(), white) {
        (PieceType::King, true) => '♔',
        (PieceType::Queen, true) => '♕',
        (PieceType::Rook, true) => '♖',
        (PieceType::Bishop, true) => '♗',
        (PieceType::Knight, true) => '♘',
        (PieceType::Pawn, true) => '♙',
        (PieceType::King, false) => '♚',
        (PieceType::Queen, false) => '♛',
        (PieceType::Rook, false) => '♜',
        (PieceType::Bishop, false) => '♝',
        (PieceType::Knight, false) => '♞',
        (PieceType::Pawn, false) => '♟',
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;

    #[test]
    fn plain_board_marks_the_last_move_and_flips() {
        let board = fen::parse(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            false,
        )
        .unwrap();
        let marked = [Square::parse("e2").unwrap(), Square::parse("e4").unwrap()];
        let text = draw(&board, Style::PLAIN, false, &marked);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], " 8 | r  n  b  q  k  b  n  r |");
        assert_eq!(lines[5], " 4 | .  .  .  . [P] .  .  . |");
        assert_eq!(lines[7], " 2 | P  P  P  P [.] P  P  P |");
        assert_eq!(lines[10], "     a  b  c  d  e  f  g  h ");
        let flipped = draw(&board, Style::PLAIN, true, &[]);
        let lines: Vec<&str> = flipped.lines().collect();
        assert_eq!(lines[1], " 1 | R  N  B  K  Q  B  N  R |");
        assert_eq!(lines[10], "     h  g  f  e  d  c  b  a ");
    }

    #[test]
    fn figures_and_colours() {
        let board = fen::parse("4k3/8/8/8/8/8/8/4K2R b - - 0 1", false).unwrap();
        let style = Style {
            unicode: true,
            color: true,
        };
        let text = draw(&board, style, false, &[]);
        assert!(text.contains('♔') && text.contains('♚') && text.contains('♖'));
        assert!(text.contains("\x1b[48;5;"));
        assert!(!text.contains("\x1b[48;5;210m"), "no king is in check");
        let check = fen::parse("4k3/8/8/8/8/8/8/4K2R w - - 0 1", false).unwrap();
        let mut after = check;
        after.play(crate::chess::notation::parse_san(&check, "Rh8+").unwrap());
        assert!(draw(&after, style, false, &[]).contains("\x1b[48;5;210m"));
    }
}
