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
- 1e-6 <= |v| < 1e-4: pyarrow's ``[-]0.0000ddd`` becomes ``[-]d.dde-05`` (``e-06``);
- 1e-9 <= |v| < 1e-6: pyarrow's ``1.5e-7`` becomes ``1.5e-07`` (smaller ones have two or
  three exponent digits in both);
- 1e10 <= |v| < 1e16 is written by ``repr`` itself, value by value (scores that large are rare).

Each rewrite is a few of pyarrow's string kernels over the rows that need it (taken out, then
put back with ``replace_with_mask``), not a regular expression (which costs more than the cast
itself) nor bytes moved in numpy: most of a logistic model's probabilities below 1e-4 are below
1e-9 and need none.

The layout rules are pyarrow's (``FloatToStringFormatter``: decimal_in_shortest_low -6, high
10); tests/cli/test_float_text.py compares the result with ``repr`` on millions of doubles of
every magnitude, so a pyarrow that lays them out otherwise fails there, not silently.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from scorecard.trainer.data.arrow_values import booleans, numbers, text as text_scalar, texts

POINT_ZERO, EMPTY, MINUS = (text_scalar(c) for c in (".0", "", "-"))
E05, E06 = text_scalar("e-05"), text_scalar("e-06")


def float_text(values: np.ndarray) -> pa.Array:
    """``repr(float(v))`` of every value (a float64 array), as a pyarrow string array."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    text = pc.cast(numbers(values), pa.string())
    size = np.abs(values)
    finite = np.isfinite(values)
    with np.errstate(invalid="ignore"):  # floor of a NaN
        integral = finite & (size < 1e10) & (np.floor(values) == values)
    small = (size < 1e-4) & (size >= 1e-6)
    return _rewritten(text, [
        (integral, lambda t, rows: pc.binary_join_element_wise(t, POINT_ZERO, EMPTY)),
        (small, lambda t, rows: _fixed_small(t, values[rows])),
        ((size < 1e-6) & (size >= 1e-9), lambda t, rows: pc.binary_replace_slice(t, -1, -1, "0")),  # e-7: e-07
        (finite & (size >= 1e10) & (size < 1e16), lambda t, rows: texts([repr(v) for v in values[rows].tolist()])),
    ])


def _rewritten(text: pa.Array, groups: list[tuple[np.ndarray, Callable]]) -> pa.Array:
    """``text`` with the rows of each group's mask (disjoint) rewritten by its function (of those
    rows' text and positions). The rewritten rows are put in place by one ``take`` from the
    texts end to end (a third of the instructions of ``replace_with_mask``, by valgrind)."""
    parts, index = [text], None
    for mask, rewrite in groups:
        rows = np.flatnonzero(mask)
        if not len(rows):
            continue
        if index is None:
            index = np.arange(len(text), dtype=np.int64)
        index[rows] = sum(len(p) for p in parts) + np.arange(len(rows))
        parts.append(rewrite(text.take(numbers(rows)), rows))
    return text if index is None else pa.concat_arrays(parts).take(numbers(index))


def _fixed_small(text: pa.Array, values: np.ndarray) -> pa.Array:
    """pyarrow's ``[-]0.0000ddd`` (1e-5 <= |v| < 1e-4; ``0.00000ddd`` below) in ``repr``'s
    scientific notation: ``[-]d.dde-05`` (``de-05`` for one digit; ``e-06``)."""
    digits = pc.utf8_ltrim(text, "-0.")  # the significant digits: the first is not 0
    mantissa = pc.replace_substring(pc.binary_join_element_wise(pc.binary_replace_slice(digits, 1, 1, "."),
                                                                 pc.if_else(booleans(np.abs(values) < 1e-5), E06, E05),
                                                                 EMPTY), ".e", "e", max_replacements=1)
    negative = values < 0
    if not negative.any():
        return mantissa
    return pc.binary_join_element_wise(pc.if_else(booleans(negative), MINUS, EMPTY), mantissa, EMPTY)
