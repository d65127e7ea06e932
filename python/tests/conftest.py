"""conftest.py: what the Python suite reads: the built program and demo
engine (make check's environment, else the tree's), the Snabb fixture,
and logs of the demo engine made once per run."""
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
