"""logger-ab.py: two builds' bench/logger side by side, in one run: OLD and
NEW run in turn (which goes first alternates) PAIRS times, and for each row
of interest the median of each pair's ratio NEW/OLD, with its range. What
a change to the logger costs, within noise, on a shared machine.

usage: python3 bench/logger-ab.py OLD/bench/logger NEW/bench/logger [PAIRS]
(PAIRS default 31; each run is `logger 200000 11`, its CSV and logs in
/dev/shm, removed after)."""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROWS = ["empty", "rdtsc", "lfence_rdtsc_rseq", "disabled_inline", "disabled_call", "enabled",
        "enabled_generated", "enabled_hot", "switched_off", "sampled"]


def run(binary, env):
    """The median of each row of one run of BINARY."""
    out = subprocess.run([binary, "200000", "11"], capture_output=True, text=True, env=env,
                         check=True).stdout
    got = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) > 1 and f[0] in ROWS and f[1] != "-":
            got[f[0]] = float(f[1])
    return got


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.split("\n\n")[1])
    bins = {"old": sys.argv[1], "new": sys.argv[2]}
    pairs = int(sys.argv[3]) if len(sys.argv) == 4 else 31
    tmp = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    env = dict(os.environ, BENCH_CSV=os.path.join(tmp, "l.csv"), TIMELINE_ROOT=tmp)
    res = {k: [] for k in bins}
    try:
        for i in range(pairs):
            for k in ("old", "new") if i % 2 == 0 else ("new", "old"):
                res[k].append(run(bins[k], env))
    finally:
        shutil.rmtree(tmp)
    print("%-18s %9s %9s %8s  %s" % ("case", "old", "new", "new/old", "range of the pairs' ratios"))
    for r in ROWS:
        o = [x[r] for x in res["old"] if r in x]
        n = [x[r] for x in res["new"] if r in x]
        ratios = sorted(b / a for a, b in zip(o, n) if a > 0)
        if ratios:
            print("%-18s %9.2f %9.2f %8.3f  [%.3f, %.3f]" % (r, statistics.median(o), statistics.median(n),
                                                          statistics.median(ratios), ratios[0], ratios[-1]))


if __name__ == "__main__":
    main()
