//! The king-bucket layouts `tarpon train --king-buckets` offers: which input bucket each
//! square of a side's own king selects (see `eval::nnue::format` for what the buckets
//! do). Every layout but `none` is mirrored, so it is drawn on files a–d of the king's own
//! half of the board, ranks counted from the king's side (rank 1 is its first rank); the
//! files e–h mirror it (e is d, h is a).
//!
//! | layout | buckets | squares (file, rank, from the king's side)                              |
//! |--------|--------:|--------------------------------------------------------------------------|
//! | `none` | 1       | no buckets and no mirroring: the version 2 inputs (the default)         |
//! | `1`    | 1       | one bucket, mirrored                                                     |
//! | `4`    | 4       | rank 1 a–b · rank 1 c–d · rank 2 · ranks 3–8                            |
//! | `8`    | 8       | rank 1 a, b, c, d (one each) · rank 2 a–b, c–d · rank 3 · ranks 4–8     |
//! | `16`   | 16      | ranks 1 and 2 a, b, c, d (one each) · ranks 3, 4, 5–6 and 7–8 a–b, c–d  |
//! | `32`   | 32      | one per square of files a–d                                              |
//!
//! The layouts spend their buckets where kings spend their games: on the first two ranks,
//! where a castled king and one still in the centre want different things of every other
//! piece; an advanced king is an ending's, and shares a bucket or two.

use crate::eval::nnue::format::KingBuckets;

/// The layout names, for messages.
pub const NAMES: &str = "none, 1, 4, 8, 16, 32";

/// The layout called `name`.
pub fn named(name: &str) -> Result<KingBuckets, String> {
    let bucket: fn(rank: usize, file: usize) -> u8 = match name {
        "none" => return Ok(KingBuckets::NONE),
        "1" => |_, _| 0,
        "4" => |rank, file| match rank {
            0 => (file / 2) as u8,
            1 => 2,
            _ => 3,
        },
        "8" => |rank, file| match rank {
            0 => file as u8,
            1 => 4 + (file / 2) as u8,
            2 => 6,
            _ => 7,
        },
        "16" => |rank, file| match rank {
            0 | 1 => (4 * rank + file) as u8,
            2 | 3 => (8 + 2 * (rank - 2) + file / 2) as u8,
            4 | 5 => (12 + file / 2) as u8,
            _ => (14 + file / 2) as u8,
        },
        "32" => |rank, file| (4 * rank + file) as u8,
        _ => {
            return Err(format!(
                "unknown king bucket layout {name:?} (the layouts: {NAMES})"
            ));
        }
    };
    let mut map = [0u8; 64];
    for (square, entry) in map.iter_mut().enumerate() {
        let (rank, file) = (square / 8, square % 8);
        // Files e–h are the mirror images of d–a.
        *entry = bucket(rank, file.min(7 - file));
    }
    let count = u32::from(map.iter().max().copied().unwrap_or(0)) + 1;
    Ok(KingBuckets::new(count, true, map).expect("the built-in layouts are valid"))
}

/// The name of a layout [`named`] makes, for messages (`custom` for another map).
pub fn name_of(kings: &KingBuckets) -> String {
    ["none", "1", "4", "8", "16", "32"]
        .into_iter()
        .find(|name| named(name).as_ref() == Ok(kings))
        .map_or_else(|| "custom".to_string(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_uses_each_of_its_buckets_on_both_halves_of_the_board() {
        for (name, count) in [("1", 1), ("4", 4), ("8", 8), ("16", 16), ("32", 32)] {
            let kings = named(name).unwrap();
            assert_eq!(kings.count(), count, "{name}");
            assert!(kings.mirrored());
            assert_eq!(name_of(&kings), name);
            for bucket in 0..count as u8 {
                assert!(kings.map()[..].contains(&bucket), "{name}: {bucket} unused");
            }
            for square in 0..64 {
                assert_eq!(kings.map()[square], kings.map()[square ^ 7], "{name}");
            }
        }
        assert_eq!(named("none"), Ok(KingBuckets::NONE));
        assert_eq!(name_of(&KingBuckets::NONE), "none");
        assert!(named("5").unwrap_err().contains("none, 1, 4, 8, 16, 32"));
    }

    #[test]
    fn the_layouts_put_the_squares_where_the_table_says() {
        // Squares a1, d1, e1 (= d1), h1 (= a1), b2, d3, a5, h8.
        let squares = [0, 3, 4, 7, 9, 19, 32, 63];
        let buckets = |name| squares.map(|sq| named(name).unwrap().map()[sq]);
        assert_eq!(buckets("4"), [0, 1, 1, 0, 2, 3, 3, 3]);
        assert_eq!(buckets("8"), [0, 3, 3, 0, 4, 6, 7, 7]);
        assert_eq!(buckets("16"), [0, 3, 3, 0, 5, 9, 12, 14]);
        assert_eq!(buckets("32"), [0, 3, 3, 0, 5, 11, 16, 28]);
    }
}
