"""notebook.py: the last mile in Python, on the logs `make demo` leaves in
demo/out: the stats frame of the ten engines, each app's cycles per
packet over time computed from the raw entries with pandas, and the A/B
distributions of the app the demo's diff finds slower; saved as one PNG.

    make demo
    PYTHONPATH=python python3 examples/notebook.py [DEMO_OUT [PNG]]
"""
import sys

import matplotlib
import numpy as np

import timeline

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "demo/out"
png = sys.argv[2] if len(sys.argv) > 2 else out + "/notebook.png"


def cycles_per_packet(df):
    """Each app callback's cycles per packet, from its begin and end
    entries: push/pushed count inpackets, pull/pulled outpackets."""
    df = df[df["event"].isin(["app.push", "app.pushed", "app.pull", "app.pulled"])]
    df = df.sort_values(["log", "app", "seq"], kind="stable")
    nxt = df.groupby(["log", "app"], observed=True).shift(-1)
    ev, nev = df["event"].astype(str), nxt["event"].astype(str)
    begin = ((ev == "app.push") & (nev == "app.pushed")) | ((ev == "app.pull") & (nev == "app.pulled"))
    counter = np.where(ev == "app.push", "arg0", "arg2")   # inpackets, outpackets
    packets = np.where(counter == "arg0", nxt["arg0"] - df["arg0"], nxt["arg2"] - df["arg2"])
    cycles = nxt["tsc"].astype("float64") - df["tsc"].astype("float64")
    keep = begin.to_numpy() & (packets > 0)
    return df.loc[keep, ["log", "app", "ns"]].assign(
        cpp=cycles[keep] / packets[keep].astype("float64"))


runs = timeline.read(out + "/runs", apps="*")
stats = timeline.stats(out + "/runs", per="packets", by=["app"])
print("timeline.stats(%r, per='packets', by=['app']):" % (out + "/runs"))
print(stats.head(6).to_string(index=False))

fig, (over, ab) = plt.subplots(1, 2, figsize=(11, 3.8), dpi=80)
cpp = cycles_per_packet(runs)
cpp["ms"] = (cpp["ns"].dt.total_seconds() * 1e3 // 50) * 50    # 50 ms bins
for app, g in cpp.groupby("app", observed=True):
    m = g.groupby("ms")["cpp"].agg(["median", "size"])
    m = m[m["size"] >= 20]   # the last bins hold a few calls of the slowest runs only
    over.plot(m.index, m["median"].to_numpy(), label=app, lw=1.4)
over.set_yscale("log")
over.set_xlabel("ms since each log's first entry")
over.set_ylabel("cycles per packet (median of 50 ms)")
over.set_title("cycles per packet over time, per app (10 engines)")
over.set_ylim(top=over.get_ylim()[1] * 2)   # room for the legend above the lines
over.legend(fontsize=8, ncol=5, loc="upper left")

d = timeline.diff(out + "/ab/normal", out + "/ab/slow", per="packets")
print("\ntimeline.diff(normal, slow, per='packets'):")
print(d[["event", "app", "p50_a", "p50_b", "change%", "p", "verdict"]].head(4).to_string(index=False))
worst = d[d["app"].notna()].iloc[0]
bins = np.logspace(0, 4, 60)
for side, label in (("normal", "A: normal"), ("slow", "B: --slow lookup=60")):
    x = cycles_per_packet(timeline.read(out + "/ab/" + side, apps=worst["app"]))
    ab.hist(x["cpp"], bins=bins, histtype="step", lw=1.6, label="%s (%d calls)" % (label, len(x)))
ab.set_xscale("log")
ab.set_xlabel("cycles per packet")
ab.set_ylabel("callbacks")
ab.set_title("%s %s: %s, %+.0f%%" % (worst["event"], worst["app"], worst["verdict"],
                                     worst["change%"]))
ab.legend(fontsize=8)
fig.tight_layout()
fig.savefig(png)
print("\nwrote", png)
