fn main() {
    let mut b = tarpon::chess::fen::parse(tarpon::chess::fen::START_FEN, false).unwrap();
    let d: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let t = std::time::Instant::now();
    let n = tarpon::chess::perft::perft(&mut b, d);
    println!("{n} {:?} {:.0} Mnps", t.elapsed(), n as f64 / t.elapsed().as_secs_f64() / 1e6);
}
