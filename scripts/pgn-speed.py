#!/usr/bin/env python3
"""How deep, how long and how fast each engine searched in a fastchess PGN.

A network that wins at fixed nodes can still lose at a clock, if it costs speed in the
games' own positions (bench's positions and depth are not the games'). fastchess writes
each move's search into the PGN as a comment, `{+0.49/17 0.551s}`, and with
`-pgnout ... nodes=true nps=true` (scripts/milestone.sh asks for both) also
`{+0.49/17 0.551s, n=901234, nps=1635633}`. This reads those comments and prints, per
engine and per stretch of plies of the game (1-40, 41-80, 81-120, the rest), the mean
depth, time, nodes and nodes/s per move (nodes/s as total nodes over total time, so that
long searches weigh as much as they last), then the engines' ratio of nodes/s.

Usage: scripts/pgn-speed.py GAMES.pgn [--band PLIES]
Moves without a search (an empty score, depth 0) and mate scores (their depth is the
search's limit) are left out of the means; a file without any searched move is an error.
"""

import re
import sys

# One move's comment: score, depth, time, then optional nodes and nodes/s. The score is
# empty for a move played without a search (depth 0) and `+M3` for a mate, whose depth is
# the search's limit rather than how deep it looked: both take their turn (a ply of the
# game) but stay out of the means.
COMMENT = re.compile(r"\{([^}]*)\}")
SEARCH = re.compile(
    r"^\s*(?P<score>[-+]?(?:M\d+|\d+(?:\.\d+)?))/(?P<depth>\d+)\s+(?P<time>\d+(?:\.\d+)?)s"
    r"(?:,\s*n=(?P<nodes>\d+))?(?:,\s*nps=(?P<nps>\d+))?"
)
TAG = re.compile(r'^\[(\w+)\s+"([^"]*)"\]\s*$')


def fail(message):
    print(f"pgn-speed: {message}", file=sys.stderr)
    sys.exit(2)


def games(text):
    """(tags, movetext) of each game: tags until the first non-tag line, then moves."""
    tags, moves, in_moves = {}, [], False
    for line in text.splitlines():
        tag = TAG.match(line)
        if tag and in_moves:
            yield tags, " ".join(moves)
            tags, moves, in_moves = {}, [], False
        if tag:
            tags[tag.group(1)] = tag.group(2)
        elif line.strip():
            in_moves = True
            moves.append(line)
    if tags or moves:
        yield tags, " ".join(moves)


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--band"):
        fail("usage: scripts/pgn-speed.py GAMES.pgn [--band PLIES]")
    path = argv[1]
    band = 40
    if len(argv) == 4:
        if not argv[3].isdigit() or int(argv[3]) == 0:
            fail(f"--band needs a positive number of plies, not '{argv[3]}'")
        band = int(argv[3])
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        fail(f"cannot read {path}: {e}")

    # stats[engine][stretch] = [moves, depth sum, time sum, moves with nodes, nodes, time of those]
    stats = {}
    count = 0
    for number, (tags, moves) in enumerate(games(text), 1):
        if "White" not in tags or "Black" not in tags:
            fail(f"{path}: game {number} has no White or Black tag")
        fen = tags.get("FEN", "")
        black_first = len(fen.split()) > 1 and fen.split()[1] == "b"
        # One comment per move, White's and Black's alternately from the side to move.
        for ply, comment in enumerate(COMMENT.finditer(moves)):
            c = SEARCH.match(comment.group(1))
            if c is None or "M" in c.group("score"):
                continue
            white = (ply % 2 == 0) != black_first
            engine = tags["White"] if white else tags["Black"]
            row = stats.setdefault(engine, {}).setdefault(min(ply // band, 3), [0] * 6)
            row[0] += 1
            row[1] += int(c.group("depth"))
            row[2] += float(c.group("time"))
            if c.group("nodes") is not None:
                row[3] += 1
                row[4] += int(c.group("nodes"))
                row[5] += float(c.group("time"))
            count += 1
    if count == 0:
        fail(f"{path}: no move with a search comment ({{score/depth time}}): not a fastchess PGN?")

    def label(stretch):
        return f"plies {stretch * band + 1}-{(stretch + 1) * band}" if stretch < 3 else f"plies {3 * band + 1}-"

    nps_of = {}
    for engine in sorted(stats):
        all_nodes = all_time = 0
        for stretch in sorted(stats[engine]):
            moves, depth, time, with_nodes, nodes, node_time = stats[engine][stretch]
            line = f"{engine:>12} {label(stretch):>14}: {moves:6d} moves, depth {depth / moves:5.2f}, {time / moves:6.3f} s"
            if with_nodes:
                line += f", {nodes / with_nodes:9.0f} nodes, {nodes / node_time if node_time else 0:9.0f} nodes/s"
                all_nodes += nodes
                all_time += node_time
            print(line)
        if all_time:
            nps_of[engine] = all_nodes / all_time
    if len(nps_of) == 2:
        (a, nps_a), (b, nps_b) = sorted(nps_of.items())
        print(f"nodes/s over all moves: {a} {nps_a:.0f}, {b} {nps_b:.0f}; {b}/{a} {nps_b / nps_a:.4f}")
    elif not nps_of:
        print("(no nodes in the comments: fastchess's -pgnout needs nodes=true nps=true)")


if __name__ == "__main__":
    main(sys.argv)
