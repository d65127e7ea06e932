#!/usr/bin/env python3
"""browser.py: opens `timeline report` pages in headless Chromium (Debian's
chromium, driven over the DevTools protocol on a pipe: no npm, no network)
and checks them as a person would see them. For each page:

- every section has a chart (or a note saying why it has none: the
  callers count the charts), and every chart draws marks with a size;
- every numeric axis is labelled with its unit in parentheses, and every
  chart has one along x (the histograms and time charts one along y too);
- each chart's screenshot is not blank (pixels other than the background);
- the console shows no error or warning, and no script exception;
- nothing outside the file was requested (only the file itself and data:),
  and no element could load anything (no img, iframe, src or href but data:);
- hovering an over-time chart shows the values of the bin under the pointer.

It saves a PNG per section (PAGE-SECTION.png) in --out, and with --time
prints how long the page took to load and to paint its first frame after
the load. With --verdicts it checks nothing and prints, for each table
cell of a diff verdict, its word, class and the colour, weight and style
the browser computed for it. Exits 1 on a failed check (each printed), 2
on bad usage.

usage: browser.py [--chromium PATH] [--out DIR] [--time] [--runs N] [--verdicts] PAGE.html...
"""
import base64
import fcntl
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib


class Chromium:
    """A headless Chromium and one page of it, spoken to over fds 3 and 4."""

    def __init__(self, path):
        self.profile = tempfile.mkdtemp(prefix="tl-chromium-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        args = [path, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--mute-audio", "--remote-debugging-pipe",
                "--user-data-dir=" + self.profile, "about:blank"]

        # the child's ends, above the fds it gets them at, so that neither
        # dup2 below overwrites the other
        for fd in (to_chrome_r, from_chrome_w):
            hi = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
            os.close(fd)
            if fd == to_chrome_r:
                to_chrome_r = hi
            else:
                from_chrome_w = hi

        def child_fds():
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        self.proc = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=child_fds,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # the child has its copies: close ours
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(domain + ".enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": 1100, "height": 900, "deviceScaleFactor": 1, "mobile": False},
                  session=True)

    def read_message(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=False, timeout=60):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self.read_message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m["result"]
            if "method" in m:
                self.events.append(m)

    def wait_event(self, method, timeout=60):
        deadline = time.time() + timeout
        for i, m in enumerate(self.events):
            if m["method"] == method:
                return self.events.pop(i)
        while True:
            m = self.read_message(deadline)
            if m.get("method") == method:
                return m
            if "method" in m:
                self.events.append(m)

    def evaluate(self, expr, promise=False):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                           "awaitPromise": promise}, session=True)
        if "exceptionDetails" in r:
            raise RuntimeError("evaluate: %s" % r["exceptionDetails"])
        return r["result"].get("value")

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except (RuntimeError, TimeoutError, EOFError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_chrome)
        os.close(self.from_chrome)
        shutil.rmtree(self.profile, ignore_errors=True)


def png_pixels(data):
    """The width, height and rows of RGB(A) pixels of an 8-bit PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert depth == 8 and ctype in (2, 6), "PNG of depth %d, color type %d" % (depth, ctype)
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def inked(data):
    """The share of pixels of a PNG that are not near-white, and how many
    distinct colors it has (at most 1000 counted)."""
    w, h, bpp, rows = png_pixels(data)
    ink, colors = 0, set()
    for row in rows:
        for x in range(0, w * bpp, bpp):
            px = row[x:x + 3]
            if min(px) < 235:
                ink += 1
            if len(colors) < 1000:
                colors.add(px)
    return ink / float(w * h), len(colors)


# What the page says of its sections and charts, read from the DOM.
CHECK = r"""(() => {
  const unit = /\([^()]+\)\s*$/;
  return [...document.querySelectorAll('section.section')].map(s => ({
    id: s.dataset.section,
    charts: [...s.querySelectorAll('svg.plot')].map(svg => {
      const r = svg.getBoundingClientRect();
      const marks = [...svg.querySelectorAll('.mark')].filter(m => {
        const b = m.getBBox(); return b.width > 0 || b.height > 0; });
      const num = [...svg.querySelectorAll('.axis-label.num')];
      return {
        id: svg.id, kind: svg.classList[1],
        x: r.left + window.scrollX, y: r.top + window.scrollY, w: r.width, h: r.height,
        marks: marks.length,
        xlabels: num.filter(t => t.classList.contains('x')).map(t => t.textContent),
        ylabels: num.filter(t => t.classList.contains('y')).map(t => t.textContent),
        nounit: num.filter(t => !unit.test(t.textContent)).map(t => t.textContent),
      };
    }),
    box: (b => ({x: b.left + window.scrollX, y: b.top + window.scrollY,
                 w: b.width, h: b.height}))(s.getBoundingClientRect()),
    notes: [...s.querySelectorAll('.note')].map(n => n.textContent),
  }));
})()"""

# Elements that could load something: any but the data: icon.
LOADERS = r"""[...document.querySelectorAll(
  '[src],[href],[srcset],[data],[action],img,iframe,object,embed,audio,video,source,link')]
  .filter(e => !/^data:/.test(e.getAttribute('href') || e.getAttribute('src') || ''))
  .map(e => e.outerHTML.slice(0, 100))"""

# The cells of the verdicts' column of each table, as the browser shows them
# (the column counted along the header's first row, whose names may span
# two columns, A and B, below them).
VERDICTS = r"""[...document.querySelectorAll('table')].flatMap(t => {
  const h = [...t.querySelectorAll('thead tr:first-child th')];
  const i = h.findIndex(x => x.textContent == 'verdict');
  const k = i < 0 ? -1 : h.slice(0, i).reduce((n, x) => n + x.colSpan, 0);
  return k < 0 ? [] : [...t.querySelectorAll('tbody tr')].map(r => r.children[k]).map(td => {
    const s = getComputedStyle(td);
    return [td.textContent, td.className, s.color, s.fontWeight, s.fontStyle].join(' | ');
  });
})"""


def print_verdicts(chrome, page):
    load(chrome, page)
    for v in chrome.evaluate(VERDICTS):
        print(v)


# A frame painted after the load: milliseconds since the navigation began.
PAINTED = """new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r({
  load: performance.getEntriesByType('navigation')[0].loadEventEnd,
  painted: performance.now()}))))"""


def screenshot(chrome, box, path=None, scale=1):
    clip = {"x": box["x"], "y": box["y"], "width": max(1, box["w"]),
            "height": max(1, box["h"]), "scale": scale}
    data = base64.b64decode(chrome.call("Page.captureScreenshot",
                                        {"format": "png", "clip": clip,
                                         "captureBeyondViewport": True},
                                        session=True)["data"])
    if path:
        with open(path, "wb") as f:
            f.write(data)
    return data


def hover_shows_values(chrome, chart):
    """Moves the pointer over the middle of an over-time chart's first panel
    and returns the tooltip's text."""
    chrome.evaluate("window.scrollTo(0, %d)" % max(0, chart["y"] - 100))
    sy = chrome.evaluate("window.scrollY")
    x, y = chart["x"] + chart["w"] / 2, chart["y"] - sy + 80
    chrome.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y},
                session=True)
    return chrome.evaluate("(t => t.hidden ? '' : t.textContent)(document.getElementById('tip'))")


def load(chrome, page):
    url = "file://" + os.path.abspath(page)
    chrome.events = []
    chrome.call("Page.navigate", {"url": url}, session=True)
    chrome.wait_event("Page.loadEventFired")
    return url, chrome.evaluate(PAINTED, promise=True)


def check_page(chrome, page, out, timing):
    problems = []
    url, t = load(chrome, page)
    sections = chrome.evaluate(CHECK)
    if not sections:
        problems.append("no section")
    for e in chrome.evaluate(LOADERS):
        problems.append("an element that could load: %s" % e)
    name = os.path.splitext(os.path.basename(page))[0]
    ncharts = 0
    for s in sections:
        if not s["charts"] and not s["notes"]:
            problems.append("section %s: no chart, and no note saying why" % s["id"])
        if out:
            screenshot(chrome, s["box"], os.path.join(out, "%s-%s.png" % (name, s["id"])))
        for c in s["charts"]:
            ncharts += 1
            where = "section %s, chart %s" % (s["id"], c["id"])
            if c["marks"] == 0 or c["w"] < 100 or c["h"] < 40:
                problems.append("%s: empty (%d marks, %dx%d px)" % (where, c["marks"], c["w"], c["h"]))
            if not c["xlabels"]:
                problems.append("%s: no x axis label" % where)
            if c["kind"] in ("hist", "timeline") and not c["ylabels"]:
                problems.append("%s: no y axis label" % where)
            for label in c["nounit"]:
                problems.append("%s: axis label without a unit: %r" % (where, label))
            ink, colors = inked(screenshot(chrome, c, scale=0.25))
            if ink < 0.01 or colors < 3:
                problems.append("%s: blank on screen (%.4f inked, %d colors)" % (where, ink, colors))
    timeline = [c for s in sections for c in s["charts"] if c["kind"] == "timeline"]
    if timeline:
        tip = hover_shows_values(chrome, timeline[0])
        if not tip.startswith("time ") or "p50" not in tip:
            problems.append("hovering %s shows no values: %r" % (timeline[0]["id"], tip))
    # what the page asked for, and what its console said
    for m in chrome.events:
        p = m.get("params", {})
        if m["method"] == "Network.requestWillBeSent":
            u = p["request"]["url"]
            if u != url and not u.startswith("data:"):
                problems.append("requested outside the file: %s" % u)
        elif m["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
            problems.append("console %s: %s" % (p["type"], p.get("args")))
        elif m["method"] == "Runtime.exceptionThrown":
            problems.append("exception: %s" % p["exceptionDetails"])
        elif m["method"] == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
            problems.append("console %s: %s" % (p["entry"]["level"], p["entry"]["text"]))
    print("%s: %d sections, %d charts, %d problems%s" % (
        page, len(sections), ncharts, len(problems),
        ", load %.0f ms, painted %.0f ms" % (t["load"], t["painted"]) if timing else ""))
    for p in problems:
        print("  " + p)
    return problems


def time_page(chrome, page, runs):
    """Loads PAGE RUNS times; prints each load's times and their medians."""
    loads, painted = [], []
    for _ in range(runs):
        _, t = load(chrome, page)
        loads.append(t["load"])
        painted.append(t["painted"])
    med = lambda v: sorted(v)[len(v) // 2]
    print("%s: load %s ms, painted %s ms; medians %.0f and %.0f ms over %d loads" % (
        page, " ".join("%.0f" % v for v in loads), " ".join("%.0f" % v for v in painted),
        med(loads), med(painted), runs))


def main(argv):
    chromium, out, timing, runs, verdicts, pages = "chromium", None, False, 0, False, []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("--chromium", "--out", "--runs") and i + 1 < len(argv):
            if a == "--chromium":
                chromium = argv[i + 1]
            elif a == "--out":
                out = argv[i + 1]
            else:
                runs = int(argv[i + 1])
            i += 2
            continue
        if a == "--time":
            timing = True
        elif a == "--verdicts":
            verdicts = True
        elif a.startswith("-"):
            print(__doc__.strip().splitlines()[-1], file=sys.stderr)
            return 2
        else:
            pages.append(a)
        i += 1
    if not pages:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    if not shutil.which(chromium):
        print("browser.py: %s: not found (scripts/install-deps installs Debian's chromium)"
              % chromium, file=sys.stderr)
        return 1
    chrome = Chromium(shutil.which(chromium))
    try:
        if runs or verdicts:
            for page in pages:
                if runs:
                    time_page(chrome, page, runs)
                else:
                    print_verdicts(chrome, page)
            return 0
        failed = sum(len(check_page(chrome, page, out, timing)) for page in pages)
    finally:
        chrome.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
