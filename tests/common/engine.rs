//! The real `tarpon` program: run once with arguments ([`run`], [`run_with_input`]), or in
//! a UCI conversation ([`Engine`]) for the tests that drive it as a GUI would: commands go
//! to its standard input, and a reader thread forwards its output lines through a channel,
//! so that every answer has a deadline and a hung or silent engine fails the test (with the
//! conversation so far) instead of hanging it. Test files add their own conversation
//! helpers in `impl Engine` blocks.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};
use tarpon::chess::notation::parse_uci;
use tarpon::chess::{Move, Position};

pub const TARPON: &str = env!("CARGO_BIN_EXE_tarpon");

/// Runs `tarpon` with `args` and no input; returns whether it succeeded, its standard
/// output and its standard error.
pub fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(TARPON)
        .args(args)
        .output()
        .expect("run tarpon");
    results(out)
}

/// Runs `tarpon` with `args` and no input; returns its exit status (`None` if a signal
/// ended it), standard output and standard error, for the tests of statuses other than
/// success and failure.
pub fn run_status(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(TARPON)
        .args(args)
        .output()
        .expect("run tarpon");
    let code = out.status.code();
    let (_, stdout, stderr) = results(out);
    (code, stdout, stderr)
}

/// Runs `tarpon` with `args`, `input` on its standard input (then closed, as at the end of
/// a file); returns as [`run`] does.
pub fn run_with_input(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    // Written by a thread while this one reads, so that neither side waits for the other
    // with a full pipe. Tarpon may have exited already (bad arguments): then nobody reads
    // the input, and the write fails.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("tarpon's output");
    writer.join().expect("the input writer");
    results(out)
}

/// Starts `tarpon` with `args`, its standard input, output and error piped to the test.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(TARPON)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tarpon")
}

fn results(out: Output) -> (bool, String, String) {
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// A running engine and the conversation so far.
pub struct Engine {
    pub child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Everything sent (`> ...`) and received, for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(TARPON)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start tarpon");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        // The thread ends when the engine closes its output (exit) or the test is gone.
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    /// The last part of the conversation, for a failure message.
    pub fn tail(&self) -> String {
        let from = self.transcript.len().saturating_sub(60);
        self.transcript[from..].join("\n")
    }

    /// Sends `isready` and returns everything the engine said before `readyok`: the answer
    /// to the commands sent since the last sync, complete (the loop handles commands in
    /// order, so `readyok` comes after their output).
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.collect_until("readyok", Duration::from_secs(30), |l| l == "readyok");
        lines.pop();
        lines
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(&format!("{line}\n"));
    }

    /// Sends text exactly as given (for odd line endings).
    pub fn send_raw(&mut self, text: &str) {
        self.send_bytes(text.as_bytes());
    }

    /// Sends bytes exactly as given, UTF-8 or not.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let shown = String::from_utf8_lossy(bytes);
        self.transcript.push(format!("> {shown:?}"));
        let written = self
            .stdin
            .write_all(bytes)
            .and_then(|()| self.stdin.flush());
        if let Err(e) = written {
            panic!("cannot write {shown:?} to the engine: {e}\n{}", self.tail());
        }
    }

    /// The next line within `timeout`, or `None` when none came in time. Panics if the
    /// engine closed its output.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                panic!("the engine closed its output\n{}", self.tail())
            }
        }
    }

    /// Reads lines until one satisfies `done`; returns all of them, that one last.
    pub fn collect_until(
        &mut self,
        what: &str,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.next_line(left) else {
                panic!(
                    "no {what} within {timeout:?}; the conversation so far:\n{}",
                    self.tail()
                );
            };
            let finished = done(&line);
            lines.push(line);
            if finished {
                return lines;
            }
        }
    }

    /// Reads for `duration` and fails if a line satisfying `forbidden` arrives.
    pub fn expect_no_line(
        &mut self,
        what: &str,
        duration: Duration,
        forbidden: impl Fn(&str) -> bool,
    ) {
        let deadline = Instant::now() + duration;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            if let Some(line) = self.next_line(left) {
                assert!(
                    !forbidden(&line),
                    "unexpected {what}: {line}\n{}",
                    self.tail()
                );
            }
        }
    }

    /// Reads until a line satisfying `done` and returns that line.
    pub fn expect_line(
        &mut self,
        what: &str,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> String {
        self.collect_until(what, timeout, done).pop().unwrap()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // A failed test must not leave its engine running (searching, perhaps for ever).
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Checks a `bestmove <m> [ponder <p>]` line against the position searched: `m` must be
/// legal there and `p` legal after it. Returns (m, p).
pub fn check_bestmove(pos: &Position, line: &str) -> (Move, Option<Move>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (best, ponder) = match words[..] {
        ["bestmove", best] => (best, None),
        ["bestmove", best, "ponder", ponder] => (best, Some(ponder)),
        _ => panic!("malformed bestmove line {line:?}"),
    };
    let best = parse_uci(pos, best).unwrap_or_else(|e| panic!("{line:?} in {}: {e}", pos.fen()));
    let ponder = ponder.map(|p| {
        let mut next = pos.clone();
        next.make(best);
        parse_uci(&next, p).unwrap_or_else(|e| panic!("{line:?}: ponder move: {e}"))
    });
    (best, ponder)
}
