"""_pairs.py: the pairs the logs declare (timeline-events(5)), one row per
distinct declaration: what `timeline info` lists under pairs, and what
stats, diff, report and top count each pair in."""
import ctypes

import pandas as pd

from . import _lib
from ._read import _close, _open_all, is_declaration

COLUMNS = ["pair", "begin", "end", "by", "unit", "units", "breath"]


def _parse(text):
    """The tl_pair of TEXT, or None when it does not parse."""
    p, err = _lib.Pair(), _lib.Error()
    if _lib.lib().tl_pair_parse(text, len(text), ctypes.byref(p), ctypes.byref(err)) != _lib.TL_OK:
        return None
    return p


def _row(p):
    """The frame's row of the declaration P."""
    d = lambda b: bytes(b).split(b"\0", 1)[0].decode("utf-8", "replace")
    units = [d(p.units[i]) for i in range(p.nunits)]
    return {"pair": d(p.label), "begin": d(p.begin), "end": d(p.end), "by": d(p.by),
            "unit": units[0] if units else None, "units": " ".join(units),
            "breath": bool(p.breath)}


def declarations(paths, policy):
    """The pairs frame: one row per distinct declaration in the logs'
    string tables, by pair label."""
    items = _open_all(paths)
    rows, seen = [], set()
    try:
        L = _lib.lib()
        for lg in items:
            if isinstance(lg, str):
                policy.problem(lg)
                continue
            n = L.tl_reader_definitions(lg.r, None, 0)
            ids = (ctypes.c_uint16 * max(n, 1))()
            n = min(n, L.tl_reader_definitions(lg.r, ids, n))
            for i in ids[:n]:
                if not is_declaration(lg, i):
                    continue
                p = _parse(L.tl_reader_string(lg.r, i))
                row = p and _row(p)
                if row and tuple(row.values()) not in seen:
                    seen.add(tuple(row.values()))
                    rows.append(row)
    finally:
        _close(items)
    df = pd.DataFrame(rows, columns=COLUMNS)
    df = df.sort_values(["pair", "begin"], kind="stable").reset_index(drop=True)
    return df.astype({"breath": bool})
