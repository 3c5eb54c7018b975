//! End-to-end tests of `tarpon play`: scripted games through a pipe, as a person would type
//! them, with the PGN Tarpon writes replayed by shakmaty.

use crate::common;

use common::{engine, pgn_check};
use std::io::{Read, Write};
use std::time::Duration;

/// Runs `tarpon play` with `args` (letters, no colours) and the person's lines; returns
/// whether it succeeded, standard output and standard error.
fn play(args: &[&str], input: &str) -> (bool, String, String) {
    play_after(args, input, Duration::ZERO)
}

/// As `play`, with the input typed `delay` after the first prompt appears (a person
/// thinking; waiting for the prompt keeps a slow start from counting as thinking time).
fn play_after(args: &[&str], input: &str, delay: Duration) -> (bool, String, String) {
    let mut child = engine::spawn(&[&["play", "--ascii"], args].concat());
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    if !delay.is_zero() {
        let mut byte = [0u8];
        while !String::from_utf8_lossy(&seen).contains("your move: ") {
            if stdout.read(&mut byte).unwrap() == 0 {
                break;
            }
            seen.push(byte[0]);
        }
        std::thread::sleep(delay);
    }
    let mut stdin = child.stdin.take().unwrap();
    // Tarpon may have exited already (bad arguments): then nobody reads the input.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    stdout.read_to_end(&mut seen).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&seen).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn a_scripted_game_reaches_checkmate_and_saves_a_pgn_that_replays() {
    // A smothered mate: the queen sacrifice leaves Black one legal reply (Rxg8), then the
    // knight mates. The moves are typed in SAN with a check sign, then in UCI.
    let fen = "3r3k/6pp/7N/8/2Q5/8/6PP/6K1 w - - 0 1";
    let path = common::temp_path("mate.pgn");
    let save = path.to_str().unwrap();
    let (ok, out, err) = play(
        &["--fen", fen, "--depth", "1", "--save", save],
        "Qg8+\nh6f7\npgn\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("Tarpon plays 1... Rxg8"), "{out}");
    assert!(out.contains("Checkmate: White wins (1-0)"), "{out}");
    assert!(out.contains(&format!("Saved the game to {save}")), "{out}");
    // The mating move is marked on the board: the knight's squares in brackets.
    assert!(out.contains("[N]") && out.contains("[.]"), "{out}");

    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    let games = pgn_check::replay(&text);
    assert_eq!(games.len(), 1, "{text}");
    let game = &games[0];
    assert_eq!(game.sans, ["Qg8+", "Rxg8", "Nf7#"], "{text}");
    assert_eq!(game.result, "1-0");
    assert_eq!(game.tag("Result"), Some("1-0"));
    assert_eq!(game.tag("FEN"), Some(fen));
    assert_eq!(game.tag("Termination"), Some("normal"));
    assert!(game.tag("Black").unwrap().starts_with("Tarpon"));
    use shakmaty::Position as _;
    assert!(game.final_position.is_checkmate());
    // `pgn` printed the same game.
    assert!(
        out.contains("1. Qg8+ Rxg8 2. Nf7# { Checkmate: White wins } 1-0"),
        "{out}"
    );
}

#[test]
fn hint_undo_flip_bad_input_and_resignation() {
    let path = common::temp_path("resign.pgn");
    let save = path.to_str().unwrap();
    let input = "e4\nhint\nundo\nflip\nbogus\ne5\nNf3\nresign\ne4\nquit\n";
    let (ok, out, err) = play(&["--depth", "2", "--save", save], input);
    assert!(ok, "{err}");
    assert!(out.contains("Hint: 2. "), "{out}");
    assert!(out.contains("Taken back."), "{out}");
    // Flipped: Black at the bottom, files from h to a.
    assert!(out.contains("     h  g  f  e  d  c  b  a"), "{out}");
    assert!(
        out.contains("'bogus' is neither a move nor a command"),
        "{out}"
    );
    assert!(
        out.contains("'e5' is not legal here. Legal moves: "),
        "{out}"
    );
    assert!(out.contains("White resigns: Black wins (0-1)"), "{out}");
    assert!(out.contains("The game is over"), "{out}");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    let game = &pgn_check::replay(&text)[0];
    // e4 and its reply were taken back: the game is Nf3 and Tarpon's answer.
    assert_eq!(game.sans.len(), 2, "{text}");
    assert_eq!(game.sans[0], "Nf3");
    assert_eq!(game.result, "0-1");
}

#[test]
fn draws_are_announced_by_the_rules() {
    for (fen, moves, announcement) in [
        // Black's king can only shuttle a8-b8 while White's rook does: threefold repetition.
        (
            "k7/p7/P1K1B3/8/8/8/8/7R w - - 0 1",
            "Rh2\nRh1\nRh2\nRh1\n",
            "Draw by threefold repetition (1/2-1/2)",
        ),
        (
            "k7/3Q4/8/8/8/8/8/K7 w - - 0 1",
            "Qc7\n",
            "Stalemate: draw (1/2-1/2)",
        ),
        (
            "7k/8/8/8/8/8/1r6/KN6 w - - 0 1",
            "Kxb2\n",
            "Draw: neither side has the material to checkmate (1/2-1/2)",
        ),
        (
            "7k/8/8/8/8/8/8/KR6 w - - 99 80",
            "Rb2\n",
            "Draw by the fifty-move rule (1/2-1/2)",
        ),
    ] {
        let input = format!("{moves}pgn\n");
        let (ok, out, err) = play(&["--fen", fen, "--depth", "3"], &input);
        assert!(ok, "{err}");
        assert!(out.contains(announcement), "{fen}: {out}");
        assert!(out.contains("\n[Result \"1/2-1/2\"]"), "{fen}: {out}");
    }
}

#[test]
fn playing_black_tarpon_moves_first_and_the_board_is_turned() {
    let (ok, out, err) = play(&["--black", "--depth", "1"], "undo\nquit\n");
    assert!(ok, "{err}");
    assert!(out.contains("You play Black"), "{out}");
    assert!(out.contains("Tarpon plays 1. "), "{out}");
    assert!(out.contains("     h  g  f  e  d  c  b  a"), "{out}");
    assert!(
        out.contains("There is no move of yours to take back."),
        "{out}"
    );
}

#[test]
fn a_weakened_tarpon_says_so_and_plays_legal_moves() {
    for args in [&["--elo", "1200"][..], &["--level", "3"][..]] {
        let save = common::temp_path(&format!("weak-{}.pgn", args[0].trim_start_matches('-')));
        let save_text = save.to_str().unwrap().to_string();
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--black", "--save", &save_text]);
        let (ok, out, err) = play(&all, "e5\nNc6\nquit\n");
        assert!(ok, "{err}");
        let elo = if args[0] == "--elo" { "1200" } else { "1100" };
        assert!(out.contains(&format!("playing at Elo {elo}")), "{out}");
        assert!(out.contains("Tarpon plays 1. "), "{out}");
        let pgn = std::fs::read_to_string(&save).unwrap();
        assert!(
            pgn.contains(&format!(
                "[White \"Tarpon {} (Elo {elo})\"]",
                env!("CARGO_PKG_VERSION")
            )),
            "{pgn}"
        );
        let _ = std::fs::remove_file(&save);
    }
}

#[test]
fn a_clock_is_shown_and_a_flag_falls() {
    let (ok, out, _) = play(&["--tc", "1+2", "--depth", "1"], "e4\nquit\n");
    assert!(ok);
    assert!(out.contains("Clock: White 1:00  Black 1:00"), "{out}");
    // After a quick move each, both clocks have gained most of their 2 s increment.
    assert!(out.contains("Clock: White 1:01  Black 1:01"), "{out}");
    // 0.001 minutes is 60 ms: a move typed half a second after the prompt comes too late.
    let (ok, out, _) = play_after(
        &["--tc", "0.001+0", "--depth", "1"],
        "e4\n",
        Duration::from_millis(500),
    );
    assert!(ok);
    assert!(
        out.contains("White ran out of time: Black wins (0-1)"),
        "{out}"
    );
    assert!(!out.contains("Tarpon plays"), "{out}");
}

#[test]
fn bad_arguments_are_explained_with_a_failure_status() {
    for (args, words) in [
        (vec!["--tc", "5+x"], "time control"),
        (
            vec!["--tc", "5+3", "--movetime", "100"],
            "cannot be used with",
        ),
        (vec!["--white", "--black"], "cannot be used with"),
        (vec!["--fen", "not a position"], "bad FEN"),
        (vec!["--depth", "0"], "--depth"),
        (vec!["--colour"], "unexpected argument"),
        (vec!["--elo", "500"], "800..=2800"),
        (vec!["--level", "21"], "0..=20"),
        (vec!["--elo", "1500", "--level", "3"], "cannot be used with"),
    ] {
        let (ok, _, err) = play(&args, "quit\n");
        assert!(!ok, "{args:?}");
        assert!(err.contains(words), "{args:?}: {err}");
    }
}

#[test]
fn a_save_file_that_cannot_be_written_fails_before_the_first_move() {
    let missing = common::temp_path("no-such-folder").join("game.pgn");
    let save = missing.to_str().unwrap();
    let (ok, out, err) = play(&["--depth", "1", "--save", save], "e4\nquit\n");
    assert!(!ok, "{out}");
    assert!(err.contains(&format!("cannot write {save}")), "{err}");
    assert!(!out.contains("your move"), "{out}");
}

/// Reads `stdout` until `count` prompts for the person's move have appeared; returns the
/// text read.
fn read_prompts(stdout: &mut impl Read, count: usize) -> String {
    let mut seen = Vec::new();
    let mut byte = [0u8];
    while String::from_utf8_lossy(&seen)
        .matches("your move: ")
        .count()
        < count
    {
        if stdout.read(&mut byte).unwrap() == 0 {
            break;
        }
        seen.push(byte[0]);
    }
    String::from_utf8_lossy(&seen).into()
}

#[test]
fn the_save_file_holds_every_move_while_the_game_goes_on_and_survives_a_kill() {
    let dir = common::temp_dir("saved-as-it-goes");
    let path = dir.join("game.pgn");
    let mut child = engine::spawn(&[
        "play",
        "--ascii",
        "--depth",
        "1",
        "--save",
        path.to_str().unwrap(),
    ]);
    let mut stdout = child.stdout.take().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"e4\n").unwrap();
    // The second prompt comes after Tarpon's reply: both moves are in the file by then.
    let out = read_prompts(&mut stdout, 2);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}: {out}"));
    let game = &pgn_check::replay(&text)[0];
    assert_eq!(game.sans.len(), 2, "{text}");
    assert_eq!(game.sans[0], "e4");
    // A kill (a crash, or Ctrl-C) leaves the file as it was, and no temporary file.
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(files.len(), 1, "{files:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_resignation_cannot_be_taken_back() {
    let path = common::temp_path("resigned.pgn");
    let save = path.to_str().unwrap();
    let (ok, out, err) = play(
        &["--depth", "1", "--save", save],
        "e4\nresign\nundo\npgn\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("You resigned: the game is over and cannot be taken back."),
        "{out}"
    );
    assert!(!out.contains("Taken back."), "{out}");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    let game = &pgn_check::replay(&text)[0];
    assert_eq!(
        (game.sans.len(), game.result.as_str()),
        (2, "0-1"),
        "{text}"
    );
}

#[test]
fn an_ambiguous_move_names_its_candidates() {
    // Knights on c3 and d4 can both go to b5; three rooks can reach d4 (a4, h4, d1).
    let knights = "4k3/8/8/8/3N4/2N5/8/4K3 w - - 0 1";
    let (ok, out, err) = play(&["--fen", knights, "--depth", "1"], "Nb5\nnb5\nquit\n");
    assert!(ok, "{err}");
    assert!(out.contains("'Nb5' is ambiguous: Ncb5 or Ndb5."), "{out}");
    assert!(out.contains("'nb5' is ambiguous: Ncb5 or Ndb5."), "{out}");
    let rooks = "4k3/8/8/8/R6R/8/8/3RK3 w - - 0 1";
    let (ok, out, err) = play(&["--fen", rooks, "--depth", "1"], "Rd4\nquit\n");
    assert!(ok, "{err}");
    assert!(
        out.contains("'Rd4' is ambiguous: Rdd4, Rad4 or Rhd4."),
        "{out}"
    );
}

/// The lines of the legal-move list in `out`: the first from its label on, then the
/// indented ones that continue it.
fn move_list_lines<'a>(out: &'a str, label: &str) -> Vec<&'a str> {
    let mut lines = out.lines().skip_while(|l| !l.starts_with(label));
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("no '{label}' in {out}"));
    std::iter::once(first)
        .chain(lines.take_while(|l| l.starts_with("  ")))
        .collect()
}

#[test]
fn the_move_list_wraps_between_moves_at_the_width() {
    use shakmaty::{Chess, Position as _, fen::Fen, san::San};
    // 48 legal moves: more than one line of 80 columns.
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let position: Chess = Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    // Output to a pipe has no terminal width: 80 columns, or what COLUMNS says.
    for (columns, width) in [(None, 80), (Some("40"), 40)] {
        let mut command = std::process::Command::new(engine::TARPON);
        command.args(["play", "--ascii", "--depth", "1", "--fen", fen]);
        match columns {
            Some(c) => command.env("COLUMNS", c),
            None => command.env_remove("COLUMNS"),
        };
        let mut child = command
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"moves\nQa8\nquit\n")
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let out = String::from_utf8_lossy(&out.stdout);
        // The list the command prints, and the one an illegal move gets.
        for label in ["Legal moves:", "'Qa8' is not legal here. Legal moves:"] {
            let lines = move_list_lines(&out, label);
            assert!(lines.len() > 1, "{out}");
            assert!(lines.iter().all(|l| l.len() <= width), "{width}: {out}");
            // Every word is a whole legal move, and every legal move is there once.
            let text = lines.join("\n");
            let mut words: Vec<&str> = text[label.len()..].split_whitespace().collect();
            for word in &words {
                let san: San = word.parse().unwrap_or_else(|_| panic!("{word}: {out}"));
                san.to_move(&position)
                    .unwrap_or_else(|_| panic!("{word}: {out}"));
            }
            words.sort_unstable();
            words.dedup();
            assert_eq!(words.len(), position.legal_moves().len(), "{out}");
        }
    }
}

#[test]
fn a_game_on_a_clock_records_the_time_left_after_each_move() {
    let path = common::temp_path("clocked.pgn");
    let save = path.to_str().unwrap();
    let (ok, _, err) = play(
        &["--tc", "1+2", "--depth", "1", "--save", save],
        "e4\nquit\n",
    );
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert_eq!(pgn_check::replay(&text)[0].sans.len(), 2, "{text}");
    // Quick moves: each side has its minute and most of the 2 s increment.
    assert!(text.contains("1. e4 { [%clk 0:01:01] } "), "{text}");
    assert_eq!(text.matches("{ [%clk 0:01:01] }").count(), 2, "{text}");
    assert!(text.contains("[TimeControl \"60+2\"]"), "{text}");
    // Without a clock there is none.
    let (ok, out_plain, _) = play(&["--depth", "1"], "e4\npgn\nquit\n");
    assert!(ok && !out_plain.contains("%clk"), "{out_plain}");
}

#[test]
fn eval_gives_tarpons_evaluation_from_whites_side() {
    // The person plays Black, a queen up: the evaluation is negative (good for Black),
    // as lichess shows it, though the side to move is Black.
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 0 1";
    let (ok, out, err) = play(
        &["--black", "--fen", fen, "--depth", "4"],
        "eval\nhelp\nquit\n",
    );
    assert!(ok, "{err}");
    let line = out
        .lines()
        .find(|l| l.starts_with("Evaluation: "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains(", White's point of view (depth "), "{line}");
    let pawns: f64 = line["Evaluation: ".len()..]
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(pawns < -5.0, "{line}");
    assert!(out.contains("\n  eval "), "help lists it: {out}");
    // A mate is counted in moves, for the side that gives it.
    let mate = "k7/8/1K6/8/8/8/8/7R w - - 0 1";
    let (ok, out, err) = play(&["--fen", mate, "--depth", "4"], "eval\nquit\n");
    assert!(ok, "{err}");
    assert!(
        out.contains("Evaluation: #1, White's point of view: White mates in 1 (depth "),
        "{out}"
    );
}

/// `tarpon` with `args`, its input and output a pseudo-terminal, as in a terminal window:
/// the child, the terminal's other side (what the test types and reads), and what was
/// read from it so far (a thread keeps reading).
#[cfg(unix)]
fn spawn_on_terminal(
    args: &[&str],
) -> (
    std::process::Child,
    std::fs::File,
    std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
) {
    use std::os::fd::FromRawFd;
    // SAFETY: the calls of the POSIX pseudo-terminal API, in its order; each result is
    // checked, and `ptsname`'s static string is copied at once (no other test calls it).
    let (master, slave_name) = unsafe {
        let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(fd >= 0, "posix_openpt");
        assert_eq!(libc::grantpt(fd), 0, "grantpt");
        assert_eq!(libc::unlockpt(fd), 0, "unlockpt");
        let name = libc::ptsname(fd);
        assert!(!name.is_null(), "ptsname");
        let name = std::ffi::CStr::from_ptr(name).to_str().unwrap().to_string();
        (std::fs::File::from_raw_fd(fd), name)
    };
    let slave = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&slave_name)
        .unwrap();
    let child = std::process::Command::new(engine::TARPON)
        .args(args)
        .env("TERM", "xterm")
        .stdin(slave.try_clone().unwrap())
        .stdout(slave.try_clone().unwrap())
        .stderr(slave)
        .spawn()
        .unwrap();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let (mut reader, sink) = (master.try_clone().unwrap(), seen.clone());
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        // Ends when the child has closed the terminal (an error on Linux, 0 elsewhere).
        while let Ok(n @ 1..) = reader.read(&mut buffer) {
            sink.lock().unwrap().extend_from_slice(&buffer[..n]);
        }
    });
    (child, master, seen)
}

/// Waits until `seen` holds `count` copies of `text`; returns all of it.
#[cfg(unix)]
fn wait_for(seen: &std::sync::Mutex<Vec<u8>>, text: &str, count: usize) -> String {
    let start = std::time::Instant::now();
    loop {
        let now = String::from_utf8_lossy(&seen.lock().unwrap()).into_owned();
        if now.matches(text).count() >= count {
            return now;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no {text:?} in {now:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(unix)]
#[test]
fn on_a_terminal_the_clock_runs_while_the_person_and_tarpon_think() {
    let (mut child, mut terminal, seen) =
        spawn_on_terminal(&["play", "--ascii", "--tc", "1+0", "--depth", "1"]);
    wait_for(&seen, "your move: ", 1);
    // The person thinks for over two seconds: their clock, on the line above the prompt,
    // is redrawn at least twice (the cursor goes up to it and back).
    std::thread::sleep(Duration::from_millis(2300));
    terminal.write_all(b"e4\n").unwrap();
    let out = wait_for(&seen, "your move: ", 2);
    terminal.write_all(b"quit\n").unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{out:?}");
    let thinking = &out[out.find("your move: ").unwrap()..out.find("e4").unwrap()];
    let redraws: Vec<&str> = thinking
        .split("\x1b7\x1b[1A\rClock: White ")
        .skip(1)
        .map(|s| &s[..4])
        .collect();
    assert!(redraws.len() >= 2, "{thinking:?}");
    assert!(redraws.iter().all(|t| t.starts_with("0:5")), "{redraws:?}");
    // Tarpon's thinking line carries both clocks, White's stopped at the move.
    assert!(out.contains("Tarpon is thinking...  White 0:5"), "{out:?}");

    // A person who does not move loses on time as the clock runs out (1.2 s here), without
    // typing anything.
    let (mut child, mut terminal, seen) =
        spawn_on_terminal(&["play", "--ascii", "--tc", "0.02+0", "--depth", "1"]);
    wait_for(&seen, "White ran out of time: Black wins (0-1)", 1);
    terminal.write_all(b"quit\n").unwrap();
    assert!(child.wait().unwrap().success());

    // Output to a pipe gets no control sequences and no redraws: one clock line a prompt.
    let (ok, out, _) = play_after(
        &["--tc", "1+0", "--depth", "1"],
        "e4\nquit\n",
        Duration::from_millis(1200),
    );
    assert!(ok, "{out}");
    assert!(!out.contains('\x1b'), "{out:?}");
    assert_eq!(out.matches("Clock: ").count(), 2, "{out}");
}
