"""_lib.py: libtimeline through ctypes: finding the shared library, the
structs of timeline.h the package reads (tl_error, tl_info, tl_def, and
tl_entry as a numpy dtype), and the functions it calls (the event
switches and rules of formats 1.2 and 1.3 among them)."""
import ctypes
import os

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
_TREE = os.path.dirname(os.path.dirname(_HERE))   # python/timeline -> the source tree

try:   # written by `make install`: where the library and the program went
    from . import _config
except ImportError:   # in the tree
    _config = None


def _candidates(name, tree_path, env):
    if os.environ.get(env):
        yield os.environ[env]
    if _config is not None:
        yield getattr(_config, name)
    yield tree_path


def _find(name, tree_path, env, fallback):
    for p in _candidates(name, tree_path, env):
        if p and os.path.exists(p):
            return p
    return fallback


def library_path():
    """The libtimeline.so the package loads: $TIMELINE_LIB, else the one
    `make install` put beside this package's prefix, else the tree's
    lib/libtimeline.so.0, else the loader's search (libtimeline.so.0)."""
    return _find("LIBRARY", os.path.join(_TREE, "lib", "libtimeline.so.0"), "TIMELINE_LIB",
                 "libtimeline.so.0")


def program_path():
    """The timeline program stats() and diff() run: $TIMELINE_BIN, else the
    one installed with this package, else the tree's ./timeline, else
    `timeline` on PATH."""
    return _find("PROGRAM", os.path.join(_TREE, "timeline"), "TIMELINE_BIN", "timeline")


TL_MAX_ARGS = 6
TL_FORMAT_NATIVE = 1
TL_FORMAT_SNABB = 2
TL_OK = 0
TL_E_FORMAT = -6
TL_RULES_BYTES_PER_LOG = 512   # the rules area (format 1.3)

# struct tl_entry (timeline.h), 80 bytes: what tl_reader_read() fills
ENTRY = np.dtype({
    "names": ["seq", "tsc", "msgid", "cpu", "numa", "aux", "dargs", "thread", "args"],
    "formats": ["<u8", "<u8", "<u2", "<u2", "<u2", "<u2", "u1", "<u4", ("<u8", (TL_MAX_ARGS,))],
    "offsets": [0, 8, 16, 18, 20, 22, 24, 28, 32],
    "itemsize": 80,
}, align=True)   # an aligned struct: numpy copies its fields by the fast loops


class Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("sys_errno", ctypes.c_int), ("msg", ctypes.c_char * 512)]


class Info(ctypes.Structure):
    _fields_ = [("format", ctypes.c_int), ("major", ctypes.c_uint), ("minor", ctypes.c_uint)] + \
        [(f, ctypes.c_uint64) for f in ("entries", "cursor", "used", "strings_bytes",
                                        "strings_used", "tsc_hz", "anchor_tsc",
                                        "anchor_realtime_ns", "anchor_monotonic_ns", "breaths")] + \
        [("rate", ctypes.c_uint), ("rate_fixed", ctypes.c_int), ("clock", ctypes.c_int),
         ("cpu_features", ctypes.c_uint32), ("pid", ctypes.c_uint32),
         ("start_ticks", ctypes.c_uint64), ("copy_of", ctypes.c_uint64),
         ("process", ctypes.c_char * 64), ("host", ctypes.c_char * 128),
         ("name", ctypes.c_char * 64), ("path", ctypes.c_char * 1024),
         ("disorder", ctypes.c_uint64), ("compressed", ctypes.c_int),
         # the event switches (format 1.2): off now, changes made, recorded
         ("switched_off", ctypes.c_uint), ("switch_gen", ctypes.c_uint32),
         ("switch_seen", ctypes.c_uint32),
         # threads (format 1.4): those that wrote, those refused a lane
         ("threads", ctypes.c_uint32), ("threads_refused", ctypes.c_uint32),
         # the flight recorder (format 1.5): TL_RECORDER_*
         ("armed", ctypes.c_int)]


class Arming(ctypes.Structure):
    """struct tl_arming (timeline.h): the flight recorder and its trigger."""
    _fields_ = [("state", ctypes.c_int), ("mode", ctypes.c_int), ("what", ctypes.c_char * 64),
                ("threshold", ctypes.c_uint64), ("keep", ctypes.c_uint64),
                ("rate", ctypes.c_uint), ("gen", ctypes.c_uint32),
                ("kind", ctypes.c_int), ("thread", ctypes.c_uint32),
                ("begin_id", ctypes.c_uint16), ("end_id", ctypes.c_uint16),
                ("cycles", ctypes.c_uint64), ("threshold_at", ctypes.c_uint64),
                ("begin_seq", ctypes.c_uint64), ("end_seq", ctypes.c_uint64),
                ("end_tsc", ctypes.c_uint64), ("wall_ns", ctypes.c_int64),
                ("stop_at", ctypes.c_uint64)]


class Thread(ctypes.Structure):
    """struct tl_thread (timeline.h)."""
    _fields_ = [("tid", ctypes.c_uint32), ("name", ctypes.c_char * 16),
                ("written", ctypes.c_uint64), ("oldest", ctypes.c_uint64),
                ("lost", ctypes.c_uint64), ("skipped", ctypes.c_uint64)]


class Def(ctypes.Structure):
    _fields_ = [("level", ctypes.c_uint), ("rate", ctypes.c_uint),
                ("name", ctypes.c_char_p), ("name_len", ctypes.c_size_t),
                ("attrs", ctypes.c_char_p), ("attrs_len", ctypes.c_size_t),
                ("nargs", ctypes.c_uint), ("args", ctypes.c_char_p * TL_MAX_ARGS),
                ("args_len", ctypes.c_size_t * TL_MAX_ARGS),
                ("descr", ctypes.c_char_p), ("descr_len", ctypes.c_size_t),
                ("line", ctypes.c_uint), ("known", ctypes.c_int), ("user", ctypes.c_void_p)]


class Pair(ctypes.Structure):
    """tl_pair: a pair declaration (timeline-events(5))."""
    _fields_ = [("label", ctypes.c_char * 128), ("begin", ctypes.c_char * 128),
                ("end", ctypes.c_char * 128), ("by", ctypes.c_char * 64),
                ("nunits", ctypes.c_uint), ("units", (ctypes.c_char * 64) * TL_MAX_ARGS),
                ("line", ctypes.c_uint), ("breath", ctypes.c_int)]


_lib = None


def lib():
    """The loaded library, its functions typed (loaded at the first call)."""
    global _lib
    if _lib is not None:
        return _lib
    L = ctypes.CDLL(library_path())
    P, U64, SZ = ctypes.c_void_p, ctypes.c_uint64, ctypes.c_size_t
    for name, res, args in [
        ("tl_probe", ctypes.c_int, [ctypes.c_int]),
        ("tl_reader_open_fd", P, [ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(Error)]),
        ("tl_reader_info", None, [P, ctypes.POINTER(Info)]),
        ("tl_reader_rewind", U64, [P]),
        ("tl_reader_read", SZ, [P, P, SZ]),
        ("tl_reader_newest", ctypes.c_int, [P, P]),
        ("tl_reader_skipped", U64, [P]),
        ("tl_reader_threads", ctypes.c_uint, [P]),
        ("tl_reader_thread", ctypes.c_int, [P, ctypes.c_uint, ctypes.POINTER(Thread)]),
        ("tl_reader_def", ctypes.POINTER(Def), [P, ctypes.c_uint16]),
        ("tl_reader_definitions", SZ, [P, ctypes.POINTER(ctypes.c_uint16), SZ]),
        ("tl_reader_switched_off", ctypes.c_int, [P, ctypes.c_uint16]),
        ("tl_reader_rules", ctypes.c_int, [P, ctypes.c_char_p, ctypes.POINTER(SZ),
                                           ctypes.POINTER(Error)]),
        ("tl_reader_arming", ctypes.c_int, [P, ctypes.POINTER(Arming)]),
        ("tl_reader_close", None, [P]),
        ("tl_reader_string", ctypes.c_char_p, [P, ctypes.c_uint16]),
        ("tl_pair_parse", ctypes.c_int, [ctypes.c_char_p, SZ, ctypes.POINTER(Pair),
                                         ctypes.POINTER(Error)]),
    ]:
        f = getattr(L, name)
        f.restype, f.argtypes = res, args
    _lib = L
    return L
