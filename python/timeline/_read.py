"""_read.py: logs into pandas frames and numpy arrays. Paths are walked as
timeline(1) walks them, each log's snapshot is moved in batches of
tl_reader_read() into preallocated columns, windows and filters are
applied to each batch with numpy, and each message id is named once
(tl_reader_def): no Python runs per entry."""
import ctypes
import errno
import fnmatch
import os
import re
import stat
import time

import numpy as np
import pandas as pd

from . import _lib
from ._errors import Policy

BATCH = 65536                      # entries per tl_reader_read()
NAT = np.iinfo(np.int64).min       # numpy's NaT, as int64
BASE = ["log", "seq", "tsc", "ns", "wall", "cpu", "numa", "thread", "event"]
ARGS = ["arg%d" % i for i in range(_lib.TL_MAX_ARGS)]


# ---- walking and opening, as cli/input.c does ------------------------------

def _walk(paths):
    """Yields (path, named, problem) for every file under PATHS: a named
    path as given, directories walked in name order, links to directories
    not followed (so a loop cannot be), a problem as its one line."""
    for p in paths:
        if os.path.isdir(p):
            yield from _walk_dir(p, 0)
        else:
            yield p, True, None


_DIGITS = re.compile(rb"[0-9]+|[^0-9]")


def _natural(name):
    """The key of NAME in the walk's order, natural_cmp() of
    analysis/natural.h: each run of digits by its value (as the byte '0'
    against any other byte), each other byte by its value; names equal so
    by their bytes ("host01" before "host1")."""
    b = os.fsencode(name)
    return ([(0x30, int(t)) if t[:1].isdigit() else (t[0],) for t in _DIGITS.findall(b)], b)


def _walk_dir(d, depth):
    if depth > 64:
        yield d, False, "%s: directories nested too deep" % d
        return
    try:
        names = sorted(os.listdir(d), key=_natural)
    except OSError as e:
        yield d, False, "%s: %s" % (d, e.strerror)
        return
    base = d.rstrip("/") or "/"
    for n in names:
        full = base + n if base == "/" else base + "/" + n
        try:
            st = os.lstat(full)
        except OSError:
            yield full, False, None
            continue
        if stat.S_ISDIR(st.st_mode):
            yield from _walk_dir(full, depth + 1)
        elif not stat.S_ISLNK(st.st_mode) or not os.path.isdir(full):
            yield full, False, None   # files, and links to files; a broken link reports itself


def _open(path, named):
    """A reader of PATH: (reader, tl_info); None for a file a directory
    walk passes over (not a regular file, not a log); or the problem's line
    as a str."""
    L = _lib.lib()
    if not named:
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                return None
        except OSError:
            pass
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as e:
        return "%s: %s" % (path, e.strerror or os.strerror(e.errno or errno.EIO))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None if not named else "%s: not a regular file" % path
        if not named and not L.tl_probe(fd):
            return None
        err = _lib.Error()
        r = L.tl_reader_open_fd(fd, os.fsencode(path), ctypes.byref(err))
    finally:
        os.close(fd)
    if not r:
        return err.msg.decode("utf-8", "replace")
    info = _lib.Info()
    L.tl_reader_info(r, ctypes.byref(info))
    return r, info


class _Log:
    """One open log: its reader, header, and the definitions of the
    message ids met so far."""

    def __init__(self, path, r, info, top=0):
        self.path, self.r, self.info = path, r, info
        self.top = top               # the index of the path given it was found under
        self.t0 = self.newest = None   # read: its first and newest timestamps ...
        self.seen = 0                # ... and its entries in the window's time bounds
        self.defs = {}               # msgid -> (name, attrs dict, level, rate, args, descr)
        self.hz = info.tsc_hz
        self.thread_labels = None    # its threads as timeline(1) names them (threads())
        self.recorder = None         # its flight recorder, as a dict (trigger())

    def threads(self):
        """Its threads' labels, by index, as `timeline dump` prints them:
        "name[tid]", or "thread N" when the log does not say (before format
        1.4, Snabb's). Read once."""
        if self.thread_labels is None:
            L, t = _lib.lib(), _lib.Thread()
            self.thread_labels = []
            for i in range(L.tl_reader_threads(self.r)):
                if L.tl_reader_thread(self.r, i, ctypes.byref(t)) == _lib.TL_OK and t.tid:
                    self.thread_labels.append("%s[%d]" % (t.name.decode("utf-8", "replace"),
                                                          t.tid))
                else:
                    self.thread_labels.append("thread %d" % i)
        return self.thread_labels

    def trigger(self):
        """Its flight recorder (timeline arm), read once: a dict of the
        state ("off", "armed", "keeping", "frozen"), what is watched and its
        threshold in cycles, and the trigger (None, or a dict of kind, pair,
        attrs, thread, cycles, threshold, begin_seq, end_seq, end_tsc, wall
        ns); None for a log without one (Snabb's, before format 1.5)."""
        if self.recorder is None:
            a = _lib.Arming()
            if _lib.lib().tl_reader_arming(self.r, ctypes.byref(a)) != _lib.TL_OK:
                self.recorder = False
                return None
            states = ("off", "armed", "keeping", "frozen")
            kinds = ("none", "pair", "gap", "event", "hand")
            rec = {"state": states[a.state] if 0 <= a.state < 4 else "off",
                   "what": a.what.decode("utf-8", "replace"), "threshold": a.threshold,
                   "keep": a.keep, "trigger": None}
            if 0 < a.kind < 5:
                d = self.definition(a.begin_id) if a.kind != 4 else ("", {}, 0, 0, (), "", "")
                rec["trigger"] = {"kind": kinds[a.kind], "pair": rec["what"], "attrs": d[6],
                                  "thread": a.thread, "cycles": a.cycles,
                                  "threshold": a.threshold_at, "begin_seq": a.begin_seq,
                                  "end_seq": a.end_seq, "end_tsc": a.end_tsc,
                                  "wall": a.wall_ns}
            self.recorder = rec
        return self.recorder or None

    def definition(self, msgid):
        d = self.defs.get(msgid)
        if d is None:
            p = _lib.lib().tl_reader_def(self.r, msgid)
            if not p:
                raise MemoryError("%s: cannot allocate a definition" % self.path)
            c = p.contents
            text = lambda s: (s or b"").decode("utf-8", "replace")
            attrs = {}
            for word in text(c.attrs).split():
                k, _, v = word.partition("=")
                attrs[k] = v
            d = (text(c.name), attrs, c.level, c.rate,
                 tuple(text(c.args[i]) for i in range(c.nargs)), text(c.descr), text(c.attrs),
                 c.known)
            self.defs[msgid] = d
        return d

    def close(self):
        if self.r:
            _lib.lib().tl_reader_close(self.r)
            self.r = None


def _paths(paths):
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    return [os.fsdecode(os.fspath(p)) for p in paths]


def _open_all(paths):
    """The logs under PATHS, opened, and the problems met, in the order
    timeline(1) meets them: a list of _Log and str (a problem's line); a
    path that holds no log and gave no problem is one ("PATH: no logs")."""
    items = []
    try:
        for k, top in enumerate(_paths(paths)):
            n = len(items)
            for path, named, problem in _walk([top]):
                got = problem or _open(path, named)
                if isinstance(got, str):
                    items.append(got)
                elif got is not None:
                    items.append(_Log(path, *got, top=k))
            if len(items) == n:
                items.append("%s: no logs" % top)
    except BaseException:
        _close(items)
        raise
    return items


def _close(items):
    for lg in items:
        if isinstance(lg, _Log):
            lg.close()


# ---- time ---------------------------------------------------------------

_U64 = np.uint64


def ticks_to_ns(ticks, hz):
    """tl_ticks_to_ns() of a uint64 array: floor(ticks * 1e9 / hz), exact."""
    hz = int(hz)
    q, r = np.divmod(ticks, _U64(hz))
    q *= _U64(1000000000)
    if hz <= (2**64 - 1) // 1000000000:
        r *= _U64(1000000000)
        r //= _U64(hz)
        return q + r
    frac = np.zeros_like(r)   # long division, a decimal digit at a time
    for _ in range(9):
        r *= _U64(10)
        frac = frac * _U64(10) + r // _U64(hz)
        r %= _U64(hz)
    return q + frac


def _since(tsc, t0, hz):
    """Signed ns from T0 to each TSC (the window's measure)."""
    t0 = _U64(t0)
    before = tsc < t0
    d = np.where(before, t0 - tsc, tsc - t0)
    ns = ticks_to_ns(d, hz).view(np.int64)
    np.negative(ns, out=ns, where=before)
    return ns


# ---- windows and filters --------------------------------------------------

_UNITS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9, "d": 86400e9}
_DURATION = re.compile(r"^([0-9.eE+-]+)(ns|us|ms|s|m|h|d)$")
_ISO = re.compile(r"^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d")


def duration_ns(s):
    """A duration as timeline(1) writes one ("10s", "500ms", "1.5us") in
    ns, or None."""
    if isinstance(s, (pd.Timedelta, np.timedelta64)):
        return int(pd.Timedelta(s).value)
    m = _DURATION.match(s) if isinstance(s, str) else None
    if not m:
        return None
    try:
        v = float(m.group(1))
    except ValueError:
        return None
    if not v >= 0 or v * _UNITS[m.group(2)] >= 1.8e19:
        return None
    return int(round(v * _UNITS[m.group(2)]))


def bound(b):
    """A window bound as (kind, value): ('ticks', cycles since the log's
    first entry), ('ns', ns since it) or ('wall', ns since the epoch)."""
    if isinstance(b, (bool, np.bool_)):
        raise ValueError("a bound is a number of cycles, a duration or a wall time, not %r" % b)
    if isinstance(b, (int, np.integer)):
        return "ticks", int(b)
    if isinstance(b, (pd.Timedelta, np.timedelta64)):
        return "ns", duration_ns(b)
    if isinstance(b, str) and duration_ns(b) is not None:
        return "ns", duration_ns(b)
    if isinstance(b, str) and _ISO.match(b) or not isinstance(b, (str, float)):
        try:
            t = pd.Timestamp(b)
        except (ValueError, TypeError):
            t = None
        if t is not None and t is not pd.NaT:
            t = t.tz_localize("UTC") if t.tzinfo is None else t.tz_convert("UTC")
            return "wall", int(t.value)
    if isinstance(b, str):
        try:
            return "ticks", float(b)
        except ValueError:
            pass
    raise ValueError("%r is no time: give cycles since the log's first entry (an int), "
                     "a duration ('250ms', pandas.Timedelta) or a wall time "
                     "('2026-11-23T14:10:12Z', datetime)" % (b,))


def wall_text(ns):
    """NS since the epoch as timeline(1) prints a wall time (tl_format_wall):
    "2026-11-23T14:10:12.000000000Z"."""
    sec, frac = divmod(int(ns), 1000000000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(sec)) + ".%09dZ" % frac


def bound_arg(b):
    """Bound B in the form timeline(1)'s --from and --to take."""
    kind, v = bound(b)
    if kind == "ticks":
        return str(v)
    return "%dns" % v if kind == "ns" else wall_text(v)


def last_arg(d):
    """Duration D in the form timeline(1)'s --last takes."""
    return d if isinstance(d, str) else "%dns" % pd.Timedelta(d).value


def _seconds(ns):
    """NS as seconds without trailing zeros: "0s", "2.5s", "0.000009s"."""
    return ("%d.%09d" % divmod(ns, 1000000000)).rstrip("0").rstrip(".") + "s"


def _list_text(s):
    """A set of ints as a --cpu list: "0,2-5"."""
    v, out, i = sorted(s), [], 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[j + 1] == v[j] + 1:
            j += 1
        out.append(str(v[i]) if j == i else "%d-%d" % (v[i], v[j]))
        i = j + 1
    return ",".join(out)


def cpu_set(spec):
    """A --cpu LIST ("0,2-5") or an iterable of ints, as a set."""
    if spec is None:
        return None
    if isinstance(spec, (int, np.integer)):
        return {int(spec)}
    if isinstance(spec, str):
        out = set()
        for part in spec.split(","):
            lo, _, hi = part.partition("-")
            if not lo.strip().isdigit() or (hi and not hi.strip().isdigit()):
                raise ValueError("%r is no list of CPUs, e.g. 0,2-5" % spec)
            out.update(range(int(lo), int(hi or lo) + 1))
        return out
    return {int(c) for c in spec}


def _globs(g):
    return None if g is None else [g] if isinstance(g, str) else list(g)


class Window:
    """The entries read() keeps: start=, end=, last=, events=, apps=,
    cpus=, numas=, as timeline(1)'s --from, --to, --last, --event, --app,
    --cpu and --numa."""

    def __init__(self, start=None, end=None, last=None, events=None, apps=None, cpus=None,
                 numas=None):
        self.start = bound(start) if start is not None else None
        self.end = bound(end) if end is not None else None
        # each bound as the user wrote it, or as timeline(1) would take it
        self.start_text, self.end_text = (b if isinstance(b, str) else
                                          bound_arg(b) if b is not None else None
                                          for b in (start, end))
        self.last = None
        if last is not None:
            self.last = duration_ns(last)
            if not self.last:   # None, or 0: timeline(1) refuses --last 0 too
                raise ValueError("last takes a duration of at least 1ns, e.g. '10s' or '500ms', "
                                 "not %r" % (last,))
            self.last_text = last_arg(last)
        self.events, self.apps = _globs(events), _globs(apps)
        self.cpus, self.numas = cpu_set(cpus), cpu_set(numas)

    def timed(self):
        return self.start is not None or self.end is not None or self.last is not None

    def any(self):
        return self.timed() or self.events or self.apps or self.cpus is not None or \
            self.numas is not None

    def unplaceable(self, log):
        """Why LOG cannot place the window's bounds in time, or None."""
        kinds = {b[0] for b in (self.start, self.end) if b is not None}
        if "wall" in kinds and log.info.format != _lib.TL_FORMAT_NATIVE:
            return "%s: a wall time needs a clock anchor, which Snabb's logs do not have: " \
                   "give the bound in cycles" % log.path
        if kinds & {"wall", "ns"} and not log.hz:
            return "%s: a time in seconds needs the TSC frequency, which this log does not " \
                   "have: give the bound in cycles" % log.path
        if self.last is not None and not log.hz:
            return "%s: --last: a time in seconds needs the TSC frequency, which this log " \
                   "does not have: give the bound in cycles" % log.path
        return None

    def filtered(self):
        """Does it keep entries by what they are (events, apps, cpus, numas)?"""
        return bool(self.events or self.apps) or self.cpus is not None or \
            self.numas is not None

    def _measure(self, kind, log):
        """A bound's measure of a timestamp of LOG (cli/window.c): cycles or
        ns since its first entry, or ns since the epoch."""
        if kind == "ticks":
            return lambda t: t - log.t0
        if kind == "ns":
            return lambda t: int(_since(np.array([t], _U64), log.t0, log.hz)[0])
        return lambda t: int(_since(np.array([t], _U64), log.info.anchor_tsc, log.hz)[0]) + \
            int(log.info.anchor_realtime_ns)

    def empty(self, log):
        """Do the time bounds hold none of LOG's span, its first entry's
        timestamp to its newest's? Decided as timeline(1) decides it
        (cli/window.c, window_begin()): the least and greatest timestamps in
        the bounds, by bisection; bounds inside the span that fall between
        two entries are no news there, nor here."""
        t0, top = log.t0, max(log.newest, log.t0)

        def least(m, ok):   # the least timestamp in 0..top whose measure is ok, or top + 1
            if not ok(m(top)):
                return top + 1
            lo, hi = 0, top
            while lo < hi:
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if ok(m(mid)) else (mid + 1, hi)
            return lo

        lo, hi = 0, 2**64 - 1
        if self.start:
            lo = least(self._measure(self.start[0], log), lambda x, v=self.start[1]: x >= v)
        if self.end:
            t = least(self._measure(self.end[0], log), lambda x, v=self.end[1]: x > v)
            if t == 0:
                return True
            hi = t - 1
        if self.last is not None and log.newest >= t0:
            m = self._measure("ns", log)
            lo = max(lo, least(m, lambda x, v=m(log.newest) - self.last: x >= v))
        return lo > hi or lo > top or hi < t0

    def missed(self, log, kept):
        """What LOG, of whose entries KEPT were kept, says (window_missed()):
        1 when the time bounds hold none of its span, 2 when the filters
        keep none of the entries in them, else 0."""
        if self.timed() and self.empty(log):
            return 1
        return 2 if self.filtered() and log.seen and not kept else 0

    def missed_time(self, log):
        """The line of timeline(1) for the time bounds holding none of LOG's
        entries (cli/window.c): "no entries at or after 1h; LOG spans 0s to
        0.000009s", its span in the form of the first bound."""
        when = " between %s and %s" % (self.start_text, self.end_text) \
            if self.start and self.end else " at or after %s" % self.start_text if self.start \
            else " at or before %s" % self.end_text if self.end else ""
        if self.last is not None:
            when += " in the last %s" % self.last_text
        kind = (self.start or self.end or ("ns", 0))[0]
        t0, top = log.t0, max(log.newest, log.t0)
        if kind == "ticks":
            span = "0 to %d cycles" % (top - t0)
        elif kind == "ns":
            span = "0s to " + _seconds(int(ticks_to_ns(np.array([top - t0], _U64), log.hz)[0]))
        else:
            a, b = (_since(np.array([t], _U64), log.info.anchor_tsc, log.hz)[0] +
                    np.int64(log.info.anchor_realtime_ns) for t in (t0, top))
            span = "%s to %s" % (wall_text(a), wall_text(b))
        return "no entries%s; %s spans %s" % (when, log.path, span)

    def missed_filters(self, log):
        """The line of timeline(1) for the filters keeping none of the
        entries of LOG in the time bounds: "--event 'x.*' keeps none of the
        10 entries of LOG[ in the time window]"."""
        opts = ["--event '%s'" % g for g in self.events or ()] + \
            ["--app '%s'" % g for g in self.apps or ()] + \
            ["--%s %s" % (o, _list_text(v)) for o, v in (("cpu", self.cpus), ("numa", self.numas))
             if v is not None]
        return "%s keep%s none of the %d entr%s of %s%s" % (
            " ".join(opts), "" if len(opts) > 1 else "s", log.seen,
            "y" if log.seen == 1 else "ies", log.path, " in the time window" if self.timed() else "")

    def def_kept(self, d):
        name, attrs = d[0], d[1]
        if self.events and not any(fnmatch.fnmatchcase(name, g) for g in self.events):
            return False
        app = attrs.get("app", "")
        return not self.apps or (app != "" and any(fnmatch.fnmatchcase(app, g)
                                                   for g in self.apps))


# ---- reading ----------------------------------------------------------------

class _Columns:
    """The columns being filled, CAP rows each."""

    def __init__(self, cap):
        self.seq = np.empty(cap, np.uint64)
        self.tsc = np.empty(cap, np.uint64)
        self.ns = np.empty(cap, np.int64)
        self.wall = np.empty(cap, np.int64)
        self.cpu = np.empty(cap, np.uint16)
        self.numa = np.empty(cap, np.uint8)
        self.thread = np.empty(cap, np.uint32)
        self.msgid = np.empty(cap, np.uint16)
        self.args = np.empty((_lib.TL_MAX_ARGS, cap), np.uint64)
        self.n = 0

    def put(self, b, ns, wall, keep):
        """Appends batch B (a tl_entry array), with its NS and WALL, the rows
        KEEP says (None: all)."""
        if keep is not None:
            b, ns, wall = b[keep], ns[keep], wall[keep]
        o, k = self.n, len(b)
        self.seq[o:o + k] = b["seq"]
        self.tsc[o:o + k] = b["tsc"]
        self.ns[o:o + k] = ns
        self.wall[o:o + k] = wall
        self.cpu[o:o + k] = b["cpu"]
        self.numa[o:o + k] = b["numa"]
        self.thread[o:o + k] = b["thread"]
        self.msgid[o:o + k] = b["msgid"]
        args = b["args"]
        for j in range(_lib.TL_MAX_ARGS):   # a column at a time: a transposed copy is slower
            self.args[j, o:o + k] = args[:, j]
        self.n = o + k

    def trim(self):
        """Cuts the columns to the rows filled; copies them when most of
        the room went unused (a window), so the frame does not keep it."""
        n, cap = self.n, len(self.seq)
        small = n < cap * 0.75
        for f in ("seq", "tsc", "ns", "wall", "cpu", "numa", "thread", "msgid"):
            a = getattr(self, f)[:n]
            setattr(self, f, a.copy() if small else a)
        self.args = self.args[:, :n].copy() if small else self.args[:, :n]


def _read_log(log, w, cols, buf):
    """Moves LOG's snapshot into COLS through window W. Returns the
    problem's line when W cannot be placed in its time, else None."""
    L = _lib.lib()
    why = w.unplaceable(log) if w.timed() else None
    if why:
        return why
    native = log.info.format == _lib.TL_FORMAT_NATIVE
    newest = np.zeros(1, _lib.ENTRY)
    has_newest = L.tl_reader_newest(log.r, newest.ctypes.data)
    keep_ids = known = None
    if w.events or w.apps:
        keep_ids, known = np.zeros(65536, bool), np.zeros(65536, bool)
    t0 = None
    lo = hi = None
    log.seen = 0
    while True:
        k = L.tl_reader_read(log.r, buf.ctypes.data, len(buf))
        if k == 0:
            break
        b = buf[:k]
        tsc = b["tsc"]
        if t0 is None:
            t0 = log.t0 = int(tsc[0])
            log.newest = int(newest["tsc"][0]) if has_newest else t0
        if log.hz:
            ns = _since(tsc, t0, log.hz)
            wall = _since(tsc, log.info.anchor_tsc, log.hz) if native else np.full(k, NAT)
            if native:
                wall += np.int64(log.info.anchor_realtime_ns)
        else:
            ns = wall = np.full(k, NAT)
        keep = None
        if w.any():
            keep = np.ones(k, bool)
            if lo is None and w.last is not None and has_newest and int(newest["tsc"][0]) >= t0:
                newest_ns = int(_since(newest["tsc"], t0, log.hz)[0])
                lo = newest_ns - w.last
            for bnd, up in ((w.start, False), (w.end, True)):
                if bnd is None:
                    continue
                kind, v = bnd
                m = (tsc - _U64(t0)).view(np.int64) if kind == "ticks" else ns if kind == "ns" \
                    else wall
                keep &= (m <= v) if up else (m >= v)
            if lo is not None:
                keep &= ns >= lo
            log.seen += int(np.count_nonzero(keep))
            if w.cpus is not None:
                keep &= np.isin(b["cpu"], list(w.cpus))
            if w.numas is not None:
                keep &= np.isin(b["numa"], list(w.numas))
            if keep_ids is not None:
                ids = np.unique(b["msgid"])
                for i in ids[~known[ids]]:
                    known[i] = True
                    keep_ids[i] = w.def_kept(log.definition(int(i)))
                keep &= keep_ids[b["msgid"]]
        else:
            log.seen += k
        cols.put(b, ns, wall, keep)
    return None


def _codes_dtype(n):
    """The codes pandas keeps for N categories (coerce_indexer_dtype)."""
    return np.int8 if n < 127 else np.int16 if n < 32767 else np.int32


class _Frame:
    """What read() gathered: the columns, and per log its rows and the
    definitions of its message ids."""

    def __init__(self, logs, cols, spans):
        self.logs, self.cols, self.spans = logs, cols, spans
        self.events = {}         # event name -> code
        self.attrs = {}          # attribute key -> {value: code}
        self.luts = []           # per log: msgid -> (event code, {key: code})
        for lg, (a, b) in zip(logs, spans):
            ids = np.flatnonzero(np.bincount(cols.msgid[a:b], minlength=65536))
            lut = {}
            for i in ids:
                d = lg.definition(int(i))
                ev = self.events.setdefault(d[0], len(self.events))
                lut[int(i)] = (ev, {k: self.attrs.setdefault(k, {}).setdefault(v, len(
                    self.attrs[k])) for k, v in d[1].items()})
            self.luts.append(lut)

    def categorical(self, cats, code_of):
        """A Categorical of CATS whose codes come, per log, from
        CODE_OF(lut entry) through a table by message id (-1: none)."""
        codes = np.empty(self.cols.n, _codes_dtype(len(cats)))
        for lut, (a, b) in zip(self.luts, self.spans):
            table = np.full(65536, -1, codes.dtype)
            for i, entry in lut.items():
                table[i] = code_of(entry)
            np.take(table, self.cols.msgid[a:b], out=codes[a:b])
        return pd.Categorical.from_codes(codes, dtype=pd.CategoricalDtype(cats))

    def log_codes(self):
        codes = np.empty(self.cols.n, _codes_dtype(len(self.logs)))
        for i, (a, b) in enumerate(self.spans):
            codes[a:b] = i
        return codes

    def log_categories(self):
        return _unique_labels([lg.path for lg in self.logs])

    def recorders(self):
        """{log label: its flight recorder (_Log.trigger())} of the logs
        armed, frozen or triggered once."""
        out = {}
        for label, lg in zip(self.log_categories(), self.logs):
            rec = lg.trigger()
            if rec and (rec["state"] != "off" or rec["trigger"]):
                out[label] = rec
        return out

    def threads(self):
        """The thread column's codes and categories: each log's threads'
        labels (_Log.threads()), one category for a label in several logs."""
        cats, tables = {}, []
        for lg in self.logs:
            tables.append(np.array([cats.setdefault(x, len(cats)) for x in lg.threads()]
                                   or [0], np.int64))
        codes = np.empty(self.cols.n, _codes_dtype(len(cats)))
        for t, (a, b) in zip(tables, self.spans):
            # a thread the reader did not know (none, by the snapshot's rules)
            idx = np.minimum(self.cols.thread[a:b], len(t) - 1)
            codes[a:b] = t[idx]
        return codes, list(cats)

    def attr_columns(self):
        """(column name, key, categories) for each attribute key."""
        out = []
        for k, vals in self.attrs.items():
            name = k if k not in BASE and k not in ARGS else "attr." + k
            out.append((name, k, list(vals)))
        return out

    def wide(self):
        """One UInt64 column per argument name: the argument's value where
        the event has one of that name, missing elsewhere."""
        names = {}
        for lg, lut in zip(self.logs, self.luts):
            for i in lut:
                for a in lg.definition(i)[4]:
                    names.setdefault(a, None)
        out = {}
        for a in names:
            where = np.empty(self.cols.n, np.int8)
            for lg, lut, (lo, hi) in zip(self.logs, self.luts, self.spans):
                table = np.full(65536, -1, np.int8)
                for i in lut:
                    args = lg.definition(i)[4]
                    if a in args:
                        table[i] = args.index(a)
                np.take(table, self.cols.msgid[lo:hi], out=where[lo:hi])
            vals = np.zeros(self.cols.n, np.uint64)
            for j in range(_lib.TL_MAX_ARGS):
                m = where == j
                vals[m] = self.cols.args[j][m]
            out[a] = pd.arrays.IntegerArray(vals, where < 0)
        return out


def _unique_labels(paths):
    """The logs' labels: their paths, a path read twice told apart by '#2'."""
    seen, out = {}, []
    for p in paths:
        seen[p] = seen.get(p, 0) + 1
        out.append(p if seen[p] == 1 else "%s#%d" % (p, seen[p]))
    return out


def _report_damage(log, msgids, policy):
    """What timeline(1) says of a log once read (cli/input.c): a Snabb ring
    out of time order and entries whose message id names no definition
    are problems; entries skipped as incomplete, a note."""
    L = _lib.lib()
    L.tl_reader_info(log.r, ctypes.byref(log.info))
    n = log.info.disorder
    if n:
        policy.problem("%s: Snabb ring out of time order (%d break%s beyond the wrap), read in "
                       "ring order" % (log.path, n, "" if n == 1 else "s"))
    counts = np.bincount(msgids, minlength=65536)
    unknown = sum(int(counts[i]) for i in np.flatnonzero(counts)
                  if not log.definition(int(i))[7])
    if unknown:
        policy.problem("%s: %d entries with a message id outside the string table"
                       % (log.path, unknown))
    skipped = L.tl_reader_skipped(log.r)
    if skipped:
        policy.note("%s: %d incomplete entries skipped" % (log.path, skipped))


def _report_misses(w, logs, spans, policy):
    """What timeline(1) says when window W keeps nothing (cli/window.c,
    window_missed()), each line a problem: for each path given whose logs
    all have their span outside the time bounds, each one's "no entries
    ..." line; then, when no log read kept an entry in the bounds, the
    "... keeps none of the N entries of LOG" line of each log whose
    entries in them the filters all left out. A log of no entries, or one
    the bounds cannot be placed in, says nothing here."""
    if not w.any():
        return
    said = [(lg, w.missed(lg, b - a)) for lg, (a, b) in zip(logs, spans) if lg.t0 is not None]
    for top in sorted({lg.top for lg, _ in said}):
        mine = [(lg, m) for lg, m in said if lg.top == top]
        if all(m == 1 for _, m in mine):
            for lg, _ in mine:
                policy.problem(w.missed_time(lg))
    if all(m != 0 for _, m in said):
        for lg, m in said:
            if m == 2:
                policy.problem(w.missed_filters(lg))


def gather(paths, window, policy):
    """Opens and reads every log under PATHS through WINDOW; returns a
    _Frame (its logs closed)."""
    items = _open_all(paths)
    try:
        logs = [lg for lg in items if isinstance(lg, _Log)]
        caps = [int(_lib.lib().tl_reader_rewind(lg.r)) + 1 for lg in logs]
        cols = _Columns(sum(caps))
        buf = np.empty(BATCH, _lib.ENTRY)
        spans, kept = [], []
        for lg in items:
            if isinstance(lg, str):
                policy.problem(lg)
                continue
            a = cols.n
            why = _read_log(lg, window, cols, buf)
            if why:
                cols.n = a
                policy.problem(why)
                continue
            spans.append((a, cols.n))
            kept.append(lg)
            lg.threads()   # named while it is open: the frame is made after
            lg.trigger()   # and its flight recorder read
            _report_damage(lg, cols.msgid[a:cols.n], policy)
        _report_misses(window, kept, spans, policy)
        cols.trim()
        frame = _Frame(kept, cols, spans)
    finally:
        _close(items)
    return frame


def _categorical(codes_cats):
    """The Categorical of (codes, categories)."""
    codes, cats = codes_cats
    return pd.Categorical.from_codes(codes, dtype=pd.CategoricalDtype(cats))


def to_frame(f, wide=False):
    """The DataFrame of _Frame F."""
    c = f.cols
    data = {
        "log": pd.Categorical.from_codes(f.log_codes(),
                                         dtype=pd.CategoricalDtype(f.log_categories())),
        "seq": c.seq,
        "tsc": c.tsc,
        "ns": c.ns.view("m8[ns]"),
        "wall": pd.arrays.DatetimeArray(c.wall.view("M8[ns]"),
                                        dtype=pd.DatetimeTZDtype(tz="UTC"), copy=False),
        "cpu": c.cpu,
        "numa": c.numa,
        "thread": _categorical(f.threads()),
        "event": f.categorical(list(f.events), lambda e: e[0]),
    }
    for name, key, cats in f.attr_columns():
        data[name] = f.categorical(cats, lambda e, key=key: e[1].get(key, -1))
    if wide:
        for a, col in f.wide().items():
            data[a if a not in data else "arg." + a] = col
    else:
        for i, a in enumerate(ARGS):
            data[a] = c.args[i]
    c.msgid = None
    df = pd.DataFrame(data, copy=False)
    df.attrs["recorders"] = f.recorders()
    return df


def to_numpy(f):
    """The structured array of _Frame F: categorical fields as codes, their
    categories in the field's dtype metadata ('categories')."""
    c = f.cols

    def cat(codes_cats):
        codes, cats = codes_cats
        return np.dtype(codes.dtype, metadata={"categories": tuple(cats)}), codes

    fields = [("log", cat((f.log_codes(), f.log_categories())))]
    fields += [("seq", (c.seq.dtype, c.seq)), ("tsc", (c.tsc.dtype, c.tsc)),
               ("ns", (np.dtype("m8[ns]"), c.ns.view("m8[ns]"))),
               ("wall", (np.dtype("M8[ns]"), c.wall.view("M8[ns]"))),
               ("cpu", (c.cpu.dtype, c.cpu)), ("numa", (c.numa.dtype, c.numa))]
    fields.append(("thread", cat(f.threads())))
    ev = f.categorical(list(f.events), lambda e: e[0])
    fields.append(("event", cat((ev.codes, list(ev.categories)))))
    for name, key, cats in f.attr_columns():
        a = f.categorical(cats, lambda e, key=key: e[1].get(key, -1))
        fields.append((name, cat((a.codes, cats))))
    fields += [(a, (c.args.dtype, c.args[i])) for i, a in enumerate(ARGS)]
    out = np.empty(c.n, np.dtype([(n, dt) for n, (dt, _) in fields]))
    for n, (_, v) in fields:
        out[n] = v
    return out


def log_rules(log, policy):
    """The rules LOG keeps for events registered later (format 1.3), as
    `timeline info` lists them: a list of ("off" or "on", pattern), in
    order (the last that matches decides); [] when it keeps none (Snabb's
    logs and those before 1.3 too); None when the area is damaged or was
    left half-changed, said as a note with info's words."""
    L = _lib.lib()
    buf = ctypes.create_string_buffer(_lib.TL_RULES_BYTES_PER_LOG)
    n, err = ctypes.c_size_t(0), _lib.Error()
    rc = L.tl_reader_rules(log.r, buf, ctypes.byref(n), ctypes.byref(err))
    if rc == _lib.TL_E_FORMAT:
        policy.note("%s: rules damaged or left half-changed: its writer ignores them" % log.path)
        return None
    if rc != _lib.TL_OK:
        return []
    records = buf.raw[:n.value].split(b"\0")[:-1]
    return [("off" if r[:1] == b"-" else "on", r[1:].decode("utf-8", "replace")) for r in records]


def is_declaration(log, msgid):
    """Whether MSGID of LOG is a pair declaration ("pair|..."), not an
    event's definition."""
    s = _lib.lib().tl_reader_string(log.r, msgid)
    return bool(s) and s.startswith(b"pair|")


def definitions(paths, policy):
    """The events frame: one row per distinct definition in the logs'
    string tables, on unless some log holding it has it switched off; its
    attrs["rules"] the rules of each log that keeps some (log_rules)."""
    items = _open_all(paths)
    rows, seen, rules = [], {}, {}
    try:
        L = _lib.lib()
        for lg in items:
            if isinstance(lg, str):
                policy.problem(lg)
                continue
            n = L.tl_reader_definitions(lg.r, None, 0)
            ids = (ctypes.c_uint16 * max(n, 1))()
            n = min(n, L.tl_reader_definitions(lg.r, ids, n))
            for i in ids[:n]:
                if is_declaration(lg, i):
                    continue   # a pair's declaration, no event: pairs() has it
                name, attrs, level, rate, args, descr, raw, _ = lg.definition(i)
                key = (name, raw, level, rate, args, descr)
                off = bool(L.tl_reader_switched_off(lg.r, i))
                if key in seen:
                    seen[key]["on"] &= not off
                    continue
                row = seen[key] = {"event": name, "attrs": raw, "on": not off, "level": level,
                                   "rate": rate, "nargs": len(args)}
                row.update({a: (args[j] if j < len(args) else None) for j, a in enumerate(ARGS)})
                row["args"] = " ".join(args)
                row["description"] = descr
                row.update(attrs)
                rows.append(row)
            kept = log_rules(lg, policy)
            if kept != []:
                rules[lg.path] = kept
    finally:
        _close(items)
    cols = ["event", "attrs", "on", "level", "rate", "nargs", "args"] + ARGS + ["description"]
    df = pd.DataFrame(rows)
    if df.empty:
        df = pd.DataFrame(columns=cols).astype({"on": bool})
    else:
        extra = [k for k in df.columns if k not in cols]
        df = df[cols + extra].sort_values(["event", "attrs"], kind="stable").reset_index(drop=True)
        df = df.astype({"on": bool, "level": np.uint8, "rate": np.uint8, "nargs": np.uint8})
    df.attrs["rules"] = rules
    return df


def read(paths, wide=False, numpy=False, start=None, end=None, last=None, events=None,
         apps=None, cpus=None, numas=None, errors="raise"):
    if wide and numpy:
        raise ValueError("wide=True names columns for pandas: use it without numpy=True")
    policy = Policy(errors)
    w = Window(start, end, last, events, apps, cpus, numas)
    f = gather(paths, w, policy)
    return to_numpy(f) if numpy else to_frame(f, wide)
