#!/usr/bin/env python3
"""perfetto_check.py: reads a `timeline export -f perfetto` file back through
protoc (`protoc --decode=perfetto.protos.Trace tests/perfetto.proto`) and
rebuilds what a Perfetto reader would: the tracks, the interned names of each
packet sequence, each packet's time on its sequence's incremental clock, and
the slices on each track. Checks that every field is one of Perfetto's (no
bare field numbers), that slices nest on every track and none is left open,
and with --dump that the events of each log are, in order, its entries as
`timeline dump --format json` gives them (names, arguments, times to the ns),
and with --chrome that slices and instants are as many as the Chrome export's
spans and instants. Prints what it found as lines (the tests compare them
whole), or one line "perfetto_check: problem" and exits 1.

usage: perfetto_check.py TRACE [--proto FILE] [--dump] [--chrome JSON] [--list]
"""
import calendar
import json
import os
import subprocess
import sys
import time

TIMELINE = os.environ.get("TIMELINE_BIN", "./timeline")


def fail(msg):
    print("perfetto_check: " + msg)
    sys.exit(1)


def unquote(s):
    """A protoc text-format string literal's bytes, as text."""
    out = bytearray()
    i = 1
    while i < len(s) - 1:
        c = s[i]
        if c == "\\":
            n = s[i + 1]
            if n in "01234567":
                j = i + 1
                while j < i + 4 and s[j] in "01234567":
                    j += 1
                out.append(int(s[i + 1:j], 8))
                i = j
                continue
            out += {"n": b"\n", "t": b"\t", "r": b"\r", "\\": b"\\", "'": b"'",
                    '"': b'"'}.get(n, n.encode())
            i += 2
            continue
        out += c.encode()
        i += 1
    return out.decode("utf-8", "replace")


def parse(text):
    """protoc's text format as nested dicts of lists."""
    root = {}
    stack = [root]
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
            continue
        if line.endswith("{"):
            key = line[:-1].strip()
            if key[0].isdigit():
                fail("field %s is none of Perfetto's (a bare number)" % key)
            d = {}
            stack[-1].setdefault(key, []).append(d)
            stack.append(d)
            continue
        key, _, val = line.partition(": ")
        if key[0].isdigit():
            fail("field %s is none of Perfetto's (a bare number)" % key)
        if val.startswith('"'):
            v = unquote(val)
        elif val in ("true", "false"):
            v = val == "true"
        elif val[0].isdigit() or val[0] == "-":
            v = float(val) if any(c in val for c in ".eE") and not val.startswith("0x") else int(val)
        else:
            v = val
        stack[-1].setdefault(key, []).append(v)
    return root


def one(d, key, default=None):
    v = d.get(key)
    return v[0] if v else default


class Seq:
    """What a reader keeps for one packet sequence."""

    def __init__(self):
        self.names, self.cats, self.args = {}, {}, {}
        self.clock = None      # the incremental clock's last value
        self.track = None      # the default track
        self.counters = []     # the default extra counter tracks
        self.cleared = False


def decode(path, proto):
    """The packets of the export at PATH, decoded by protoc."""
    with open(path, "rb") as f:
        r = subprocess.run(["protoc", "--decode=perfetto.protos.Trace",
                            "-I" + os.path.dirname(proto), proto],
                           stdin=f, capture_output=True, text=True)
    if r.returncode:
        fail("protoc cannot decode %s: %s" % (path, r.stderr.strip()))
    return parse(r.stdout).get("packet", [])


def rebuild(packets):
    """The tracks, and the events (dicts) in file order."""
    tracks, events, seqs = {}, [], {}
    primary = None
    for p in packets:
        td = one(p, "track_descriptor")
        if td:
            t = {"uuid": one(td, "uuid"), "name": one(td, "name"),
                 "parent": one(td, "parent_uuid"), "description": one(td, "description")}
            if one(td, "process"):
                pr = one(td, "process")
                t.update(kind="process", pid=one(pr, "pid"), name=one(pr, "process_name"))
            elif one(td, "thread"):
                th = one(td, "thread")
                t.update(kind="thread", pid=one(th, "pid"), tid=one(th, "tid"),
                         name=one(th, "thread_name"))
            elif one(td, "counter"):
                t.update(kind="counter", unit=one(one(td, "counter"), "unit_name"))
            else:
                t.update(kind="track")
            if t["uuid"] in tracks:
                fail("track %d described twice" % t["uuid"])
            tracks[t["uuid"]] = t
            continue
        sid = one(p, "trusted_packet_sequence_id")
        if sid is None:
            fail("a packet of no sequence that is no track descriptor")
        s = seqs.setdefault(sid, Seq())
        flags = one(p, "sequence_flags", 0)
        if flags & 1:
            s.__init__()
            s.cleared = True
            dflt = one(p, "trace_packet_defaults")
            if not dflt or one(dflt, "timestamp_clock_id") != 64:
                fail("sequence %d: no defaults naming clock 64" % sid)
            ted = one(dflt, "track_event_defaults")
            s.track = one(ted, "track_uuid")
            s.counters = ted.get("extra_counter_track_uuids", [])
        elif not s.cleared:
            fail("sequence %d: a packet before its state is cleared" % sid)
        elif flags != 2:
            fail("sequence %d: a packet without SEQ_NEEDS_INCREMENTAL_STATE" % sid)
        snap = one(p, "clock_snapshot")
        if snap:
            clocks = {one(c, "clock_id"): c for c in snap["clocks"]}
            mine, other = clocks.get(64), [c for k, c in clocks.items() if k != 64]
            if not mine or not one(mine, "is_incremental") or len(other) != 1:
                fail("sequence %d: a snapshot that is not clock 64 and one other" % sid)
            if one(mine, "timestamp") != one(other[0], "timestamp"):
                fail("sequence %d: clock 64 is not the trace clock at the snapshot" % sid)
            if primary not in (None, one(snap, "primary_trace_clock")):
                fail("two primary clocks")
            primary = one(snap, "primary_trace_clock")
            s.clock = one(mine, "timestamp")
            continue
        idata = one(p, "interned_data")
        if idata:
            for key, table in (("event_names", s.names), ("event_categories", s.cats),
                               ("debug_annotation_names", s.args)):
                for e in idata.get(key, []):
                    table[one(e, "iid")] = one(e, "name")
        te = one(p, "track_event")
        if not te:
            fail("sequence %d: a packet of no event" % sid)
        if s.clock is None:
            fail("sequence %d: an event before its clock snapshot" % sid)
        if one(p, "timestamp_clock_id") is not None:
            ts = one(p, "timestamp")   # whole, on the trace's clock
        else:
            s.clock += one(p, "timestamp")
            ts = s.clock
        ev = {"seq": sid, "ts": ts, "type": one(te, "type"),
              "track": one(te, "track_uuid", s.track)}
        if one(te, "name_iid") is not None:
            ev["name"] = s.names[one(te, "name_iid")]
        if te.get("category_iids"):
            ev["cat"] = ",".join(s.cats[i] for i in te["category_iids"])
        ev["args"] = {s.args[one(a, "name_iid")]: one(a, "uint_value", one(a, "double_value"))
                      for a in te.get("debug_annotations", [])}
        if te.get("extra_counter_values"):
            ev["counters"] = list(zip(s.counters, te["extra_counter_values"]))
        if ev["track"] not in tracks:
            fail("an event on track %s, which no descriptor describes" % ev["track"])
        events.append(ev)
    return tracks, events, primary


def check_nesting(tracks, events):
    """Slices nest on each track in time order (ties in file order), none
    left open. Returns the deepest nesting and the slices."""
    stacks, deepest, slices = {}, 0, 0
    for ev in sorted(events, key=lambda e: e["ts"]):   # stable: file order at ties
        st = stacks.setdefault(ev["track"], [])
        if ev["type"] == "TYPE_SLICE_BEGIN":
            st.append(ev)
            deepest = max(deepest, len(st))
            slices += 1
        elif ev["type"] == "TYPE_SLICE_END":
            if not st:
                fail("an end at %d on track %d that no slice is open for" % (ev["ts"], ev["track"]))
            st.pop()
    for uuid, st in stacks.items():
        if st:
            fail("%d slices left open on track %d" % (len(st), uuid))
    return deepest, slices


def wall_ns(s):
    """ns since the epoch of dump's "2026-11-28T07:13:16.157151131Z"."""
    return calendar.timegm(time.strptime(s[:19], "%Y-%m-%dT%H:%M:%S")) * 10**9 + int(s[20:29])


def entry_name(d):
    """An instant's name as every export gives it: the event, then its
    attributes, app's value alone, any other as NAME=VALUE."""
    return " ".join([d["event"]] + [w[4:] if w.startswith("app=") else w
                                    for w in d["attrs"].split()])


def check_dump(tracks, events, primary):
    """Each log's events, in file order, against its dump."""
    by_path = {}
    for ev in events:
        t = tracks[tracks_thread(tracks, ev)]
        path = t["description"].split(";")[0]
        by_path.setdefault(path, []).append(ev)
    for path, evs in by_path.items():
        out = subprocess.run([TIMELINE, "dump", "-f", "json", "-t", "wall" if primary ==
                              "BUILTIN_CLOCK_REALTIME" else "cycles", path],
                             capture_output=True, text=True).stdout
        lines = [json.loads(l) for l in out.splitlines() if "lost" not in json.loads(l)]
        evs = [e for e in evs if e.get("cat") != "timeline"]
        if len(evs) != len(lines):
            fail("%s: %d events for %d entries" % (path, len(evs), len(lines)))
        last_breath = None
        for ev, d in zip(evs, lines):
            ns = wall_ns(d["time"]) if primary == "BUILTIN_CLOCK_REALTIME" else d["tsc"]
            if ev["ts"] != ns:
                fail("%s: entry %d at %d ns, its event at %d" % (path, d["seq"], ns, ev["ts"]))
            if ev["type"] == "TYPE_INSTANT" and ev["name"] != entry_name(d):
                fail("%s: entry %d is %s, its instant %s" % (path, d["seq"], entry_name(d), ev["name"]))
            if ev["type"] == "TYPE_SLICE_BEGIN" and ev["cat"] != d["event"].split(".")[0]:
                fail("%s: entry %d of category %s begins a slice of %s" % (path, d["seq"], d["event"], ev["cat"]))
            if ev["type"] != "TYPE_SLICE_BEGIN" and ev["args"] != d["args"]:
                fail("%s: entry %d's arguments %s, its event's %s" % (path, d["seq"], d["args"], ev["args"]))
            if ".breath_end" in d["event"] and "totalpackets" in d["args"]:
                b = (ns, d["args"]["totalpackets"])
                if last_breath and b[0] > last_breath[0] and b[1] >= last_breath[1]:
                    want = int((b[1] - last_breath[1]) * 1e9 / (b[0] - last_breath[0]))
                    got = ev.get("counters", [(None, None)])[0][1]
                    if got is None or abs(got - want) > 1:
                        fail("%s: entry %d: packets/s %s, not %d" % (path, d["seq"], got, want))
                last_breath = b
            elif ev.get("counters"):
                fail("%s: entry %d has a counter value" % (path, d["seq"]))


def tracks_thread(tracks, ev):
    """The thread track of event EV: its own, or its lane's thread."""
    t = tracks[ev["track"]]
    return ev["track"] if t["kind"] == "thread" else ev["thread_track"]


def main():
    args = sys.argv[1:]
    if not args:
        fail("usage: perfetto_check.py TRACE [--proto FILE] [--dump] [--chrome JSON] [--list]")
    path = args[0]
    proto = os.path.join(os.path.dirname(os.path.abspath(__file__)), "perfetto.proto")
    if "--proto" in args:
        proto = args[args.index("--proto") + 1]
    tracks, events, primary = rebuild(decode(path, proto))
    # each event's thread: its sequence's default track
    seq_track = {}
    for ev in events:
        if tracks[ev["track"]]["kind"] == "thread":
            seq_track.setdefault(ev["seq"], ev["track"])
    for ev in events:
        ev["thread_track"] = seq_track.get(ev["seq"], ev["track"])
    deepest, slices = check_nesting(tracks, events)
    if "--dump" in args:
        check_dump(tracks, events, primary)
    instants = sum(1 for e in events if e["type"] == "TYPE_INSTANT" and e.get("cat") != "timeline")
    if "--chrome" in args:
        with open(args[args.index("--chrome") + 1]) as f:
            chrome = json.load(f)["traceEvents"]
        cx = sum(1 for e in chrome if e["ph"] == "X")
        ci = sum(1 for e in chrome if e["ph"] == "i")
        if (cx, ci) != (slices, instants):
            fail("%d slices and %d instants; chrome has %d spans and %d instants" %
                 (slices, instants, cx, ci))
    print("clock %s" % primary)
    print("slices %d instants %d deepest %d" % (slices, instants, deepest))
    for uuid in sorted(tracks):
        t = tracks[uuid]
        what = {"process": "pid=%s" % t.get("pid"), "thread": "pid=%s tid=%s" % (t.get("pid"), t.get("tid")),
                "counter": "unit=%s" % t.get("unit"), "track": ""}[t["kind"]]
        parent = tracks[t["parent"]]["name"] if t.get("parent") else None
        words = ["track", t["kind"], repr(t["name"]), what] + (["under %r" % parent] if parent else [])
        print(" ".join(w for w in words if w))
    if "--list" in args:
        t0 = min((e["ts"] for e in events), default=0)
        for ev in events:
            t = tracks[ev["track"]]
            kind = {"TYPE_SLICE_BEGIN": "B", "TYPE_SLICE_END": "E", "TYPE_INSTANT": "I"}[ev["type"]]
            line = "%s %s +%d" % (t["name"], kind, ev["ts"] - t0)
            if "name" in ev:
                line += " " + ev["name"]
            if ev["args"]:
                line += " " + " ".join("%s=%s" % kv for kv in ev["args"].items())
            if ev.get("counters"):
                line += " " + " ".join("[%s]=%s" % (tracks[u]["name"], v) for u, v in ev["counters"])
            print(line)


main()
