#!/usr/bin/env python3
"""How long Tarpon thinks on the board's clock, beside the same positions through UCI.

Plays a few openings against `tarpon serve` on a clock (the person has White and plays the
moves below; Tarpon answers), times each reply, then gives every one of those positions
with the same clocks to `go wtime … btime … winc … binc …` of Tarpon through UCI (with the
board's hash size and with the default) and of any other UCI engines named. The board uses
the engine's time management as a GUI does, so its column should match the UCI ones up to
the spread that timing itself brings (a search that stops on the clock is not repeatable).

    python3 scripts/board_times.py --tarpon target/release/tarpon --minutes 3 --increment 2 \\
        --other /usr/games/stockfish

Needs only Python; prints a Markdown table with the mean of each column.
"""
import argparse
import json
import socket
import subprocess
import time
import urllib.request

# The person's moves: legal whatever Tarpon answers in the first two moves.
LINES = [
    ["d4", "Nf3", "g3"],
    ["e4", "Nc3", "g3"],
    ["c4", "Nc3", "g3"],
    ["Nf3", "g3", "Bg2"],
    ["e4", "Nf3", "Bc4"],
]
# The hash table of a game on the board (src/tools/serve/store.rs).
BOARD_HASH_MB = 8


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def board_replies(tarpon, minutes, increment):
    """Each reply's position (UCI moves), the clocks before it and the time it took."""
    port = free_port()
    server = subprocess.Popen(
        [tarpon, "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/api/"

    def post(path, body=None):
        data = json.dumps(body).encode() if body is not None else b""
        request = urllib.request.Request(
            base + path, data, {"Content-Type": "application/json"}, method="POST"
        )
        return json.load(urllib.request.urlopen(request, timeout=600))

    cases = []
    try:
        for _ in range(50):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        clock = {"minutes": minutes, "increment": increment}
        for line in LINES:
            game = post("games", {"mode": "play", "color": "white", "clock": clock})
            for san in line:
                game = post(f"games/{game['id']}/move", {"move": san, "at": game["ply"]})
                moves = [m["uci"] for m in game["moves"]]
                white_ms, black_ms = game["clock"]["white_ms"], game["clock"]["black_ms"]
                start = time.monotonic()
                game = post(f"games/{game['id']}/reply")
                cases.append((moves, white_ms, black_ms, time.monotonic() - start))
    finally:
        server.kill()
    return cases


def uci_times(command, options, cases, increment_ms):
    """The time `command` takes over each case's position with its clocks."""
    engine = subprocess.Popen(
        [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(text):
        engine.stdin.write(text + "\n")

    def wait_for(word):
        while not engine.stdout.readline().startswith(word):
            pass

    send("uci")
    wait_for("uciok")
    for name, value in options:
        send(f"setoption name {name} value {value}")
    times = []
    for moves, white_ms, black_ms, _ in cases:
        if len(moves) == 1:
            send("ucinewgame")
        send("position startpos moves " + " ".join(moves))
        send("isready")
        wait_for("readyok")
        start = time.monotonic()
        send(f"go wtime {white_ms} btime {black_ms} winc {increment_ms} binc {increment_ms}")
        wait_for("bestmove")
        times.append(time.monotonic() - start)
    send("quit")
    engine.wait()
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tarpon", default="target/release/tarpon")
    parser.add_argument("--minutes", type=float, default=3)
    parser.add_argument("--increment", type=float, default=2, help="seconds")
    parser.add_argument("--other", nargs="*", default=[], help="more UCI engines")
    args = parser.parse_args()
    increment_ms = round(args.increment * 1000)
    cases = board_replies(args.tarpon, args.minutes, args.increment)
    columns = [("board", [c[3] for c in cases])]
    columns.append(
        (f"UCI Hash {BOARD_HASH_MB}",
         uci_times(args.tarpon, [("Hash", BOARD_HASH_MB)], cases, increment_ms))
    )
    columns.append(("UCI defaults", uci_times(args.tarpon, [], cases, increment_ms)))
    for other in args.other:
        columns.append((other.rsplit("/", 1)[-1], uci_times(other, [], cases, increment_ms)))
    print("| moves | Tarpon's clock (ms) | " + " | ".join(name for name, _ in columns) + " |")
    print("|---|---:|" + "---:|" * len(columns))
    for i, (moves, _, black_ms, _) in enumerate(cases):
        cells = " | ".join(f"{times[i]:.1f}" for _, times in columns)
        print(f"| {' '.join(moves)} | {black_ms} | {cells} |")
    means = " | ".join(f"{sum(t) / len(t):.1f}" for _, t in columns)
    print(f"| mean (s) | | {means} |")


if __name__ == "__main__":
    main()
