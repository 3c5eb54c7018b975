//! Static evaluation.
//!
//! For now Tarpon evaluates a position by material plus piece-square tables, each with a
//! middlegame and an endgame value, blended by the game phase ("tapered" evaluation). The
//! numbers live in [`psqt`]. Everything else in the engine only calls [`evaluate`] (and
//! [`trace`] for the `eval` command), so a fuller evaluation can later replace the body
//! without touching its callers.
//!
//! There is no side-to-move (tempo) bonus: the score of a position and of its colour-flipped
//! mirror are exactly equal, and the start position scores 0.

pub mod psqt;

use crate::chess::{Board, Color, PieceType};
use psqt::{EG_PST, EG_VALUE, MAX_PHASE, MG_PST, MG_VALUE, PHASE_WEIGHT};
use std::fmt::Write;

/// The score of the position in centipawns from the side to move's point of view
/// (positive: good for the side to move).
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    let white = evaluate_white(board);
    match board.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// The score in centipawns from White's point of view, whoever is to move.
pub fn evaluate_white(board: &Board) -> i32 {
    let (mut mg, mut eg) = (0, 0);
    for kind in PieceType::ALL {
        for sq in board.pieces(Color::White, kind) {
            let [m, e] = psqt::piece_square(Color::White, kind, sq);
            mg += m;
            eg += e;
        }
        for sq in board.pieces(Color::Black, kind) {
            let [m, e] = psqt::piece_square(Color::Black, kind, sq);
            mg -= m;
            eg -= e;
        }
    }
    taper(mg, eg, phase(board))
}

/// The game phase: 24 (`MAX_PHASE`) with all minor and major pieces on the board, falling
/// to 0 as they come off (knight or bishop 1, rook 2, queen 4). Clamped to `MAX_PHASE`, so
/// extra promoted pieces cannot push it past pure middlegame.
pub fn phase(board: &Board) -> i32 {
    let mut phase = 0;
    for kind in [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ] {
        phase += PHASE_WEIGHT[kind.index()] * board.kind(kind).count() as i32;
    }
    phase.min(MAX_PHASE)
}

/// Blends a middlegame and an endgame score by `phase` (0..=`MAX_PHASE`). Division rounds
/// towards zero, which treats a score and its negation alike, keeping colour symmetry.
#[inline(always)]
pub fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// A middlegame/endgame pair of scores.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tapered {
    pub mg: i32,
    pub eg: i32,
}

impl Tapered {
    fn add(&mut self, mg: i32, eg: i32) {
        self.mg += mg;
        self.eg += eg;
    }

    fn minus(self, other: Tapered) -> Tapered {
        Tapered {
            mg: self.mg - other.mg,
            eg: self.eg - other.eg,
        }
    }
}

/// The evaluation split into its terms, each counted for both colours from that colour's
/// own point of view (the `eval` command's table).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    /// Piece values, `[colour]`.
    pub material: [Tapered; 2],
    /// Piece-square bonuses, `[colour][piece type]`.
    pub pst: [[Tapered; 6]; 2],
    /// See [`phase`].
    pub phase: i32,
}

impl Breakdown {
    /// Everything one colour has: material plus all its piece-square bonuses.
    pub fn side_total(&self, color: Color) -> Tapered {
        let mut total = self.material[color.index()];
        for t in self.pst[color.index()] {
            total.add(t.mg, t.eg);
        }
        total
    }

    /// The blended score from White's point of view; equals [`evaluate_white`].
    pub fn white_score(&self) -> i32 {
        let diff = self
            .side_total(Color::White)
            .minus(self.side_total(Color::Black));
        taper(diff.mg, diff.eg, self.phase)
    }
}

/// Computes the evaluation term by term. Slower than [`evaluate`], which sums the same
/// numbers from a combined table; the tests check the two agree.
pub fn breakdown(board: &Board) -> Breakdown {
    let mut b = Breakdown {
        phase: phase(board),
        ..Breakdown::default()
    };
    for color in Color::ALL {
        for kind in PieceType::ALL {
            let k = kind.index();
            for sq in board.pieces(color, kind) {
                let i = psqt::table_index(color, sq);
                b.material[color.index()].add(MG_VALUE[k], EG_VALUE[k]);
                b.pst[color.index()][k].add(MG_PST[k][i], EG_PST[k][i]);
            }
        }
    }
    b
}

/// A human-readable table of the evaluation for the `eval` command: each term's
/// middlegame and endgame values for White, Black and their difference, then the phase
/// and the blended score. The last line is always
/// `Final evaluation: <cp> (white side)`, `<cp>` being [`evaluate`] seen from White
/// ([`evaluate_white`]); there is no newline after it.
pub fn trace(board: &Board) -> String {
    let b = breakdown(board);
    let mut out = String::new();
    let rule = format!("{:-<16}+{:-<15}+{:-<15}+{:-<15}\n", "", "", "", "");
    let header = format!(
        "{:>15} | {:^13} | {:^13} | {:^13}",
        "Term", "White", "Black", "White-Black"
    );
    let _ = writeln!(out, "{}", header.trim_end());
    let _ = writeln!(
        out,
        "{:>15} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
        "", "MG", "EG", "MG", "EG", "MG", "EG"
    );
    out.push_str(&rule);
    let row = |out: &mut String, name: &str, w: Tapered, bl: Tapered| {
        let d = w.minus(bl);
        let _ = writeln!(
            out,
            "{:>15} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
            name, w.mg, w.eg, bl.mg, bl.eg, d.mg, d.eg
        );
    };
    row(&mut out, "Material", b.material[0], b.material[1]);
    let names = [
        "Pawn PST",
        "Knight PST",
        "Bishop PST",
        "Rook PST",
        "Queen PST",
        "King PST",
    ];
    for (k, name) in names.iter().enumerate() {
        row(&mut out, name, b.pst[0][k], b.pst[1][k]);
    }
    out.push_str(&rule);
    let (w, bl) = (b.side_total(Color::White), b.side_total(Color::Black));
    row(&mut out, "Total", w, bl);
    let d = w.minus(bl);
    // The fast path is the one the engine uses; the breakdown must agree with it.
    let white = evaluate_white(board);
    debug_assert_eq!(white, b.white_score());
    let _ = writeln!(
        out,
        "\nPhase: {} / {max} ({max} = middlegame, 0 = endgame)",
        b.phase,
        max = MAX_PHASE
    );
    let _ = writeln!(
        out,
        "Tapered: ({} * {} + {} * {}) / {} = {}",
        d.mg,
        b.phase,
        d.eg,
        MAX_PHASE - b.phase,
        MAX_PHASE,
        white
    );
    let _ = write!(out, "\nFinal evaluation: {white} (white side)");
    out
}
