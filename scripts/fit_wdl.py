#!/usr/bin/env python3
"""Fit Tarpon's win/draw/loss model (what `UCI_ShowWDL` prints) to Tarpon's own games.

Input: `tarpon datagen` files (32-byte bulletformat records; see src/learn/bulletformat.rs).
Every record holds a position, the search score for the side to move and the game's
result for the side to move. The model says how likely a score is to end as a win, a draw
or a loss, given how much material is left on the board:

    win(s, m)  = 1 / (1 + exp(-(s - a(m)) / b(m)))
    loss(s, m) = 1 / (1 + exp(-(-s - a(m)) / b(m)))
    draw       = 1 - win - loss

s is the score in centipawns, m the material (pawn 1, knight and bishop 3, rook 5, queen 9,
both sides, clamped to [MATERIAL_MIN, MATERIAL_MAX]), and a, b are cubic polynomials in
t = m / MATERIAL_REF. a is the score at which a win is as likely as not; b is how quickly the
odds change with the score. Material stands in for the stage of the game: with few pieces
left, the same advantage converts more surely, and draws are more common at equal scores.

The fit maximises the likelihood of the observed results (a multinomial over W/D/L) over
records binned by (material, score): the bins make the fit fast and lose nothing, as the
model only sees those two numbers. Scores beyond +-SCORE_LIMIT (mates, tablebase wins,
adjudicated wins) are left out: the engine prints 1000/0/0 for those without the model.

Usage:
    pip install numpy scipy
    python3 scripts/fit_wdl.py [--degree D] /path/to/selfplay-*.bin

Game shards (`.games`) are turned into records first: `tarpon convert X.games -o X.bin`.
`--degree` (default 3) is the degree of the polynomials; with little data (a few hundred
games) a cubic fits noise, and 1 (a straight line in the material) is the safer choice.
The coefficients are always printed as cubics (leading zeros for a lower degree).

It prints the coefficients as Rust constants for src/search/wdl.rs, and a table of
predicted against observed results per material band, to check the fit.
"""

import sys

import numpy as np
from scipy.optimize import minimize

RECORD = 32
MATERIAL_MIN, MATERIAL_MAX, MATERIAL_REF = 4, 78, 58
SCORE_LIMIT = 1500
SCORE_BIN = 5  # centipawns
PIECE_VALUE = np.array([1, 3, 3, 5, 9, 0])  # pawn .. king


def read(path):
    raw = np.fromfile(path, dtype=np.uint8)
    if raw.size % RECORD:
        sys.exit(f"{path}: {raw.size} bytes is not a whole number of {RECORD}-byte records")
    rec = raw.reshape(-1, RECORD)
    # Pieces stored: one per set bit of the occupancy.
    count = np.unpackbits(rec[:, 0:8], axis=1).sum(axis=1, dtype=np.int64)
    # 32 nibbles: piece i is the low nibble of byte 8 + i/2 when i is even, else the high one.
    pcs = rec[:, 8:24]
    nibbles = np.empty((len(rec), 32), dtype=np.uint8)
    nibbles[:, 0::2] = pcs & 0x0F
    nibbles[:, 1::2] = pcs >> 4
    used = np.arange(32)[None, :] < count[:, None]
    material = (PIECE_VALUE[nibbles & 7] * used).sum(axis=1)
    score = rec[:, 24:26].copy().view(np.int16).ravel().astype(np.int64)
    result = rec[:, 26].astype(np.int64)
    return material, score, result


def bins(files):
    """Counts of (losses, draws, wins) per (material, score bin)."""
    n_m = MATERIAL_MAX - MATERIAL_MIN + 1
    n_s = 2 * SCORE_LIMIT // SCORE_BIN + 1
    counts = np.zeros((n_m, n_s, 3), dtype=np.int64)
    total = 0
    for path in files:
        material, score, result = read(path)
        keep = (np.abs(score) <= SCORE_LIMIT) & (result <= 2)
        m = np.clip(material[keep], MATERIAL_MIN, MATERIAL_MAX) - MATERIAL_MIN
        s = (score[keep] + SCORE_LIMIT) // SCORE_BIN
        np.add.at(counts, (m, s, result[keep]), 1)
        total += len(score)
        print(f"{path}: {len(score)} records, {keep.sum()} within +-{SCORE_LIMIT} cp", file=sys.stderr)
    return counts, total


def model(params, t, s):
    half = len(params) // 2
    a = np.polyval(params[:half], t)
    b = np.maximum(np.polyval(params[half:], t), 1.0)
    win = 1 / (1 + np.exp(-(s - a) / b))
    loss = 1 / (1 + np.exp(-(-s - a) / b))
    return win, np.maximum(1 - win - loss, 1e-9), loss


def nll_of(c, win, draw, loss):
    eps = 1e-12
    return -(c[:, 0] * np.log(loss + eps) + c[:, 1] * np.log(draw + eps) + c[:, 2] * np.log(win + eps)).sum()


def fit_one_material(c, s):
    """The best (a, b) for the records of one material count alone."""

    def nll(p):
        t = np.zeros_like(s)
        return nll_of(c, *model(np.array([p[0], p[1]]), t, s))

    return minimize(nll, [100.0, 100.0], method="Nelder-Mead").x


def fit(counts, degree):
    # First every material count on its own; a weighted cubic through those (a, b) is the
    # starting point of the joint fit, which a poor start would leave in a bad minimum.
    ts, a_s, b_s, weights = [], [], [], []
    for m in range(counts.shape[0]):
        s_idx = np.nonzero(counts[m].sum(axis=1))[0]
        if len(s_idx) < 10:
            continue
        c = counts[m, s_idx].astype(float)
        a, b = fit_one_material(c, s_idx * SCORE_BIN - SCORE_LIMIT + SCORE_BIN / 2)
        ts.append((m + MATERIAL_MIN) / MATERIAL_REF)
        a_s.append(a)
        b_s.append(b)
        weights.append(np.sqrt(c.sum()))
    start = np.concatenate(
        [np.polyfit(ts, a_s, degree, w=weights), np.polyfit(ts, b_s, degree, w=weights)]
    )

    m_idx, s_idx = np.nonzero(counts.sum(axis=2))
    c = counts[m_idx, s_idx].astype(float)
    t = (m_idx + MATERIAL_MIN) / MATERIAL_REF
    s = s_idx * SCORE_BIN - SCORE_LIMIT + SCORE_BIN / 2
    if degree < 3:
        # Few data: the separate fits per material count are too noisy to start from;
        # start from one (a, b) for all positions instead.
        a, b = fit_one_material(c, s)
        zeros = [0.0] * degree
        start = np.array(zeros + [a] + zeros + [b])

    def nll(params):
        return nll_of(c, *model(params, t, s)) / c.sum()

    best = minimize(nll, start, method="BFGS")
    best = minimize(nll, best.x, method="Nelder-Mead", options={"maxiter": 20000, "maxfev": 20000})
    return best.x, nll(best.x)


def report(params, counts):
    print("material  positions  observed W/D/L (%)    predicted W/D/L (%)", file=sys.stderr)
    for lo in range(MATERIAL_MIN, MATERIAL_MAX + 1, 8):
        band = counts[lo - MATERIAL_MIN : lo - MATERIAL_MIN + 8]
        n = band.sum()
        if n == 0:
            continue
        obs = band.sum(axis=(0, 1)) / n * 100
        m_idx, s_idx = np.nonzero(band.sum(axis=2))
        w = band[m_idx, s_idx].sum(axis=1)
        t = (m_idx + lo) / MATERIAL_REF
        s = s_idx * SCORE_BIN - SCORE_LIMIT + SCORE_BIN / 2
        win, draw, loss = model(params, t, s)
        pred = np.array([(loss * w).sum(), (draw * w).sum(), (win * w).sum()]) / n * 100
        print(
            f"{lo:>3}-{lo + 7:<4} {n:>10}  {obs[2]:5.1f} {obs[1]:5.1f} {obs[0]:5.1f}        {pred[2]:5.1f} {pred[1]:5.1f} {pred[0]:5.1f}",
            file=sys.stderr,
        )


def main():
    args = sys.argv[1:]
    degree = 3
    if args[:1] == ["--degree"] and len(args) > 1:
        degree = int(args[1])
        args = args[2:]
    if not args or not 0 <= degree <= 3:
        sys.exit(__doc__)
    counts, total = bins(args)
    params, nll = fit(counts, degree)
    print(f"fitted on {counts.sum()} of {total} records; log-loss {nll:.5f} per position", file=sys.stderr)
    report(params, counts)
    half = len(params) // 2
    pad = [0.0] * (3 - degree)
    a = ", ".join(f"{x:.3f}" for x in pad + list(params[:half]))
    b = ", ".join(f"{x:.3f}" for x in pad + list(params[half:]))
    print(f"// Fitted by scripts/fit_wdl.py on {counts.sum()} positions of Tarpon's self-play games.")
    print(f"const A: [f64; 4] = [{a}];")
    print(f"const B: [f64; 4] = [{b}];")


if __name__ == "__main__":
    main()
