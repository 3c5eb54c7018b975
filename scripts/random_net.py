#!/usr/bin/env python3
"""Write a network file of random weights, for development before a trained network exists.

The engine embeds `nets/default.nnue` at compile time, so a checkout without a trained
network does not build. This writes a stand-in in the engine's format (see
src/eval/nnue/format.rs) with the same weight ranges as `Network::random` in the tests:

    scripts/random_net.py nets/default.nnue [seed]

A random network plays nonsense: never commit one as nets/default.nnue.
"""

import random
import struct
import sys

INPUTS, HIDDEN, VERSION = 768, 256, 1


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) == 3 else 1)

    def uniform(n, lo, hi):
        return [rng.randint(lo, hi) for _ in range(n)]

    data = bytearray(b"TARPNNUE")
    data += struct.pack("<II", VERSION, HIDDEN)
    values = (
        uniform(INPUTS * HIDDEN, -60, 60)  # feature weights
        + uniform(HIDDEN, -100, 300)  # hidden biases
        + uniform(2 * HIDDEN, -6, 6)  # output weights: scores of a few hundred cp
    )
    data += struct.pack(f"<{len(values)}h", *values)
    data += struct.pack("<i", rng.randint(-4000, 4000))  # output bias, units of QA * QB
    with open(sys.argv[1], "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
