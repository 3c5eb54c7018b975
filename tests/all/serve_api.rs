//! `tarpon serve`'s JSON API, against the real program on an ephemeral port: whole games,
//! refused moves and inputs, the Host/Origin check, live analysis stopped mid-way (by the
//! stop route and by the page going away), reviews, and many clients at once.

use crate::common;

use common::http::{Events, TestServer, post, request};
use serde_json::Value;
use std::time::{Duration, Instant};

/// Quick searches: the tests check behaviour, not strength.
const QUICK_MOVE: &str = r#""movetime_ms":30"#;

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
    // A flag that falls.
    let game = new_game(&server, r#"{"clock":{"minutes":0.005,"increment":0}}"#);
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
        common::http::get(server.addr, "/api/games/1/analysis?lines=9").status,
        400
    );
    assert_eq!(
        common::http::get(server.addr, "/api/games/1/analysis?depth=3").status,
        400
    );
    assert_eq!(
        common::http::get(server.addr, "/api/games/1/review?ms=-1").status,
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

#[test]
fn a_review_marks_the_mistakes_as_tarpon_analyse_does() {
    let server = TestServer::start(&[]);
    let game = new_game(
        &server,
        r#"{"mode":"analysis","pgn":"1. f3 e5 2. g4 Qh4# 0-1"}"#,
    );
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
