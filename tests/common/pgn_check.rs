//! Replays PGN text with niklasf's `pgn-reader` (the reader of lichess's tools) and
//! shakmaty, independently of Tarpon's own PGN reader, so the tests of `play`, `analyse`
//! and `serve` check that what Tarpon writes is PGN another program reads.

use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};
use std::ops::ControlFlow;

/// One game as shakmaty saw it.
pub struct Replayed {
    pub tags: Vec<(String, String)>,
    /// The SAN of the game's own moves (variations and comments left out).
    pub sans: Vec<String>,
    pub result: String,
    pub final_position: Chess,
}

impl Replayed {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn final_fen(&self) -> String {
        Fen::from_position(&self.final_position, EnPassantMode::Legal).to_string()
    }
}

/// Replays every game of `text`; panics, naming the move, on anything shakmaty rejects.
pub fn replay(text: &str) -> Vec<Replayed> {
    let mut reader = Reader::new(text.as_bytes());
    let mut games = Vec::new();
    while let Some(game) = reader
        .read_game(&mut Replay)
        .unwrap_or_else(|e| panic!("pgn-reader cannot read the PGN: {e}\n{text}"))
    {
        games.push(game);
    }
    games
}

/// The visitor: the tags, then the main line played out on a shakmaty board.
struct Replay;

impl Visitor for Replay {
    type Tags = Vec<(String, String)>;
    type Movetext = Replayed;
    type Output = Replayed;

    fn begin_tags(&mut self) -> ControlFlow<Replayed, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Replayed> {
        let name = String::from_utf8(name.to_vec()).expect("a tag name in UTF-8");
        let value = value
            .decode_utf8()
            .expect("a tag value in UTF-8")
            .into_owned();
        tags.push((name, value));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Replayed, Replayed> {
        let final_position: Chess = match tags.iter().find(|(n, _)| n == "FEN") {
            Some((_, fen)) => Fen::from_ascii(fen.as_bytes())
                .expect("FEN tag syntax")
                .into_position(CastlingMode::Standard)
                .expect("FEN tag position"),
            None => Chess::default(),
        };
        ControlFlow::Continue(Replayed {
            tags,
            sans: Vec::new(),
            result: String::new(),
            final_position,
        })
    }

    fn san(&mut self, game: &mut Replayed, san_plus: SanPlus) -> ControlFlow<Replayed> {
        let m = san_plus
            .san
            .to_move(&game.final_position)
            .unwrap_or_else(|e| panic!("{san_plus} is not legal for shakmaty: {e}"));
        game.final_position.play_unchecked(m);
        game.sans.push(san_plus.to_string());
        ControlFlow::Continue(())
    }

    /// Variations are skipped: only the game's own moves are replayed.
    fn begin_variation(&mut self, _: &mut Replayed) -> ControlFlow<Replayed, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, game: &mut Replayed, outcome: Outcome) -> ControlFlow<Replayed> {
        game.result = outcome.to_string();
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Replayed) -> Replayed {
        game
    }
}
