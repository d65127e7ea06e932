"""test_recorder.py: read()'s attrs["recorders"] says each log's flight
recorder (`timeline arm`) as `timeline info --format json` does: a demo
engine armed at 1 ns (its first breath triggers), its slow pair found in
the frame by its entry numbers; a log frozen by hand; a log never armed
has none."""
import json
import os
import subprocess
import time

import timeline
from conftest import ENGINE, engine, tl


def info(log):
    out, _, _ = tl("info", "--format", "json", log)
    return json.loads(out)


def wait_for(cond, what, seconds=10):
    end = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < end, what
        time.sleep(0.01)


def test_an_armed_engine_freezes_and_read_names_its_slow_pair(tmp_path):
    d = tmp_path / "d"
    os.makedirs(d)
    p = subprocess.Popen([ENGINE, "--dir", str(d), "--name", "e", "--entries", "65536",
                          "--seconds", "20", "--rate", "all"], stdout=subprocess.DEVNULL)
    try:
        wait_for(lambda: list(d.glob("e-*.timeline")), "the engine's log")
        log = str(next(d.glob("e-*.timeline")))
        wait_for(lambda: tl("info", log, check=False)[2] == 0, "its header")
        wait_for(lambda: info(log)["breaths"] > 10, "breaths")
        tl("arm", log, "--slower-than", "1ns", "--keep", "0")
        wait_for(lambda: info(log)["recorder"]["state"] == "frozen", "the freeze")
    finally:
        p.kill()
        p.wait()
    i = info(log)
    df = timeline.read(log)
    rec = df.attrs["recorders"][log]
    t = rec["trigger"]
    assert rec["state"] == "frozen" and rec["what"] == "engine.breath"
    assert rec["threshold"] == i["recorder"]["threshold_cycles"] >= 1 and rec["keep"] == 0
    assert t["kind"] == i["trigger"]["kind"] and t["kind"] in ("pair", "gap")
    assert (t["cycles"], t["begin_seq"], t["end_seq"], t["thread"], t["attrs"]) == \
        (i["trigger"]["cycles"], i["trigger"]["begin_seq"], i["trigger"]["end_seq"], 0, "")
    rows = df[(df.thread.cat.codes == 0) & df.seq.isin([t["begin_seq"], t["end_seq"]])]
    want = ["engine.breath_start", "engine.breath_end"]
    assert list(rows.event) == (want if t["kind"] == "pair" else want[::-1])
    assert int(rows.tsc.iloc[1]) - int(rows.tsc.iloc[0]) == t["cycles"] > t["threshold"]


def test_a_log_frozen_by_hand_and_one_never_armed(tmp_path):
    d = tmp_path / "d"
    engine(d, "x", "--breaths", 100, "--rate", "all")
    engine(d, "y", "--breaths", 100, "--rate", "all")
    x, y = str(next(d.glob("x-*.timeline"))), str(next(d.glob("y-*.timeline")))
    tl("freeze", x, check=False)   # its writer has ended: a warning, exit 0
    recs = timeline.read(str(d)).attrs["recorders"]
    assert list(recs) == [x]
    assert recs[x]["state"] == "frozen" and recs[x]["trigger"]["kind"] == "hand"
    assert (recs[x]["trigger"]["cycles"], recs[x]["trigger"]["end_seq"]) == (0, 0)
    assert recs[x]["trigger"]["wall"] > 1700000000 * 10**9
    assert timeline.read(y).attrs["recorders"] == {}
