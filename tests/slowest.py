"""slowest.py: the slowest test cases of a `make check` run, from the XML log
Check writes with CK_XML_LOG_FILE_NAME (each test's wall time, fixtures
aside), as a Markdown table, with the machine's CPU model and count from
/proc/cpuinfo. A loop test counts once per iteration.
Usage: python3 tests/slowest.py LOG.xml [N]   (N: 15)"""
import sys
import xml.etree.ElementTree as ET

NS = "{http://check.sourceforge.net/ns}"


def cases(path):
    """(seconds, suite, test, result) of every test in the log."""
    out = []
    for suite in ET.parse(path).getroot().iter(NS + "suite"):
        name = suite.find(NS + "title").text
        tests = list(suite.iter(NS + "test"))
        ids = [t.find(NS + "id").text for t in tests]
        for t, test in zip(tests, ids):
            if ids.count(test) > 1:   # a loop test: which run of it
                test += " [_i = %s]" % t.find(NS + "iteration").text
            out.append((float(t.find(NS + "duration").text), name, test, t.get("result")))
    return out


def machine():
    """The CPU model and how many CPUs, from /proc/cpuinfo."""
    model, n = "unknown", 0
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                n += 1
    return "%s, %d CPUs" % (model, n)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    rows = sorted(cases(sys.argv[1]), reverse=True)
    print("%d tests, %.0f s in all; %s\n" % (len(rows), sum(r[0] for r in rows if r[0] > 0), machine()))
    print("| suite | test | seconds |")
    print("|---|---|---|")
    for secs, suite, test, result in rows[:n]:
        print("| %s | `%s` | %s |" % (suite, test, "%.1f" % secs if result == "success" else result))


main()
