#!/usr/bin/env python3
"""report_check.py: checks `timeline report --format json` and the rows it
shares with `timeline stats`, parsing every line with Python's strict json
module. Each command prints what it checked and exits 1 on a mismatch
(each printed), 2 on bad usage.

  report_check.py snabb-apps TIMELINE LOG
      the app rows of `stats --per packets` over a Snabb log, recomputed
      from `dump --format json`: an app pair's cycles over the packets of
      the breath it ran in
  report_check.py page PAGE.html
      the page is self-contained: its Content-Security-Policy and the
      hashes in it, no URL anywhere
  report_check.py summary TIMELINE DIR
      `report` over a summary of DIR's logs (made with report's own --per and
      --bucket) gives the charts a summary keeps as the logs give them, says
      what it cannot show, and refuses a summary made with other options
  report_check.py diff-summary TIMELINE A B
      the diff report of the summaries `diff --save-a --save-b` writes of A
      and B gives the verdicts and the A/B charts of the report of A and B
  report_check.py sides TIMELINE A B
      the batch, lag and NUMA/CPU charts, the bars per process and the
      slowest pairs of the diff report of A and B: each side's boxes, bars
      and table rows are those of the report of that side alone
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


def table(rows, name):
    return [{k: v for k, v in r.items() if k != "table"} for r in rows if r.get("table") == name]


def stats_rows(tl, inputs, *opts):
    return lines(run([tl, "stats", "--format", "json"] + list(opts) + inputs))


def check_table(chart, want, what):
    """The rows of a table chart against stats' rows WANT (share% aside)."""
    got = [{k: v for k, v in r.items() if k != "share%"} for r in chart["rows"]]
    same("%s: rows" % what, got, want)


def shares(overhead):
    """Per app over all processes: its cycles, and the breaths' cycles."""
    apps, total = {}, 0.0
    for r in overhead:
        total += r["cycles"]
        if r["app"] != "(no app)":
            apps[r["app"]] = apps.get(r["app"], 0.0) + r["cycles"]
    return apps, total


def check_shares(charts, overhead):
    apps, total = shares(overhead)
    rows = charts["summary-apps"]["rows"]
    for r in rows:
        if r["app"] is not None and r["app"] in apps:
            same("summary share%% of %s" % r["app"], r["share%"], 100 * apps[r["app"]] / total)
        else:
            same("summary share%% of %s" % r["app"], r["share%"], None)
    if not overhead:
        same("charts of shares without breaths",
             [c for c in ("summary-share", "cycles-processes") if c in charts], [])
        return
    bar = charts["summary-share"]["bars"][0]
    same("summary bar cycles", bar["cycles"], total)
    same("summary bar breaths", bar["breaths"],
         sum(r["breaths"] for r in overhead if r["app"] == "(no app)"))
    # one bar per process, its segments the process's overhead rows in order
    got = [(b["label"], s["app"], s["cycles"], s["share%"], b["breaths"])
           for b in charts["cycles-processes"]["bars"] for s in b["segments"]]
    want = [(r["process"], r["app"], r["cycles"], r["share%"], r["breaths"]) for r in overhead]
    same("where the cycles go, per process", got, want)


def check_hists(charts, hist, per):
    """Each distribution's bins, added up by power of two, are stats --hist's."""
    n = 0
    for c in charts.values():
        if c.get("kind") != "hists" or c["section"] != "dist":
            continue
        h = c["hists"][0]
        key = h["label"].split(" ")
        event, app = key[0], key[1] if len(key) > 1 else None
        powers = {}
        for b in h["bins"]:
            lo = 2.0 ** math.floor(math.log2(b["from"]))
            powers[lo] = powers.get(lo, 0) + b["count"]
        want = {r["from"]: r["count"] for r in hist if r["event"] == event and r["app"] == app
                and r["below"] > 0}
        same("%s: counts per power of two" % c["chart"], powers, want)
        row = [r for r in per if r["event"] == event and r["app"] == app][0]
        same("%s: values" % c["chart"], h["n"], row["pairs"])
        same("%s: p50" % c["chart"], h["p50"], row["p50"])
        n += 1
    return n


def check_boxes(boxes, rows, what, keys):
    """Box plots against stats' rows: n and the quantiles stats prints."""
    same("%s: boxes" % what, len(boxes), len(rows))
    for b, r in zip(boxes, rows):
        for k in keys:
            same("%s %s: %s" % (what, b["label"], k), b[k if k != "pairs" else "n"], r[k])


def check_batch(charts, bucket):
    n = 0
    for c in charts.values():
        if c.get("section") != "batch" or c.get("kind") != "boxes":
            continue
        key = c["title"].split(":")[0].split(" ")
        event, app = key[0], key[1] if len(key) > 1 else None
        rows = [r for r in bucket if r["event"] == event and r["app"] == app and r["pairs"] > 0]
        for b, r in zip(c["boxes"], rows):
            same("%s: bucket" % c["chart"], b["label"], str(r["bucket"]))
        check_boxes(c["boxes"], rows, c["chart"], ("pairs", "p50", "p90", "p99"))
        n += 1
    return n


def check_time(charts, by_process, breaths):
    """Each process over time: its bins hold every pair of the process, and
    the throughput bins add up to its breath summary."""
    tl = [c for c in charts.values() if c.get("kind") == "time"]
    pairs = {}
    for c in tl:
        for s in c["series"]:
            key = (c["process"], s["event"], s["app"])
            pairs[key] = pairs.get(key, 0) + sum(s["n"])
            if "units" in s:
                same("%s %s: units' bins" % (c["chart"], s["event"]), sum(s["units"]["n"]), sum(s["n"]))
            same("%s %s: bins" % (c["chart"], s["event"]), len(s["n"]), s["nbins"])
    want = {(r["process"], r["event"], r["app"] if r["app"] is not None else "-"): r["pairs"]
            for r in by_process}
    same("pairs over time, per process", pairs, {k: v for k, v in want.items() if v})
    # a log with one breath_end in the window, or breaths that all moved
    # no breath number, has a summary of nothing ("-"), and no totals
    with_breaths = [c for c in tl if sum(c.get("breaths", [])) > 0]
    breaths = [b for b in breaths if b["breaths"]]
    same("processes with breaths over time", len(with_breaths), len(breaths))
    for c, b in zip(with_breaths, breaths):
        br, pk, by, cy = (math.fsum(c[k]) for k in ("breaths", "packets", "bytes", "cycles"))
        hz = float(c["hz"]) if c["hz"] else float("nan")
        same("%s: process" % c["chart"], c["process"], b["process"])
        same("%s: breaths" % c["chart"], br, b["breaths"])
        same("%s: packets/breath" % c["chart"], pk / br, b["packets/breath"])
        same("%s: cycles/packet" % c["chart"], cy / pk, b["cycles/packet"])
        if c["hz"]:
            same("%s: Gbps" % c["chart"], by * 8 * hz / cy / 1e9, b["Gbps"])
    return len(tl)


def check_numa(charts, tl, inputs, overhead):
    n = 0
    for key, chart in (("cpu", "numa-cpu-table"), ("numa", "numa-node-table")):
        if chart not in charts:
            continue
        want = table(stats_rows(tl, inputs, "--per", "packets", "--by", "event,app," + key), "per")
        check_table(charts[chart], want, chart)
        bars = charts.get("numa-cpus" if key == "cpu" else "numa-nodes", {}).get("bars", [])
        same("%s: breaths" % chart, sum(b["breaths"] for b in bars),
             sum(r["breaths"] for r in overhead if r["app"] == "(no app)"))
        same("%s: cycles" % chart, math.fsum(b["cycles"] for b in bars), shares(overhead)[1])
        n += 1
    return n


def check_stats(tl, inputs):
    report = lines(run([tl, "report", "--format", "json"] + inputs))
    charts = {c["chart"]: c for c in report if "chart" in c}
    per_json = stats_rows(tl, inputs, "--per", "packets", "--hist")
    per, overhead = table(per_json, "per"), table(per_json, "overhead")
    check_table(charts["summary-apps"], per, "summary-apps")
    slow = table(stats_rows(tl, inputs, "--per", "packets", "--slowest", "10"), "slowest")
    same("summary-slowest: its rows are stats --slowest 10's", charts["summary-slowest"]["rows"],
         slow)
    check_shares(charts, overhead)
    nh = check_hists(charts, table(per_json, "hist"), per)
    bucket = table(stats_rows(tl, inputs, "--per", "packets", "--bucket",
                              "packets=1,2,4,8,16,32,64,128,inf"), "per")
    nb = check_batch(charts, bucket)
    lag = [r for r in table(stats_rows(tl, inputs), "lag") if r["n"]]
    check_boxes(charts["lags-events"]["boxes"], lag, "lags",
                ("n", "min", "p50", "p90", "p99", "max"))
    for b, r in zip(charts["lags-events"]["boxes"], lag):
        same("lags: event", b["label"], r["event"])
    nt = check_time(charts, table(stats_rows(tl, inputs, "--per", "packets", "--by",
                                             "process,event,app"), "per"),
                    table(per_json, "breaths"))
    nn = check_numa(charts, tl, inputs, overhead)
    same("entries read", sum(r["entries"] for r in charts["summary-inputs"]["rows"]),
         len(run([tl, "dump"] + inputs).splitlines()))
    print("%d charts: summary, shares, %d distributions, %d batch charts, %d lag boxes, "
          "%d over time, %d NUMA/CPU tables as stats gives them" % (
              len(charts), nh, nb, len(lag), nt, nn))


def check_page(path):
    """The page asks for nothing outside itself: its CSP forbids every
    source but its own inline style and script (by hash) and data: images;
    no element names a URL; the hashes are those of its style and script."""
    import base64
    import hashlib
    import re
    page = open(path, encoding="utf-8").read()
    csp = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
    style = re.findall(r"<style>(.*?)</style>", page, re.S)
    script = re.findall(r"<script>(.*?)</script>", page, re.S)
    same("one CSP, one style, one script", (len(csp), len(style), len(script)), (1, 1, 1))
    if problems:
        return
    h = lambda s: "'sha256-%s'" % base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()
    same("CSP", csp[0], "default-src 'none'; style-src %s; script-src %s; img-src data:" % (
        h(style[0]), h(script[0])))
    same("the CSP comes before any style or script",
         page.index("Content-Security-Policy") < min(page.index("<style>"), page.index("<script")), True)
    urls = re.findall(r'(?:src|href|xlink:href|action|url)\s*[=(]\s*["\']?([^"\' )>]*)', page)
    same("URLs other than data:", [u for u in urls if not u.startswith("data:")], [])
    same("http(s) anywhere", re.findall(r"https?:", page), [])
    print("self-contained: a CSP allowing only its own style and script, by their sha256; no URL")


REPORT_FIXED = ["--per", "packets", "--bucket", "packets=1,2,4,8,16,32,64,128,inf"]


def check_summary(tl, d):
    import os
    import tempfile
    tmp = tempfile.mkdtemp()
    good, other = os.path.join(tmp, "good.tlsum"), os.path.join(tmp, "other.tlsum")
    run([tl, "stats", "--save", good] + REPORT_FIXED + [d])
    run([tl, "stats", "--save", other, "--per", "packets", d])
    logs = {(c.get("section"), c.get("chart")): c for c in
            lines(run([tl, "report", "--format", "json", d]))}
    summ_lines = lines(run([tl, "report", "--format", "json", good]))
    summ = {(c.get("section"), c.get("chart")): c for c in summ_lines}
    kept = [k for k in logs if k[1] and (k[1] in ("summary-share", "summary-apps",
                                                   "cycles-processes")
                                         or k[0] in ("dist", "batch"))]
    for k in kept:
        same("chart %s/%s from the summary" % k, summ.get(k), logs[k])
    if ("numa", "cpu-table") in logs:
        def no_share(c):
            return [{f: v for f, v in r.items() if f != "share%"} for r in c["rows"]]
        same("the CPU table but share% from the summary",
             no_share(summ[("numa", "cpu-table")]), no_share(logs[("numa", "cpu-table")]))
    same("report's about", summ_lines[0]["about"].split(" read by")[0], "1 summary")
    same("the inputs row of the summary", summ[("summary", "summary-inputs")]["rows"],
         [{"process": "(summary)", "host": None, "group": os.path.basename(tmp),
           "span_s": None, "span_cycles": None, "rate": None, "entries": None, "read": None,
           "wrapped": None, "skipped": None, "path": good}])
    notes = [c["note"] for c in summ_lines if "note" in c]
    for start in ("Summaries keep no bins over time", "Summaries keep no lags"):
        same("a note starting %r" % start, any(n.startswith(start) for n in notes), True)
    p = subprocess.run([tl, "report", "--format", "json", other], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    same("exit status for a summary made with other options", p.returncode, 2)
    same("its message", p.stderr.splitlines()[0] if p.stderr else "",
         "timeline report: %s: made with '--per packets' but read with '%s' (a summary fixes "
         "--per, --pair, --bucket and the window: --from, --to, --last, --event, --app, --cpu "
         "and --numa; read it with the same)" % (other, " ".join(REPORT_FIXED)))
    for f in (good, other):
        os.unlink(f)
    os.rmdir(tmp)
    print("%d charts from a summary as from its logs; notes for time and lags; "
          "other options refused" % len(kept))


def check_diff_summary(tl, a, b):
    import os
    import tempfile
    tmp = tempfile.mkdtemp()
    sa, sb = os.path.join(tmp, "a.tlsum"), os.path.join(tmp, "b.tlsum")
    run([tl, "diff", "--per", "packets", "--save-a", sa, "--save-b", sb, a, b], ok=(0, 1))
    logs = [c for c in lines(run([tl, "report", "--format", "json", "--a", a, "--b", b], ok=(0, 1)))
            if c.get("section") == "diff"]
    summ = [c for c in lines(run([tl, "report", "--format", "json", "--a", sa, "--b", sb],
                                 ok=(0, 1))) if c.get("section") == "diff"]
    # the section's words name the diff command, whose inputs differ
    for c in logs + summ:
        c.pop("about", None)
    same("the diff section from the summaries", summ, logs)
    for f in (sa, sb):
        os.unlink(f)
    os.rmdir(tmp)
    print("%d diff charts from the summaries as from the logs" % len(logs))


def side_charts(tl, *inputs):
    """The batch charts by title up to the ':', the lag boxes, the NUMA and
    CPU bars and table rows, the bars per process and the slowest pairs of
    the report of INPUTS."""
    charts = [c for c in lines(run([tl, "report", "--format", "json"] + list(inputs), ok=(0, 1)))
              if "chart" in c and (c.get("section") in ("batch", "lags", "numa", "cycles")
                                   or c["chart"] == "summary-slowest")]
    out = {}
    for c in charts:
        key = c["chart"] if c["section"] != "batch" else "batch " + c["title"].split(":")[0]
        out[key] = c.get("boxes") or c.get("bars") or c.get("rows")
    return out


def check_sides(tl, a, b):
    both = side_charts(tl, "--a", a, "--b", b)
    alone = [side_charts(tl, a), side_charts(tl, b)]
    n = 0
    for key, items in sorted(both.items()):
        for k, side in enumerate("AB"):
            got = [{f: v for f, v in x.items() if f != "side"} for x in items
                   if x["side"] == side]
            same("%s of %s" % (key, side), got, alone[k].get(key, []))
            n += len(got)
    same("charts", sorted(both), sorted(set(alone[0]) | set(alone[1])))
    print("%d charts, %d boxes, bars and rows of each side as the report of that side "
          "alone" % (len(both), n))


def main(argv):
    if len(argv) >= 4 and argv[1] == "snabb-apps":
        snabb_apps(argv[2], argv[3])
    elif len(argv) == 5 and argv[1] == "sides":
        check_sides(argv[2], argv[3], argv[4])
    elif len(argv) >= 4 and argv[1] == "stats":
        check_stats(argv[2], argv[3:])
    elif len(argv) == 4 and argv[1] == "summary":
        check_summary(argv[2], argv[3])
    elif len(argv) == 5 and argv[1] == "diff-summary":
        check_diff_summary(argv[2], argv[3], argv[4])
    elif len(argv) == 3 and argv[1] == "page":
        check_page(argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
