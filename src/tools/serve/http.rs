//! HTTP around the API: who may ask (the `Host`/`Origin` check against DNS rebinding and
//! other sites' pages), how much they may send, the embedded page, and the responses.

use super::api::ApiError;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, Ipv6Addr};
use tiny_http::{Method, Request};

/// The largest request body: a long game's PGN is a few kilobytes.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// Whether a request comes from the server's own page (or a script on this machine), not
/// from another site. The `Host` must name the server by an IP address or `localhost`,
/// with its port: a DNS rebinding attack reaches the server under its own domain name,
/// which is refused. An `Origin`, which browsers send with cross-site and non-GET
/// requests, must be the server itself.
pub fn check_origin(request: &Request, port: u16) -> Result<(), ApiError> {
    let host = header(request, "Host")
        .ok_or_else(|| ApiError::forbidden("The request has no Host header"))?;
    if !is_own_host(&host, port) {
        return Err(ApiError::forbidden(&format!(
            "Host '{host}' is not this server: use http://127.0.0.1:{port}/ or http://localhost:{port}/"
        )));
    }
    if let Some(origin) = header(request, "Origin")
        && !origin.eq_ignore_ascii_case(&format!("http://{host}"))
    {
        return Err(ApiError::forbidden(&format!(
            "Requests from '{origin}' are refused: only this server's own page may use it"
        )));
    }
    Ok(())
}

/// `localhost:PORT` or `IP:PORT` (IPv6 in brackets).
fn is_own_host(host: &str, port: u16) -> bool {
    let Some((name, host_port)) = host.rsplit_once(':') else {
        return false;
    };
    if host_port != port.to_string() {
        return false;
    }
    let is_address = match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(v6) => v6.parse::<Ipv6Addr>().is_ok(),
        None => name.parse::<Ipv4Addr>().is_ok(),
    };
    name.eq_ignore_ascii_case("localhost") || is_address
}

pub fn header(request: &Request, name: &str) -> Option<String> {
    request
        .headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str().to_string())
}

/// The request body as text, at most `MAX_BODY_BYTES`.
pub fn read_body(request: &mut Request) -> Result<String, ApiError> {
    let too_large = || {
        ApiError::too_large(&format!(
            "The request body is larger than {} KiB",
            MAX_BODY_BYTES / 1024
        ))
    };
    if request.body_length().is_some_and(|n| n > MAX_BODY_BYTES) {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ApiError::bad_request(&format!("Cannot read the request body: {e}")))?;
    if bytes.len() > MAX_BODY_BYTES {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|_| ApiError::bad_request("The request body is not UTF-8"))
}

pub fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        413 => "Payload Too Large",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// A whole response, written by `send`.
pub struct Reply {
    status: u16,
    content_type: &'static str,
    extra: Vec<(&'static str, String)>,
    body: Vec<u8>,
    /// The page's own files may be kept by the browser; answers of the API may not.
    cacheable: bool,
}

/// Headers every response carries: the page may use only its own scripts, styles and
/// pictures, and nothing is sniffed or framed.
const SECURITY_HEADERS: &str = "Content-Security-Policy: default-src 'self'; img-src 'self' data:; \
style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'\r\n\
X-Content-Type-Options: nosniff\r\n\
Referrer-Policy: no-referrer\r\n";

/// Writes a response and closes the connection.
///
/// Every response is written here, with `Connection: close`, rather than by tiny_http's
/// `respond`, which keeps connections open and cannot be told otherwise. tiny_http 0.12
/// gives each open connection a thread of a pool that grows only when it sees no idle
/// thread, and a browser keeps several idle connections open: a new connection could then
/// wait until one of them closed (seen as pieces of the board that never loaded). One
/// connection per request costs nothing on one's own computer.
pub fn send(request: Request, reply: Reply) {
    let head_only = request.method() == &Method::Head;
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n{SECURITY_HEADERS}",
        reply.status,
        reason_phrase(reply.status),
        reply.content_type,
        reply.body.len()
    );
    if !reply.cacheable {
        head.push_str("Cache-Control: no-store\r\n");
    }
    for (name, value) in &reply.extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut writer = request.into_writer();
    // A failed write means the client has gone: there is no one to tell.
    let _ = writer
        .write_all(head.as_bytes())
        .and_then(|()| {
            if head_only {
                Ok(())
            } else {
                writer.write_all(&reply.body)
            }
        })
        .and_then(|()| writer.flush());
}

pub fn json(status: u16, body: String) -> Reply {
    Reply {
        status,
        content_type: "application/json; charset=utf-8",
        extra: Vec::new(),
        body: body.into_bytes(),
        cacheable: false,
    }
}

pub fn error(error: &ApiError) -> Reply {
    json(error.status, error.json())
}

/// A PGN file that the browser saves rather than shows. `name` is the server's own
/// (letters, digits, dashes).
pub fn pgn(name: &str, text: String) -> Reply {
    Reply {
        status: 200,
        content_type: "application/x-chess-pgn; charset=utf-8",
        extra: vec![(
            "Content-Disposition",
            format!("attachment; filename=\"{name}\""),
        )],
        body: text.into_bytes(),
        cacheable: false,
    }
}

pub fn asset(content_type: &'static str, bytes: &'static [u8]) -> Reply {
    Reply {
        status: 200,
        content_type,
        extra: Vec::new(),
        body: bytes.to_vec(),
        cacheable: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_hosts_are_addresses_and_localhost_with_the_port() {
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "[::1]:8080",
            "192.168.1.5:8080",
        ] {
            assert!(is_own_host(host, 8080), "{host}");
        }
        for host in [
            "evil.example:8080",
            "127.0.0.1:80",
            "127.0.0.1",
            "localhost.evil.example:8080",
            "",
            "::1:8080",
        ] {
            assert!(!is_own_host(host, 8080), "{host}");
        }
    }
}
