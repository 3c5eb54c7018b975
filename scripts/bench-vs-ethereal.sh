#!/usr/bin/env bash
# Search speed: Tarpon's `bench` nodes per second next to Ethereal 12's (Debian package
# ethereal-chess, whose `bench` command searches its own positions), measured in one run,
# alternating, RUNS times each (default 3). Only the nps figures compare; node counts differ.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
ETHEREAL=${1:-/usr/games/ethereal-chess}
if [ ! -x "$ETHEREAL" ]; then
    echo "Ethereal not found; installing Debian's package (needs root)..." >&2
    apt-get install -y ethereal-chess >/dev/null
fi
cargo build --release --quiet

for i in $(seq "$RUNS"); do
    t=$(target/release/tarpon bench | tail -1)
    e=$("$ETHEREAL" bench | awk '/^NPS/ {print $3}')
    echo "run $i: tarpon $(echo "$t" | awk '{print $3}') nps ($t) | ethereal $e nps"
done
