//! `tarpon serve`'s page in a real headless Chromium (Debian's `chromium` and
//! `chromium-driver`, driven over WebDriver from Rust: see `common/webdriver.rs`). A person's
//! path through the app: the page loads, a move made by clicking squares is answered by
//! Tarpon, an illegal move is refused with the server's message, a piece is dragged, the
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

    // A game on a clock: both clocks shown, the person's running.
    browser.script("document.getElementById('time').value = 'clock:1+0'");
    browser.click("#new-game-button");
    let clock = browser.wait_for(
        "the clocks",
        "const c = document.querySelector('#player-bottom .clock'); \
         return c.classList.contains('running') && c.textContent",
    );
    assert!(clock == "1:00" || clock == "0:59", "{clock}");
    assert_eq!(
        browser.script("return document.querySelector('#player-top .clock').textContent"),
        "1:00"
    );
    browser.wait_for(
        "the clock to run",
        "return document.querySelector('#player-bottom .clock').textContent === '0:58'",
    );
    // Back to a quick game, one second a move.
    browser.script("document.getElementById('time').value = 'move:1000'");
    browser.click("#new-game-button");
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

    // An illegal move is refused, with the server's reason, and the game is unchanged.
    browser.click(&square("g1"));
    browser.click(&square("g4"));
    let message = browser.wait_for(
        "the refusal",
        "const m = document.getElementById('message'); return !m.hidden && m.textContent",
    );
    assert!(message.as_str().unwrap().contains("not legal"), "{message}");
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

    // Finish the game (resign) and save it as PGN.
    browser.click("#resign");
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
    // Back on the position before the mate, with its analysis.
    // (The review turned the analysis off.)
    browser.click("#analyse-toggle");
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
        if let [file] = done.as_slice() {
            return file.clone();
        }
        assert!(
            started.elapsed() < webdriver::WAIT,
            "no PGN was downloaded into {}",
            dir.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
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
