#!/usr/bin/env bash
# Speed of two builds, A and B, measured against each other in the same moments.
#
# This machine is shared: one `tarpon bench` run differs from the next by 10 % and more,
# so two builds benched one after the other compare the machine's mood as much as the
# code. Here each round runs both benches at once, one per core (`taskset`), and swaps the
# cores every round, so that both see the same load. Prints each round's nodes/s and the
# ratio B/A, then the median ratio and the ratio of the mean nodes/s over ROUNDS rounds
# (default 20), and whether the two searched the same tree (the same bench node count:
# then only the code differs, as it must for a non-functional change).
#
# Pause a running datagen first (`kill -STOP PID`, later `kill -CONT PID`, with the pid you started: never by name,
# which could stop other runs too): it sits on the same cores.
#
# DEPTH (default: bench's own, 11) searches deeper: a network whose weights outgrow the
# caches loses more speed in long searches, where the hash table competes for them, than
# in bench's short ones.
#
# Usage: scripts/bench-pair.sh A B      (two tarpon binaries; ROUNDS=40 for finer ratios,
#                                        DEPTH=15 for searches of game length)
set -euo pipefail

if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
    echo "usage: $0 BUILD_A BUILD_B (two executable tarpon binaries)" >&2
    exit 2
fi
A=$1
B=$2
ROUNDS=${ROUNDS:-20}
DEPTH=${DEPTH:-}
if [ -n "$DEPTH" ] && ! [[ $DEPTH =~ ^[1-9][0-9]*$ ]]; then
    echo "$0: DEPTH must be a positive whole number, not '$DEPTH'" >&2
    exit 2
fi
if [ "$(nproc)" -lt 2 ]; then
    echo "$0 needs two cores (it runs both benches at once)" >&2
    exit 2
fi

# check NAME BUILD NPS: stops with a message unless the build printed a bench result.
check() {
    [[ ${3:-} =~ ^[0-9]+$ ]] || { echo "$0: $1 ($2) printed no bench result" >&2; exit 1; }
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for round in $(seq "$ROUNDS"); do
    core_a=$((round % 2))
    core_b=$((1 - core_a))
    # $DEPTH unquoted: no argument at all when it is empty.
    taskset -c "$core_a" "$A" bench $DEPTH >"$tmp/a" 2>&1 &
    taskset -c "$core_b" "$B" bench $DEPTH >"$tmp/b" 2>&1
    wait
    # The last line of `bench` is `<nodes> nodes <nps> nps`.
    read -r nodes_a _ nps_a _ < <(tail -1 "$tmp/a") || true
    read -r nodes_b _ nps_b _ < <(tail -1 "$tmp/b") || true
    check A "$A" "${nps_a:-}"
    check B "$B" "${nps_b:-}"
    echo "$nps_a $nps_b $nodes_a $nodes_b" >>"$tmp/rounds"
    awk -v r="$round" -v a="$nps_a" -v b="$nps_b" \
        'BEGIN { printf "round %2d: A %d nps, B %d nps, B/A %.4f\n", r, a, b, b / a }'
done

# The summary: mawk (Debian's awk) has no sort, so the ratios come sorted from `sort`.
awk '{ print $2 / $1 }' "$tmp/rounds" | sort -g >"$tmp/ratios"
median=$(awk '{ r[NR] = $1 } END { print (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2 }' "$tmp/ratios")
awk -v median="$median" '{ sum_a += $1; sum_b += $2; if ($3 != $4) differ = 1; na = $3; nb = $4 }
     END {
         printf "%d rounds: median B/A %.4f, ratio of mean nodes/s %.4f (A %.0f, B %.0f)\n",
             NR, median, sum_b / sum_a, sum_a / NR, sum_b / NR
         if (differ) printf "the trees differ (A %d nodes, B %d): the ratio mixes code and tree\n", na, nb
         else printf "the same tree (%d nodes): the ratio is the code alone\n", na
     }' "$tmp/rounds"
