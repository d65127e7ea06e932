"""conftest.py: what the Python suite reads: the built program and demo
engine (make check's environment, else the tree's), the Snabb fixture,
and logs of the demo engine made once per run."""
import ctypes
import os
import subprocess
import sys

import pytest

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if not os.environ.get("PYTHONPATH"):   # run by hand in the tree: the tree's package
    sys.path.insert(0, os.path.join(SRC, "python"))

TIMELINE = os.environ.get("TIMELINE_BIN") or os.path.join(SRC, "timeline")
ENGINE = os.environ.get("TIMELINE_ENGINE") or os.path.join(SRC, "build/examples/engine/engine")
FIXTURES = os.environ.get("TIMELINE_FIXTURES") or os.path.join(SRC, "tests/fixtures")
SNABB = os.path.join(FIXTURES, "snabb-v3/engine-short.events.timeline.zst")


# Two CPUs this process may run on, the lowest: the demo's runs are pinned
# to them (a machine's CPUs need not be numbered 0 and 1).
CPUS = (sorted(os.sched_getaffinity(0)) * 2)[:2]


def tl(*args, check=True):
    """Runs the timeline program; returns (stdout, stderr, status)."""
    p = subprocess.run([TIMELINE] + [str(a) for a in args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if check and p.returncode not in (0, 1):
        raise AssertionError("timeline %s: %d %s" % (args, p.returncode, p.stderr.decode()))
    return p.stdout.decode(), p.stderr.decode(), p.returncode


class _Options(ctypes.Structure):   # tl_options (timeline.h)
    _fields_ = [("entries", ctypes.c_uint64), ("strings_bytes", ctypes.c_uint32),
                ("clock", ctypes.c_int), ("name", ctypes.c_char_p), ("tsc_hz", ctypes.c_uint64),
                ("no_prefault", ctypes.c_int)]


def manual_log(path, defs, entries, ring=64, attrs=None, hz=1000000000):
    """Writes the log PATH with libtimeline, its manual clock at HZ (TL_CLOCK_MANUAL): the
    definitions DEFS registered (with ATTRS), then each of ENTRIES, (tsc, cpu/node word,
    index in DEFS, arg0, arg1, ...), in order. Returns PATH."""
    from timeline import _lib
    L = ctypes.CDLL(_lib.library_path())
    P, U64 = ctypes.c_void_p, ctypes.c_uint64
    L.tl_open.restype = P
    L.tl_open.argtypes = [ctypes.c_char_p, ctypes.POINTER(_Options), ctypes.POINTER(_lib.Error)]
    L.tl_register.argtypes = [P, ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t,
                              ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint16),
                              ctypes.POINTER(_lib.Error)]
    L.tl_set_manual_clock.argtypes = [P, U64, ctypes.c_uint16]
    L.tl_append.argtypes = [P, ctypes.c_uint] + [U64] * 6
    L.tl_close.argtypes = [P]
    err = _lib.Error()
    o = _Options(ring, 4096, 5, b"py", hz, 1)
    log = L.tl_open(os.fsencode(str(path)), ctypes.byref(o), ctypes.byref(err))
    assert log, err.msg
    ids = (ctypes.c_uint16 * len(defs))()
    d = (ctypes.c_char_p * len(defs))(*[x.encode() for x in defs])
    assert L.tl_register(log, d, len(defs), attrs.encode() if attrs else None, ids,
                         ctypes.byref(err)) == 0, err.msg
    for tsc, aux, k, *args in entries:
        L.tl_set_manual_clock(log, tsc, aux)
        L.tl_append(log, ids[k], *(list(args) + [0] * (6 - len(args))))
    L.tl_close(log)
    return path


def engine(d, name, *opts):
    os.makedirs(d, exist_ok=True)
    subprocess.run([ENGINE, "--dir", str(d), "--name", name, "--entries", "65536"] +
                   [str(o) for o in opts], check=True, stdout=subprocess.DEVNULL)


@pytest.fixture(scope="session")
def demo(tmp_path_factory):
    """Demo-like logs: runs/ of three workloads on CPUS[0], CPUS[1] and CPUS[0]; ab/normal and
    ab/slow, four runs each of imix on CPUS[0], the slow ones with five times the lookup's
    work per packet: so much that a loaded machine cannot hide it (with 60% more, one
    normal run slowed by a neighbour was enough for "no change shown" in a CI run)."""
    d = tmp_path_factory.mktemp("demo")
    for i, w in enumerate(["small", "imix", "large"]):
        engine(d / "runs", w, "--workload", w, "--breaths", 3000, "--rate", "all",
               "--seed", i + 1, "--cpu", CPUS[i % 2])
    for i in range(4):
        engine(d / "ab/normal", "imix", "--workload", "imix", "--breaths", 1500, "--seed", 7 + i,
               "--rate", "all", "--cpu", CPUS[0])
        engine(d / "ab/slow", "imix", "--workload", "imix", "--breaths", 1500, "--seed", 7 + i,
               "--rate", "all", "--cpu", CPUS[0], "--slow", "lookup=400")
    return d
