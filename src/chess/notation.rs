//! Move notation: UCI text (`e2e4`, `e7e8q`, castling as `e1g1` or, in Chess960, as king
//! takes own rook `e1h1`) and Standard Algebraic Notation (`Nf3`, `exd5`, `O-O`, `e8=Q+`).

use super::board::Board;
use super::movegen::{gives_check, legal_moves};
use super::moves::{Move, MoveKind, MoveList};
use super::types::{PieceType, Square};
use std::fmt;

/// Why a move text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not move notation at all.
    Syntax(String),
    /// The text is a well-formed move that is not legal in the position.
    Illegal(String),
    /// A SAN move that more than one legal move matches.
    Ambiguous(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MoveError::Syntax(m) => write!(f, "'{m}' is not a move"),
            MoveError::Illegal(m) => write!(f, "illegal move '{m}'"),
            MoveError::Ambiguous(m) => write!(f, "ambiguous move '{m}'"),
        }
    }
}

impl std::error::Error for MoveError {}

/// The UCI text of a move. Castling is written king-to-destination (`e1g1`) unless the
/// board plays Chess960, where it is king-takes-rook (`e1h1`) as the UCI convention says.
pub fn to_uci(board: &Board, m: Move) -> String {
    if m == Move::NONE || m == Move::NULL {
        return "0000".to_string();
    }
    let to = if m.kind() == MoveKind::Castling && !board.is_chess960() {
        board.castling_destinations(m.from(), m.to()).0
    } else {
        m.to()
    };
    let mut text = format!("{}{}", m.from(), to);
    if let Some(p) = m.promotion_piece() {
        text.push(p.char());
    }
    text
}

/// Reads a move in UCI notation and returns it if it is legal here. Both castling forms are
/// accepted in either mode (`e1g1` and `e1h1`); when a text could be an ordinary king move
/// as well (possible in Chess960), the ordinary move wins.
pub fn parse_uci(board: &Board, text: &str) -> Result<Move, MoveError> {
    let syntax = || MoveError::Syntax(text.to_string());
    // `str::get` refuses to split inside a multi-byte character, so odd input cannot panic.
    let from = text.get(0..2).and_then(Square::parse).ok_or_else(syntax)?;
    let to = text.get(2..4).and_then(Square::parse).ok_or_else(syntax)?;
    let b = text.as_bytes();
    let promotion_ok = b.len() == 4 || (b.len() == 5 && matches!(b[4], b'q' | b'r' | b'b' | b'n'));
    if !promotion_ok {
        return Err(syntax());
    }
    let promotion = b.get(4).and_then(|&c| PieceType::from_char(c as char));
    let moves = legal_moves(board);
    let plain = moves.iter().find(|m| {
        m.kind() != MoveKind::Castling
            && m.from() == from
            && m.to() == to
            && m.promotion_piece() == promotion
    });
    let castle = || {
        moves.iter().find(|m| {
            m.kind() == MoveKind::Castling
                && promotion.is_none()
                && m.from() == from
                && (m.to() == to || board.castling_destinations(m.from(), m.to()).0 == to)
        })
    };
    plain
        .or_else(castle)
        .copied()
        .ok_or_else(|| MoveError::Illegal(text.to_string()))
}

/// The SAN of a legal move, with `+` or `#` for check and mate.
pub fn to_san(board: &Board, m: Move) -> String {
    let mut san = san_without_suffix(board, m);
    if gives_check(board, m) {
        let mut after = *board;
        after.play(m);
        san.push(if legal_moves(&after).is_empty() {
            '#'
        } else {
            '+'
        });
    }
    san
}

fn san_without_suffix(board: &Board, m: Move) -> String {
    if m.kind() == MoveKind::Castling {
        return if m.to() > m.from() { "O-O" } else { "O-O-O" }.to_string();
    }
    let Some(piece) = board.piece_on(m.from()) else {
        return "--".to_string();
    };
    let capture = board.piece_on(m.to()).is_some() || m.kind() == MoveKind::EnPassant;
    let mut san = String::new();
    if piece.kind() == PieceType::Pawn {
        if capture {
            san.push((b'a' + m.from().file()) as char);
        }
    } else {
        san.push(piece.kind().char().to_ascii_uppercase());
        // Disambiguate among other pieces of the same kind that can reach the same square:
        // by file if that is enough, else by rank, else by both.
        let rivals: Vec<Square> = legal_moves(board)
            .iter()
            .filter(|o| o.to() == m.to() && o.from() != m.from() && o.kind() != MoveKind::Castling)
            .filter(|o| board.piece_on(o.from()) == Some(piece))
            .map(|o| o.from())
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|s| s.file() == m.from().file());
            let same_rank = rivals.iter().any(|s| s.rank() == m.from().rank());
            if !same_file {
                san.push((b'a' + m.from().file()) as char);
            } else if !same_rank {
                san.push((b'1' + m.from().rank()) as char);
            } else {
                san.push_str(&m.from().to_string());
            }
        }
    }
    if capture {
        san.push('x');
    }
    san.push_str(&m.to().to_string());
    if let Some(p) = m.promotion_piece() {
        san.push('=');
        san.push(p.char().to_ascii_uppercase());
    }
    san
}

/// Reads a move in SAN and returns it if exactly one legal move matches. Lenient in what
/// people and files write: check and annotation marks (`+ # ! ?`) are ignored, the capture
/// sign is optional, castling may use `O` or `0`, the promotion `=` may be left out, the
/// piece may be a figurine (`♘f3`), and the long form names the square moved from
/// (`Ng1-f3`, `e2-e4`, `e5xf6`).
pub fn parse_san(board: &Board, text: &str) -> Result<Move, MoveError> {
    match *san_matches(board, text)? {
        [m] => Ok(m),
        [] => Err(MoveError::Illegal(text.to_string())),
        _ => Err(MoveError::Ambiguous(text.to_string())),
    }
}

/// The text with each chess figurine (`♔♕♖♗♘` and the black ones) as its piece letter; a
/// pawn figurine, which SAN leaves out, is dropped.
fn without_figurines(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() {
        return text.into();
    }
    let letter = |c: char| match c {
        '♔' | '♚' => Some('K'),
        '♕' | '♛' => Some('Q'),
        '♖' | '♜' => Some('R'),
        '♗' | '♝' => Some('B'),
        '♘' | '♞' => Some('N'),
        '♙' | '♟' => None,
        c => Some(c),
    };
    text.chars().filter_map(letter).collect::<String>().into()
}

/// Every legal move that a SAN text, read as `parse_san` reads it, fits: one for a good
/// move, none for an illegal one, several for an ambiguous one (`Nb5` with knights on c3
/// and d4), so that a message can name them. An error only if the text is not SAN.
pub fn san_matches(board: &Board, text: &str) -> Result<MoveList, MoveError> {
    let syntax = || MoveError::Syntax(text.to_string());
    let letters = without_figurines(text);
    let core = letters.trim_end_matches(['+', '#', '!', '?']);
    let moves = legal_moves(board);
    let mut found = MoveList::new();

    if matches!(core, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
        let short = core.len() == 3;
        if let Some(&m) = moves
            .iter()
            .find(|m| m.kind() == MoveKind::Castling && (m.to() > m.from()) == short)
        {
            found.push(m);
        }
        return Ok(found);
    }
    if !core.is_ascii() || core.len() < 2 {
        return Err(syntax());
    }

    // Split off the piece letter and the promotion, then the target square.
    let mut rest = core;
    let kind = match rest.chars().next() {
        Some(c @ ('N' | 'B' | 'R' | 'Q' | 'K')) => {
            rest = &rest[1..];
            PieceType::from_char(c).unwrap_or(PieceType::Pawn)
        }
        _ => PieceType::Pawn,
    };
    let mut promotion = None;
    if let Some(c @ ('N' | 'B' | 'R' | 'Q' | 'n' | 'b' | 'r' | 'q')) = rest.chars().last()
        && kind == PieceType::Pawn
    {
        promotion = PieceType::from_char(c);
        rest = rest[..rest.len() - 1].trim_end_matches('=');
    }
    if rest.len() < 2 {
        return Err(syntax());
    }
    let to = Square::parse(&rest[rest.len() - 2..]).ok_or_else(syntax)?;
    let qualifier = rest[..rest.len() - 2].trim_end_matches(['x', ':', '-']);
    let (mut file, mut rank) = (None, None);
    for c in qualifier.chars() {
        match c {
            'a'..='h' if file.is_none() && rank.is_none() => file = Some(c as u8 - b'a'),
            '1'..='8' if rank.is_none() => rank = Some(c as u8 - b'1'),
            _ => return Err(syntax()),
        }
    }
    // A pawn move written without a file ("d5") is an advance along the target's file:
    // a pawn capture always names the file it comes from, so "d5" never means "exd5".
    if kind == PieceType::Pawn && file.is_none() {
        file = Some(to.file());
    }

    for &m in moves.iter().filter(|m| {
        m.kind() != MoveKind::Castling
            && m.to() == to
            && board.piece_on(m.from()).map(|p| p.kind()) == Some(kind)
            && m.promotion_piece() == promotion
            && file.is_none_or(|f| m.from().file() == f)
            && rank.is_none_or(|r| m.from().rank() == r)
    }) {
        found.push(m);
    }
    Ok(found)
}
