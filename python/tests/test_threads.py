"""test_threads.py: the thread column (issue 37) of a log that several
threads write, written here by Python threads through libtimeline itself
(ctypes releases the GIL around each call): each row's thread named as
`timeline dump` names it, "name[tid]", counted exactly, and the same rows
as dump's CSV gives by thread index."""
import csv
import ctypes
import io
import os
import threading

import numpy as np

import timeline
from timeline import _lib
from conftest import SNABB, tl


class Options(ctypes.Structure):
    """struct tl_options (timeline.h)."""
    _fields_ = [("entries", ctypes.c_uint64), ("strings_bytes", ctypes.c_uint32),
                ("clock", ctypes.c_int), ("name", ctypes.c_char_p), ("tsc_hz", ctypes.c_uint64),
                ("no_prefault", ctypes.c_int)]


def writer():
    """The library's writing calls, typed."""
    L = ctypes.CDLL(_lib.library_path())
    P, U64 = ctypes.c_void_p, ctypes.c_uint64
    L.tl_open.restype, L.tl_open.argtypes = P, [ctypes.c_char_p, ctypes.POINTER(Options), P]
    L.tl_close.restype, L.tl_close.argtypes = None, [P]
    L.tl_intern.restype = ctypes.c_int
    L.tl_intern.argtypes = [P, ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint16), P]
    L.tl_append.restype, L.tl_append.argtypes = None, [P, ctypes.c_uint] + [U64] * 6
    L.tl_thread_attach.restype = ctypes.c_int
    L.tl_thread_attach.argtypes = [P, ctypes.c_char_p, P]
    return L


def test_each_row_names_its_thread_and_each_thread_keeps_its_count(tmp_path):
    L = writer()
    path = str(tmp_path / "py.timeline")
    log = L.tl_open(path.encode(), ctypes.byref(Options(entries=4096, strings_bytes=4096,
                                                         no_prefault=1)), None)
    assert log
    msgid = ctypes.c_uint16()
    assert L.tl_intern(log, b"9,9|py.e: w i\nAn entry of worker w, its number i.",
                       ctypes.byref(msgid), None) == 0
    counts = {0: 50, 1: 300, 2: 200, 3: 1}
    tids = {0: threading.get_native_id()}
    go = threading.Barrier(3)

    def work(w):
        tids[w] = threading.get_native_id()
        assert L.tl_thread_attach(log, b"py-%d" % w, None) == 0
        if w < 3:
            go.wait()
        for i in range(counts[w]):
            L.tl_append(log, msgid.value, w, i, 0, 0, 0, 0)

    for i in range(counts[0]):          # this thread first: the first ring
        L.tl_append(log, msgid.value, 0, i, 0, 0, 0, 0)
    ts = [threading.Thread(target=work, args=(w,)) for w in (1, 2)]
    for t in ts:
        t.start()
    go.wait()
    for t in ts:
        t.join()
    t = threading.Thread(target=work, args=(3,))   # one entry, after the others ended
    t.start()
    t.join()
    L.tl_close(log)

    comm = open("/proc/self/comm").read().strip()
    names = {0: "%s[%d]" % (comm, tids[0])}
    names.update({w: "py-%d[%d]" % (w, tids[w]) for w in (1, 2, 3)})
    df = timeline.read(path)
    assert len(df) == sum(counts.values())
    assert str(df["thread"].dtype) == "category"
    assert sorted(df["thread"].cat.categories) == sorted(names.values())
    for w, n in counts.items():
        rows = df[df["arg0"] == w]
        assert len(rows) == n
        assert set(rows["thread"].astype(str)) == {names[w]}
        assert rows["seq"].tolist() == list(range(n))          # each thread numbers its own
        assert rows["arg1"].tolist() == list(range(n))
    assert (np.diff(df["tsc"].to_numpy().astype(np.int64)) >= 0).all()   # merged by time
    # dump's CSV: the same rows, by thread index, which each label names once
    out, _, _ = tl("dump", "--format", "csv", path)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["arg0"] for r in rows] == [str(x) for x in df["arg0"]]
    by_index = {}
    for r, lab in zip(rows, df["thread"].astype(str)):
        assert by_index.setdefault(r["thread"], lab) == lab
    assert sorted(by_index) == ["0", "1", "2", "3"]
    # the numpy form: codes into the same labels
    a = timeline.read(path, numpy=True)
    cats = a.dtype["thread"].metadata["categories"]
    assert [cats[c] for c in a["thread"]] == list(df["thread"].astype(str))
    os.remove(path)


def test_a_log_of_one_thread_and_snabbs_have_one_thread(demo):
    log = sorted((demo / "runs").iterdir())[0]
    df = timeline.read(log)
    labels = set(df["thread"].astype(str))
    assert len(labels) == 1
    (label,) = labels
    assert label.startswith("engine[") and label.endswith("]")
    # a Snabb log does not say: its one thread by index
    assert set(timeline.read(SNABB)["thread"].astype(str)) == {"thread 0"}
