//! The measurement IDs: every row of the experiment logs (`docs/log/search.md` and
//! `docs/log/networks.md`) has a stable ID (`S-12`, `N-40`, `P-3`), and the code cites a
//! measurement only by such an ID, as "(S-12)" or "(~53 Elo, S-12)". These tests check
//! that each ID cited in the sources names a row, that the IDs run 1, 2, 3, ... in each
//! table, and that a figure beside an ID is the row's own and its interval is clear of
//! zero (the only kind of figure the code may carry).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// An ID at the start of `text` ("S-12..."): its prefix letter and number, and its length.
fn id_at(text: &str) -> Option<(char, u32, usize)> {
    let mut chars = text.char_indices();
    let (_, letter) = chars.next()?;
    if !matches!(letter, 'S' | 'N' | 'P') || !text[1..].starts_with('-') {
        return None;
    }
    let digits: String = text[2..].chars().take_while(char::is_ascii_digit).collect();
    let after = text[2 + digits.len()..].chars().next();
    if digits.is_empty() || after.is_some_and(|c| c.is_alphanumeric()) {
        return None;
    }
    Some((letter, digits.parse().ok()?, 2 + digits.len()))
}

/// Every ID in `text` that stands as a word of its own, with its byte offset.
fn ids_in(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (at, _) in text.char_indices() {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_') {
            continue;
        }
        if let Some((letter, number, _)) = id_at(&text[at..]) {
            found.push((at, format!("{letter}-{number}")));
        }
    }
    found
}

/// The log rows by ID, each with its full text: the table row and, where its cells were
/// cut short, its section in `notes.md`.
fn log_rows() -> HashMap<String, String> {
    let log = root().join("docs/log");
    let mut rows = HashMap::new();
    for page in ["search.md", "networks.md"] {
        let mut next: HashMap<char, u32> = HashMap::new();
        for line in read(&log.join(page)).lines() {
            let Some(cell) = line.strip_prefix("| ") else {
                continue;
            };
            let Some((letter, number, _)) = id_at(cell) else {
                continue;
            };
            let expected = next.entry(letter).or_insert(1);
            assert_eq!(
                number, *expected,
                "{page}: row {letter}-{number} out of order (expected {letter}-{expected})"
            );
            *expected += 1;
            let id = format!("{letter}-{number}");
            assert!(
                rows.insert(id.clone(), line.to_string()).is_none(),
                "{id} twice"
            );
        }
    }
    let notes = read(&log.join("notes.md"));
    for section in notes.split("\n## ").skip(1) {
        let id = section.lines().next().unwrap_or("").trim().to_string();
        let row = rows
            .get_mut(&id)
            .unwrap_or_else(|| panic!("notes.md: a section for {id}, which no log row has"));
        row.push('\n');
        row.push_str(section);
    }
    rows
}

/// The `.rs` files under `dir`, recursively.
fn sources(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// The Elo figures "+x ± y" of a row's text, as (x, y).
fn figures(text: &str) -> Vec<(f64, f64)> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices(" ± ") {
        let before: String = text[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '+' || *c == '-')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let after: String = text[at + " ± ".len()..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        if let (Ok(x), Ok(y)) = (before.parse::<f64>(), after.parse::<f64>()) {
            found.push((x, y));
        }
    }
    found
}

/// The figure "~N Elo" at the end of `text`, the text before an ID ("(~53 Elo, " before
/// "S-12)"), if there is one.
fn figure_before(text: &str) -> Option<f64> {
    // A comment may break the line between the figure and the ID.
    let mut head = text.trim_end();
    while let Some(rest) = ["///", "//!", "//"]
        .iter()
        .find_map(|m| head.strip_suffix(m))
    {
        head = rest.trim_end();
    }
    let head = head.strip_suffix(',')?.trim_end();
    let (head, tail) = head.rsplit_once(" Elo")?;
    if !(tail.is_empty() || tail.starts_with(" at ")) {
        return None;
    }
    let number: String = head
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let tilde = head[..head.len() - number.len()].ends_with('~');
    if number.is_empty() || !tilde {
        return None;
    }
    number.parse().ok()
}

#[test]
fn every_measurement_cited_in_the_code_is_a_row_of_the_logs() {
    let rows = log_rows();
    assert!(rows.contains_key("S-1") && rows.contains_key("N-1") && rows.contains_key("P-1"));
    let mut files = Vec::new();
    for dir in ["src", "examples", "tests", "benches"] {
        if root().join(dir).is_dir() {
            sources(&root().join(dir), &mut files);
        }
    }
    let mut cited = 0;
    let mut failures = Vec::new();
    for file in files.iter().filter(|f| !f.ends_with("log_ids.rs")) {
        let text = read(file);
        for (at, id) in ids_in(&text) {
            let line = text[..at].lines().count();
            let place = format!("{}:{line}", file.strip_prefix(root()).unwrap().display());
            let Some(row) = rows.get(&id) else {
                failures.push(format!("{place}: {id} is no row of docs/log"));
                continue;
            };
            cited += 1;
            // A line may state the figure in its own words across a line break; the
            // "(~N Elo, ID)" form is checked wherever it is used.
            let line_start = text[..at].rfind('(').unwrap_or(at);
            if let Some(elo) = figure_before(&text[line_start..at]) {
                let ok = figures(row)
                    .iter()
                    .any(|&(x, y)| (x.round() - elo).abs() <= 1.0 && x - y > 0.0);
                if !ok {
                    failures.push(format!(
                        "{place}: ~{elo} Elo is not a figure of {id} with an interval clear of zero"
                    ));
                }
            }
        }
    }
    assert!(
        cited >= 20,
        "only {cited} citations found: is the pattern still right?"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_code_carries_no_raw_interval_figures() {
    // Figures live in the logs; the code carries at most "(~N Elo, S-ID)".
    let mut files = Vec::new();
    sources(&root().join("src/search"), &mut files);
    let mut failures = Vec::new();
    for file in &files {
        for (n, line) in read(file).lines().enumerate() {
            if line.contains(" ± ") && (line.contains("//") || line.contains("///")) {
                failures.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ids_are_found_only_as_whole_words() {
    let found: Vec<String> = ids_in("(~53 Elo, S-12) S-ID N-4x ROWS-3 P-7. XS-2")
        .into_iter()
        .map(|(_, id)| id)
        .collect();
    assert_eq!(found, ["S-12", "P-7"]);
    assert_eq!(figure_before("(~53 Elo, "), Some(53.0));
    assert_eq!(figure_before("(~14 Elo at 3+0.03, "), Some(14.0));
    assert_eq!(figure_before("(singular extension: "), None);
    assert_eq!(figure_before("(~20 Elo,\n    // "), Some(20.0));
    assert_eq!(
        figures("+10.2 ± 8.6 over 4,100 games; -1.3 ± 16.1"),
        [(10.2, 8.6), (-1.3, 16.1)]
    );
}
