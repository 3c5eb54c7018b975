//! A small W3C WebDriver client: it starts Debian's `chromedriver`, which starts a headless
//! Chromium, and sends it the few commands the browser tests of `tarpon serve` use (open a
//! page, find and click elements, type, pointer drags, run a script, take a screenshot).
//!
//! The protocol is JSON over HTTP, so the tests drive it directly from Rust with the same
//! small client they use for the server (`http.rs`). Python with selenium would do the
//! same, but adds a package to pin and install and a second language to the test; the
//! dozen commands needed here are simpler than that.

use super::http::{Reply, request};
use serde_json::{Value, json};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The programs, where Debian's `chromium` and `chromium-driver` put them.
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// How long a test waits for the page to reach a state before it fails: generous, since
/// `make test` runs the engine-heavy tests beside the browser ones on a small machine (a
/// game review once took over 30 s there).
pub const WAIT: Duration = Duration::from_secs(90);
const POLL: Duration = Duration::from_millis(100);
/// How long chromedriver may take to start listening.
const DRIVER_START: Duration = Duration::from_secs(20);
/// The key WebDriver uses for an element's id in JSON.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A headless Chromium under chromedriver, with one session; both end when dropped.
pub struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
    /// Where the browser saves downloads.
    pub downloads: PathBuf,
}

/// Whether Chromium and chromedriver are installed (`make test` installs them).
pub fn available() -> bool {
    Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Browser {
    /// Starts chromedriver and a headless Chromium with a fresh profile in `dir`, its
    /// window `width` x `height`.
    pub fn start(dir: &Path, width: u32, height: u32) -> Browser {
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let started = Instant::now();
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(
                started.elapsed() < DRIVER_START,
                "chromedriver does not listen"
            );
            std::thread::sleep(POLL);
        }
        let downloads = dir.join("downloads");
        std::fs::create_dir_all(&downloads).unwrap();
        let profile = dir.join("profile");
        // Offline and quiet: no first-run pages, no background traffic, no sandbox (the
        // tests may run as root, where Chromium's sandbox cannot start).
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            &format!("--user-data-dir={}", profile.display()),
            &format!("--window-size={width},{height}"),
        ];
        let capabilities = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": args,
                "prefs": {
                    "download.default_directory": downloads.display().to_string(),
                    "download.prompt_for_download": false,
                },
            },
        }}});
        let mut browser = Browser {
            driver,
            addr,
            session: String::new(),
            downloads,
        };
        let reply = browser.call("POST", "/session", capabilities);
        browser.session = reply["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no WebDriver session: {reply}"))
            .to_string();
        browser
    }

    /// Sends a command; panics with the driver's message when it fails.
    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        self.try_call(method, path, body)
            .unwrap_or_else(|error| panic!("WebDriver {method} {path} failed: {error}"))
    }

    /// Sends a command; the driver's error value when it fails.
    fn try_call(&self, method: &str, path: &str, body: Value) -> Result<Value, Value> {
        let reply: Reply = request(
            self.addr,
            method,
            path,
            &[],
            &if method == "POST" {
                body.to_string()
            } else {
                String::new()
            },
        );
        let value: Value = serde_json::from_str(&reply.body)
            .unwrap_or_else(|e| panic!("chromedriver answered no JSON ({e}): {}", reply.body));
        if reply.status != 200 {
            return Err(value["value"].clone());
        }
        Ok(value.get("value").cloned().unwrap_or(Value::Null))
    }

    fn session_call(&self, method: &str, path: &str, body: Value) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    pub fn goto(&self, url: &str) {
        self.session_call("POST", "/url", json!({ "url": url }));
    }

    /// The element matching a CSS selector; panics if there is none.
    pub fn find(&self, css: &str) -> String {
        let found = self.session_call(
            "POST",
            "/element",
            json!({ "using": "css selector", "value": css }),
        );
        found[ELEMENT_KEY]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_string()
    }

    /// Clicks the element matching a CSS selector. The page redraws some parts (the move
    /// list, say) while the engine reports; an element found just before such a redraw
    /// is gone when the click arrives ("stale element reference"), so the selector is
    /// looked up again and the click retried, a few times.
    pub fn click(&self, css: &str) {
        for _ in 0..5 {
            let element = self.find(css);
            let path = format!("/session/{}/element/{element}/click", self.session);
            match self.try_call("POST", &path, json!({})) {
                Ok(_) => return,
                Err(error) if error["error"] == "stale element reference" => {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                Err(error) => panic!("WebDriver click on {css} failed: {error}"),
            }
        }
        panic!("{css} went stale five times in a row");
    }

    /// Types `text` into the element (after clearing it).
    pub fn type_into(&self, css: &str, text: &str) {
        let element = self.find(css);
        self.session_call("POST", &format!("/element/{element}/clear"), json!({}));
        self.session_call(
            "POST",
            &format!("/element/{element}/value"),
            json!({ "text": text }),
        );
    }

    /// Runs a script in the page and returns what it returns.
    pub fn script(&self, body: &str) -> Value {
        self.session_call(
            "POST",
            "/execute/sync",
            json!({ "script": body, "args": [] }),
        )
    }

    /// Waits until the script returns something truthy, and returns it; fails naming
    /// `what` after `WAIT`.
    pub fn wait_for(&self, what: &str, script: &str) -> Value {
        let started = Instant::now();
        loop {
            let value = self.script(script);
            let truthy = match &value {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return value;
            }
            if started.elapsed() > WAIT {
                let status = self.script(
                    "const progress = document.getElementById('review-progress'); \
                     return document.getElementById('status').textContent + ' | ' + \
                     document.getElementById('message').textContent + \
                     (progress && progress.textContent ? ' | ' + progress.textContent : '')",
                );
                panic!("waited {WAIT:?} for {what}; the page says: {status}");
            }
            std::thread::sleep(POLL);
        }
    }

    /// Drags with the mouse from the centre of one element to the centre of another. The
    /// points are taken before the drag starts, in the window's coordinates, because the
    /// page may redraw the elements as the drag begins.
    pub fn drag(&self, from_css: &str, to_css: &str) {
        let centre = |css: &str| {
            let point = self.script(&format!(
                "const r = document.querySelector({css:?}).getBoundingClientRect(); \
                 return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]"
            ));
            (point[0].as_i64().unwrap(), point[1].as_i64().unwrap())
        };
        let (from, to) = (centre(from_css), centre(to_css));
        let actions = json!({ "actions": [{
            "type": "pointer",
            "id": "mouse",
            "parameters": { "pointerType": "mouse" },
            "actions": [
                { "type": "pointerMove", "duration": 0, "origin": "viewport", "x": from.0, "y": from.1 },
                { "type": "pointerDown", "button": 0 },
                { "type": "pointerMove", "duration": 150, "origin": "viewport", "x": to.0, "y": to.1 },
                { "type": "pointerUp", "button": 0 },
            ],
        }]});
        self.session_call("POST", "/actions", actions);
        self.session_call("DELETE", "/actions", json!({}));
    }

    /// The handle of the tab the commands go to.
    pub fn tab(&self) -> String {
        let handle = self.session_call("GET", "/window", json!({}));
        handle.as_str().expect("a window handle").to_string()
    }

    /// Opens a new tab and sends the commands that follow to it; returns its handle.
    pub fn new_tab(&self) -> String {
        let reply = self.session_call("POST", "/window/new", json!({ "type": "tab" }));
        let handle = reply["handle"]
            .as_str()
            .unwrap_or_else(|| panic!("no new tab: {reply}"))
            .to_string();
        self.switch_to(&handle);
        handle
    }

    /// Sends the commands that follow to the tab `handle`.
    pub fn switch_to(&self, handle: &str) {
        self.session_call("POST", "/window", json!({ "handle": handle }));
    }

    pub fn set_window(&self, width: u32, height: u32) {
        self.session_call(
            "POST",
            "/window/rect",
            json!({ "width": width, "height": height }),
        );
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let text = self.session_call("GET", "/screenshot", json!({}));
        base64_decode(text.as_str().expect("a base64 screenshot"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = request(self.addr, "DELETE", &path, &[], "");
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 (what WebDriver sends screenshots in).
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut bits = 0u32;
    let mut count = 0;
    for &c in text.as_bytes() {
        let Some(v) = value(c) else { continue };
        bits = (bits << 6) | v;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    out
}
