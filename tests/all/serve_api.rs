//! `tarpon serve`'s JSON API, against the real program on an ephemeral port: whole games,
//! refused moves and inputs, the Host/Origin check, live analysis stopped mid-way (by the
//! stop route and by the page going away), reviews, and many clients at once.

use crate::common;

use common::http::{Events, TestServer, post, request};
use serde_json::Value;
use std::time::{Duration, Instant};

/// Quick searches: the tests check behaviour, not strength.
const QUICK_MOVE: &str = r#""movetime_ms":30"#;
/// An analysis board with the shortest mate: five positions to review, one blunder.
const FOOLS_MATE: &str = r#"{"mode":"analysis","pgn":"1. f3 e5 2. g4 Qh4# 0-1"}"#;

fn new_game(server: &TestServer, json: &str) -> Value {
    let reply = post(server.addr, "/api/games", json);
    assert_eq!(reply.status, 201, "{json}: {}", reply.body);
    reply.json()
}

fn id(game: &Value) -> u64 {
    game["id"].as_u64().expect("a game id")
}

fn play(server: &TestServer, id: u64, mv: &str) -> Value {
    let reply = post(
        server.addr,
        &format!("/api/games/{id}/move"),
        &format!(r#"{{"move":"{mv}"}}"#),
    );
    assert_eq!(reply.status, 200, "{mv}: {}", reply.body);
    reply.json()
}

fn tarpon_replies(server: &TestServer, id: u64) -> Value {
    let reply = post(server.addr, &format!("/api/games/{id}/reply"), "");
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.json()
}

fn sans(game: &Value) -> Vec<String> {
    game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_whole_game_against_tarpon() {
    let server = TestServer::start(&[]);
    let game = new_game(&server, &format!(r#"{{"color":"white",{QUICK_MOVE}}}"#));
    let id = id(&game);
    assert_eq!(game["turn"], "white");
    assert_eq!(game["legal"].as_array().unwrap().len(), 20);
    let mut game = game;
    for wanted in ["e4", "d4", "Nf3", "Bc4"] {
        // The person's plan, or the first legal move where Tarpon's replies spoilt it.
        let legal: Vec<String> = game["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["san"].as_str().unwrap().to_string())
            .collect();
        let chosen = if legal.iter().any(|m| m == wanted) {
            wanted
        } else {
            &legal[0]
        };
        let after = play(&server, id, chosen);
        assert_eq!(after["turn"], "black");
        assert_eq!(
            after["moves"].as_array().unwrap().last().unwrap()["san"],
            *chosen
        );
        // The person cannot move for Tarpon.
        let early = post(
            server.addr,
            &format!("/api/games/{id}/move"),
            r#"{"move":"a6"}"#,
        );
        assert_eq!(early.status, 409, "{}", early.body);
        game = tarpon_replies(&server, id);
        assert_eq!(game["turn"], "white");
        let last = game["moves"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(game["last"], serde_json::json!([last["from"], last["to"]]));
    }
    assert_eq!(game["ply"], 8);
    // Takeback: back to the person's turn, both moves gone.
    let back = post(server.addr, &format!("/api/games/{id}/takeback"), "").json();
    assert_eq!(back["ply"], 6);
    assert_eq!(back["turn"], "white");
    let resigned = post(server.addr, &format!("/api/games/{id}/resign"), "").json();
    assert_eq!(resigned["status"], "over");
    assert_eq!(resigned["result"], "0-1");
    assert!(resigned["reason"].as_str().unwrap().contains("resigns"));
    let pgn = common::http::get(server.addr, &format!("/api/games/{id}/pgn"));
    assert_eq!(pgn.status, 200);
    assert!(pgn.header("Content-Type").unwrap().contains("chess-pgn"));
    assert!(
        pgn.header("Content-Disposition")
            .unwrap()
            .contains("attachment")
    );
    for tag in [
        "[Event ",
        "[Date ",
        "[White \"Player\"]",
        "[Result \"0-1\"]",
        "[Termination ",
    ] {
        assert!(pgn.body.contains(tag), "{tag} missing in\n{}", pgn.body);
    }
    // Another program (shakmaty) reads the PGN, with the same moves.
    let replayed = common::pgn_check::replay(&pgn.body);
    assert_eq!(replayed.len(), 1);
    assert_eq!(replayed[0].sans, sans(&resigned));
    assert_eq!(replayed[0].result, "0-1");
    // After the end, no more moves.
    let late = post(
        server.addr,
        &format!("/api/games/{id}/move"),
        r#"{"move":"a3"}"#,
    );
    assert_eq!(late.status, 409);
    assert!(late.error().contains("over"), "{}", late.error());
}

#[test]
fn games_end_by_the_rules_with_the_reason() {
    let server = TestServer::start(&[]);
    // The person mates.
    let game = new_game(&server, r#"{"fen":"7k/8/6K1/8/8/8/8/R7 w - - 0 1"}"#);
    let over = play(&server, id(&game), "Ra8");
    assert_eq!(
        (over["status"].as_str(), over["result"].as_str()),
        (Some("over"), Some("1-0"))
    );
    assert!(over["reason"].as_str().unwrap().starts_with("Checkmate"));
    assert_eq!(over["check"], "h8");
    // Tarpon mates: it has White, and moves first.
    let game = new_game(
        &server,
        &format!(r#"{{"color":"black","fen":"7k/8/6K1/8/8/8/8/R7 w - - 0 1",{QUICK_MOVE}}}"#),
    );
    let over = tarpon_replies(&server, id(&game));
    assert_eq!(over["result"], "1-0", "{}", over["pgn"]);
    assert_eq!(sans(&over), ["Ra8#"]);
    // Stalemate set up by FEN is over at once.
    let stale = new_game(&server, r#"{"fen":"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}"#);
    assert_eq!(stale["result"], "1/2-1/2");
    assert!(stale["reason"].as_str().unwrap().contains("Stalemate"));
    // Insufficient material after a capture.
    let game = new_game(&server, r#"{"fen":"4k3/8/8/8/8/8/3r4/3K4 w - - 0 1"}"#);
    let draw = play(&server, id(&game), "Kxd2");
    assert!(
        draw["reason"].as_str().unwrap().contains("material"),
        "{draw}"
    );
    // A flag that falls (the clocks run once each side has moved).
    let game = new_game(
        &server,
        r#"{"pgn":"1. e4 e5","color":"white","clock":{"minutes":0.005,"increment":0}}"#,
    );
    assert!(game["clock"]["white_ms"].as_u64().unwrap() <= 300);
    std::thread::sleep(Duration::from_millis(500));
    let flagged = state(&server, id(&game));
    assert_eq!(flagged["result"], "0-1", "{flagged}");
    assert!(
        flagged["reason"]
            .as_str()
            .unwrap()
            .contains("ran out of time")
    );
    assert!(flagged["pgn"].as_str().unwrap().contains("time forfeit"));
}

fn state(server: &TestServer, id: u64) -> Value {
    common::http::get(server.addr, &format!("/api/games/{id}")).json()
}

/// A restarted server (another process) never gives a game the id of one from before, so
/// a page kept open across the restart finds its game gone (and sets it up again from what
/// it kept) instead of taking over another browser's game.
#[test]
fn game_ids_are_never_reused_by_a_restarted_server() {
    let before = TestServer::start(&[]);
    let old = id(&new_game(&before, r#"{"mode":"analysis"}"#));
    drop(before);
    let after = TestServer::start(&[]);
    let new = id(&new_game(&after, r#"{"mode":"analysis"}"#));
    assert_ne!(old, new);
    assert_eq!(
        common::http::get(after.addr, &format!("/api/games/{old}")).status,
        404
    );
    assert!(
        new < 1 << 53,
        "{new}: a page's JavaScript holds ids below 2^53 exactly"
    );
}

/// Against Tarpon a move says the position it was made in (`at`, the plies the page saw):
/// one made in a position the game has left (a second tab behind the first) is refused with
/// 409 and nothing is played; at the game's end it is played.
#[test]
fn a_move_made_in_a_position_the_game_has_left_is_refused() {
    let server = TestServer::start(&[]);
    let game = new_game(
        &server,
        r#"{"mode":"play","color":"white","movetime_ms":50}"#,
    );
    let game_id = id(&game);
    let path = format!("/api/games/{game_id}/move");
    let reply = post(server.addr, &path, r#"{"move":"e4","at":0}"#);
    assert_eq!(reply.status, 200, "{}", reply.body);
    tarpon_replies(&server, game_id);
    // A tab that still shows the start plays d4 there.
    let reply = post(server.addr, &path, r#"{"move":"d4","at":0}"#);
    assert_eq!(reply.status, 409, "{}", reply.body);
    assert!(reply.error().contains("not played"), "{}", reply.error());
    let now = state(&server, game_id);
    assert_eq!(now["ply"], 2);
    assert_eq!(sans(&now)[0], "e4");
    // From the game's end it goes.
    let reply = post(server.addr, &path, r#"{"move":"d4","at":2}"#);
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(sans(&reply.json())[2], "d4");
}

#[test]
fn illegal_moves_and_malformed_input_are_refused_with_a_message() {
    let server = TestServer::start(&[]);
    let game = new_game(&server, r#"{"mode":"analysis"}"#);
    let path = format!("/api/games/{}/move", id(&game));
    for (body, status, words) in [
        (r#"{"move":"e2e5"}"#, 400, "not legal"),
        (r#"{"move":"Ke2"}"#, 400, "not legal"),
        (r#"{"move":"zz9"}"#, 400, "not a move"),
        (r#"{"move":"e2e4e2e4e2e4"}"#, 400, "at most"),
        (r#"{"move":42}"#, 400, "not what it should be"),
        (r#"{"mv":"e4"}"#, 400, "not what it should be"),
        (r#"{"move":"e4","at":5}"#, 400, "past the end"),
        ("not json", 400, "not what it should be"),
    ] {
        let reply = post(server.addr, &path, body);
        assert_eq!(reply.status, status, "{body}: {}", reply.body);
        assert!(reply.error().contains(words), "{body}: {}", reply.error());
    }
    // Nothing changed.
    assert_eq!(state(&server, id(&game))["ply"], 0);
    for (body, words) in [
        (
            r#"{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"}"#,
            "Bad FEN",
        ),
        (
            r#"{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"}"#,
            "Bad FEN",
        ),
        (r#"{"fen":"8/8/8/8/8/8/8/8 w - - 0 1"}"#, "Bad FEN"),
        (r#"{"pgn":"1. e4 e5 2. Qxf7 *"}"#, "Bad PGN"),
        (r#"{"pgn":"[Event \"x\"\n1. e4"}"#, "Bad PGN"),
        (r#"{"pgn":""}"#, "no game"),
        (r#"{"elo":100}"#, "elo"),
        (r#"{"movetime_ms":999999}"#, "movetime_ms"),
        (r#"{"color":"purple"}"#, "color"),
        (r#"{"clock":{"minutes":-1,"increment":0}}"#, "clock"),
    ] {
        let reply = post(server.addr, "/api/games", body);
        assert_eq!(reply.status, 400, "{body}: {}", reply.body);
        assert!(reply.error().contains(words), "{body}: {}", reply.error());
    }
    let position = post(server.addr, "/api/position", r#"{"fen":"bad"}"#);
    assert_eq!(position.status, 400);
    let position = post(
        server.addr,
        "/api/position",
        r#"{"fen":"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"}"#,
    );
    let legal = position.json()["legal"].as_array().unwrap().clone();
    assert!(legal.iter().any(|m| m["san"] == "O-O-O" && m["to"] == "c1"));
    // Sizes, routes, methods and game numbers.
    let big = format!(r#"{{"pgn":"{}"}}"#, "1. e4 ".repeat(20_000));
    assert_eq!(post(server.addr, "/api/games", &big).status, 413);
    assert_eq!(common::http::get(server.addr, "/api/games/999").status, 404);
    assert_eq!(common::http::get(server.addr, "/api/games/x").status, 404);
    assert_eq!(common::http::get(server.addr, "/api/nothing").status, 404);
    assert_eq!(common::http::get(server.addr, "/api/games").status, 405);
    assert_eq!(
        common::http::get(
            server.addr,
            &format!("/api/games/{}/analysis?lines=9", id(&game))
        )
        .status,
        400
    );
    assert_eq!(
        common::http::get(
            server.addr,
            &format!("/api/games/{}/analysis?depth=3", id(&game))
        )
        .status,
        400
    );
    assert_eq!(
        common::http::get(
            server.addr,
            &format!("/api/games/{}/review?ms=-1", id(&game))
        )
        .status,
        400
    );
    // The page's files, and nothing else from the file system.
    let page = common::http::get(server.addr, "/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<html"));
    assert!(page.header("Content-Security-Policy").is_some());
    // One request per connection (see `http::send`: tiny_http could keep a new connection
    // waiting behind a browser's idle ones).
    assert_eq!(page.header("Connection"), Some("close"));
    assert_eq!(common::http::get(server.addr, "/pieces/bN.svg").status, 200);
    for path in [
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/src/main.rs",
        "/pieces/../app.js",
    ] {
        assert_eq!(common::http::get(server.addr, path).status, 404, "{path}");
    }
}

#[test]
fn foreign_hosts_and_origins_are_refused() {
    let server = TestServer::start(&[]);
    let port = server.addr.port();
    for headers in [
        vec![("Host", "evil.example".to_string())],
        vec![("Host", format!("evil.example:{port}"))],
        vec![("Host", format!("127.0.0.1:{}", port.wrapping_add(1)))],
        vec![("Origin", "http://evil.example".to_string())],
        vec![("Origin", "null".to_string())],
        vec![("Origin", format!("http://localhost:{port}"))],
    ] {
        let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
        for (method, path) in [("GET", "/"), ("POST", "/api/games")] {
            let reply = request(server.addr, method, path, &headers, "{}");
            assert_eq!(reply.status, 403, "{headers:?} {path}: {}", reply.body);
            assert!(!reply.error().is_empty());
        }
    }
    let own = format!("http://127.0.0.1:{port}");
    let reply = request(server.addr, "POST", "/api/games", &[("Origin", &own)], "{}");
    assert_eq!(reply.status, 201, "{}", reply.body);
    let local = format!("localhost:{port}");
    let reply = request(server.addr, "GET", "/", &[("Host", &local)], "");
    assert_eq!(reply.status, 200);
}

#[test]
fn analysis_streams_lines_and_stops_when_asked() {
    let server = TestServer::start(&[]);
    let game = new_game(
        &server,
        r#"{"mode":"analysis","pgn":"1. e4 e5 2. Nf3 Nc6 *"}"#,
    );
    let id = id(&game);
    let mut events = Events::open(
        server.addr,
        &format!("/api/games/{id}/analysis?lines=3&ply=2"),
    );
    assert_eq!(events.status, 200);
    let mut seen_three = false;
    let mut depth = 0;
    let started = Instant::now();
    while !seen_three || depth < 4 {
        let (name, data) = events.next().expect("an info event");
        assert_eq!(name, "info");
        assert_eq!(data["ply"], 2);
        depth = data["depth"].as_i64().unwrap();
        let lines = data["lines"].as_array().unwrap();
        seen_three |= lines.len() == 3;
        assert!(
            lines[0]["san"].as_str().unwrap().starts_with("2. "),
            "{data}"
        );
        assert!(data["nps"].as_u64().is_some());
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no depth 4 with 3 lines"
        );
    }
    assert!(state(&server, id)["searching"].as_bool().unwrap());
    let stopped_at = Instant::now();
    let stop = post(server.addr, &format!("/api/games/{id}/stop"), "");
    assert_eq!(stop.json()["stopped"], true);
    let done = loop {
        match events.next() {
            Some((name, data)) if name == "done" => break data,
            Some(_) => {}
            None => panic!("the stream ended without 'done'"),
        }
    };
    assert!(stopped_at.elapsed() < Duration::from_secs(5));
    assert_eq!(done["stopped"], true);
    assert!(done["best"]["san"].is_string());
    assert!(events.next().is_none(), "the stream goes on after 'done'");
    assert!(!state(&server, id)["searching"].as_bool().unwrap());
}

#[test]
fn analysis_stops_when_the_page_goes_away() {
    let server = TestServer::start(&[]);
    let game = new_game(&server, r#"{"mode":"analysis"}"#);
    let id = id(&game);
    let mut events = Events::open(server.addr, &format!("/api/games/{id}/analysis"));
    events.next().expect("an info event");
    assert!(state(&server, id)["searching"].as_bool().unwrap());
    drop(events);
    let gone_at = Instant::now();
    while state(&server, id)["searching"].as_bool().unwrap() {
        assert!(
            gone_at.elapsed() < Duration::from_secs(10),
            "the search goes on after the page went away"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // A new analysis takes over from a running one: one search per game.
    let mut first = Events::open(server.addr, &format!("/api/games/{id}/analysis"));
    first.next().expect("an info event");
    let mut second = Events::open(server.addr, &format!("/api/games/{id}/analysis?seconds=1"));
    let ended = loop {
        match first.next() {
            Some((name, data)) if name == "done" => break data,
            Some(_) => {}
            None => panic!("the first stream ended without 'done'"),
        }
    };
    assert_eq!(ended["stopped"], true);
    assert_eq!(second.status, 200);
    second.next().expect("the second analysis runs");
    // A game against Tarpon is not analysed while it goes on (Tarpon thinks in it).
    let live = new_game(&server, r#"{"mode":"play"}"#);
    let refused = Events::open(server.addr, &format!("/api/games/{}/analysis", live["id"]));
    assert_eq!(refused.status, 409);
    assert!(refused.refusal.unwrap().error().contains("going on"));
    // A finished position has nothing to analyse.
    let mate = new_game(
        &server,
        r#"{"mode":"analysis","pgn":"1. f3 e5 2. g4 Qh4# 0-1"}"#,
    );
    let refused = Events::open(server.addr, &format!("/api/games/{}/analysis", mate["id"]));
    assert_eq!(refused.status, 409);
    assert!(refused.refusal.unwrap().error().contains("no legal move"));
}

/// An analysis may run for half an hour (a page open for deep analysis), not more; one
/// that reaches its time says so.
#[test]
fn analysis_runs_up_to_half_an_hour_and_says_when_its_time_is_up() {
    let server = TestServer::start(&[]);
    let game = new_game(&server, r#"{"mode":"analysis"}"#);
    let id = id(&game);
    let refused = Events::open(
        server.addr,
        &format!("/api/games/{id}/analysis?seconds=1801"),
    );
    assert_eq!(refused.status, 400);
    let mut long = Events::open(
        server.addr,
        &format!("/api/games/{id}/analysis?seconds=1800"),
    );
    assert_eq!(long.status, 200);
    long.next().expect("an info event of the long analysis");
    drop(long);
    let mut short = Events::open(server.addr, &format!("/api/games/{id}/analysis?seconds=1"));
    let done = loop {
        match short.next() {
            Some((name, data)) if name == "done" => break data,
            Some(_) => {}
            None => panic!("the stream ended without 'done'"),
        }
    };
    assert_eq!(done["stopped"], false, "{done}");
    assert_eq!(done["limit"], true, "{done}");
}

#[test]
fn a_review_marks_the_mistakes_as_tarpon_analyse_does() {
    let server = TestServer::start(&[]);
    let game = new_game(&server, FOOLS_MATE);
    let mut events = Events::open(
        server.addr,
        &format!("/api/games/{}/review?ms=100", id(&game)),
    );
    let mut progress = 0;
    let review = loop {
        match events.next().expect("review events") {
            (name, data) if name == "progress" => {
                assert_eq!(data["ply"], progress);
                progress += 1;
            }
            (name, data) if name == "review" => break data,
            (name, data) => panic!("unexpected {name}: {data}"),
        }
    };
    assert_eq!(progress, 5);
    let points = review["points"].as_array().unwrap();
    assert_eq!(points.len(), 5);
    assert_eq!(points[4]["eval"]["mate"], 0, "{review}");
    assert!(points[4]["white"].as_f64().unwrap() < 0.01);
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves[2]["san"], "g4");
    assert_eq!(moves[2]["mark"], "??", "{review}");
    assert_eq!(moves[3]["mark"], Value::Null);
    assert_eq!(review["summary"]["white"]["blunders"], 1);
}

/// A page that stays quiet for longer than the connections' idle timeout (10 s) still
/// reaches the server afterwards, again and again: the timeout closes idle connections, not
/// the server.
#[test]
fn the_server_answers_after_quiet_spells_longer_than_its_idle_timeout() {
    let server = TestServer::start(&[]);
    let game = new_game(&server, r#"{"mode":"analysis"}"#);
    for spell in 1..=2 {
        std::thread::sleep(Duration::from_secs(11));
        let answer = common::http::get(server.addr, &format!("/api/games/{}", id(&game)));
        assert_eq!(
            answer.status, 200,
            "after quiet spell {spell}: {}",
            answer.body
        );
    }
}

/// An event stream ends with its last chunk as soon as its search is over, also for a
/// client that keeps the connection open as browsers do (without it, the page would learn
/// of the end only when the idle timeout closed the connection, ten seconds later).
#[test]
fn an_event_stream_ends_when_its_search_does() {
    use std::io::{Read, Write};
    let server = TestServer::start(&[]);
    let game = new_game(&server, FOOLS_MATE);
    let mut stream = std::net::TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let started = Instant::now();
    write!(
        stream,
        "GET /api/games/{}/review?ms=50 HTTP/1.1\r\nHost: {}\r\nConnection: keep-alive\r\n\r\n",
        id(&game),
        server.addr
    )
    .unwrap();
    let mut text = Vec::new();
    let mut buffer = [0; 4096];
    while !text.ends_with(b"\r\n0\r\n\r\n") {
        let n = stream.read(&mut buffer).expect("the stream's last chunk");
        assert!(n > 0, "the connection closed before the last chunk");
        text.extend_from_slice(&buffer[..n]);
    }
    let took = started.elapsed();
    let text = String::from_utf8_lossy(&text);
    assert!(text.contains("Transfer-Encoding: chunked"), "{text}");
    assert!(text.contains("event: review"), "{text}");
    assert!(
        took < Duration::from_secs(5),
        "the stream ended after {took:?}"
    );
}

/// A game against Tarpon that has ended stays ended: no takeback after a resignation, a
/// mate or a loss on time.
#[test]
fn a_finished_game_cannot_be_taken_back() {
    let server = TestServer::start(&[]);
    let game = new_game(&server, &format!(r#"{{"color":"white",{QUICK_MOVE}}}"#));
    let game_id = id(&game);
    play(&server, game_id, "e4");
    tarpon_replies(&server, game_id);
    let resigned = post(server.addr, &format!("/api/games/{game_id}/resign"), "");
    assert_eq!(resigned.status, 200, "{}", resigned.body);
    let refused = post(server.addr, &format!("/api/games/{game_id}/takeback"), "");
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(refused.error().contains("over"), "{}", refused.body);
    let after = state(&server, game_id);
    assert_eq!(
        (after["status"].as_str(), after["ply"].as_u64()),
        (Some("over"), Some(2))
    );

    // Mated.
    let mated = new_game(
        &server,
        r#"{"mode":"play","color":"white","pgn":"1. f3 e5 2. g4 Qh4# 0-1"}"#,
    );
    assert_eq!(mated["status"], "over");
    let refused = post(
        server.addr,
        &format!("/api/games/{}/takeback", id(&mated)),
        "",
    );
    assert_eq!(refused.status, 409, "{}", refused.body);

    // Lost on time: a clock of a tenth of a second runs out before the takeback.
    let timed = new_game(
        &server,
        r#"{"mode":"play","color":"white","pgn":"1. e4 e5","clock":{"minutes":0.002,"increment":0}}"#,
    );
    let timed_id = id(&timed);
    play(&server, timed_id, "Nf3");
    std::thread::sleep(Duration::from_millis(300));
    let refused = post(server.addr, &format!("/api/games/{timed_id}/takeback"), "");
    assert_eq!(refused.status, 409, "{}", refused.body);

    // An analysis board that ended in mate still takes its moves back.
    let board = new_game(
        &server,
        r#"{"mode":"analysis","pgn":"1. f3 e5 2. g4 Qh4# 0-1"}"#,
    );
    let back = post(
        server.addr,
        &format!("/api/games/{}/takeback", id(&board)),
        "",
    );
    assert_eq!(back.status, 200, "{}", back.body);
}

/// On an analysis board only a position without a legal move ends the line: a threefold
/// repetition in a game read with `*` is neither a draw nor the end of the moves.
#[test]
fn an_analysis_board_plays_on_after_a_repetition() {
    let server = TestServer::start(&[]);
    let board = new_game(
        &server,
        r#"{"mode":"analysis","pgn":"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"}"#,
    );
    assert_eq!(board["status"], "playing", "{board}");
    assert_eq!(board["result"], "*");
    let reply = post(
        server.addr,
        &format!("/api/games/{}/move", id(&board)),
        r#"{"move":"e4","at":8}"#,
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    let pgn = reply.json()["pgn"].as_str().unwrap().to_string();
    assert!(pgn.contains("5. e4 *"), "{pgn}");
    // A game against Tarpon is drawn by the same repetition.
    let game = new_game(
        &server,
        r#"{"mode":"play","color":"white","pgn":"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"}"#,
    );
    assert_eq!(game["result"], "1/2-1/2", "{game}");
}

/// Arrows and circles on an analysis board's move are its PGN `[%cal]`/`[%csl]` commands:
/// set, replaced, removed, checked; the comment's words stay.
#[test]
fn shapes_are_kept_in_the_moves_comment() {
    let server = TestServer::start(&[]);
    let board = new_game(
        &server,
        r#"{"mode":"analysis","pgn":"1. e4 { A fine move [%csl Ye4] } e5 *"}"#,
    );
    let path = format!("/api/games/{}/shapes", id(&board));
    let reply = post(
        server.addr,
        &path,
        r#"{"node":1,"cal":"Gd2d4,Rg1f3","csl":"Bd5"}"#,
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    let pgn = one_line(reply.json()["pgn"].as_str().unwrap());
    assert!(
        pgn.contains("1. e4 { A fine move } { [%cal Gd2d4,Rg1f3] [%csl Bd5] } 1... e5"),
        "{pgn}"
    );
    let reply = post(server.addr, &path, r#"{"node":1}"#);
    let pgn = one_line(reply.json()["pgn"].as_str().unwrap());
    assert!(pgn.contains("1. e4 { A fine move } 1... e5"), "{pgn}");
    for (body, words) in [
        (r#"{"node":1,"cal":"Xd2d4"}"#, "not a list of arrows"),
        (r#"{"node":1,"csl":"Gd2d4"}"#, "not a list of circles"),
        (r#"{"node":9,"csl":"Gd4"}"#, "not a move"),
        (r#"{"node":0,"csl":"Gd4"}"#, "not a move"),
    ] {
        let reply = post(server.addr, &path, body);
        assert_eq!(reply.status, 400, "{body}: {}", reply.body);
        assert!(reply.error().contains(words), "{body}: {}", reply.error());
    }
}

/// Clocks as on lichess: they start once each side has made its first move (those are
/// not timed and earn no increment), and neither a takeback nor a resignation gives back
/// the time the person used on the turn.
#[test]
fn clocks_start_after_the_first_moves_and_never_run_backwards() {
    let server = TestServer::start(&[]);
    let game = new_game(
        &server,
        r#"{"mode":"play","color":"white","clock":{"minutes":0.5,"increment":1}}"#,
    );
    let game_id = id(&game);
    let clock = |game: &Value, side: &str| game["clock"][side].as_u64().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let before = state(&server, game_id);
    assert_eq!(clock(&before, "white_ms"), 30_000, "{before}");
    assert!(before["clock"]["running"].is_null(), "{before}");
    play(&server, game_id, "e4");
    let replied = tarpon_replies(&server, game_id);
    // White's clock has just started; neither was charged (or paid) for a first move.
    assert!(clock(&replied, "white_ms") > 29_900, "{replied}");
    assert_eq!(clock(&replied, "black_ms"), 30_000, "{replied}");
    assert_eq!(replied["clock"]["running"], "white", "{replied}");

    // A takeback charges the turn's time: the clock does not jump back.
    std::thread::sleep(Duration::from_millis(400));
    let thinking = clock(&state(&server, game_id), "white_ms");
    assert!(thinking <= 29_600, "{thinking}");
    let back = post(server.addr, &format!("/api/games/{game_id}/takeback"), "");
    assert_eq!(back.status, 200, "{}", back.body);
    let after = clock(&back.json(), "white_ms");
    assert!(
        after <= thinking,
        "takeback: {thinking} ms before, {after} after"
    );

    // Nor does resigning.
    play(&server, game_id, "d4");
    tarpon_replies(&server, game_id);
    std::thread::sleep(Duration::from_millis(400));
    let thinking = clock(&state(&server, game_id), "white_ms");
    let resigned = post(server.addr, &format!("/api/games/{game_id}/resign"), "");
    assert_eq!(resigned.status, 200, "{}", resigned.body);
    let resigned = resigned.json();
    assert!(resigned["clock"]["running"].is_null(), "{resigned}");
    let after = clock(&resigned, "white_ms");
    assert!(
        after <= thinking,
        "resigning: {thinking} ms before, {after} after"
    );
}

/// A game set up again where it was (the page reloaded after the server lost it): its
/// moves from PGN and each side's time left.
#[test]
fn a_game_is_set_up_again_with_its_clocks() {
    let server = TestServer::start(&[]);
    let game = new_game(
        &server,
        r#"{"mode":"play","color":"white","pgn":"1. e4 e5","clock":{"minutes":5,"increment":3,"white_ms":61000,"black_ms":120500}}"#,
    );
    assert_eq!(game["ply"], 2);
    assert_eq!(game["clock"]["black_ms"], 120500);
    let white = game["clock"]["white_ms"].as_u64().unwrap();
    assert!((60000..=61000).contains(&white), "{white}");
    assert_eq!(game["clock"]["base_ms"], 300000);
    for bad in [
        r#"{"clock":{"minutes":5,"increment":0,"white_ms":1000}}"#,
        r#"{"clock":{"minutes":5,"increment":0,"white_ms":1000,"black_ms":99999999999}}"#,
    ] {
        let reply = post(server.addr, "/api/games", bad);
        assert_eq!(reply.status, 400, "{bad}: {}", reply.body);
    }
}

/// A PGN with everything a player writes: names, comments, variations, NAGs, `[%eval]` and
/// `[%clk]`, a result, no date.
const ANNOTATED_PGN: &str = "[Event \"Club\"]\n[White \"Ann Example\"]\n[Black \"Bo Sample\"]\n[Result \"1-0\"]\n\n\
    {A quiet opening} 1. e4 $1 {[%eval 0.30] [%clk 0:05:00]} 1... e5 (1... c5 {Sicilian} 2. Nf3 $5) \
    2. Nf3 {[%clk 0:04:58]} 2... Nc6 $2 1-0\n";

/// A PGN's movetext on one line (the writer wraps it at 80 characters).
fn one_line(pgn: &str) -> String {
    pgn.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A pasted PGN keeps all it holds, and the PGN written back has it; moves played at an
/// earlier point add variations; a variation is chosen, promoted and deleted.
#[test]
fn a_pgn_keeps_its_annotations_and_moves_make_variations() {
    let server = TestServer::start(&[]);
    let body = serde_json::json!({ "mode": "analysis", "pgn": ANNOTATED_PGN }).to_string();
    let game = new_game(&server, &body);
    let game_id = id(&game);
    assert_eq!(game["white"], "Ann Example");
    assert_eq!(game["black"], "Bo Sample");
    assert_eq!(sans(&game), ["e4", "e5", "Nf3", "Nc6"]);
    let pgn = common::http::get(server.addr, &format!("/api/games/{game_id}/pgn")).body;
    let pgn = one_line(&pgn);
    for part in [
        "[White \"Ann Example\"]",
        "[Black \"Bo Sample\"]",
        "[Date \"????.??.??\"]",
        "[Result \"1-0\"]",
        "{ A quiet opening }",
        "1. e4 $1 { [%eval 0.30] [%clk 0:05:00] }",
        "(1... c5 { Sicilian } 2. Nf3 $5)",
        "{ [%clk 0:04:58] }",
        "Nc6 $2",
        "1-0",
    ] {
        assert!(pgn.contains(part), "{part} missing from\n{pgn}");
    }
    assert!(!pgn.contains("[Event \"Analysis\"]"), "{pgn}");

    // A move at an earlier point: a new variation, the main line kept.
    let reply = post(
        server.addr,
        &format!("/api/games/{game_id}/move"),
        r#"{"move":"d5","at":1}"#,
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    let game = reply.json();
    assert_eq!(sans(&game), ["e4", "d5"]);
    assert!(
        game["pgn"].as_str().unwrap().contains("(1... d5)"),
        "{}",
        game["pgn"]
    );
    assert!(
        game["pgn"].as_str().unwrap().contains("2. Nf3"),
        "{}",
        game["pgn"]
    );
    let tree = game["tree"].as_array().unwrap();
    let node = |san: &str| {
        tree.iter()
            .find(|n| n["san"] == san)
            .unwrap_or_else(|| panic!("no {san}"))["id"]
            .as_u64()
            .unwrap()
    };
    // Back on the main line by its move.
    let reply = post(
        server.addr,
        &format!("/api/games/{game_id}/line"),
        &format!(r#"{{"node":{}}}"#, node("Nc6")),
    );
    assert_eq!(sans(&reply.json()), ["e4", "e5", "Nf3", "Nc6"]);
    // The Sicilian promoted to the main line, then deleted.
    let c5 = node("c5");
    let reply = post(
        server.addr,
        &format!("/api/games/{game_id}/variation"),
        &format!(r#"{{"node":{c5},"action":"promote"}}"#),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    let pgn = one_line(reply.json()["pgn"].as_str().unwrap());
    assert!(pgn.contains("1... c5 { Sicilian } (1... e5"), "{pgn}");
    let reply = post(
        server.addr,
        &format!("/api/games/{game_id}/variation"),
        &format!(r#"{{"node":{c5},"action":"delete"}}"#),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    let game = reply.json();
    assert!(
        !game["pgn"].as_str().unwrap().contains("c5"),
        "{}",
        game["pgn"]
    );
    assert_eq!(sans(&game), ["e4", "e5", "Nf3", "Nc6"]);
    for bad in [
        r#"{"node":999,"action":"delete"}"#,
        r#"{"node":1,"action":"shout"}"#,
        r#"{"node":0,"action":"delete"}"#,
    ] {
        let reply = post(server.addr, &format!("/api/games/{game_id}/variation"), bad);
        assert_eq!(reply.status, 400, "{bad}: {}", reply.body);
    }
}

/// A game that has barely begun can be aborted, not later; Tarpon accepts a draw when it
/// stands worse, and declines it otherwise.
#[test]
fn abort_and_draw_offers() {
    let server = TestServer::start(&[]);
    let game = new_game(&server, &format!(r#"{{"color":"white",{QUICK_MOVE}}}"#));
    let game_id = id(&game);
    assert_eq!(game["can_abort"], true);
    play(&server, game_id, "e4");
    let after = tarpon_replies(&server, game_id);
    assert_eq!(after["can_abort"], false);
    let refused = post(server.addr, &format!("/api/games/{game_id}/abort"), "");
    assert_eq!(refused.status, 409, "{}", refused.body);
    let early = new_game(&server, &format!(r#"{{"color":"black",{QUICK_MOVE}}}"#));
    let early_id = id(&early);
    tarpon_replies(&server, early_id);
    let aborted = post(server.addr, &format!("/api/games/{early_id}/abort"), "");
    assert_eq!(aborted.status, 200, "{}", aborted.body);
    let aborted = aborted.json();
    assert_eq!(
        (aborted["status"].as_str(), aborted["result"].as_str()),
        (Some("over"), Some("*"))
    );
    assert!(aborted["reason"].as_str().unwrap().contains("aborted"));
    assert!(
        aborted["pgn"]
            .as_str()
            .unwrap()
            .contains("[Termination \"abandoned\"]")
    );

    // The start position: Tarpon does not stand worse, and declines.
    let declined = post(server.addr, &format!("/api/games/{game_id}/draw"), "");
    assert_eq!(declined.status, 200, "{}", declined.body);
    assert_eq!(declined.json()["accepted"], false, "{}", declined.body);
    assert_eq!(declined.json()["game"]["status"], "playing");
    // A queen down, it accepts.
    let lost = new_game(
        &server,
        r#"{"color":"white","fen":"4k3/8/8/8/8/8/8/3QK3 w - - 0 1"}"#,
    );
    let accepted = post(server.addr, &format!("/api/games/{}/draw", id(&lost)), "").json();
    assert_eq!(accepted["accepted"], true, "{accepted}");
    assert_eq!(accepted["game"]["result"], "1/2-1/2");
    assert!(
        accepted["game"]["reason"]
            .as_str()
            .unwrap()
            .contains("Draw agreed")
    );
}

#[test]
fn many_clients_at_once() {
    let server = TestServer::start(&[]);
    const CLIENTS: usize = 12;
    let addr = server.addr;
    let handles: Vec<_> = (0..CLIENTS)
        .map(|i| {
            std::thread::spawn(move || {
                let reply = post(addr, "/api/games", &format!(r#"{{{QUICK_MOVE}}}"#));
                assert_eq!(reply.status, 201, "{}", reply.body);
                let id = reply.json()["id"].as_u64().unwrap();
                let first = ["e4", "d4", "c4", "Nf3"][i % 4];
                let path = format!("/api/games/{id}/move");
                assert_eq!(
                    post(addr, &path, &format!(r#"{{"move":"{first}"}}"#)).status,
                    200
                );
                let reply = post(addr, &format!("/api/games/{id}/reply"), "");
                // More searches than the server runs at once are turned away, not queued.
                assert!(matches!(reply.status, 200 | 503), "{}", reply.body);
                let game = common::http::get(addr, &format!("/api/games/{id}")).json();
                let plies = if reply.status == 200 { 2 } else { 1 };
                assert_eq!(game["ply"], plies, "{game}");
                reply.status
            })
        })
        .collect();
    let statuses: Vec<u16> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert!(
        statuses.iter().filter(|&&s| s == 200).count() >= 8,
        "{statuses:?}"
    );
}

#[test]
fn binding_every_address_warns() {
    let server = TestServer::start(&["--host", "0.0.0.0"]);
    let warning = server.stderr_first.clone().unwrap_or_default();
    assert!(
        warning.contains("warning") && warning.contains("network"),
        "{warning:?}"
    );
    assert!(
        server.url.starts_with("http://127.0.0.1:"),
        "{}",
        server.url
    );
}

/// One raw exchange: `parts` written with `pause` between them, then the answer read. The
/// status (0 when the server closed without one) and the time from the last byte sent to
/// the answer, or why it failed.
fn raw_exchange(
    addr: std::net::SocketAddr,
    parts: &[Vec<u8>],
    pause: Duration,
) -> Result<(u16, Duration), String> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).map_err(|e| format!("connect: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .map_err(|e| e.to_string())?;
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            std::thread::sleep(pause);
        }
        // The server may answer and close before all is sent (a body over the limit).
        if stream.write_all(part).is_err() {
            break;
        }
    }
    let sent = Instant::now();
    // The answer's head, then as much body as it says (as a client does: the server's
    // connection may stay open after it).
    let mut answer = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        let n = stream.read(&mut buffer).unwrap_or(0);
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&buffer[..n]);
        let text = String::from_utf8_lossy(&answer);
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .and_then(|v| v.trim().parse::<usize>().ok());
            if length.is_some_and(|length| answer.len() >= end + 4 + length) {
                break;
            }
        }
    }
    let took = sent.elapsed();
    if took >= Duration::from_secs(20) {
        return Err("no answer in 20 s".to_string());
    }
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    Ok((status, took))
}

fn http_request(addr: std::net::SocketAddr, method: &str, path: &str, body: &str) -> Vec<u8> {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// What one wave of clients saw.
#[derive(Default, Debug)]
struct Wave {
    /// Requests of ordinary clients, and those not answered as they should be.
    requests: usize,
    errors: Vec<String>,
    /// Ordinary clients' games dropped by the server to make room (404 afterwards).
    dropped: usize,
    /// The longest answer to an ordinary or a slow client's finished request.
    longest: Duration,
    /// Slow and malformed clients, and those the server answered with a 5xx.
    abusive: usize,
    server_errors: usize,
}

/// 200 clients at once: 120 ordinary ones (a game created, moved in, read, written as PGN,
/// a position's moves asked, the game deleted), 40 slow ones (a request sent a few bytes at
/// a time, half of them never finished) and 40 malformed ones (garbage, no Host, a body
/// over the limit, bad JSON, a body shorter than its length, another site's Origin).
fn load_wave(addr: std::net::SocketAddr) -> Wave {
    const CLIENTS: usize = 200;
    let handles: Vec<_> = (0..CLIENTS)
        .map(|i| {
            std::thread::spawn(move || {
                let mut wave = Wave::default();
                let timed = |wave: &mut Wave, what: &str, result: Result<(u16, Duration), String>, ok: &[u16]| {
                    match result {
                        Ok((status, took)) => {
                            wave.longest = wave.longest.max(took);
                            if !ok.contains(&status) {
                                wave.errors.push(format!("{what}: {status}"));
                            }
                            status
                        }
                        Err(e) => {
                            wave.errors.push(format!("{what}: {e}"));
                            0
                        }
                    }
                };
                match i % 5 {
                    0..=2 => {
                        let created = post(addr, "/api/games", r#"{"mode":"analysis"}"#);
                        wave.requests += 1;
                        if created.status != 201 {
                            wave.errors.push(format!("create: {}", created.status));
                            return wave;
                        }
                        let game = created.json()["id"].as_u64().unwrap();
                        let steps = [
                            ("POST", format!("/api/games/{game}/move"), r#"{"move":"e4"}"#),
                            ("GET", format!("/api/games/{game}"), ""),
                            ("GET", format!("/api/games/{game}/pgn"), ""),
                            ("POST", "/api/position".to_string(), r#"{"fen":"8/8/8/8/8/8/8/K1k5 w - - 0 1"}"#),
                            ("DELETE", format!("/api/games/{game}"), ""),
                        ];
                        for (method, path, body) in steps {
                            wave.requests += 1;
                            let request = http_request(addr, method, &path, body);
                            let status = timed(&mut wave, &path, raw_exchange(addr, &[request], Duration::ZERO), &[200, 404]);
                            if status == 404 {
                                wave.dropped += 1;
                            }
                        }
                    }
                    3 => {
                        wave.abusive += 1;
                        let request = http_request(addr, "POST", "/api/games", r#"{"mode":"analysis"}"#);
                        let pieces: Vec<Vec<u8>> = request.chunks(8).map(<[u8]>::to_vec).collect();
                        if i % 2 == 0 {
                            // Slow but complete: answered once it is all there.
                            wave.requests += 1;
                            timed(&mut wave, "slow request", raw_exchange(addr, &pieces, Duration::from_millis(15)), &[201]);
                        } else {
                            // Never finished: the client gives up after a while.
                            let mut stream = std::net::TcpStream::connect(addr).unwrap();
                            for piece in &pieces[..pieces.len() / 2] {
                                use std::io::Write;
                                let _ = stream.write_all(piece);
                                std::thread::sleep(Duration::from_millis(60));
                            }
                        }
                    }
                    _ => {
                        wave.abusive += 1;
                        let big = "x".repeat(70 * 1024);
                        let requests: Vec<Vec<u8>> = vec![
                            b"\x00\xff\xfe not http at all\r\n\r\n".to_vec(),
                            b"GET /api/games/1 HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
                            http_request(addr, "POST", "/api/games", &big),
                            http_request(addr, "POST", "/api/games", "{\"mode\":"),
                            format!("POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 100\r\n\r\n{{\"mode\"").into_bytes(),
                            format!("POST /api/games HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://evil.example\r\nContent-Length: 2\r\n\r\n{{}}").into_bytes(),
                            http_request(addr, "GET", "/../../etc/passwd", ""),
                            http_request(addr, "GET", &format!("/api/games/{}", "9".repeat(300)), ""),
                        ];
                        let request = requests[(i / 5) % requests.len()].clone();
                        // A body shorter than its length: the client hangs up after a while.
                        let short = request.starts_with(b"POST /api/games HTTP/1.1\r\nHost") && request.windows(19).any(|w| w == b"Content-Length: 100");
                        if short {
                            let mut stream = std::net::TcpStream::connect(addr).unwrap();
                            use std::io::Write;
                            let _ = stream.write_all(&request);
                            std::thread::sleep(Duration::from_millis(800));
                        } else if let Ok((status, _)) = raw_exchange(addr, &[request], Duration::ZERO)
                            && status >= 500
                        {
                            wave.server_errors += 1;
                        }
                    }
                }
                wave
            })
        })
        .collect();
    let mut total = Wave::default();
    for handle in handles {
        let wave = handle.join().expect("a client thread");
        total.requests += wave.requests;
        total.errors.extend(wave.errors);
        total.dropped += wave.dropped;
        total.longest = total.longest.max(wave.longest);
        total.abusive += wave.abusive;
        total.server_errors += wave.server_errors;
    }
    total
}

/// The server's resident memory, in KiB (Linux).
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A load test on loopback, bounded to a few seconds: two waves of 200 clients (ordinary,
/// slow and malformed). Every ordinary request is answered as it should be, none slowly;
/// no malformed one gets a 5xx; and the server's memory after the second wave is about
/// what it was after the first (its games, searches and bodies are bounded).
#[test]
fn the_server_keeps_answering_under_load() {
    let server = TestServer::start(&[]);
    let pid = server.child.id();
    let started = Instant::now();
    let rss_before = rss_kib(pid);
    // Beside the waves, a client that sends half a request and waits: the server hangs up
    // on it after its idle timeout (10 s), freeing the thread that reads it.
    let addr = server.addr;
    let silent = std::thread::spawn(move || {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        stream
            .write_all(b"GET /api/games/1 HTTP/1.1\r\nHost: ")
            .unwrap();
        let waited = Instant::now();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        (
            waited.elapsed(),
            String::from_utf8_lossy(&answer).to_string(),
        )
    });
    let first = load_wave(server.addr);
    let rss_first = rss_kib(pid);
    let second = load_wave(server.addr);
    let rss_second = rss_kib(pid);
    // Still answering afterwards.
    let game = new_game(&server, r#"{"mode":"analysis"}"#);
    play(&server, id(&game), "d4");
    let (silent_for, silent_answer) = silent.join().unwrap();
    eprintln!(
        "load test: {:.1} s; per wave 200 clients; ordinary requests {} + {}, errors {} + {}, \
         games dropped to make room {} + {}, longest answer {} ms + {} ms, slow or malformed \
         clients {} + {} (5xx answers {} + {}); server RSS {} KiB before, {} KiB after the \
         first wave, {} KiB after the second",
        started.elapsed().as_secs_f64(),
        first.requests,
        second.requests,
        first.errors.len(),
        second.errors.len(),
        first.dropped,
        second.dropped,
        first.longest.as_millis(),
        second.longest.as_millis(),
        first.abusive,
        second.abusive,
        first.server_errors,
        second.server_errors,
        rss_before.unwrap_or(0),
        rss_first.unwrap_or(0),
        rss_second.unwrap_or(0),
    );
    eprintln!(
        "load test: a half-sent request was dropped after {:.1} s ({:?})",
        silent_for.as_secs_f64(),
        silent_answer.lines().next().unwrap_or("")
    );
    assert!(
        (Duration::from_secs(9)..Duration::from_secs(15)).contains(&silent_for),
        "a half-sent request was kept {silent_for:?}"
    );
    for wave in [&first, &second] {
        assert!(wave.errors.is_empty(), "{:?}", wave.errors);
        assert_eq!(wave.server_errors, 0);
        assert!(wave.longest < Duration::from_secs(5), "{:?}", wave.longest);
    }
    if let (Some(first), Some(second)) = (rss_first, rss_second) {
        assert!(
            second <= first + 64 * 1024,
            "the server's memory grew from {first} KiB to {second} KiB"
        );
    }
}
