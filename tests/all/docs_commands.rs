//! The documentation against the program: every `tarpon` command line shown in a guide
//! must still be one the program accepts, and every relative link must lead somewhere.
//!
//! The guides are README.md, CONTRIBUTING.md and `docs/*.md`. From their fenced code blocks
//! (```` ``` ````, ```` ```sh ````, `bash`, `shell` or `console`; a ```` ```text ```` block
//! is a synopsis with placeholders and is left alone) each line that runs `tarpon`,
//! `./tarpon`, a path ending in `/tarpon` (`target/release/tarpon`) or `cargo run --release
//! -- ...` is taken, with its continuation lines, and checked three ways:
//!
//! 1. its subcommand is one that `tarpon --help` lists;
//! 2. every `--option` (and `-o`) it uses appears in that subcommand's `--help`;
//! 3. the program, run with the same arguments and `--help` added at the end, prints its
//!    help and succeeds. The command-line parser reads every argument before it acts on
//!    `--help`, so an unknown option, a value it cannot read (`--depth ten`) or too many
//!    arguments fail here, while nothing is run.
//!
//! A `tarpon` line indented as a code block outside a fence is an error too: it would not
//! be checked. The logs in `docs/log/` record commands as they were run, with options that
//! may since have changed, so only their links are checked.
//!
//! Links: every `[text](target)` outside code in the guides and the logs whose target is
//! not a web address must name an existing file or folder (relative to the page), and a
//! `#fragment` must name a heading of the page it points to, as GitHub makes its anchors.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TARPON: &str = env!("CARGO_BIN_EXE_tarpon");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.md` files directly in `dir`, sorted.
fn markdown_in(dir: &Path) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages
}

/// The pages whose commands are checked.
fn guides() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md"), root().join("CONTRIBUTING.md")];
    pages.extend(markdown_in(&root().join("docs")));
    pages
}

/// The pages whose links are checked: the guides and the logs.
fn all_pages() -> Vec<PathBuf> {
    let mut pages = guides();
    pages.extend(markdown_in(&root().join("docs/log")));
    pages
}

fn read(page: &Path) -> String {
    std::fs::read_to_string(page).unwrap_or_else(|e| panic!("{}: {e}", page.display()))
}

fn name(page: &Path) -> String {
    page.strip_prefix(root())
        .unwrap_or(page)
        .display()
        .to_string()
}

// --- Markdown ------------------------------------------------------------------------------

/// One line of a page, with its number (from 1) and whether it lies in a fenced block (and
/// that block's language: the first word after the fence, empty for none).
struct Line<'a> {
    number: usize,
    text: &'a str,
    fence: Option<&'a str>,
}

/// The page's lines, each marked with the fenced block it is in; the fence lines
/// themselves are marked as in the block.
fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut open: Option<(&str, &str)> = None; // (marker, language)
    for (i, text) in text.lines().enumerate() {
        let trimmed = text.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        let fence = match (open, marker) {
            (None, Some(m)) => {
                let language = trimmed.trim_start_matches(m).split_whitespace().next();
                open = Some((m, language.unwrap_or("")));
                open.map(|(_, l)| l)
            }
            (Some((m, language)), Some(n)) if m == n && trimmed[n.len()..].trim().is_empty() => {
                open = None;
                Some(language)
            }
            (Some((_, language)), _) => Some(language),
            (None, None) => None,
        };
        out.push(Line {
            number: i + 1,
            text,
            fence,
        });
    }
    out
}

/// Blocks in these languages hold commands to run.
fn is_shell(language: &str) -> bool {
    matches!(language, "" | "sh" | "bash" | "shell" | "console")
}

// --- Command lines -------------------------------------------------------------------------

/// A word of a shell line, or an operator that ends a simple command (`|`, `;`, `&`, `>`,
/// `<`, in any run).
#[derive(Debug, PartialEq)]
enum Token {
    Word(String),
    Operator,
}

/// Splits a shell line into words as the shell would (quotes, backslashes), up to a
/// comment. Variables and globs stay as written: they only ever stand for file names here.
fn tokens(line: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    let finish = |word: &mut String, in_word: &mut bool, out: &mut Vec<Token>| {
        if *in_word {
            out.push(Token::Word(std::mem::take(word)));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            '#' if !in_word => break,
            '|' | ';' | '&' | '>' | '<' => {
                // `2>` is one operator: drop a word of digits that touches it.
                if in_word && c == '>' && word.chars().all(|d| d.is_ascii_digit()) {
                    word.clear();
                    in_word = false;
                }
                finish(&mut word, &mut in_word, &mut out);
                if out.last() != Some(&Token::Operator) {
                    out.push(Token::Operator);
                }
            }
            c if c.is_whitespace() => finish(&mut word, &mut in_word, &mut out),
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    finish(&mut word, &mut in_word, &mut out);
    out
}

/// Programs that run the command that follows them.
const WRAPPERS: [&str; 6] = ["chrt", "nice", "time", "timeout", "nohup", "env"];

fn is_tarpon(word: &str) -> bool {
    word == "tarpon" || word.ends_with("/tarpon")
}

/// The arguments given to `tarpon` by one simple command (the words between operators),
/// if it runs `tarpon`.
fn tarpon_arguments(words: &[String]) -> Option<Vec<String>> {
    let mut rest = words
        .iter()
        .skip_while(|w| {
            w.split_once('=').is_some_and(|(name, _)| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            })
        })
        .peekable();
    if rest.peek().is_some_and(|w| WRAPPERS.contains(&w.as_str())) {
        // The wrapper's own options, up to the program it runs (if it is tarpon at all).
        let mut rest: Vec<&String> = rest.collect();
        let at = rest.iter().position(|w| is_tarpon(w))?;
        return Some(rest.split_off(at + 1).into_iter().cloned().collect());
    }
    let first = rest.next()?;
    if is_tarpon(first) {
        return Some(rest.cloned().collect());
    }
    // cargo run --release [...] -- ARGS, unless it runs an example or another program.
    if first == "cargo" {
        let words: Vec<&String> = rest.collect();
        if words.first().map(|w| w.as_str()) != Some("run") {
            return None;
        }
        let separator = words.iter().position(|w| *w == "--");
        let options = &words[..separator.unwrap_or(words.len())];
        if options
            .iter()
            .any(|w| matches!(w.as_str(), "--example" | "--bin" | "-p" | "--package"))
        {
            return None;
        }
        return Some(match separator {
            Some(at) => words[at + 1..].iter().map(|w| w.to_string()).collect(),
            None => Vec::new(),
        });
    }
    None
}

/// A `tarpon` command line found in a guide.
#[derive(Debug)]
struct Found {
    place: String,
    text: String,
    args: Vec<String>,
}

/// The `tarpon` command lines in the fenced shell blocks of `text`, and the `tarpon`
/// lines indented as code outside any fence (which would not be checked).
fn commands(page: &str, text: &str) -> (Vec<Found>, Vec<String>) {
    let mut found = Vec::new();
    let mut unfenced = Vec::new();
    let all = lines(text);
    let mut i = 0;
    while i < all.len() {
        let line = &all[i];
        i += 1;
        let Some(language) = line.fence else {
            let code = line.text.strip_prefix("    ").map(str::trim_start);
            if let Some(code) = code {
                let words: Vec<String> = tokens(code)
                    .into_iter()
                    .map_while(|t| match t {
                        Token::Word(w) => Some(w),
                        Token::Operator => None,
                    })
                    .collect();
                if tarpon_arguments(&words).is_some() {
                    unfenced.push(format!("{page}:{}: {}", line.number, line.text.trim()));
                }
            }
            continue;
        };
        let trimmed = line.text.trim_start();
        if !is_shell(language) || trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            continue;
        }
        // Continuation lines end with a backslash.
        let mut joined = trimmed.trim_start_matches("$ ").to_string();
        while joined.ends_with('\\') && i < all.len() {
            joined.pop();
            joined.push(' ');
            joined.push_str(all[i].text.trim());
            i += 1;
        }
        let mut words = Vec::new();
        let mut tokens = tokens(&joined).into_iter().peekable();
        while tokens.peek().is_some() {
            words.clear();
            for t in tokens.by_ref() {
                match t {
                    Token::Word(w) => words.push(w),
                    Token::Operator => break,
                }
            }
            if let Some(args) = tarpon_arguments(&words) {
                found.push(Found {
                    place: format!("{page}:{}", line.number),
                    text: joined.trim().to_string(),
                    args,
                });
            }
        }
    }
    (found, unfenced)
}

// --- The program ---------------------------------------------------------------------------

/// Runs `tarpon` with `args` and no input, from a scratch folder, for at most 30 s;
/// returns whether it succeeded, and its standard output and error.
fn run(args: &[String]) -> (bool, String, String) {
    let dir = std::env::temp_dir().join(format!("tarpon-docs-commands-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let mut child = Command::new(TARPON)
        .args(args)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tarpon");
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().expect("tarpon's status").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().expect("tarpon's output");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The subcommands `tarpon --help` lists, with their aliases.
fn subcommands(help: &str) -> HashSet<String> {
    let mut names = HashSet::new();
    let listed = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "));
    for line in listed {
        if let Some(name) = line.split_whitespace().next() {
            names.insert(name.to_string());
        }
        if let Some((_, alias)) = line.split_once("[alias: ") {
            names.extend(
                alias
                    .trim_end_matches(']')
                    .split(", ")
                    .map(|a| a.trim().to_string()),
            );
        }
    }
    names
}

/// Whether `help` names `option` (`--depth`, `-o`) as a whole word.
fn mentions(help: &str, option: &str) -> bool {
    help.match_indices(option).any(|(at, _)| {
        let before = help[..at].chars().next_back();
        let after = help[at + option.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '-')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
    })
}

/// The UCI commands a guide may give as arguments.
const UCI_COMMANDS: [&str; 15] = [
    "uci",
    "isready",
    "setoption",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "quit",
    "bench",
    "genfens",
    "spsa",
    "debug",
    "eval",
    "d",
    "help",
];

/// What is wrong with one command line, if anything.
fn problems(
    found: &Found,
    top_help: &str,
    names: &HashSet<String>,
    helps: &mut HashMap<String, String>,
) -> Vec<String> {
    let mut out = Vec::new();
    // Commands as arguments (`tarpon "genfens 10 seed 1 book None" "quit"`): each must be
    // a UCI command Tarpon knows.
    if found.args.first().is_some_and(|a| a.contains(' ')) {
        for arg in &found.args {
            let word = arg.split_whitespace().next().unwrap_or("");
            if !UCI_COMMANDS.contains(&word) {
                out.push(format!("`{arg}` is not a UCI command Tarpon knows"));
            }
        }
        return out;
    }
    let subcommand = found.args.first().filter(|a| !a.starts_with('-'));
    let help = match subcommand {
        None => top_help.to_string(),
        Some(sub) if !names.contains(sub) => {
            return vec![format!("`{sub}` is not a subcommand of tarpon")];
        }
        Some(sub) => helps
            .entry(sub.clone())
            .or_insert_with(|| run(&[sub.clone(), "--help".to_string()]).1)
            .clone(),
    };
    let options = found
        .args
        .iter()
        .take_while(|a| *a != "--")
        .filter(|a| a.starts_with('-') && a.len() > 1 && a.parse::<f64>().is_err());
    for option in options {
        let option = option.split_once('=').map_or(option.as_str(), |(o, _)| o);
        if !mentions(&help, option) {
            out.push(format!("`{option}` is not in its --help"));
        }
    }
    let mut args = found.args.clone();
    args.push("--help".to_string());
    let (ok, stdout, stderr) = run(&args);
    if !ok || !stdout.contains("Usage: tarpon") {
        let why = stderr
            .lines()
            .next()
            .unwrap_or("no help printed")
            .to_string();
        out.push(format!("tarpon does not accept it: {why}"));
    }
    out
}

#[test]
fn every_tarpon_command_in_the_guides_is_accepted() {
    let (ok, top_help, _) = run(&["--help".to_string()]);
    assert!(ok, "tarpon --help failed");
    let names = subcommands(&top_help);
    assert!(
        names.contains("train") && names.contains("play"),
        "{names:?}"
    );
    let mut helps = HashMap::new();
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut used = HashSet::new();
    for page in guides() {
        let (found, unfenced) = commands(&name(&page), &read(&page));
        for line in unfenced {
            failures.push(format!(
                "{line}\n    a command indented as code is not checked: put it in a ```sh block"
            ));
        }
        for f in found {
            checked += 1;
            if let Some(sub) = f.args.first() {
                used.insert(sub.clone());
            }
            for problem in problems(&f, &top_help, &names, &mut helps) {
                failures.push(format!("{}: {}\n    {problem}", f.place, f.text));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "commands in the documentation that tarpon does not accept:\n{}",
        failures.join("\n")
    );
    eprintln!("{checked} tarpon commands checked, subcommands {used:?}");
    // The guides show a good many commands; finding few means the search for them broke.
    assert!(
        checked >= 40,
        "only {checked} tarpon commands found in the guides"
    );
    for sub in [
        "play", "analyse", "serve", "datagen", "train", "convert", "bench",
    ] {
        assert!(
            used.contains(sub),
            "no `tarpon {sub}` command found in the guides"
        );
    }
}

// --- Links ---------------------------------------------------------------------------------

/// `text` without its inline code spans.
fn without_code(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
        }
    }
    out
}

/// The link targets of a page, with their line numbers: inline links and images
/// (`[text](target)`) and reference definitions (`[name]: target`), outside code.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for line in lines(text) {
        if line.fence.is_some() || line.text.starts_with("    ") {
            continue;
        }
        let prose = without_code(line.text);
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            out.push((line.number, target.to_string()));
            rest = &rest[end..];
        }
        let trimmed = prose.trim_start();
        if trimmed.starts_with('[')
            && let Some((_, target)) = trimmed.split_once("]: ")
        {
            out.push((
                line.number,
                target.split_whitespace().next().unwrap_or("").to_string(),
            ));
        }
    }
    out
}

/// The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as
/// hyphens, a repeated anchor numbered.
fn anchors(text: &str) -> HashSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = HashSet::new();
    for line in lines(text) {
        if line.fence.is_some() {
            continue;
        }
        let hashes = line.text.chars().take_while(|c| *c == '#').count();
        if !(1..=6).contains(&hashes) || !line.text[hashes..].starts_with(' ') {
            continue;
        }
        let title = line.text[hashes..].trim().trim_end_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.insert(if *n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        *n += 1;
    }
    out
}

#[test]
fn every_relative_link_in_the_documentation_leads_somewhere() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for page in all_pages() {
        let text = read(&page);
        for (number, target) in links(&text) {
            let place = format!("{}:{number}: ({target})", name(&page));
            if target.is_empty() {
                failures.push(format!("{place}: an empty link"));
                continue;
            }
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, fragment) = match target.split_once('#') {
                Some((path, fragment)) => (path, Some(fragment)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                page.clone()
            } else {
                page.parent().expect("a page's folder").join(path)
            };
            if !file.exists() {
                failures.push(format!("{place}: no such file"));
                continue;
            }
            if let Some(fragment) = fragment
                && file.extension().is_some_and(|e| e == "md")
                && !anchors(&read(&file)).contains(fragment)
            {
                failures.push(format!("{place}: no heading #{fragment} there"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "broken links in the documentation:\n{}",
        failures.join("\n")
    );
    eprintln!("{checked} relative links checked");
    assert!(checked >= 20, "only {checked} relative links found");
}

// --- The checks' own parts -----------------------------------------------------------------

#[test]
fn command_lines_are_split_as_the_shell_splits_them() {
    let words = |line: &str| -> Vec<String> {
        tokens(line)
            .into_iter()
            .map_while(|t| match t {
                Token::Word(w) => Some(w),
                Token::Operator => None,
            })
            .collect()
    };
    let args = |line: &str| tarpon_arguments(&words(line));
    assert_eq!(
        args("tarpon analyse --fen 'r1b k w - -' --depth 18   # a comment"),
        Some(
            vec!["analyse", "--fen", "r1b k w - -", "--depth", "18"]
                .into_iter()
                .map(String::from)
                .collect()
        )
    );
    assert_eq!(
        args("target/release/tarpon bench 13 2"),
        Some(vec!["bench".into(), "13".into(), "2".into()])
    );
    assert_eq!(
        args("chrt --idle 0 tarpon datagen -o x"),
        Some(vec!["datagen".into(), "-o".into(), "x".into()])
    );
    assert_eq!(args("TARPON_NET=a.nnue cargo build --release"), None);
    assert_eq!(
        args("cargo run --release -- perft 6"),
        Some(vec!["perft".into(), "6".into()])
    );
    assert_eq!(args("cargo run --release"), Some(vec![]));
    assert_eq!(args("cargo run --release --example nnue_speed"), None);
    assert_eq!(args("python3 x.py --engine target/release/tarpon"), None);
    assert_eq!(
        args("tarpon analyse --pgn g.pgn > out.pgn"),
        Some(vec!["analyse".into(), "--pgn".into(), "g.pgn".into()])
    );

    let page = "text\n\n```sh\ntarpon play \\\n    --black\necho uci | tarpon\n```\n\n```text\ntarpon play [--black]\n```\n\n    tarpon bench\n";
    let (found, unfenced) = commands("page.md", page);
    let found: Vec<(String, Vec<String>)> = found.into_iter().map(|f| (f.place, f.args)).collect();
    assert_eq!(
        found,
        vec![
            (
                "page.md:4".to_string(),
                vec!["play".to_string(), "--black".to_string()]
            ),
            ("page.md:6".to_string(), vec![]),
        ]
    );
    assert_eq!(unfenced, vec!["page.md:13: tarpon bench".to_string()]);
}

#[test]
fn options_are_found_in_help_only_as_whole_words() {
    let help = "  -o, --output <FILE>  where\n      --lr-drop <EPOCH>  when\n";
    assert!(mentions(help, "--output") && mentions(help, "-o") && mentions(help, "--lr-drop"));
    assert!(!mentions(help, "--lr") && !mentions(help, "--out") && !mentions(help, "-l"));
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let page = "# Tarpon\n## The `tarpon serve` page: its API\n## Binaries for other computers\n```sh\n# not a heading\n```\n## Binaries for other computers\n";
    let found = anchors(page);
    for anchor in [
        "tarpon",
        "the-tarpon-serve-page-its-api",
        "binaries-for-other-computers",
        "binaries-for-other-computers-1",
    ] {
        assert!(found.contains(anchor), "{anchor} in {found:?}");
    }
    assert!(!found.contains("not-a-heading"));
    assert_eq!(
        links("[a](docs/x.md#y) and `[b](not/a/link)` and ![c](d.png \"t\")\n[ref]: e.md\n"),
        vec![
            (1, "docs/x.md#y".to_string()),
            (1, "d.png".to_string()),
            (2, "e.md".to_string())
        ]
    );
}
