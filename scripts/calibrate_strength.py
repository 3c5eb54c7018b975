#!/usr/bin/env python3
"""Calibrates Tarpon's strength settings (`UCI_LimitStrength` + `UCI_Elo`) by games, and
prints the calibration table for docs/strength.md.

Every setting is measured against an opponent whose rating is known:

- settings from 1350 to 2850 play Stockfish with `UCI_LimitStrength` at the same
  `UCI_Elo` (Stockfish's own scale, which its authors anchored to CCRL ratings); the
  measured rating is Stockfish's label plus the Elo difference of the match;
- settings below 1350, where Stockfish cannot go, play the next higher setting of the
  list, which was measured first (the list is played from the top down), so their rating
  is that setting's measured rating plus the difference, with both errors combined;
- with `--full`, full-strength Tarpon also plays the highest setting, which places
  full strength on the same scale and shows whether the top labels can be reached at
  all.

Each match is a run of ../shared/tools/match.py (random openings, colours swapped in
pairs, adjudication on); the table gives games, W-D-L, Elo difference ± 95% error and the
resulting rating ± error, and whether it lies within `--target` (150) of the label.

    python3 scripts/calibrate_strength.py --engine target/release/tarpon \
        --settings 2600,2200,1800,1400,1100,800 --games 40 --tc 10+0.1 --full

Needs python-chess (match.py's dependency) and Debian's stockfish.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

STOCKFISH_ELO_MIN = 1350
STOCKFISH_ELO_MAX = 2850


def run_match(args, name, options, opponent, opponent_options, seed):
    """Plays one match of Tarpon with `options` against `opponent`; returns match.py's
    result for that opponent (games, wins, draws, losses, elo, elo_error)."""
    with tempfile.TemporaryDirectory() as tmp:
        result_file = os.path.join(tmp, "result.json")
        command = [
            sys.executable, args.match,
            "--engine", f"{name}={args.engine}",
            "--engine", f"{opponent[0]}={opponent[1]}",
            "--option", "Hash=16",
            "--tc", args.tc, "--games", str(args.games),
            "--concurrency", str(args.concurrency),
            "--random-openings", "--seed", str(seed),
            "--adjudicate-draw", "--adjudicate-win",
            "--json", result_file,
        ]
        for key, value in options.items():
            command += ["--option", f"{name}:{key}={value}"]
        for key, value in opponent_options.items():
            command += ["--option", f"{opponent[0]}:{key}={value}"]
        if args.pgn:
            command += ["--pgn", args.pgn]
        print("$ " + " ".join(command), file=sys.stderr, flush=True)
        subprocess.run(command, check=True, stdout=sys.stderr)
        with open(result_file) as f:
            return json.load(f)["opponents"][opponent[0]]


def combine(anchor_rating, anchor_error, result):
    """The rating and error a match result gives on top of the opponent's (infinite when a
    side scored everything: match.py then reports no finite difference)."""
    difference = result["elo"] if result["elo"] is not None else math.copysign(math.inf, result["score"] - 0.5)
    error = result["elo_error"] if result["elo_error"] is not None else math.inf
    return anchor_rating + difference, math.hypot(anchor_error, error)


def show(value, error, sign=""):
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    if math.isinf(error):
        return f"{value:{sign}.0f} ± inf"
    return f"{value:{sign}.0f} ± {error:.0f}"


def limited(elo):
    return {"UCI_LimitStrength": "true", "UCI_Elo": str(elo)}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default=os.path.join(here, "..", "target", "release", "tarpon"))
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--match", default=os.path.join(here, "..", "..", "shared", "tools", "match.py"))
    parser.add_argument("--settings", default="2600,2200,1800,1400,1100,800",
                        help="UCI_Elo values to measure, comma-separated")
    parser.add_argument("--games", type=int, default=40, help="games per setting")
    parser.add_argument("--tc", default="10+0.1")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=float, default=150.0,
                        help="largest acceptable distance from the label, in Elo")
    parser.add_argument("--full", action="store_true",
                        help="also play full-strength Tarpon against the highest setting")
    parser.add_argument("--pgn", help="append every game to this PGN file")
    parser.add_argument("--output", help="also write the table (Markdown) to this file, "
                        "rewritten after every row, so that a stopped run keeps its rows")
    parser.add_argument("--known", action="append", default=[], metavar="ELO=RATING,ERROR",
                        help="a setting measured in an earlier run (its rating and 95%% error), "
                        "for the settings below Stockfish's range to chain to; repeatable")
    args = parser.parse_args()

    settings = sorted({int(s) for s in args.settings.split(",")}, reverse=True)
    if not settings or settings[-1] < 1 or args.games < 2:
        parser.error("--settings needs positive ratings and --games at least 2")

    rows = []
    measured = {}  # setting -> (rating, error)
    for known in args.known:
        try:
            setting, value = known.split("=")
            rating, error = value.split(",")
            measured[int(setting)] = (float(rating), float(error))
        except ValueError:
            parser.error(f"--known {known!r}: expected ELO=RATING,ERROR, for example 1400=1380,70")
    for index, elo in enumerate(settings):
        name = f"tarpon{elo}"
        if elo >= STOCKFISH_ELO_MIN:
            anchor = min(elo, STOCKFISH_ELO_MAX)
            opponent = (f"sf{anchor}", args.stockfish)
            result = run_match(args, name, limited(elo), opponent, limited(anchor), args.seed + index)
            anchor_rating, anchor_error = float(anchor), 0.0
        else:
            higher = [s for s in set(settings) | set(measured) if s > elo]
            if not higher:
                parser.error(f"setting {elo} is below Stockfish's range and has no higher setting to chain to")
            anchor = min(higher)
            opponent = (f"tarpon{anchor}", args.engine)
            result = run_match(args, name, limited(elo), opponent, limited(anchor), args.seed + index)
            anchor_rating, anchor_error = measured[anchor]
        rating, error = combine(anchor_rating, anchor_error, result)
        measured[elo] = (rating, error)
        rows.append((f"UCI_Elo {elo}", opponent[0], result, rating, error, elo))
        write_table(args, rows)

    if args.full:
        top = settings[0]
        opponent = (f"tarpon{top}", args.engine)
        result = run_match(args, "tarpon-full", {}, opponent, limited(top), args.seed + len(settings))
        rating, error = combine(*measured[top], result)
        rows.append(("full strength", opponent[0], result, rating, error, None))

    table = write_table(args, rows)
    print(f"Time control {args.tc}, {args.games} games per row, Tarpon {args.engine}")
    print(table)


def write_table(args, rows):
    """The table of the rows so far, written to --output when given."""
    lines = [
        f"| setting | opponent | games | W-D-L | Elo difference | measured rating | within {args.target:.0f} |",
        "|---|---|---|---|---|---|---|",
    ]
    for setting, opponent, r, rating, error, label in rows:
        within = "" if label is None else ("yes" if abs(rating - label) <= args.target else "no")
        lines.append(
            f"| {setting} | {opponent} | {r['games']} | {r['wins']}-{r['draws']}-{r['losses']} "
            f"| {show(*combine(0.0, 0.0, r), '+')} | {show(rating, error)} | {within} |"
        )
    table = "\n".join(lines)
    if args.output:
        with open(args.output, "w") as f:
            f.write(table + "\n")
    return table


if __name__ == "__main__":
    main()
