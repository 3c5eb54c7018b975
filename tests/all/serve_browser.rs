//! `tarpon serve`'s page in a real headless Chromium (Debian's `chromium` and
//! `chromium-driver`, driven over WebDriver from Rust: see `common/webdriver.rs`). A person's
//! path through the app: the page loads, a move made by clicking squares is answered by
//! Tarpon, a click on a square the piece cannot reach puts it down again, a piece is dragged, the
//! game is finished and saved as PGN; then a game is analysed (lines, the bar, walking
//! through the moves, the evaluation graph with the mistakes marked), a pawn promotes
//! through the chooser, and the page fits a phone.
//!
//! The test takes screenshots of the page in play and in analysis: always into
//! `target/serve-screenshots/`, and into `docs/` (README shows them) when
//! `TARPON_UPDATE_SCREENSHOTS=1`.

use crate::common;

use common::http::TestServer;
use common::webdriver::{self, Browser};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The window of a laptop, and of a phone held upright.
const DESKTOP: (u32, u32) = (1280, 860);
const PHONE: (u32, u32) = (390, 844);

/// A short game with a trap (the Blackburne Shilling gambit): White falls for it, and the
/// review marks White's blunders.
const TRAP_PGN: &str = "[Event \"Trap\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1";

/// Moves shown in the move list.
const MOVE_COUNT: &str = "return document.querySelectorAll('#moves button').length";

fn screenshot_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/serve-screenshots")
}

/// Writes a screenshot to `target/serve-screenshots/NAME.png`, and to `docs/NAME.png` when
/// asked to update the documentation's pictures.
fn save_screenshot(browser: &Browser, name: &str) {
    // Every piece drawn first: the board's pictures are made anew at each redraw.
    let started = Instant::now();
    loop {
        let pending = browser.script(
            "return [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)) \
             .map(i => `${i.src} complete=${i.complete} width=${i.naturalWidth} in=${i.parentElement.className}`)",
        );
        if pending.as_array().is_some_and(|p| p.is_empty()) {
            break;
        }
        assert!(
            started.elapsed() < webdriver::WAIT,
            "pictures not drawn: {pending}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let png = browser.screenshot();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    std::fs::create_dir_all(screenshot_dir()).unwrap();
    std::fs::write(screenshot_dir().join(format!("{name}.png")), &png).unwrap();
    if std::env::var_os("TARPON_UPDATE_SCREENSHOTS").is_some_and(|v| v == "1") {
        let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs");
        std::fs::write(docs.join(format!("{name}.png")), &png).unwrap();
    }
}

fn square(name: &str) -> String {
    format!("#board [data-square='{name}']")
}

/// Waits until the move list holds `n` moves and the person is to move again.
fn wait_for_moves(browser: &Browser, n: usize, what: &str) {
    browser.wait_for(
        what,
        &format!(
            "return document.querySelectorAll('#moves button').length === {n} && \
             document.getElementById('status').textContent === 'Your move'"
        ),
    );
}

#[test]
fn the_page_plays_and_analyses_in_a_real_browser() {
    if !webdriver::available() {
        return common::skip(
            "the_page_plays_and_analyses_in_a_real_browser",
            "Chromium and chromedriver (apt-get install chromium chromium-driver)",
        )
        .unwrap_or(());
    }
    let started = Instant::now();
    let server = TestServer::start(&[]);
    let dir = common::temp_dir("serve-browser");
    let browser = Browser::start(&dir, DESKTOP.0, DESKTOP.1);
    browser.goto(&server.url);

    // The page loads, with a new game and the person to move.
    browser.wait_for(
        "the board",
        "return document.querySelectorAll('#board .square img').length === 32 && \
         document.getElementById('status').textContent === 'Your move'",
    );
    assert_eq!(browser.script("return document.title"), "Tarpon");
    assert_eq!(
        browser.script("return document.querySelector('#board .square').dataset.square"),
        "a8",
        "White plays from the bottom"
    );

    // A game on a clock: both clocks shown; as on lichess they start once each side has
    // moved.
    browser.script("document.getElementById('time').value = 'clock:1+0'");
    browser.click("#new-game-button");
    browser.wait_for(
        "the clocks",
        "return document.querySelector('#player-bottom .clock').textContent === '1:00'",
    );
    std::thread::sleep(Duration::from_millis(1200));
    assert_eq!(
        browser.script(
            "const c = document.querySelector('#player-bottom .clock'); \
             return [c.textContent, c.classList.contains('running'), \
             document.querySelector('#player-top .clock').textContent]"
        ),
        serde_json::json!(["1:00", false, "1:00"]),
        "no clock runs before the first move"
    );
    browser.click(&square("e2"));
    browser.click(&square("e4"));
    wait_for_moves(&browser, 2, "Tarpon's answer on the clock");
    browser.wait_for(
        "the clock to run",
        "const c = document.querySelector('#player-bottom .clock'); \
         return c.classList.contains('running') && c.textContent === '0:58'",
    );
    // Back to a quick game, one second a move.
    browser.script("document.getElementById('time').value = 'move:1000'");
    browser.click("#new-game-button");
    browser.click("#new-game-yes");
    browser.wait_for(
        "the game without clocks",
        "return document.querySelector('#player-bottom .clock').textContent === ''",
    );

    // A move by clicking squares: the legal targets are shown, Tarpon answers.
    browser.click(&square("e2"));
    let targets = browser.script(
        "return [...document.querySelectorAll('#board .target')].map(s => s.dataset.square).sort().join(' ')",
    );
    assert_eq!(targets, "e3 e4");
    browser.click(&square("e4"));
    wait_for_moves(&browser, 2, "Tarpon's answer to 1. e4");
    assert_eq!(
        browser.script("return document.querySelector('#moves button').textContent"),
        "e4"
    );
    assert_eq!(
        browser.script("return document.querySelectorAll('#board .last').length"),
        2,
        "the last move is marked"
    );

    // A square the piece cannot go to puts it down again: nothing is sent, no error.
    browser.click(&square("g1"));
    browser.click(&square("g4"));
    assert_eq!(
        browser.script("return document.getElementById('message').hidden"),
        true
    );
    assert_eq!(browser.script(MOVE_COUNT), 2);

    // A move by dragging a piece.
    browser.drag(&square("d2"), &square("d4"));
    browser.wait_for(
        "the dragged move",
        "return [...document.querySelectorAll('#moves button')].some(b => b.textContent === 'd4')",
    );
    wait_for_moves(&browser, 4, "Tarpon's answer to the dragged move");
    // The picture shows a piece picked up, with its moves.
    browser.click(&square("g1"));
    browser.wait_for(
        "the knight's moves",
        "return document.querySelectorAll('#board .target').length >= 2",
    );
    save_screenshot(&browser, "serve-play");
    browser.click(&square("g1"));
    assert_eq!(
        browser.script("return document.querySelectorAll('#board .target').length"),
        0
    );

    // Flip turns the board around.
    browser.click("#flip");
    assert_eq!(
        browser.script("return document.querySelector('#board .square').dataset.square"),
        "h1"
    );
    browser.click("#flip");

    // Finish the game (resign, and yes) and save it as PGN.
    browser.click("#resign");
    browser.click("#resign-yes");
    let status = browser.wait_for(
        "the end of the game",
        "const s = document.getElementById('status').textContent; return s.includes('0-1') && s",
    );
    assert!(status.as_str().unwrap().contains("resigns"), "{status}");
    browser.click("#download-pgn");
    let saved = wait_for_file(&browser.downloads);
    let pgn = std::fs::read_to_string(&saved).unwrap();
    for part in [
        "[Result \"0-1\"]",
        "[White \"Player\"]",
        "1. e4",
        "2. d4",
        "resigns",
    ] {
        assert!(
            pgn.contains(part),
            "{part} missing from the saved PGN:\n{pgn}"
        );
    }
    let replayed = common::pgn_check::replay(&pgn);
    assert_eq!(replayed[0].sans.len(), 4);
    assert_eq!(
        browser.script(
            "return document.getElementById('pgn-output').value.includes('[Result \"0-1\"]')"
        ),
        true
    );

    // Analysis: paste a game, walk back from the mate, see lines and the bar.
    browser.click("#tab-analyse");
    browser.wait_for(
        "the analysis board",
        "return !document.getElementById('analyse-panel').hidden",
    );
    browser.type_into("#pgn-input", TRAP_PGN);
    browser.click("#pgn-button");
    browser.wait_for(
        "the pasted game",
        "return document.querySelectorAll('#moves button').length === 14",
    );
    assert_eq!(
        browser.script("return document.querySelectorAll('#board .check').length"),
        1,
        "the mated king is marked"
    );
    browser.click("#back");
    browser.wait_for(
        "the position before the mate",
        "return document.querySelector('#moves button.current').textContent === 'Be2'",
    );
    let bar_before = browser.script("return document.querySelector('.evalbar-black').style.height");
    browser.click("#analyse-toggle");
    let lines = browser.wait_for(
        "three lines of analysis",
        "const l = document.querySelectorAll('#lines li'); return l.length === 3 && [...l].map(x => x.textContent)",
    );
    let first = lines[0].as_str().unwrap();
    assert!(
        first.starts_with("#-1") && first.contains("7... Nf3#"),
        "{lines}"
    );
    let bar_after = browser.wait_for(
        "the bar to move",
        "const h = document.querySelector('.evalbar-black').style.height; return h === '100%' && h",
    );
    assert_ne!(bar_before, bar_after);
    assert!(
        browser
            .script("return document.getElementById('depth').textContent")
            .as_str()
            .unwrap()
            .starts_with("depth ")
    );

    // The evaluation graph over the whole game, with the mistakes marked.
    browser.click("#review");
    browser.wait_for(
        "the evaluation graph",
        "return document.querySelectorAll('#graph circle.mark').length > 0",
    );
    assert_eq!(
        browser
            .script("return document.getElementById('graph').getBoundingClientRect().height > 50"),
        true,
        "the graph is shown"
    );
    let marked = browser.script(
        "return [...document.querySelectorAll('#moves button.mark-blunder')].map(b => b.textContent)",
    );
    assert!(
        marked
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m == "Nxf7??" || m == "Rf1??" || m == "Nxe5??"),
        "{marked}"
    );
    assert!(
        browser
            .script("return document.getElementById('review-summary').textContent")
            .as_str()
            .unwrap()
            .contains("blunders")
    );
    // Back on the position before the mate, with its analysis (paused for the review).
    browser.wait_for(
        "the analysis again",
        "return document.querySelectorAll('#lines li').length === 3",
    );
    save_screenshot(&browser, "serve-analyse");
    browser.click("#analyse-toggle");

    // A position from FEN, and a promotion through the chooser.
    browser.type_into("#fen-input", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    browser.click("#fen-button");
    browser.wait_for(
        "the FEN's position",
        "return document.querySelectorAll('#board .square img').length === 3",
    );
    browser.click(&square("a7"));
    browser.click(&square("a8"));
    browser.wait_for(
        "the promotion chooser",
        "return !document.getElementById('promotion').hidden && \
         document.querySelectorAll('#promotion button').length === 4",
    );
    browser.click("#promotion [data-promotion='n']");
    browser.wait_for(
        "the knight",
        "return document.querySelector('#moves button') && \
         document.querySelector('#moves button').textContent === 'a8=N'",
    );
    // A malformed FEN is refused with a message.
    browser.type_into("#fen-input", "not a position");
    browser.click("#fen-button");
    let message = browser.wait_for(
        "the refusal of the FEN",
        "const m = document.getElementById('message'); return !m.hidden && m.textContent",
    );
    assert!(message.as_str().unwrap().contains("Bad FEN"), "{message}");

    // A phone: the board fits the width, the panel goes below it.
    browser.set_window(PHONE.0, PHONE.1);
    browser.click("#tab-play");
    let fits = browser.wait_for(
        "the board to fit a phone",
        "const b = document.getElementById('board').getBoundingClientRect(); \
         const p = document.querySelector('.panel').getBoundingClientRect(); \
         return b.left >= 0 && b.right <= window.innerWidth && p.top >= b.bottom && [b.width, window.innerWidth]",
    );
    assert!(fits[0].as_f64().unwrap() > 250.0, "{fits}");
    browser.script("window.scrollTo(0, 0)");
    save_screenshot(&browser, "serve-phone");
    eprintln!(
        "browser test: {:.1} s (screenshots in {})",
        started.elapsed().as_secs_f64(),
        screenshot_dir().display()
    );
}

/// The one file the browser saved into `dir`, once it is complete.
fn wait_for_file(dir: &std::path::Path) -> PathBuf {
    let started = Instant::now();
    loop {
        let done: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
            .collect();
        // Chromium reserves the final name with an empty file and writes the download
        // beside it (`.crdownload`), renaming it over the reserved name when done: the PGN
        // is saved once it has content and no partial download is left.
        let partial = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .any(|p| p.extension().is_some_and(|x| x == "crdownload"));
        if let [file] = done.as_slice() {
            let written = std::fs::metadata(file).is_ok_and(|m| m.len() > 0);
            if written && !partial {
                return file.clone();
            }
        }
        assert!(
            started.elapsed() < webdriver::WAIT,
            "no PGN was downloaded into {}",
            dir.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Pastes `pgn` into the analysis tab's PGN box and loads it.
fn paste_pgn(browser: &Browser, pgn: &str) {
    browser.script(&format!(
        "document.getElementById('pgn-input').value = {pgn:?}"
    ));
    browser.click("#pgn-button");
}

/// Pastes `TRAP_PGN` and waits for its fourteen moves.
fn paste_trap(browser: &Browser) {
    paste_pgn(browser, TRAP_PGN);
    browser.wait_for(
        "the pasted game",
        "return document.querySelectorAll('#moves button').length === 14",
    );
}

/// Pastes `ANNOTATED_PGN` and waits for it.
fn paste_annotated(browser: &Browser) {
    paste_pgn(browser, ANNOTATED_PGN);
    browser.wait_for(
        "the pasted game",
        "return state.games.analysis.white === 'Ann Example'",
    );
}

/// Starts the server and a browser on the analysis tab, with the start position shown.
fn open_analysis(name: &str, size: (u32, u32)) -> (TestServer, Browser) {
    let server = TestServer::start(&[]);
    let dir = common::temp_dir(name);
    let browser = Browser::start(&dir, size.0, size.1);
    browser.goto(&server.url);
    browser.wait_for(
        "the board",
        "return document.querySelectorAll('#board .square img').length === 32 && \
         document.getElementById('status').textContent === 'Your move'",
    );
    browser.click("#tab-analyse");
    browser.wait_for(
        "the analysis board",
        "return !document.getElementById('analyse-panel').hidden && \
         !document.getElementById('evalbar').hidden && \
         document.getElementById('status').textContent === 'White to move'",
    );
    (server, browser)
}

/// What the analysis panel shows: the lines, the depth, the bar's number and height, and
/// the bar's expected score (absent when it shows none): a script's expression.
const PANEL: &str = "({ \
     lines: [...document.querySelectorAll('#lines li')].map(l => l.textContent), \
     depth: document.getElementById('depth').textContent, \
     number: document.getElementById('eval-text').textContent, \
     height: document.querySelector('.evalbar-black').style.height, \
     white: document.getElementById('evalbar').dataset.white ?? null })";

/// The analysis of one position must not stay on screen once another is set up: live
/// analysis of the start position, stopped, then a FEN set up. The panel shows nothing of
/// the old position, and the new one's analysis, once asked for, is about the new position.
#[test]
fn the_analysis_of_an_old_position_is_not_shown_after_a_fen_is_set_up() {
    if !webdriver::available() {
        return common::skip(
            "the_analysis_of_an_old_position_is_not_shown_after_a_fen_is_set_up",
            "Chromium and chromedriver (apt-get install chromium chromium-driver)",
        )
        .unwrap_or(());
    }
    let (_server, browser) = open_analysis("serve-browser-stale", DESKTOP);
    browser.click("#analyse-toggle");
    let old = browser.wait_for(
        "a line of the start position",
        "const l = document.querySelectorAll('#lines li'); \
         return l.length > 0 && document.getElementById('eval-text').textContent !== '' && \
         [...l].map(x => x.textContent)",
    );
    browser.click("#analyse-toggle");
    browser.wait_for(
        "the analysis to stop",
        "return document.getElementById('analyse-toggle').textContent === 'Analyse'",
    );

    // A back-rank mate: nothing of the start position's lines can be played here.
    browser.type_into("#fen-input", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    browser.click("#fen-button");
    browser.wait_for(
        "the FEN's position",
        "return document.querySelectorAll('#board .square img').length === 9 && \
         document.querySelector('#board [data-square=\"d1\"]').dataset.piece === 'wR'",
    );
    // Anything still on its way from the old search has had time to arrive.
    std::thread::sleep(Duration::from_millis(500));
    let panel = browser.script(&format!("return {PANEL}"));
    assert_eq!(
        panel["lines"],
        serde_json::json!([]),
        "lines of the start position ({old}) are still shown: {panel}"
    );
    assert_eq!(panel["depth"], "depth –", "{panel}");
    assert_eq!(panel["number"], "", "{panel}");
    assert_eq!(panel["height"], "50%", "{panel}");
    assert_eq!(panel["white"], serde_json::Value::Null, "{panel}");

    // Analysed again, the lines and the bar are the new position's: Rd8 mates.
    browser.click("#analyse-toggle");
    let panel = browser.wait_for(
        "the mate in the new position",
        &format!(
            "const p = {PANEL}; return p.lines.length > 0 && p.lines[0].includes('Rd8#') && p"
        ),
    );
    assert!(
        panel["lines"][0].as_str().unwrap().starts_with("#1"),
        "{panel}"
    );
    assert_eq!(panel["number"], "#1", "{panel}");
    assert_eq!(panel["white"], "1.000", "{panel}");
}

/// The bar's number is shown whole, from the widest scores down, on a laptop and on a
/// phone: its text is the score as the lines write it, and it is not cut off.
#[test]
fn the_evaluation_bar_shows_the_whole_number() {
    if !webdriver::available() {
        return common::skip(
            "the_evaluation_bar_shows_the_whole_number",
            "Chromium and chromedriver (apt-get install chromium chromium-driver)",
        )
        .unwrap_or(());
    }
    let (_server, browser) = open_analysis("serve-browser-evalbar", DESKTOP);
    let scores = [
        ("{cp: 400}", "+4.00"),
        ("{cp: 1171}", "+11.71"),
        ("{cp: 9999}", "+99.99"),
        ("{cp: -9999}", "-99.99"),
        ("{cp: -37}", "-0.37"),
        ("{mate: -12}", "#-12"),
        ("{mate: 12}", "#12"),
    ];
    for (width, height) in [DESKTOP, PHONE] {
        browser.set_window(width, height);
        for (score, text) in scores {
            // The page's own drawing of a score onto the bar.
            let shown = browser.script(&format!(
                "setEvalBar({score}); const t = document.getElementById('eval-text'); \
                 const b = document.getElementById('evalbar').getBoundingClientRect(); \
                 const r = t.getBoundingClientRect(); \
                 return {{ text: t.textContent, scroll: t.scrollWidth, client: t.clientWidth, \
                 left: r.left, right: r.right, barLeft: b.left, barRight: b.right }}"
            ));
            assert_eq!(shown["text"], text, "{width}px: {shown}");
            let fits = shown["scroll"].as_f64().unwrap() <= shown["client"].as_f64().unwrap()
                && shown["left"].as_f64().unwrap() >= shown["barLeft"].as_f64().unwrap() - 0.5
                && shown["right"].as_f64().unwrap() <= shown["barRight"].as_f64().unwrap() + 0.5;
            assert!(fits, "{text} is cut off at {width}px: {shown}");
        }
    }

    // A real analysis: the bar's number is the first line's score, whole.
    browser.set_window(DESKTOP.0, DESKTOP.1);
    browser.type_into("#fen-input", "4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1");
    browser.click("#fen-button");
    browser.wait_for(
        "the FEN's position",
        "return document.querySelectorAll('#board .square img').length === 17",
    );
    browser.click("#analyse-toggle");
    let shown = browser.wait_for(
        "the analysis",
        "const l = document.querySelector('#lines li .eval'); \
         const t = document.getElementById('eval-text'); \
         return l && { line: l.textContent, bar: t.textContent, scroll: t.scrollWidth, client: t.clientWidth }",
    );
    assert_eq!(shown["line"], shown["bar"], "{shown}");
    assert!(
        shown["scroll"].as_f64().unwrap() <= shown["client"].as_f64().unwrap(),
        "{shown}"
    );
    browser.click("#analyse-toggle");
}

/// Skips a browser test where Chromium is missing (fails instead under TARPON_NO_SKIP=1).
macro_rules! needs_browser {
    ($name:expr) => {
        if !webdriver::available() {
            return common::skip(
                $name,
                "Chromium and chromedriver (apt-get install chromium chromium-driver)",
            )
            .unwrap_or(());
        }
    };
}

/// Starts the server and a browser on the page, with a new game and the person to move.
fn open_play(name: &str, size: (u32, u32)) -> (TestServer, Browser) {
    let server = TestServer::start(&[]);
    let dir = common::temp_dir(name);
    let browser = Browser::start(&dir, size.0, size.1);
    browser.goto(&server.url);
    browser.wait_for(
        "the board",
        "return document.querySelectorAll('#board .square img').length === 32 && \
         document.getElementById('status').textContent === 'Your move'",
    );
    (server, browser)
}

/// Counts the page's requests whose path contains `part` (in `window.sent[part]`).
fn count_requests(browser: &Browser, part: &str) {
    browser.script(&format!(
        "window.sent = window.sent || {{}}; window.sent[{part:?}] = 0; \
         if (!window.countingFetch) {{ const f = window.fetch; window.countingFetch = true; \
           window.fetch = (u, o) => {{ for (const k in window.sent) if (String(u).includes(k)) window.sent[k]++; return f(u, o); }}; }}"
    ));
}

/// A click or a drop on a square that is no legal target sends nothing and shows no
/// error: the piece is put down again where it was.
#[test]
fn a_square_that_is_no_legal_target_sends_nothing() {
    needs_browser!("a_square_that_is_no_legal_target_sends_nothing");
    let (_server, browser) = open_play("serve-browser-no-target", DESKTOP);
    count_requests(&browser, "/move");
    let look = "return { sent: window.sent['/move'], message: document.getElementById('message').hidden, \
                selected: document.querySelectorAll('#board .selected').length, \
                moves: document.querySelectorAll('#moves button').length, \
                knight: document.querySelector(\"#board [data-square='g1']\").dataset.piece, \
                faded: [...document.querySelectorAll('#board img')].filter(i => i.style.opacity).length }";
    browser.click(&square("g1"));
    browser.click(&square("g4"));
    std::thread::sleep(Duration::from_millis(300));
    let seen = browser.script(look);
    assert_eq!(
        seen,
        serde_json::json!({"sent": 0, "message": true, "selected": 0, "moves": 0, "knight": "wN", "faded": 0}),
        "after a click on g4"
    );
    browser.drag(&square("g1"), &square("g5"));
    std::thread::sleep(Duration::from_millis(300));
    let seen = browser.script(look);
    assert_eq!(
        seen,
        serde_json::json!({"sent": 0, "message": true, "selected": 0, "moves": 0, "knight": "wN", "faded": 0}),
        "after a drop on g5"
    );
    // A legal move still goes.
    browser.drag(&square("g1"), &square("f3"));
    wait_for_moves(&browser, 2, "Tarpon's answer to Nf3");
}

/// Resigning asks first; a resigned or lost-on-time game cannot be taken back; a new game
/// does not abandon a running one without asking.
#[test]
fn resigning_and_new_games_ask_and_finished_games_stay_finished() {
    needs_browser!("resigning_and_new_games_ask_and_finished_games_stay_finished");
    let (_server, browser) = open_play("serve-browser-safety", DESKTOP);
    browser.click(&square("e2"));
    browser.click(&square("e4"));
    wait_for_moves(&browser, 2, "Tarpon's answer to 1. e4");

    // New game: asked, and "No" keeps the game.
    browser.click("#new-game-button");
    browser.wait_for(
        "the question before a new game",
        "const q = document.getElementById('new-game-confirm'); return q && !q.hidden",
    );
    assert_eq!(browser.script(MOVE_COUNT), 2);
    browser.click("#new-game-no");
    assert_eq!(browser.script(MOVE_COUNT), 2);
    assert_eq!(
        browser.script("return document.getElementById('new-game-confirm').hidden"),
        true
    );

    // Resign: asked, "No" plays on, "Yes" resigns.
    browser.click("#resign");
    browser.wait_for(
        "the question before resigning",
        "const q = document.getElementById('resign-confirm'); return q && !q.hidden",
    );
    assert_eq!(
        browser.script("return document.getElementById('status').textContent"),
        "Your move"
    );
    browser.click("#resign-no");
    assert_eq!(
        browser.script("return document.getElementById('status').textContent"),
        "Your move"
    );
    browser.click("#resign");
    browser.click("#resign-yes");
    browser.wait_for(
        "the resignation",
        "return document.getElementById('status').textContent.includes('resigns')",
    );
    assert_eq!(
        browser.script("return document.getElementById('takeback').disabled"),
        true,
        "takeback after resigning"
    );
    // A finished game is replaced without a question.
    browser.click("#new-game-button");
    wait_for_moves(&browser, 0, "the new game");

    // Lost on time: no takeback either.
    browser.script(
        "api('POST', 'games', { mode: 'play', color: 'white', clock: { minutes: 0.05, increment: 0 } }) \
         .then((data) => setGame('play', data))",
    );
    browser.wait_for(
        "the game on a 3 s clock",
        "return document.querySelector('#player-bottom .clock').textContent !== ''",
    );
    browser.click(&square("e2"));
    browser.click(&square("e4"));
    browser.wait_for(
        "the loss on time",
        "return document.getElementById('status').textContent.includes('time')",
    );
    assert!(
        browser.script(MOVE_COUNT).as_u64().unwrap() >= 1,
        "the game has moves to take back"
    );
    assert_eq!(
        browser.script("return document.getElementById('takeback').disabled"),
        true,
        "takeback after a loss on time"
    );
}

/// A reload keeps the game: the server's game is opened again, or, when the server has
/// it no longer, the game is set up again from what the page kept.
#[test]
fn a_reload_keeps_the_game_in_progress() {
    needs_browser!("a_reload_keeps_the_game_in_progress");
    let (server, browser) = open_play("serve-browser-reload", DESKTOP);
    browser.click(&square("e2"));
    browser.click(&square("e4"));
    wait_for_moves(&browser, 2, "Tarpon's answer to 1. e4");
    let id = browser.script("return state.games.play.id");
    browser.goto(&server.url);
    wait_for_moves(&browser, 2, "the game after the reload");
    assert_eq!(browser.script("return state.games.play.id"), id);

    // The server drops the game: the page sets it up again from its moves.
    browser.script(&format!("fetch('/api/games/{id}', {{ method: 'DELETE' }})"));
    std::thread::sleep(Duration::from_millis(300));
    browser.goto(&server.url);
    wait_for_moves(&browser, 2, "the game set up again after the reload");
    assert_ne!(browser.script("return state.games.play.id"), id);
    assert_eq!(
        browser.script("return document.querySelector('#moves button').textContent"),
        "e4"
    );

    // The analysis board and the tab are kept too.
    browser.click("#tab-analyse");
    browser.wait_for(
        "the analysis board",
        "return !document.getElementById('analyse-panel').hidden && state.games.analysis",
    );
    browser.type_into("#pgn-input", TRAP_PGN);
    browser.click("#pgn-button");
    browser.wait_for(
        "the pasted game",
        "return document.querySelectorAll('#moves button').length === 14",
    );
    browser.goto(&server.url);
    browser.wait_for(
        "the analysis board after the reload",
        "return !document.getElementById('analyse-panel').hidden && \
         document.querySelectorAll('#moves button').length === 14",
    );
}

/// The server stopped, then started again where it was: the page says so in words (no
/// "Failed to fetch"), finds the server back by itself, sets its game up again from its
/// moves (the new server has never heard of it), and the game goes on.
#[test]
fn a_restarted_server_is_found_again_and_the_game_goes_on() {
    needs_browser!("a_restarted_server_is_found_again_and_the_game_goes_on");
    let (server, browser) = open_play("serve-browser-restart", DESKTOP);
    browser.click(&square("e2"));
    browser.click(&square("e4"));
    wait_for_moves(&browser, 2, "Tarpon's answer to 1. e4");
    let old_id = browser.script("return state.games.play.id");
    let port = server.addr.port();
    drop(server);

    // A move while the server is away.
    browser.click(&square("d2"));
    browser.click(&square("d4"));
    let message = browser.wait_for(
        "the word on the server gone",
        "const m = document.getElementById('message'); \
         return !m.hidden && m.classList.contains('info') && m.textContent",
    );
    let message = message.as_str().unwrap();
    assert!(message.contains("does not answer"), "{message}");
    assert!(!message.contains("fetch"), "{message}");

    let server = TestServer::start_on(port, &[]);
    let message = browser.wait_for(
        "the game set up again",
        "const m = document.getElementById('message').textContent; \
         return state.games.play.ply === 2 && !state.recovering && m.includes('set up again') && m",
    );
    assert!(message.as_str().unwrap().contains("back"), "{message}");
    assert_ne!(browser.script("return state.games.play.id"), old_id);
    browser.click(&square("d2"));
    browser.click(&square("d4"));
    wait_for_moves(&browser, 4, "Tarpon's answer on the restarted server");

    // Restarted while the page sat idle: the next move meets a server that never heard of
    // the game ("There is no game ..."); the page sets the game up again and says so.
    drop(server);
    let _server = TestServer::start_on(port, &[]);
    browser.click(&square("g1"));
    browser.click(&square("f3"));
    browser.wait_for(
        "the game set up again after a quiet restart",
        "const m = document.getElementById('message'); \
         return state.games.play.ply === 4 && !state.recovering && \
         m.classList.contains('info') && m.textContent.includes('set up again')",
    );
    browser.click(&square("g1"));
    browser.click(&square("f3"));
    wait_for_moves(&browser, 6, "Tarpon's answer after the quiet restart");
}

/// After a reload the new-game menus show the kept game's settings (not the page's
/// defaults), and the strength menu lists each rating once.
#[test]
fn a_reload_shows_the_games_settings_in_the_menus() {
    needs_browser!("a_reload_shows_the_games_settings_in_the_menus");
    let (server, browser) = open_play("serve-browser-menus", DESKTOP);
    let strengths = browser
        .script("return [...document.getElementById('strength').options].map(o => o.textContent)");
    let strengths: Vec<&str> = strengths
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(strengths[0], "Full strength");
    assert_eq!(strengths[1..].first(), Some(&"Elo 800"));
    assert_eq!(strengths.last(), Some(&"Elo 2800"));
    assert_eq!(strengths.len(), 22, "{strengths:?}");
    assert!(
        !strengths.iter().any(|s| s.starts_with("Level")),
        "{strengths:?}"
    );

    browser.script(
        "document.getElementById('time').value = 'clock:3+2'; \
         document.getElementById('strength').value = 'elo:1400'",
    );
    browser.click("#new-game-button");
    browser.wait_for(
        "the 3+2 game",
        "return state.games.play.clock && state.games.play.clock.base_ms === 180000 && \
         state.games.play.elo === 1400",
    );
    browser.goto(&server.url);
    browser.wait_for(
        "the page after the reload",
        "return state.games.play && document.querySelectorAll('#board .square img').length === 32",
    );
    assert_eq!(
        browser.script(
            "return [document.getElementById('time').value, \
             document.getElementById('strength').value, document.getElementById('color').value]"
        ),
        serde_json::json!(["clock:3+2", "elo:1400", "white"]),
        "the menus after the reload"
    );
}

/// Two tabs on one game stay in step: a move or a new game in one shows in the other, and a
/// move made in a tab that still shows an earlier position is refused, not played into the
/// game's real position.
#[test]
fn two_tabs_on_one_game_stay_in_step_and_a_stale_move_is_refused() {
    needs_browser!("two_tabs_on_one_game_stay_in_step_and_a_stale_move_is_refused");
    let (server, browser) = open_play("serve-browser-two-tabs", DESKTOP);
    let first = browser.tab();
    let second = browser.new_tab();
    browser.goto(&server.url);
    wait_for_moves(&browser, 0, "the game in the second tab");
    let id = browser.script("return state.games.play.id");

    // A move in the first tab shows in the second.
    browser.switch_to(&first);
    assert_eq!(browser.script("return state.games.play.id"), id);
    browser.click(&square("e2"));
    browser.click(&square("e4"));
    wait_for_moves(&browser, 2, "Tarpon's answer to 1. e4");
    browser.switch_to(&second);
    wait_for_moves(&browser, 2, "the second tab in step");

    // A new game in the first tab: the second follows it, and says so.
    browser.switch_to(&first);
    browser.click("#new-game-button");
    browser.click("#new-game-yes");
    wait_for_moves(&browser, 0, "the new game");
    let new_id = browser.script("return state.games.play.id");
    assert_ne!(new_id, id);
    browser.switch_to(&second);
    let message = browser.wait_for(
        "the second tab on the new game",
        &format!(
            "return state.games.play.id === {new_id} && \
             document.querySelectorAll('#moves button').length === 0 && \
             document.getElementById('message').textContent"
        ),
    );
    assert!(
        message.as_str().unwrap().contains("another tab"),
        "{message}"
    );

    // The second tab stops hearing the first (as a browser without the channel would), and
    // the game goes on there: a move from the old position is refused, the board catches
    // up, and the game holds no move of the stale tab's.
    browser.script("tabChannel.onmessage = null");
    browser.switch_to(&first);
    browser.click(&square("d2"));
    browser.click(&square("d4"));
    wait_for_moves(&browser, 2, "Tarpon's answer to 1. d4");
    browser.switch_to(&second);
    assert_eq!(browser.script(MOVE_COUNT), 0, "the second tab is behind");
    browser.click(&square("g1"));
    browser.click(&square("f3"));
    browser.wait_for(
        "the refusal of the stale move",
        "const m = document.getElementById('message'); \
         return !m.hidden && m.textContent.includes('not played')",
    );
    wait_for_moves(&browser, 2, "the second tab caught up");
    assert_eq!(
        browser.script("return document.querySelector('#moves button').textContent"),
        "d4"
    );
    let game = common::http::get(server.addr, &format!("/api/games/{new_id}")).json();
    assert_eq!(game["ply"], 2, "{game}");
    assert!(!game["pgn"].as_str().unwrap().contains("Nf3"), "{game}");
}

/// Live analysis runs as long as asked (the page's limit is long, and when it is reached
/// the button says so), and the server takes the long limit.
#[test]
fn the_analysis_button_follows_the_end_of_the_search() {
    needs_browser!("the_analysis_button_follows_the_end_of_the_search");
    let (_server, browser) = open_analysis("serve-browser-limit", DESKTOP);
    assert!(
        browser
            .script("return state.analysisSeconds")
            .as_u64()
            .unwrap_or(0)
            >= 1800,
        "the page asks for a long analysis"
    );
    browser.script("state.analysisSeconds = 1");
    browser.click("#analyse-toggle");
    browser.wait_for(
        "the analysis to run",
        "return document.getElementById('analyse-toggle').textContent === 'Stop' && \
         document.querySelectorAll('#lines li').length > 0",
    );
    browser.wait_for(
        "the end of the search",
        "return document.getElementById('depth').textContent.includes('(')",
    );
    browser.wait_for(
        "the button once the limit is reached",
        "return document.getElementById('analyse-toggle').textContent === 'Analyse'",
    );
    assert!(
        browser
            .script("return document.querySelectorAll('#lines li').length")
            .as_u64()
            .unwrap()
            > 0,
        "the lines stay shown"
    );
}

/// A PGN with names, comments, variations, NAGs, `[%eval]`, `[%clk]`, a result and no date.
const ANNOTATED_PGN: &str = "[Event \"Club\"]\n[White \"Ann Example\"]\n[Black \"Bo Sample\"]\n[Result \"1-0\"]\n\n\
    {A quiet opening} 1. e4 $1 {[%eval 0.30] [%clk 0:05:00]} 1... e5 (1... c5 {Sicilian} 2. Nf3 $5) \
    2. Nf3 {[%clk 0:04:58]} 2... Nc6 $2 1-0\n";

/// A pasted PGN keeps everything it holds: the players are named, and the PGN the page
/// gives back has the comments, variations, NAGs, clock and evaluation comments, result,
/// and no invented date.
#[test]
fn a_pasted_pgn_keeps_what_it_holds() {
    needs_browser!("a_pasted_pgn_keeps_what_it_holds");
    let (_server, browser) = open_analysis("serve-browser-annotated", DESKTOP);
    paste_pgn(&browser, ANNOTATED_PGN);
    browser.wait_for(
        "the pasted game",
        "return state.games.analysis.white === 'Ann Example'",
    );
    let names = browser.script(
        "return [...document.querySelectorAll('.player .name')].map(n => n.textContent).join(' / ')",
    );
    assert_eq!(names, "Bo Sample / Ann Example");
    let pgn = browser.script("return document.getElementById('pgn-output').value");
    let pgn = pgn
        .as_str()
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for part in [
        "[White \"Ann Example\"]",
        "[Date \"????.??.??\"]",
        "[Result \"1-0\"]",
        "{ A quiet opening }",
        "1. e4 $1 { [%eval 0.30] [%clk 0:05:00] }",
        "(1... c5 { Sicilian } 2. Nf3 $5)",
        "Nc6 $2 1-0",
    ] {
        assert!(pgn.contains(part), "{part} missing from {pgn}");
    }
}

/// A game of TRAP_PGN many times over, more than the server takes in one request.
fn many_games() -> String {
    let mut text = String::new();
    while text.len() < 80 * 1024 {
        text.push_str(TRAP_PGN);
        text.push_str("\n\n");
    }
    text
}

/// Smaller defects of the analysis board, each checked in turn.
#[test]
fn the_analysis_board_behaves() {
    needs_browser!("the_analysis_board_behaves");
    let (_server, browser) = open_analysis("serve-browser-behaves", (1280, 800));

    // At 1280x800 the page fits the window, on both tabs.
    for tab in ["#tab-analyse", "#tab-play", "#tab-analyse"] {
        browser.click(tab);
        let sizes = browser.script(
            "return [document.documentElement.scrollHeight, window.innerHeight, \
             document.documentElement.scrollWidth, window.innerWidth]",
        );
        assert!(
            sizes[0].as_f64() <= sizes[1].as_f64() && sizes[2].as_f64() <= sizes[3].as_f64(),
            "{tab}: the page is larger than the window: {sizes}"
        );
    }

    // A flipped board is not carried over to the next game, and loading a PGN does not
    // scroll the page.
    browser.click("#flip");
    browser.script("window.scrollTo(0, 0)");
    paste_trap(&browser);
    assert_eq!(
        browser.script("return window.scrollY"),
        0,
        "the page scrolled"
    );
    // The move list of 14 moves is not squeezed by the panel.
    assert!(
        browser
            .script("return document.getElementById('moves').getBoundingClientRect().height")
            .as_f64()
            .unwrap()
            >= 100.0,
        "the move list is squeezed"
    );
    assert_eq!(
        browser.script("return document.querySelector('#board .square').dataset.square"),
        "a8",
        "the flipped board carried over"
    );

    // The evaluation graph leaves the live analysis on.
    browser.click("#back");
    browser.click("#analyse-toggle");
    browser.wait_for(
        "the analysis",
        "return document.querySelectorAll('#lines li').length > 0",
    );
    // Clicked from a script: the lines above the button are redrawn at every iteration,
    // and a pointer click can land where the button was a moment before.
    browser.script("document.getElementById('review').click()");
    browser.wait_for(
        "the graph",
        "return document.querySelectorAll('#graph circle.mark').length > 0",
    );
    assert_eq!(
        browser.script("return document.getElementById('analyse-toggle').textContent"),
        "Stop"
    );
    // A new analysis, not the lines left from the one before the review: a search
    // started after it clears the panel before its first line.
    browser.wait_for(
        "the analysis after the review",
        "return state.analysis !== null && document.querySelectorAll('#lines li').length > 0",
    );
    browser.click("#analyse-toggle");

    // One of a kind is singular.
    let summary = browser.script(
        "state.review.summary = { white: { inaccuracies: 1, mistakes: 1, blunders: 1 }, \
         black: { inaccuracies: 2, mistakes: 0, blunders: 2 } }; render(); \
         return document.getElementById('review-summary').textContent",
    );
    let summary = summary.as_str().unwrap();
    for part in [
        "1 inaccuracy ",
        "1 mistake ",
        "1 blunder ",
        "2 inaccuracies",
        "0 mistakes",
        "2 blunders",
    ] {
        assert!(summary.contains(part), "{part:?} missing from {summary:?}");
    }

    // Escape closes the promotion chooser.
    browser.type_into("#fen-input", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    browser.click("#fen-button");
    browser.wait_for(
        "the FEN's position",
        "return document.querySelectorAll('#board .square img').length === 3",
    );
    browser.click(&square("a7"));
    browser.click(&square("a8"));
    browser.wait_for(
        "the chooser",
        "return !document.getElementById('promotion').hidden",
    );
    browser.script(
        "document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))",
    );
    assert_eq!(
        browser.script("return document.getElementById('promotion').hidden"),
        true,
        "Escape left the chooser open"
    );

    // The king onto its own rook castles, by click and by drag.
    browser.type_into("#fen-input", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    browser.click("#fen-button");
    browser.wait_for(
        "the castling position",
        "return document.querySelectorAll('#board .square img').length === 6",
    );
    browser.click(&square("e1"));
    browser.click(&square("h1"));
    browser.wait_for(
        "O-O",
        "return [...document.querySelectorAll('#moves button')].map(b => b.textContent).join(' ') === 'O-O'",
    );
    browser.drag(&square("e8"), &square("a8"));
    browser.wait_for(
        "O-O-O",
        "return [...document.querySelectorAll('#moves button')].map(b => b.textContent).join(' ') === 'O-O O-O-O'",
    );

    // A file of many games, larger than one request, loads its first game and says so.
    paste_pgn(&browser, &many_games());
    browser.wait_for(
        "the first game",
        "return document.querySelectorAll('#moves button').length === 14",
    );
    let message = browser.script("return document.getElementById('message').textContent");
    assert!(message.as_str().unwrap().contains("first"), "{message}");
    assert!(!message.as_str().unwrap().contains("KiB"), "{message}");
}

/// On a phone the board, the engine lines and the moves come first; the forms below them.
#[test]
fn a_phone_shows_the_board_lines_and_moves_before_the_forms() {
    needs_browser!("a_phone_shows_the_board_lines_and_moves_before_the_forms");
    let (_server, browser) = open_play("serve-browser-phone", PHONE);
    let top = |css: &str| {
        browser
            .script(&format!(
                "return document.querySelector({css:?}).getBoundingClientRect().top + window.scrollY"
            ))
            .as_f64()
            .unwrap()
    };
    assert!(
        top("#moves") < top("#new-game"),
        "the new-game form comes before the moves"
    );
    browser.click("#tab-analyse");
    browser.wait_for(
        "the analysis board",
        "return !document.getElementById('analyse-panel').hidden",
    );
    assert!(
        top("#analysis") < top("#fen-form"),
        "the FEN form comes before the lines"
    );
    assert!(
        top("#moves") < top("#pgn-form"),
        "the PGN form comes before the moves"
    );
    assert!(
        top("#analysis") < top("#pgn-output"),
        "the PGN box comes before the lines"
    );
}

/// The move list is a tree: a move at an earlier point adds a variation and keeps the
/// moves after it; comments, NAGs and variations are shown; a variation is shown by a
/// click, promoted and deleted, and the PGN has what the list has.
#[test]
fn moves_played_at_an_earlier_point_make_variations() {
    needs_browser!("moves_played_at_an_earlier_point_make_variations");
    let (_server, browser) = open_analysis("serve-browser-tree", DESKTOP);
    paste_annotated(&browser);
    let list = browser.script("return document.getElementById('moves').textContent");
    let list = list.as_str().unwrap();
    for part in ["A quiet opening", "e4!", "Sicilian", "c5", "Nf3!?", "Nc6?"] {
        assert!(
            list.contains(part),
            "{part} missing from the move list: {list}"
        );
    }
    assert!(!list.contains("%clk"), "{list}");
    let buttons = |script: &str| {
        browser.script(&format!(
            "return [...document.querySelectorAll('#moves button')]{script}"
        ))
    };
    let moves_before = buttons(".length").as_u64().unwrap();

    // 1... d5 after 1. e4: a new variation; the main line's later moves stay.
    browser.click("#moves button[data-ply='1']");
    browser.click(&square("d7"));
    browser.click(&square("d5"));
    browser.wait_for(
        "the new variation",
        "const c = document.querySelector('#moves button.current'); return c && c.textContent === 'd5'",
    );
    assert_eq!(buttons(".length").as_u64().unwrap(), moves_before + 1);
    let pgn = browser
        .script("return document.getElementById('pgn-output').value.split(/\\s+/).join(' ')");
    let pgn = pgn.as_str().unwrap();
    assert!(
        pgn.contains("(1... d5)") && pgn.contains("2... Nc6 $2"),
        "{pgn}"
    );

    // A move of the main line shows it again.
    browser.script("[...document.querySelectorAll('#moves button')].find(b => b.textContent === 'Nc6?').click()");
    browser.wait_for(
        "the main line's last move",
        "return document.querySelector('#moves button.current').textContent === 'Nc6?' && \
         document.querySelector(\"#board [data-square='c6']\").dataset.piece === 'bN'",
    );

    // The Sicilian: shown, promoted, deleted.
    browser.script(
        "[...document.querySelectorAll('#moves button')].find(b => b.textContent === 'c5').click()",
    );
    browser.wait_for(
        "the Sicilian",
        "return document.querySelector('#moves button.current').textContent === 'c5' && \
         !document.getElementById('promote-variation').disabled",
    );
    browser.click("#promote-variation");
    browser.wait_for(
        "the Sicilian as the main line",
        "return document.getElementById('pgn-output').value.split(/\\s+/).join(' ').includes('1... c5 { Sicilian } (1... e5')",
    );
    browser.click("#delete-variation");
    browser.wait_for(
        "the Sicilian deleted",
        "return !document.getElementById('pgn-output').value.includes('c5')",
    );
    assert_eq!(
        browser.script("return document.querySelector('#moves button.current').textContent"),
        "e4!"
    );

    // The deletion is undone: the Sicilian is back with its comment and the moves after it,
    // shown where it was.
    browser.click("#undo-delete");
    browser.wait_for(
        "the Sicilian back",
        "const pgn = document.getElementById('pgn-output').value.split(/\\s+/).join(' '); \
         const c = document.querySelector('#moves button.current'); \
         return pgn.includes('1... c5 { Sicilian } (1... e5') && pgn.includes('2. Nf3 $5') && \
         c && c.textContent === 'c5' && document.getElementById('undo-delete').hidden",
    );
    assert_eq!(
        browser.script("return state.games.analysis.white"),
        "Ann Example",
        "the tags are kept"
    );
}

/// The analysis board has no takeback (as on lichess): "Delete from here" removes the move
/// shown, wherever it is in the line, and only it and what follows.
#[test]
fn the_analysis_board_deletes_from_the_move_shown_and_has_no_takeback() {
    needs_browser!("the_analysis_board_deletes_from_the_move_shown_and_has_no_takeback");
    let (_server, browser) = open_analysis("serve-browser-delete", DESKTOP);
    paste_trap(&browser);
    assert_eq!(
        browser.script(
            "return [...document.querySelectorAll('#analyse-panel button')] \
             .filter(b => /take ?back/i.test(b.textContent) && !b.hidden).length"
        ),
        0,
        "no takeback on the analysis board"
    );
    // The fourth move shown, then deleted: three moves stay.
    browser.click("#moves button[data-ply='4']");
    browser.click("#delete-variation");
    browser.wait_for(
        "the moves from the fourth on deleted",
        "return document.querySelectorAll('#moves button').length === 3 && \
         !document.getElementById('undo-delete').hidden",
    );
    browser.click("#undo-delete");
    browser.wait_for(
        "the game back",
        "return document.querySelectorAll('#moves button').length === 14 && \
         document.querySelector('#moves button.current').dataset.ply === '4'",
    );
}

/// What the page shows follows what is: analysis stopped (or the editor opened) leaves no
/// lines, arrows or number behind; a repetition in a pasted game neither ends nor locks
/// the analysis board; a position without a move says so instead of an error; and the
/// game's buttons are there exactly when they can be used (takeback only with a move of
/// the person's to take back; resign, a draw offer and abort also while Tarpon thinks,
/// without an error).
#[test]
fn stale_output_goes_and_the_buttons_follow_the_game() {
    needs_browser!("stale_output_goes_and_the_buttons_follow_the_game");
    let (_server, browser) = open_analysis("serve-browser-stale", DESKTOP);
    let arrows = "return document.querySelectorAll('#arrows line').length";
    browser.click("#analyse-toggle");
    browser.wait_for(
        "the analysis",
        "return document.querySelectorAll('#lines li').length > 0 && \
         document.getElementById('eval-text').textContent !== ''",
    );
    browser.wait_for("the arrows", arrows);
    browser.click("#analyse-toggle");
    browser.wait_for(
        "the panel emptied by Stop",
        "return document.querySelectorAll('#lines li').length === 0 && \
         document.getElementById('eval-text').textContent === ''",
    );
    assert_eq!(browser.script(arrows), 0, "arrows left after Stop");
    browser.click("#analyse-toggle");
    browser.wait_for("the arrows again", arrows);
    browser.click("#edit-board");
    browser.wait_for(
        "the editor without arrows",
        "return document.querySelectorAll('#arrows line').length === 0",
    );
    browser.click("#editor-cancel");
    // The analysis is still asked for: off until the mate below.
    assert_eq!(browser.script("return state.analysisWanted"), true);
    browser.click("#analyse-toggle");

    // A threefold repetition in a game read with `*`: not a draw, and the board plays on.
    paste_pgn(&browser, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *");
    browser.wait_for(
        "the repeated game",
        "return document.querySelectorAll('#moves button').length === 8",
    );
    assert_eq!(browser.script("return state.games.analysis.result"), "*");
    browser.click(&square("e2"));
    browser.click(&square("e4"));
    browser.wait_for(
        "a move after the repetition",
        "return document.querySelectorAll('#moves button').length === 9",
    );
    assert_eq!(
        browser.script("return document.getElementById('message').hidden"),
        true
    );

    // Checkmate on the board: the panel says so, no error, and the analysis goes on with
    // the position before.
    paste_pgn(&browser, "1. f3 e5 2. g4 Qh4# 0-1");
    browser.wait_for(
        "the mated board",
        "return document.querySelectorAll('#moves button').length === 4",
    );
    browser.click("#analyse-toggle");
    browser.wait_for(
        "the word on the mate",
        "return document.getElementById('depth').textContent === 'Checkmate'",
    );
    assert_eq!(
        browser.script("return document.getElementById('message').hidden"),
        true
    );
    browser.click("#back");
    browser.wait_for(
        "the analysis of the move before",
        "return document.querySelectorAll('#lines li').length > 0",
    );
    browser.click("#analyse-toggle");

    // Against Tarpon with White: no takeback before the person has moved.
    browser.click("#tab-play");
    browser.script(
        "api('POST', 'games', { mode: 'play', color: 'black', movetime_ms: 300 }) \
         .then((data) => { setGame('play', data); return tarponMovesIfItsTurn(); })",
    );
    browser.wait_for(
        "Tarpon's first move",
        "return state.games.play.ply === 1 && \
         document.getElementById('status').textContent === 'Your move'",
    );
    assert_eq!(
        browser.script("return document.getElementById('takeback').disabled"),
        true,
        "takeback with no move of the person's"
    );

    // While Tarpon thinks: resign and the draw offer can be used; abort ends the game
    // without an error.
    browser.script(
        "api('POST', 'games', { mode: 'play', color: 'black', movetime_ms: 4000 }) \
         .then((data) => { setGame('play', data); return tarponMovesIfItsTurn(); })",
    );
    browser.wait_for(
        "Tarpon thinking",
        "return state.busy && state.games.play.ply === 0",
    );
    assert_eq!(
        browser.script(
            "return [document.getElementById('resign').disabled, \
             document.getElementById('offer-draw').disabled]"
        ),
        serde_json::json!([false, false]),
        "resign and draw while Tarpon thinks"
    );
    browser.click("#abort");
    browser.wait_for(
        "the aborted game",
        "return document.getElementById('status').textContent.includes('aborted') && !state.busy",
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        browser.script("return document.getElementById('message').hidden"),
        true,
        "an error after aborting while Tarpon thought"
    );
}

/// Moves are heard (a knock, a capture, a check, the end), unless the sound is turned off,
/// which a reload keeps; each player's row shows the material it is up.
#[test]
fn moves_are_heard_and_the_material_shown() {
    needs_browser!("moves_are_heard_and_the_material_shown");
    let (server, browser) = open_play("serve-browser-sound", DESKTOP);
    assert_eq!(
        browser.script("return document.getElementById('sound').textContent"),
        "Sound on"
    );
    browser.click(&square("e2"));
    browser.click(&square("e4"));
    wait_for_moves(&browser, 2, "Tarpon's answer to 1. e4");
    assert_eq!(
        browser.script("return window.soundsPlayed"),
        serde_json::json!(["move", "move"])
    );
    browser.click("#sound");
    browser.click(&square("d2"));
    browser.click(&square("d4"));
    wait_for_moves(&browser, 4, "Tarpon's answer to 2. d4");
    assert_eq!(
        browser.script("return window.soundsPlayed.length"),
        2,
        "sounds after Sound off"
    );
    browser.goto(&server.url);
    wait_for_moves(&browser, 4, "the game after the reload");
    assert_eq!(
        browser.script("return document.getElementById('sound').textContent"),
        "Sound off"
    );
    browser.click("#sound");

    // Material: White a knight up, shown beside White only; stepping forward onto a
    // capture sounds like one.
    browser.click("#tab-analyse");
    browser.type_into("#fen-input", "4k3/8/8/3p4/4P3/8/8/3NK3 w - - 0 1");
    browser.click("#fen-button");
    browser.wait_for(
        "the position",
        "return document.querySelectorAll('#board .square img').length === 5",
    );
    assert_eq!(
        browser.script(
            "return [document.querySelector('#player-bottom .material').textContent, \
             document.querySelector('#player-top .material').textContent]"
        ),
        serde_json::json!(["♞+3", ""])
    );
    browser.click(&square("e4"));
    browser.click(&square("d5"));
    browser.wait_for(
        "the capture",
        "return document.querySelectorAll('#moves button').length === 1",
    );
    assert_eq!(
        browser.script("return window.soundsPlayed[window.soundsPlayed.length - 1]"),
        "capture"
    );
    assert_eq!(
        browser.script("return document.querySelector('#player-bottom .material').textContent"),
        "♞♟+4"
    );
}

/// Premoves: a move set during Tarpon's turn is played as soon as Tarpon has moved when it
/// is legal then, dropped when it is not, and a click cancels one. Tarpon thinks 4 s a
/// move, so that the clicks made while it thinks land before its move even on a loaded
/// machine (at 1.5 s its move once came between setting a premove and cancelling it).
#[test]
fn premoves_are_played_when_tarpon_has_moved() {
    needs_browser!("premoves_are_played_when_tarpon_has_moved");
    let (_server, browser) = open_play("serve-browser-premove", DESKTOP);
    browser.script(
        "api('POST', 'games', { mode: 'play', color: 'white', movetime_ms: 4000 }) \
         .then((data) => setGame('play', data))",
    );
    browser.wait_for(
        "the slower game",
        "return state.games.play.movetime_ms === 4000",
    );
    browser.click(&square("e2"));
    browser.click(&square("e4"));
    browser.wait_for("Tarpon thinking", "return state.busy");
    browser.click(&square("g1"));
    browser.click(&square("f3"));
    assert_eq!(
        browser.script("return document.querySelectorAll('#board .premove').length"),
        2,
        "the premove is shown"
    );
    browser.wait_for(
        "the premove played and answered",
        "return state.games.play.ply === 4 && !state.busy",
    );
    assert_eq!(
        browser.script("return state.games.play.moves[2].san"),
        "Nf3"
    );

    // A premove that cannot be legal is dropped: nothing is sent.
    browser.click(&square("d2"));
    browser.click(&square("d4"));
    browser.wait_for(
        "Tarpon thinking again",
        "return state.busy && state.games.play.ply === 5",
    );
    browser.click(&square("e1"));
    browser.click(&square("e3"));
    browser.wait_for(
        "Tarpon's move, the premove dropped",
        "return state.games.play.ply === 6 && !state.busy && !state.premove",
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(browser.script("return state.games.play.ply"), 6);
    assert_eq!(
        browser.script("return document.getElementById('message').hidden"),
        true
    );

    // A click cancels a premove.
    browser.click(&square("b1"));
    browser.click(&square("c3"));
    browser.wait_for(
        "Tarpon thinking once more",
        "return state.busy && state.games.play.ply === 7",
    );
    browser.click(&square("a2"));
    browser.click(&square("a3"));
    assert!(
        browser
            .script("return state.premove !== null")
            .as_bool()
            .unwrap()
    );
    browser.click(&square("h7"));
    assert_eq!(
        browser.script("return state.premove"),
        serde_json::Value::Null
    );
    browser.wait_for(
        "Tarpon's move, nothing premoved",
        "return state.games.play.ply === 8 && !state.busy",
    );
}

/// The board takes the room there is (most of a 1920 x 1080 window, the width of a phone),
/// can be made smaller or larger by its corner, a size and the coordinates' choice that a
/// reload keeps; engine lines take one row each and the move list has room.
#[test]
fn the_board_fills_the_window_and_can_be_resized() {
    needs_browser!("the_board_fills_the_window_and_can_be_resized");
    let (server, browser) = open_play("serve-browser-size", (1920, 1080));
    let width = || {
        browser
            .script("return document.getElementById('board').getBoundingClientRect().width")
            .as_f64()
            .unwrap()
    };
    // The window's height less the header, the players' rows and the buttons: about 740 px.
    assert!(width() >= 720.0, "the board on 1920 x 1080: {} px", width());

    // The corner dragged to 500 px, kept over a reload; a double click: back to the fit.
    browser.script(
        "const r = document.getElementById('resize'); const b = document.querySelector('.board-box').getBoundingClientRect(); \
         r.dispatchEvent(new PointerEvent('pointerdown', { clientX: b.right, clientY: b.bottom, bubbles: true })); \
         window.dispatchEvent(new PointerEvent('pointermove', { clientX: b.left + 500, clientY: b.top + 500 })); \
         window.dispatchEvent(new PointerEvent('pointerup', { clientX: b.left + 500, clientY: b.top + 500 }))",
    );
    assert!(
        (width() - 500.0).abs() <= 2.0,
        "after the drag: {} px",
        width()
    );
    browser.click("#coords");
    browser.goto(&server.url);
    browser.wait_for(
        "the page after the reload",
        "return document.querySelectorAll('#board .square img').length === 32",
    );
    assert!(
        (width() - 500.0).abs() <= 2.0,
        "after the reload: {} px",
        width()
    );
    assert_eq!(
        browser.script("return getComputedStyle(document.querySelector('#board .coord')).display"),
        "none",
        "coordinates off, kept over the reload"
    );
    browser.script("document.getElementById('resize').dispatchEvent(new MouseEvent('dblclick', { bubbles: true }))");
    assert!(width() >= 720.0, "after the double click: {} px", width());

    // Lines of one row each, a move list with room.
    browser.click("#tab-analyse");
    paste_trap(&browser);
    browser.click("#first");
    browser.click("#analyse-toggle");
    browser.wait_for(
        "three lines",
        "return document.querySelectorAll('#lines li').length === 3",
    );
    let rows = browser.script(
        "return [...document.querySelectorAll('#lines li')].map(li => \
         Math.round(li.getBoundingClientRect().height / parseFloat(getComputedStyle(li).lineHeight)))",
    );
    assert_eq!(rows, serde_json::json!([1, 1, 1]), "rows of each line");
    let room = browser
        .script("return parseFloat(getComputedStyle(document.getElementById('moves')).maxHeight)")
        .as_f64()
        .unwrap();
    assert!(room >= 350.0, "the move list's room: {room} px");
    save_screenshot(&browser, "serve-wide");
    browser.click("#analyse-toggle");

    // A phone: the board takes the page's width (the window's less a scroll bar).
    browser.set_window(PHONE.0, PHONE.1);
    browser.click("#tab-play");
    let phone = browser
        .script("return [document.documentElement.clientWidth, document.getElementById('board').getBoundingClientRect().width]");
    let (inner, board) = (phone[0].as_f64().unwrap(), phone[1].as_f64().unwrap());
    assert!(board >= inner - 14.0 && board <= inner, "{phone}");
}

/// A right-button drag from one square to another (the same square: a right click), as
/// the page sees it.
fn right_drag(browser: &Browser, from: &str, to: &str, shift: bool) {
    browser.script(&format!(
        "const at = (s) => {{ const r = document.querySelector(`#board [data-square='${{s}}']`).getBoundingClientRect(); \
           return [r.left + r.width / 2, r.top + r.height / 2]; }}; \
         const [x1, y1] = at('{from}'); const [x2, y2] = at('{to}'); \
         document.querySelector(`#board [data-square='{from}']`).dispatchEvent(new PointerEvent('pointerdown', \
           {{ button: 2, clientX: x1, clientY: y1, bubbles: true, cancelable: true, shiftKey: {shift} }})); \
         window.dispatchEvent(new PointerEvent('pointerup', {{ button: 2, clientX: x2, clientY: y2, shiftKey: {shift} }}))"
    ));
}

/// Arrows and circles: those of a PGN's `[%cal]` and `[%csl]` are drawn on their move;
/// the person draws more with the right button (Shift: red), they are kept in the move's
/// comment and so in the PGN, and a second right click takes one away. The opening of the
/// position shown is named, transpositions too, and a PGN's Opening tag where the table
/// has no name.
#[test]
fn arrows_circles_and_the_opening_are_shown_and_kept() {
    needs_browser!("arrows_circles_and_the_opening_are_shown_and_kept");
    let (_server, browser) = open_analysis("serve-browser-shapes", DESKTOP);
    paste_pgn(
        &browser,
        "[Opening \"Some Sicilian\"]\n\n1. e4 c5 { [%cal Gg1f3] [%csl Rd4] Open it } 2. Nf3 d6 3. a3 *",
    );
    browser.wait_for(
        "the pasted game",
        "return document.querySelectorAll('#moves button').length === 5",
    );
    browser.click("#moves button[data-ply='2']");
    browser.wait_for(
        "the PGN's arrow and circle",
        "return document.querySelectorAll('#arrows line.shape-arrow').length === 1 && \
         document.querySelectorAll('#arrows circle.shape-circle').length === 1",
    );
    assert_eq!(
        browser.script("return document.getElementById('opening').textContent"),
        "B20Sicilian Defence"
    );
    right_drag(&browser, "b1", "c3", true);
    browser.wait_for(
        "the drawn arrow kept",
        "return document.getElementById('pgn-output').value.includes('[%cal Gg1f3,Rb1c3] [%csl Rd4]') && \
         document.getElementById('pgn-output').value.includes('Open it') && \
         document.querySelectorAll('#arrows line.shape-arrow').length === 2",
    );
    right_drag(&browser, "d4", "d4", false);
    browser.wait_for(
        "the circle taken away (a second click in green replaces the red one first)",
        "return document.getElementById('pgn-output').value.includes('[%csl Gd4]')",
    );
    right_drag(&browser, "d4", "d4", false);
    browser.wait_for(
        "the circle gone",
        "return !document.getElementById('pgn-output').value.includes('%csl') && \
         document.querySelectorAll('#arrows circle.shape-circle').length === 0",
    );
    // The opening goes on being named after the book: 2... d6 is the Modern Variations,
    // 3. a3 keeps that name; the start has none, and the PGN's own tag is not needed.
    browser.click("#moves button[data-ply='5']");
    browser.wait_for(
        "the named opening after the book",
        "return document.getElementById('opening').textContent === 'B50Sicilian Defence: Modern Variations'",
    );
    browser.click("#first");
    browser.wait_for(
        "the PGN's tag at the start",
        "return document.getElementById('opening').textContent === 'Some Sicilian'",
    );
}

/// A finished game is kept in the list of past games (opened again on the analysis board),
/// and a rematch is the same game with the colours swapped.
#[test]
fn finished_games_are_kept_and_a_rematch_swaps_the_colours() {
    needs_browser!("finished_games_are_kept_and_a_rematch_swaps_the_colours");
    let (server, browser) = open_play("serve-browser-rematch", DESKTOP);
    assert_eq!(
        browser.script("return document.getElementById('past-games').hidden"),
        true
    );
    browser.click(&square("e2"));
    browser.click(&square("e4"));
    wait_for_moves(&browser, 2, "Tarpon's answer to 1. e4");
    assert_eq!(
        browser.script("return document.getElementById('rematch').hidden"),
        true
    );
    browser.click("#resign");
    browser.click("#resign-yes");
    browser.wait_for(
        "the kept game",
        "return document.querySelectorAll('#past-games-list li').length === 1 && \
         !document.getElementById('rematch').hidden",
    );
    let entry = browser.script("return document.querySelector('#past-games-list li').textContent");
    assert!(
        entry
            .as_str()
            .unwrap()
            .contains("White against Tarpon, 0-1 (lost, 1 moves)"),
        "{entry}"
    );
    browser.click("#rematch");
    browser.wait_for(
        "the rematch, Tarpon with White",
        "return state.games.play.human === 'black' && state.games.play.ply === 1 && \
         document.getElementById('status').textContent === 'Your move'",
    );
    // The list survives a reload; a kept game opens on the analysis board.
    browser.goto(&server.url);
    browser.wait_for(
        "the list after the reload",
        "return document.querySelectorAll('#past-games-list li').length === 1",
    );
    browser.script("document.getElementById('past-games').open = true");
    browser.click("#past-games-list .open-past");
    browser.wait_for(
        "the kept game on the analysis board",
        "return state.mode === 'analysis' && document.querySelectorAll('#moves button').length === 2 && \
         document.querySelector('#moves button').textContent === 'e4'",
    );
}

/// Learn from your mistakes: after a review, the board goes to the position before each
/// marked move of one side; a wrong try is said so, Tarpon's move is recognised, and
/// nothing is added to the board.
#[test]
fn mistakes_are_learned_from_one_after_another() {
    needs_browser!("mistakes_are_learned_from_one_after_another");
    let (_server, browser) = open_analysis("serve-browser-learn", DESKTOP);
    paste_trap(&browser);
    browser.click("#review");
    browser.wait_for(
        "the review and the button",
        "return !document.getElementById('learn-start').hidden",
    );
    let nodes = browser.script("return state.games.analysis.tree.length");
    browser.click("#learn-start");
    let text = browser.wait_for(
        "the first mistake",
        "return !document.getElementById('learn').hidden && document.getElementById('learn-text').textContent",
    );
    assert!(
        text.as_str()
            .unwrap()
            .contains("Find a better move for White"),
        "{text}"
    );
    let count = browser
        .script("return state.learn.plies.length")
        .as_u64()
        .unwrap();
    assert!(count >= 2, "{count} mistakes of White's");
    for i in 0..count {
        // The legal moves of the position before the mistake, then a wrong one and the best.
        browser.wait_for(
            "the position's moves",
            "return state.view === learnItem().ply - 1 && shownLegal().length > 0",
        );
        let wrong = browser.script(
            "return shownLegal().find(m => m.san !== learnItem().best && m.san !== learnItem().san).uci",
        );
        browser.script(&format!("sendMove({wrong})"));
        browser.wait_for(
            "the wrong try said",
            "return document.getElementById('learn-text').textContent.includes('not the best')",
        );
        browser.script("sendMove(shownLegal().find(m => m.san === learnItem().best).uci)");
        browser.wait_for(
            "the best move recognised",
            "return document.getElementById('learn').classList.contains('solved') && \
             document.getElementById('learn-text').textContent.startsWith('Yes')",
        );
        browser.click("#learn-next");
        if i + 1 < count {
            browser.wait_for(
                "the next mistake",
                &format!("return state.learn && state.learn.index === {}", i + 1),
            );
        }
    }
    browser.wait_for(
        "the end of the mistakes",
        "return state.learn === null && document.getElementById('message').textContent.includes('all')",
    );
    assert_eq!(
        browser.script("return state.games.analysis.tree.length"),
        nodes,
        "moves were added to the board"
    );
}

/// The threat (x): the analysis of what the other side would play if it were its move,
/// drawn in red; the bar keeps the position's own evaluation.
#[test]
fn the_threat_is_shown_on_request() {
    needs_browser!("the_threat_is_shown_on_request");
    let (_server, browser) = open_analysis("serve-browser-threat", DESKTOP);
    // White to move; Black threatens mate on the back rank.
    browser.type_into("#fen-input", "r5k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1");
    browser.click("#fen-button");
    browser.wait_for(
        "the position",
        "return document.querySelectorAll('#board .square img').length === 9",
    );
    browser.script(
        "document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'x', bubbles: true }))",
    );
    browser.wait_for(
        "the threat",
        "const a = document.querySelector('#arrows line.arrow-0'); \
         return state.threatShown && a && a.dataset.uci === 'a8a1' && \
         document.getElementById('arrows').classList.contains('threat') && \
         document.getElementById('depth').textContent.startsWith('Threat')",
    );
    assert_eq!(
        browser.script("return document.getElementById('threat-toggle').textContent"),
        "Hide threat"
    );
    browser.click("#threat-toggle");
    browser.wait_for(
        "White's own lines again",
        "const a = document.querySelector('#arrows line.arrow-0'); \
         return !state.threatShown && a && a.dataset.uci !== 'a8a1' && \
         !document.getElementById('arrows').classList.contains('threat')",
    );
}

/// Presses `key` on the page (the keydown event a real key sends to the page's body).
fn press(browser: &Browser, key: &str) {
    browser.script(&format!(
        "document.body.dispatchEvent(new KeyboardEvent('keydown', {{ key: {key:?}, bubbles: true }}))"
    ));
}

/// The keys lichess players know: arrows through the moves and between variations, `l`
/// for the engine, Space for its best move, `?` for the list of keys; the mouse wheel
/// over the board steps through the moves.
#[test]
fn keys_and_the_wheel_move_through_the_game() {
    needs_browser!("keys_and_the_wheel_move_through_the_game");
    let (_server, browser) = open_analysis("serve-browser-keys", DESKTOP);
    paste_annotated(&browser);
    let shown =
        "const c = document.querySelector('#moves button.current'); return c ? c.textContent : ''";
    press(&browser, "Home");
    press(&browser, "ArrowRight");
    press(&browser, "ArrowRight");
    browser.wait_for(
        "1... e5 shown",
        "const c = document.querySelector('#moves button.current'); return c && c.textContent === 'e5'",
    );
    press(&browser, "ArrowDown");
    browser.wait_for(
        "the variation 1... c5",
        "const c = document.querySelector('#moves button.current'); return c && c.textContent === 'c5'",
    );
    press(&browser, "ArrowUp");
    browser.wait_for(
        "back to 1... e5",
        "const c = document.querySelector('#moves button.current'); return c && c.textContent === 'e5'",
    );
    // A step keeps the list as it is (only the current move changes): a long annotated
    // game steps quickly.
    browser.script("document.querySelector('#moves button').dataset.kept = 'yes'");
    press(&browser, "ArrowRight");
    press(&browser, "ArrowLeft");
    assert_eq!(
        browser.script("return document.querySelector('#moves button').dataset.kept"),
        "yes",
        "the move list was rebuilt by a step"
    );
    // The wheel: a notch up is a move back.
    browser.script(
        "document.getElementById('board').dispatchEvent(new WheelEvent('wheel', \
         { deltaY: -100, bubbles: true, cancelable: true }))",
    );
    browser.wait_for("1. e4 shown after the wheel", "return state.view === 1");
    assert_eq!(browser.script(shown), "e4!");

    // `?` shows the keys, Escape hides them.
    press(&browser, "?");
    assert_eq!(
        browser.script("return document.getElementById('shortcuts').hidden"),
        false
    );
    press(&browser, "Escape");
    assert_eq!(
        browser.script("return document.getElementById('shortcuts').hidden"),
        true
    );

    // `l` starts the engine; Space plays its best move.
    press(&browser, "l");
    browser.wait_for(
        "the analysis",
        "return state.analysisWanted && state.arrows && state.arrows.length > 0 && \
         state.analysisFen === analysedFen()",
    );
    // The best move when Space is pressed (read in the same script: a new iteration may
    // change it a moment later).
    let best = browser.script(
        "const best = state.arrows[0]; \
         document.body.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true })); \
         return best",
    );
    browser.wait_for(
        "the best move played",
        &format!("return state.view === 2 && state.games.analysis.moves[1].uci === {best}"),
    );
    press(&browser, "l");
    assert_eq!(browser.script("return state.analysisWanted"), false);
}

/// The engine lines' first moves are arrows on the board (the best one first), and a
/// click on a move of a line plays the line up to it.
#[test]
fn engine_lines_draw_arrows_and_play_when_clicked() {
    needs_browser!("engine_lines_draw_arrows_and_play_when_clicked");
    let (_server, browser) = open_analysis("serve-browser-arrows", DESKTOP);
    browser.click("#analyse-toggle");
    let seen = browser.wait_for(
        "three lines with their arrows",
        "const l = document.querySelectorAll('#lines li'); \
         const a = [...document.querySelectorAll('#arrows line')].map(x => x.dataset.uci); \
         return l.length === 3 && a.length === 3 && { arrows: a, first: state.arrows[0] }",
    );
    assert_eq!(seen["arrows"][0], seen["first"], "{seen}");
    // The best arrow starts on its move's square (read at one moment: the lines change).
    let placed = browser.script(
        "const arrow = document.querySelector('#arrows line.arrow-0'); \
         const from = arrow.dataset.uci.slice(0, 2); const a = arrow.getBoundingClientRect(); \
         const s = document.querySelector(`#board [data-square='${from}']`).getBoundingClientRect(); \
         return [from, a.left < s.right && a.right > s.left && a.top < s.bottom && a.bottom > s.top]",
    );
    assert_eq!(
        placed[1], true,
        "the arrow does not start on its square: {placed}"
    );
    // The second move of the first line, clicked: two moves played.
    let line = browser.script(
        "const m = [...document.querySelectorAll('#lines li:first-child .line-move')].map(x => x.textContent); \
         document.querySelectorAll('#lines li:first-child .line-move')[1].click(); return m",
    );
    browser.wait_for(
        "the line's moves played",
        "return document.querySelectorAll('#moves button').length === 2 && state.view === 2",
    );
    let played = browser
        .script("return [...document.querySelectorAll('#moves button')].map(b => b.textContent)");
    assert_eq!(played[0], line[0], "{played} {line}");
    assert_eq!(played[1], line[1], "{played} {line}");
    browser.click("#analyse-toggle");
}

/// The review gives each side's accuracy and average centipawn loss, each move's
/// evaluation in the move list, and the move and evaluation under the pointer on the graph.
#[test]
fn the_review_shows_accuracy_evaluations_and_the_move_under_the_pointer() {
    needs_browser!("the_review_shows_accuracy_evaluations_and_the_move_under_the_pointer");
    let (_server, browser) = open_analysis("serve-browser-review", DESKTOP);
    paste_trap(&browser);
    browser.click("#review");
    browser.wait_for(
        "the review",
        "return document.querySelectorAll('#graph circle.mark').length > 0",
    );
    let summary = browser.script(
        "return [...document.querySelectorAll('#review-summary div')].map(d => d.textContent)",
    );
    for (i, side) in ["White", "Black"].iter().enumerate() {
        let text = summary[i].as_str().unwrap();
        assert!(
            text.starts_with(side)
                && text.contains("accuracy ")
                && text.contains("average centipawn loss "),
            "{summary}"
        );
    }
    let evals = browser
        .script("return [...document.querySelectorAll('#moves button')].map(b => b.dataset.eval)");
    let evals = evals.as_array().unwrap();
    assert_eq!(evals.len(), 14);
    assert!(
        evals.iter().all(|e| e
            .as_str()
            .is_some_and(|e| e.starts_with(['+', '-', '#']) || e == "0.00")),
        "{evals:?}"
    );
    // The pointer over the graph's far right: the mate.
    let tip = browser.script(
        "const g = document.getElementById('graph').getBoundingClientRect(); \
         document.getElementById('graph').dispatchEvent(new MouseEvent('mousemove', \
           { clientX: g.right - 1, clientY: g.top + g.height / 2, bubbles: true })); \
         const t = document.getElementById('graph-tip'); return !t.hidden && t.textContent",
    );
    let tip = tip.as_str().unwrap_or_default();
    assert!(tip.contains("Nf3#") && tip.contains("#"), "{tip}");
    // Each marked move says in the list what was better: no pointer needed.
    let notes = browser.script(
        "return [...document.querySelectorAll('#moves .best-note')].map(n => n.textContent)",
    );
    let marked =
        browser.script("return document.querySelectorAll('#moves button[class*=mark-]').length");
    let notes = notes.as_array().unwrap();
    assert!(!notes.is_empty(), "no note of a better move");
    assert!(
        notes.len() as u64 <= marked.as_u64().unwrap()
            && notes.iter().all(|n| {
                let n = n.as_str().unwrap();
                ["Inaccuracy: ", "Mistake: ", "Blunder: "]
                    .iter()
                    .any(|w| n.starts_with(w))
                    && n.contains("best was ")
            }),
        "{notes:?}"
    );
}

/// A game that has barely begun is aborted with a button; a draw offer asks first (before,
/// one click ended even a won game), then is answered.
#[test]
fn a_new_game_can_be_aborted_and_a_draw_offered() {
    needs_browser!("a_new_game_can_be_aborted_and_a_draw_offered");
    let (_server, browser) = open_play("serve-browser-abort", DESKTOP);
    assert_eq!(
        browser.script("return document.getElementById('abort').hidden"),
        false
    );
    // Offering asks first; "No" sends nothing.
    browser.click("#offer-draw");
    browser.wait_for(
        "the draw offer's question",
        "const q = document.getElementById('draw-confirm'); return q && !q.hidden",
    );
    browser.click("#draw-no");
    browser.wait_for(
        "the question gone, the button back",
        "return document.getElementById('draw-confirm').hidden && !document.getElementById('offer-draw').hidden",
    );
    assert_eq!(
        browser
            .script("return document.getElementById('message').textContent.includes('declines')"),
        false,
        "a declined question must not offer the draw"
    );
    browser.click("#offer-draw");
    browser.wait_for(
        "the question again",
        "return !document.getElementById('draw-confirm').hidden",
    );
    browser.click("#draw-yes");
    browser.wait_for(
        "the answer to the draw offer",
        "const m = document.getElementById('message'); return !m.hidden && m.textContent.includes('declines')",
    );
    browser.click("#abort");
    browser.wait_for(
        "the aborted game",
        "return document.getElementById('status').textContent.includes('aborted')",
    );
    assert_eq!(
        browser.script("return document.getElementById('abort').getBoundingClientRect().width"),
        0,
        "the Abort button is still shown"
    );
    assert_eq!(
        browser.script("return document.getElementById('offer-draw').disabled"),
        true
    );
    // A new game is no longer asked about: the aborted one is over.
    browser.click("#new-game-button");
    browser.wait_for(
        "the new game",
        "return document.getElementById('status').textContent === 'Your move' && !document.getElementById('abort').hidden",
    );
    browser.click(&square("e2"));
    browser.click(&square("e4"));
    wait_for_moves(&browser, 2, "Tarpon's answer to 1. e4");
    assert_eq!(
        browser.script("return document.getElementById('abort').hidden"),
        true
    );
}

/// The position shown is given as FEN; the board editor sets up a position to analyse;
/// a game against Tarpon starts from any position shown.
#[test]
fn the_editor_sets_up_positions_to_analyse_and_play_from() {
    needs_browser!("the_editor_sets_up_positions_to_analyse_and_play_from");
    let (_server, browser) = open_analysis("serve-browser-editor", DESKTOP);
    assert_eq!(
        browser.script("return document.getElementById('fen-shown').value"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    browser.click("#copy-fen");
    browser.wait_for(
        "the FEN copied",
        "const m = document.getElementById('message'); return !m.hidden && m.textContent.includes('FEN')",
    );

    browser.click("#edit-board");
    browser.click("#editor-clear");
    assert_eq!(
        browser.script("return document.querySelectorAll('#board .square img').length"),
        0
    );
    for (piece, at) in [
        ("wK", "e1"),
        ("bK", "e8"),
        ("wQ", "d1"),
        ("wR", "h1"),
        ("bP", "a7"),
    ] {
        browser.click(&format!("#editor-palette [data-piece='{piece}']"));
        browser.click(&square(at));
    }
    // A piece put twice is taken off again.
    browser.click(&square("a7"));
    browser
        .script("for (const r of 'KQkq') document.getElementById('castle-' + r).checked = false");
    browser.click("#castle-K");
    assert_eq!(
        browser.script("return document.getElementById('fen-shown').value"),
        "4k3/8/8/8/8/8/8/3QK2R w K - 0 1"
    );
    browser.click("#editor-analyse");
    browser.wait_for(
        "the edited position on the board",
        "return state.games.analysis.start_fen === '4k3/8/8/8/8/8/8/3QK2R w K - 0 1' && \
         document.getElementById('editor').hidden",
    );
    // A move, then a game against Tarpon from there.
    browser.click(&square("d1"));
    browser.click(&square("d7"));
    browser.wait_for(
        "the check",
        "return document.querySelectorAll('#moves button').length === 1",
    );
    // The side is the person's choice; the side to move is offered first.
    browser.click("#play-from-here");
    assert_eq!(
        browser.script(
            "return [...document.querySelectorAll('#play-side button')].map(b => b.textContent)"
        ),
        serde_json::json!(["Black", "White", "Cancel"])
    );
    browser.click("#play-side [data-side='white']");
    browser.wait_for(
        "the game from the position shown",
        "return !document.getElementById('play-panel').hidden && state.games.play && \
         state.games.play.start_fen.startsWith('4k3/3Q4/8/8/8/8/8/4K2R b')",
    );
    let game = browser.script("return [state.games.play.human, state.games.play.start_fen]");
    assert_eq!(game[0], "white", "{game}");
    wait_for_moves(&browser, 1, "Tarpon's move, Black to move first");
}

/// The editor's controls follow its board: castling only where king and rook are home, en
/// passant where a pawn can just have moved two squares; a position it cannot set up is
/// said where the person looks, inside the editor.
#[test]
fn the_editor_offers_what_the_board_allows_and_says_what_is_wrong() {
    needs_browser!("the_editor_offers_what_the_board_allows_and_says_what_is_wrong");
    let (_server, browser) = open_analysis("serve-browser-editor-rights", PHONE);
    browser.click("#edit-board");
    let rights = "return ['K', 'Q', 'k', 'q'].map(r => { const b = document.getElementById('castle-' + r); \
                  return b.disabled ? '-' : (b.checked ? r : '.'); }).join('')";
    assert_eq!(browser.script(rights), "KQkq");
    // The h1 rook off: no white short castling, its box unticked and disabled.
    browser.click("#editor-palette [data-piece='wR']");
    browser.click(&square("h1"));
    assert_eq!(browser.script(rights), "-Qkq");
    assert!(
        browser
            .script("return document.getElementById('fen-shown').value")
            .as_str()
            .unwrap()
            .contains(" w Qkq - ")
    );

    // En passant: a white pawn on e4 with Black to move.
    browser.click("#editor-clear");
    for (piece, at) in [("wK", "e1"), ("bK", "e8"), ("wP", "e4"), ("bP", "d4")] {
        browser.click(&format!("#editor-palette [data-piece='{piece}']"));
        browser.click(&square(at));
    }
    browser.script(
        "const t = document.getElementById('editor-turn'); t.value = 'b'; \
         t.dispatchEvent(new Event('change'))",
    );
    assert_eq!(
        browser
            .script("return [...document.getElementById('editor-ep').options].map(o => o.value)"),
        serde_json::json!(["-", "e3"])
    );
    browser.script(
        "const e = document.getElementById('editor-ep'); e.value = 'e3'; \
         e.dispatchEvent(new Event('change'))",
    );
    assert_eq!(
        browser.script("return document.getElementById('fen-shown').value"),
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"
    );
    browser.click("#editor-analyse");
    browser.wait_for(
        "the position with en passant",
        "return state.games.analysis.start_fen === '4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1' && \
         state.games.analysis.legal.some(m => m.uci === 'd4e3')",
    );

    // No kings: said inside the editor, in view, and the editor stays open.
    browser.click("#edit-board");
    browser.click("#editor-clear");
    browser.click("#editor-analyse");
    let shown = browser.wait_for(
        "the editor's message",
        "const m = document.getElementById('editor-message'); const r = m.getBoundingClientRect(); \
         return !m.hidden && r.top >= 0 && r.bottom <= window.innerHeight && m.textContent",
    );
    assert!(
        shown.as_str().unwrap().to_lowercase().contains("king"),
        "{shown}"
    );
    assert_eq!(
        browser.script("return document.getElementById('editor').hidden"),
        false
    );
}
