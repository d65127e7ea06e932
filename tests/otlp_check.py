#!/usr/bin/env python3
"""otlp_check.py: reads a `timeline export -f otlp` file back through protoc
(`protoc --decode=otlp.ExportTraceServiceRequest tests/otlp.proto`), or an
`-f otlp-json` file (--json) through Python's json, and checks what a
tracing backend relies on: every field one of OTLP's (no bare numbers),
kind INTERNAL, 16-byte trace ids and 8-byte span ids, none zero, span ids
unique in the file, each parent a span of the same trace that holds its
child in time, one trace per outermost span, the scope "timeline". Prints
the resources and their trees of spans as lines (the tests compare them
whole), or one line "otlp_check: problem" and exits 1.

With --against LOG..., the spans must be, one for one, those that pairing
the logs' entries (`timeline dump --format json`, wall time to the ns) by
the built-in pairs (push/pushed, pull/pulled, breath_start/breath_end) and
each --pair BEGIN=END=LABEL gives: names, times, parents and counts. With
--spans LOG..., those of the span table, `timeline dump --spans --format
json` ($TIMELINE_SPANS_BIN, else $TIMELINE_BIN), the same way.

usage: otlp_check.py FILE [--json] [--tree] [--base NS] [--against LOG...]
                     [--spans LOG...] [--pair BEGIN=END=LABEL]... [--tsc-hz HZ]
"""
import calendar
import json
import os
import subprocess
import sys
import time

TIMELINE = os.environ.get("TIMELINE_BIN", "./timeline")
SRC = os.environ.get("TIMELINE_SRC") or "."


def fail(msg):
    print("otlp_check: " + msg)
    sys.exit(1)


def unquote(s):
    """A protoc text-format string literal's bytes."""
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
    return bytes(out)


def parse_text(text):
    """protoc's text format as nested dicts of lists (strings as bytes)."""
    root = {}
    stack = [root]
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
            continue
        key = line[:-1].strip() if line.endswith("{") else line.partition(": ")[0]
        if key[0].isdigit():
            fail("field %s is none of OTLP's (a bare number)" % key)
        if line.endswith("{"):
            d = {}
            stack[-1].setdefault(key, []).append(d)
            stack.append(d)
            continue
        val = line.partition(": ")[2]
        if val.startswith('"'):
            v = unquote(val)
        elif val in ("true", "false"):
            v = val == "true"
        elif val.startswith("SPAN_KIND_"):
            v = {"SPAN_KIND_UNSPECIFIED": 0, "SPAN_KIND_INTERNAL": 1}[val]
        else:
            v = float(val) if "." in val or "e" in val else int(val)
        stack[-1].setdefault(key, []).append(v)
    return root


def one(d, key, default=None):
    v = d.get(key, [default])
    if len(v) != 1:
        fail("%s given %d times" % (key, len(v)))
    return v[0]


def attrs_of(kvs, json_form):
    """KeyValues as [(key, value)], the value typed as its AnyValue says."""
    out = []
    for kv in kvs:
        if json_form:
            key, val = kv["key"], kv["value"]
            (kind, v), = val.items()
            if kind == "intValue":
                if not isinstance(v, str):
                    fail("intValue %r is not a decimal string" % v)
                v = int(v)
            elif kind not in ("stringValue", "doubleValue"):
                fail("an attribute of type %s" % kind)
        else:
            key = one(kv, "key").decode()
            val = one(kv, "value")
            (kind, v), = val.items()
            v = v[0].decode() if kind == "string_value" else v[0]
        out.append((key, v))
    return out


def load(path, json_form):
    """The file's resources: [(attrs, scope, [span])]."""
    if json_form:
        with open(path) as f:
            doc = json.load(f)
        res = []
        for rs in doc.get("resourceSpans", []):
            for ss in rs["scopeSpans"]:
                spans = []
                for s in ss.get("spans", []):
                    for k in ("startTimeUnixNano", "endTimeUnixNano"):
                        if not isinstance(s[k], str):
                            fail("%s %r is not a decimal string" % (k, s[k]))
                    spans.append({"trace": bytes.fromhex(s["traceId"]), "id": bytes.fromhex(s["spanId"]),
                                  "parent": bytes.fromhex(s.get("parentSpanId", "")), "name": s["name"],
                                  "kind": s["kind"], "start": int(s["startTimeUnixNano"]),
                                  "end": int(s["endTimeUnixNano"]),
                                  "attrs": attrs_of(s.get("attributes", []), True)})
                scope = (ss["scope"]["name"], ss["scope"]["version"])
                res.append((attrs_of(rs["resource"]["attributes"], True), scope, spans))
        return res
    with open(path, "rb") as f:
        data = f.read()
    text = subprocess.run(["protoc", "--decode=otlp.ExportTraceServiceRequest", "-I%s/tests" % SRC,
                           "otlp.proto"], input=data, capture_output=True, check=True).stdout.decode()
    res = []
    for rs in parse_text(text).get("resource_spans", []):
        for ss in rs["scope_spans"]:
            spans = []
            for s in ss.get("spans", []):
                spans.append({"trace": one(s, "trace_id", b""), "id": one(s, "span_id", b""),
                              "parent": one(s, "parent_span_id", b""),
                              "name": one(s, "name", b"").decode(), "kind": one(s, "kind", 0),
                              "start": one(s, "start_time_unix_nano", 0),
                              "end": one(s, "end_time_unix_nano", 0),
                              "attrs": attrs_of(s.get("attributes", []), False)})
            sc = one(ss, "scope")
            scope = (one(sc, "name").decode(), one(sc, "version").decode())
            res.append((attrs_of(one(rs, "resource").get("attributes", []), False), scope, spans))
    return res


def check(res):
    """Checks ids, parents and times; returns the spans by id."""
    by_id = {}
    for _, scope, spans in res:
        if scope[0] != "timeline" or not scope[1]:
            fail("scope %r" % (scope,))
        for s in spans:
            if len(s["trace"]) != 16 or len(s["id"]) != 8 or not any(s["trace"]) or not any(s["id"]):
                fail("%s: a trace id of %d bytes or a span id of %d, or zero" %
                     (s["name"], len(s["trace"]), len(s["id"])))
            if s["id"] in by_id:
                fail("span id %s given twice" % s["id"].hex())
            if s["kind"] != 1:
                fail("%s: kind %r, not SPAN_KIND_INTERNAL" % (s["name"], s["kind"]))
            if s["end"] < s["start"]:
                fail("%s: ends before it starts" % s["name"])
            by_id[s["id"]] = s
    roots = {}
    for s in by_id.values():
        if not s["parent"]:
            if s["trace"] in roots:
                fail("trace %s has two outermost spans" % s["trace"].hex())
            roots[s["trace"]] = s
            continue
        p = by_id.get(s["parent"])
        if p is None:
            fail("%s: its parent %s is no span of the file" % (s["name"], s["parent"].hex()))
        if p["trace"] != s["trace"]:
            fail("%s: in another trace than its parent" % s["name"])
        if s["start"] < p["start"] or s["end"] > p["end"]:
            fail("%s: outside its parent %s" % (s["name"], p["name"]))
    for s in by_id.values():
        if s["trace"] not in roots:
            fail("%s: its trace has no outermost span" % s["name"])
    return by_id


def value(v):
    return repr(v) if isinstance(v, float) else str(v)


def tree(res, by_id, base):
    """The resources, then each trace's spans depth first, as lines."""
    kids = {}
    for s in by_id.values():
        kids.setdefault(s["parent"], []).append(s)
    order = lambda s: (s["start"], s["end"], s["name"])
    lines = []

    def put(s, depth):
        a = " ".join("%s=%s" % (k, value(v)) for k, v in s["attrs"])
        lines.append("%s%s +%d..+%d %s" % ("  " * depth, s["name"], s["start"] - base, s["end"] - base, a))
        for c in sorted(kids.get(s["id"], []), key=order):
            put(c, depth + 1)

    for attrs, _, spans in res:
        lines.append("resource " + " ".join("%s=%s" % (k, value(v)) for k, v in attrs))
        for s in sorted((s for s in spans if not s["parent"]), key=order):
            put(s, 1)
    return lines


def wall_ns(text):
    """'2026-11-28T08:39:43.117498430Z' as ns since the epoch."""
    whole, frac = text.rstrip("Z").split(".")
    return calendar.timegm(time.strptime(whole, "%Y-%m-%dT%H:%M:%S")) * 10**9 + int(frac)


BUILT_IN = (("pull", "pulled", "pull"), ("push", "pushed", "push"), ("breath_start", "breath_end", "breath"))


def roles(name, pairs):
    """(1 begin or 2 end, its begin's name, the pair's label) of event NAME, or None."""
    for b, e, label in pairs:
        if name == b:
            return 1, b, label
        if name == e:
            return 2, b, label
    cat, _, short = name.rpartition(".")
    for b, e, label in BUILT_IN:
        if short == b:
            return 1, cat + "." + b, cat + "." + label
        if short == e:
            return 2, cat + "." + b, cat + "." + label
    return None


def paired(log, pairs, hz):
    """The spans pairing LOG's entries gives: {(name, start, end): parent key or None}."""
    if hz:
        # a log without a clock: its last entry at the file's modification time
        out = subprocess.run([TIMELINE, "dump", "-f", "json", log], capture_output=True,
                             check=True).stdout.decode()
        entries = [json.loads(l) for l in out.splitlines()]
        last = [e for e in entries if "event" in e][-1]["tsc"]
        mtime = os.stat(log).st_mtime_ns

        def wall(e):
            d = e["tsc"] - last
            return mtime + d * 10**9 // hz if d >= 0 else mtime - (-d) * 10**9 // hz
    else:
        out = subprocess.run([TIMELINE, "dump", "-f", "json", "-t", "wall", log], capture_output=True,
                             check=True).stdout.decode()
        entries = [json.loads(l) for l in out.splitlines()]

        def wall(e):
            return wall_ns(e["time"])
    spans, stack, seq = {}, [], None
    for e in entries:
        if "event" not in e or (seq is not None and e["seq"] != seq + 1 and "snabb" not in log):
            stack = []   # entries lost: the begins open are dropped
        if "event" not in e:
            continue
        seq = e["seq"]
        r = roles(e["event"], pairs)
        if not r:
            continue
        role, begin, label = r
        key = (begin, e["attrs"])
        if role == 1:
            stack = [o for o in stack if o["key"] != key]
            stack.append({"key": key, "tsc": e["tsc"], "wall": wall(e), "label": label,
                          "attrs": e["attrs"], "span": None})
            continue
        at = [i for i, o in enumerate(stack) if o["key"] == key]
        if not at:
            continue
        o = stack.pop(at[-1])
        app = [a[4:] for a in o["attrs"].split() if a.startswith("app=")]
        name = o["label"] + (" " + app[0] if app else "")
        end = wall(e) if e["tsc"] >= o["tsc"] else o["wall"]
        o["span"] = (name, o["wall"], end)
        parent = stack[at[-1] - 1] if at[-1] else None
        spans[o["span"]] = parent
    # a parent is known by its span once it has ended; one that never did is none
    return {k: (p["span"] if p else None) for k, p in spans.items()}


def table(log, hz):
    """The spans of LOG's span table (dump --spans): {(name, start, end): parent key or None}."""
    tl = os.environ.get("TIMELINE_SPANS_BIN") or TIMELINE
    out = subprocess.run([tl, "dump", "--spans", "-f", "json"] + ([] if hz else ["-t", "wall"]) + [log],
                         capture_output=True, check=True).stdout.decode()
    rows = [json.loads(l) for l in out.splitlines()]
    if hz:
        last = max(r["end_tsc"] for r in rows) if rows else 0
        dump = subprocess.run([TIMELINE, "dump", "-f", "json", log], capture_output=True,
                              check=True).stdout.decode()
        last = [json.loads(l) for l in dump.splitlines() if '"event"' in l][-1]["tsc"]
        mtime = os.stat(log).st_mtime_ns

        def ns(t):
            d = t - last
            return mtime + d * 10**9 // hz if d >= 0 else mtime - (-d) * 10**9 // hz
        for r in rows:
            r["begin_ns"], r["end_ns"] = ns(r["begin_tsc"]), ns(r["end_tsc"])
    key = {}
    for r in rows:
        name = r["span"] + (" " + r["attr"] if r["attr"] else "")
        key[(r["file"], r["thread"], r["id"])] = (name, r["begin_ns"], max(r["end_ns"], r["begin_ns"]))
    return {key[(r["file"], r["thread"], r["id"])]:
            key.get((r["file"], r["thread"], r["parent"])) if r["parent"] is not None else None
            for r in rows}


def against(by_id, logs, pairs, hz, spans=False):
    want = {}
    for log in logs:
        want.update(table(log, hz) if spans else paired(log, pairs, hz))
    got = {}
    for s in by_id.values():
        key = (s["name"], s["start"], s["end"])
        if key in got:
            fail("two spans %r" % (key,))
        p = by_id[s["parent"]] if s["parent"] else None
        got[key] = (p["name"], p["start"], p["end"]) if p else None
    if len(got) != len(want):
        fail("%d spans, the logs pair %d" % (len(got), len(want)))
    for key, parent in want.items():
        if key not in got:
            fail("no span %r" % (key,))
        if got[key] != parent:
            fail("span %r: parent %r, the logs say %r" % (key, got[key], parent))
    return "against: %d spans, names, times and parents as %s" % (
        len(want), "dump --spans gives them" if spans else "paired from dump")


def main():
    args = sys.argv[1:]
    if not args:
        fail("usage: otlp_check.py FILE [--json] [--tree] [--base NS] [--against LOG...] "
             "[--pair BEGIN=END=LABEL]... [--tsc-hz HZ]")
    path, json_form, show, base, logs, pairs, hz, spans = args[0], False, False, 0, [], [], 0, False
    i = 1
    while i < len(args):
        a = args[i]
        if a == "--json":
            json_form = True
        elif a == "--tree":
            show = True
        elif a == "--base":
            i += 1
            base = int(args[i])
        elif a == "--pair":
            i += 1
            pairs.append(tuple(args[i].split("=")))
        elif a == "--tsc-hz":
            i += 1
            hz = int(args[i])
        elif a in ("--against", "--spans"):
            spans = a == "--spans"
            while i + 1 < len(args) and not args[i + 1].startswith("--"):
                i += 1
                logs.append(args[i])
        else:
            fail("unknown option " + a)
        i += 1
    res = load(path, json_form)
    by_id = check(res)
    traces = len({s["trace"] for s in by_id.values()})
    print("resources %d traces %d spans %d" % (len(res), traces, len(by_id)))
    if show:
        print("\n".join(tree(res, by_id, base)))
    if logs:
        print(against(by_id, logs, pairs, hz, spans))


if __name__ == "__main__":
    main()
