"""timeline: timeline logs as pandas frames and numpy arrays, and what
`timeline stats` and `timeline diff` say as frames.

    import timeline
    df = timeline.read("demo/out/runs")            # one row an entry
    df.groupby("event").size()
    timeline.events("demo/out/runs")               # each event's argument names, switch (on)
    timeline.pairs("kv/")                          # the pairs declared: units, the breath
    timeline.stats("demo/out/runs", per="packets", by=["app"])
    timeline.diff("before/", "after/", per="packets")
    timeline.spans("kv/")                          # one row a span: parent, self cycles, units

Reading goes through libtimeline (ctypes, tl_reader_read in batches);
the statistics through the timeline program's JSON (see stats()). A bad
input raises TimelineError with the library's one line naming the file,
or with errors='warn' warns (TimelineWarning) and reads the other paths.
"""
from ._errors import TimelineError, TimelineWarning
from ._lib import library_path, program_path
from . import _pairs, _read, _stats

__all__ = ["read", "events", "pairs", "stats", "diff", "spans", "TimelineError", "TimelineWarning",
           "library_path", "program_path"]
__version__ = "0.1.0"


def read(paths, wide=False, numpy=False, start=None, end=None, last=None, events=None,
         apps=None, cpus=None, numas=None, errors="raise"):
    """The entries of the logs under PATHS (a path or a list: files or
    directories; ours, Snabb's, zstd copies; a live log as a consistent
    snapshot, as `timeline copy` takes it), oldest first log by log, as a
    pandas DataFrame, one row an entry:

      log    categorical, the log's path
      seq    uint64, the entry's number (Snabb: its slot)
      tsc    uint64, its timestamp in ticks
      ns     timedelta64[ns] since the log's first entry (NaT: no TSC frequency)
      wall   datetime64[ns, UTC] (NaT for Snabb's logs, which have no anchor)
      cpu    uint16; numa uint8
      thread categorical, the writing thread, "name[tid]" ("thread N" when
             the log does not say: before format 1.4, Snabb's)
      event  categorical, "category.name"
      app... categorical, one column per attribute of the definitions
      arg0..arg5  uint64 (a Snabb value that is no whole number: its double's bits)

    wide=True: one column per argument name instead of arg0..arg5 (UInt64,
    missing where the event has no argument of that name). numpy=True: a
    structured array with the same fields, categorical ones as codes whose
    names are in the field's dtype.metadata['categories'] (-1: none), wall
    as datetime64[ns] in UTC (numpy has no time zones).

    Windows and filters as timeline(1)'s: start= and end= (--from, --to: an
    int of cycles since the log's first entry, a duration '250ms' or
    pandas.Timedelta since it, or a wall time '2026-11-23T14:10:12Z' or
    datetime), last= ('10s': the last of each log), events= and apps=
    (globs, or lists of them), cpus= and numas= ('0,2-5' or ints).

    Where they keep nothing, read() says it as timeline(1) does, a
    problem for each log: "no entries at or after 1h; LOG spans 0s to
    0.000046818s" (a path whose logs all end before the window), "--event
    'nope' keeps none of the 64 entries of LOG" (when no log read keeps
    an entry).

    The frame's attrs["recorders"] holds the flight recorder (`timeline
    arm`) of each log armed, frozen or triggered once, by log: a dict of
    state ("armed", "keeping", "frozen", "off"), what (the pair or event
    watched), threshold (cycles), keep, and trigger: None, or a dict of
    kind ("pair", "gap", "event", "hand"), pair, attrs ("app=b"), thread,
    cycles, threshold, begin_seq and end_seq (the thread's entry numbers:
    df[(df.seq >= t["begin_seq"]) & ...] finds them), end_tsc and wall
    (ns since the epoch). {} when no log has one.

    errors='raise' (a bad input, or a window that keeps nothing, raises
    TimelineError), 'warn' (a TimelineWarning, and the other paths are
    read), or 'ignore'."""
    return _read.read(paths, wide=wide, numpy=numpy, start=start, end=end, last=last,
                      events=events, apps=apps, cpus=cpus, numas=numas, errors=errors)


def events(paths, errors="raise"):
    """The event definitions in the logs under PATHS, one row per distinct
    definition: event, attrs, on, level, rate, nargs, args (the names,
    space separated), arg0..arg5 (each argument's name, None past nargs),
    description, and a column per attribute (app). Events only: the pairs
    the logs declare are in pairs().

    on (bool) is the event's switch now (`timeline enable|disable`,
    format 1.2): False when some log holding the definition has it
    switched off (as `timeline info` lists it), True otherwise (always for
    Snabb's logs and those before 1.2).

    The frame's attrs["rules"] holds the rules each log keeps for events
    registered later (format 1.3), by log path, only for the logs that
    keep some: a list of ("off" or "on", pattern) in order, the last that
    matches deciding, as `timeline info` lists them; None for a log whose
    rules area is damaged (said as a TimelineWarning unless
    errors='ignore'). {} when no log keeps any."""
    return _read.definitions(paths, _read.Policy(errors))


def pairs(paths, errors="raise"):
    """The begin/end pairs the logs under PATHS declare (their events
    files' pair| lines, timeline-events(5)), one row per distinct
    declaration, by pair: pair (its label, "kv.req"), begin and end (the
    events), by (the attribute naming an instance: "app" unless by=),
    unit (the first unit, what stats counts the pair in), units (every
    unit=, space separated; None and "" when it counts none) and breath
    (True for the pair declared the program's loop). Logs without
    declarations (Snabb's) give no rows; errors as events()."""
    return _pairs.declarations(paths, _read.Policy(errors))


stats = _stats.stats
diff = _stats.diff
spans = _stats.spans
