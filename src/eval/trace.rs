//! Seeing the evaluation: a [`Tracer`] that records how often every weight was counted,
//! and the term table that `eval` (UCI) and `tarpon eval` print from it.
//!
//! The same record feeds the tuner: the linear part of the evaluation is the sum of
//! coefficient times weight, king danger is rebuilt from its recorded inputs, and the
//! [`Blend`] says how the totals became the final score.

use super::params::{self, COUNT, INFO, Kind};
use super::{Blend, FIFTY_MOVE_BASE, MAX_PHASE, S, SCALE_MAX, Tracer};
use crate::chess::{Board, Color};
use std::fmt::Write;

/// Everything one evaluation counted.
#[derive(Clone, Debug)]
pub struct Trace {
    /// `coef[i][colour]`: how often weight `i` (flat index) was counted for that colour;
    /// for a danger weight, towards the danger of that colour's king.
    pub coef: Vec<[i32; 2]>,
    /// The danger sum against each king, and the penalty it cost.
    pub danger: [S; 2],
    pub penalty: [S; 2],
    pub blend: Blend,
    /// The scale factor that would apply if White, or Black, were the side ahead (the
    /// tuner needs both: a change of weights can change which side is ahead).
    pub scale_if: [i32; 2],
}

impl Default for Trace {
    fn default() -> Self {
        Trace {
            coef: vec![[0; 2]; COUNT],
            danger: [S::ZERO; 2],
            penalty: [S::ZERO; 2],
            blend: Blend::default(),
            scale_if: [SCALE_MAX; 2],
        }
    }
}

impl Tracer for Trace {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        self.coef[index][color.index()] += count;
    }

    fn king_danger(&mut self, color: Color, danger: S, penalty: S) {
        self.danger[color.index()] = danger;
        self.penalty[color.index()] = penalty;
    }

    fn finish(&mut self, blend: &Blend) {
        self.blend = *blend;
    }
}

/// Evaluates `board` recording every weight used. `blend.white` is the score, equal to
/// what the engine's evaluation returns (from White's point of view).
pub fn traced(board: &Board) -> Trace {
    let mut t = Trace::default();
    super::run_traced(board, &mut t);
    t.scale_if = Color::ALL.map(|ahead| super::endgame::scale_factor(board, ahead));
    t
}

impl Trace {
    /// The sum of coefficient times value over the weights of `kind` labelled `label`, for
    /// `color`.
    fn sum(&self, values: &[S], label: &str, color: Color) -> S {
        INFO.iter()
            .filter(|info| info.label == label && info.kind == Kind::Linear)
            .flat_map(|info| info.offset..info.offset + info.len)
            .fold(S::ZERO, |acc, i| {
                acc + values[i] * self.coef[i][color.index()]
            })
    }

    /// The rows of the term table, `(label, white, black)`, in the order of the weights.
    pub fn rows(&self) -> Vec<(&'static str, S, S)> {
        let values = params::values();
        let mut labels: Vec<(&'static str, Kind)> = Vec::new();
        for info in INFO {
            if !labels.iter().any(|(l, _)| *l == info.label) {
                labels.push((info.label, info.kind));
            }
        }
        labels
            .into_iter()
            .map(|(label, kind)| match kind {
                Kind::Linear => (
                    label,
                    self.sum(&values, label, Color::White),
                    self.sum(&values, label, Color::Black),
                ),
                Kind::Danger => (label, -self.penalty[0], -self.penalty[1]),
            })
            .collect()
    }
}

/// A human-readable table of the evaluation for the `eval` command: each term's
/// middlegame and endgame values for White, Black and their difference, then the phase,
/// the scaling and the blended score. The last line is always
/// `Final evaluation: <cp> (white side)`, `<cp>` being the hand-crafted evaluation seen
/// from White; there is no newline after it. (The `eval` command adds the network's score
/// before that line: see `nnue::eval_text`.)
pub fn trace(board: &Board) -> String {
    let t = traced(board);
    let b = t.blend;
    let mut out = String::new();
    let rule = format!("{:-<18}+{:-<15}+{:-<15}+{:-<15}\n", "", "", "", "");
    let header = format!(
        "{:>17} | {:^13} | {:^13} | {:^13}",
        "Term", "White", "Black", "White-Black"
    );
    let _ = writeln!(out, "{}", header.trim_end());
    let _ = writeln!(
        out,
        "{:>17} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
        "", "MG", "EG", "MG", "EG", "MG", "EG"
    );
    out.push_str(&rule);
    let row = |out: &mut String, name: &str, w: S, bl: S| {
        let d = w - bl;
        let _ = writeln!(
            out,
            "{:>17} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
            name,
            w.mg(),
            w.eg(),
            bl.mg(),
            bl.eg(),
            d.mg(),
            d.eg()
        );
    };
    let (mut white, mut black) = (S::ZERO, S::ZERO);
    for (label, w, bl) in t.rows() {
        row(&mut out, label, w, bl);
        white += w;
        black += bl;
    }
    out.push_str(&rule);
    row(&mut out, "Total", white, black);
    debug_assert_eq!(white - black, b.total, "the table must add up to the score");

    let _ = writeln!(
        out,
        "\nKing danger: against White {} mg {} eg, against Black {} mg {} eg \
         (penalty mg = danger^2 / {}, eg = danger / {})",
        t.danger[0].mg(),
        t.danger[0].eg(),
        t.danger[1].mg(),
        t.danger[1].eg(),
        super::king::DANGER_MG_DIVISOR,
        super::king::DANGER_EG_DIVISOR,
    );
    let _ = writeln!(
        out,
        "Phase: {} / {max} ({max} = middlegame, 0 = endgame)",
        b.phase,
        max = MAX_PHASE
    );
    let _ = writeln!(
        out,
        "Tapered: ({} * {} + {} * {}) / {} = {}",
        b.total.mg(),
        b.phase,
        b.total.eg(),
        MAX_PHASE - b.phase,
        MAX_PHASE,
        b.tapered
    );
    let _ = writeln!(
        out,
        "Scale: {} / {SCALE_MAX} for {} as the side ahead ({SCALE_MAX} = not a drawish ending)",
        b.scale,
        if b.tapered >= 0 { "White" } else { "Black" },
    );
    let _ = writeln!(
        out,
        "Fifty-move scaling: clock {}, * ({FIFTY_MOVE_BASE} - {}) / {FIFTY_MOVE_BASE}",
        b.halfmove, b.halfmove
    );
    let _ = write!(out, "\nFinal evaluation: {} (white side)", b.white);
    out
}
