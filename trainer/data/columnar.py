"""Reading CSV and Parquet files in columns with pyarrow: the one reader of train, cv, predict
and ``verify --data``.

Two entry points with one boundary: :func:`text_batches` yields the file in record batches
of bounded size (``predict`` streams them; a streaming trainer can too) and :func:`read_table`
returns the whole file as a :class:`ColumnTable` (train and cv type it column by column in
``prepare.py``). Neither makes a Python object per cell.

A CSV file is read as the standard library's ``csv`` module reads it (runtime/table.py): every
cell as text, a quoted cell may hold commas and line breaks, blank lines are skipped, a UTF-8
byte order mark is dropped. The header is read by the runtime's own reader, so its checks and
messages are the runtime's. Whatever pyarrow refuses (a ragged row, bytes that are not UTF-8,
a row beyond the block size) is read again by the runtime's reader, which either raises its
own one-line error naming file, line and value, or, for a file it reads well, is what the
command uses: the file is never refused for a reason the contract does not name.

Rows are named in messages as the runtime names them: a CSV row by the line it starts on
(found by reading the file again up to that row, only when a message needs it), a Parquet
row by its number (first data row = row 1).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Iterator

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv
from scorecard.runtime.errors import DataError, RowError
from scorecard.runtime.table import csv_records, open_csv

from .cells import as_text
from .workbook import Sheet, is_workbook, read_sheet

PARQUET_SUFFIXES = (".parquet", ".pq")
#: Bytes of CSV pyarrow parses at once: a batch of ``predict`` and the largest row it reads
#: itself (a longer row is read by the runtime's reader).
BLOCK_SIZE = 1 << 24
#: Rows of a Parquet batch of ``predict``.
PARQUET_BATCH_ROWS = 1 << 18


class ArrowRefused(Exception):
    """pyarrow could not read the file as the runtime reads it; the runtime's reader decides."""


@dataclass(frozen=True)
class ColumnTable:
    """A whole data file in columns, as read: CSV cells as text ("" for an empty cell, blank
    cells as written), Parquet columns in their own types (null where missing).

    ``locate(k)`` names the row at position ``k`` (0-based) in a message: ``line N`` for a
    CSV file, ``row N`` for Parquet.
    """

    path: str
    data: dict[str, pa.ChunkedArray]
    rows: int
    locate: Callable[[int], str]

    @property
    def columns(self) -> list[str]:
        """The column names in file order (as ``DataFrame.columns`` reads)."""
        return list(self.data)


def release_memory() -> None:
    """Give back to the system the memory pyarrow's allocator keeps after a table is dropped
    (it holds freed pages for reuse: about a gigabyte after a 10^7-row CSV file)."""
    pa.default_memory_pool().release_unused()


def is_parquet(path: str) -> bool:
    return path.lower().endswith(PARQUET_SUFFIXES)


def check_file(path: str) -> None:
    """Refuse a path that is not a readable data file (DataError, naming it)."""
    if not os.path.exists(path):
        raise DataError(f"{path}: no such file")
    if os.path.isdir(path):
        raise DataError(f"{path}: is a folder, not a data file")
    if path.lower().endswith(".xls"):
        raise DataError(f"{path}: an Excel 97-2003 workbook (.xls), which scorecard does not read; save it in Excel "
                        "as an Excel Workbook (.xlsx) or as CSV")


# ---------------------------------------------------------------------------- CSV


def csv_header(path: str, source: str, added: tuple[str, ...] = ()) -> list[str]:
    """The header as the runtime reads it (RowError for an empty file, a duplicate name, a
    clash with ``added``, bytes that are not UTF-8)."""
    with open_csv(path) as fh:
        header, _ = csv_records(fh, source, added)
    return header


def csv_line(path: str, k: int) -> int:
    """The line of the file on which data row ``k`` (0-based) starts, as the runtime counts."""
    with open_csv(path) as fh:
        _, records = csv_records(fh, path)
        for n, (line, _) in enumerate(records):
            if n == k:
                return line
    raise IndexError(k)


def _csv_options(header: list[str], block_size: int):
    read = pa_csv.ReadOptions(block_size=block_size, use_threads=True)
    parse = pa_csv.ParseOptions(newlines_in_values=True, ignore_empty_lines=True)
    convert = pa_csv.ConvertOptions(column_types={name: pa.string() for name in header}, null_values=[],
                                    strings_can_be_null=False, quoted_strings_can_be_null=False)
    return read, parse, convert


def _arrow_csv_batches(path: str, header: list[str], offset: int | None = None) -> Iterator[pa.RecordBatch]:
    """The file's rows as batches of text columns; ArrowRefused when pyarrow cannot read it
    as the runtime would (an error of its own, or a header it reads differently). ``offset``:
    read the rows from that byte on (a row boundary after the header; trainer/data/csv_lines.py)."""
    try:
        if offset is None:
            reader = pa_csv.open_csv(path, *_csv_options(header, BLOCK_SIZE))
            if reader.schema.names != header:
                raise ArrowRefused("header")
        else:
            source = pa.OSFile(path)
            source.seek(offset)
            read, parse, convert = _csv_options(header, BLOCK_SIZE)
            read.column_names = header
            reader = pa_csv.open_csv(source, read, parse, convert)
        for batch in reader:
            if batch.num_rows:
                yield batch
    except (pa.ArrowException, OSError) as exc:
        raise ArrowRefused(str(exc)) from None


def _runtime_csv_batches(path: str, source: str, added: tuple[str, ...]) -> Iterator[pa.RecordBatch]:
    """The same batches from the runtime's reader (its errors and messages), for a file
    pyarrow refused: one batch of at most 65,536 rows at a time, and the rows read before an
    error ahead of it."""
    with open_csv(path) as fh:
        header, records = csv_records(fh, source, added)
        rows: list[list[str]] = []
        try:
            for _, cells in records:
                rows.append(cells)
                if len(rows) == 1 << 16:
                    yield _batch(header, rows)
                    rows = []
        except RowError:
            if rows:  # the rows before the error first, as the runtime gives them
                yield _batch(header, rows)
            raise
        if rows:
            yield _batch(header, rows)


def _batch(header: list[str], rows: list[list[str]]) -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays([pa.array([r[j] for r in rows], pa.string()) for j in range(len(header))],
                                      names=header)


# ---------------------------------------------------------------------------- Parquet


def _parquet_file(path: str, source: str, error=DataError):
    try:
        import pyarrow.parquet as pq

        return pq.ParquetFile(path)
    except Exception as exc:  # pyarrow raises several unrelated types for a bad file
        raise error(f"{source}: not a readable Parquet file ({exc})") from None


def check_header(header: list[str], path: str, unnamed_first: bool = False) -> None:
    """Refuse a header with a nameless or repeated column (DataError naming the file); with
    ``unnamed_first``, the first column may have no name (R's ``write.csv`` and pandas'
    ``to_csv`` write row names there: ``prepare`` leaves it out when it holds row numbers)."""
    seen: set[str] = set()
    for k, name in enumerate(header):
        if name.strip() == "" and not (k == 0 and unnamed_first):
            raise DataError(f"{path}: column {k + 1} of the header has no name")
        if name in seen:
            raise DataError(f"{path}: column {name!r} appears twice in the header")
        seen.add(name)


def text_column(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """A Parquet column as the text a CSV would hold ("" where missing): strings as they are,
    every other type through :func:`as_text`, once per distinct value."""
    if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
        return column.fill_null("").cast(pa.string())
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    try:  # each distinct value once
        encoded = pc.dictionary_encode(column)
    except pa.ArrowNotImplementedError:  # a type pyarrow cannot encode (lists, structs): cell by cell
        return pa.array([as_text(v) or "" for v in column.to_pylist()], pa.string())
    texts = pa.array([as_text(v) or "" for v in encoded.dictionary.to_pylist()], pa.string())
    return texts.take(encoded.indices).fill_null("")


# ---------------------------------------------------------------------------- the two readers


def text_batches(path: str, source: str, added: tuple[str, ...] = ()
                 ) -> tuple[list[str], Iterator[pa.RecordBatch], Callable[[int], str]]:
    """(header, batches, locate) of ``path`` with every cell as text, as ``predict`` and
    ``verify --data`` read it: a CSV file's cells as written, a Parquet file's values as the
    text a CSV would hold. ``locate(k)`` names data row ``k`` (0-based) in a message. Errors
    are RowError naming ``source`` (the runtime's)."""
    check_file(path)
    if is_workbook(path):
        sheet, columns = _workbook(path, source, RowError)
        _check_names(sheet.header, source, added)
        return sheet.header, iter([pa.RecordBatch.from_arrays(columns, names=sheet.header)]), sheet.locate
    if is_parquet(path):
        pf = _parquet_file(path, source, RowError)
        header = pf.schema_arrow.names
        check_header(header, path)
        _check_names(header, source, added)
        if pf.metadata.num_rows == 0:
            raise DataError(f"{path}: the file has no data rows")

        def parquet() -> Iterator[pa.RecordBatch]:
            for batch in pf.iter_batches(batch_size=PARQUET_BATCH_ROWS):
                yield pa.RecordBatch.from_arrays([text_column(c) for c in batch.columns], names=header)

        return header, parquet(), lambda k: f"row {k + 1}"
    header = csv_header(path, source, added)
    return header, with_runtime_reader(_arrow_csv_batches(path, header), path, source, added), \
        lambda k: f"line {csv_line(path, k)}"


def with_runtime_reader(batches: Iterator, path: str, source: str, added: tuple[str, ...]) -> Iterator:
    """``batches`` (anything with ``num_rows``) until pyarrow refuses the file (ArrowRefused),
    then the rest of the file from the runtime's reader (record batches), which raises its own
    error where the file is not what the contract reads."""
    done = 0
    try:
        for batch in batches:
            yield batch
            done += batch.num_rows
    except ArrowRefused:
        yield from runtime_batches_after(path, source, added, done)


def runtime_batches_after(path: str, source: str, added: tuple[str, ...], done: int) -> Iterator[pa.RecordBatch]:
    """The file's rows after its first ``done`` from the runtime's reader (its errors and
    messages): where a reader continues once pyarrow refused the rest of the file."""
    for batch in _runtime_csv_batches(path, source, added):
        if done:  # the rows already given: skip them
            cut = min(done, batch.num_rows)
            done -= cut
            batch = batch.slice(cut)
        if batch.num_rows:
            yield batch


def _workbook(path: str, source: str, error: type[Exception], unnamed_first: bool = False
              ) -> tuple[Sheet, list[pa.Array]]:
    """The first sheet of a workbook and its columns as text, refusing a bad header and a sheet
    without data rows, as a CSV file is refused."""
    sheet = read_sheet(path, source, error)
    check_header(sheet.header, path, unnamed_first)
    if not sheet.rows:
        raise DataError(f"{path}: the first sheet has a header but no data rows")
    return sheet, [pa.array(c, pa.string()) for c in sheet.columns]


def _check_names(header: list[str], source: str, added: tuple[str, ...]) -> None:
    """Refuse a column named like one scoring adds (the runtime's message)."""
    for name in header:
        if name in added:
            raise RowError(f"{source}: the data already has a column {name!r}; rename it before scoring")


def read_table(path: str) -> ColumnTable:
    """The whole file in columns (see :class:`ColumnTable`), for train and cv. Refuses a
    missing file, a folder, an empty file, a file without data rows and a bad header with a
    one-line DataError naming the file."""
    check_file(path)
    if is_workbook(path):
        sheet, columns = _workbook(path, path, DataError, unnamed_first=True)
        return ColumnTable(path, {name: pa.chunked_array([c]) for name, c in zip(sheet.header, columns)},
                           len(sheet.rows), sheet.locate)
    if is_parquet(path):
        pf = _parquet_file(path, path)
        table = pf.read()
        check_header(table.column_names, path)
        if table.num_rows == 0:
            raise DataError(f"{path}: the file has no data rows")
        return ColumnTable(path, {name: table.column(k) for k, name in enumerate(table.column_names)},
                           table.num_rows, lambda k: f"row {k + 1}")
    try:
        header = csv_header(path, path)
    except RowError as exc:
        raise DataError(str(exc)) from None
    check_header(header, path, unnamed_first=True)
    try:
        table = pa_csv.read_csv(path, *_csv_options(header, BLOCK_SIZE))
        if table.column_names != header:
            raise ArrowRefused("header")
        data = {name: table.column(k) for k, name in enumerate(header)}
        rows = table.num_rows
    except (pa.ArrowException, OSError, ArrowRefused):
        try:
            batches = list(_runtime_csv_batches(path, path, ()))
        except RowError as exc:
            raise DataError(str(exc)) from None
        data = {name: pa.chunked_array([b.column(k) for b in batches], pa.string()) for k, name in enumerate(header)}
        rows = sum(b.num_rows for b in batches)
    if rows == 0:
        raise DataError(f"{path}: the file has a header but no data rows")
    return ColumnTable(path, data, rows, lambda k: f"line {csv_line(path, k)}")
