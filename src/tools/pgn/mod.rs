//! Portable Game Notation: reading games (for `tarpon analyse`) and writing them (`play`
//! saves its games, `analyse` writes annotated ones).
//!
//! The reader takes what people and programs commonly write: tag pairs, SAN movetext with
//! or without move numbers (also the long form `Ng1-f3`, figurines `♘f3` and the mark
//! `exd6 e.p.`), `{...}` and `;` comments, NAGs (`$2`) and the traditional suffixes (`?`,
//! `!?`, ...), result tokens, and `%` escape lines. A null move (`--`, `Z0`) leaves its
//! variation out, and the caller is told; in the game's own moves it is an error, and so is
//! a variation never closed (which moves are the game's cannot be known). Variations (`(...)`,
//! nested) are kept with their own comments and NAGs, so that a game annotated by Tarpon
//! still holds everything its author wrote; their moves must be legal like the game's. A
//! game may start from a `FEN` tag; a `Variant` tag naming Chess960 reads its castling
//! that way. A game that cannot be read does not stop the reader: `read_records` gives
//! the error in its place and goes on with the next game.
//!
//! Why not the `pgn-reader` crate (which the tests use as an independent reader): it skips
//! a move it cannot read without a word and gives no line numbers, where `analyse` and
//! the board must name the game and the line, and it reads no figurines or long algebraic
//! moves.
//!
//! The writer produces the export form: the Seven Tag Roster first, `SetUp`/`FEN` for a
//! game that does not start from the initial position, NAGs as `$n`, lines of at most 80
//! characters.
//!
//! This file holds what a game is ([`Game`], its moves and variations); `read.rs` reads
//! PGN text into games, `write.rs` writes them out.

mod read;
mod write;

pub use read::{decode, latin1_note, read_games, read_records};
pub use write::write_game;

use crate::chess::{Board, Move, Position};
use std::fmt;

/// One move of a game with what is written after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameMove {
    pub mv: Move,
    /// Numeric annotation glyphs: 1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`, 6 `?!`, ...
    pub nags: Vec<u8>,
    pub comments: Vec<String>,
    /// Alternatives to this move, each a line played from the position before it: those
    /// of the game as read, then any an annotator adds.
    pub variations: Vec<Line>,
}

impl GameMove {
    pub fn new(mv: Move) -> GameMove {
        GameMove {
            mv,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// A variation: moves, each with its own NAGs, comments and variations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Comments before the first move.
    pub comments: Vec<String>,
    pub moves: Vec<GameMove>,
}

impl Line {
    /// A line of bare moves.
    pub fn of_moves(moves: &[Move]) -> Line {
        Line {
            comments: Vec::new(),
            moves: moves.iter().map(|&m| GameMove::new(m)).collect(),
        }
    }
}

/// A game: its tags, where it starts, its moves and its result.
#[derive(Clone, Debug)]
pub struct Game {
    /// In the order read (or set); `Result`, `SetUp` and `FEN` are written from the game
    /// itself, whatever these say.
    pub tags: Vec<(String, String)>,
    pub start: Board,
    /// Comments before the first move.
    pub comments: Vec<String>,
    pub moves: Vec<GameMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (unfinished or unknown).
    pub result: String,
    /// Variations of the text read that were left out, with why: a move in them could not
    /// be read (the game's own moves could).
    pub dropped: Vec<PgnError>,
}

impl Game {
    pub fn new(start: Board) -> Game {
        Game {
            tags: Vec::new(),
            start,
            comments: Vec::new(),
            moves: Vec::new(),
            result: "*".to_string(),
            dropped: Vec::new(),
        }
    }

    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing its value if the game has it already.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The position before each move (`[i]` before move `i`) and after the last one, with
    /// the game's history, so that repetitions count.
    pub fn positions(&self) -> Vec<Position> {
        let mut position = Position::from_board(self.start);
        let mut out = vec![position.clone()];
        for m in &self.moves {
            position.make(m.mv);
            out.push(position.clone());
        }
        out
    }
}

/// Why a PGN text could not be read: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based: the game in the file, and the line of the text.
    pub game: usize,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "game {}, line {}: {}",
            self.game, self.line, self.message
        )
    }
}

impl std::error::Error for PgnError {}

#[cfg(test)]
mod tests {
    use super::read::is_chess960;
    use super::write::LINE_WIDTH;
    use super::*;
    use crate::chess::fen::{self, START_FEN};
    use crate::chess::notation::to_san;

    /// Before, `[Variant "fischerandom"]` (Cute Chess) was not read as Chess960, and the
    /// game's X-FEN castling (`KQkq` with rooks not on a and h) was refused.
    #[test]
    fn chess960_variants_as_other_programs_name_them() {
        for variant in ["fischerandom", "Fischer Random", "chess960", "Chess 960"] {
            let text = format!(
                "[Variant \"{variant}\"]\n[SetUp \"1\"]\n\
                 [FEN \"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1\"]\n\n\
                 1. O-O-O Kf8 *\n"
            );
            let games = read_games(&text).unwrap_or_else(|e| panic!("{variant}: {e}"));
            assert_eq!(games[0].moves.len(), 2, "{variant}");
        }
        assert!(!is_chess960("Standard") && !is_chess960("crazyhouse"));
    }

    /// Before, one Latin-1 byte in a header refused the whole file, without a line.
    #[test]
    fn a_latin1_file_is_read_as_latin1_with_the_line_named() {
        let bytes = b"[Event \"?\"]\n[White \"R\xe9ti\"]\n[Result \"*\"]\n\n1. e4 *\n";
        let (text, line) = decode(bytes);
        assert_eq!(line, Some(2));
        let games = read_games(&text).unwrap();
        assert_eq!(games[0].tag("White"), Some("R\u{e9}ti"));
        assert_eq!(decode("1. e4 *".as_bytes()), ("1. e4 *".to_string(), None));
    }
    use crate::chess::notation::parse_uci;

    const SAMPLE: &str = r#"% produced by hand
[Event "Test \"quoted\""]
[Site "?"]
[Result "1-0"]

{Opening comment} 1. e4 e5 $1 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6 3. Bb5!? ; the Spanish
a6 4. Ba4 Nf6 5. O-O Be7 {a long
comment over two lines} 1-0

[Event "Second"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40"]

40. e4 Kd7 41. e5 *
"#;

    #[test]
    fn reads_tags_moves_comments_nags_and_variations() {
        let games = read_games(SAMPLE).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("Test \"quoted\""));
        assert_eq!(g.result, "1-0");
        assert_eq!(g.comments, vec!["Opening comment"]);
        assert_eq!(g.moves.len(), 10);
        assert_eq!(g.moves[1].nags, vec![1]);
        // (2. f4 exf4 (2... d5) 3. Nf3): a variation with one nested in it.
        let sans = |board: &Board, line: &Line| {
            let mut b = *board;
            let mut out = Vec::new();
            for m in &line.moves {
                out.push(to_san(&b, m.mv));
                b.play(m.mv);
            }
            out
        };
        let before_nf3 = g.positions()[2].board().to_owned();
        assert_eq!(g.moves[2].variations.len(), 1);
        let f4 = &g.moves[2].variations[0];
        assert_eq!(sans(&before_nf3, f4), ["f4", "exf4", "Nf3"]);
        let mut after_f4 = before_nf3;
        after_f4.play(f4.moves[0].mv);
        assert_eq!(sans(&after_f4, &f4.moves[1].variations[0]), ["d5"]);
        assert_eq!(g.moves[4].nags, vec![5]);
        assert_eq!(g.moves[4].comments, vec!["the Spanish"]);
        assert_eq!(g.moves[9].comments, vec!["a long comment over two lines"]);
        let last = g.positions().pop().unwrap();
        assert_eq!(
            last.fen(),
            "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6"
        );
        let second = &games[1];
        assert_eq!(second.result, "*");
        assert_eq!(second.moves.len(), 3);
        assert_eq!(second.start.fullmove_number(), 40);
    }

    #[test]
    fn written_games_read_back_the_same() {
        let games = read_games(SAMPLE).unwrap();
        for g in &games {
            let text = write_game(g);
            assert!(
                text.lines().all(|l| l.chars().count() <= LINE_WIDTH),
                "{text}"
            );
            let again = read_games(&text).unwrap();
            assert_eq!(again.len(), 1, "{text}");
            assert_eq!(again[0].moves, g.moves, "{text}");
            assert_eq!(again[0].result, g.result);
            assert_eq!(fen::to_fen(&again[0].start), fen::to_fen(&g.start));
        }
        let text = write_game(&games[1]);
        assert!(
            text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 40\"]"),
            "{text}"
        );
        assert!(text.contains("40. e4 Kd7 41. e5 *"), "{text}");
    }

    #[test]
    fn writes_numbers_after_comments_and_variations_in_parentheses() {
        let start = fen::parse(START_FEN, false).unwrap();
        let mut game = Game::new(start);
        let mut b = start;
        for text in ["e2e4", "e7e5", "g1f3"] {
            let m = parse_uci(&b, text).unwrap();
            game.moves.push(GameMove::new(m));
            b.play(m);
        }
        game.moves[0].comments.push("best by test".to_string());
        let mut after_e4 = start;
        after_e4.play(game.moves[0].mv);
        let c5 = parse_uci(&after_e4, "c7c5").unwrap();
        let mut after_c5 = after_e4;
        after_c5.play(c5);
        game.moves[1]
            .variations
            .push(Line::of_moves(&[c5, parse_uci(&after_c5, "g1f3").unwrap()]));
        game.moves[1].nags.push(6);
        let text = write_game(&game);
        assert!(
            text.contains("1. e4 { best by test } 1... e5 $6 (1... c5 2. Nf3) 2. Nf3 *"),
            "{text}"
        );
    }

    /// A glyph and the same NAG by number are one annotation: read once, written once.
    #[test]
    fn an_annotation_given_twice_is_kept_once() {
        let game = read_games("1. e4 b5?! $6 2. Bxb5 $1 ! *")
            .unwrap()
            .remove(0);
        assert_eq!(game.moves[1].nags, [6]);
        assert_eq!(game.moves[2].nags, [1]);
        let written = write_game(&game);
        assert!(written.contains("1. e4 b5 $6 2. Bxb5 $1 *"), "{written}");
    }

    #[test]
    fn variations_keep_their_comments_nags_and_nesting_when_written() {
        let text = "1. e4 e5 2. Nf3 $1 { good } (2. Qh5 Nc6 3. Bc4 Nf6?? { oh } (3... g6) \
                    4. Qxf7#) (2. f4) 2... Nc6 *";
        let game = read_games(text).unwrap().remove(0);
        let written = write_game(&game);
        let flat = written.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(
                "2. Nf3 $1 { good } (2. Qh5 Nc6 3. Bc4 Nf6 $4 { oh } (3... g6) 4. Qxf7#) \
                 (2. f4) 2... Nc6 *"
            ),
            "{written}"
        );
        assert_eq!(read_games(&written).unwrap()[0].moves, game.moves);
        // A variation of comments alone leaves its comments to the move.
        let game = read_games("1. e4 ({ or d4 }) e5 *").unwrap().remove(0);
        assert_eq!(game.moves[0].comments, ["or d4"]);
        assert!(game.moves[0].variations.is_empty());
        // A variation with a move that cannot be read is left out, nested ones with it,
        // and said so; the game and its other variations stay.
        let game = read_games("1. e4 e5 (1... Ke3 (1... Kd2) 2. d4) (1... c5) 2. Nf3 *")
            .unwrap()
            .remove(0);
        assert_eq!(game.moves.len(), 3);
        assert_eq!(game.moves[1].variations.len(), 1);
        assert_eq!(game.dropped.len(), 1);
        assert_eq!(
            game.dropped[0].to_string(),
            "game 1, line 1: in a variation, move 1... Ke3: illegal move 'Ke3'"
        );
        for (text, words) in [
            ("(1. e4) 1. d4 *", "before any move"),
            ("1. e4 ) e5 *", "without a variation"),
        ] {
            let err = read_games(text).unwrap_err();
            assert!(err.message.contains(words), "{text}: {}", err.message);
        }
    }

    #[test]
    fn a_bad_game_is_reported_in_its_place_and_the_others_read() {
        let text = "[Event \"a\"]\n\n1. e4 e5 *\n\n\
                    [Event \"b\"]\n\n1. e4 e4 2. Nf3 (2. Nc3) 2... Nc6 1-0\n\n\
                    [Event \"c\"]\n[FEN \"nonsense\"]\n\n1. e4 *\n\n\
                    [Event \"d\n\n1. d4 $999 *\n\n\
                    [Event \"e\"]\n\n1. d4 d5 *\n";
        let records = read_records(text);
        let summary: Vec<Result<&str, (usize, usize)>> = records
            .iter()
            .map(|r| match r {
                Ok(game) => Ok(game.tag("Event").unwrap_or("")),
                Err(e) => Err((e.game, e.line)),
            })
            .collect();
        assert_eq!(
            summary,
            [Ok("a"), Err((2, 7)), Err((3, 12)), Err((4, 14)), Ok("e")],
            "{records:?}"
        );
        assert_eq!(records[4].as_ref().unwrap().moves.len(), 2);
        // The strict reader stops at the first.
        assert_eq!(read_games(text).unwrap_err().game, 2);
        // A game without tags after a broken one is found by its result.
        let records = read_records("1. e4 Ke7 Ke3 *\n1. d4 d5 *\n");
        assert!(records[0].is_err() && records[1].is_ok(), "{records:?}");
    }

    #[test]
    fn moves_as_other_programs_write_them() {
        let uci_of = |game: &Game| -> Vec<String> {
            let mut board = game.start;
            let mut moves = Vec::new();
            for m in &game.moves {
                moves.push(crate::chess::notation::to_uci(&board, m.mv));
                board.play(m.mv);
            }
            moves
        };
        let plain = ["e2e4", "g8f6", "e4e5", "d7d5", "e5d6"]
            .map(String::from)
            .to_vec();
        // Long algebraic, figurines and an en passant capture marked as one.
        for text in [
            "1. e2-e4 Ng8-f6 2. e4-e5 d7-d5 3. e5xd6 e.p. *",
            "1. e4 ♞f6 2. e5 d5 3. exd6 e.p. *",
            "1. e4 Nf6 2. e5 d5 3. exd6e.p. *",
        ] {
            let game = read_games(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"))
                .remove(0);
            assert_eq!(uci_of(&game), plain, "{text}");
            assert_eq!(game.result, "*");
        }
        // A knight figurine is a knight: "♘e4" is illegal at the start, never a pawn move.
        let err = read_games("1. ♘e4 *").unwrap_err();
        assert!(
            err.message.contains("illegal move '♘e4'"),
            "{}",
            err.message
        );
        // A null move in a variation (a threat shown by a pass) leaves that variation out,
        // said so; in the game's own moves it is an error naming the move.
        for null in ["--", "Z0"] {
            let text = format!("1. e4 e5 2. Nf3 ({null} Nc6) 2... Nc6 *");
            let game = read_games(&text).unwrap().remove(0);
            assert_eq!(game.moves.len(), 4, "{text}");
            assert!(game.moves[2].variations.is_empty());
            assert!(
                game.dropped[0].message.contains("null move"),
                "{:?}",
                game.dropped
            );
            let err = read_games(&format!("1. e4 {null} 2. d4 *")).unwrap_err();
            assert!(
                err.message.contains(&format!("1... {null}: a null move")),
                "{err}"
            );
        }
        // A variation never closed is an error naming its line, not a shorter game; the
        // next game is read.
        let text =
            "[Event \"a\"]\n\n1. e4 e5 2. Nf3\n(2. d4 exd4 3. c3 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        let records = read_records(text);
        let err = records[0].as_ref().unwrap_err();
        assert_eq!((err.game, err.line), (1, 4), "{err}");
        assert!(err.message.contains("never closed"), "{err}");
        assert_eq!(records[1].as_ref().unwrap().moves.len(), 1);
        let err = read_games("1. e4 (1. d4 d5 (1... Nf6 *").unwrap_err();
        assert!(err.message.contains("never closed"), "{err}");
        // So is one passed over for a mistake in it.
        let err = read_games("1. e4 (1. d4 Ke3 2. c4 *").unwrap_err();
        assert!(err.message.contains("never closed"), "{err}");
    }

    #[test]
    fn errors_name_the_game_and_line() {
        let err =
            read_games("[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 e4 *\n").unwrap_err();
        assert_eq!((err.game, err.line), (2, 7));
        assert!(err.message.contains("1... e4"), "{}", err.message);
        let err = read_games("1. e4 {never closed").unwrap_err();
        assert!(err.message.contains("never closed"));
        let err = read_games("[FEN \"nonsense\"]\n1. e4 *").unwrap_err();
        assert!(err.message.contains("FEN"), "{}", err.message);
    }
}
