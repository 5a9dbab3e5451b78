"""trainer/data/arrow_values.py: values made from buffers equal pyarrow's own conversions."""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from scorecard.trainer.data.arrow_values import FALSE, booleans, numbers, text, texts, to_numpy


def test_round_trips_through_buffers():
    rng = np.random.default_rng(3)
    mask = rng.random(1001) < 0.5
    assert booleans(mask).equals(pa.array(mask))
    for start in (0, 1, 7, 8, 9, 500):  # bit offsets inside a byte and beyond
        assert (to_numpy(booleans(mask).slice(start)) == mask[start:]).all()
        assert (to_numpy(pc.invert(booleans(mask)).slice(start, 100)) == ~mask[start:start + 100]).all()
    values = rng.normal(size=1001)
    assert numbers(values).equals(pa.array(values))
    assert (to_numpy(numbers(values).slice(3)) == values[3:]).all()
    assert numbers(np.arange(5)).equals(pa.array(np.arange(5), pa.int64()))
    assert to_numpy(pa.chunked_array([pa.array([1.0]), pa.array([2.0])])).tolist() == [1.0, 2.0]


def test_text_and_scalars_equal_pyarrows():
    words = ["", "a,b", "é ü 中", '"', "x" * 300]
    assert texts(words).equals(pa.array(words, pa.string()))
    assert text("é").equals(pa.scalar("é"))
    assert FALSE.equals(pa.scalar(False))


def test_nulls_are_not_read_as_numbers():
    with pytest.raises(ValueError):
        to_numpy(pa.array([1.0, None]))
