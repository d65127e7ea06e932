"""test_switches.py: timeline.events() gives each event's switch (on) and
each log's rules for events registered later (attrs["rules"]) as
`timeline info` shows them, on demo engine logs switched by `timeline
disable` and `enable`: exact lists, before and after, a damaged rules
area, a directory of two logs, and Snabb's fixture."""
import json
import struct
import warnings

import pytest

import timeline
from conftest import SNABB, engine, tl

PUSH = ["app.push app=%s" % a for a in ("checksum", "lookup", "rewrite", "sink", "source")]
RULES_USED = 480   # the rules area's byte count in the header (timeline-format(5))


def info(log):
    out, _, _ = tl("info", "--format", "json", log)
    return json.loads(out)


def off(ev):
    """The events EV has off, as info names them ("app.push app=lookup")."""
    return sorted((e + " " + a).strip() for e, a, on in zip(ev["event"], ev["attrs"], ev["on"])
                  if not on)


def rules_of(i):
    """info's rules as events() gives them."""
    return [(r["switch"], r["pattern"]) for r in i["rules"]]


@pytest.fixture()
def logs(tmp_path):
    """Two logs of the demo engine, x and y, in one directory, their
    writers ended."""
    d = tmp_path / "d"
    engine(d, "x", "--breaths", 300, "--rate", "all")
    engine(d, "y", "--breaths", 300, "--rate", "all")
    return d, next(d.glob("x-*.timeline")), next(d.glob("y-*.timeline"))


def test_events_says_each_switch_and_the_rules_as_info_does(logs):
    _, x, _ = logs
    ev = timeline.events(x)
    assert ev["on"].dtype == bool and ev["on"].all() and len(ev) == 26
    assert list(ev.columns[:3]) == ["event", "attrs", "on"]
    assert ev.attrs["rules"] == {}
    i = info(x)
    out, err, rc = tl("disable", x, "app.push")
    assert (out, rc) == ("5 events off in 1 log\n", 0)
    assert err == ("timeline disable: warning: %s: no process will read the switches: its "
                   "writer (engine, pid %d) has ended\n" % (x, i["pid"]))
    ev, i = timeline.events(x), info(x)
    assert off(ev) == sorted(i["switched_off"]) == PUSH
    assert ev["on"].sum() == i["definitions"] - 5 == 21
    assert ev.attrs["rules"] == {str(x): rules_of(i)} == {str(x): [("off", "app.push")]}
    out, _, _ = tl("ls", x)
    assert out.rstrip("\n").endswith("(5 events off)")
    # one app's push and pushed alone: everything else off, the rules replaced
    out, _, rc = tl("enable", "--only", "app.push* app=lookup", x)
    assert (out, rc) == ("1 event on and 20 off in 1 log\n", 0)
    ev, i = timeline.events(x), info(x)
    assert sorted(ev["event"][ev["on"]] + " " + ev["attrs"][ev["on"]]) == [
        "app.push app=lookup", "app.pushed app=lookup"]
    assert off(ev) == sorted(i["switched_off"]) and len(i["switched_off"]) == 24
    assert ev.attrs["rules"] == {str(x): rules_of(i)} == {
        str(x): [("off", "*"), ("on", "app.push* app=lookup")]}
    # a frame cut from it keeps them
    assert ev[ev["on"]].attrs["rules"] == ev.attrs["rules"]
    tl("enable", "--all", x)
    ev = timeline.events(x)
    assert ev["on"].all() and ev.attrs["rules"] == {} and info(x)["switched_off"] == []


def test_a_damaged_rules_area_is_none_and_said(logs):
    _, x, _ = logs
    tl("disable", x, "app.pull")
    with open(x, "r+b") as f:
        f.seek(RULES_USED)
        f.write(struct.pack("<H", 600))
    assert info(x)["rules_damaged"] is True
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        ev = timeline.events(x)
    assert [str(m.message) for m in w] == [
        "%s: rules damaged or left half-changed: its writer ignores them" % x]
    assert w[0].category is timeline.TimelineWarning
    assert ev.attrs["rules"] == {str(x): None}
    assert off(ev) == ["app.pull app=%s" % a for a in ("checksum", "lookup", "rewrite", "sink",
                                                        "source")]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert timeline.events(x, errors="ignore").attrs["rules"] == {str(x): None}


def test_an_event_off_in_one_log_of_a_directory_is_off(logs):
    d, x, y = logs
    tl("disable", x, "app.push app=lookup")
    tl("disable", y, "engine.sleep")
    ev = timeline.events(d)
    assert len(ev) == 26   # one row a definition, both logs holding each
    assert off(ev) == ["app.push app=lookup", "engine.sleep"]
    assert ev.attrs["rules"] == {str(x): [("off", "app.push app=lookup")],
                                 str(y): [("off", "engine.sleep")]}
    tl("enable", "--all", y)
    assert timeline.events(d).attrs["rules"] == {str(x): [("off", "app.push app=lookup")]}


def test_a_snabb_log_has_every_event_on_and_no_rules():
    ev = timeline.events(SNABB)
    assert len(ev) > 10 and ev["on"].all() and ev.attrs["rules"] == {}
