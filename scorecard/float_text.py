"""``repr(float)`` of many doubles at once, for ``scorecard predict`` (scorecard/vectorised.py).

The runtime writes a float score or probability as ``repr(value)`` (runtime.score.format_number):
the shortest digits that read back to the same double, in fixed notation for decimal
exponents -4..15 (``0.0001``, ``100.0``) and in scientific notation otherwise (``1e-05``,
``1.5e+16``). orjson writes a numpy array of doubles as JSON with Ryu's shortest digits (about
20 ns a value, a fifth of pyarrow's cast to text), without a Python object per value, and lays
them out as ``repr`` does except in two ranges, rewritten here:

- 1e-5 <= |v| < 1e-4: orjson's ``[-]0.0000ddd`` becomes ``[-]d.dde-05``;
- 1e-9 <= |v| < 1e-5: orjson's one-digit exponent (``1.5e-7``) becomes two (``1.5e-07``);
- a NaN or an infinity (JSON's ``null``) is written by ``repr`` itself.

The JSON array's elements are cut at its commas into one pyarrow string array over orjson's
bytes. tests/cli/test_float_text.py compares the result with ``repr`` on hundreds of thousands
of doubles of every magnitude, so an orjson that lays them out otherwise fails there, not silently.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import orjson
import pyarrow as pa
import pyarrow.compute as pc
from scorecard.trainer.data.arrow_values import booleans, numbers, text as text_scalar, texts

EMPTY, MINUS, E05 = (text_scalar(c) for c in ("", "-", "e-05"))


def float_text(values: np.ndarray) -> pa.Array:
    """``repr(float(v))`` of every value (a float64 array), as a pyarrow string array."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    text = _json_elements(orjson.dumps(values, option=orjson.OPT_SERIALIZE_NUMPY), len(values))
    size = np.abs(values)
    return _rewritten(text, [
        ((size < 1e-4) & (size >= 1e-5), lambda t, rows: _scientific_e05(t, values[rows])),
        ((size < 1e-5) & (size >= 1e-9), lambda t, rows: pc.binary_replace_slice(t, -1, -1, "0")),  # e-7: e-07
        (~np.isfinite(values), lambda t, rows: texts([repr(v) for v in values[rows].tolist()])),
    ])


def _json_elements(json: bytes, n: int) -> pa.Array:
    """The ``n`` elements of a JSON array of numbers (no strings, no nesting) as a string array:
    each element with the comma or bracket after it (one array over the bytes, no copy), then
    that last byte cut off."""
    if not n:
        return texts([])
    ends = np.empty(n + 1, dtype=np.int32)
    ends[0] = 1  # after the opening bracket
    ends[1:n] = np.flatnonzero(np.frombuffer(json, dtype=np.uint8) == ord(",")) + 1
    ends[n] = len(json)
    cells = pa.Array.from_buffers(pa.binary(), n, [None, pa.py_buffer(ends), pa.py_buffer(json)])
    return pc.binary_slice(cells, 0, -1).view(pa.string())


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


def _scientific_e05(text: pa.Array, values: np.ndarray) -> pa.Array:
    """orjson's ``[-]0.0000ddd`` (1e-5 <= |v| < 1e-4) in ``repr``'s scientific notation:
    ``[-]d.dde-05`` (``de-05`` for one digit)."""
    digits = pc.utf8_ltrim(text, "-0.")  # the significant digits: the first is not 0
    mantissa = pc.replace_substring(pc.binary_join_element_wise(pc.binary_replace_slice(digits, 1, 1, "."), E05, EMPTY),
                                    ".e", "e", max_replacements=1)
    negative = values < 0
    if not negative.any():
        return mantissa
    return pc.binary_join_element_wise(pc.if_else(booleans(negative), MINUS, EMPTY), mantissa, EMPTY)
