//! The searches the server runs for a game, each on the game's own engine (one at a time,
//! see `store.rs`) and each with a time cap:
//!
//! - **reply**: Tarpon's move in a game against it, at the game's strength, by its clock
//!   or its time per move;
//! - **analysis**: live MultiPV analysis of one position of the game, streamed as events;
//! - **review**: every position of the game searched in turn, then each move marked by
//!   the expected score it gave away, as `tarpon analyse` marks it (`analyse::Mark`).

use super::accuracy;
use super::api::{Answer, ApiError, to_json};
use super::events::EventStream;
use super::game::MAX_PLIES;
use super::store::{Slot, Store};
use super::view::{EvalView, GameView, MoveView};
use crate::chess::{Color, Move, Position};
use crate::search::timeman::Limits;
use crate::tools::analyse::{self, Mark, final_score, move_loss};
use crate::tools::engine::{Eval, Iteration, Settings, expected_score, san_line};
use crate::tools::play::move_limits;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::{Arc, mpsc};
use std::time::Duration;

/// The longest one analysis request may search: long enough for deep analysis while the
/// page is open (a closed page stops its search within a heartbeat, see `events.rs`), and
/// a bound for a page left open and forgotten.
pub const MAX_ANALYSIS_SECONDS: u64 = 30 * 60;
/// The most lines an analysis shows (MultiPV).
pub const MAX_LINES: usize = 3;
/// Time per position in a review: the default, the bounds, and the most a whole review may
/// take (a long game gets less per position).
const REVIEW_DEFAULT_MS: u64 = 300;
const REVIEW_MIN_MS: u64 = 20;
const REVIEW_MAX_MS: u64 = 5000;
const REVIEW_BUDGET_MS: u64 = 120_000;

/// How close to its time limit an analysis that ended by itself counts as ended by it.
const LIMIT_MARGIN: Duration = Duration::from_millis(250);

/// The largest score a centipawn loss counts from: a lost position is lost, by however much.
const CP_LOSS_CAP: i32 = 1000;

/// Losses are sent to a thousandth of a point: finer is noise.
const LOSS_ROUNDING: f64 = 1000.0;

/// The longest Tarpon may think about one move, whatever its clock says (a long time
/// control may plan for more).
const MAX_REPLY: Duration = Duration::from_secs(60);

/// Stops search number `generation` of `slot` once `cap` has passed, unless the returned
/// guard is dropped first (the search ended).
fn stop_after(slot: &Arc<Slot>, generation: u64, cap: Duration) -> mpsc::Sender<()> {
    let (guard, ended) = mpsc::channel::<()>();
    let slot = Arc::clone(slot);
    let _ = std::thread::Builder::new()
        .name("search-cap".to_string())
        .spawn(move || {
            if ended.recv_timeout(cap) == Err(mpsc::RecvTimeoutError::Timeout) {
                slot.stop_if_current(generation);
            }
        });
    guard
}

/// What `GET /api/games/{id}/analysis` asks for.
pub struct AnalysisParams {
    /// The position after this many moves of the game; its end if not given.
    ply: Option<usize>,
    lines: usize,
    seconds: u64,
    /// The threat: what the other side would play if it were its move (the position after
    /// a pass).
    threat: bool,
}

impl AnalysisParams {
    pub fn read(query: &str) -> Result<AnalysisParams, ApiError> {
        let mut params = AnalysisParams {
            ply: None,
            lines: 1,
            seconds: MAX_ANALYSIS_SECONDS,
            threat: false,
        };
        for (key, value) in query_pairs(query)? {
            match key {
                "ply" => params.ply = Some(number(key, value, 0, MAX_PLIES as u64)? as usize),
                "lines" => params.lines = number(key, value, 1, MAX_LINES as u64)? as usize,
                "seconds" => params.seconds = number(key, value, 1, MAX_ANALYSIS_SECONDS)?,
                "threat" => params.threat = number(key, value, 0, 1)? == 1,
                _ => return Err(unknown_parameter(key, "ply, lines, seconds, threat")),
            }
        }
        Ok(params)
    }
}

/// What `GET /api/games/{id}/review` asks for.
pub struct ReviewParams {
    ms: u64,
}

impl ReviewParams {
    pub fn read(query: &str) -> Result<ReviewParams, ApiError> {
        let mut params = ReviewParams {
            ms: REVIEW_DEFAULT_MS,
        };
        for (key, value) in query_pairs(query)? {
            match key {
                "ms" => params.ms = number(key, value, REVIEW_MIN_MS, REVIEW_MAX_MS)?,
                _ => return Err(unknown_parameter(key, "ms")),
            }
        }
        Ok(params)
    }
}

/// The `key=value` pairs of a query (numbers only: nothing needs decoding).
fn query_pairs(query: &str) -> Result<Vec<(&str, &str)>, ApiError> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            pair.split_once('=').ok_or_else(|| {
                ApiError::bad_request(&format!("'{pair}' in the query is not key=value"))
            })
        })
        .collect()
}

fn number(key: &str, value: &str, min: u64, max: u64) -> Result<u64, ApiError> {
    value
        .parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| {
            ApiError::bad_request(&format!("{key} must be a whole number from {min} to {max}"))
        })
}

fn unknown_parameter(key: &str, known: &str) -> ApiError {
    ApiError::bad_request(&format!("Unknown parameter '{key}' (known: {known})"))
}

/// `POST /api/games/{id}/reply`: Tarpon thinks and plays; answered with the game.
pub fn reply(slot: Arc<Slot>, store: &Store) -> Result<Answer, ApiError> {
    {
        let game = slot.game();
        if !game.tarpon_to_move() {
            return Err(ApiError::conflict(if game.is_over() {
                "The game is over"
            } else {
                "It is your turn, not Tarpon's"
            }));
        }
    }
    let permit = store.search_permit()?;
    Ok(Answer::Later(Box::new(move || {
        let _permit = permit;
        let (generation, mut turn) = slot.take_engine()?;
        let _cap = stop_after(&slot, generation, MAX_REPLY);
        let (position, version, limits, strength) = {
            let game = slot.game();
            let settings = Settings {
                movetime: Some(game.movetime_ms),
                ..Settings::default()
            };
            let limits = move_limits(&settings, game.clock_for_side_to_move());
            (game.position().clone(), game.version, limits, game.strength)
        };
        let engine = turn.engine();
        engine.options.skill = strength;
        engine.options.multi_pv = 1;
        let analysis = engine.search_lines(&position, limits, &slot.control, |_| {});
        drop(turn);
        if analysis.best == Move::NONE {
            return Err(ApiError::conflict("Tarpon found no move to play"));
        }
        let mut game = slot.game();
        game.tarpon_move(analysis.best, version)?;
        Ok(Answer::Json(200, to_json(&game.view(false))))
    })))
}

/// How much worse Tarpon must stand, by its own search, to accept a draw offer.
const DRAW_ACCEPT_CP: i32 = 50;
/// How long Tarpon considers a draw offer.
const DRAW_THINK_MS: u64 = 300;

/// `POST /api/games/{id}/draw`: the person offers a draw. Tarpon searches the position
/// briefly at full strength and accepts when it stands worse by half a pawn or more;
/// answered with `{"accepted": bool, "game": ...}`.
pub fn draw_offer(slot: Arc<Slot>, store: &Store) -> Result<Answer, ApiError> {
    {
        let game = slot.game();
        if !game.is_live() {
            return Err(ApiError::conflict(
                "Draws are offered in a game against Tarpon that goes on",
            ));
        }
        if game.tarpon_to_move() {
            return Err(ApiError::conflict(
                "Offer a draw on your turn, not while Tarpon thinks",
            ));
        }
    }
    let permit = store.search_permit()?;
    Ok(Answer::Later(Box::new(move || {
        let _permit = permit;
        let (_generation, mut turn) = slot.take_engine()?;
        let (position, version) = {
            let game = slot.game();
            (game.position().clone(), game.version)
        };
        let engine = turn.engine();
        engine.options.skill = None;
        engine.options.multi_pv = 1;
        let limits = Limits {
            move_time: Some(DRAW_THINK_MS),
            ..Limits::default()
        };
        let analysis = engine.search_lines(&position, limits, &slot.control, |_| {});
        drop(turn);
        // The score is the person's (their turn): Tarpon's is its opposite.
        let accepted = -analysis.score <= -DRAW_ACCEPT_CP;
        let mut game = slot.game();
        if accepted {
            game.agree_draw(version)?;
        }
        let data = serde_json::json!({ "accepted": accepted, "game": game.view(false) });
        Ok(Answer::Json(200, data.to_string()))
    })))
}

/// A game against Tarpon is not analysed while it goes on: the analysis would stop
/// Tarpon's own thinking in it (one search per game). A copy can be (an analysis board
/// from its PGN, as the page's "Analyse this game" makes).
fn refuse_live(game: &super::game::Game) -> Result<(), ApiError> {
    if game.is_live() {
        return Err(ApiError::conflict(
            "The game against Tarpon is still going on: analyse a copy (a new analysis board from its PGN), or wait for its end",
        ));
    }
    Ok(())
}

/// One line of an analysis as the page shows it.
#[derive(Serialize)]
struct LineView {
    line: usize,
    depth: i32,
    eval: EvalView,
    /// The line in SAN with move numbers.
    san: String,
    /// The same moves in UCI.
    moves: Vec<String>,
}

/// `GET /api/games/{id}/analysis`: an `info` event after each line of each iteration
/// (all lines so far), and `done` at the end.
pub fn analysis(
    slot: Arc<Slot>,
    store: &Store,
    params: AnalysisParams,
) -> Result<Answer, ApiError> {
    let position = {
        let game = slot.game();
        refuse_live(&game)?;
        let ply = params.ply.unwrap_or(game.position().plies_played());
        let mut position = game.position_at(ply)?;
        if params.threat {
            if position.board().in_check() {
                return Err(ApiError::conflict(
                    "There is no threat to show: the side to move is in check",
                ));
            }
            position.make_null();
        }
        position
    };
    if crate::chess::movegen::legal_moves(&position).is_empty() {
        return Err(ApiError::conflict(
            "There is nothing to analyse: the side to move has no legal move",
        ));
    }
    let permit = store.search_permit()?;
    Ok(Answer::Events(Box::new(move |mut connection| {
        let _permit = permit;
        let (generation, mut turn) = match slot.take_engine() {
            Ok(taken) => taken,
            Err(error) => return write_error(&mut connection, &error),
        };
        let stream = EventStream::open(connection, Arc::clone(&slot), generation);
        let engine = turn.engine();
        engine.options.skill = None;
        engine.options.multi_pv = params.lines;
        let limits = Limits {
            move_time: Some(params.seconds * 1000),
            ..Limits::default()
        };
        let side = position.side_to_move();
        let mut lines: BTreeMap<usize, LineView> = BTreeMap::new();
        let mut latest: Option<Iteration> = None;
        let analysis = engine.search_lines(&position, limits, &slot.control, |it| {
            lines.insert(it.line, line_view(&position, it));
            if it.line == 1 {
                latest = Some(it.clone());
            }
            if let Some(first) = &latest {
                let time_ms = first.time.as_millis() as u64;
                let data = serde_json::json!({
                    "ply": position.plies_played(),
                    "depth": first.depth,
                    "nodes": first.nodes,
                    "nps": first.nodes * 1000 / time_ms.max(1),
                    "time_ms": time_ms,
                    "lines": lines.values().collect::<Vec<_>>(),
                });
                stream.send("info", data.to_string());
            }
            if stream.is_gone() || !slot.is_current(generation) {
                slot.control.stop.store(true, Ordering::Relaxed);
            }
        });
        let stopped = stream.is_gone() || !slot.is_current(generation);
        // Ended by its time rather than by reaching the deepest search (a search ends a
        // little before its limit when the next iteration could not finish in time).
        let limit = !stopped && analysis.time + LIMIT_MARGIN >= Duration::from_secs(params.seconds);
        let best = (analysis.best != Move::NONE).then(|| MoveView::new(&position, analysis.best));
        let done = serde_json::json!({
            "best": best,
            "eval": EvalView::new(analysis.eval(), side),
            "depth": analysis.depth,
            "nodes": analysis.nodes,
            "time_ms": analysis.time.as_millis() as u64,
            "stopped": stopped,
            "limit": limit,
        });
        stream.send("done", done.to_string());
        drop(turn);
        stream.close();
    })))
}

fn line_view(position: &Position, it: &Iteration) -> LineView {
    let mut board = *position.board();
    let moves = it
        .pv
        .iter()
        .map(|&m| {
            let text = crate::chess::notation::to_uci(&board, m);
            board.play(m);
            text
        })
        .collect();
    LineView {
        line: it.line,
        depth: it.depth,
        eval: EvalView::new(it.eval, position.side_to_move()),
        san: san_line(position, &it.pv),
        moves,
    }
}

/// A position of a reviewed game: its evaluation, and White's expected score (0 to 1),
/// which the page draws as the graph.
#[derive(Serialize)]
struct PointView {
    ply: usize,
    eval: EvalView,
    white: f64,
}

/// A move of a reviewed game, with its mark.
#[derive(Serialize)]
struct JudgedMove {
    /// The ply after the move (1 for White's first move).
    ply: usize,
    san: String,
    color: &'static str,
    /// The share of a point it gave away.
    loss: f64,
    /// The centipawns it gave away (scores beyond a thousand, mates included, count as a
    /// thousand).
    cp_loss: i32,
    /// `??`, `?`, `?!` or none.
    mark: Option<&'static str>,
    /// Tarpon's move there, when it differs.
    best: Option<String>,
}

/// `GET /api/games/{id}/review`: a `progress` event per position searched, then `review`
/// with the evaluation of every position and the marks of every move.
pub fn review(slot: Arc<Slot>, store: &Store, params: ReviewParams) -> Result<Answer, ApiError> {
    let (positions, view) = {
        let game = slot.game();
        refuse_live(&game)?;
        (game.positions(), game.view(false))
    };
    if positions.len() < 2 {
        return Err(ApiError::conflict("There is no move to review yet"));
    }
    let per_position = params
        .ms
        .min(REVIEW_BUDGET_MS / positions.len() as u64)
        .max(REVIEW_MIN_MS);
    let permit = store.search_permit()?;
    Ok(Answer::Events(Box::new(move |mut connection| {
        let _permit = permit;
        let (generation, mut turn) = match slot.take_engine() {
            Ok(taken) => taken,
            Err(error) => return write_error(&mut connection, &error),
        };
        let stream = EventStream::open(connection, Arc::clone(&slot), generation);
        let engine = turn.engine();
        engine.options.skill = None;
        engine.options.multi_pv = 1;
        let last = positions.len() - 1;
        let mut scores = Vec::with_capacity(positions.len());
        let mut best = Vec::with_capacity(positions.len());
        let mut points = Vec::with_capacity(positions.len());
        for (ply, position) in positions.iter().enumerate() {
            if stream.is_gone() || !slot.is_current(generation) {
                stream.send("done", serde_json::json!({ "stopped": true }).to_string());
                drop(turn);
                return stream.close();
            }
            let (score, mv) = match final_score(position).filter(|_| ply == last) {
                Some(score) => (score, Move::NONE),
                None => {
                    let limits = Limits {
                        move_time: Some(per_position),
                        ..Limits::default()
                    };
                    let a = engine.search_lines(position, limits, &slot.control, |_| {});
                    (a.score, a.best)
                }
            };
            let point = point_view(ply, score, position.side_to_move());
            let progress = serde_json::json!({ "ply": ply, "of": last, "point": &point });
            stream.send("progress", progress.to_string());
            scores.push(score);
            best.push(mv);
            points.push(point);
        }
        drop(turn);
        let moves = judge_moves(&positions, &scores, &best, &view);
        let white_cps: Vec<i32> = positions
            .iter()
            .zip(&scores)
            .map(|(p, &s)| {
                if p.side_to_move() == Color::White {
                    s
                } else {
                    -s
                }
            })
            .collect();
        let white_first = positions[0].side_to_move() == Color::White;
        let summary = summary(&moves, accuracy::game_accuracy(&white_cps, white_first));
        let data = serde_json::json!({ "points": points, "moves": moves, "summary": summary });
        stream.send("review", data.to_string());
        stream.close();
    })))
}

fn point_view(ply: usize, score: i32, side: Color) -> PointView {
    let mover_share = expected_score(score);
    PointView {
        ply,
        eval: EvalView::new(Eval::from_score(score), side),
        white: if side == Color::White {
            mover_share
        } else {
            1.0 - mover_share
        },
    }
}

/// Each move judged as `tarpon analyse` judges it.
fn judge_moves(
    positions: &[Position],
    scores: &[i32],
    best: &[Move],
    view: &GameView,
) -> Vec<JudgedMove> {
    view.moves
        .iter()
        .enumerate()
        .map(|(i, played)| {
            let before = &positions[i];
            let played_best = best[i] == Move::NONE || played.uci == to_uci(before, best[i]);
            let loss = move_loss(scores[i], scores[i + 1], played_best);
            let clamp = |score: i32| score.clamp(-CP_LOSS_CAP, CP_LOSS_CAP);
            let cp_loss = if played_best {
                0
            } else {
                (clamp(scores[i]) + clamp(scores[i + 1])).max(0)
            };
            JudgedMove {
                ply: i + 1,
                san: played.san.clone(),
                color: super::view::color_name(before.side_to_move()),
                loss: (loss * LOSS_ROUNDING).round() / LOSS_ROUNDING,
                cp_loss,
                mark: Mark::of_loss(loss).map(Mark::symbol),
                best: (!played_best).then(|| crate::chess::notation::to_san(before, best[i])),
            }
        })
        .collect()
}

fn to_uci(position: &Position, m: Move) -> String {
    crate::chess::notation::to_uci(position, m)
}

/// The marks of each side, as counts, with each side's accuracy (`accuracy.rs`: White's,
/// Black's).
fn summary(moves: &[JudgedMove], accuracies: [Option<f64>; 2]) -> serde_json::Value {
    let count = |color: &str, mark: Mark| {
        moves
            .iter()
            .filter(|m| m.color == color && m.mark == Some(mark.symbol()))
            .count()
    };
    let side = |color: &str| {
        let own: Vec<&JudgedMove> = moves.iter().filter(|m| m.color == color).collect();
        let n = own.len().max(1) as f64;
        let accuracy = accuracies[usize::from(color == "black")].unwrap_or(100.0);
        let acpl = own.iter().map(|m| m.cp_loss as f64).sum::<f64>() / n;
        serde_json::json!({
            "inaccuracies": count(color, Mark::Inaccuracy),
            "mistakes": count(color, Mark::Mistake),
            "blunders": count(color, Mark::Blunder),
            "moves": own.len(),
            "accuracy": (accuracy * 10.0).round() / 10.0,
            "acpl": acpl.round() as i64,
        })
    };
    serde_json::json!({ "white": side("white"), "black": side("black"), "thresholds": {
        "?!": analyse::INACCURACY, "?": analyse::MISTAKE, "??": analyse::BLUNDER } })
}

/// A refusal written to the raw connection of a stream that could not start.
fn write_error(connection: &mut Box<dyn Write + Send>, error: &ApiError) {
    let body = error.json();
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        error.status,
        super::http::reason_phrase(error.status),
        body.len()
    );
    let _ = connection
        .write_all(head.as_bytes())
        .and_then(|()| connection.write_all(body.as_bytes()))
        .and_then(|()| connection.flush());
}
