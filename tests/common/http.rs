//! A minimal HTTP/1.1 client over `std::net` for the tests of `tarpon serve` and for
//! talking to chromedriver: one request per connection (`Connection: close`), bodies with a
//! length or chunked, and server-sent events read as they come. The tests need no more,
//! and no client crate has to be built for them.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// How long a test waits for any single answer before it fails.
pub const READ_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }

    /// The `error` message of a refused request.
    pub fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or("").to_string()
    }
}

/// Sends a request with the given extra headers and body; `Host` is `addr` unless given.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Reply {
    let mut stream = open(addr, method, path, headers, body);
    read_reply(&mut BufReader::new(&mut stream))
}

fn open(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> TcpStream {
    let mut stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
    stream.set_read_timeout(Some(READ_TIMEOUT)).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\n");
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: {addr}\r\n"));
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("Connection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    stream
}

pub fn get(addr: SocketAddr, path: &str) -> Reply {
    request(addr, "GET", path, &[], "")
}

pub fn post(addr: SocketAddr, path: &str, body: &str) -> Reply {
    request(addr, "POST", path, &[], body)
}

fn read_head(reader: &mut impl BufRead) -> (u16, Vec<(String, String)>) {
    let mut line = String::new();
    reader.read_line(&mut line).expect("read the status line");
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {line:?}"));
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).expect("read a header");
        let text = line.trim_end();
        if text.is_empty() {
            break;
        }
        if let Some((name, value)) = text.split_once(':') {
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    (status, headers)
}

/// The next chunk of a chunked body (empty for the last one); `None` when the connection
/// ended first. A chunk not framed as HTTP/1.1 says fails the test.
fn read_chunk(reader: &mut impl BufRead) -> std::io::Result<Option<Vec<u8>>> {
    let mut size = String::new();
    if reader.read_line(&mut size)? == 0 {
        return Ok(None);
    }
    let size = usize::from_str_radix(size.trim(), 16)
        .unwrap_or_else(|_| panic!("bad chunk size {size:?}"));
    let mut chunk = vec![0; size + 2];
    reader.read_exact(&mut chunk)?;
    assert_eq!(&chunk[size..], b"\r\n", "a chunk not ended by CRLF");
    chunk.truncate(size);
    Ok(Some(chunk))
}

fn read_reply(reader: &mut impl BufRead) -> Reply {
    let (status, headers) = read_head(reader);
    let find = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let mut bytes = Vec::new();
    if find("Transfer-Encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        while let Some(chunk) = read_chunk(reader).expect("read a chunk") {
            if chunk.is_empty() {
                break;
            }
            bytes.extend_from_slice(&chunk);
        }
    } else if let Some(length) = find("Content-Length").and_then(|v| v.parse::<usize>().ok()) {
        bytes.resize(length, 0);
        reader.read_exact(&mut bytes).expect("read the body");
    } else {
        reader.read_to_end(&mut bytes).expect("read the body");
    }
    Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

/// An open stream of server-sent events.
pub struct Events {
    pub status: u16,
    reader: BufReader<TcpStream>,
    /// The body of a refused request (not a stream).
    pub refusal: Option<Reply>,
    /// The stream comes in chunks (`Transfer-Encoding: chunked`).
    chunked: bool,
    /// Event text received and not yet read.
    pending: String,
    /// The last, empty chunk arrived: the server ended the stream itself.
    ended: bool,
}

impl Events {
    /// Opens `path` as an event stream.
    pub fn open(addr: SocketAddr, path: &str) -> Events {
        let stream = open(addr, "GET", path, &[("Accept", "text/event-stream")], "");
        let mut reader = BufReader::new(stream);
        let (status, headers) = read_head(&mut reader);
        let refusal = (status != 200).then(|| {
            let length = headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("Content-Length"))
                .and_then(|(_, v)| v.parse::<usize>().ok())
                .unwrap_or(0);
            let mut bytes = vec![0; length];
            reader.read_exact(&mut bytes).expect("read the refusal");
            Reply {
                status,
                headers: headers.clone(),
                body: String::from_utf8_lossy(&bytes).into_owned(),
            }
        });
        let chunked = headers.iter().any(|(n, v)| {
            n.eq_ignore_ascii_case("Transfer-Encoding") && v.eq_ignore_ascii_case("chunked")
        });
        Events {
            status,
            reader,
            refusal,
            chunked,
            pending: String::new(),
            ended: false,
        }
    }

    /// The next line of the stream's text, without its line end; `None` at its end.
    fn line(&mut self) -> Option<String> {
        if !self.chunked {
            let mut line = String::new();
            return match self.reader.read_line(&mut line) {
                Ok(n) if n > 0 => Some(line.trim_end().to_string()),
                _ => None,
            };
        }
        while !self.pending.contains('\n') {
            if self.ended {
                return None;
            }
            let chunk = read_chunk(&mut self.reader).ok()??;
            self.ended = chunk.is_empty();
            self.pending.push_str(&String::from_utf8_lossy(&chunk));
        }
        let end = self.pending.find('\n').unwrap();
        let line = self.pending[..end].trim_end().to_string();
        self.pending.drain(..=end);
        Some(line)
    }

    /// The next event, its name and JSON data; `None` when the stream has ended.
    pub fn next(&mut self) -> Option<(String, serde_json::Value)> {
        let mut name = String::new();
        let mut data = String::new();
        loop {
            let line = self.line()?;
            let line = line.as_str();
            if line.is_empty() {
                if !data.is_empty() {
                    let value = serde_json::from_str(&data)
                        .unwrap_or_else(|e| panic!("event data is not JSON ({e}): {data}"));
                    return Some((name, value));
                }
            } else if let Some(n) = line.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(d) = line.strip_prefix("data: ") {
                data.push_str(d);
            }
        }
    }
}

/// `tarpon serve --port 0` running for a test; killed when dropped.
pub struct TestServer {
    pub child: Child,
    pub addr: SocketAddr,
    pub url: String,
    /// What the server printed on standard error (read at start).
    pub stderr_first: Option<String>,
}

impl TestServer {
    pub fn start(extra: &[&str]) -> TestServer {
        TestServer::start_on(0, extra)
    }

    /// A server on `port` (0: any free port), as when one restarts where it was.
    pub fn start_on(port: u16, extra: &[&str]) -> TestServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tarpon"))
            .args(["serve", "--port", &port.to_string()])
            .args(extra)
            .stdout(Stdio::piped())
            // Standard error is read only where a test looks at it (the warning of --host);
            // elsewhere it goes to the test's own, so nothing can fill a pipe.
            .stderr(if extra.contains(&"--host") {
                Stdio::piped()
            } else {
                Stdio::inherit()
            })
            .spawn()
            .expect("start tarpon serve");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        out.read_line(&mut line)
            .expect("read the server's first line");
        let url = line
            .trim()
            .strip_prefix("Tarpon is serving on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        let host_port = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        let addr = host_port
            .to_socket_addrs()
            .expect("the printed address")
            .next()
            .expect("an address");
        // Keep reading standard output so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sink = String::new();
            let _ = out.read_to_string(&mut sink);
        });
        let stderr_first = if extra.contains(&"--host") {
            let mut err = BufReader::new(child.stderr.take().expect("stderr"));
            let mut line = String::new();
            err.read_line(&mut line).ok();
            Some(line)
        } else {
            None
        };
        TestServer {
            child,
            addr,
            url,
            stderr_first,
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
