#!/usr/bin/env python3
"""SPSA tuning of the search numbers in src/search/params.rs that are declared with
`tunable!`, by games between two settings, with fastchess (see docs/spsa.md).

Each iteration k draws a random sign (+1 or -1) per number, plays `--pairs` game pairs
(each opening with both colours) between the setting theta + c_k * sign and the setting
theta - c_k * sign, and moves theta by a_k / c_k * (wins - losses of the first) * sign.
The step sizes shrink over the run as in Spall's SPSA, written the way Fishtest states
them: per number, `c_end` is the perturbation at the last iteration and `r_end` the
learning rate there (a_end = r_end * c_end^2); both come from the engine's SPSA inputs
(`tarpon spsa`, OpenBench's form), unless given here. Only an engine built with
`cargo build --release --features tune` lists the numbers as UCI options and inputs.

The state (theta and the iteration) is written to --state after every iteration, so a
killed run continues where it stopped when started again with the same --state.

    cargo build --release --features tune --target-dir target/tune
    python3 scripts/spsa.py --engine target/tune/release/tarpon \\
        --fastchess ../shared/tools/fastchess --openings ../shared/data/openings_uho.epd \\
        --tc "tc=inf nodes=10000" --iterations 2000 --pairs 8 --concurrency 16 \\
        --state target/spsa.json

At the end (and with --report at any time) it prints each number's start and current
value and the `tunable!` lines to paste into params.rs.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys

ALPHA = 0.602  # the decay of a_k (Spall's recommended values)
GAMMA = 0.101  # the decay of c_k


def read_tunables(engine):
    """The engine's tunable numbers, {name: (start, min, max, c_end, r_end)}, from its SPSA
    inputs: the lines `name, int, start, min, max, c_end, r_end` that `tarpon spsa` prints
    (OpenBench's SPSA input form, with the step sizes this script uses)."""
    out = subprocess.run([engine, "spsa"], capture_output=True, text=True, timeout=30).stdout
    tunables = {}
    for line in out.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) == 7 and fields[1] == "int" and re.match(r"[A-Z][A-Z0-9_]*$", fields[0]):
            start, lo, hi = (int(f) for f in fields[2:5])
            tunables[fields[0]] = (start, lo, hi, float(fields[5]), float(fields[6]))
    if not tunables:
        sys.exit(f"spsa: {engine} lists no tunable numbers; build it with --features tune")
    return tunables


def schedule(k, n, c_end, r_end):
    """(c_k, a_k) at iteration k (1-based) of n."""
    big_a = 0.1 * n
    c = c_end * n ** GAMMA
    a_end = r_end * c_end ** 2
    a = a_end * (big_a + n) ** ALPHA
    return c / k ** GAMMA, a / (big_a + k) ** ALPHA


def play(args, plus, minus, seed):
    """Plays the pairs of one iteration; returns wins - losses of `plus`."""
    command = [args.fastchess,
               "-engine", f"cmd={args.engine}", "name=plus",
               *[f"option.{k}={v}" for k, v in plus.items()],
               "-engine", f"cmd={args.engine}", "name=minus",
               *[f"option.{k}={v}" for k, v in minus.items()],
               "-each", *args.tc.split(), "option.Hash=16", "option.Threads=1",
               "-openings", f"file={args.openings}", "format=epd", "order=random",
               "-srand", str(seed),
               "-repeat", "-rounds", str(args.pairs), "-games", "2",
               "-concurrency", str(args.concurrency), "-recover",
               "-resign", "movecount=3", "score=600", "twosided=true",
               "-draw", "movenumber=34", "movecount=8", "score=20"]
    out = subprocess.run(command, capture_output=True, text=True).stdout
    found = re.findall(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)", out)
    if not found:
        sys.exit("spsa: no result from fastchess; its output ends:\n" + out[-2000:])
    games, wins, losses, _ = map(int, found[-1])
    if games != 2 * args.pairs:
        print(f"spsa: only {games} of {2 * args.pairs} games finished", file=sys.stderr)
    return wins - losses


def report(state, tunables):
    print(f"after {state['iteration']} of {state['iterations']} iterations "
          f"({state['games']} games):")
    for name, value in state["theta"].items():
        default = tunables[name][0]
        print(f"  {name:32} {default:7} -> {value:9.2f}")
    print("tunable! lines:")
    for name, value in state["theta"].items():
        _, lo, hi = tunables[name][:3]
        print(f"tunable!({name} = {round(value)}, {lo}, {hi});")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine", required=True, help="a build with --features tune")
    p.add_argument("--fastchess", default="../shared/tools/fastchess")
    p.add_argument("--openings", default="../shared/data/openings_uho.epd")
    p.add_argument("--tc", default="tc=inf nodes=10000",
                   help="fastchess -each limits, e.g. 'tc=8+0.08' (default: 10,000 nodes)")
    p.add_argument("--iterations", type=int, default=2000)
    p.add_argument("--pairs", type=int, default=1, help="game pairs per iteration")
    p.add_argument("--concurrency", type=int, default=os.cpu_count())
    p.add_argument("--params", help="comma-separated names to tune (default: all)")
    p.add_argument("--c-end-fraction", type=float,
                   help="c_end as a fraction of each number's range, at least 1 (default: "
                        "the engine's SPSA inputs, 5 %%)")
    p.add_argument("--r-end", type=float, help="r_end (default: the engine's, 0.002)")
    p.add_argument("--state", default="target/spsa.json")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--report", action="store_true", help="print the state and stop")
    args = p.parse_args()

    tunables = read_tunables(args.engine)
    names = args.params.split(",") if args.params else list(tunables)
    unknown = [n for n in names if n not in tunables]
    if unknown:
        sys.exit(f"spsa: the engine has no tunable {', '.join(unknown)}")

    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        if sorted(state["theta"]) != sorted(names):
            sys.exit(f"spsa: {args.state} tunes other numbers; give another --state")
    else:
        state = {"iteration": 0, "iterations": args.iterations, "games": 0,
                 "theta": {n: float(tunables[n][0]) for n in names}, "history": []}
    if args.report:
        report(state, tunables)
        return

    rng = random.Random(args.seed * 1_000_003 + state["iteration"])
    n = state["iterations"]
    while state["iteration"] < n:
        k = state["iteration"] + 1
        plus, minus, signs, steps = {}, {}, {}, {}
        for name in names:
            _, lo, hi, c_end, r_end = tunables[name]
            if args.c_end_fraction is not None:
                c_end = max(1.0, args.c_end_fraction * (hi - lo))
            c_k, a_k = schedule(k, n, c_end, r_end if args.r_end is None else args.r_end)
            sign = rng.choice((-1, 1))
            theta = state["theta"][name]
            plus[name] = min(hi, max(lo, round(theta + c_k * sign)))
            minus[name] = min(hi, max(lo, round(theta - c_k * sign)))
            signs[name], steps[name] = sign, a_k / c_k
        result = play(args, plus, minus, args.seed * 100_000 + k)
        for name in names:
            _, lo, hi = tunables[name][:3]
            moved = state["theta"][name] + steps[name] * result * signs[name]
            state["theta"][name] = min(float(hi), max(float(lo), moved))
        state["iteration"] = k
        state["games"] += 2 * args.pairs
        if k % 10 == 0 or k == n:
            state["history"].append({"iteration": k, "theta": dict(state["theta"])})
            print(f"iteration {k}: " + ", ".join(
                f"{name} {value:.1f}" for name, value in state["theta"].items()), flush=True)
        tmp = args.state + ".tmp"
        with open(tmp, "w") as f:
            json.dump(state, f, indent=1)
        os.replace(tmp, args.state)
    report(state, tunables)


if __name__ == "__main__":
    main()
