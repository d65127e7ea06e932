"""_errors.py: what a bad input raises or warns, and the policy that
chooses (errors='raise', 'warn' or 'ignore'), one line naming the file as
libtimeline and timeline(1) say it."""
import os
import sys
import warnings

_PKG = os.path.dirname(os.path.abspath(__file__))


def _caller_level():
    """The stacklevel of warnings.warn() that names the caller's line, the
    first frame outside this package."""
    f, level = sys._getframe(1), 1
    while f is not None and os.path.dirname(os.path.abspath(f.f_code.co_filename)) == _PKG:
        f, level = f.f_back, level + 1
    return level


class TimelineError(Exception):
    """A log, summary or option that cannot be read: the message is the
    library's (or timeline(1)'s) one line, "PATH: problem"."""


class TimelineWarning(UserWarning):
    """errors='warn': the same line, and the other paths are still read."""


class Policy:
    """What to do with a problem: raise it, warn and go on, or go on."""

    def __init__(self, errors):
        if errors not in ("raise", "warn", "ignore"):
            raise ValueError("errors must be 'raise', 'warn' or 'ignore', not %r" % (errors,))
        self.errors = errors
        self.problems = []   # every line, in order

    def problem(self, msg):
        """Reports MSG; returns only when the policy goes on."""
        self.problems.append(msg)
        if self.errors == "raise":
            raise TimelineError(msg)
        if self.errors == "warn":
            warnings.warn(msg, TimelineWarning, stacklevel=_caller_level())

    def note(self, msg):
        """Says MSG, which is no problem (entries skipped as incomplete),
        as a TimelineWarning unless errors='ignore'."""
        if self.errors != "ignore":
            warnings.warn(msg, TimelineWarning, stacklevel=_caller_level())
