"""pyarrow arrays and scalars made from numpy buffers, and numpy arrays read from pyarrow
buffers, for ``scorecard predict``'s columns (scorecard/vectorised.py, trainer/vectorised.py).

pyarrow imports pandas the first time it converts a Python object (``pa.array``, ``pa.scalar``,
a ``str`` or ``float`` given to a compute function, ``Array.to_numpy``): 0.5 CPU seconds, and
seconds of wall time on a busy machine, that scoring a CSV file does not need. These helpers
build the same values from buffers, so the command never converts a Python object per batch
(tests/cli/test_vectorised.py checks that predict leaves pandas unimported).
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa

#: The numpy type of each pyarrow number type read here.
NUMPY = {pa.float64(): np.float64, pa.int64(): np.int64, pa.int32(): np.int32}
ARROW = {np.dtype(np.float64): pa.float64(), np.dtype(np.int64): pa.int64()}


def booleans(mask: np.ndarray) -> pa.BooleanArray:
    """A numpy bool array as a pyarrow one (bits, least significant first)."""
    bits = np.packbits(np.asarray(mask, dtype=bool), bitorder="little")
    return pa.Array.from_buffers(pa.bool_(), len(mask), [None, pa.py_buffer(bits)])


def numbers(values: np.ndarray) -> pa.Array:
    """A float64 or int64 numpy array as a pyarrow one (the same bytes)."""
    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(ARROW[values.dtype], len(values), [None, pa.py_buffer(values)])


def texts(values: list[str]) -> pa.StringArray:
    """A list of str as a pyarrow string array (for a few values: constants, a set to look in)."""
    encoded = [v.encode("utf-8") for v in values]
    offsets = np.cumsum([0] + [len(e) for e in encoded], dtype=np.int64).astype(np.int32)
    return pa.StringArray.from_buffers(len(values), pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded)))


def text(value: str) -> pa.StringScalar:
    """A str as a pyarrow scalar, for compute functions' arguments."""
    return texts([value])[0]


FALSE = booleans(np.zeros(1, dtype=bool))[0]


def to_numpy(array: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """The values of a pyarrow bool or number array without nulls as a numpy array."""
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if array.null_count:
        raise ValueError("to_numpy: the array has nulls")
    n, offset = len(array), array.offset
    if array.type == pa.bool_():
        bits = np.frombuffer(array.buffers()[1], dtype=np.uint8)
        return np.unpackbits(bits, count=offset + n, bitorder="little")[offset:].view(bool)
    return np.frombuffer(array.buffers()[1], dtype=NUMPY[array.type])[offset:offset + n]
