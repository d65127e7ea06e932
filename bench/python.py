"""python.py: the Python package against the other ways into Python, in
one process and one run (bench/python.sh runs it): timeline.read() of a
log into a DataFrame, pandas.read_csv of `timeline dump -f csv` of it,
babeltrace2's Python API (bt2) over its CTF export, each the median of
RUNS; and, in a child of its own, the peak memory of timeline.read()
over the frame's own size. Prints name,value lines.
Usage: python3 bench/python.py LOG CSV CTF RUNS"""
import os
import statistics
import subprocess
import sys
import time

import pandas as pd

import timeline


def median(fn, runs):
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t)
        del out
    return statistics.median(ts)


def bt2_read(ctf):
    """Every event of the CTF trace through bt2, as a user reads one: its
    name, time and fields into Python lists."""
    import bt2
    names, times, fields = [], [], []
    for msg in bt2.TraceCollectionMessageIterator(ctf):
        if type(msg) is bt2._EventMessageConst:
            ev = msg.event
            names.append(ev.name)
            times.append(msg.default_clock_snapshot.ns_from_origin)
            fields.append([int(v) for v in ev.payload_field.values()])
    return len(names)


PEAK = """
import sys, timeline
def kb(field):
    for ln in open('/proc/self/status'):
        if ln.startswith(field):
            return int(ln.split()[1])
with open('/proc/self/clear_refs', 'w') as f:   # the peak from here on
    f.write('5')
base = kb('VmRSS:')
df = timeline.read(sys.argv[1])
peak = kb('VmHWM:')
size = int(df.memory_usage(deep=True).sum())
print('%d %d %d' % ((peak - base) * 1024, size, len(df)))
"""


def main():
    log, csv, ctf, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    n = len(timeline.read(log))
    t_read = median(lambda: timeline.read(log), runs)
    t_csv = median(lambda: pd.read_csv(csv), runs)
    print("python_read_seconds,%.4f" % t_read)
    print("python_read_entries_per_s,%.2f" % (n / t_read / 1e6))
    print("pandas_read_csv_seconds,%.4f" % t_csv)
    print("pandas_read_csv_vs_python_read,%.2f" % (t_csv / t_read))
    try:
        import bt2  # noqa: F401
        t_bt2 = median(lambda: bt2_read(ctf), 1)
        print("bt2_read_seconds,%.4f" % t_bt2)
        print("bt2_read_vs_python_read,%.2f" % (t_bt2 / t_read))
    except ImportError:
        print("bt2_read_seconds,skipped", file=sys.stderr)
    p = subprocess.run([sys.executable, "-c", PEAK, log], stdout=subprocess.PIPE, check=True,
                       env=os.environ)
    grew, size, rows = map(int, p.stdout.split())
    print("python_read_frame_mb,%.1f" % (size / 2**20))
    print("python_read_peak_mb,%.1f" % (grew / 2**20))
    print("python_read_peak_vs_frame,%.2f" % (grew / size))
    print("entries,%d" % rows)


main()
