"""One CSV reader for every command (runtime.table.csv_records), issue 12 items 11, 12, 16:
cells of any size, the real byte offset of a non-UTF-8 byte, the same refusals everywhere."""
from __future__ import annotations

import io
import subprocess
import sys

import pytest
from scorecard.exporters.python import render
from scorecard.exporters.verify import read_rows
from scorecard.runtime import Input, Model, RowError, Target, Term
from scorecard.runtime.__main__ import main as runtime_main
from scorecard.runtime.table import csv_records, score_csv

MODEL = Model("linear", Target("y", 1), (Input("a", "numeric"),), (Term("a", "linear", None, 2, "a"),), -5)
LONG = "x" * 200_000  # over the csv module's default limit of 131,072 characters
WITH_LONG_CELL = f"a,note\n3,{LONG}\n1,short\n"
EXPECTED = f"a,note,score,prediction\n3,{LONG},6,1\n1,short,2,0\n"  # threshold 5


def test_the_runtime_reads_a_cell_of_any_size():
    out = io.StringIO()
    score_csv(MODEL, io.StringIO(WITH_LONG_CELL), out)
    assert out.getvalue() == EXPECTED


def test_the_runtime_command_reads_a_cell_of_any_size(tmp_path, capsys):
    from scorecard.runtime import dump

    dump(MODEL, str(tmp_path / "m.json"))
    (tmp_path / "d.csv").write_text(WITH_LONG_CELL)
    assert runtime_main([str(tmp_path / "m.json"), str(tmp_path / "d.csv")]) == 0
    assert capsys.readouterr().out == EXPECTED


def test_the_exported_python_reads_a_cell_of_any_size(tmp_path):
    (tmp_path / "score.py").write_text(render(MODEL))
    (tmp_path / "d.csv").write_text(WITH_LONG_CELL)
    done = subprocess.run([sys.executable, "score.py", "d.csv"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == EXPECTED


def test_the_exported_python_refuses_a_semicolon_file_as_the_runtime_does(tmp_path, capsys):
    from scorecard.runtime import dump

    (tmp_path / "score.py").write_text(render(MODEL))
    (tmp_path / "d.csv").write_text("a;note\n1,5;x\n")
    done = subprocess.run([sys.executable, "score.py", "d.csv"], cwd=tmp_path, capture_output=True, text=True)
    dump(MODEL, str(tmp_path / "m.json"))
    assert runtime_main([str(tmp_path / "m.json"), str(tmp_path / "d.csv")]) == 2
    message = capsys.readouterr().err.replace(str(tmp_path / "d.csv"), "d.csv")
    assert done.returncode == 2 and done.stderr == message
    assert message == ("error: d.csv: the header is one column, 'a;note': the file seems separated by semicolons; "
                       "scorecard reads comma-separated files (save it as CSV with commas between cells and points "
                       "in numbers)\n")


def test_verify_reads_a_cell_of_any_size(tmp_path):
    (tmp_path / "d.csv").write_text(WITH_LONG_CELL)
    assert read_rows(str(tmp_path / "d.csv"))[0]["note"] == LONG


@pytest.mark.parametrize("text, message", [
    ("a,a\n1,2\n", "column 'a' appears twice in the header"),
    ("a,b\n1,2\n3\n", "line 3 has 1 cells, the header has 2"),
    ("", "the file is empty"),
    ("a;b\n1,5;2\n", "the header is one column, 'a;b': the file seems separated by semicolons"),
    ("a|b|c\n1|2|3\n", "the file seems separated by vertical bars"),
])
def test_verify_refuses_what_predict_refuses(tmp_path, text, message):
    """verify --data accepted duplicate headers (last wins) and ragged rows."""
    path = tmp_path / "d.csv"
    path.write_text(text)
    with pytest.raises(RowError, match=message):
        read_rows(str(path))
    with pytest.raises(RowError, match=message):
        header, records = csv_records(io.StringIO(text), "d.csv")
        list(records)


@pytest.mark.parametrize("text", ["a\n1\n", "a;\n1\n", "; a\n1\n", "\"a\t \"\n1\n"])
def test_a_file_of_one_column_is_read(text):
    """One column is refused only when its name splits into several names ("a;b"): a single
    word, or a name with a separator but one word, stays a name."""
    header, records = csv_records(io.StringIO(text), "d.csv")
    assert len(header) == 1 and [cells for _, cells in records] == [["1"]]


def test_a_bad_byte_far_into_the_file_is_reported_at_its_offset(tmp_path):
    """The offset was the one inside the decoder's chunk (6171 reported, 14363 actual)."""
    head = "a,note\n" + "".join(f"{k},é{k}\n" for k in range(3000))
    data = head.encode() + b"7,\xff\n"
    path = tmp_path / "d.csv"
    path.write_bytes(data)
    with open(path, newline="", encoding="utf-8-sig") as fh:
        with pytest.raises(RowError) as err:
            score_csv(MODEL, fh, io.StringIO(), source=str(path))
    offset = data.index(b"\xff")
    assert offset > 8192  # past the first chunk a text file decodes
    assert str(err.value) == f"{path}: not UTF-8 text (invalid start byte at byte {offset})"


# ---------------------------------------------------------------- issue 12 item 8: one grammar


def test_numeric_cells_read_by_the_one_grammar_of_the_contract():
    """Every tricky cell reads as the contract's grammar says: ASCII decimal only (no other
    base, no underscore, no non-ASCII digit, no BOM), Python's whitespace stripped, the
    nearest double for huge integers, infinities and NaN refused."""
    from numbers_table import READ, REFUSED
    from scorecard.runtime import RowError
    from scorecard.runtime.model import Input
    from scorecard.runtime.score import coerce, is_missing

    inp = Input("a", "numeric")
    got = {}
    for cell in READ:
        if is_missing(cell):
            got[cell] = None
            continue
        try:
            got[cell] = coerce(inp, cell)
        except RowError:
            got[cell] = REFUSED
    assert got == READ
    assert all(type(got[c]) is int for c in ("5", "9007199254740992", "1e3", "-0"))
    assert got["9007199254740993"] == 2**53 and type(got["123456789012345678901234567890"]) is float
