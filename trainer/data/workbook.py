"""Excel workbooks (.xlsx, .xlsm): the first sheet's cells as the text a CSV file of it would hold.

Clinicians and analysts keep their data in Excel; saving it as CSV by hand costs time, and in a
locale with decimal commas gives a semicolon-separated file. ``read_table`` (train, cv) and
``text_batches`` (predict, verify --data, report, monitor) read a workbook here, so every command
reads it as it reads the same data saved as CSV: the first row of the first sheet is the header;
each cell below it becomes text (a number as its shortest digits, whole numbers without a
point, a boolean true/false, a date as YYYY-MM-DD, a date and time in ISO form); an empty cell
is missing; a row of empty cells is skipped, as a blank line of a CSV file. Refused with one
line naming the file and the cell: a value right of the header's last name, and a formula whose
value the file does not hold (a workbook a program wrote and Excel never saved), which would
read as missing. Reads with openpyxl (a dependency for this alone).
"""
from __future__ import annotations

import datetime
from dataclasses import dataclass

from scorecard.runtime.errors import DataError

from .cells import as_text

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")


def is_workbook(path: str) -> bool:
    return path.lower().endswith(WORKBOOK_SUFFIXES)


@dataclass(frozen=True)
class Sheet:
    """The sheet read: its header, its columns as text ("" where a cell is empty) and the
    sheet's row number of each data row (for messages: ``row 15``)."""

    header: list[str]
    columns: list[list[str]]
    rows: list[int]

    def locate(self, k: int) -> str:
        return f"row {self.rows[k]}"


def cell_text(value: object) -> str:
    """A cell's value as the text a CSV file of the sheet holds ("" for an empty cell)."""
    if isinstance(value, datetime.datetime):
        return value.date().isoformat() if value.time() == datetime.time() else value.isoformat(sep=" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return as_text(value) or ""


def read_sheet(path: str, source: str, error: type[Exception] = DataError) -> Sheet:
    """The first sheet of the workbook at ``path`` (see the module docstring); ``error`` is the
    type of the one-line refusal, naming ``source``."""
    book = _open(path, source, error, data_only=True)
    try:
        cells = book.worksheets[0].iter_rows(values_only=True)
        first = next(cells, None)
        if first is None or all(cell_text(v) == "" for v in first):
            raise error(f"{source}: the first sheet is empty (no header row)")
        width = max(k for k, v in enumerate(first) if cell_text(v) != "") + 1
        header = [cell_text(v) for v in first[:width]]
        columns: list[list[str]] = [[] for _ in header]
        rows: list[int] = []
        empty = False
        for number, values in enumerate(cells, start=2):
            texts = [cell_text(v) for v in values]
            beyond = next((k for k in range(width, len(texts)) if texts[k] != ""), None)
            if beyond is not None:
                raise error(f"{source}: row {number} holds a value in column {_letters(beyond)}, right of the "
                            f"header's last name ({header[-1]!r} in column {_letters(width - 1)})")
            texts = (texts + [""] * width)[:width]
            if all(t == "" for t in texts):
                continue
            empty = empty or "" in texts
            for column, text in zip(columns, texts):
                column.append(text)
            rows.append(number)
    finally:
        book.close()
    if empty:
        _refuse_unsaved_formulas(path, source, error, rows, columns)
    return Sheet(header, columns, rows)


def _open(path: str, source: str, error: type[Exception], data_only: bool):
    try:
        import openpyxl
    except ImportError:
        raise error(f"{source}: reading an Excel workbook needs openpyxl (pip install openpyxl), or save the "
                    "sheet as CSV") from None
    try:
        return openpyxl.load_workbook(path, read_only=True, data_only=data_only)
    except Exception as exc:  # openpyxl and zipfile raise many unrelated types for a bad file
        raise error(f"{source}: not a readable Excel workbook ({type(exc).__name__}: {exc})") from None


def _refuse_unsaved_formulas(path: str, source: str, error: type[Exception], rows: list[int],
                             columns: list[list[str]]) -> None:
    """Refuse an empty cell that holds a formula: its value is not in the file (Excel saves
    each formula's last value beside it; a workbook written by a program may not)."""
    where = {number: k for k, number in enumerate(rows)}
    book = _open(path, source, error, data_only=False)
    try:
        for number, values in enumerate(book.worksheets[0].iter_rows(values_only=True), start=1):
            k = where.get(number)
            if k is None:
                continue
            for j, (value, column) in enumerate(zip(values, columns)):
                if column[k] == "" and isinstance(value, str) and value.startswith("="):
                    raise error(f"{source}: cell {_letters(j)}{number} holds the formula {value!r} but not its value "
                                "(the workbook was not saved by Excel): open and save it in Excel, or save the sheet "
                                "as CSV")
    finally:
        book.close()


def _letters(k: int) -> str:
    """Excel's name of column ``k`` (0-based): A, B, ..., Z, AA, ..."""
    name = ""
    k += 1
    while k:
        k, r = divmod(k - 1, 26)
        name = chr(ord("A") + r) + name
    return name
