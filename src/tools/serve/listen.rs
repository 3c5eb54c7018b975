//! The listening socket and the threads that answer on it.
//!
//! Two things shape this file:
//!
//! - **An idle timeout for every connection.** A client that neither finishes a request
//!   nor hangs up (a connection kept open after its answer, a request sent a byte at a
//!   time) would hold a thread for ever. tiny_http has no setting for it, so the listening
//!   socket gets a receive timeout (`SO_RCVTIMEO`, set through socket2, since std sets it
//!   only on connections), which Linux copies to every connection it accepts.
//! - **tiny_http stops accepting at the first failed `accept`**, and that same timeout
//!   makes an `accept` fail when no connection came for `IDLE_TIMEOUT` (Linux applies it to
//!   `accept` too). Left alone, a page open for ten quiet seconds would then find the
//!   server gone. So the server runs in *generations* on the one socket: when a
//!   generation's accept thread ends (`recv` reports its error), a new generation starts on
//!   a copy of the socket (`try_clone`: the socket stays open all along, and connections
//!   waiting in its queue are kept). The old generation's workers go on answering what its
//!   connections still send, and end once it has been quiet for `RETIRE_AFTER`.

use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tiny_http::{Request, Server};

/// Threads answering requests in each generation; long requests (searches, event streams)
/// get threads of their own, bounded by `store::MAX_SEARCHES`.
const WORKERS: usize = 4;

/// How long a connection may keep the server waiting for a request, or for the rest of
/// one, before it is dropped (tiny_http answers 408 and closes it). A search's event
/// stream only writes, and is not limited by it.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(10);

/// A retired generation's workers end after this long without a request: by then a
/// connection it accepted has sent its request or been dropped by `IDLE_TIMEOUT`, unless
/// it sends a byte every few seconds (such a request is then left unanswered).
const RETIRE_AFTER: Duration = Duration::from_secs(2 * IDLE_TIMEOUT.as_secs());

/// How often a worker looks up from an empty queue to see whether its generation retired.
const POLL: Duration = Duration::from_millis(500);

/// A generation that lived shorter than this is followed after a pause, so that an
/// `accept` that fails at once (no file descriptors left) does not spin.
const SHORTEST_LIFE: Duration = Duration::from_secs(1);

/// Starts answering on `listener`: `handle` gets each request, on one of the workers.
/// Returns the supervisor, which runs until the program ends.
pub fn serve(
    listener: TcpListener,
    handle: impl Fn(Request) + Send + Sync + 'static,
) -> Result<JoinHandle<()>, String> {
    set_receive_timeout(&listener, IDLE_TIMEOUT);
    let first = generation(&listener)?;
    let handle = Arc::new(handle);
    let supervisor = std::thread::Builder::new()
        .name("http-supervisor".to_string())
        .spawn(move || supervise(listener, first, handle))
        .map_err(|e| format!("cannot start a server thread: {e}"))?;
    Ok(supervisor)
}

/// A tiny_http server on a copy of the listening socket.
fn generation(listener: &TcpListener) -> Result<Server, String> {
    let copy = listener
        .try_clone()
        .map_err(|e| format!("cannot copy the listening socket: {e}"))?;
    Server::from_listener(copy, None).map_err(|e| format!("cannot listen: {e}"))
}

/// Runs generation after generation, each until its accept thread ends.
fn supervise(listener: TcpListener, first: Server, handle: Arc<dyn Fn(Request) + Send + Sync>) {
    let mut server = first;
    loop {
        let born = Instant::now();
        let (ended, accept_failed) = mpsc::channel::<()>();
        let retired = Arc::new(AtomicBool::new(false));
        let server_ref = Arc::new(server);
        for i in 0..WORKERS {
            let (server, handle, retired, ended) = (
                Arc::clone(&server_ref),
                Arc::clone(&handle),
                Arc::clone(&retired),
                ended.clone(),
            );
            let spawned = std::thread::Builder::new()
                .name(format!("http-{i}"))
                .spawn(move || work(&server, &*handle, &retired, &ended));
            if let Err(e) = spawned {
                eprintln!("error: cannot start a server thread: {e}");
            }
        }
        drop((ended, server_ref));
        // Every worker of the generation gone without a report would be a bug; stop
        // rather than start generations without end.
        if accept_failed.recv().is_err() {
            return;
        }
        if born.elapsed() < SHORTEST_LIFE {
            std::thread::sleep(SHORTEST_LIFE);
        }
        server = loop {
            match generation(&listener) {
                Ok(server) => break server,
                Err(e) => {
                    eprintln!("error: {e}; trying again");
                    std::thread::sleep(SHORTEST_LIFE);
                }
            }
        };
    }
}

/// One worker: answers the generation's requests; the first to hear that its accept
/// thread ended tells the supervisor and marks the generation retired.
fn work(
    server: &Server,
    handle: &(dyn Fn(Request) + Send + Sync),
    retired: &AtomicBool,
    ended: &mpsc::Sender<()>,
) {
    let mut quiet_since = Instant::now();
    let mut seen_retired = false;
    loop {
        match server.recv_timeout(POLL) {
            Ok(Some(request)) => {
                quiet_since = Instant::now();
                // A bug met by one request must not take the thread, and so the server,
                // down with it: the request's connection is dropped and the thread goes
                // on (the games' locks survive a panic too).
                let answered =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handle(request)));
                if answered.is_err() {
                    eprintln!("error: a request failed inside the server (see above)");
                }
            }
            Ok(None) => {}
            Err(_) => {
                retired.store(true, Ordering::Release);
                let _ = ended.send(());
            }
        }
        if retired.load(Ordering::Acquire) {
            if !seen_retired {
                seen_retired = true;
                quiet_since = Instant::now();
            }
            if quiet_since.elapsed() > RETIRE_AFTER {
                return;
            }
        }
    }
}

/// Sets the receive timeout of the listening socket, which Linux gives every connection it
/// accepts. Where the call fails the server works without the timeout.
fn set_receive_timeout(listener: &TcpListener, timeout: Duration) {
    if let Err(e) = socket2::SockRef::from(listener).set_read_timeout(Some(timeout)) {
        eprintln!("warning: cannot set the connections' timeout ({e}): idle connections stay open");
    }
}
