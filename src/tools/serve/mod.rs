//! `tarpon serve`: a small chess app in the browser, served by Tarpon itself.
//!
//! The page (HTML, CSS, JavaScript and SVG pieces in `assets/`, written for this project
//! and embedded in the binary) plays against Tarpon and analyses with it through a small
//! JSON API (`api.rs`, documented in docs/serve.md), with live search output as
//! server-sent events (`events.rs`). The server binds 127.0.0.1 unless told otherwise,
//! refuses requests from other sites (`http.rs`), validates every input, bounds what it
//! holds and runs (`store.rs`, `search.rs`), and drops idle connections without ever
//! stopping to accept new ones (`listen.rs`). Nothing in a request reaches the file
//! system: the only files served are the embedded ones.

mod accuracy;
mod api;
mod assets;
mod events;
mod game;
mod http;
mod listen;
mod openings;
mod search;
mod store;
mod tree;
mod view;

use api::{Answer, ApiError, Call};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use store::Store;
use tiny_http::Request;

/// What `tarpon serve` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    pub host: IpAddr,
    /// 0 for any free port.
    pub port: u16,
    /// Open the page in the system's browser.
    pub open: bool,
}

/// `tarpon serve`'s arguments.
#[derive(clap::Args)]
#[command(
    after_help = "Prints the address to open, e.g. http://127.0.0.1:8080/; Ctrl-C stops it.\n\
The page plays against Tarpon (clocks or time per move, strength levels), analyses positions\n\
and games, and saves games as PGN. Its JSON API is documented in docs/serve.md.\n\n\
Examples:\n  tarpon serve\n  tarpon serve --port 9000 --open\n  tarpon serve --port 0            (any free port)\n  \
tarpon serve --host 0.0.0.0     (reachable from the network: be careful)"
)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port, printed at start)
    #[arg(long, value_name = "N", default_value_t = 8080)]
    port: u16,
    /// The address to listen on; anything but a loopback address lets others reach it
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    host: IpAddr,
    /// Open the page in the system's browser
    #[arg(long)]
    open: bool,
}

impl From<ServeArgs> for Options {
    fn from(args: ServeArgs) -> Options {
        Options {
            host: args.host,
            port: args.port,
            open: args.open,
        }
    }
}

impl ServeArgs {
    /// `tarpon serve`.
    pub fn run(self) -> std::process::ExitCode {
        super::exit_status(run(&self.into()))
    }
}

/// A started server: its address, and the thread that keeps it answering until the
/// program ends.
pub struct Running {
    pub url: String,
    supervisor: std::thread::JoinHandle<()>,
}

impl Running {
    /// Answers requests until the program is ended (Ctrl-C).
    pub fn wait(self) {
        let _ = self.supervisor.join();
    }
}

/// Binds the address and starts answering.
pub fn start(options: &Options) -> Result<Running, String> {
    let address = SocketAddr::new(options.host, options.port);
    let listener = std::net::TcpListener::bind(address)
        .map_err(|e| format!("cannot listen on {address}: {e}"))?;
    let store = Arc::new(Store::default());
    let port = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {address}: {e}"))?
        .port();
    let supervisor = listen::serve(listener, move |request| handle(request, port, &store))?;
    let shown_host = match options.host {
        IpAddr::V4(v4) if v4.is_unspecified() => "127.0.0.1".to_string(),
        IpAddr::V6(v6) if v6.is_unspecified() => "[::1]".to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
        IpAddr::V4(v4) => v4.to_string(),
    };
    let url = format!("http://{shown_host}:{port}/");
    Ok(Running { url, supervisor })
}

/// `tarpon serve`: starts the server, says where, and serves until ended.
pub fn run(options: &Options) -> Result<(), String> {
    let running = start(options)?;
    crate::outln!("Tarpon is serving on {}", running.url);
    if !options.host.is_loopback() {
        eprintln!(
            "warning: listening on {}: other computers on the network can reach this server \
             and use Tarpon (it has no password)",
            options.host
        );
    }
    crate::outln!("Press Ctrl-C to stop.");
    if options.open {
        open_browser(&running.url);
    }
    running.wait();
    Ok(())
}

/// Starts the system's browser on `url`, or says that it could not. `xdg-open` returns
/// once it has handed the page on, or fails (no browser, no display): its exit status is
/// awaited on a thread of its own so that the server starts at once either way.
fn open_browser(url: &str) {
    let cannot = |why: String| eprintln!("Cannot start a browser ({why}): open {url} yourself.");
    let child = std::process::Command::new("xdg-open")
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    match child {
        Ok(mut child) => {
            crate::outln!("Asking xdg-open to show {url} in a browser.");
            let url = url.to_string();
            let _ = std::thread::Builder::new()
                .name("open".to_string())
                .spawn(move || match child.wait() {
                    Ok(status) if status.success() => {}
                    Ok(status) => eprintln!(
                        "Cannot start a browser (xdg-open: {status}): open {url} yourself."
                    ),
                    Err(e) => {
                        eprintln!("Cannot start a browser (xdg-open: {e}): open {url} yourself.")
                    }
                });
        }
        Err(e) => cannot(format!("xdg-open: {e}")),
    }
}

/// Answers one request.
fn handle(mut request: Request, port: u16, store: &Arc<Store>) {
    let answer = http::check_origin(&request, port).and_then(|()| route(&mut request, store));
    match answer {
        Ok(Answer::Json(status, body)) => http::send(request, http::json(status, body)),
        Ok(Answer::Pgn(name, text)) => http::send(request, http::pgn(&name, text)),
        Ok(Answer::Asset(content_type, bytes)) => {
            http::send(request, http::asset(content_type, bytes))
        }
        Ok(Answer::Later(work)) => {
            let spawned = std::thread::Builder::new()
                .name("reply".to_string())
                .stack_size(LONG_REQUEST_STACK)
                .spawn(move || {
                    let reply = match work() {
                        Ok(Answer::Json(status, body)) => http::json(status, body),
                        Ok(_) => http::error(&internal()),
                        Err(e) => http::error(&e),
                    };
                    http::send(request, reply);
                });
            if let Err(e) = spawned {
                eprintln!("error: cannot start a thread for Tarpon's move: {e}");
            }
        }
        Ok(Answer::Events(stream)) => {
            let connection = request.into_writer();
            let spawned = std::thread::Builder::new()
                .name("stream".to_string())
                .stack_size(LONG_REQUEST_STACK)
                .spawn(move || stream(connection));
            if let Err(e) = spawned {
                eprintln!("error: cannot start a thread for an event stream: {e}");
            }
        }
        Err(e) => http::send(request, http::error(&e)),
    }
}

/// The stack of a thread that runs a search's driver (the search itself has its own).
const LONG_REQUEST_STACK: usize = 1024 * 1024;

fn internal() -> ApiError {
    ApiError {
        status: 500,
        message: "internal error".to_string(),
    }
}

/// Finds what a request asks for: a page asset or an API call.
fn route(request: &mut Request, store: &Arc<Store>) -> Result<Answer, ApiError> {
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let method = request.method().as_str().to_string();
    if let Some(api_path) = path.strip_prefix("/api/") {
        let body = match method.as_str() {
            "POST" => http::read_body(request)?,
            _ => String::new(),
        };
        let call = Call {
            method: &method,
            parts: api_path.split('/').filter(|p| !p.is_empty()).collect(),
            query,
            body: &body,
        };
        return api::answer(&call, store);
    }
    assets::answer(&method, path)
}
