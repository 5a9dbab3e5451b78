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

The rewrites of small values (half of the probabilities of a logistic model can be below 1e-4)
are done on the bytes with numpy (:func:`_small`), the texts as rows of a byte matrix: regular
expressions cost more than the cast itself.

The layout rules are pyarrow's (``FloatToStringFormatter``: decimal_in_shortest_low -6, high
10); tests/cli/test_float_text.py compares the result with ``repr`` on millions of doubles of
every magnitude, so a pyarrow that lays them out otherwise fails there, not silently.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from scorecard.trainer.data.arrow_values import booleans, numbers, text as text_scalar, texts, to_numpy

SPACE, DOT, MINUS, ZERO = (ord(c) for c in " .-0")
POINT_ZERO, EMPTY = text_scalar(".0"), text_scalar("")


def float_text(values: np.ndarray) -> pa.Array:
    """``repr(float(v))`` of every value (a float64 array), as a pyarrow string array."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    text = pc.cast(numbers(values), pa.string())
    size = np.abs(values)
    finite = np.isfinite(values)
    with np.errstate(invalid="ignore"):  # floor of a NaN
        integral = finite & (size < 1e10) & (np.floor(values) == values)
    if integral.any():
        text = _replace(text, integral, lambda t: pc.binary_join_element_wise(t, POINT_ZERO, EMPTY))
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
    return pc.replace_with_mask(text, booleans(mask), rewrite(text.take(numbers(rows.astype(np.int64)))))


def _small(text: pa.Array) -> pa.Array:
    """pyarrow's text of 0 < |v| < 1e-4 in ``repr``'s scientific notation: ``[-]0.0000ddd``
    (1e-5 <= |v|) becomes ``[-]d.dde-05`` (``de-05`` for one digit), ``[-]0.00000ddd``
    ``[-]d.dde-06``; ``d.dde-7`` becomes ``d.dde-07``; two- and three-digit exponents stay.

    Done on the bytes as a matrix, one text a row padded with spaces (pyarrow's ``rpad``): the
    fixed ones fall in four groups (sign, leading zeros), each moved by whole columns; the
    exponents' bytes are put in place; the padding is trimmed (pyarrow's ``rtrim``)."""
    n = len(text)
    lengths = to_numpy(pc.binary_length(text)).astype(np.int64)
    width = int(lengths.max())
    padded = pc.utf8_rpad(text, width, " ")
    start = int(np.frombuffer(padded.buffers()[1], dtype=np.int32)[padded.offset])  # width bytes each, back to back
    cells = np.frombuffer(padded.buffers()[2], dtype=np.uint8)[start:start + n * width].reshape(n, width)
    out = np.full((n, width + 1), SPACE, dtype=np.uint8)
    out[:, :width] = cells
    rows = np.arange(n)
    sign = (cells[:, 0] == MINUS).astype(np.int64)
    fixed = cells[rows, sign] == ZERO  # 0.0000ddd; a scientific one never starts with 0
    six = fixed & (cells[rows, np.minimum(sign + 6, width - 1)] == ZERO)  # 0.00000ddd: e-06
    first = sign + 6 + six  # the column of a fixed one's first digit
    for minus in (0, 1):
        for column in (6 + minus, 7 + minus):
            group = np.flatnonzero(fixed & (sign == minus) & (first == column))
            if len(group):  # [-] d . rest, then the padding
                out[group, minus] = cells[group, column]
                out[group, minus + 1] = DOT
                out[group, minus + 2:minus + 1 + width - column] = cells[group, column + 1:]
                out[group, minus + 1 + width - column:] = SPACE
    digits = lengths - first
    mantissa = sign + 1 + np.where(digits > 1, digits, 0)  # [-]d or [-]d.ddd: the exponent goes after
    flat = out.reshape(-1)  # byte k of text i at i * (width + 1) + k
    f = np.flatnonzero(fixed)
    at = f * (width + 1) + mantissa[f]
    for j, byte in enumerate(b"e-0"):
        flat[at + j] = byte
    flat[at + 3] = np.where(six[f], ord("6"), ord("5"))
    short = np.flatnonzero(~fixed & (cells[rows, lengths - 2] == MINUS))  # e-N with one digit N: e-0N
    at = short * (width + 1) + lengths[short] - 1
    flat[at + 1] = flat[at]
    flat[at] = ZERO
    offsets = np.arange(0, (n + 1) * (width + 1), width + 1, dtype=np.int32)
    return pc.utf8_rtrim(pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(out)), " ")


def _by_repr(text: pa.Array, values: np.ndarray, mask: np.ndarray) -> pa.Array:
    """``text`` with the rows of ``mask`` written by ``repr``."""
    rows = np.flatnonzero(mask)
    return pc.replace_with_mask(text, booleans(mask), texts([repr(v) for v in values[rows].tolist()]))

