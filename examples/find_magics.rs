//! Finds the magic multipliers in `src/chess/magics.rs`: `cargo run --release --example find_magics`.
//!
//! For each square and slider, random sparse candidates are tried until one maps every
//! blocker subset of the relevant mask to a table slot without two different attack sets
//! sharing a slot. The table size per square is fixed at 2^(mask bits).

use tarpon::chess::attacks::{relevant_mask, slider_attacks_slow};
use tarpon::chess::types::{PieceType, Square};

fn main() {
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        // xorshift64*: a tiny generator is enough to find magics.
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    for kind in [PieceType::Rook, PieceType::Bishop] {
        println!("{kind:?}:");
        for sq in Square::all() {
            let mask = relevant_mask(kind, sq);
            let bits = mask.count_ones();
            let subsets: Vec<u64> = subsets_of(mask);
            let attacks: Vec<u64> = subsets
                .iter()
                .map(|&occ| slider_attacks_slow(kind, sq, occ))
                .collect();
            let mut table = vec![0u64; 1 << bits];
            let magic = loop {
                let candidate = next() & next() & next();
                if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                    continue;
                }
                table.iter_mut().for_each(|e| *e = 0);
                let ok = subsets.iter().zip(&attacks).all(|(&occ, &att)| {
                    let idx = (occ.wrapping_mul(candidate) >> (64 - bits)) as usize;
                    if table[idx] == 0 || table[idx] == att {
                        table[idx] = att;
                        true
                    } else {
                        false
                    }
                });
                if ok {
                    break candidate;
                }
            };
            print!("0x{magic:016X}, ");
            if sq.index() % 4 == 3 {
                println!();
            }
        }
    }
}

fn subsets_of(mask: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut sub = 0u64;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break out;
        }
    }
}
