#!/usr/bin/env python3
"""Writes the 960 Chess960 start positions as EPD lines (Shredder-FEN castling, the rooks'
files), in the standard numbering (the same as src/chess/chess960.rs), for fastchess's
`-variant fischerandom`:

    scripts/chess960-openings.py > chess960.epd
"""


def back_rank(n):
    rank = [None] * 8
    rank[2 * (n % 4) + 1] = "B"  # the light-squared bishop: b, d, f, h
    n //= 4
    rank[2 * (n % 4)] = "B"  # the dark-squared one: a, c, e, g
    n //= 4

    def place(index, piece):
        free = [i for i, p in enumerate(rank) if p is None]
        rank[free[index]] = piece

    place(n % 6, "Q")
    n //= 6
    pairs = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
    first, second = pairs[n]
    place(second, "N")  # the second knight first: the first would shift the free squares
    place(first, "N")
    for piece in "RKR":
        place(0, piece)
    return "".join(rank)


def main():
    for n in range(960):
        rank = back_rank(n)
        rooks = [i for i, p in enumerate(rank) if p == "R"]
        files = "".join("abcdefgh"[i] for i in reversed(rooks))
        castling = files.upper() + files
        print(f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w {castling} - 0 1")


if __name__ == "__main__":
    main()
