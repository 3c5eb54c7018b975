//! Self-play games in a compact, crash-safe file (a *shard*): the start position, the
//! result, and for every searched ply the move played and the search score. About 4 bytes
//! a position instead of bulletformat's 32, and nothing is decided at write time: which
//! positions to train on (not in check, no capture as best move, no mate score) is chosen
//! when the games are read (`training_positions`).
//!
//! # The file
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | `TARPONG1`, the magic that names the format and its version |
//! | then | the games, one after the other |
//!
//! A game:
//!
//! | bytes | field |
//! |---|---|
//! | 4 | `n`, the length of the body, `u32` little-endian |
//! | `n` | the body (below) |
//! | 4 | FNV-1a (32-bit) checksum of the body, little-endian |
//!
//! The body: the result (`u8`: 0 Black won, 1 draw, 2 White won), flags (`u8`: bit 0
//! Chess960), the length of the start FEN (`u8`) and the FEN in ASCII, the number of plies
//! (`u16`), then per ply the move (`u16`, Tarpon's move bits) and the search score (`i16`,
//! centipawns for the side to move), all little-endian. Only the last ply may have no move
//! (bits 0): a position whose score is known but whose move is not, as in a converted
//! bulletformat record.
//!
//! # Crash safety
//!
//! A writer appends a game with one `write_all` of the whole game and flushes it, so a
//! killed run leaves at most one partial game at the end of its shard. The reader keeps
//! every game before the first one that is truncated or fails its checksum (or replays to
//! an illegal move), and says which shard and where. Shards are never appended to by a new
//! run: each run writes its own.

use super::bulletformat::{self, GameResult};
use crate::chess::movegen::is_legal;
use crate::chess::{Board, Move, fen};
use crate::search::movepick::is_noisy;
use crate::search::score::is_mate;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The first bytes of every shard.
pub const MAGIC: [u8; 8] = *b"TARPONG1";
/// A sane upper bound on a game's body (a 10,000-ply game is 40 KB): a length beyond it
/// means the length field itself is damaged.
const MAX_BODY: usize = 1 << 20;

/// One game as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// The position of the first searched ply (after any random opening moves).
    pub start: Board,
    pub result: GameResult,
    /// Per searched ply: the move played (`Move::NONE` only for a last ply without a
    /// move) and the search score for the side to move.
    pub plies: Vec<(Move, i16)>,
}

impl Game {
    /// Every searched position with its move and score, replayed from the start.
    pub fn positions(&self) -> Vec<(Board, Move, i16)> {
        let mut board = self.start;
        let mut out = Vec::with_capacity(self.plies.len());
        for &(m, score) in &self.plies {
            out.push((board, m, score));
            if m.is_some() {
                board.play(m);
            }
        }
        out
    }

    /// The positions worth training on, with their scores: those `trainable` accepts.
    pub fn training_positions(&self) -> Vec<(Board, i16)> {
        self.positions()
            .into_iter()
            .filter(|&(board, m, score)| trainable(&board, m, score))
            .map(|(board, _, score)| (board, score))
            .collect()
    }
}

/// Whether a searched position is used for training: not in check (the score is about
/// the escape), the best move not a capture or promotion (the score depends on the
/// exchange in progress, which the evaluation is not asked to see), and not a mate score
/// (which no evaluation should imitate). A position without a move is judged by the first
/// and the last.
pub fn trainable(board: &Board, best: Move, score: i16) -> bool {
    let capture_or_promotion = best.is_some() && is_noisy(board, best);
    !(board.in_check() || capture_or_promotion || is_mate(score.into()))
}

fn result_code(result: GameResult) -> u8 {
    match result {
        GameResult::BlackWin => 0,
        GameResult::Draw => 1,
        GameResult::WhiteWin => 2,
    }
}

/// 32-bit FNV-1a: a small checksum that catches damaged bytes (not an adversary).
fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |hash, &b| {
        (hash ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The bytes of one game, length and checksum included.
pub fn encode(game: &Game) -> Vec<u8> {
    let fen = fen::to_fen(&game.start);
    let mut body = Vec::with_capacity(5 + fen.len() + 4 * game.plies.len());
    body.push(result_code(game.result));
    body.push(u8::from(game.start.is_chess960()));
    // A FEN is under 100 characters; u8 is plenty.
    body.push(fen.len() as u8);
    body.extend_from_slice(fen.as_bytes());
    body.extend_from_slice(&(game.plies.len() as u16).to_le_bytes());
    for &(m, score) in &game.plies {
        body.extend_from_slice(&m.bits().to_le_bytes());
        body.extend_from_slice(&score.to_le_bytes());
    }
    let mut bytes = Vec::with_capacity(body.len() + 8);
    bytes.extend_from_slice(&(body.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&body);
    bytes.extend_from_slice(&checksum(&body).to_le_bytes());
    bytes
}

/// Decodes a body whose checksum matched; an error says what is wrong with it.
fn decode_body(body: &[u8]) -> Result<Game, String> {
    let take = |at: usize, n: usize| body.get(at..at + n).ok_or("the body ends early");
    let result = match body.first() {
        Some(0) => GameResult::BlackWin,
        Some(1) => GameResult::Draw,
        Some(2) => GameResult::WhiteWin,
        Some(other) => return Err(format!("result code {other}")),
        None => return Err("an empty body".into()),
    };
    let chess960 = take(1, 1)?[0] & 1 != 0;
    let fen_len = take(2, 1)?[0] as usize;
    let fen_text = std::str::from_utf8(take(3, fen_len)?).map_err(|_| "the FEN is not text")?;
    let start = fen::parse(fen_text, chess960).map_err(|e| format!("FEN {fen_text:?}: {e}"))?;
    let mut at = 3 + fen_len;
    let count = u16::from_le_bytes(take(at, 2)?.try_into().expect("2 bytes")) as usize;
    at += 2;
    if body.len() != at + 4 * count {
        return Err(format!(
            "{count} plies need {} bytes, the body has {}",
            at + 4 * count,
            body.len()
        ));
    }
    let mut plies = Vec::with_capacity(count);
    let mut board = start;
    for i in 0..count {
        let bytes = take(at + 4 * i, 4)?;
        let m = Move::from_bits(u16::from_le_bytes([bytes[0], bytes[1]]));
        let score = i16::from_le_bytes([bytes[2], bytes[3]]);
        if m.is_none() {
            if i + 1 != count {
                return Err(format!("ply {} has no move but is not the last", i + 1));
            }
        } else if !is_legal(&board, m) {
            return Err(format!(
                "ply {}: {m:?} is not a legal move in {}",
                i + 1,
                fen::to_fen(&board)
            ));
        } else {
            board.play(m);
        }
        plies.push((m, score));
    }
    Ok(Game {
        start,
        result,
        plies,
    })
}

/// What is wrong where a shard stops being readable. The games before it are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Damage {
    /// The shard ends inside a game (a run killed while writing): `bytes` of it are there.
    Truncated { bytes: usize },
    /// A game's bytes do not match its checksum.
    Checksum,
    /// A game decodes to nonsense (`what` says which).
    Invalid { what: String },
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Damage::Truncated { bytes } => write!(
                f,
                "truncated: the file ends {bytes} bytes into a game (a run stopped while writing)"
            ),
            Damage::Checksum => write!(f, "corrupt: a game does not match its checksum"),
            Damage::Invalid { what } => write!(f, "corrupt: {what}"),
        }
    }
}

/// A shard as read: its whole games, and where and why reading stopped early, if it did.
#[derive(Clone, Debug)]
pub struct Shard {
    pub path: PathBuf,
    pub games: Vec<Game>,
    /// The byte offset of the first game not read, and why.
    pub damage: Option<(u64, Damage)>,
}

impl Shard {
    /// One line for people: the shard, its games and positions, and any damage.
    pub fn describe(&self) -> String {
        let plies: usize = self.games.iter().map(|g| g.plies.len()).sum();
        let mut text = format!(
            "{}: {} games, {} positions",
            self.path.display(),
            self.games.len(),
            plies
        );
        if let Some((offset, damage)) = &self.damage {
            text += &format!(
                "; {damage} at byte {offset} (game {}); the {} games before it are kept",
                self.games.len() + 1,
                self.games.len()
            );
        }
        text
    }
}

/// Why a file cannot be read as a shard at all.
#[derive(Debug)]
pub enum ShardError {
    Io(PathBuf, io::Error),
    Empty(PathBuf),
    /// The file does not start with the magic: not a game file.
    Foreign(PathBuf),
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ShardError::Io(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            ShardError::Empty(path) => write!(f, "{} is empty", path.display()),
            ShardError::Foreign(path) => write!(
                f,
                "{} is not a Tarpon game file (it does not start with {:?})",
                path.display(),
                std::str::from_utf8(&MAGIC).unwrap_or("")
            ),
        }
    }
}

impl std::error::Error for ShardError {}

/// Whether `bytes` (the start of a file) are a game shard's.
pub fn is_shard(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

/// Reads the games of a shard's bytes, stopping at the first damaged one.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Shard, ShardError> {
    if bytes.is_empty() {
        return Err(ShardError::Empty(path.to_path_buf()));
    }
    if !is_shard(bytes) {
        return Err(ShardError::Foreign(path.to_path_buf()));
    }
    let mut games = Vec::new();
    let mut at = MAGIC.len();
    let mut damage = None;
    while at < bytes.len() {
        let rest = &bytes[at..];
        let length = rest
            .get(..4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize);
        let game = match length {
            None => Err(Damage::Truncated { bytes: rest.len() }),
            Some(n) if n == 0 || n > MAX_BODY => Err(Damage::Invalid {
                what: format!("a game length of {n} bytes"),
            }),
            Some(n) if rest.len() < n + 8 => Err(Damage::Truncated { bytes: rest.len() }),
            Some(n) => {
                let body = &rest[4..4 + n];
                let stored = u32::from_le_bytes(rest[4 + n..8 + n].try_into().expect("4 bytes"));
                if stored != checksum(body) {
                    Err(Damage::Checksum)
                } else {
                    decode_body(body)
                        .map(|g| (g, n + 8))
                        .map_err(|what| Damage::Invalid { what })
                }
            }
        };
        match game {
            Ok((game, size)) => {
                games.push(game);
                at += size;
            }
            Err(d) => {
                damage = Some((at as u64, d));
                break;
            }
        }
    }
    Ok(Shard {
        path: path.to_path_buf(),
        games,
        damage,
    })
}

/// Reads a shard from disk (see `parse`).
pub fn read(path: &Path) -> Result<Shard, ShardError> {
    let bytes = std::fs::read(path).map_err(|e| ShardError::Io(path.to_path_buf(), e))?;
    parse(path, &bytes)
}

/// The trainable positions of a shard's bytes as bulletformat records, for the learners
/// that read records; `None` when the bytes are not a shard. A damaged shard gives the
/// records of its whole games, with a warning on standard error naming the file and the
/// damage.
pub fn training_records(
    path: &Path,
    bytes: &[u8],
) -> Result<Option<Vec<[u8; bulletformat::RECORD_SIZE]>>, String> {
    if !is_shard(bytes) {
        return Ok(None);
    }
    let shard = parse(path, bytes).map_err(|e| e.to_string())?;
    if shard.damage.is_some() {
        eprintln!("warning: {}", shard.describe());
    }
    let mut records = Vec::new();
    for game in &shard.games {
        for (i, (board, score)) in game.training_positions().iter().enumerate() {
            let record = bulletformat::pack(board, *score, game.result, i == 0)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            records.push(record);
        }
    }
    Ok(Some(records))
}

/// Writes a new shard, one whole game at a time.
pub struct ShardWriter {
    file: File,
    path: PathBuf,
}

impl ShardWriter {
    /// Creates the shard; an existing file is never overwritten or appended to (a new run
    /// writes a new shard, so a damaged tail never ends up in the middle of a file).
    pub fn create(path: &Path) -> io::Result<ShardWriter> {
        let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
        file.write_all(&MAGIC)?;
        file.flush()?;
        Ok(ShardWriter {
            file,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends a whole game in one write.
    pub fn write(&mut self, game: &Game) -> io::Result<()> {
        self.file.write_all(&encode(game))?;
        self.file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::movegen::legal_moves;
    use crate::rng::SplitMix64;

    /// A random game of `plies` plies from the start position, with made-up scores.
    fn random_game(seed: u64, plies: usize) -> Game {
        let mut rng = SplitMix64::new(seed);
        let start = fen::parse(fen::START_FEN, false).unwrap();
        let mut board = start;
        let mut moves = Vec::new();
        for i in 0..plies {
            let legal = legal_moves(&board);
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len() as u64) as usize];
            moves.push((m, (i as i16 * 37) % 400 - 200));
            board.play(m);
        }
        Game {
            start,
            result: GameResult::Draw,
            plies: moves,
        }
    }

    fn shard_bytes(games: &[Game]) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        for g in games {
            bytes.extend(encode(g));
        }
        bytes
    }

    #[test]
    fn games_round_trip_in_about_four_bytes_a_position() {
        let games: Vec<Game> = (0..20).map(|s| random_game(s, 120)).collect();
        let bytes = shard_bytes(&games);
        let shard = parse(Path::new("t"), &bytes).unwrap();
        assert_eq!(shard.games, games);
        assert!(shard.damage.is_none());
        let positions: usize = games.iter().map(|g| g.plies.len()).sum();
        let per_position = bytes.len() as f64 / positions as f64;
        assert!(per_position < 4.7, "{per_position} bytes a position");
    }

    #[test]
    fn a_truncated_shard_keeps_its_whole_games() {
        let games: Vec<Game> = (0..5).map(|s| random_game(s, 60)).collect();
        let bytes = shard_bytes(&games);
        let last_start = bytes.len() - encode(&games[4]).len();
        for cut in [
            last_start + 1,
            last_start + 3,
            last_start + 50,
            bytes.len() - 1,
        ] {
            let shard = parse(Path::new("t"), &bytes[..cut]).unwrap();
            assert_eq!(shard.games, games[..4], "cut at {cut}");
            assert_eq!(
                shard.damage,
                Some((
                    last_start as u64,
                    Damage::Truncated {
                        bytes: cut - last_start
                    }
                ))
            );
            assert!(
                shard.describe().contains("truncated"),
                "{}",
                shard.describe()
            );
        }
        // Cut exactly between games: nothing is damaged.
        let shard = parse(Path::new("t"), &bytes[..last_start]).unwrap();
        assert_eq!((shard.games.len(), shard.damage), (4, None));
    }

    #[test]
    fn a_flipped_byte_is_caught_and_the_games_before_it_kept() {
        let games: Vec<Game> = (0..4).map(|s| random_game(s, 40)).collect();
        let clean = shard_bytes(&games);
        let third = MAGIC.len() + encode(&games[0]).len() + encode(&games[1]).len();
        for offset in [third + 5, third + 30, third + 100] {
            let mut bytes = clean.clone();
            bytes[offset] ^= 0x10;
            let shard = parse(Path::new("t"), &bytes).unwrap();
            assert_eq!(shard.games, games[..2], "byte {offset}");
            assert_eq!(shard.damage, Some((third as u64, Damage::Checksum)));
        }
    }

    #[test]
    fn an_illegal_move_with_a_good_checksum_is_invalid() {
        let mut game = random_game(1, 10);
        // e2e4 twice: the second is illegal.
        let e2e4 = game.plies[0].0;
        game.plies = vec![(e2e4, 0), (e2e4, 0)];
        let shard = parse(Path::new("t"), &shard_bytes(&[game])).unwrap();
        assert!(shard.games.is_empty());
        let (_, damage) = shard.damage.unwrap();
        assert!(
            matches!(&damage, Damage::Invalid { what } if what.contains("ply 2")),
            "{damage}"
        );
    }

    #[test]
    fn foreign_and_empty_files_are_refused() {
        assert!(matches!(
            parse(Path::new("x.bin"), &[0u8; 64]),
            Err(ShardError::Foreign(_))
        ));
        assert!(matches!(
            parse(Path::new("x"), &[]),
            Err(ShardError::Empty(_))
        ));
        let text = parse(Path::new("x.bin"), b"hello world")
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("x.bin") && text.contains("not a Tarpon game file"),
            "{text}"
        );
    }

    #[test]
    fn only_the_last_ply_may_lack_a_move() {
        let mut game = random_game(2, 4);
        game.plies.push((Move::NONE, 15));
        let shard = parse(Path::new("t"), &shard_bytes(std::slice::from_ref(&game))).unwrap();
        assert_eq!(shard.games, vec![game.clone()]);
        game.plies.insert(1, (Move::NONE, 3));
        let shard = parse(Path::new("t"), &shard_bytes(&[game])).unwrap();
        assert!(shard.games.is_empty() && shard.damage.is_some());
    }

    #[test]
    fn training_positions_leave_out_checks_captures_and_mates() {
        // 1. e4 f5 2. Qh5+ (check) g6 3. Qxg6+ (capture, and check) : only the first two
        // positions are quiet; the third has a mate score.
        let start = fen::parse(fen::START_FEN, false).unwrap();
        let mut board = start;
        let mut plies = Vec::new();
        for (text, score) in [
            ("e2e4", 30),
            ("f7f5", -40),
            ("d1h5", 31_990),
            ("g7g6", -500),
            ("h5g6", 600),
        ] {
            let m = crate::chess::notation::parse_uci(&board, text).unwrap();
            plies.push((m, score));
            board.play(m);
        }
        let game = Game {
            start,
            result: GameResult::WhiteWin,
            plies,
        };
        let kept: Vec<i16> = game.training_positions().iter().map(|&(_, s)| s).collect();
        assert_eq!(kept, vec![30, -40]);
    }

    #[test]
    fn the_writer_makes_new_shards_only() {
        let dir = std::env::temp_dir().join(format!("tarpon-games-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.games");
        let _ = std::fs::remove_file(&path);
        let games: Vec<Game> = (0..3).map(|s| random_game(s, 30)).collect();
        let mut writer = ShardWriter::create(&path).unwrap();
        for g in &games {
            writer.write(g).unwrap();
        }
        drop(writer);
        assert_eq!(read(&path).unwrap().games, games);
        assert!(ShardWriter::create(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
