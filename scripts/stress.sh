#!/usr/bin/env bash
# Stress games: Tarpon against itself under a GUI that changes options between games and
# sends `stop` and `isready` at random moments; fails on any crash, hang, illegal move, time
# loss, unparsable `info` line or protocol error (the driver, scripts/stress.py, explains).
#
#   scripts/stress.sh                 100 games (half at 1+0.01, half at movetime 10)
#   scripts/stress.sh --games 2000    the release check, ~90 minutes on an idle machine
#                                     (--concurrency 2 halves it, with more timing noise)
#   scripts/stress.sh --quick         24 games, one or two minutes: what CI runs
#
# A move counts as a time loss when it takes longer than the time it had plus --margin
# milliseconds (default 0, as a strict GUI judges; a forgiven overrun leaves the clock at
# zero). --quick allows 500 ms: CI may run on a busy machine, where the scheduler alone
# delays answers by tens, at times over a hundred milliseconds, and what CI must catch is
# an engine that ignores its clock or `stop`, not scheduling noise. The driver prints how
# many moves went over by more than 0, 5, 20, 50 and 100 ms either way.
#
# Other options go to the driver (--seed, --margin, --verbose, --engine; see --help).
# Builds the release binary first unless --engine names one. Needs python-chess: in the
# python3 on the PATH, or in the Python that TARPON_PYTHON names (`scripts/test.sh --setup`
# prints one, installing python-chess where missing).
set -euo pipefail
cd "$(dirname "$0")/.."

args=()
engine=""
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) args+=(--games 24 --margin 500) ;;
        --engine) engine="$2"; shift ;;
        *) args+=("$1") ;;
    esac
    shift
done
if [ -z "$engine" ]; then
    cargo build --release --quiet
    engine="${CARGO_TARGET_DIR:-target}/release/tarpon"
fi
exec "${TARPON_PYTHON:-python3}" scripts/stress.py --engine "$engine" "${args[@]}"
