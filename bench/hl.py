"""hl.py: the cost of a mode against the off runs on either side of it,
imported by bench/engine.sh and bench/dpdk.sh: each run gives
d = ln(mode) - (ln(off before) + ln(off after)) / 2, so that drift of the
machine's speed cancels within a round; the estimate is the Hodges-Lehmann
median of the Walsh averages of the d's, and the 95% interval the one of
the exact Wilcoxon signed-rank test (distribution-free)."""
import math


def signed_rank_c(n):
    """The largest c with P(W+ <= c) <= 0.025 under H0, or -1."""
    top = n * (n + 1) // 2
    f = [1] + [0] * top
    for k in range(1, n + 1):
        for s in range(top, k - 1, -1):
            f[s] += f[s - k]
    total, acc, c = 2 ** n, 0, -1
    for s in range(top + 1):
        acc += f[s]
        if acc / total > 0.025:
            break
        c = s
    return c


def cost(runs, mode):
    """RUNS: (mode, rate) in the order run, off first and last, each other
    mode's run between two off runs. The median rate of MODE, and its cost
    in % (a drop of the rate) with the 95% interval's low and high ends."""
    off = [r for m, r in runs if m == "off"]
    got = [r for m, r in runs if m == mode]
    d = [math.log(got[i]) - (math.log(off[i]) + math.log(off[i + 1])) / 2 for i in range(len(got))]
    w = sorted((d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d)))
    m = len(w)
    est = w[m // 2] if m % 2 else (w[m // 2 - 1] + w[m // 2]) / 2
    c = signed_rank_c(len(d))
    lo, hi = (w[c], w[m - 1 - c]) if c >= 0 else (w[0], w[-1])
    pct = lambda x: -math.expm1(x) * 100
    return sorted(got)[len(got) // 2], pct(est), pct(hi), pct(lo)
