"""test_errors.py: a bad input raises TimelineError with the library's one
line naming the file, the very line `timeline dump` prints for it;
errors='warn' warns it and reads the other paths; and the hostile
catalogue (cut, lying, foreign, compressed, looping inputs, and the
fuzzers' regressions) read in a child interpreter, so that a crash would
fail here rather than end the suite, gives each file dump's lines and
dump's entries."""
import json
import os
import struct
import subprocess
import sys
import warnings

import pandas as pd
import pytest

import timeline
from conftest import ENGINE, SNABB, SRC, tl


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """Two small logs of the demo engine (rings of 64 entries, wrapped)."""
    d = tmp_path_factory.mktemp("good")
    for n in ("a", "b"):
        subprocess.run([ENGINE, "--dir", d / n, "--name", n, "--entries", "64", "--breaths", "30",
                        "--rate", "all"], check=True, stdout=subprocess.DEVNULL)
    return [next((d / n).glob("*.timeline")) for n in ("a", "b")]


def dump_lines(*paths):
    """dump's problems for PATHS, without its prefix and notes; and how
    many entries it printed."""
    out, err, rc = tl("dump", *paths, check=False)
    assert rc in (0, 2)
    lines = [ln[len("timeline dump: "):] for ln in err.splitlines()]
    return [ln for ln in lines if not ln.startswith("note: ")], len(out.splitlines())


def test_a_bad_file_raises_the_librarys_line(good, tmp_path):
    bad = tmp_path / "bad.timeline"
    bad.write_bytes(open(good[0], "rb").read()[:5000])
    with pytest.raises(timeline.TimelineError) as e:
        timeline.read([good[0], bad])
    want, _ = dump_lines(bad)
    assert [str(e.value)] == want
    assert str(e.value).startswith(str(bad) + ": ")


def test_errors_warn_reads_the_other_paths(good, tmp_path):
    bad = tmp_path / "bad.timeline"
    bad.write_bytes(b"\0" * 100)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        df = timeline.read([good[0], bad, tmp_path / "missing", good[1]], errors="warn")
    want, n = dump_lines(good[0], bad, tmp_path / "missing", good[1])
    assert [str(x.message) for x in w] == want and len(want) == 2
    assert all(x.category is timeline.TimelineWarning for x in w)
    assert len(df) == n and df["log"].nunique() == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(timeline.read([bad, good[1]], errors="ignore")) == len(timeline.read(good[1]))
    with pytest.raises(ValueError):
        timeline.read(good[0], errors="sometimes")


def test_stats_errors_are_the_programs_lines(good, tmp_path):
    bad = tmp_path / "cut.timeline"
    bad.write_bytes(open(good[0], "rb").read()[:4100])
    with pytest.raises(timeline.TimelineError) as e:
        timeline.stats([good[0], bad])
    _, err, rc = tl("stats", good[0], bad, check=False)
    assert rc == 2 and err == "timeline stats: %s\n" % e.value
    with pytest.warns(timeline.TimelineWarning):
        df = timeline.stats([good[0], bad], errors="warn")
    assert df.equals(timeline.stats(good[0]))
    with pytest.raises(timeline.TimelineError) as e:   # bad usage raises whatever errors=
        timeline.stats(good[0], per="packets", bucket="packets=9,1", errors="ignore")
    assert "bucket" in str(e.value)


# ---- windows and filters that keep nothing: timeline(1)'s lines ---------------

def warned(paths, **kw):
    """read(PATHS, errors='warn', **KW): the frame and the lines warned."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        df = timeline.read(paths, errors="warn", **kw)
    assert all(x.category is timeline.TimelineWarning for x in w)
    return df, [str(x.message) for x in w]


def seconds(ns):
    """NS in seconds as the span of a log is said: 9 decimals, no trailing zero."""
    return ("%d.%09d" % divmod(int(ns), 10**9)).rstrip("0").rstrip(".") + "s"


def test_a_window_past_a_logs_end_raises_its_span_as_dump_says_it(good):
    full = timeline.read(good[0])
    n, last_ns = len(full), full["ns"].iloc[-1].value
    cycles = int(full["tsc"].iloc[-1] - full["tsc"].iloc[0])
    walls = [t.strftime("%Y-%m-%dT%H:%M:%S.") + "%09dZ" % (t.value % 10**9)
             for t in (full["wall"].iloc[0], full["wall"].iloc[-1])]
    assert n == 64 and last_ns > 0 and cycles > 0   # a wrapped ring of 64
    cases = [
        ({"start": "1h"}, ["--from", "1h"],
         "no entries at or after 1h; %s spans 0s to %s" % (good[0], seconds(last_ns))),
        ({"start": pd.Timedelta("1h")}, ["--from", "3600000000000ns"],
         "no entries at or after 3600000000000ns; %s spans 0s to %s" % (good[0],
                                                                        seconds(last_ns))),
        ({"start": cycles + 1, "end": cycles + 9}, ["--from", cycles + 1, "--to", cycles + 9],
         "no entries between %d and %d; %s spans 0 to %d cycles" % (cycles + 1, cycles + 9,
                                                                    good[0], cycles)),
        ({"end": "2000-01-01T00:00:00Z", "last": "1us"},
         ["--to", "2000-01-01T00:00:00Z", "--last", "1us"],
         "no entries at or before 2000-01-01T00:00:00Z in the last 1us; %s spans %s to %s"
         % (good[0], walls[0], walls[1])),
    ]
    for kw, opts, line in cases:
        with pytest.raises(timeline.TimelineError) as e:
            timeline.read(good[0], **kw)
        assert str(e.value) == line
        _, err, rc = tl("stats", *opts, good[0], check=False)
        assert rc == 2 and err == "timeline stats: %s\n" % line
        df, lines = warned(good[0], **kw)
        assert lines == [line] and len(df) == 0
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert len(timeline.read(good[0], errors="ignore", **kw)) == 0
        assert timeline.read(good[0], numpy=True, errors="ignore", **kw).shape == (0,)


def test_an_event_not_in_the_logs_raises_dumps_line_for_each_log(good):
    n = [len(timeline.read(p)) for p in good]
    with pytest.raises(timeline.TimelineError) as e:
        timeline.read(good, events="nope.*")
    assert str(e.value) == "--event 'nope.*' keeps none of the %d entries of %s" % (n[0], good[0])
    want = ["--event 'nope.*' keeps none of the %d entries of %s" % (n[0], good[0]),
            "--event 'nope.*' keeps none of the %d entries of %s" % (n[1], good[1])]
    df, lines = warned(good, events="nope.*")
    assert lines == want and len(df) == 0
    assert dump_lines("--event", "nope.*", *good) == (want, 0)
    # with time bounds: the entries in them, and two filters keep
    lo = "%dns" % (timeline.read(good[0])["ns"].iloc[-1].value // 2)
    kept = len(timeline.read(good[0], start=lo))
    assert 0 < kept < n[0]
    line = "--app 'nope' --cpu 4095 keep none of the %d entr%s of %s in the time window" % (
        kept, "y" if kept == 1 else "ies", good[0])
    df, lines = warned(good[0], start=lo, apps="nope", cpus="4095")
    assert lines == [line] and len(df) == 0
    assert dump_lines("--from", lo, "--app", "nope", "--cpu", "4095", good[0]) == ([line], 0)
    # a list of globs, as one option each
    df, lines = warned(good[0], events=["x", "y"], numas=[3, 1, 2])
    assert lines == ["--event 'x' --event 'y' --numa 1-3 keep none of the %d entries of %s"
                     % (n[0], good[0])]


def test_one_log_of_two_kept_makes_the_others_keeping_nothing_no_news(good):
    snabb_n = len(timeline.read(SNABB))
    only = timeline.read(good[0], events="engine.stopped")
    assert len(only) == 1   # the demo engine's last entry; Snabb's engine has no such event
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = timeline.read([good[0], SNABB], events="engine.stopped")
    assert df["tsc"].tolist() == only["tsc"].tolist() and df["log"].nunique() == 1
    assert dump_lines("--event", "engine.stopped", good[0], SNABB) == ([], 1)
    df, lines = warned(SNABB, events="engine.stopped")
    assert lines == ["--event 'engine.stopped' keeps none of the %d entries of %s"
                     % (snabb_n, SNABB)] and len(df) == 0
    # a time window: a path whose logs all end before it says so; in one
    # directory with a log that reaches into it, the other is no news
    ends = sorted(timeline.read(p)["ns"].iloc[-1].value for p in good)
    short = good[[timeline.read(p)["ns"].iloc[-1].value for p in good].index(ends[0])]
    assert ends[0] < ends[1]   # two runs of the engine: never of one length to the ns
    start = "%dns" % (ends[0] + 1)
    df, lines = warned(good, start=start)
    assert lines == ["no entries at or after %s; %s spans 0s to %s" % (start, short,
                                                                     seconds(ends[0]))]
    assert len(df) >= 1 and set(df["log"].astype(str)) == {str(p) for p in good} - {str(short)}
    assert dump_lines("--from", start, *good) == (lines, len(df))
    parent = os.path.dirname(os.path.dirname(good[0]))
    assert os.path.dirname(os.path.dirname(good[1])) == parent
    df, lines = warned(parent, start=start)
    assert lines == [] and len(df) == len(timeline.read(good, start=start, errors="ignore"))


def put(b, off, fmt, v):
    b = bytearray(b)
    struct.pack_into(fmt, b, off, v)
    return bytes(b)


def catalogue(good, d):
    """Writes the hostile inputs into D; returns their paths."""
    g = open(good, "rb").read()
    entries, ring, strings, size = struct.unpack_from("<QQQ", g, 24)[0], 4096, \
        struct.unpack_from("<Q", g, 40)[0], len(g)
    files = {"empty": b"", "garbage": bytes(range(256)) * 40}
    for cut in (3, 4, 8, 64, 4095, 4096, 4096 + 64, strings - 1, strings, size - 1):
        files["cut-%d" % cut] = g[:cut]
    files["magic"] = put(g, 0, "<B", g[0] ^ 0xff)
    files["major"] = put(g, 8, "<H", 99)
    files["minor"] = put(g, 10, "<H", 99)
    files["entries-2^63"] = put(g, 24, "<Q", 2**63)
    files["entries-2^32"] = put(g, 24, "<Q", 2**32)
    files["entries-128"] = put(g, 24, "<Q", 128)
    files["ring-offset"] = put(g, 32, "<Q", 2**64 - 64)
    files["strings-bytes"] = put(g, 48, "<Q", 2**64 - 16)
    files["file-bytes"] = put(g, 56, "<Q", 2**64 - 1)
    files["header-bytes"] = put(g, 12, "<I", 0xffffffff)
    files["entry-bytes"] = put(g, 16, "<I", 0)
    files["cursor"] = put(g, 64, "<Q", 2**40)
    files["cursor-max"] = put(g, 64, "<Q", 2**64 - 1)
    files["strings-used"] = put(g, 84, "<I", 0xfffffff0)
    files["hz-0"] = put(g, 128, "<Q", 0)
    files["hz-huge"] = put(g, 128, "<Q", 2**63)
    b = g
    for slot in range(entries):
        b = put(b, ring + 64 * slot + 8, "<H", 0xffff - slot)
    files["msgids-beyond"] = b
    files["strings-no-nul"] = g[:strings] + b"A" * (size - strings)
    files["seq-torn"] = put(g, ring + 12, "<I", 0xfffffff0)
    s = subprocess.run(["zstd", "-dc", SNABB], stdout=subprocess.PIPE, check=True).stdout \
        if os.path.exists("/usr/bin/zstd") else None
    if s:
        for cut in (10, 63, 64, 64 + 64 * 100, len(s) - 1):
            files["snabb-cut-%d" % cut] = s[:cut]
        files["snabb-major"] = put(s, 8, "<H", 9)
        files["snabb-log-bytes"] = put(s, 12, "<I", 0xffffffc0)
        files["snabb-strings"] = put(s, 16, "<I", 0xffffffff)
        files["snabb-disorder"] = put(put(s, 64 + 64 * 10, "<d", 1.0), 64 + 64 * 20, "<d", 2.0)
    paths = []
    for name, data in files.items():
        p = os.path.join(d, name + ".timeline")
        with open(p, "wb") as f:
            f.write(data)
        paths.append(p)
    z = os.path.join(d, "good.zst")
    tl("copy", "--zstd", good, z)
    zb = open(z, "rb").read()
    for cut in (4, 12, len(zb) // 2, len(zb) - 1):
        p = os.path.join(d, "zstd-cut-%d.zst" % cut)
        open(p, "wb").write(zb[:cut])
        paths.append(p)
    if os.path.exists("/usr/bin/zstd"):   # a bomb: a log, then 64 MiB of zeros
        p = os.path.join(d, "bomb.zst")
        subprocess.run("(cat '%s'; head -c 67108864 /dev/zero) | zstd -q -c > '%s'" % (good, p),
                       shell=True, check=True)
        paths.append(p)
    loop = os.path.join(d, "loop")
    os.symlink("loop", loop)
    os.mkfifo(os.path.join(d, "fifo"))
    os.symlink("nowhere", os.path.join(d, "dangling"))
    os.mkdir(os.path.join(d, "empty-dir"))
    paths += [loop, os.path.join(d, "fifo"), os.path.join(d, "dangling"),
              os.path.join(d, "empty-dir"), os.path.join(d, "missing")]
    reg = os.path.join(SRC, "tests/fuzz/regressions")
    for h in sorted(os.listdir(reg)) if os.path.isdir(reg) else []:
        paths += [os.path.join(reg, h, f) for f in sorted(os.listdir(os.path.join(reg, h)))]
    return paths


CHILD = r"""
import json, sys, warnings
import timeline
out = {}
good, paths = sys.argv[1], sys.argv[2:]
for p in paths:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        df = timeline.read([good, p, good], errors="warn")
        ev = timeline.events([p], errors="ignore")
    try:
        timeline.read(p)
        raised = None
    except timeline.TimelineError as e:
        raised = str(e)
    out[p] = {"lines": [str(x.message) for x in w if x.category is timeline.TimelineWarning],
              "rows": len(df), "raised": raised}
json.dump(out, sys.stdout)
"""


def test_the_hostile_catalogue_gives_dumps_lines_and_never_a_crash(good, tmp_path):
    d = tmp_path / "hostile"
    d.mkdir()
    paths = catalogue(str(good[0]), str(d))
    assert len(paths) > 45
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, "-c", CHILD, str(good[0])] + paths, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    assert p.returncode == 0, p.stderr.decode()[-2000:]
    got = json.loads(p.stdout)
    read_some = 0
    for path in paths:
        lines, rows = dump_lines(good[0], path, good[0])
        g = got[path]
        assert g["lines"] == lines, path
        assert g["rows"] == rows, path
        alone, _ = dump_lines(path)
        _, _, rc = tl("dump", path, check=False)
        assert (g["raised"] is not None) == (rc == 2), path   # a problem raises, a note not
        assert g["raised"] is None or g["raised"] in alone, path
        read_some += rows > 2 * len(timeline.read(good[0]))
    # the whole directory, walked: its files skipped or reported as dump does
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        df = timeline.read(d, errors="warn")
    lines, rows = dump_lines(d)
    assert [str(x.message) for x in w] == lines and len(df) == rows
    assert len(lines) > 20 and read_some > 3


def test_summaries_that_lie_give_the_programs_lines(good, tmp_path):
    s = tmp_path / "good.sum"
    timeline.stats(good[0], per="packets", save=s)
    b = s.read_bytes()
    bad = []
    for cut in (0, 3, 8, 16, len(b) // 3, len(b) // 2, len(b) - 1):
        p = tmp_path / ("cut-%d.sum" % cut)
        p.write_bytes(b[:cut])
        bad.append(p)
    for off in (8, 12, 16, len(b) // 2, len(b) - 4):
        p = tmp_path / ("flip-%d.sum" % off)
        p.write_bytes(b[:off] + bytes([b[off] ^ 0xff]) + b[off + 1:])
        bad.append(p)
    refused = 0
    for p in bad:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            got = timeline.stats([s, p, s], per="packets", table="all", errors="warn")
        out, err, rc = tl("stats", "-f", "json", "--per", "packets", s, p, s, check=False)
        lines = [ln[len("timeline stats: "):] for ln in err.splitlines()]
        assert [str(x.message) for x in w] == [ln[len("warning: "):] if
                                               ln.startswith("warning: ") else ln
                                               for ln in lines if not ln.startswith("note: ")], p
        assert sum(len(f) for f in got.values()) == len(out.splitlines()), p
        if rc == 2:
            refused += 1
            with pytest.raises(timeline.TimelineError):
                timeline.stats([s, p], per="packets")
    assert refused >= 8   # every cut, and the flips the summary's checks see
