"""trainer/data/csv_lines.py reads a model's numeric columns straight to float64 only where
that gives the runtime's numbers: every cell pyarrow accepts there is one the runtime reads
as the same number (or as missing), and a block holding any other cell is read as text."""
from __future__ import annotations

import itertools

import pyarrow as pa
import pytest
from scorecard.runtime import Input
from scorecard.runtime.errors import RowError
from scorecard.runtime.score import EXACT, coerce
from scorecard.trainer.data import csv_lines

NUMBER = Input("a", "numeric")


def runtime(cell: str):
    """The runtime's reading of a cell: a number, None (missing) or 'refused'."""
    try:
        return coerce(NUMBER, cell, EXACT)
    except RowError:
        return "refused"


def parsed(cells: list[str]) -> pa.RecordBatch:
    """The block of ``cells`` (one a line) as the line path reads column a (a number)."""
    return csv_lines._parse(("\n" + "\n".join(f"{c},x" for c in cells)).encode(), ["a", "b"], ["a"], frozenset({"a"})).batch


def test_every_short_cell_read_as_a_float_is_the_runtimes_number():
    """Every string of up to 4 characters over digits, dot, exponent, signs, space and tab:
    read alone, a float64 value equals the runtime's number, a null is the runtime's missing."""
    as_floats = 0
    for size in range(1, 5):
        for chars in itertools.product("01.eE+- \t", repeat=size):
            cell = "".join(chars)
            batch = parsed([cell])
            if batch.column("a").type != pa.float64():
                continue
            as_floats += 1
            value, expected = batch.column("a")[0].as_py(), runtime(cell)
            assert expected != "refused", cell
            assert value == expected or (value is None and expected is None), cell
    assert as_floats > 500


@pytest.mark.parametrize("cell", ["inf", "-inf", "nan", "NaN", "Infinity", "1e999", "\x0b1", "\xa01", "1_0", "0x10", "x"])
def test_a_block_with_any_other_cell_is_read_as_text(cell):
    """Non-finite values, whitespace pyarrow does not trim, words: the block's column is text
    (its cells as written), for the runtime's reading and message."""
    batch = parsed(["1.5", cell, "2"])
    assert batch.column("a").type == pa.string() and batch.column("a").to_pylist() == ["1.5", cell, "2"]


def test_padded_and_empty_cells_read_as_floats():
    batch = parsed(["1.5", " 2 ", "", "\t-3e2", "+.5"])
    assert batch.column("a").type == pa.float64()
    assert batch.column("a").to_pylist() == [1.5, 2.0, None, -300.0, 0.5]
