"""test_stats.py: timeline.stats() and timeline.diff() equal, value for
value and type for type, the rows `timeline stats -f json` and `timeline
diff -f json` print of the same inputs: the Snabb fixture, demo-like
logs, and summaries merged."""
import json
import math

import numpy as np
import pandas as pd
import pytest

import timeline
from conftest import SNABB, manual_log, tl


def json_rows(*args):
    out, _, _ = tl(*args)
    return [json.loads(ln) for ln in out.splitlines()]


def assert_equal(frames, rows):
    """FRAMES (a dict of table -> DataFrame) hold ROWS exactly: each value
    equal, an int an int (never a float), a null missing."""
    tables = {}
    for r in rows:
        tables.setdefault(r["table"], []).append(r)
    assert set(frames) == set(tables)
    for t, rs in tables.items():
        df = frames[t]
        assert len(df) == len(rs), t
        keys = [k for k in dict.fromkeys(k for r in rs for k in r) if k != "table"]
        assert list(df.columns) == keys, t
        for k in keys:
            col = df[k]
            for i, r in enumerate(rs):
                want, got = r.get(k), col.iloc[i]
                if want is None:
                    assert pd.isna(got), (t, i, k)
                elif isinstance(want, bool) or isinstance(want, str):
                    assert got == want, (t, i, k)
                elif isinstance(want, int) and col.dtype.kind in "iuO" or \
                        str(col.dtype) in ("Int64", "UInt64"):
                    assert int(got) == want and not isinstance(got, float), (t, i, k)
                else:
                    assert float(got) == float(want) and not math.isnan(got), (t, i, k)
                    assert float(want) == want   # no int beyond a double's 53 bits


CASES = [
    {},
    {"per": "packets"},
    {"per": "packets", "by": ["app", "numa"], "bucket": "packets=0,1,16,32,64,inf"},
    {"per": "bytes", "by": ["app", "cpu"], "bucket": {"packets": [0, 8, 32, "inf"]}},
    {"per": "packets", "by": "event,app", "pair": ("app.pull", "app.pushed"),
     "apps": "sour*"},
    {"events": "app.*", "last": "5ms", "cpus": [0, 1]},
]


def cli_args(kw):
    a = []
    for k, v in kw.items():
        if k == "bucket" and isinstance(v, dict):
            (arg, edges), = v.items()
            v = "%s=%s" % (arg, ",".join(map(str, edges)))
        if isinstance(v, tuple):
            v = "%s=%s" % v
        if isinstance(v, list):
            v = ",".join(map(str, v))
        a += ["--" + {"apps": "app", "events": "event", "cpus": "cpu"}.get(k, k), v]
    return a


@pytest.mark.parametrize("kw", CASES)
def test_stats_of_demo_logs_equal_the_programs_json(demo, kw):
    got = timeline.stats(demo / "runs", table="all", **kw)
    assert_equal(got, json_rows("stats", "-f", "json", *cli_args(kw), demo / "runs"))
    main = timeline.stats(demo / "runs", **kw)
    assert main.equals(got["per" if "per" in kw else "lag"])


@pytest.mark.parametrize("kw", [{}, {"per": "packets", "by": ["app"]}, {"by": "event,cpu"}])
def test_stats_of_the_snabb_fixture_equal_the_programs_json(kw):
    got = timeline.stats(SNABB, table="all", **kw)
    assert_equal(got, json_rows("stats", "-f", "json", *cli_args(kw), SNABB))
    assert len(got["lag" if not kw.get("per") else "per"]) >= 5


def test_stats_keep_integers_beyond_a_doubles_53_bits(demo):
    lag = timeline.stats(demo / "runs", table="all")["lag"]
    assert lag["n"].dtype == np.int64 and lag["max"].dtype in (np.int64, np.float64)
    from timeline._stats import column
    big = column([2**63 + 5, None, 7])
    assert str(big.dtype) == "UInt64" and int(big[0]) == 2**63 + 5 and pd.isna(big[1])
    assert column([1, 2.5, None]).dtype == np.float64
    assert column([2**60, 0.5]).dtype == np.dtype(object)   # a float64 would round 2^60 + 0


def test_a_column_is_float_only_up_to_2_to_the_53_and_int64_only_below_2_to_the_63():
    from timeline._stats import column
    # beside a float, an int of 2^53 is still exact as a double, 2^53 + 1 not
    for ints, kind in (([2**53, -2**53], np.float64), ([2**53 + 1], object),
                       ([-2**53 - 1], object)):
        c = column(ints + [0.5])
        assert c.dtype == np.dtype(kind), ints
        assert [int(v) for v in c[:-1]] == ints and c[-1] == 0.5
    # ints alone: int64 up to 2^63 - 1, uint64 from 2^63 to 2^64 - 1, beyond exact objects
    for ints, kind in (([2**63 - 1, -2**63], np.int64), ([2**63, 0], np.uint64),
                       ([2**64 - 1], np.uint64), ([2**64], object), ([-1, 2**63], object)):
        c = column(ints)
        assert c.dtype == np.dtype(kind), ints
        assert [int(v) for v in c] == ints
    for ints, kind in (([2**63 - 1, None], "Int64"), ([2**63, None], "UInt64")):
        c = column(ints)
        assert str(c.dtype) == kind and int(c[0]) == ints[0] and pd.isna(c[1])


def test_frames_keep_integers_beyond_2_to_the_53_beside_floats():
    # rows as the program prints them (its counters are exact integers,
    # its doubles print as integers when whole): a column of an int past
    # 2^53 and a float keeps both exactly; one whose ints fit a double is
    # float64; ints alone are int64
    from timeline._stats import frames
    lines = ['{"table":"per","event":"a","n":9007199254740993,"cycles":2.5,"p50":9007199254740992}',
             '{"table":"per","event":"b","n":3,"cycles":9007199254740993,"p50":0.5}']
    df = frames([json.loads(ln) for ln in lines])["per"]
    assert df["n"].dtype == np.int64 and df["n"].tolist() == [2**53 + 1, 3]
    assert df["cycles"].dtype == np.dtype(object) and df["cycles"].tolist() == [2.5, 2**53 + 1]
    assert type(df["cycles"].iloc[1]) is int
    assert df["p50"].dtype == np.float64 and df["p50"].tolist() == [2.0**53, 0.5]


@pytest.mark.parametrize("kw", [{"per": "packets"}, {"per": "packets", "by": ["app"],
                                                     "threshold": 10},
                                {"by": "event", "alpha": 0.1, "absolute": True}])
def test_diff_of_demo_runs_equals_the_programs_json(demo, kw):
    a, b = demo / "ab/normal", demo / "ab/slow"
    got = timeline.diff(a, b, table="all", **kw)
    args = cli_args({k: v for k, v in kw.items() if k not in ("threshold", "alpha", "absolute")})
    args += ["--threshold", repr(float(kw["threshold"]))] if "threshold" in kw else []
    args += ["--alpha", repr(float(kw["alpha"]))] if "alpha" in kw else []
    args += ["--absolute"] if kw.get("absolute") else []
    assert_equal(got, json_rows("diff", "-f", "json", *args, a, b))
    d = timeline.diff(a, b, **kw)
    assert len(d) > 3 and "verdict" in d.columns


def test_the_slow_lookup_is_found_slower(demo):
    d = timeline.diff(demo / "ab/normal", demo / "ab/slow", per="packets", threshold=10)
    lookup = d[(d["event"] == "app.push") & (d["app"] == "lookup")].iloc[0]
    assert lookup["verdict"] == "SLOWER" and lookup["change%"] > 10


def test_summaries_read_and_merge_as_the_program_merges_them(demo, tmp_path):
    logs = sorted((demo / "runs").iterdir())
    for i, log in enumerate(logs):
        timeline.stats(log, per="packets", save=tmp_path / ("%d.sum" % i))
    sums = sorted(tmp_path.glob("*.sum"))
    assert len(sums) == 3
    merged = timeline.stats(sums, per="packets", by=["app"], table="all")
    assert_equal(merged, json_rows("stats", "-f", "json", "--per", "packets", "--by", "app",
                                   *sums))
    # summaries say what their logs say
    direct = timeline.stats(logs, per="packets", by=["app"], table="all")
    assert merged["per"].equals(direct["per"])
    # and a diff reads them too
    d = timeline.diff(sums[:2], sums[2:], per="packets", by=["app"], table="all")
    assert_equal(d, json_rows("diff", "-f", "json", "--per", "packets", "--by", "app",
                              "--a", sums[0], "--a", sums[1], "--b", sums[2]))
