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
are done on the bytes with numpy (:func:`_small`): each new text is a few pieces of the old one
and of constant text, gathered at once; regular expressions cost twice the cast itself.

The layout rules are pyarrow's (``FloatToStringFormatter``: decimal_in_shortest_low -6, high
10); tests/cli/test_float_text.py compares the result with ``repr`` on millions of doubles of
every magnitude, so a pyarrow that lays them out otherwise fails there, not silently.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

#: Bytes inserted into the small values' text, as (values, pieces) slots: the dot after
#: the first digit, the exponent ``e-0N`` (a fixed one), or the ``0`` of a one-digit exponent.
DOT, MINUS, ZERO = ord("."), ord("-"), ord("0")


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
    """pyarrow's text of 0 < |v| < 1e-4 in ``repr``'s scientific notation: ``[-]0.0000ddd``
    (1e-5 <= |v|) becomes ``[-]d.dde-05`` (``de-05`` for one digit), ``[-]0.00000ddd``
    ``[-]d.dde-06``; ``d.dde-7`` becomes ``d.dde-07``; two- and three-digit exponents stay.
    Done on the bytes: the fixed ones lose their ``0.0000`` (a mask), then every new byte is
    put in its place at once (positions are in value order, so no sorting)."""
    offsets, data = _buffers(text)
    start, end = offsets[:-1], offsets[1:]
    sign = (data[start] == MINUS).astype(np.int64)
    fixed = data[start + sign] == ZERO  # 0.0000ddd; a scientific one never starts with 0
    six = fixed & (data[np.minimum(start + sign + 6, end - 1)] == ZERO)  # 0.00000ddd: e-06
    cut = np.where(fixed, 6 + six, 0)  # the leading "0.0000" (or "0.00000") removed
    keep = np.ones(len(data), dtype=bool)
    keep[_ranges(start + sign, cut)] = False
    removed = np.cumsum(cut)  # bytes removed up to the end of each value
    first = start + sign + cut - removed  # the first digit of a fixed one, in the kept bytes
    # Five slots a value (position in the kept bytes, byte): ".", "e", "-", "0", "5"/"6" of a
    # fixed one (the dot only with more than one digit), "0" before a one-digit exponent's digit.
    end_kept = end - removed
    dot = fixed & (end_kept - first > 1)
    short = ~fixed & (data[end - 2] == MINUS)
    positions = np.stack([first + 1, end_kept, end_kept, end_kept, np.where(fixed, end_kept, end_kept - 1)], 1)
    values = np.stack([np.full(len(start), DOT), np.full(len(start), ord("e")), np.full(len(start), MINUS),
                       np.full(len(start), ZERO), np.where(six, ord("6"), np.where(fixed, ord("5"), ZERO))], 1)
    used = np.stack([dot, fixed, fixed, fixed, fixed | short], 1)
    added = used.sum(1)
    out = _insert(data[keep], positions[used], values[used].astype(np.uint8))
    lengths = end - start - cut + added
    new_offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    return pa.StringArray.from_buffers(len(start), pa.py_buffer(new_offsets), pa.py_buffer(out))


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The positions ``starts[k] + j`` for j < ``lengths[k]``, for every k."""
    ends = np.cumsum(lengths)
    return np.repeat(starts - (ends - lengths), lengths) + np.arange(ends[-1] if len(ends) else 0)


def _insert(data: np.ndarray, positions: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``data`` with ``values[k]`` put before ``data[positions[k]]`` (positions ascending, ties
    in the order given): ``np.insert`` without its sort."""
    out = np.empty(len(data) + len(values), dtype=np.uint8)
    placed = positions + np.arange(len(positions))
    out[placed] = values
    rest = np.ones(len(out), dtype=bool)
    rest[placed] = False
    out[rest] = data
    return out


def _buffers(text: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, bytes) of a string array without nulls, the offsets into the bytes (int64)."""
    offsets = np.frombuffer(text.buffers()[1], dtype=np.int32)[text.offset:text.offset + len(text) + 1].astype(np.int64)
    data = text.buffers()[2]
    data = np.zeros(0, np.uint8) if data is None else np.frombuffer(data, dtype=np.uint8)
    return offsets - offsets[0], data[offsets[0]:offsets[-1]]


def _by_repr(text: pa.Array, values: np.ndarray, mask: np.ndarray) -> pa.Array:
    """``text`` with the rows of ``mask`` written by ``repr``."""
    rows = np.flatnonzero(mask)
    return pc.replace_with_mask(text, pa.array(mask), pa.array([repr(v) for v in values[rows].tolist()], pa.string()))

