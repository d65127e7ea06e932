"""test_words.py: a program in its own words (issue 36): events() lists
events only, pairs() the declarations with their units and breath, and
an attribute column (by=port) is a string, or None, in every frame.
The logs are written here through the library (manual clock at 1 GHz):
a forwarder whose loop is its breath and whose pairs are named by port,
each figure computed by hand."""
import ctypes
import os

import pandas as pd
import pytest

import timeline
from timeline import _lib

DEFS = ["1,9|fwd.iter_begin: iter", "1,9|fwd.iter_end: iter packets",
        "5,9|fwd.rx_begin: n", "5,9|fwd.rx_end: packets",
        "5,9|fwd.tx_begin: n", "5,9|fwd.tx_end: packets"]
PAIRS = ["pair|fwd.breath: fwd.iter_begin fwd.iter_end unit=packets breath",
         "pair|fwd.rx: fwd.rx_begin fwd.rx_end by=port unit=packets",
         "pair|fwd.tx: fwd.tx_begin fwd.tx_end by=port unit=packets"]
IB, IE, RB, RE, TB, TE = range(6)
# (port, event, time, arg0, arg1): two turns of the loop, as check_words.c's
STEPS = [(0, IB, 1000, 1, 0), (0, RB, 1100, 0, 0), (0, RE, 1300, 4, 0), (0, TB, 1300, 0, 0),
         (0, TE, 1400, 4, 0), (1, RB, 1500, 0, 0), (1, RE, 1600, 2, 0), (1, TB, 1700, 0, 0),
         (1, TE, 1900, 2, 0), (0, IE, 2000, 1, 6), (0, IB, 3000, 2, 0), (0, RB, 3100, 0, 0),
         (0, RE, 3500, 8, 0), (0, TB, 3500, 0, 0), (0, TE, 3600, 8, 0), (1, RB, 3600, 0, 0),
         (1, RE, 3700, 1, 0), (1, TB, 3800, 0, 0), (1, TE, 3900, 1, 0), (0, IE, 4000, 2, 9)]


class Options(ctypes.Structure):
    _fields_ = [("entries", ctypes.c_uint64), ("strings_bytes", ctypes.c_uint32),
                ("clock", ctypes.c_int), ("name", ctypes.c_char_p), ("tsc_hz", ctypes.c_uint64),
                ("no_prefault", ctypes.c_int)]


def writer():
    """The library's writing functions, typed."""
    L = _lib.lib()
    P, U16, U64 = ctypes.c_void_p, ctypes.c_uint16, ctypes.c_uint64
    E = ctypes.POINTER(_lib.Error)
    for name, res, args in [
        ("tl_open", P, [ctypes.c_char_p, ctypes.POINTER(Options), E]),
        ("tl_register", ctypes.c_int, [P, ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t,
                                       ctypes.c_char_p, ctypes.POINTER(U16), E]),
        ("tl_intern", ctypes.c_int, [P, ctypes.c_char_p, ctypes.POINTER(U16), E]),
        ("tl_set_manual_clock", None, [P, U64, U16]),
        ("tl_append", None, [P, ctypes.c_uint] + [U64] * 6),
        ("tl_close", None, [P]),
    ]:
        f = getattr(L, name)
        f.restype, f.argtypes = res, args
    return L


def register(L, log, defs, attrs):
    ids = (ctypes.c_uint16 * len(defs))()
    arr = (ctypes.c_char_p * len(defs))(*[d.encode() for d in defs])
    err = _lib.Error()
    assert L.tl_register(log, arr, len(defs), attrs, ids, ctypes.byref(err)) == 0, err.msg
    return list(ids)


def fwd_log(path, declare=True):
    """The forwarder's two turns at PATH; without DECLARE its events alone."""
    L = writer()
    err = _lib.Error()
    o = Options(entries=64, strings_bytes=8192, clock=5, name=b"fwd", tsc_hz=1000000000)
    log = L.tl_open(os.fsencode(path), ctypes.byref(o), ctypes.byref(err))
    assert log, err.msg
    loop = register(L, log, DEFS[:2], None)
    ports = [loop + register(L, log, DEFS[2:], b"port=%d" % p) for p in (0, 1)]
    for s in PAIRS if declare else []:
        assert L.tl_intern(log, s.encode(), ctypes.byref(ctypes.c_uint16()), ctypes.byref(err)) == 0
    for port, ev, t, a0, a1 in STEPS:
        L.tl_set_manual_clock(log, t, 0)
        L.tl_append(log, ports[port][ev], a0, a1, 0, 0, 0, 0)
    L.tl_close(log)
    return path


def test_events_lists_the_events_and_pairs_the_declarations(tmp_path):
    p = fwd_log(tmp_path / "fwd.timeline")
    ev = timeline.events(p)
    assert list(zip(ev.event, ev["attrs"])) == [   # ev.attrs: the frame's own
        ("fwd.iter_begin", ""), ("fwd.iter_end", ""),
        ("fwd.rx_begin", "port=0"), ("fwd.rx_begin", "port=1"),
        ("fwd.rx_end", "port=0"), ("fwd.rx_end", "port=1"),
        ("fwd.tx_begin", "port=0"), ("fwd.tx_begin", "port=1"),
        ("fwd.tx_end", "port=0"), ("fwd.tx_end", "port=1")]
    assert not ev.event.str.startswith("?").any()
    pr = timeline.pairs(p)
    assert list(pr.columns) == ["pair", "begin", "end", "by", "unit", "units", "breath"]
    assert pr.to_dict("records") == [
        {"pair": "fwd.breath", "begin": "fwd.iter_begin", "end": "fwd.iter_end", "by": "app",
         "unit": "packets", "units": "packets", "breath": True},
        {"pair": "fwd.rx", "begin": "fwd.rx_begin", "end": "fwd.rx_end", "by": "port",
         "unit": "packets", "units": "packets", "breath": False},
        {"pair": "fwd.tx", "begin": "fwd.tx_begin", "end": "fwd.tx_end", "by": "port",
         "unit": "packets", "units": "packets", "breath": False}]
    assert pr.breath.dtype == bool


def test_pairs_of_many_logs_is_each_declaration_once_and_none_without(tmp_path):
    a, b = fwd_log(tmp_path / "a.timeline"), fwd_log(tmp_path / "b.timeline")
    bare = fwd_log(tmp_path / "bare.timeline", declare=False)
    assert list(timeline.pairs([a, b]).pair) == ["fwd.breath", "fwd.rx", "fwd.tx"]
    none = timeline.pairs(bare)
    assert none.empty and list(none.columns) == ["pair", "begin", "end", "by", "unit", "units",
                                                 "breath"]
    assert len(timeline.events(bare)) == 10


def test_a_kv_servers_pairs_name_their_units_and_its_breath(tmp_path):
    kv = os.environ.get("TIMELINE_KV")
    if not kv:
        pytest.fail("TIMELINE_KV unset: run the suite with make check")
    import subprocess
    subprocess.run([kv, "--polls", "20", "--rate", "all", "--dir", str(tmp_path)], check=True,
                   stdout=subprocess.DEVNULL)
    pr = timeline.pairs(tmp_path)
    assert [(r.pair, r.unit, r.units, r.breath) for r in pr.itertuples()] == [
        ("kv.lookup", "keys", "keys", False), ("kv.parse", "bytes", "bytes", False),
        ("kv.poll", "requests", "requests bytes", True), ("kv.reply", "bytes", "bytes", False),
        ("kv.req", "requests", "requests bytes", False)]
    assert len(timeline.events(tmp_path)) == 10


def test_the_attribute_column_is_a_string_in_every_frame(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    fwd_log(a / "fwd.timeline")
    fwd_log(b / "fwd.timeline")
    st = timeline.stats(a)   # the declared pairs: the main table without per=
    assert list(st.columns[:4]) == ["event", "port", "unit", "pairs"]
    assert st.port.tolist() == [None, "0", "1", "0", "1"]
    assert st["cycles_per_unit"].tolist()[1] == 50
    by = timeline.stats(a, per="packets", by="app")
    assert by.port.tolist() == [None, "0", "1"]
    d = timeline.diff(a, b)
    assert d.port.tolist() == [None, "0", "1", "0", "1", None]
    df = timeline.read(a)
    assert sorted(set(df.port.dropna())) == ["0", "1"]
