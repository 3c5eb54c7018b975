//! HTTP around the API: who may ask (the `Host`/`Origin` check against DNS rebinding and
//! other sites' pages), how much they may send, the embedded page, and the responses.

use super::api::ApiError;
use std::io::Read;
use std::net::{Ipv4Addr, Ipv6Addr};
use tiny_http::{Header, Request, Response};

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

fn header_line(name: &str, value: &str) -> Header {
    // Only the server's own constant names and values, or a file name of digits and
    // letters, come here: they are valid header text.
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .unwrap_or_else(|()| Header::from_bytes(&b"X-Invalid"[..], &b"1"[..]).expect("header"))
}

/// Headers every response carries: the page may use only its own scripts and styles, and
/// nothing is sniffed, framed or cached.
fn with_common_headers<R: Read>(mut response: Response<R>, cache: bool) -> Response<R> {
    let csp = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
               connect-src 'self'; frame-ancestors 'none'";
    response.add_header(header_line("Content-Security-Policy", csp));
    response.add_header(header_line("X-Content-Type-Options", "nosniff"));
    response.add_header(header_line("Referrer-Policy", "no-referrer"));
    if !cache {
        response.add_header(header_line("Cache-Control", "no-store"));
    }
    response
}

pub fn json(status: u16, body: String) -> Response<std::io::Cursor<Vec<u8>>> {
    // Always with a length, never chunked: simple clients read the body to its end.
    let response = Response::from_string(body)
        .with_chunked_threshold(usize::MAX)
        .with_status_code(status)
        .with_header(header_line(
            "Content-Type",
            "application/json; charset=utf-8",
        ));
    with_common_headers(response, false)
}

pub fn error(error: &ApiError) -> Response<std::io::Cursor<Vec<u8>>> {
    json(error.status, error.json())
}

/// A PGN file that the browser saves rather than shows.
pub fn pgn(name: &str, text: String) -> Response<std::io::Cursor<Vec<u8>>> {
    let response = Response::from_string(text)
        .with_chunked_threshold(usize::MAX)
        .with_header(header_line(
            "Content-Type",
            "application/x-chess-pgn; charset=utf-8",
        ))
        .with_header(header_line(
            "Content-Disposition",
            &format!("attachment; filename=\"{name}\""),
        ));
    with_common_headers(response, false)
}

pub fn asset(content_type: &str, bytes: &'static [u8]) -> Response<&'static [u8]> {
    let response = Response::new(
        200.into(),
        vec![header_line("Content-Type", content_type)],
        bytes,
        Some(bytes.len()),
        None,
    );
    with_common_headers(response, true)
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
