//! The JSON API (docs/serve.md): the routes, the requests with their validation, and the
//! errors. Every input is checked here or in `game.rs` before it is used; a bad one is
//! answered with a 4xx status and `{"error": "..."}` that the page shows as it is.

use super::game::{DEFAULT_MOVETIME_MS, MAX_MOVETIME_MS, MAX_PLIES, MIN_MOVETIME_MS, Mode, Setup};
use super::search;
use super::store::Store;
use super::tree::MAX_NODES;
use super::view;
use crate::chess::{Board, Color, Position, fen};
use crate::rng::SplitMix64;
use crate::search::skill::{ELO_MAX, ELO_MIN, LEVEL_MAX, Skill};
use crate::tools::pgn;
use crate::tools::play::TimeControl;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::io::Write;
use std::time::Duration;

/// Longest FEN accepted: a real one is under 100 characters.
const MAX_FEN_CHARS: usize = 200;
/// Longest move text accepted (`e7e8q`, `exd8=Q+`).
const MAX_MOVE_CHARS: usize = 10;
/// Clock limits: up to three hours, increments up to a minute.
const MAX_CLOCK_MINUTES: f64 = 180.0;
const MAX_INCREMENT_SECONDS: f64 = 60.0;

/// A refused request: its HTTP status and the message for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
}

impl ApiError {
    fn new(status: u16, message: &str) -> ApiError {
        ApiError {
            status,
            message: message.to_string(),
        }
    }
    pub fn bad_request(message: &str) -> ApiError {
        ApiError::new(400, message)
    }
    pub fn forbidden(message: &str) -> ApiError {
        ApiError::new(403, message)
    }
    pub fn not_found(message: &str) -> ApiError {
        ApiError::new(404, message)
    }
    pub fn method_not_allowed(message: &str) -> ApiError {
        ApiError::new(405, message)
    }
    pub fn conflict(message: &str) -> ApiError {
        ApiError::new(409, message)
    }
    pub fn too_large(message: &str) -> ApiError {
        ApiError::new(413, message)
    }
    pub fn unavailable(message: &str) -> ApiError {
        ApiError::new(503, message)
    }

    pub fn json(&self) -> String {
        serde_json::json!({ "error": self.message }).to_string()
    }
}

/// What a request is answered with.
pub enum Answer {
    Json(u16, String),
    /// A PGN file to save: its name and text.
    Pgn(String, String),
    /// A file of the page: its content type and bytes.
    Asset(&'static str, &'static [u8]),
    /// An answer that takes long (Tarpon thinking): computed on a thread of its own.
    Later(Box<dyn FnOnce() -> Result<Answer, ApiError> + Send>),
    /// A stream of server-sent events, written on a thread of its own to the raw
    /// connection.
    Events(Box<dyn FnOnce(Box<dyn Write + Send>) + Send>),
}

impl Answer {
    fn ok(value: &impl serde::Serialize) -> Result<Answer, ApiError> {
        Ok(Answer::Json(200, to_json(value)))
    }
}

pub fn to_json(value: &impl serde::Serialize) -> String {
    // Serialising the server's own plain structs cannot fail (no maps with odd keys).
    serde_json::to_string(value).unwrap_or_else(|e| ApiError::new(500, &e.to_string()).json())
}

/// One API request: method, the path's parts after `/api/`, the query and the body.
pub struct Call<'a> {
    pub method: &'a str,
    pub parts: Vec<&'a str>,
    pub query: &'a str,
    pub body: &'a str,
}

/// Answers an API request.
pub fn answer(call: &Call, store: &std::sync::Arc<Store>) -> Result<Answer, ApiError> {
    let method = call.method;
    match call.parts.as_slice() {
        ["games"] => match method {
            "POST" => new_game(call.body, store),
            _ => Err(wrong_method(method, "POST")),
        },
        ["position"] => match method {
            "POST" => position(call.body),
            _ => Err(wrong_method(method, "POST")),
        },
        ["games", id, rest @ ..] => {
            let id: u64 = id
                .parse()
                .map_err(|_| ApiError::not_found(&format!("'{id}' is not a game number")))?;
            game_call(id, rest, call, store)
        }
        _ => Err(ApiError::not_found("No such API route (see docs/serve.md)")),
    }
}

fn game_call(
    id: u64,
    rest: &[&str],
    call: &Call,
    store: &std::sync::Arc<Store>,
) -> Result<Answer, ApiError> {
    let slot = store.get(id)?;
    let view = |slot: &super::store::Slot| {
        let searching = slot.is_searching();
        Answer::ok(&slot.game().view(searching))
    };
    let expect = |wanted: &str| {
        if call.method == wanted {
            Ok(())
        } else {
            Err(wrong_method(call.method, wanted))
        }
    };
    match rest {
        [] => match call.method {
            "GET" => view(&slot),
            "DELETE" => {
                store.remove(id)?;
                Answer::ok(&serde_json::json!({ "deleted": id }))
            }
            other => Err(wrong_method(other, "GET or DELETE")),
        },
        ["move"] => {
            expect("POST")?;
            let request: MoveRequest = read_body(call.body)?;
            if request.mv.chars().count() > MAX_MOVE_CHARS {
                return Err(ApiError::bad_request(&format!(
                    "A move is at most {MAX_MOVE_CHARS} characters"
                )));
            }
            if request.at.is_some_and(|at| at > MAX_PLIES) {
                return Err(ApiError::bad_request("'at' is past any game's end"));
            }
            slot.game().human_move(request.mv.trim(), request.at)?;
            view(&slot)
        }
        ["line"] => {
            expect("POST")?;
            let request: NodeRequest = read_body(call.body)?;
            slot.game().select_node(request.node)?;
            view(&slot)
        }
        ["variation"] => {
            expect("POST")?;
            let request: VariationRequest = read_body(call.body)?;
            let mut game = slot.game();
            match request.action.as_str() {
                "promote" => game.promote(request.node)?,
                "delete" => game.delete(request.node)?,
                other => {
                    return Err(ApiError::bad_request(&format!(
                        "action '{other}' is neither 'promote' nor 'delete'"
                    )));
                }
            }
            drop(game);
            view(&slot)
        }
        ["shapes"] => {
            expect("POST")?;
            let request: ShapesRequest = read_body(call.body)?;
            slot.game()
                .set_shapes(request.node, request.cal.trim(), request.csl.trim())?;
            view(&slot)
        }
        ["takeback"] => {
            expect("POST")?;
            empty_body(call.body)?;
            // A search of the position being taken back has no more use.
            slot.stop();
            slot.game().take_back()?;
            view(&slot)
        }
        ["resign"] => {
            expect("POST")?;
            empty_body(call.body)?;
            slot.game().resign()?;
            // Resigning may come while Tarpon thinks: its move has no game left to go in.
            slot.stop();
            view(&slot)
        }
        ["abort"] => {
            expect("POST")?;
            empty_body(call.body)?;
            slot.stop();
            slot.game().abort()?;
            view(&slot)
        }
        ["draw"] => {
            expect("POST")?;
            empty_body(call.body)?;
            search::draw_offer(slot, store)
        }
        ["stop"] => {
            expect("POST")?;
            empty_body(call.body)?;
            let stopped = slot.stop();
            Answer::ok(&serde_json::json!({ "stopped": stopped }))
        }
        ["pgn"] => {
            expect("GET")?;
            let text = slot.game().pgn();
            Ok(Answer::Pgn(format!("tarpon-game-{id}.pgn"), text))
        }
        ["reply"] => {
            expect("POST")?;
            empty_body(call.body)?;
            search::reply(slot, store)
        }
        ["analysis"] => {
            expect("GET")?;
            let params = search::AnalysisParams::read(call.query)?;
            search::analysis(slot, store, params)
        }
        ["review"] => {
            expect("GET")?;
            let params = search::ReviewParams::read(call.query)?;
            search::review(slot, store, params)
        }
        _ => Err(ApiError::not_found("No such API route (see docs/serve.md)")),
    }
}

fn wrong_method(method: &str, allowed: &str) -> ApiError {
    ApiError::method_not_allowed(&format!("{method} is not allowed here: use {allowed}"))
}

/// Reads a JSON body into `T`, with serde's reason when it does not fit.
fn read_body<T: DeserializeOwned>(body: &str) -> Result<T, ApiError> {
    let text = if body.trim().is_empty() { "{}" } else { body };
    serde_json::from_str(text).map_err(|e| {
        ApiError::bad_request(&format!("The request body is not what it should be: {e}"))
    })
}

/// Routes without parameters take no body, or an empty JSON object.
fn empty_body(body: &str) -> Result<(), ApiError> {
    read_body::<Empty>(body).map(|_| ())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Empty {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
    at: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeRequest {
    node: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShapesRequest {
    node: usize,
    #[serde(default)]
    cal: String,
    #[serde(default)]
    csl: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VariationRequest {
    node: usize,
    action: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionRequest {
    fen: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    minutes: f64,
    increment: f64,
    /// The time each side has left, for a game set up again where it was (a page
    /// reloaded after the server lost the game); both start at `minutes` if not given.
    white_ms: Option<u64>,
    black_ms: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGameRequest {
    mode: Option<String>,
    color: Option<String>,
    fen: Option<String>,
    pgn: Option<String>,
    clock: Option<ClockRequest>,
    movetime_ms: Option<u64>,
    elo: Option<i32>,
    level: Option<i32>,
}

/// `POST /api/games`.
fn new_game(body: &str, store: &Store) -> Result<Answer, ApiError> {
    let request: NewGameRequest = read_body(body)?;
    let setup = validate_new_game(request)?;
    let slot = store.add(setup)?;
    let view = slot.game().view(false);
    Ok(Answer::Json(201, to_json(&view)))
}

fn validate_new_game(request: NewGameRequest) -> Result<Setup, ApiError> {
    let mode = match request.mode.as_deref() {
        None | Some("play") => Mode::Play,
        Some("analysis") => Mode::Analysis,
        Some(other) => {
            return Err(ApiError::bad_request(&format!(
                "mode '{other}' is neither 'play' nor 'analysis'"
            )));
        }
    };
    let human = match request.color.as_deref() {
        None | Some("white") => Color::White,
        Some("black") => Color::Black,
        Some("random") => random_color(),
        Some(other) => {
            return Err(ApiError::bad_request(&format!(
                "color '{other}' is not white, black or random"
            )));
        }
    };
    let (start, moves, tags) = match (request.fen, request.pgn) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_request("Give a FEN or a PGN, not both"));
        }
        (Some(text), None) => (read_fen(&text)?, pgn::Line::default(), Vec::new()),
        (None, Some(text)) => read_pgn(&text)?,
        (None, None) => (
            *Position::startpos().board(),
            pgn::Line::default(),
            Vec::new(),
        ),
    };
    let clock_left = match &request.clock {
        Some(clock) => read_clock_left(clock)?,
        None => None,
    };
    let time_control = request.clock.map(read_clock).transpose()?;
    if time_control.is_some() && request.movetime_ms.is_some() {
        return Err(ApiError::bad_request(
            "Give a clock or a time per move, not both",
        ));
    }
    let movetime_ms = request.movetime_ms.unwrap_or(DEFAULT_MOVETIME_MS);
    if !(MIN_MOVETIME_MS..=MAX_MOVETIME_MS).contains(&movetime_ms) {
        return Err(ApiError::bad_request(&format!(
            "movetime_ms must be from {MIN_MOVETIME_MS} to {MAX_MOVETIME_MS}"
        )));
    }
    let strength = match (request.elo, request.level) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_request("Give elo or level, not both"));
        }
        (Some(elo), None) if (ELO_MIN..=ELO_MAX).contains(&elo) => Some(Skill::from_elo(elo)),
        (Some(_), None) => {
            return Err(ApiError::bad_request(&format!(
                "elo must be from {ELO_MIN} to {ELO_MAX}"
            )));
        }
        (None, Some(level)) if (0..=LEVEL_MAX).contains(&level) => Skill::from_level(level),
        (None, Some(_)) => {
            return Err(ApiError::bad_request(&format!(
                "level must be from 0 to {LEVEL_MAX}"
            )));
        }
        (None, None) => None,
    };
    Ok(Setup {
        mode,
        human,
        start,
        line: moves,
        tags,
        time_control,
        clock_left,
        movetime_ms,
        strength,
    })
}

fn random_color() -> Color {
    if SplitMix64::from_clock().next_u64() & 1 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// A FEN of standard chess.
fn read_fen(text: &str) -> Result<Board, ApiError> {
    if text.chars().count() > MAX_FEN_CHARS {
        return Err(ApiError::bad_request("That FEN is far too long"));
    }
    fen::parse(text.trim(), false).map_err(|e| ApiError::bad_request(&format!("Bad FEN: {e}")))
}

/// Where a game starts, the moves played from there (with variations, comments and NAGs),
/// and its PGN tags.
type Start = (Board, pgn::Line, Vec<(String, String)>);

/// The first game of a PGN text: its start, moves and tags.
fn read_pgn(text: &str) -> Result<Start, ApiError> {
    let mut games =
        pgn::read_games(text).map_err(|e| ApiError::bad_request(&format!("Bad PGN: {e}")))?;
    if games.is_empty() {
        return Err(ApiError::bad_request("The PGN holds no game"));
    }
    let game = games.swap_remove(0);
    if game.moves.len() > MAX_PLIES {
        return Err(ApiError::bad_request(&format!(
            "The game is longer than {MAX_PLIES} plies"
        )));
    }
    let nodes = count_moves(&game.moves);
    if nodes > MAX_NODES {
        return Err(ApiError::bad_request(&format!(
            "The game holds {nodes} moves with its variations, more than the {MAX_NODES} a board takes"
        )));
    }
    let mut tags = game.tags.clone();
    tags.retain(|(name, _)| name != "Result");
    tags.push(("Result".to_string(), game.result.clone()));
    let line = pgn::Line {
        comments: game.comments,
        moves: game.moves,
    };
    Ok((game.start, line, tags))
}

/// The moves of a line and of all its variations.
fn count_moves(moves: &[pgn::GameMove]) -> usize {
    moves
        .iter()
        .map(|m| {
            1 + m
                .variations
                .iter()
                .map(|v| count_moves(&v.moves))
                .sum::<usize>()
        })
        .sum()
}

/// The times left of a clock set up again: both or neither, each within the longest clock.
fn read_clock_left(clock: &ClockRequest) -> Result<Option<[Duration; 2]>, ApiError> {
    let most = (MAX_CLOCK_MINUTES * 60_000.0) as u64;
    match (clock.white_ms, clock.black_ms) {
        (None, None) => Ok(None),
        (Some(white), Some(black)) if white <= most && black <= most => Ok(Some([
            Duration::from_millis(white),
            Duration::from_millis(black),
        ])),
        (Some(_), Some(_)) => Err(ApiError::bad_request(&format!(
            "white_ms and black_ms are at most {most}"
        ))),
        _ => Err(ApiError::bad_request(
            "Give both white_ms and black_ms, or neither",
        )),
    }
}

fn read_clock(clock: ClockRequest) -> Result<TimeControl, ApiError> {
    let ok_minutes = (0.0..=MAX_CLOCK_MINUTES).contains(&clock.minutes);
    let ok_increment = (0.0..=MAX_INCREMENT_SECONDS).contains(&clock.increment);
    if !ok_minutes || !ok_increment {
        return Err(ApiError::bad_request(&format!(
            "A clock is 0 to {MAX_CLOCK_MINUTES} minutes plus 0 to {MAX_INCREMENT_SECONDS} seconds a move"
        )));
    }
    if clock.minutes == 0.0 && clock.increment == 0.0 {
        return Err(ApiError::bad_request("A clock needs some time"));
    }
    Ok(TimeControl {
        base: Duration::from_secs_f64(clock.minutes * 60.0),
        increment: Duration::from_secs_f64(clock.increment),
    })
}

/// `POST /api/position`: a FEN's legal moves and state, for boards the page shows
/// without a game behind them.
fn position(body: &str) -> Result<Answer, ApiError> {
    let request: PositionRequest = read_body(body)?;
    let board = read_fen(&request.fen)?;
    let position = Position::from_board(board);
    let outcome = position
        .outcome()
        .map(|o| crate::tools::play::Ending::from_outcome(o).reason);
    Answer::ok(&serde_json::json!({
        "fen": position.fen(),
        "turn": view::color_name(board.side_to_move()),
        "legal": view::legal_views(&board),
        "check": view::check_square(&board),
        "over": outcome,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: &str) -> Result<Setup, ApiError> {
        validate_new_game(read_body(json)?)
    }

    #[test]
    fn new_game_requests_are_validated() {
        assert!(request("{}").is_ok());
        assert!(request(r#"{"mode":"analysis","fen":"8/8/8/8/8/8/8/K1k5 w - - 0 1"}"#).is_ok());
        for bad in [
            r#"{"mode":"blitz"}"#,
            r#"{"color":"green"}"#,
            r#"{"fen":"rnbqkbnr/pppppppp/8/8 w"}"#,
            r#"{"pgn":"1. e4 e5 2. Ke3"}"#,
            r#"{"elo":5000}"#,
            r#"{"level":21}"#,
            r#"{"elo":1500,"level":3}"#,
            r#"{"movetime_ms":1}"#,
            r#"{"movetime_ms":-5}"#,
            r#"{"clock":{"minutes":0,"increment":0}}"#,
            r#"{"clock":{"minutes":1e9,"increment":0}}"#,
            r#"{"clock":{"minutes":3,"increment":2},"movetime_ms":100}"#,
            r#"{"colour":"white"}"#,
            r#"[1,2]"#,
            r#"{"fen":"#,
        ] {
            let error = request(bad)
                .err()
                .unwrap_or_else(|| panic!("accepted {bad}"));
            assert_eq!(error.status, 400, "{bad}");
        }
    }

    #[test]
    fn a_pgn_keeps_its_moves_and_result() {
        let setup =
            request(r#"{"mode":"analysis","pgn":"[White \"A\"]\n1. e4 e5 2. Nf3 1-0"}"#).unwrap();
        assert_eq!(setup.line.moves.len(), 3);
        assert!(
            setup
                .tags
                .contains(&("Result".to_string(), "1-0".to_string()))
        );
    }
}
