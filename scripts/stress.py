#!/usr/bin/env python3
"""Stress games: Tarpon plays itself over raw UCI pipes, acting as an impatient GUI, and
every failure a tournament would see is counted. Run it through scripts/stress.sh.

Each game has two engine processes that live for the whole run (as in a long
tournament), and before every game each gets a random set of option changes: `Hash`,
`Threads` (1 or 2), `MultiPV`, `Clear Hash`, and `UCI_Chess960`, on in a quarter of the
games, which then start from a random Chess960 position. Games alternate between a
1+0.01 clock (`go wtime/btime/winc/binc`) and `go movetime 10`. During a search the
driver sometimes sends `isready` (which must be answered with `readyok` at once) or `stop`
(which must bring a legal `bestmove` at once) at a random moment.

Counted, and the run fails if any is not zero:
- crashes: the engine exits, closes its output, or prints a Rust panic on stderr;
- hangs: no `bestmove` (or `readyok`) long after it was due;
- illegal moves: a `bestmove` or `ponder` move that is not legal, or not written the UCI
  way for the game's mode (`e1g1` in standard chess, king takes rook in Chess960);
- time losses: a move that takes longer than the clock had left (plus `--margin`), or,
  under `movetime`, longer than the move time plus `--margin`;
- bad info lines: an `info` line that does not parse (unknown or malformed fields, a
  `pv` that is not a legal sequence from the position searched);
- protocol errors: any other unexpected line, such as an `info string error` (the
  driver only sends valid commands) or a second `bestmove`.
Failures are described on stderr with the end of that engine's conversation.

Needs python-chess (pip install chess).
"""

import argparse
import collections
import queue
import random
import subprocess
import sys
import threading
import time

import chess

# The fixed-time control and the clock (milliseconds).
MOVETIME_MS = 10
CLOCK_MS = 1000
INCREMENT_MS = 10
# A game still running after this many plies is adjudicated a draw: the point is the
# engine's behaviour over many moves, not the result.
MAX_PLIES = 400
# How long past its due time an answer may be late before the engine counts as hung.
HANG_GRACE_S = 5.0

OVER_THRESHOLDS = [0, 5, 20, 50, 100]

COUNTERS = ["crashes", "hangs", "illegal_moves", "time_losses", "bad_info", "protocol_errors"]


class Engine:
    """One engine process. A reader thread time-stamps each output line as it arrives, so
    the time a move took is measured when its `bestmove` came, not when it was read."""

    def __init__(self, path, name):
        self.path = path
        self.name = name
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            [self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.transcript = collections.deque(maxlen=40)
        self.stderr_text = []
        threading.Thread(target=self._read_stdout, args=(self.proc, self.lines), daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(self.proc, self.stderr_text), daemon=True).start()

    @staticmethod
    def _read_stdout(proc, lines):
        for line in proc.stdout:
            lines.put((time.monotonic(), line.rstrip("\n")))
        lines.put((time.monotonic(), None))

    @staticmethod
    def _read_stderr(proc, sink):
        for line in proc.stderr:
            sink.append(line.rstrip("\n"))

    def send(self, line):
        self.transcript.append("> " + line)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the engine died; the next read reports it

    def read(self, timeout):
        """The next (time, line); line None when the engine closed its output, and
        (None, None) when nothing came in time."""
        try:
            stamp, line = self.lines.get(timeout=max(timeout, 0))
        except queue.Empty:
            return None, None
        if line is not None:
            self.transcript.append(line)
        return stamp, line

    def panicked(self):
        return any("panicked" in line for line in self.stderr_text)

    def alive(self):
        return self.proc.poll() is None and not self.panicked()

    def restart(self):
        self.stop()
        self.start()

    def stop(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def tail(self):
        text = "\n".join("    " + line for line in self.transcript)
        if self.stderr_text:
            text += "\n    stderr:\n" + "\n".join("    " + line for line in self.stderr_text[-20:])
        return text


class Failure(Exception):
    """A counted failure that ends the game; `kind` is one of COUNTERS."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind
        # The engine it happened with, filled in by the game.
        self.engine = None


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = dict.fromkeys(COUNTERS, 0)
        self.games = collections.Counter()
        self.moves = 0
        self.worst_overrun_ms = {"clock": -1e9, "movetime": -1e9}
        # Moves that went over their time by more than each threshold (ms), per control:
        # how close the engine runs to the limit, whether or not `--margin` forgave it.
        self.over = {control: dict.fromkeys(OVER_THRESHOLDS, 0) for control in ("clock", "movetime")}
        self.stops = 0
        # Time losses where the engine's last `info` time was within the allowance.
        self.lost_outside = 0
        self.readys = 0

    def fail(self, kind, engine, message):
        with self.lock:
            self.counts[kind] += 1
            print(f"FAIL {kind}: {engine.name}: {message}\n{engine.tail()}", file=sys.stderr, flush=True)


def check_info(line, board):
    """Raises ValueError if `line` is not a well-formed `info` line for a search of
    `board` (a pv must be legal from it)."""
    words = line.split()[1:]
    if not words:
        raise ValueError("empty info line")
    integer_fields = {"depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "tbhits",
                      "time", "currmovenumber"}
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word == "string":
            if " ".join(words[i:]).startswith("error"):
                raise ValueError("an error reported")
            return
        if word in integer_fields:
            value = int(words[i])  # ValueError or IndexError when missing or malformed
            i += 1
            if value < 0 or (word == "hashfull" and value > 1000) or (word == "multipv" and value < 1):
                raise ValueError(f"{word} {value} out of range")
        elif word == "score":
            kind = words[i]
            if kind not in ("cp", "mate"):
                raise ValueError(f"score {kind}")
            int(words[i + 1])
            i += 2
            if i < len(words) and words[i] in ("lowerbound", "upperbound"):
                i += 1
        elif word == "wdl":
            if sum(int(w) for w in words[i:i + 3]) != 1000:
                raise ValueError("wdl does not add up to 1000")
            i += 3
        elif word == "currmove":
            board.parse_uci(words[i])
            i += 1
        elif word == "pv":
            moves = words[i:]
            if not moves:
                raise ValueError("empty pv")
            after = board.copy(stack=False)
            for text in moves:
                move = after.parse_uci(text)  # raises ValueError if illegal
                if after.uci(move) != text:
                    raise ValueError(f"pv move {text} is not in UCI form for this mode")
                after.push(move)
            return
        else:
            raise ValueError(f"unknown field {word!r}")


def reported_time(infos):
    """The `time` of the last `info` line that has one: how long the engine thinks it took."""
    for line in reversed(infos):
        words = line.split()
        if "time" in words:
            return int(words[words.index("time") + 1])
    return None


def parse_bestmove(line, board):
    """The move of a `bestmove` line, checked; raises Failure for an illegal one."""
    words = line.split()
    if len(words) not in (2, 4) or (len(words) == 4 and words[2] != "ponder"):
        raise Failure("protocol_errors", f"malformed {line!r}")
    try:
        move = board.parse_uci(words[1])
    except ValueError:
        raise Failure("illegal_moves", f"{line!r} in {board.fen()}")
    if board.uci(move) != words[1]:
        raise Failure("illegal_moves", f"{words[1]} is not the UCI form of {board.uci(move)} "
                                        f"in {board.fen()}")
    if len(words) == 4:
        after = board.copy(stack=False)
        after.push(move)
        try:
            after.parse_uci(words[3])
        except ValueError:
            raise Failure("illegal_moves", f"ponder move in {line!r} is illegal in {after.fen()}")
    return move


class Game:
    def __init__(self, index, engines, rng, args, stats):
        self.index = index
        self.engines = engines
        self.rng = rng
        self.args = args
        self.stats = stats
        self.clock_game = index % 2 == 0
        # Threads alternate every two games so each control is played with both.
        self.threads = 1 + (index // 2) % 2
        self.chess960 = rng.random() < 0.25

    def setup(self, engine):
        """New options and a new game for one engine, then `isready`."""
        changes = [
            f"setoption name Threads value {self.threads}",
            f"setoption name Hash value {self.rng.choice([1, 2, 8, 16, 32, 64])}",
            f"setoption name MultiPV value {self.rng.choice([1, 1, 1, 2, 3, 5])}",
            f"setoption name UCI_Chess960 value {'true' if self.chess960 else 'false'}",
        ]
        if self.rng.random() < 0.3:
            changes.append("setoption name Clear Hash")
        self.rng.shuffle(changes)
        for line in changes:
            engine.send(line)
        engine.send("ucinewgame")
        self.expect_readyok(engine, 10.0)

    def expect_readyok(self, engine, timeout):
        engine.send("isready")
        deadline = time.monotonic() + timeout
        while True:
            stamp, line = engine.read(deadline - time.monotonic())
            if stamp is None:
                raise Failure("hangs", "no readyok")
            if line is None:
                raise Failure("crashes", "engine closed its output")
            if line == "readyok":
                return
            self.unexpected(engine, line, None)

    def unexpected(self, engine, line, board):
        """A line outside a search answer: only `info string` notes are allowed."""
        if line.startswith("info string") and "error" not in line:
            return
        if line.startswith("info") and board is not None:
            return
        raise Failure("protocol_errors", f"unexpected line {line!r}")

    def start_board(self):
        if self.chess960:
            board = chess.Board.from_chess960_pos(self.rng.randrange(960))
        else:
            board = chess.Board()
        # A few random plies, so that games differ even with the same start. The moves are
        # kept as UCI text in the game's mode (king takes rook for castling in Chess960).
        played = []
        for _ in range(self.rng.randrange(2, 7)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            move = self.rng.choice(moves)
            played.append(board.uci(move))
            board.push(move)
        return board, played

    def play(self):
        white, black = self.engines if self.index % 4 < 2 else self.engines[::-1]
        for engine in (white, black):
            try:
                self.setup(engine)
            except Failure as failure:
                failure.engine = engine
                raise
        board, played = self.start_board()
        start_fen = board.root().fen()
        position = "startpos" if start_fen == chess.STARTING_FEN else f"fen {start_fen}"
        clocks = {chess.WHITE: CLOCK_MS, chess.BLACK: CLOCK_MS}
        while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
            engine = white if board.turn == chess.WHITE else black
            moves = " ".join(played)
            engine.send(f"position {position}" + (f" moves {moves}" if moves else ""))
            if self.clock_game:
                go = (f"go wtime {clocks[chess.WHITE]} btime {clocks[chess.BLACK]} "
                      f"winc {INCREMENT_MS} binc {INCREMENT_MS}")
                allowed = clocks[board.turn]
            else:
                go = f"go movetime {MOVETIME_MS}"
                allowed = MOVETIME_MS
            try:
                move, used = self.search(engine, board, go, allowed)
            except Failure as failure:
                failure.engine = engine
                raise
            overrun = used - allowed
            kind = "clock" if self.clock_game else "movetime"
            with self.stats.lock:
                self.stats.moves += 1
                self.stats.worst_overrun_ms[kind] = max(self.stats.worst_overrun_ms[kind], overrun)
                for threshold in OVER_THRESHOLDS:
                    self.stats.over[kind][threshold] += overrun > threshold
            if overrun > self.args.margin:
                reported = self.last_reported_ms
                if reported is not None and reported <= allowed:
                    # The engine's own clock says it answered in time: the rest was lost
                    # between the processes (scheduling, pipes), which only a larger
                    # Move Overhead can cover.
                    with self.stats.lock:
                        self.stats.lost_outside += 1
                failure = Failure("time_losses", f"{used:.1f} ms used, {allowed} ms allowed ({go}); "
                                                 f"the engine's last info said time "
                                                 f"{self.last_reported_ms} ms")
                failure.engine = engine
                raise failure
            if self.clock_game:
                # An overrun that the margin forgives leaves the clock at zero rather than
                # below: forgiven delays must not add up to a loss over the next moves.
                clocks[board.turn] = max(int(clocks[board.turn] - used), 0) + INCREMENT_MS
            played.append(board.uci(move))
            board.push(move)
        return board.result(claim_draw=True) if board.is_game_over(claim_draw=True) else "1/2-1/2"

    def search(self, engine, board, go, allowed_ms):
        """Sends `go`, sometimes `isready` or `stop` at a random moment, and reads until
        `bestmove`. Returns the move and the milliseconds it took."""
        events = []
        roll = self.rng.random()
        if roll < 0.15:
            events.append(("isready", self.rng.uniform(0, allowed_ms / 40) / 1000))
        elif roll < 0.20:
            events.append(("stop", self.rng.uniform(0, allowed_ms / 40) / 1000))
        elif roll < 0.23:
            events.append(("isready", 0.0))
            events.append(("stop", self.rng.uniform(0, 0.005)))
        # A `stop` that crosses the `bestmove` on its way, as a GUI's can: it must be
        # ignored, with no second `bestmove`.
        late_stop = self.rng.random() < 0.05
        engine.send(go)
        sent = time.monotonic()
        due = sent + allowed_ms / 1000 + HANG_GRACE_S
        ready_pending = 0
        best = None
        infos = []
        while best is None or ready_pending:
            now = time.monotonic()
            if best is None and events:
                wait = min(events[0][1] - (now - sent), due - now)
            else:
                wait = due - now
            stamp, line = engine.read(wait)
            if stamp is None:
                if best is None and events and time.monotonic() - sent >= events[0][1]:
                    command, _ = events.pop(0)
                    engine.send(command)
                    with self.stats.lock:
                        if command == "stop":
                            self.stats.stops += 1
                        else:
                            self.stats.readys += 1
                    ready_pending += command == "isready"
                    continue
                raise Failure("hangs", "no bestmove" if best is None else "no readyok")
            if line is None:
                raise Failure("crashes", "engine closed its output")
            if line == "readyok" and ready_pending:
                ready_pending -= 1
            elif line.startswith("bestmove") and best is None:
                best = (parse_bestmove(line, board), (stamp - sent) * 1000)
                # An `isready` that never went out is dropped with the rest.
                events = []
                if late_stop:
                    engine.send("stop")
                    engine.send("isready")
                    ready_pending += 1
                    due = time.monotonic() + HANG_GRACE_S
            elif line.startswith("info") and best is None:
                infos.append(line)
            else:
                raise Failure("protocol_errors", f"unexpected line {line!r}")
        # Checked only now, so that the time spent checking them cannot delay the reading
        # of `bestmove` and count against the engine.
        for line in infos:
            try:
                check_info(line, board)
            except (ValueError, IndexError, AssertionError) as e:
                raise Failure("bad_info", f"{line!r}: {e}")
        self.last_reported_ms = reported_time(infos)
        return best


def worker(args, stats, next_game, rng_seed, worker_id):
    rng = random.Random(rng_seed)
    engines = [Engine(args.engine, f"worker {worker_id} engine {i}") for i in range(2)]
    try:
        for engine in engines:
            engine.send("uci")
            deadline = time.monotonic() + 10
            while True:
                stamp, line = engine.read(deadline - time.monotonic())
                if line == "uciok":
                    break
                if stamp is None or line is None:
                    stats.fail("crashes", engine, "no uciok")
                    return
        while True:
            index = next_game()
            if index is None:
                return
            game = Game(index, engines, rng, args, stats)
            try:
                result = game.play()
                outcome = "ok"
            except Failure as failure:
                # A dead engine explains whatever went wrong: count the crash.
                dead = next((e for e in engines if not e.alive()), None)
                kind = "crashes" if dead is not None else failure.kind
                culprit = dead or failure.engine or engines[0]
                stats.fail(kind, culprit, f"game {index}: {failure}")
                result, outcome = "*", kind
                # A failed game leaves the conversation in an unknown state: start afresh.
                for engine in engines:
                    engine.restart()
                    engine.send("uci")
                    while True:
                        stamp, line = engine.read(10)
                        if line == "uciok" or stamp is None or line is None:
                            break
            with stats.lock:
                stats.games[("clock" if game.clock_game else "movetime", game.threads,
                             game.chess960)] += 1
            if args.verbose:
                kind = "1+0.01" if game.clock_game else f"movetime {MOVETIME_MS}"
                print(f"game {index}: {kind}, Threads {game.threads}, "
                      f"{'Chess960' if game.chess960 else 'standard'}: {result} ({outcome})",
                      flush=True)
    finally:
        for engine in engines:
            engine.stop()
            if engine.panicked():
                stats.fail("crashes", engine, "panic on stderr at the end of the run")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="target/release/tarpon")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=1,
                        help="games played at once (each uses two engine processes)")
    parser.add_argument("--margin", type=float, default=0.0,
                        help="milliseconds a move may exceed its time before it counts as lost "
                             "(a forgiven overrun leaves the clock at zero)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--verbose", action="store_true", help="one line per game")
    args = parser.parse_args()
    # The reader threads time-stamp the engines' lines as they arrive; a short switch
    # interval keeps the main thread from holding them off for the default 5 ms.
    sys.setswitchinterval(0.0005)
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    print(f"stress: {args.games} games, concurrency {args.concurrency}, seed {seed}, "
          f"engine {args.engine}", flush=True)

    stats = Stats()
    lock = threading.Lock()
    counter = iter(range(args.games))

    def next_game():
        with lock:
            return next(counter, None)

    started = time.monotonic()
    threads = [threading.Thread(target=worker, args=(args, stats, next_game, seed + i, i))
               for i in range(args.concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    played = sum(stats.games.values())
    minutes = (time.monotonic() - started) / 60
    print(f"\n{played} games, {stats.moves} moves in {minutes:.1f} minutes "
          f"({stats.stops} stops and {stats.readys} isready sent during searches)")
    for (control, threads, chess960), count in sorted(stats.games.items()):
        name = "1+0.01" if control == "clock" else f"movetime {MOVETIME_MS}"
        print(f"  {count:5} games {name:12} Threads {threads} "
              f"{'Chess960' if chess960 else 'standard'}")
    for control, worst in stats.worst_overrun_ms.items():
        if worst > -1e9:
            over = ", ".join(f">{t} ms: {n}" for t, n in stats.over[control].items())
            print(f"  {control}: worst {worst:+.1f} ms against the time allowed; moves over by {over}")
    for name in COUNTERS:
        print(f"{name:16} {stats.counts[name]}")
    if stats.counts["time_losses"]:
        print(f"  (of the time losses, {stats.lost_outside} with the engine's own last info "
              f"time within the time allowed: lost outside its search)")
    failed = played < args.games or any(stats.counts.values())
    print("stress: FAILED" if failed else "stress: passed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
