//! Writing the weights back as Rust source: `src/eval/weights.rs`, in exactly the layout
//! of the file in the repository (a test checks that the file there is what this writes
//! for its own numbers), so that a tuning run shows up as a diff of numbers only.
//!
//! Arrays are marked `#[rustfmt::skip]` and laid out eight pairs to a line (a
//! piece-square table then reads like the board, rank 8 first); single pairs are plain
//! constants that rustfmt leaves as they are. `cargo fmt --check` passes on the output.

use crate::eval::S;
use crate::eval::params::INFO;
use std::fmt::Write;

/// The first line of the header that names where the values came from.
const SOURCE_PREFIX: &str = "//! Values: ";

/// The text of `weights.rs` for `values` (by flat index), with `source` saying where the
/// numbers come from (one line).
pub fn render(values: &[S], source: &str) -> String {
    let mut out = String::new();
    out.push_str(
        "//! Every weight of the evaluation, as `S(middlegame, endgame)` pairs in centipawns.\n\
         //!\n\
         //! GENERATED FILE: `tarpon tune` writes it, so that a tuning run is one reviewable diff.\n\
         //! The names, shapes, documentation and meaning of the weights are declared in\n\
         //! `params.rs`; this file holds only their numbers, and a test checks that it is exactly\n\
         //! what the generator writes for those numbers.\n\
         //!\n",
    );
    let _ = writeln!(out, "{SOURCE_PREFIX}{}", source.replace('\n', " "));
    out.push_str("\nuse super::S;\n");
    for info in INFO {
        out.push('\n');
        for line in info.doc.lines() {
            let _ = writeln!(out, "///{line}");
        }
        let own = &values[info.offset..info.offset + info.len];
        if info.array {
            let _ = writeln!(out, "#[rustfmt::skip]");
            let _ = writeln!(out, "pub const {}: [S; {}] = [", info.name, info.len);
            for row in own.chunks(8) {
                let cells: Vec<String> = row
                    .iter()
                    .map(|s| format!("S({:>4}, {:>4}),", s.mg(), s.eg()))
                    .collect();
                let _ = writeln!(out, "    {}", cells.join(" "));
            }
            out.push_str("];\n");
        } else {
            let s = own[0];
            let _ = writeln!(
                out,
                "pub const {}: S = S({}, {});",
                info.name,
                s.mg(),
                s.eg()
            );
        }
    }
    out
}

/// The `source` line of a rendered file.
pub fn source_of(text: &str) -> Option<&str> {
    text.lines().find_map(|l| l.strip_prefix(SOURCE_PREFIX))
}

/// Every `S(mg, eg)` pair in a rendered file, in order (code lines only).
pub fn parse_pairs(text: &str) -> Vec<S> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
        let mut rest = line;
        while let Some(at) = rest.find("S(") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            let numbers: Vec<i32> = rest[..end]
                .split(',')
                .filter_map(|n| n.trim().parse().ok())
                .collect();
            if let [mg, eg] = numbers[..] {
                out.push(S(mg, eg));
            }
            rest = &rest[end..];
        }
    }
    out
}

/// Real-valued weights rounded to the nearest centipawn.
pub fn round(weights: &[[f64; 2]]) -> Vec<S> {
    weights
        .iter()
        .map(|[mg, eg]| S(mg.round() as i32, eg.round() as i32))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::params;

    const CHECKED_IN: &str = include_str!("../../eval/weights.rs");

    #[test]
    fn the_checked_in_weights_are_exactly_what_the_writer_writes() {
        let source = source_of(CHECKED_IN).expect("a Values: line");
        let rendered = render(&params::values(), source);
        if rendered != CHECKED_IN {
            let first = rendered
                .lines()
                .zip(CHECKED_IN.lines())
                .position(|(a, b)| a != b);
            panic!("weights.rs differs from the generator's output at line {first:?}");
        }
    }

    #[test]
    fn rendered_numbers_read_back() {
        // Every value different, negative and wide ones included.
        let values: Vec<S> = (0..params::COUNT as i32)
            .map(|i| S(i * 7 - 2000, 1500 - i * 3))
            .collect();
        let text = render(&values, "test");
        assert_eq!(parse_pairs(&text), values);
        assert_eq!(source_of(&text), Some("test"));
        assert_eq!(parse_pairs(CHECKED_IN), params::values());
    }

    #[test]
    fn rounds_to_nearest() {
        assert_eq!(
            round(&[[1.5, -1.5], [0.49, -0.49]]),
            vec![S(2, -2), S(0, 0)]
        );
    }
}
