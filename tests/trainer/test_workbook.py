"""Excel workbooks: every command reads the first sheet as it reads the same sheet saved as CSV;
a sheet it cannot read so is refused in one line naming the cell."""
from __future__ import annotations

import csv
import datetime
import json

import numpy as np
import openpyxl
import pytest
from scorecard.runtime.errors import DataError
from scorecard.trainer.data.columnar import read_table, text_batches
from scorecard.trainer.data.prepare import prepare

HEADER = ["age", "sex", "smoker", "visit", "bmi", "y"]
ROWS = [
    [61, "m", True, datetime.datetime(2024, 3, 1), 31.5, 1],
    [45, "f", False, datetime.datetime(2024, 3, 2, 9, 30), None, 0],
    [None, "f", False, datetime.date(2024, 3, 5), 22.25, 0],
    [70.0, "m", True, datetime.datetime(2024, 3, 9), 27.0, 1],
]
#: The same rows as a CSV file of the sheet holds them (Excel's "Save as CSV" less its locale).
AS_CSV = [["61", "m", "true", "2024-03-01", "31.5", "1"], ["45", "f", "false", "2024-03-02 09:30:00", "", "0"],
          ["", "f", "false", "2024-03-05", "22.25", "0"], ["70", "m", "true", "2024-03-09", "27", "1"]]


def workbook(path, rows=ROWS, header=HEADER, sheets=("data",), blank_row=True):
    book = openpyxl.Workbook()
    first = book.active
    first.title = sheets[0]
    for name in sheets[1:]:
        book.create_sheet(name).append(["not", "this"])
    first.append(header)
    for k, row in enumerate(rows):
        first.append(row)
        if blank_row and k == 1:
            first.append([None] * len(header))  # a blank row: skipped, as a blank CSV line
    book.save(path)
    return str(path)


def test_the_first_sheet_reads_as_its_csv_would(tmp_path):
    book = workbook(tmp_path / "d.xlsx", sheets=("data", "codebook"))
    table = read_table(book)
    assert table.columns == HEADER and table.rows == 4
    assert [[table.data[name][k].as_py() for name in HEADER] for k in range(4)] == AS_CSV
    assert table.locate(2) == "row 5"  # the sheet's own row number (the blank row 4 skipped)
    header, batches, locate = text_batches(book, book)
    assert header == HEADER and [row for b in batches for row in zip(*(c.to_pylist() for c in b.columns))] == \
        [tuple(r) for r in AS_CSV]
    # typed as the CSV of the same rows is
    path = tmp_path / "d.csv"
    with open(path, "w", newline="") as fh:
        csv.writer(fh).writerows([HEADER, *AS_CSV])
    a, b = prepare(table, "y", source=book), prepare(read_table(str(path)), "y", source=str(path))
    assert a.inputs == b.inputs and np.array_equal(a.y, b.y) and a.frame.equals(b.frame) and a.notes == b.notes


@pytest.mark.parametrize("edit, message", [
    (lambda ws: ws.cell(row=3, column=5, value="=A3*2"),
     "d.xlsx: cell E3 holds the formula '=A3*2' but not its value (the workbook was not saved by Excel)"),
    (lambda ws: ws.cell(row=2, column=8, value="note"),
     "d.xlsx: row 2 holds a value in column H, right of the header's last name ('y' in column F)"),
    (lambda ws: ws.delete_rows(1, ws.max_row), "d.xlsx: the first sheet is empty (no header row)"),
    (lambda ws: ws.delete_rows(2, ws.max_row), "d.xlsx: the first sheet has a header but no data rows"),
])
def test_a_sheet_read_otherwise_than_its_csv_is_refused_naming_the_cell(tmp_path, edit, message):
    path = tmp_path / "d.xlsx"
    book = openpyxl.load_workbook(workbook(path, blank_row=False))
    edit(book.active)
    book.save(path)
    with pytest.raises(DataError) as err:
        read_table(str(path))
    assert str(err.value).endswith(message) or message in str(err.value)


def test_a_file_that_is_no_workbook_and_an_old_xls_workbook_are_refused(tmp_path):
    path = tmp_path / "d.xlsx"
    path.write_text("age,y\n1,0\n")
    with pytest.raises(DataError, match=r"d.xlsx: not a readable Excel workbook \(BadZipFile"):
        read_table(str(path))
    old = tmp_path / "d.xls"
    old.write_bytes(b"\xd0\xcf\x11\xe0")  # the start of a compound file, as Excel 97-2003 writes
    for read in (read_table, lambda p: text_batches(p, p)):
        with pytest.raises(DataError, match=r"d.xls: an Excel 97-2003 workbook \(.xls\), which scorecard does not "
                                            r"read; save it in Excel as an Excel Workbook \(.xlsx\) or as CSV"):
            read(str(old))


def test_train_predict_and_report_read_a_workbook_as_its_csv(cli, tmp_path):
    rng = np.random.default_rng(3)
    glu = rng.integers(70, 200, 80)
    rows = [[int(g), ["f", "m"][k % 2], "yes" if g >= 140 else "no"] for k, g in enumerate(glu)]
    header = ["glu", "sex", "diabetes"]
    book = workbook(tmp_path / "d.xlsx", rows=rows, header=header, blank_row=False)
    path = tmp_path / "d.csv"
    with open(path, "w", newline="") as fh:
        csv.writer(fh).writerows([header, *rows])
    models = []
    for data in (book, path):
        out = tmp_path / f"{'xlsx' if data == book else 'csv'}.json"
        run = cli("train", data, "--target", "diabetes", "--positive", "yes", "--c0", "0.01", "--work-limit", "1",
                  "-o", out)
        assert run.code == 0, run.err
        models.append(json.loads(out.read_text()))
    assert models[0]["terms"] == models[1]["terms"] and models[0]["golden"] == models[1]["golden"]
    scored = [tmp_path / "x.csv", tmp_path / "c.csv"]
    for data, out in zip((book, path), scored):
        assert cli("predict", tmp_path / "csv.json", data, "-o", out).code == 0
    assert scored[0].read_text() == scored[1].read_text()
    page = tmp_path / "report.html"
    run = cli("report", tmp_path / "xlsx.json", "--data", book, "-o", page)
    assert run.code == 0, run.err
    assert "d.xlsx (80 rows)" in page.read_text(encoding="utf-8")
