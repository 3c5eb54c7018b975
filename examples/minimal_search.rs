//! The smallest search that plays chess, over Tarpon's own board and move generator: the
//! baseline that `src/search` improves on, written the way a tutorial writes its first
//! engine. Read it first; docs/architecture.md then follows the real search step by step
//! and says what each of its steps adds to this one.
//!
//! ```sh
//! cargo run --release --example minimal_search -- "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4" 4
//! ```
//!
//! Three parts, and nothing else:
//! - **Evaluation**: material plus a small bonus for pieces near the centre and pawns that
//!   advanced, from the side to move's point of view (the real engine uses a neural
//!   network, `src/eval/nnue`).
//! - **Alpha-beta** (negamax form): try every legal move to a fixed depth, and stop looking
//!   at a move as soon as it is shown to be worse than one already found (`alpha >= beta`).
//!   Captures are tried first, the most valuable victim by the least valuable attacker
//!   (MVV-LVA): alpha-beta cuts off sooner the better the first moves are.
//! - **Quiescence**: at depth 0, keep searching captures only, so that the evaluation is
//!   never taken in the middle of an exchange.

use tarpon::chess::movegen::legal_moves;
use tarpon::chess::{Color, Move, PieceType, Position, Square};

/// A mate is worth more than any material; mates found sooner are worth more (`MATE - ply`).
pub const MATE: i32 = 30_000;
const INFINITY: i32 = 32_000;

/// Pawn, knight, bishop, rook, queen, king, in centipawns.
const VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// The static evaluation, in centipawns for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = 0;
    for sq in Square::all() {
        let Some(piece) = pos.piece_on(sq) else {
            continue;
        };
        let kind = piece.kind();
        // Rank and centre from the piece owner's side of the board.
        let rank = match piece.color() {
            Color::White => sq.rank() as i32,
            Color::Black => 7 - sq.rank() as i32,
        };
        // 3 on the four centre squares, down to 0 on the edge.
        let (f, r) = (2 * sq.file() as i32 - 7, 2 * sq.rank() as i32 - 7);
        let centre = 3 - f.abs().max(r.abs()) / 2;
        let bonus = match kind {
            PieceType::Pawn => 5 * rank,
            PieceType::Knight | PieceType::Bishop => 8 * centre,
            _ => 0,
        };
        let value = VALUE[kind as usize] + bonus;
        score += if piece.color() == pos.side_to_move() {
            value
        } else {
            -value
        };
    }
    score
}

/// Whether a move takes a piece (en passant counts: its target square is empty).
fn is_capture(pos: &Position, m: Move) -> bool {
    pos.piece_on(m.to()).is_some() || m.kind() == tarpon::chess::MoveKind::EnPassant
}

/// The legal moves, captures first by MVV-LVA (the biggest victim, then the smallest
/// attacker), then the quiet moves.
fn ordered_moves(pos: &Position) -> Vec<Move> {
    let mut moves: Vec<Move> = legal_moves(pos).iter().copied().collect();
    let order = |m: &Move| {
        let victim = pos.piece_on(m.to()).map_or(0, |p| VALUE[p.kind() as usize]);
        let attacker = pos
            .piece_on(m.from())
            .map_or(0, |p| VALUE[p.kind() as usize]);
        if is_capture(pos, *m) {
            -(10 * victim.max(VALUE[0]) - attacker / 10)
        } else {
            0
        }
    };
    moves.sort_by_key(order);
    moves
}

/// Captures only, until the position is quiet: the side to move may also "stand pat",
/// take the evaluation as it is, since it is never forced to capture.
fn quiescence(pos: &mut Position, mut alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let stand_pat = evaluate(pos);
    if stand_pat >= beta {
        return stand_pat;
    }
    alpha = alpha.max(stand_pat);
    for m in ordered_moves(pos) {
        if !is_capture(pos, m) {
            continue;
        }
        pos.make(m);
        let score = -quiescence(pos, -beta, -alpha, nodes);
        pos.unmake();
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
    }
    alpha
}

/// The score of `pos` searched `depth` plies deep, `ply` plies from the root, within the
/// window (`alpha`, `beta`): a score at or above `beta` means the opponent will not allow
/// this position, so the rest of its moves need not be tried.
fn alphabeta(
    pos: &mut Position,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    ply: i32,
    nodes: &mut u64,
) -> i32 {
    let moves = legal_moves(pos);
    if moves.is_empty() {
        // Checkmate (the sooner, the worse for the side to move), or stalemate.
        return if pos.in_check() { -MATE + ply } else { 0 };
    }
    if pos.halfmove_clock() >= 100 || pos.repetitions() > 0 {
        return 0;
    }
    if depth == 0 {
        return quiescence(pos, alpha, beta, nodes);
    }
    *nodes += 1;
    let mut best = -INFINITY;
    for m in ordered_moves(pos) {
        pos.make(m);
        let score = -alphabeta(pos, depth - 1, -beta, -alpha, ply + 1, nodes);
        pos.unmake();
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break; // a cutoff: the opponent has a better choice earlier on
        }
    }
    best
}

/// The best move at `depth` plies, its score, and the nodes searched.
pub fn best_move(pos: &Position, depth: u32) -> (Move, i32, u64) {
    let mut pos = pos.clone();
    let mut nodes = 0;
    let (mut best, mut alpha) = (Move::NONE, -INFINITY);
    for m in ordered_moves(&pos) {
        pos.make(m);
        let score = -alphabeta(
            &mut pos,
            depth.saturating_sub(1),
            -INFINITY,
            -alpha,
            1,
            &mut nodes,
        );
        pos.unmake();
        if score > alpha || best == Move::NONE {
            (best, alpha) = (m, score);
        }
    }
    (best, alpha, nodes)
}

#[allow(dead_code)]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fen = args
        .first()
        .map_or(tarpon::chess::fen::START_FEN, String::as_str);
    let depth = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(4);
    let pos = match Position::from_fen(fen, false) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("minimal_search: bad FEN '{fen}': {e}");
            std::process::exit(1);
        }
    };
    let start = std::time::Instant::now();
    let (best, score, nodes) = best_move(&pos, depth);
    let text = tarpon::chess::notation::to_uci(pos.board(), best);
    println!(
        "depth {depth}: bestmove {text} score {score} cp, {nodes} nodes in {:.2?}",
        start.elapsed()
    );
}
