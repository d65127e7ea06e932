"""test_manpage.py: timeline-python(3)'s SYNOPSIS names what the package
exports, no more and no less, each function with its keywords and
defaults exactly as Python states its signature, each class with its
base."""
import inspect
import os
import re

import timeline
from conftest import SRC

PAGE = os.path.join(SRC, "man", "timeline-python.3")


def synopsis():
    """The SYNOPSIS of the page as plain text, one space between words:
    roff requests, font changes and the escapes it uses taken out."""
    text = open(PAGE, encoding="utf-8").read()
    part = text.split("\n.SH SYNOPSIS\n", 1)[1].split("\n.SH ", 1)[0]
    lines = [re.sub(r"^\.(B|BR|BI)\s+", "", ln) for ln in part.split("\n")
             if not re.match(r"^\.(nf|fi|PP)$", ln)]
    plain = re.sub(r"\\f[BIRP]", "", " ".join(lines))
    for esc, ch in (("\\(aq", "'"), ("\\(dq", '"'), ("\\-", "-"), ("\\e", "\\")):
        plain = plain.replace(esc, ch)
    return re.sub(r"\s+", " ", plain).replace("( ", "(")


def stated(name):
    """How the SYNOPSIS must state the public NAME."""
    obj = getattr(timeline, name)
    if isinstance(obj, type):
        return "class timeline.%s(%s)" % (name, obj.__bases__[0].__name__)
    return "timeline.%s%s" % (name, inspect.signature(obj))


def test_the_synopsis_states_every_public_name_with_its_signature():
    s = synopsis()
    missing = [stated(n) for n in timeline.__all__ if stated(n) not in s]
    assert missing == []
    assert "import timeline" in s and "timeline.__version__" in s


def test_the_synopsis_names_nothing_the_package_does_not_export():
    named = set(re.findall(r"timeline\.(\w+)", synopsis()))
    assert named == set(timeline.__all__) | {"__version__"}


def test_the_name_section_lists_the_page_the_functions_and_the_exception():
    text = open(PAGE, encoding="utf-8").read()
    name = text.split("\n.SH NAME\n", 1)[1].split("\n.SH ", 1)[0].replace("\n", " ")
    assert name.split(" \\- ")[0].split(", ") == ["timeline-python"] + [
        "timeline." + n for n in ("read", "events", "pairs", "stats", "diff", "spans",
                                  "TimelineError")]
