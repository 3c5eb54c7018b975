//! The fuzz targets' bodies (`fuzz/src/lib.rs`) on stable Rust, in every `cargo test`:
//! each target replays its seeds (`fuzz/seeds/<target>/`) and every input a fuzzer once
//! failed on (`fuzz/regressions/<target>/`), then a few thousand seeded mutations of them.
//! The mutations are no substitute for coverage-guided fuzzing (see `fuzz/README.md`), but
//! they run everywhere, are the same on every run, and keep the bodies themselves working.

#[path = "../../fuzz/src/lib.rs"]
mod bodies;

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::PathBuf;
use tarpon::rng::SplitMix64;

/// The inputs of `folder` under `fuzz/`, for one target, with their file names.
fn inputs(folder: &str, target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(folder)
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .flatten()
        .map(|e| {
            let name = format!("{folder}/{target}/{}", e.file_name().to_string_lossy());
            (name, std::fs::read(e.path()).expect("read a fuzz input"))
        })
        .collect();
    files.sort();
    files
}

/// Runs `body` on `input`; on a panic, says which input it was before passing it on.
fn run(body: bodies::Body, name: &str, input: &[u8]) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(|| body(input))) {
        eprintln!(
            "fuzz input {name} failed ({} bytes): {:?}",
            input.len(),
            String::from_utf8_lossy(input)
        );
        resume_unwind(panic);
    }
}

/// Words worth splicing into text inputs: what the parsers look for.
const WORDS: &[&str] = &[
    " ",
    "\n",
    "\r\n",
    "\t",
    "/",
    "-",
    "0",
    "1",
    "8",
    "9",
    "255",
    "65536",
    "-1",
    "99999999999999999999",
    "w",
    "b",
    "KQkq",
    "HAha",
    "e3",
    "e6",
    "e1g1",
    "e1h1",
    "e7e8q",
    "O-O",
    "O-O-O",
    "Nf3",
    "exd6",
    "=Q",
    "+",
    "#",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "perft",
    "depth",
    "nodes",
    "wtime",
    "btime",
    "winc",
    "movetime",
    "infinite",
    "ponder",
    "ponderhit",
    "stop",
    "isready",
    "ucinewgame",
    "setoption name",
    "value",
    "Hash",
    "Threads",
    "MultiPV",
    "Clear Hash",
    "UCI_Chess960",
    "OwnBook",
    "BookFile",
    "EvalFile",
    "Use NNUE",
    "true",
    "false",
    "searchmoves",
    "mate",
    "quit",
    "d",
    "eval",
    "é",
    "\u{0}",
    "[",
    "]",
    "\"",
    "\\",
    "{",
    "}",
    "(",
    ")",
    ";",
    "%",
    "$1",
    "1.",
    "1...",
    "*",
    "1-0",
    "1/2-1/2",
    "--",
    "e.p.",
    "[FEN \"",
    "[Variant \"chess960\"]",
    "bm",
    "am",
    "dm",
    "id",
    "hmvc",
    "fmvn",
];

/// A mutation of `input`: a few random edits of bytes, ranges and words, sometimes spliced
/// with `other`. `keep_length` limits the edits to overwriting (a Syzygy table must keep
/// its size to get past the first check).
fn mutate(input: &[u8], other: &[u8], rng: &mut SplitMix64, keep_length: bool) -> Vec<u8> {
    let mut data = input.to_vec();
    let below = |rng: &mut SplitMix64, n: usize| rng.below(n.max(1) as u64) as usize;
    for _ in 0..1 + below(rng, 4) {
        let at = below(rng, data.len());
        let kind = if keep_length {
            below(rng, 2)
        } else {
            below(rng, 7)
        };
        match kind {
            0 if !data.is_empty() => data[at] ^= 1 << below(rng, 8),
            1 if !data.is_empty() => data[at] = rng.next_u64() as u8,
            2 => data.insert(at.min(data.len()), rng.next_u64() as u8),
            3 if !data.is_empty() => {
                let end = (at + 1 + below(rng, 16)).min(data.len());
                data.drain(at..end);
            }
            4 => {
                let word = WORDS[below(rng, WORDS.len())].as_bytes();
                let at = at.min(data.len());
                data.splice(at..at, word.iter().copied());
            }
            5 if !data.is_empty() => {
                let end = (at + 1 + below(rng, 32)).min(data.len());
                let copy = data[at..end].to_vec();
                let to = below(rng, data.len());
                data.splice(to..to, copy);
            }
            _ => {
                let cut = below(rng, data.len() + 1);
                let from = below(rng, other.len() + 1);
                data.truncate(cut);
                data.extend_from_slice(&other[from..]);
            }
        }
    }
    data
}

/// Replays a target's stored inputs, then `mutations` mutated ones.
fn replay(target: &str, mutations: usize) {
    let body = bodies::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .expect("a fuzz target")
        .1;
    let mut stored = inputs("seeds", target);
    assert!(!stored.is_empty(), "no seeds for {target}");
    stored.extend(inputs("regressions", target));
    for (name, input) in &stored {
        run(body, name, input);
    }
    let seed = target
        .bytes()
        .fold(0x7A5F_0000_u64, |h, b| h.rotate_left(8) ^ u64::from(b));
    let mut rng = SplitMix64::new(seed);
    for i in 0..mutations {
        let (name, input) = &stored[rng.below(stored.len() as u64) as usize];
        let (_, other) = &stored[rng.below(stored.len() as u64) as usize];
        let data = mutate(input, other, &mut rng, target == "syzygy");
        run(body, &format!("mutation {i} of {name}"), &data);
    }
}

#[test]
fn fen_inputs() {
    replay("fen", 4000);
}

#[test]
fn move_inputs() {
    replay("moves", 4000);
}

#[test]
fn pgn_inputs() {
    replay("pgn", 20000);
}

#[test]
fn epd_inputs() {
    replay("epd", 20000);
}

#[test]
fn uci_inputs() {
    replay("uci", 400);
}

#[test]
fn polyglot_inputs() {
    replay("polyglot", 4000);
}

#[test]
fn syzygy_inputs() {
    replay("syzygy", 1000);
}

#[test]
fn game_shard_inputs() {
    replay("games", 4000);
}

#[test]
fn training_record_inputs() {
    replay("records", 20000);
}

#[test]
fn network_file_inputs() {
    replay("network", 1000);
}
