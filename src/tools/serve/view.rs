//! How the server shows a game and its moves in JSON (see docs/serve.md): plain data that
//! `serde` writes, made from the board and the game's state. The rules of the game are in
//! `game.rs`; nothing here changes a game.

use super::tree::NodeView;
use crate::chess::movegen::legal_moves;
use crate::chess::notation::{to_san, to_uci};
use crate::chess::{Board, Color, Move, MoveKind, Square};
use crate::tools::engine::Eval;
use serde::Serialize;

/// `white` or `black`, as the JSON says it.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The square of the king in check, if the side to move is in check.
pub fn check_square(board: &Board) -> Option<String> {
    board
        .in_check()
        .then(|| board.king_square(board.side_to_move()).to_string())
}

/// Every legal move, as the board on the page needs them.
pub fn legal_views(board: &Board) -> Vec<MoveView> {
    legal_moves(board)
        .iter()
        .map(|&m| MoveView::new(board, m))
        .collect()
}

/// An evaluation in JSON: `{"cp": 35}` or `{"mate": -2}`, always from White's view.
#[derive(Serialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum EvalView {
    Cp(i32),
    Mate(i32),
}

impl EvalView {
    /// From an evaluation for `pov`.
    pub fn new(eval: Eval, pov: Color) -> EvalView {
        match eval.for_white(pov) {
            Eval::Centipawns(cp) => EvalView::Cp(cp),
            Eval::Mate(n) => EvalView::Mate(n),
        }
    }
}

/// A move as the page draws it: the squares a person clicks (castling: the king's
/// destination), its UCI and SAN, and the promotion piece.
#[derive(Serialize, Clone, Debug)]
pub struct MoveView {
    pub uci: String,
    pub san: String,
    pub from: String,
    pub to: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promotion: Option<char>,
}

impl MoveView {
    pub fn new(board: &Board, m: Move) -> MoveView {
        let to: Square = if m.kind() == MoveKind::Castling {
            board.castling_destinations(m.from(), m.to()).0
        } else {
            m.to()
        };
        MoveView {
            uci: to_uci(board, m),
            san: to_san(board, m),
            from: m.from().to_string(),
            to: to.to_string(),
            promotion: m.promotion_piece().map(|p| p.char()),
        }
    }
}

#[derive(Serialize, Debug)]
pub struct ClockView {
    pub white_ms: u64,
    pub black_ms: u64,
    /// The side whose clock is running; none once the game is over.
    pub running: Option<&'static str>,
    pub base_ms: u64,
    pub increment_ms: u64,
}

/// A game in JSON (see docs/serve.md).
#[derive(Serialize, Debug)]
pub struct GameView {
    pub id: u64,
    pub mode: &'static str,
    pub human: Option<&'static str>,
    pub fen: String,
    pub start_fen: String,
    pub from_start: bool,
    pub turn: &'static str,
    pub ply: usize,
    pub moves: Vec<MoveView>,
    /// The position after each ply (`fens[0]` is the start), and the square of a king in
    /// check there.
    pub fens: Vec<String>,
    pub checks: Vec<Option<String>>,
    /// The opening each of those positions is, where the page's table names it
    /// (`openings.rs`).
    pub openings: Vec<Option<OpeningView>>,
    /// The opening a game read from PGN names in its tags (`ECO` and `Opening`).
    pub opening_tag: Option<String>,
    pub legal: Vec<MoveView>,
    pub check: Option<String>,
    pub last: Option<[String; 2]>,
    pub status: &'static str,
    pub result: String,
    pub reason: String,
    pub clock: Option<ClockView>,
    pub movetime_ms: u64,
    pub elo: Option<i32>,
    /// Whether the game against Tarpon may still be aborted (see `Game::abort`).
    pub can_abort: bool,
    /// The players' names of a game read from PGN.
    pub white: Option<String>,
    pub black: Option<String>,
    /// Every move of the board (node 0 is the start), and the nodes of the line shown
    /// (`moves` are their moves).
    pub tree: Vec<NodeView>,
    pub line: Vec<usize>,
    pub searching: bool,
    pub pgn: String,
}

/// An opening's code and name, as the page shows them.
#[derive(Serialize, Clone, Debug)]
pub struct OpeningView {
    pub eco: &'static str,
    pub name: &'static str,
}

/// The opening `board` is, where the page's table names it.
pub fn opening_view(board: &Board) -> Option<OpeningView> {
    super::openings::name(board).map(|o| OpeningView {
        eco: o.eco,
        name: o.name,
    })
}
