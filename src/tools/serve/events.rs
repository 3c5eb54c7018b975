//! Server-sent events: the live output of a search, written to the raw connection.
//!
//! The search runs on the request's thread and hands each event to a writer thread, which
//! owns the connection. When no event has come for `HEARTBEAT`, the writer sends a comment
//! line: a page that went away makes a write fail within a beat or two, and the writer then
//! stops the game's search. (A search can go seconds without finishing an iteration, so the
//! events alone would notice a closed page too late.)

use super::store::Slot;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often an idle stream proves the page is still there.
pub const HEARTBEAT: Duration = Duration::from_millis(500);

/// The response head: sent in chunks (the last, empty one tells the page that the stream
/// is over: the connection's end would come only with the idle timeout, since the server
/// does not hold the socket itself), no caching, and no buffering by proxies.
const HEAD: &str = "HTTP/1.1 200 OK\r\n\
Content-Type: text/event-stream; charset=utf-8\r\n\
Transfer-Encoding: chunked\r\n\
Cache-Control: no-store\r\n\
X-Accel-Buffering: no\r\n\
X-Content-Type-Options: nosniff\r\n\
Connection: close\r\n\r\n";

/// The chunk that ends a chunked body.
const LAST_CHUNK: &str = "0\r\n\r\n";

/// `text` as one chunk of a chunked body.
fn chunk(text: &str) -> String {
    format!("{:x}\r\n{text}\r\n", text.len())
}

pub struct EventStream {
    sender: Option<mpsc::Sender<(String, String)>>,
    gone: Arc<AtomicBool>,
    writer: Option<JoinHandle<()>>,
}

impl EventStream {
    /// Starts the stream on `connection` for search number `generation` of `slot`.
    pub fn open(
        mut connection: Box<dyn Write + Send>,
        slot: Arc<Slot>,
        generation: u64,
    ) -> EventStream {
        let (sender, receiver) = mpsc::channel::<(String, String)>();
        let gone = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&gone);
        let writer = std::thread::Builder::new()
            .name("events".to_string())
            .spawn(move || {
                let mut write = |text: &str| {
                    connection
                        .write_all(text.as_bytes())
                        .and_then(|()| connection.flush())
                };
                let mut ok = write(HEAD).is_ok();
                while ok {
                    ok = match receiver.recv_timeout(HEARTBEAT) {
                        Ok((name, data)) => {
                            write(&chunk(&format!("event: {name}\ndata: {data}\n\n")))
                        }
                        Err(mpsc::RecvTimeoutError::Timeout) => write(&chunk(": beat\n\n")),
                        Err(mpsc::RecvTimeoutError::Disconnected) => {
                            let _ = write(LAST_CHUNK);
                            break;
                        }
                    }
                    .is_ok();
                }
                if !ok {
                    flag.store(true, Ordering::Relaxed);
                    // Only this stream's own search is stopped, not a newer one.
                    slot.stop_if_current(generation);
                }
            })
            .ok();
        if writer.is_none() {
            gone.store(true, Ordering::Relaxed);
        }
        EventStream {
            sender: Some(sender),
            gone,
            writer,
        }
    }

    /// Sends an event: its name and JSON data (one line, as serde_json writes it).
    pub fn send(&self, name: &str, data: String) {
        if let Some(sender) = &self.sender {
            let _ = sender.send((name.to_string(), data));
        }
    }

    /// Whether the page has gone away.
    pub fn is_gone(&self) -> bool {
        self.gone.load(Ordering::Relaxed)
    }

    /// Ends the stream once everything sent has been written.
    pub fn close(mut self) {
        self.sender = None;
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}
