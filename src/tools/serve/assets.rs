//! The page's files, embedded in the binary: the server reads no file at run time, and a
//! request's path is only ever compared with this list.

use super::api::{Answer, ApiError};

/// Path, content type, contents.
type Asset = (&'static str, &'static str, &'static [u8]);

const HTML: &str = "text/html; charset=utf-8";
const SVG: &str = "image/svg+xml";

/// Embeds one piece's picture under `/pieces/NAME.svg`.
macro_rules! piece {
    ($name:literal) => {
        (
            concat!("/pieces/", $name, ".svg"),
            SVG,
            include_bytes!(concat!("assets/pieces/", $name, ".svg")),
        )
    };
}

const ASSETS: &[Asset] = &[
    ("/", HTML, include_bytes!("assets/index.html")),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/app.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_bytes!("assets/style.css"),
    ),
    ("/favicon.svg", SVG, include_bytes!("assets/pieces/wN.svg")),
    piece!("wK"),
    piece!("wQ"),
    piece!("wR"),
    piece!("wB"),
    piece!("wN"),
    piece!("wP"),
    piece!("bK"),
    piece!("bQ"),
    piece!("bR"),
    piece!("bB"),
    piece!("bN"),
    piece!("bP"),
];

/// A file of the page, by its path.
pub fn answer(method: &str, path: &str) -> Result<Answer, ApiError> {
    let path = if path == "/index.html" { "/" } else { path };
    let Some(&(_, content_type, bytes)) = ASSETS.iter().find(|(p, _, _)| *p == path) else {
        return Err(ApiError::not_found(&format!(
            "There is no page '{path}' here"
        )));
    };
    if method != "GET" && method != "HEAD" {
        return Err(ApiError::method_not_allowed(
            "The page's files are only read (GET)",
        ));
    }
    Ok(Answer::Asset(content_type, bytes))
}
