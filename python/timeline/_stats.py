"""_stats.py: `timeline stats` and `timeline diff` as DataFrames, by
running the timeline program with --format json and turning its rows into
frames, a table to a frame, without losing a bit: integers stay integers
(nullable Int64/UInt64 where a row has none), floats are the doubles the
program printed, nulls are missing.

Why the program rather than the engine as a library: the numbers must be
the program's, value for value, and the program is where they are made
(analysis/ fed by cli/stats/readall.c, a thread per CPU, summaries read
and merged, windows, warnings). A second binding of the engine would be
a second place for them to drift apart, for a table of a few hundred rows
whose cost is reading the logs, which is C either way."""
import json
import os
import subprocess
import warnings

import numpy as np
import pandas as pd

from . import _lib
from ._errors import Policy, TimelineError, TimelineWarning, _caller_level
from ._read import bound_arg, last_arg


def _list(x):
    return [x] if isinstance(x, (str, os.PathLike)) else list(x)


def _engine_options(per, by, bucket, pair, start, end, last, events, apps, cpus, numas):
    """The options stats and diff share, as arguments."""
    a = []
    if per is not None:
        a += ["--per", per]
    if by is not None:
        a += ["--by", by if isinstance(by, str) else ",".join(by)]
    if bucket is not None:
        if isinstance(bucket, dict):
            (arg, edges), = bucket.items()
            bucket = "%s=%s" % (arg, ",".join(str(e) for e in edges))
        a += ["--bucket", bucket]
    if pair is not None:
        for p in [pair] if isinstance(pair, str) or (isinstance(pair, tuple) and len(pair) == 2
                                                     and all(isinstance(x, str) for x in pair)) \
                else pair:
            a += ["--pair", p if isinstance(p, str) else "%s=%s" % tuple(p)]
    if start is not None:
        a += ["--from", bound_arg(start)]
    if end is not None:
        a += ["--to", bound_arg(end)]
    if last is not None:
        a += ["--last", last_arg(last)]
    for opt, v in (("--event", events), ("--app", apps)):
        if v is not None:
            v = _list(v)
            if len(v) != 1:
                raise ValueError("%s takes one glob in stats and diff, as in timeline(1)" % opt[2:])
            a += [opt, v[0]]
    for opt, v in (("--cpu", cpus), ("--numa", numas)):
        if v is not None:
            a += [opt, v if isinstance(v, str) else ",".join(str(int(c)) for c in
                                                              ([v] if np.isscalar(v) else v))]
    return a


def run(args, errors="raise", program=None):
    """Runs `timeline ARGS` (which print JSON lines); returns its rows as
    dicts and the exit status. Its problems go to ERRORS' policy, its
    warnings to TimelineWarning; usage errors always raise."""
    prog = program or _lib.program_path()
    cmd = args[0]
    try:
        p = subprocess.run([prog] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        raise TimelineError("%s: %s" % (prog, e.strerror)) from None
    if p.returncode < 0 or p.returncode > 2:
        raise TimelineError("%s %s: exit status %d: %s" % (prog, cmd, p.returncode,
                                                          p.stderr.decode(errors="replace")))
    policy = Policy(errors)
    prefix = "timeline %s: " % cmd
    lines = p.stderr.decode("utf-8", "replace").splitlines()
    if p.returncode == 2 and not p.stdout and any("--help" in ln for ln in lines):
        raise TimelineError(lines[0][len(prefix):] if lines[0].startswith(prefix) else lines[0])
    for ln in lines:
        msg = ln[len(prefix):] if ln.startswith(prefix) else ln
        if msg.startswith("note: "):
            continue
        if msg.startswith("warning: "):
            warnings.warn(msg[len("warning: "):], TimelineWarning, stacklevel=_caller_level())
            continue
        policy.problem(msg)
    rows = [json.loads(ln) for ln in p.stdout.decode("utf-8").splitlines() if ln]
    return rows, p.returncode


_I64 = (-2**63, 2**63 - 1)


def column(values):
    """A column of JSON values (None: null) that keeps each exactly."""
    present = [v for v in values if v is not None]
    kinds = {type(v) for v in present}
    missing = len(present) < len(values)
    if kinds == {int}:
        lo, hi = min(present), max(present)
        dt = "Int64" if lo >= _I64[0] and hi <= _I64[1] else "UInt64" if lo >= 0 and \
            hi < 2**64 else None
        if dt is None:
            return np.array(values, dtype=object)
        if not missing:
            return np.array(values, np.int64 if dt == "Int64" else np.uint64)
        return pd.array(values, dtype=dt)
    if kinds and kinds <= {int, float} and all(abs(v) <= 2**53 for v in present
                                               if isinstance(v, int)):
        return np.array([np.nan if v is None else float(v) for v in values], np.float64)
    if kinds == {bool} and not missing:
        return np.array(values, bool)
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def frames(rows):
    """The rows of a JSON output, a DataFrame per "table", columns in the
    order the program prints them."""
    by = {}
    for r in rows:
        by.setdefault(r.get("table", ""), []).append(r)
    out = {}
    for t, rs in by.items():
        cols = {}
        for r in rs:
            for k in r:
                if k != "table":
                    cols.setdefault(k, None)
        out[t] = pd.DataFrame({k: column([r.get(k) for r in rs]) for k in cols},
                              index=pd.RangeIndex(len(rs)))
    return out


def _pick(tables, table, main):
    if table == "all":
        return tables
    t = table or main
    return tables.get(t, pd.DataFrame())


def stats(paths, per=None, by=None, bucket=None, pair=None, start=None, end=None, last=None,
          events=None, apps=None, cpus=None, numas=None, group=None, save=None, table=None,
          errors="raise", program=None):
    """`timeline stats --format json` of PATHS (logs, directories,
    summaries: several summaries are merged as the program merges them)
    as a DataFrame equal to its rows value for value. per='packets',
    by=['app', 'numa'], bucket='packets=0,1,16,inf' (or {'packets': [0,
    1, 16, 'inf']}), pair='a.begin=a.end' (or a list of them), and the
    window (start=, end=, last=, events=, apps=, cpus=, numas=) are its
    options; group={'label': path} its --group, save='x.sum' its --save.

    The frame is the main table: 'per' with per=; without it 'declared'
    when a log declares pairs (each pair in its own unit: a unit column,
    p50_ns and p99_ns), else 'lag'; table= names another ('lag',
    'overhead', 'breaths', 'unmatched', ...), and table='all' gives a dict
    of every table's frame."""
    args = ["stats", "--format", "json"] + _engine_options(per, by, bucket, pair, start, end,
                                                         last, events, apps, cpus, numas)
    for label, path in (group or {}).items():
        args += ["--group", "%s=%s" % (label, os.fspath(path))]
    if save is not None:
        args += ["--save", os.fspath(save)]
    rows, _ = run(args + [os.fspath(p) for p in _list(paths)], errors, program)
    tables = frames(rows)
    # without per=, logs that declare pairs give them, each in its own unit
    return _pick(tables, table, "per" if per else "declared" if "declared" in tables else "lag")


def diff(a, b, per=None, by=None, bucket=None, pair=None, start=None, end=None, last=None,
         events=None, apps=None, cpus=None, numas=None, runs=None, absolute=False,
         threshold=None, alpha=None, table=None, errors="raise", program=None):
    """`timeline diff --format json` of side A against side B (each a path
    or a list of logs, directories or summaries) as a DataFrame equal to
    its rows value for value; the options as stats() has them, and runs=
    ('file' or 'dir'), absolute=, threshold= (%) and alpha=. A finding
    (SLOWER, diff's exit status 1) is a row, not an error: its verdict
    column says so."""
    args = ["diff", "--format", "json"] + _engine_options(per, by, bucket, pair, start, end,
                                                        last, events, apps, cpus, numas)
    if runs is not None:
        args += ["--runs", runs]
    if absolute:
        args += ["--absolute"]
    if threshold is not None:
        args += ["--threshold", repr(float(threshold))]
    if alpha is not None:
        args += ["--alpha", repr(float(alpha))]
    for side, paths in (("--a", a), ("--b", b)):
        for p in _list(paths):
            args += [side, os.fspath(p)]
    rows, _ = run(args, errors, program)
    return _pick(frames(rows), table, "diff")


SPAN_COLUMNS = ["file", "process", "thread", "cpu", "numa", "span", "attr_name", "attr", "id",
                "parent", "depth", "begin_tsc", "end_tsc", "begin_ns", "end_ns", "cycles",
                "self"]


def spans(paths, start=None, end=None, last=None, events=None, apps=None, cpus=None,
          numas=None, errors="raise", program=None):
    """`timeline dump --spans --format json` of PATHS as a DataFrame, one
    row per span (an instance of a begin/end pair the logs declare, or of
    Snabb's), in the order they began, log by log: file, process, thread,
    cpu, numa, span (the pair's label), attr_name and attr (its attribute,
    None when none), id (its begin's entry number) and parent (the id of
    the span it ran inside, <NA> for none), depth, begin_tsc and end_tsc,
    begin_ns and end_ns (wall clock, ns since the epoch; <NA> without a
    clock), cycles, self (its cycles less those of the spans inside it),
    and a column per unit any span moved (NaN where a span has none). The
    window as read()'s; begins and ends that pair with nothing are not
    rows (a note on stderr counts them)."""
    args = ["dump", "--spans", "--format", "json"] + _engine_options(
        None, None, None, None, start, end, last, events, apps, cpus, numas)
    rows, _ = run(args + [os.fspath(p) for p in _list(paths)], errors, program)
    return frames(rows).get("spans", pd.DataFrame({c: [] for c in SPAN_COLUMNS}))
