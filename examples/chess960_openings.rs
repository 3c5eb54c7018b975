//! The 960 Chess960 start positions as EPD lines, in the standard numbering, with
//! Shredder-FEN castling (the rooks' files), for fastchess's `-variant fischerandom`:
//! `cargo run --release --example chess960_openings > chess960.epd`.

use tarpon::chess::chess960::{POSITIONS, start_position};
use tarpon::chess::fen::to_shredder_fen;

fn main() {
    for number in 0..POSITIONS {
        println!("{}", to_shredder_fen(&start_position(number, number)));
    }
}
