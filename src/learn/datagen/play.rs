//! One `datagen` game: its opening, the play, its end (the module documentation's three
//! steps), and the openings' sources (a book, the generator of each game).

use super::{DatagenError, End, Shared};
use crate::chess::movegen::legal_moves;
use crate::chess::{Board, Color, Move, Outcome, Position, chess960, fen};
use crate::eval::nnue::Net;
use crate::learn::bulletformat::GameResult;
use crate::learn::games;
use crate::rng::SplitMix64;
use crate::search::history::Histories;
use crate::search::timeman::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{SearchControl, SearchOptions, think};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// How many openings a game may draw before giving up (a book of decided positions).
const MAX_OPENING_TRIES: u32 = 1000;

/// A finished game.
pub(super) struct Game {
    /// The game as stored: the position after the opening, every searched ply's move and
    /// score, the result.
    pub(super) record: games::Game,
    pub(super) end: End,
    pub(super) plies: u32,
    pub(super) openings_rejected: u32,
}

/// Plays one game. `None` when the run was stopped during the game.
pub(super) fn play_game(
    shared: &Shared,
    rng: &mut SplitMix64,
    tt: &TranspositionTable,
    histories: &mut Histories,
) -> Result<Option<Game>, DatagenError> {
    let adj = &shared.options.adjudication;
    tt.clear();
    histories.clear();
    let mut openings_rejected = 0;
    let Some(mut pos) = opening(shared, rng, tt, histories, &mut openings_rejected)? else {
        return Ok(None);
    };

    let start = *pos.board();
    let mut searched = Vec::new();
    // Consecutive plies with a winning score for the same side (its sign, for White),
    // and with a drawish score.
    let (mut win_streak, mut win_side, mut draw_streak) = (0, 0, 0);
    let (result, end) = loop {
        if let Some(outcome) = pos.outcome() {
            break match outcome {
                Outcome::Checkmate {
                    winner: Color::White,
                } => (GameResult::WhiteWin, End::Checkmate),
                Outcome::Checkmate {
                    winner: Color::Black,
                } => (GameResult::BlackWin, End::Checkmate),
                Outcome::Stalemate => (GameResult::Draw, End::Stalemate),
                Outcome::ThreefoldRepetition => (GameResult::Draw, End::Repetition),
                Outcome::FiftyMoveRule => (GameResult::Draw, End::FiftyMoves),
                Outcome::InsufficientMaterial => (GameResult::Draw, End::InsufficientMaterial),
            };
        }
        let plies = pos.plies_played() as u32;
        if plies >= adj.max_plies {
            break (GameResult::Draw, End::MaxLength);
        }

        let (best, score) = search(shared, &pos, tt, histories);
        if shared.control.stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        // Scores, mates included, lie within i16.
        searched.push((
            best,
            score.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
        ));

        let white_score = match pos.side_to_move() {
            Color::White => score,
            Color::Black => -score,
        };
        if score.abs() >= adj.win_score {
            let side = white_score.signum();
            win_streak = if side == win_side { win_streak + 1 } else { 1 };
            win_side = side;
        } else {
            win_streak = 0;
        }
        if adj.win_plies > 0 && win_streak >= adj.win_plies {
            let result = if win_side > 0 {
                GameResult::WhiteWin
            } else {
                GameResult::BlackWin
            };
            break (result, End::AdjudicatedWin);
        }
        if plies >= adj.draw_after && score.abs() <= adj.draw_score {
            draw_streak += 1;
        } else {
            draw_streak = 0;
        }
        if adj.draw_plies > 0 && draw_streak >= adj.draw_plies {
            break (GameResult::Draw, End::AdjudicatedDraw);
        }
        pos.make(best);
    };
    Ok(Some(Game {
        record: games::Game {
            start,
            result,
            plies: searched,
        },
        end,
        plies: pos.plies_played() as u32,
        openings_rejected,
    }))
}

/// Draws openings until one is playable and undecided. `None` when the run was stopped.
fn opening(
    shared: &Shared,
    rng: &mut SplitMix64,
    tt: &TranspositionTable,
    histories: &mut Histories,
    rejected: &mut u32,
) -> Result<Option<Position>, DatagenError> {
    let options = shared.options;
    let rules = OpeningRules {
        book: shared.book.as_deref(),
        random_plies: options.random_plies,
        chess960_percent: options.chess960_percent,
        double_chess960: options.double_chess960,
        opening_max_score: options.opening_max_score,
        nodes: options.nodes,
        nnue: options.nnue.clone(),
    };
    draw_opening(&rules, rng, tt, histories, shared.control, rejected)
}

/// How openings are drawn: the part of a run's options that `datagen` and `genfens`
/// share, so that both make their openings the same way.
pub struct OpeningRules<'a> {
    /// The positions to start from (`None`: the start position).
    pub book: Option<&'a [Board]>,
    pub random_plies: u32,
    pub chess960_percent: u32,
    pub double_chess960: bool,
    /// An opening a search of `nodes` nodes scores beyond this (centipawns) is drawn again.
    pub opening_max_score: i32,
    pub nodes: u64,
    pub nnue: Option<Arc<Net>>,
}

/// Draws openings by `rules` until one is playable and undecided: the start (a Chess960
/// position for the asked share, else a book position or the start position), then N or
/// N+1 random plies, kept when the game is not over and a short search does not score it
/// beyond the limit; `rejected` counts the others. `None` when `control` stopped it.
pub fn draw_opening(
    rules: &OpeningRules,
    rng: &mut SplitMix64,
    tt: &TranspositionTable,
    histories: &mut Histories,
    control: &SearchControl,
    rejected: &mut u32,
) -> Result<Option<Position>, DatagenError> {
    for _ in 0..MAX_OPENING_TRIES {
        // (No draw from the generator unless Chess960 starts are asked for, so that the
        // games of a run without them stay the same as before they existed.)
        let chess960 =
            rules.chess960_percent > 0 && rng.below(100) < u64::from(rules.chess960_percent);
        let mut pos = if chess960 {
            let white = rng.below(u64::from(chess960::POSITIONS)) as u16;
            let black = if rules.double_chess960 {
                rng.below(u64::from(chess960::POSITIONS)) as u16
            } else {
                white
            };
            Position::from_board(chess960::start_position(white, black))
        } else {
            match rules.book {
                Some(book) => Position::from_board(book[rng.below(book.len() as u64) as usize]),
                None => Position::startpos(),
            }
        };
        let plies = match rules.random_plies {
            0 => 0,
            n => n + rng.below(2) as u32,
        };
        let mut playable = true;
        for _ in 0..plies {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                playable = false;
                break;
            }
            pos.make(moves[rng.below(moves.len() as u64) as usize]);
        }
        if playable && pos.outcome().is_none() {
            let (_, score) = quiet_search(&pos, rules.nodes, &rules.nnue, tt, histories, control);
            if control.stop.load(Ordering::Relaxed) {
                return Ok(None);
            }
            if score.abs() <= rules.opening_max_score {
                return Ok(Some(pos));
            }
        }
        *rejected += 1;
    }
    Err(DatagenError::NoOpening {
        tries: MAX_OPENING_TRIES,
    })
}

/// A quiet search of the run's `nodes` nodes, no output.
fn search(
    shared: &Shared,
    pos: &Position,
    tt: &TranspositionTable,
    histories: &mut Histories,
) -> (Move, i32) {
    let options = shared.options;
    quiet_search(
        pos,
        options.nodes,
        &options.nnue,
        tt,
        histories,
        shared.control,
    )
}

/// A search of `nodes` nodes with the evaluation `nnue` (`None`: the hand-crafted one),
/// no output: its move and score, the score on the network's own scale.
fn quiet_search(
    pos: &Position,
    nodes: u64,
    nnue: &Option<Arc<Net>>,
    tt: &TranspositionTable,
    histories: &mut Histories,
    control: &SearchControl,
) -> (Move, i32) {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    // The evaluation the options name, not the engine's default: a run must not change
    // with the network embedded in the binary unless it asks for that network.
    let options = SearchOptions {
        report: None,
        nnue: nnue.clone(),
        ..SearchOptions::default()
    };
    let result = think(pos, limits, &[], options, tt, histories, control);
    // The network learns its own scale: the search's material scaling is undone, so that
    // it is not learned and then applied a second time.
    let score = if nnue.is_some() {
        crate::search::network_scale(result.score, pos.board())
    } else {
        result.score
    };
    (result.best, score)
}

/// The generator of game number `game` of a run seeded with `seed`: each game has its own,
/// so a run repeats game for game whatever the number of threads.
pub fn game_rng(seed: u64, game: u64) -> SplitMix64 {
    let base = SplitMix64::new(seed).next_u64();
    let mut rng = SplitMix64::new(base ^ game.wrapping_mul(0xD1B5_4A32_D192_ED03));
    rng.next_u64();
    rng
}

/// Reads the start positions of a book: one FEN or EPD per line (the first four fields,
/// and the two clocks if they follow; EPD operations after them are ignored). Empty lines
/// and lines starting with `#` are skipped, and so are positions that cannot start a game
/// (no legal move) or do not fit a record (more than 32 pieces).
pub fn read_book(path: &PathBuf) -> Result<Vec<Board>, DatagenError> {
    let text = std::fs::read_to_string(path).map_err(|error| DatagenError::Book {
        path: path.clone(),
        error,
    })?;
    let mut boards = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let mut fields: Vec<&str> = tokens.iter().take(4).copied().collect();
        fields.extend(
            tokens
                .iter()
                .skip(4)
                .take(2)
                .take_while(|t| t.parse::<u16>().is_ok()),
        );
        let board = fen::parse(&fields.join(" "), false).map_err(|e| DatagenError::BookLine {
            path: path.clone(),
            line: i + 1,
            message: e.to_string(),
        })?;
        if board.occupied().count() <= 32 && !legal_moves(&board).is_empty() {
            boards.push(board);
        }
    }
    if boards.is_empty() {
        return Err(DatagenError::BookEmpty { path: path.clone() });
    }
    Ok(boards)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::movepick::is_noisy;

    #[test]
    fn game_generators_differ_by_seed_and_number() {
        let first = |seed, game| game_rng(seed, game).next_u64();
        assert_eq!(first(1, 0), first(1, 0));
        assert_ne!(first(1, 0), first(1, 1));
        assert_ne!(first(1, 0), first(2, 0));
        assert_ne!(first(0, 1), first(1, 0));
    }

    #[test]
    fn noisy_best_moves_checks_and_mates_are_not_trainable() {
        let board = fen::parse("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", false).unwrap();
        let moves = legal_moves(&board);
        let capture = *moves
            .iter()
            .find(|m| board.piece_on(m.to()).is_some())
            .unwrap();
        let quiet = *moves.iter().find(|m| !is_noisy(&board, **m)).unwrap();
        let usable = games::trainable;
        assert!(usable(&board, quiet, 30));
        assert!(!usable(&board, capture, 30));
        assert!(!usable(
            &board,
            quiet,
            crate::search::score::mate_in(5) as i16
        ));
        let check = fen::parse("4k3/8/8/8/8/8/8/4K2r w - - 0 1", false).unwrap();
        let evasion = legal_moves(&check)[0];
        assert!(!usable(&check, evasion, 0));
    }

    #[test]
    fn book_reads_fen_and_epd_and_reports_bad_lines() {
        let dir = std::env::temp_dir().join(format!("tarpon-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.epd");
        std::fs::write(
            &path,
            "# openings\n\
             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"e4\";\n\
             \n\
             r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 20\n\
             7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\n",
        )
        .unwrap();
        let book = read_book(&path).unwrap();
        // The checkmate on the last line cannot start a game.
        assert_eq!(book.len(), 2);
        assert_eq!(book[1].halfmove_clock(), 4);

        std::fs::write(
            &path,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq -\n",
        )
        .unwrap();
        let error = read_book(&path).unwrap_err().to_string();
        assert!(
            error.contains("line 1") && error.contains("side to move"),
            "{error}"
        );
        std::fs::write(&path, "# nothing\n").unwrap();
        assert!(matches!(
            read_book(&path),
            Err(DatagenError::BookEmpty { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(matches!(read_book(&path), Err(DatagenError::Book { .. })));
    }
}
