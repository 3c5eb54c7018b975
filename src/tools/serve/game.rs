//! One game on the server: its moves, clocks and ending, the rules that say what may be
//! done with it, and its PGN; its JSON is `view.rs`'s plain data. No search happens here
//! (see `search.rs`); `tarpon play`'s endings and clock are reused so that a game ends the
//! same way in the browser as in the terminal.

use super::api::ApiError;
use super::tree::{MAX_NODES, Tree};
use super::view::{
    ClockView, GameView, MoveView, check_square, color_name, legal_views, opening_view,
};
use crate::chess::fen::START_FEN;
use crate::chess::notation::MoveError;
use crate::chess::{Board, Color, Move, Outcome, Position};
use crate::search::skill::Skill;
use crate::tools::engine::parse_move_text;
use crate::tools::pgn;
use crate::tools::play::{
    Clock, Ending, TimeControl, name, record_moves_and_ending, tag_casual_game,
};
use std::time::{Duration, Instant};

/// Thinking time per move for Tarpon when a game has no clock and asks for none.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;
/// Limits of the time per move a game may ask for.
pub const MIN_MOVETIME_MS: u64 = 10;
pub const MAX_MOVETIME_MS: u64 = 30_000;
/// A game longer than this is refused (a PGN is read whole, and every ply is kept).
pub const MAX_PLIES: usize = 1000;

/// What a game is for: a game against Tarpon, or a board where people move both sides and
/// Tarpon only analyses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Play,
    Analysis,
}

/// How a game was set up (the request to `POST /api/games`, validated).
pub struct Setup {
    pub mode: Mode,
    /// The person's colour in a game against Tarpon.
    pub human: Color,
    pub start: Board,
    /// The moves from there: a PGN's main line with its variations, comments and NAGs.
    pub line: pgn::Line,
    /// Tags of a game read from PGN, kept for the PGN written back.
    pub tags: Vec<(String, String)>,
    pub time_control: Option<TimeControl>,
    /// White's and Black's time left, where not the clock's base (a game set up again).
    pub clock_left: Option<[Duration; 2]>,
    pub movetime_ms: u64,
    pub strength: Option<Skill>,
}

pub struct Game {
    pub id: u64,
    pub mode: Mode,
    pub human: Color,
    start: Board,
    /// Every move played or read, with the variations, comments and NAGs.
    tree: Tree,
    /// The line shown, from the start to the end of a line of the tree: the nodes of its
    /// moves. `position` is the position after it.
    line: Vec<usize>,
    position: Position,
    tags: Vec<(String, String)>,
    ending: Option<Ending>,
    clock: Option<Clock>,
    /// When the side to move's clock started running.
    turn_started: Instant,
    pub movetime_ms: u64,
    pub strength: Option<Skill>,
    /// Counts every change, so that a search can tell whether its game moved on while it
    /// thought (a takeback, a new position) and drop its move.
    pub version: u64,
    /// When a request last touched the game: the oldest idle game makes room for a new one.
    pub last_used: Instant,
}

impl Game {
    /// A game as set up; its moves (from a PGN) were checked legal by the reader.
    pub fn new(id: u64, setup: Setup) -> Game {
        let tree = Tree::from_line(&setup.line);
        let line = tree.line_through(0);
        let mut game = Game {
            id,
            mode: setup.mode,
            human: setup.human,
            start: setup.start,
            tree,
            line: Vec::new(),
            position: Position::from_board(setup.start),
            tags: setup.tags,
            ending: None,
            clock: setup.time_control.map(|control| Clock {
                control,
                remaining: setup.clock_left.unwrap_or([control.base; 2]),
            }),
            turn_started: Instant::now(),
            movetime_ms: setup.movetime_ms,
            strength: setup.strength,
            version: 0,
            last_used: Instant::now(),
        };
        game.set_line(line);
        game.version = 0;
        game
    }

    /// Shows `line` (nodes of the tree from the start): the position after it, its ending.
    fn set_line(&mut self, line: Vec<usize>) {
        let mut position = Position::from_board(self.start);
        for &id in &line {
            if let Some(node) = self.tree.node(id) {
                position.make(node.mv);
            }
        }
        self.line = line;
        self.position = position;
        self.ending = None;
        self.version += 1;
        self.judge();
    }

    /// The node after the first `ply` moves of the line shown (0: the start).
    fn node_at(&self, ply: usize) -> usize {
        if ply == 0 { 0 } else { self.line[ply - 1] }
    }

    /// Refuses more moves on a board that holds `MAX_NODES`.
    fn room_for_a_move(&self) -> Result<(), ApiError> {
        if self.tree.len() > MAX_NODES {
            return Err(ApiError::conflict(&format!(
                "This board holds {MAX_NODES} moves already: start a new one"
            )));
        }
        Ok(())
    }

    /// Shows the line through node `id`: the moves to it, then its main continuation.
    /// Answers how many moves lead to the node.
    pub fn select_node(&mut self, id: usize) -> Result<usize, ApiError> {
        self.analysis_only()?;
        if self.tree.node(id).is_none() {
            return Err(ApiError::bad_request(&format!(
                "There is no move {id} on this board"
            )));
        }
        self.set_line(self.tree.line_through(id));
        Ok(self.tree.path_to(id).len())
    }

    /// Makes the variation through node `id` the main line where it branches off.
    pub fn promote(&mut self, id: usize) -> Result<(), ApiError> {
        self.analysis_only()?;
        if id == 0 || self.tree.node(id).is_none() {
            return Err(ApiError::bad_request(&format!(
                "There is no move {id} on this board"
            )));
        }
        if !self.tree.promote(id) {
            return Err(ApiError::conflict("That move is on the main line already"));
        }
        self.version += 1;
        Ok(())
    }

    /// Deletes node `id` and every move after it; the line shown, if it went through it,
    /// ends before it (then follows the main continuation from there).
    pub fn delete(&mut self, id: usize) -> Result<(), ApiError> {
        self.analysis_only()?;
        if id == 0 || self.tree.node(id).is_none() {
            return Err(ApiError::bad_request(&format!(
                "There is no move {id} on this board"
            )));
        }
        let mut line = self.line.clone();
        self.tree.remove(id, &mut line);
        let last = line.last().copied().unwrap_or(0);
        let through = self.tree.line_through(last);
        self.set_line(through);
        Ok(())
    }

    fn analysis_only(&self) -> Result<(), ApiError> {
        if self.mode != Mode::Analysis {
            return Err(ApiError::conflict(
                "A game against Tarpon has one line: variations are for analysis boards",
            ));
        }
        Ok(())
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    /// Whether this is a game against Tarpon that is still being played: Tarpon does not
    /// analyse it for the person until it ends.
    pub fn is_live(&self) -> bool {
        self.mode == Mode::Play && self.ending.is_none()
    }

    /// Whether it is Tarpon's turn in a game against it.
    pub fn tarpon_to_move(&self) -> bool {
        self.mode == Mode::Play
            && self.ending.is_none()
            && self.position.side_to_move() != self.human
    }

    /// Tarpon's remaining time and increment, if the game is on a clock.
    pub fn clock_for_side_to_move(&self) -> Option<(Duration, Duration)> {
        let side = self.position.side_to_move();
        self.clock.as_ref().map(|c| {
            let left = c.remaining[side.index()].saturating_sub(self.time_on_turn());
            (left, c.control.increment)
        })
    }

    /// Whether the side to move's clock runs: in a game that goes on, once each side has
    /// made its first move (as on lichess, the first moves are not timed).
    fn clock_runs(&self) -> bool {
        self.clock.is_some() && self.ending.is_none() && self.position.plies_played() >= 2
    }

    /// The time the side to move has used on this turn so far.
    fn time_on_turn(&self) -> Duration {
        if self.clock_runs() {
            self.turn_started.elapsed()
        } else {
            Duration::ZERO
        }
    }

    /// Stops the running clock: the side to move is charged the time it used on this turn
    /// (without an increment: no move was made), so that nothing (a takeback, the end of
    /// the game) gives time back. False if that was more than it had.
    fn stop_clock(&mut self) -> bool {
        let used = self.time_on_turn();
        let side = self.position.side_to_move();
        self.turn_started = Instant::now();
        match &mut self.clock {
            Some(clock) => {
                let left = &mut clock.remaining[side.index()];
                *left = left.saturating_sub(used);
                !left.is_zero()
            }
            None => true,
        }
    }

    /// Ends the game when the side to move's flag has fallen; every request does this
    /// first, so a clock that ran out is seen by whoever looks next.
    pub fn judge_flag(&mut self) {
        if self.ending.is_none()
            && let Some((left, _)) = self.clock_for_side_to_move()
            && left.is_zero()
        {
            let side = self.position.side_to_move();
            if let Some(clock) = &mut self.clock {
                clock.remaining[side.index()] = Duration::ZERO;
            }
            self.ending = Some(Ending::time_forfeit(side, &self.position));
            self.version += 1;
        }
    }

    /// Ends the game if the rules say it is over.
    fn judge(&mut self) {
        if self.ending.is_none()
            && let Some(outcome) = self.position.outcome()
            && (self.mode == Mode::Play || ends_analysis(outcome))
        {
            self.ending = Some(Ending::from_outcome(outcome));
        }
    }

    /// The person's move, in UCI or SAN. On an analysis board, `at` plays it after the
    /// first `at` moves of the line shown: the line goes on with it if it was played there
    /// already, and otherwise it starts a new variation (the moves after it stay).
    pub fn human_move(&mut self, text: &str, at: Option<usize>) -> Result<(), ApiError> {
        if let Some(at) = at {
            // A game against Tarpon goes on from its end only. A move made in another
            // position (a second tab that still shows an earlier one) is refused rather
            // than played into a position its player never saw.
            if self.mode != Mode::Analysis {
                let played = self.line.len();
                if at != played {
                    return Err(ApiError::conflict(&format!(
                        "This move was not played: it was made in the position after {at} \
                         plies, and the game is at {played} (it went on in another tab or \
                         window). The board now shows the game as it is."
                    )));
                }
            } else if at < self.line.len() {
                let m = read_move(&*self.position_at(at)?, text)?;
                self.room_for_a_move()?;
                let child = self.tree.child(self.node_at(at), m);
                self.set_line(self.tree.line_through(child));
                return Ok(());
            }
            self.position_at(at)?;
        }
        self.room_for_a_move()?;
        self.judge_flag();
        if self.is_over() {
            return Err(ApiError::conflict(&format!(
                "The game is over: {}",
                self.ending_reason()
            )));
        }
        if self.tarpon_to_move() {
            return Err(ApiError::conflict("It is Tarpon's turn, not yours"));
        }
        let m = read_move(&self.position, text)?;
        self.play(m);
        Ok(())
    }

    /// Plays Tarpon's move: `version` is the game's version when it began to think; a move
    /// for a game that changed since is not played.
    pub fn tarpon_move(&mut self, m: Move, version: u64) -> Result<(), ApiError> {
        self.judge_flag();
        if version != self.version || !self.tarpon_to_move() {
            return Err(ApiError::conflict(
                "The game changed while Tarpon was thinking; its move was dropped",
            ));
        }
        self.play(m);
        Ok(())
    }

    /// Plays a legal move for the side to move, charging its clock; a move made after the
    /// flag fell is not played.
    fn play(&mut self, m: Move) {
        let side = self.position.side_to_move();
        let timed = self.clock_runs();
        let used = self.time_on_turn();
        self.version += 1;
        self.turn_started = Instant::now();
        if let Some(clock) = &mut self.clock
            && timed
            && !clock.charge(side, used)
        {
            self.ending = Some(Ending::time_forfeit(side, &self.position));
            return;
        }
        self.position.make(m);
        let last = self.line.last().copied().unwrap_or(0);
        let id = self.tree.child(last, m);
        self.line.push(id);
        self.judge();
    }

    /// Keeps only the first `plies` moves of the line shown, deleting the later ones.
    fn truncate(&mut self, plies: usize) -> Result<(), ApiError> {
        let played = self.position.plies_played();
        if plies > played {
            return Err(ApiError::bad_request(&format!(
                "'at' is {plies}, but the game has only {played} moves (plies)"
            )));
        }
        for _ in plies..played {
            self.position.unmake();
        }
        if plies < played {
            let mut line = self.line.clone();
            self.tree.remove(self.line[plies], &mut line);
            self.line = line;
            self.ending = None;
            self.version += 1;
            self.judge();
        }
        Ok(())
    }

    /// Sets the arrows (`cal`: `Ge2e4,Rd8d1`) and circles (`csl`: `Rd4`) drawn on the
    /// position after node `node` of an analysis board, as PGN's `[%cal]` and `[%csl]`
    /// commands: colour G, R, Y or B, then the squares.
    pub fn set_shapes(&mut self, node: usize, cal: &str, csl: &str) -> Result<(), ApiError> {
        if self.mode != Mode::Analysis {
            return Err(ApiError::conflict(
                "Arrows and circles are kept on analysis boards",
            ));
        }
        check_shapes(cal, 2)?;
        check_shapes(csl, 1)?;
        if !self.tree.set_shapes(node, cal, csl) {
            return Err(ApiError::bad_request(&format!(
                "node {node} is not a move of this board"
            )));
        }
        self.version += 1;
        Ok(())
    }

    /// Takes back: in a game against Tarpon that goes on, up to and including the
    /// person's last move; on an analysis board, one move.
    pub fn take_back(&mut self) -> Result<(), ApiError> {
        self.judge_flag();
        // A game against Tarpon that ended (resigned, mated, lost on time, drawn) stays
        // ended: taking a move back would revive it.
        if self.mode == Mode::Play
            && let Some(ending) = &self.ending
        {
            return Err(ApiError::conflict(&format!(
                "The game is over ({}): it cannot be taken back",
                ending.reason
            )));
        }
        if self
            .ending
            .as_ref()
            .is_some_and(|e| e.termination == "time forfeit")
        {
            return Err(ApiError::conflict(
                "Time ran out: the game cannot be taken back",
            ));
        }
        let plies = self.position.plies_played();
        if self.mode == Mode::Analysis {
            if plies == 0 {
                return Err(ApiError::conflict("There is no move to take back"));
            }
            return self.truncate(plies - 1);
        }
        let human_moved = plies >= 2 || (plies == 1 && self.start.side_to_move() == self.human);
        if !human_moved {
            return Err(ApiError::conflict("There is no move of yours to take back"));
        }
        // The clocks are not turned back (as in `tarpon play`): the person keeps what was
        // left when asking, less this turn's time, and their clock starts anew.
        if !self.stop_clock() {
            self.judge_flag();
            return Err(ApiError::conflict(
                "Time ran out: the game cannot be taken back",
            ));
        }
        let mut keep = plies - 1;
        while side_after(&self.start, keep) != self.human {
            keep -= 1;
        }
        self.truncate(keep)?;
        self.turn_started = Instant::now();
        Ok(())
    }

    pub fn resign(&mut self) -> Result<(), ApiError> {
        self.judge_flag();
        if self.mode != Mode::Play {
            return Err(ApiError::conflict("Nobody plays on an analysis board"));
        }
        if self.is_over() {
            return Err(ApiError::conflict("The game is over already"));
        }
        self.stop_clock();
        let loser = self.human;
        let reason = format!("{} resigns: {} wins", name(loser), name(loser.flip()));
        self.ending = Some(Ending::win(loser.flip(), reason, "normal"));
        self.version += 1;
        Ok(())
    }

    /// Whether the game against Tarpon may still be aborted: it goes on, and neither side
    /// has made a second move (the person may leave a game that has barely begun).
    pub fn can_abort(&self) -> bool {
        self.is_live() && self.position.plies_played() < 2
    }

    /// Ends a game that has barely begun, with no result.
    pub fn abort(&mut self) -> Result<(), ApiError> {
        self.judge_flag();
        if self.mode != Mode::Play || !self.is_live() {
            return Err(ApiError::conflict(
                "Only a game against Tarpon that goes on can be aborted",
            ));
        }
        if !self.can_abort() {
            return Err(ApiError::conflict(
                "Both sides have moved: the game can no longer be aborted (resign, or offer a draw)",
            ));
        }
        self.stop_clock();
        self.ending = Some(Ending {
            result: "*",
            reason: "Game aborted".to_string(),
            termination: "abandoned",
        });
        self.version += 1;
        Ok(())
    }

    /// Ends the game in a draw agreed to by Tarpon, unless it changed since `version`.
    pub fn agree_draw(&mut self, version: u64) -> Result<(), ApiError> {
        self.judge_flag();
        if version != self.version || !self.is_live() {
            return Err(ApiError::conflict(
                "The game changed while Tarpon considered the draw",
            ));
        }
        self.stop_clock();
        self.ending = Some(Ending::draw("Draw agreed".to_string(), "normal"));
        self.version += 1;
        Ok(())
    }

    fn ending_reason(&self) -> String {
        self.ending
            .as_ref()
            .map_or(String::new(), |e| e.reason.clone())
    }

    /// The position after the first `ply` moves, with the history before it.
    pub fn position_at(&self, ply: usize) -> Result<Position, ApiError> {
        let played = self.position.plies_played();
        if ply > played {
            return Err(ApiError::bad_request(&format!(
                "ply {ply} is past the end of the game ({played} plies)"
            )));
        }
        let mut position = Position::from_board(self.start);
        for m in self.position.moves_played().take(ply) {
            position.make(m);
        }
        Ok(position)
    }

    /// Every position of the game, before each move and after the last.
    pub fn positions(&self) -> Vec<Position> {
        let mut position = Position::from_board(self.start);
        let mut out = vec![position.clone()];
        for m in self.position.moves_played() {
            position.make(m);
            out.push(position.clone());
        }
        out
    }

    /// The game as a PGN record.
    pub fn record(&self) -> pgn::Game {
        let mut game = pgn::Game::new(self.start);
        game.tags = self.tags.clone();
        if self.mode == Mode::Play {
            tag_casual_game(
                &mut game,
                "Tarpon in the browser",
                "Player".to_string(),
                self.human,
                self.strength,
                self.clock.as_ref(),
            );
            record_moves_and_ending(&mut game, &self.position, self.ending.as_ref());
            return game;
        }
        // An analysis board keeps what it was read with: tags (a missing date stays
        // unknown), comments, NAGs, variations and result. A new board gets an event and
        // a site.
        if self.tags.is_empty() {
            game.set_tag("Event", "Analysis");
            game.set_tag("Site", "Tarpon in the browser");
        }
        let line = self.tree.to_line();
        game.comments = line.comments;
        game.moves = line.moves;
        game.result = match self.tags.iter().find(|(n, _)| n == "Result") {
            Some((_, result)) if result != "*" => result.clone(),
            _ => {
                // The main line's end, if the rules end the game there.
                let mut position = Position::from_board(self.start);
                for m in &game.moves {
                    position.make(m.mv);
                }
                match position.outcome() {
                    Some(outcome) if ends_analysis(outcome) => {
                        Ending::from_outcome(outcome).result.to_string()
                    }
                    _ => "*".to_string(),
                }
            }
        };
        game
    }

    pub fn pgn(&self) -> String {
        pgn::write_game(&self.record())
    }

    /// The game as the page and scripts see it.
    pub fn view(&self, searching: bool) -> GameView {
        let board = self.position.board();
        let mut before = self.start;
        let mut moves = Vec::new();
        let mut fens = vec![crate::chess::fen::to_fen(&before)];
        let mut checks = vec![check_square(&before)];
        let mut openings = vec![opening_view(&before)];
        for m in self.position.moves_played() {
            moves.push(MoveView::new(&before, m));
            before.play(m);
            fens.push(crate::chess::fen::to_fen(&before));
            checks.push(check_square(&before));
            openings.push(opening_view(&before));
        }
        let (status, result, reason) = match &self.ending {
            Some(e) => ("over", e.result.to_string(), e.reason.clone()),
            None => ("playing", "*".to_string(), String::new()),
        };
        GameView {
            id: self.id,
            mode: match self.mode {
                Mode::Play => "play",
                Mode::Analysis => "analysis",
            },
            human: (self.mode == Mode::Play).then(|| color_name(self.human)),
            fen: self.position.fen(),
            start_fen: fens[0].clone(),
            from_start: fens[0] == START_FEN,
            turn: color_name(board.side_to_move()),
            ply: moves.len(),
            legal: legal_views(board),
            check: check_square(board),
            last: moves.last().map(|m| [m.from.clone(), m.to.clone()]),
            moves,
            fens,
            checks,
            openings,
            opening_tag: self.opening_tag(),
            status,
            result,
            reason,
            clock: self.clock.as_ref().map(|c| self.clock_view(c)),
            movetime_ms: self.movetime_ms,
            elo: self.strength.map(|s| s.elo()),
            can_abort: self.can_abort(),
            white: self.tag("White"),
            black: self.tag("Black"),
            tree: self.tree.views(&self.start),
            line: self.line.clone(),
            searching,
            pgn: self.pgn(),
        }
    }

    /// The opening named by the tags of a game read from PGN: `B90 Sicilian: Najdorf`.
    fn opening_tag(&self) -> Option<String> {
        match (self.tag("ECO"), self.tag("Opening")) {
            (Some(eco), Some(name)) => Some(format!("{eco} {name}")),
            (eco, name) => name.or(eco),
        }
    }

    /// A tag the game was read with, if it says something (not `?`).
    fn tag(&self, name: &str) -> Option<String> {
        self.tags
            .iter()
            .find(|(n, v)| n == name && !v.is_empty() && v != "?")
            .map(|(_, v)| v.clone())
    }

    fn clock_view(&self, clock: &Clock) -> ClockView {
        let running = self.clock_runs().then(|| self.position.side_to_move());
        let left = |side: Color| {
            let mut t = clock.remaining[side.index()];
            if running == Some(side) {
                t = t.saturating_sub(self.time_on_turn());
            }
            t.as_millis() as u64
        };
        ClockView {
            white_ms: left(Color::White),
            black_ms: left(Color::Black),
            running: running.map(color_name),
            base_ms: clock.control.base.as_millis() as u64,
            increment_ms: clock.control.increment.as_millis() as u64,
        }
    }
}

/// The most shapes of one kind on one position.
const MAX_SHAPES: usize = 64;

/// Checks a `[%cal]` (`squares` 2) or `[%csl]` (`squares` 1) list: comma-separated, each a
/// colour (G, R, Y, B) and its squares.
fn check_shapes(list: &str, squares: usize) -> Result<(), ApiError> {
    if list.is_empty() {
        return Ok(());
    }
    let items: Vec<&str> = list.split(',').collect();
    let square = |s: &[u8]| (b'a'..=b'h').contains(&s[0]) && (b'1'..=b'8').contains(&s[1]);
    let good = items.len() <= MAX_SHAPES
        && items.iter().all(|item| {
            let b = item.as_bytes();
            b.len() == 1 + 2 * squares && b"GRYB".contains(&b[0]) && b[1..].chunks(2).all(square)
        });
    if good {
        Ok(())
    } else {
        Err(ApiError::bad_request(&format!(
            "'{list}' is not a list of {} (a colour G, R, Y or B, then {}), at most {MAX_SHAPES}",
            if squares == 2 { "arrows" } else { "circles" },
            if squares == 2 {
                "two squares: Ge2e4"
            } else {
                "a square: Rd4"
            }
        )))
    }
}

/// Whether `outcome` ends the line on an analysis board: only a position without a legal
/// move does. A repetition, the fifty-move rule or bare kings end a game when claimed or
/// played, but on an analysis board (as on lichess) the moves may go on, and a game read
/// with the result `*` keeps it.
fn ends_analysis(outcome: Outcome) -> bool {
    matches!(outcome, Outcome::Checkmate { .. } | Outcome::Stalemate)
}

/// The side to move after `plies` moves from `start`.
fn side_after(start: &Board, plies: usize) -> Color {
    if plies.is_multiple_of(2) {
        start.side_to_move()
    } else {
        start.side_to_move().flip()
    }
}

/// Reads a move typed by a person or a script; a bad one is a 400 with the reason.
pub fn read_move(board: &Board, text: &str) -> Result<Move, ApiError> {
    parse_move_text(board, text).map_err(|e| {
        ApiError::bad_request(&match e {
            MoveError::Syntax(_) => format!("'{text}' is not a move (write e2e4 or Nf3)"),
            MoveError::Ambiguous(_) => {
                format!("'{text}' could be more than one move: add the piece's file or rank")
            }
            MoveError::Illegal(_) => format!("'{text}' is not legal here"),
        })
    })
}

#[cfg(test)]
impl Setup {
    /// A game of `mode` from `fen` with no moves, clock or strength: for tests.
    pub fn for_test(mode: Mode, fen: &str) -> Setup {
        Setup {
            mode,
            human: Color::White,
            start: crate::chess::fen::parse(fen, false).unwrap(),
            line: pgn::Line::default(),
            tags: Vec::new(),
            time_control: None,
            clock_left: None,
            movetime_ms: DEFAULT_MOVETIME_MS,
            strength: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takeback_returns_to_the_persons_turn() {
        let mut game = Game::new(1, Setup::for_test(Mode::Play, START_FEN));
        game.human_move("e4", None).unwrap();
        assert!(game.tarpon_to_move());
        let v = game.version;
        let reply = read_move(game.position(), "e5").unwrap();
        game.tarpon_move(reply, v).unwrap();
        game.take_back().unwrap();
        assert_eq!(game.position().plies_played(), 0);
        assert!(game.take_back().is_err());
    }

    #[test]
    fn a_finished_game_cannot_be_taken_back() {
        let mut game = Game::new(1, Setup::for_test(Mode::Play, START_FEN));
        game.human_move("e4", None).unwrap();
        let v = game.version;
        let reply = read_move(game.position(), "e5").unwrap();
        game.tarpon_move(reply, v).unwrap();
        game.resign().unwrap();
        let refused = game.take_back().unwrap_err();
        assert_eq!(refused.status, 409);
        assert!(game.is_over());
        assert_eq!(game.position().plies_played(), 2);
    }

    #[test]
    fn a_stale_tarpon_move_is_dropped() {
        let mut game = Game::new(1, Setup::for_test(Mode::Play, START_FEN));
        game.human_move("e2e4", None).unwrap();
        let v = game.version;
        let reply = read_move(game.position(), "c5").unwrap();
        game.resign().unwrap();
        assert!(game.tarpon_move(reply, v).is_err());
        assert!(game.pgn().contains("[Termination \"normal\"]"));
        assert!(game.pgn().contains("0-1"));
    }

    #[test]
    fn analysis_moves_branch_from_an_earlier_ply() {
        let mut game = Game::new(1, Setup::for_test(Mode::Analysis, START_FEN));
        for m in ["e4", "e5", "Nf3"] {
            game.human_move(m, None).unwrap();
        }
        game.human_move("d4", Some(1)).unwrap_err();
        assert_eq!(
            game.position().plies_played(),
            3,
            "a refused move dropped moves"
        );
        game.human_move("c5", Some(1)).unwrap();
        let view = game.view(false);
        let sans: Vec<_> = view.moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e4", "c5"]);
        assert_eq!(view.fens.len(), 3);
        assert!(game.human_move("a3", Some(9)).is_err());
        // The earlier line stays, as the main line, with the new move as a variation.
        assert!(
            game.pgn().contains("1. e4 e5 (1... c5) 2. Nf3"),
            "{}",
            game.pgn()
        );
        // The same move again follows the line that has it.
        game.human_move("e5", Some(1)).unwrap();
        assert_eq!(game.view(false).moves.len(), 3);
    }

    #[test]
    fn castling_is_shown_as_the_king_moves() {
        let board =
            crate::chess::fen::parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
        let castle = legal_views(&board)
            .into_iter()
            .find(|m| m.san == "O-O")
            .unwrap();
        assert_eq!((castle.from.as_str(), castle.to.as_str()), ("e1", "g1"));
        assert_eq!(castle.uci, "e1g1");
    }

    #[test]
    fn mate_ends_the_game_with_the_reason() {
        let mut game = Game::new(1, Setup::for_test(Mode::Analysis, START_FEN));
        for m in ["f3", "e5", "g4", "Qh4#"] {
            game.human_move(m, None).unwrap();
        }
        let view = game.view(false);
        assert_eq!((view.status, view.result.as_str()), ("over", "0-1"));
        assert!(view.reason.contains("Checkmate"), "{}", view.reason);
        assert_eq!(view.check.as_deref(), Some("e1"));
    }
}
