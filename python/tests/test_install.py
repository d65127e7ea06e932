"""test_install.py: `make install PREFIX=DIR` puts the package where it
says and its page, timeline-python(3), in DIR's man3; from there, with
the PYTHONPATH it names and nothing of the tree, the package loads the
installed library and runs the installed program; `make uninstall`
removes both."""
import os
import re
import subprocess
import sys

from conftest import SNABB, SRC


def test_make_install_places_the_package_and_says_where(tmp_path):
    prefix = tmp_path / "prefix"
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "TIMELINE_LIB", "TIMELINE_BIN",
                        "PYTHONPATH")}
    make_vars = os.environ.get("TIMELINE_MAKE_VARS", "").split()
    out = subprocess.run(["make", "-s", "install", "PREFIX=%s" % prefix,
                          "PYTHON=%s" % sys.executable] + make_vars, cwd=SRC, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert out.returncode == 0 and out.stderr == b"", out.stderr
    said = re.search(r"install: the Python package timeline is in (\S+): not on \S+ path; "
                     r"use PYTHONPATH=(\S+)\n", out.stdout.decode())
    assert said and said.group(1) == said.group(2)
    site = said.group(1)
    assert site.startswith(str(prefix) + "/lib/python3")
    assert os.path.isfile(os.path.join(site, "timeline", "_read.py"))
    page = prefix / "share/man/man3/timeline-python.3"   # timeline-python(3), beside timeline(3)
    assert page.read_bytes() == open(os.path.join(SRC, "man/timeline-python.3"), "rb").read()
    code = ("import timeline, sys; print(timeline.library_path()); print(timeline.program_path());"
            "print(timeline.read(sys.argv[1]).groupby('event', observed=True).size()"
            "['engine.breath_start']); print(len(timeline.stats(sys.argv[1])))")
    run = subprocess.run([sys.executable, "-c", code, SNABB], cwd=str(tmp_path),
                         env=dict(env, PYTHONPATH=site), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    assert run.returncode == 0, run.stderr
    lib, prog, n, rows = run.stdout.decode().split("\n")[:4]
    assert lib == "%s/lib/libtimeline.so.0" % prefix and prog == "%s/bin/timeline" % prefix
    assert int(n) == 840 and int(rows) > 5
    subprocess.run(["make", "-s", "uninstall", "PREFIX=%s" % prefix,
                    "PYTHON=%s" % sys.executable] + make_vars, cwd=SRC, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    assert not os.path.exists(os.path.join(site, "timeline"))
    assert not page.exists()
