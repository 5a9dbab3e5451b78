"""``repr(float)`` of many doubles at once, for ``scorecard predict`` (scorecard/vectorised.py).

The runtime writes a float score or probability as ``repr(value)`` (runtime.score.format_number):
the shortest digits that read back to the same double, in fixed notation for decimal
exponents -4..15 (``0.0001``, ``100.0``) and in scientific notation otherwise (``1e-05``,
``1.5e+16``). pyarrow's cast to text (double-conversion's ``ToShortest``) gives the same
shortest digits, without a Python object per value, but lays them out differently: fixed
notation for decimal exponents -6..9, no ``.0`` after an integral value, one-digit exponents
(``1e-7``). This module casts with pyarrow and rewrites its layout into ``repr``'s:

- 1e-4 <= |v| < 1e10 (and 0): both fixed; an integral value gets ``.0``;
- |v| >= 1e16: both scientific with the same exponent (``e+16``);
- 1e-6 <= |v| < 1e-4: pyarrow's ``0.0000ddd`` becomes ``d.dde-05`` (``e-06``);
- |v| < 1e-6: pyarrow's ``1.5e-7`` becomes ``1.5e-07``;
- 1e10 <= |v| < 1e16 is written by ``repr`` itself, value by value (scores that large are rare).

The layout rules are pyarrow's (``FloatToStringFormatter``: decimal_in_shortest_low -6, high
10); tests/cli/test_float_text.py compares the result with ``repr`` on millions of doubles of
every magnitude, so a pyarrow that lays them out otherwise fails there, not silently.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

#: pyarrow's fixed notation of 1e-6 <= |v| < 1e-4 -> ``repr``'s scientific one (``.e`` fixed after).
SMALL_FIXED = ((r"^(-?)0\.00000([1-9])([0-9]*)$", r"\1\2.\3e-06"),
               (r"^(-?)0\.0000([1-9])([0-9]*)$", r"\1\2.\3e-05"))


def float_text(values: np.ndarray) -> pa.Array:
    """``repr(float(v))`` of every value (a float64 array), as a pyarrow string array."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    text = pc.cast(pa.array(values), pa.string())
    size = np.abs(values)
    finite = np.isfinite(values)
    with np.errstate(invalid="ignore"):  # floor of a NaN
        integral = finite & (size < 1e10) & (np.floor(values) == values)
    if integral.any():
        text = _replace(text, integral, lambda t: pc.binary_join_element_wise(t, ".0", ""))
    small = finite & (size < 1e-4) & (values != 0)
    if small.any():
        text = _replace(text, small, _small)
    middle = finite & (size >= 1e10) & (size < 1e16)
    if middle.any():
        text = _by_repr(text, values, middle)
    return text


def _replace(text: pa.Array, mask: np.ndarray, rewrite) -> pa.Array:
    """``text`` with the rows of ``mask`` rewritten (``rewrite`` of those rows, in order)."""
    rows = np.flatnonzero(mask)
    return pc.replace_with_mask(text, pa.array(mask), rewrite(text.take(pa.array(rows))))


def _small(text: pa.Array) -> pa.Array:
    """pyarrow's text of 0 < |v| < 1e-4 in ``repr``'s scientific notation."""
    for pattern, replacement in SMALL_FIXED:
        text = pc.replace_substring_regex(text, pattern, replacement)
    text = pc.replace_substring(text, ".e", "e")
    return pc.replace_substring_regex(text, r"e-([0-9])$", r"e-0\1")


def _by_repr(text: pa.Array, values: np.ndarray, mask: np.ndarray) -> pa.Array:
    """``text`` with the rows of ``mask`` written by ``repr``."""
    rows = np.flatnonzero(mask)
    return pc.replace_with_mask(text, pa.array(mask), pa.array([repr(v) for v in values[rows].tolist()], pa.string()))

