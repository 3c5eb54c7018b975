//! The training set in memory: the 32-byte records of `tarpon datagen` files (see
//! [`crate::learn::bulletformat`]; game shards are turned into them as they are read),
//! checked once when loaded, and the network inputs each
//! one switches on.
//!
//! The records stay in their file form (32 bytes a position, so 2 million positions take
//! 64 MB): decoding the inputs again at every visit costs a few dozen bit operations,
//! nothing beside the network's thousands of additions.

use crate::eval::nnue::format::KingBuckets;
use crate::learn::tune::data::{self as format, RECORD_SIZE};
use std::path::{Path, PathBuf};

/// One position as stored in a data file.
pub type Record = [u8; RECORD_SIZE];

/// The active inputs of a position for both perspectives, piece by piece: `stm[i]` and
/// `other[i]` are the same piece seen by the side to move and by the other side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    pub count: usize,
    pub stm: [u16; 32],
    pub other: [u16; 32],
}

impl Features {
    /// The side to move's inputs.
    pub fn stm(&self) -> &[u16] {
        &self.stm[..self.count]
    }

    /// The other side's inputs.
    pub fn other(&self) -> &[u16] {
        &self.other[..self.count]
    }
}

/// The inputs of a record that [`load`] accepted, for a network with king buckets `kings`.
///
/// A record is already seen from the side to move: its colour-0 pieces are the mover's and
/// its squares are mirrored when Black moved, exactly the frame of the engine's
/// `feature_index` for the side to move, so a colour-`c` `kind` on stored square `s` is
/// input `c·384 + kind·64 + s`. The other side sees the same piece with the colours
/// swapped and the board mirrored back: input `(1−c)·384 + kind·64 + (s ^ 56)`. (When
/// White moved the mirror is Black's own; when Black moved, `s ^ 56` undoes the stored
/// mirror and gives White's real square.) With king buckets, each side's inputs move to
/// the bucket of its own king's square (seen from that side), and with mirroring, the
/// squares of a side whose king is on files e–h are reflected left to right (`^ 7`):
/// `KingBuckets::frame` gives both, as the engine's `KingBuckets::view` does.
pub fn features(record: &Record, kings: &KingBuckets) -> Features {
    features_of(record, false, kings)
}

/// The inputs of a record, or with `mirrored` those of its mirror image across the d/e
/// file boundary (a1 ↔ h1). Chess is the same game reflected left to right once castling
/// is gone, and the records keep no castling rights, so the mirror is a second, equally
/// true training position: `--mirror` uses it to double what a data set teaches (with
/// mirrored king buckets both images have the same inputs, so the trainer refuses it).
pub fn features_of(record: &Record, mirrored: bool, kings: &KingBuckets) -> Features {
    let flip = if mirrored { 7 } else { 0 };
    // The pieces first (square, colour, kind), to find the kings before the inputs.
    let mut pieces = [(0usize, 0usize, 0usize); 32];
    let mut count = 0;
    let mut own_king = [0usize; 2];
    let mut occupied = u64::from_le_bytes(record[0..8].try_into().unwrap_or([0; 8]));
    while occupied != 0 && count < 32 {
        let stored = occupied.trailing_zeros() as usize;
        occupied &= occupied - 1;
        let square = stored ^ flip;
        let code = usize::from((record[8 + count / 2] >> (4 * (count % 2))) & 15);
        let (colour, kind) = (code >> 3, code & 7);
        if kind == KING {
            own_king[colour] = square;
        }
        pieces[count] = (square, colour, kind);
        count += 1;
    }
    // Each side's bucket and mirror, from its king seen from its own side.
    let (stm_base, stm_mirror) = kings.frame(own_king[0]);
    let (other_base, other_mirror) = kings.frame(own_king[1] ^ 56);
    let mut out = Features {
        count,
        stm: [0; 32],
        other: [0; 32],
    };
    for (i, &(square, colour, kind)) in pieces[..count].iter().enumerate() {
        out.stm[i] = (stm_base + colour * 384 + kind * 64 + (square ^ stm_mirror)) as u16;
        out.other[i] =
            (other_base + (1 - colour) * 384 + kind * 64 + (square ^ 56 ^ other_mirror)) as u16;
    }
    debug_assert!(out.stm().iter().all(|&f| (f as usize) < kings.inputs()));
    out
}

/// The piece code of a king (`PieceType::King.index()`), in a record's nibbles.
const KING: usize = 5;

/// The search score of a record, in centipawns for the side to move.
pub fn score(record: &Record) -> i16 {
    i16::from_le_bytes([record[24], record[25]])
}

/// The game's result for the side to move: 0, 0.5 or 1.
pub fn result(record: &Record) -> f32 {
    f32::from(record[26]) / 2.0
}

/// What [`load`] keeps.
#[derive(Copy, Clone, Debug)]
pub struct Filter {
    /// Positions whose score is beyond this (in centipawns, either sign) are left out.
    /// `tarpon datagen` writes no mate scores; other writers may.
    pub max_score: i32,
    /// Read at most this many records in all (the first ones, file by file).
    pub max_positions: Option<usize>,
}

/// What happened to the records read.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    pub records: usize,
    /// Not a legal position (bad piece codes, kings, result), so not usable.
    pub invalid: usize,
    /// Score beyond `max_score`.
    pub filtered: usize,
}

/// Reads the records of `files`, checks each (as `tarpon tune` does: it must decode to a
/// legal position) on `threads` threads, and keeps those the filter lets through. An
/// unreadable or empty file, or one whose size is not a whole number of records, is an
/// error: the file is probably not what the user meant to train on.
pub fn load(
    files: &[PathBuf],
    filter: Filter,
    threads: usize,
) -> Result<(Vec<Record>, LoadStats), String> {
    let mut raw: Vec<Record> = Vec::new();
    for path in files {
        raw.extend(read_file(path)?);
        if let Some(max) = filter.max_positions
            && raw.len() >= max
        {
            raw.truncate(max);
            break;
        }
    }
    let chunk = raw.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(Vec<Record>, LoadStats)> = std::thread::scope(|s| {
        let handles: Vec<_> = raw
            .chunks(chunk)
            .map(|part| s.spawn(move || check(part, filter)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut kept = Vec::with_capacity(raw.len());
    let mut stats = LoadStats {
        records: raw.len(),
        ..LoadStats::default()
    };
    for (part, s) in parts {
        kept.extend(part);
        stats.invalid += s.invalid;
        stats.filtered += s.filtered;
    }
    Ok((kept, stats))
}

fn check(records: &[Record], filter: Filter) -> (Vec<Record>, LoadStats) {
    let mut kept = Vec::with_capacity(records.len());
    let mut stats = LoadStats::default();
    for record in records {
        if format::decode(record).board().is_none() {
            stats.invalid += 1;
        } else if i32::from(score(record)).abs() > filter.max_score {
            stats.filtered += 1;
        } else {
            kept.push(*record);
        }
    }
    (kept, stats)
}

/// The records of one file: a datagen bulletformat file, or a game shard's trainable
/// positions (`crate::learn::games`).
fn read_file(path: &Path) -> Result<Vec<Record>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.is_empty() {
        return Err(format!("{} is empty", path.display()));
    }
    if let Some(records) = crate::learn::games::training_records(path, &bytes)? {
        if records.is_empty() {
            return Err(format!("{} holds no trainable position", path.display()));
        }
        return Ok(records);
    }
    let (records, rest) = format::records(&bytes);
    if rest != 0 {
        return Err(format!(
            "{} is {} bytes, not a whole number of {RECORD_SIZE}-byte records: \
             not a datagen file, or a truncated one",
            path.display(),
            bytes.len()
        ));
    }
    Ok(records.copied().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;
    use crate::chess::{Board, Color};
    use crate::learn::bulletformat::{self, GameResult};
    use crate::learn::train::king_layouts;
    use crate::learn::tune::model::tests::random_positions;

    /// The engine's inputs for `perspective`, from the board itself.
    fn engine_features(board: &Board, perspective: Color, kings: &KingBuckets) -> Vec<u16> {
        let view = kings.view(perspective, board.king_square(perspective));
        let mut out: Vec<u16> = board
            .occupied()
            .map(|sq| {
                let piece = board.piece_on(sq).unwrap();
                view.index(piece.color(), piece.kind(), sq) as u16
            })
            .collect();
        out.sort_unstable();
        out
    }

    fn sorted(features: &[u16]) -> Vec<u16> {
        let mut v = features.to_vec();
        v.sort_unstable();
        v
    }

    /// A game shard loads as the bulletformat records of its trainable positions, a cut
    /// one as those of its whole games, and one with none is refused by name.
    #[test]
    fn shards_load_as_their_trainable_positions() {
        use crate::chess::movegen::legal_moves;
        use crate::learn::games::{self, ShardWriter};
        let dir = std::env::temp_dir().join(format!("tarpon-train-shard-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let start = fen::parse(fen::START_FEN, false).unwrap();
        let mut board = start;
        let mut plies = Vec::new();
        for i in 0..40 {
            let m = legal_moves(&board)[i % 7 % legal_moves(&board).len()];
            plies.push((m, (i as i16) * 3));
            board.play(m);
        }
        let game = games::Game {
            start,
            result: GameResult::WhiteWin,
            plies,
        };
        let expected: Vec<Record> = game
            .training_positions()
            .iter()
            .enumerate()
            .map(|(i, (b, s))| bulletformat::pack(b, *s, GameResult::WhiteWin, i == 0).unwrap())
            .collect();
        assert!(!expected.is_empty());
        let path = dir.join("a.games");
        let mut writer = ShardWriter::create(&path).unwrap();
        writer.write(&game).unwrap();
        writer.write(&game).unwrap();
        drop(writer);
        let filter = Filter {
            max_score: 10_000,
            max_positions: None,
        };
        let (records, stats) = load(std::slice::from_ref(&path), filter, 2).unwrap();
        assert_eq!(records, [expected.clone(), expected.clone()].concat());
        assert_eq!(stats.records, 2 * expected.len());

        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 5]).unwrap();
        let (records, _) = load(std::slice::from_ref(&path), filter, 1).unwrap();
        assert_eq!(records, expected);

        std::fs::write(&path, games::MAGIC).unwrap();
        let error = load(&[path], filter, 1).unwrap_err();
        assert!(
            error.contains("a.games") && error.contains("no trainable"),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn record_inputs_match_the_engine_for_both_perspectives() {
        // Positions from random games (both sides to move, all phases) and some chosen
        // ones, written by datagen's own writer.
        let mut boards = random_positions(3000, 11);
        for text in [
            fen::START_FEN,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/8/4k3/8/8/3Q4/8/4K3 b - - 0 1",
        ] {
            boards.push(fen::parse(text, false).unwrap());
        }
        let mut black_to_move = 0;
        // The inputs of a version 2 network, and of king-bucketed mirrored ones.
        for layout in ["none", "4", "32"] {
            let kings = king_layouts::named(layout).unwrap();
            let mut in_buckets = vec![0; kings.count()];
            let mut mirrored = 0;
            for board in &boards {
                let us = board.side_to_move();
                black_to_move += usize::from(us == Color::Black);
                let record = bulletformat::pack(board, 0, GameResult::Draw, false).unwrap();
                let f = features(&record, &kings);
                assert_eq!(f.count as u32, board.occupied().count());
                let text = fen::to_fen(board);
                let want = engine_features(board, us, &kings);
                assert_eq!(sorted(f.stm()), want, "{layout}: {text}");
                assert_eq!(
                    sorted(f.other()),
                    engine_features(board, us.flip(), &kings),
                    "{layout}: {text}"
                );
                in_buckets[usize::from(want[0]) / 768] += 1;
                mirrored += usize::from(board.king_square(us).file() >= 4);
            }
            // The positions reach several buckets and both halves of the board.
            let reached = in_buckets.iter().filter(|&&n| n > 0).count();
            assert!(reached >= kings.count().min(4), "{layout}: {in_buckets:?}");
            assert!(mirrored > 300, "{mirrored}");
        }
        assert!(black_to_move > 3000, "{black_to_move}");
    }

    /// The FEN of `board` reflected left to right (a1 <-> h1), without castling rights or
    /// en passant square, which the records do not keep.
    fn mirrored_fen(board: &Board) -> String {
        let text = fen::to_fen(board);
        let fields: Vec<&str> = text.split(' ').collect();
        let ranks: Vec<String> = fields[0]
            .split('/')
            .map(|rank| rank.chars().rev().collect())
            .collect();
        format!("{} {} - - 0 1", ranks.join("/"), fields[1])
    }

    #[test]
    fn mirrored_inputs_are_those_of_the_mirrored_position() {
        let boards = random_positions(1000, 12);
        let none = KingBuckets::NONE;
        let mirrored_buckets = king_layouts::named("8").unwrap();
        for board in &boards {
            let record = bulletformat::pack(board, 0, GameResult::Draw, false).unwrap();
            let mirror = fen::parse(&mirrored_fen(board), false).unwrap();
            let us = board.side_to_move();
            let f = features_of(&record, true, &none);
            let text = fen::to_fen(&mirror);
            assert_eq!(
                sorted(f.stm()),
                engine_features(&mirror, us, &none),
                "{text}"
            );
            assert_eq!(
                sorted(f.other()),
                engine_features(&mirror, us.flip(), &none),
                "{text}"
            );
            // Not mirrored, the inputs are the plain ones.
            assert_eq!(features_of(&record, false, &none), features(&record, &none));
            // With mirrored king buckets a position and its mirror image have the same
            // inputs: what makes `--mirror` pointless there.
            let plain = features(&record, &mirrored_buckets);
            let reflected = features_of(&record, true, &mirrored_buckets);
            assert_eq!(sorted(plain.stm()), sorted(reflected.stm()), "{text}");
            assert_eq!(sorted(plain.other()), sorted(reflected.other()), "{text}");
        }
    }

    #[test]
    fn score_and_result_are_the_side_to_move_s() {
        let board = fen::parse(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            false,
        )
        .unwrap();
        let record = bulletformat::pack(&board, -42, GameResult::WhiteWin, false).unwrap();
        assert_eq!(score(&record), -42);
        assert_eq!(result(&record), 0.0);
    }

    #[test]
    fn loading_checks_filters_and_rejects_bad_files() {
        let dir = std::env::temp_dir().join(format!("tarpon-train-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let board = fen::parse(fen::START_FEN, false).unwrap();
        let mut bytes = Vec::new();
        for score in [10, -20, 5000, 31000] {
            bytes.extend(bulletformat::pack(&board, score, GameResult::Draw, false).unwrap());
        }
        bytes.extend([0xFF; RECORD_SIZE]);
        let good = dir.join("good.bin");
        std::fs::write(&good, &bytes).unwrap();
        let filter = Filter {
            max_score: 10_000,
            max_positions: None,
        };
        let (kept, stats) = load(std::slice::from_ref(&good), filter, 2).unwrap();
        assert_eq!(kept.len(), 3);
        let expected = LoadStats {
            records: 5,
            invalid: 1,
            filtered: 1,
        };
        assert_eq!(stats, expected);
        let capped = Filter {
            max_positions: Some(2),
            ..filter
        };
        assert_eq!(
            load(std::slice::from_ref(&good), capped, 1)
                .unwrap()
                .0
                .len(),
            2
        );

        let odd = dir.join("odd.bin");
        std::fs::write(&odd, &bytes[..40]).unwrap();
        let err = load(&[good.clone(), odd], filter, 1).unwrap_err();
        assert!(err.contains("not a whole number"), "{err}");
        let empty = dir.join("empty.bin");
        std::fs::write(&empty, []).unwrap();
        assert!(load(&[empty], filter, 1).unwrap_err().contains("empty"));
        let missing = dir.join("missing.bin");
        assert!(
            load(&[missing], filter, 1)
                .unwrap_err()
                .contains("cannot read")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
