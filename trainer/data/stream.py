"""Training data too large to hold: read in row groups, typed by one scan of every row.

``scorecard train`` reads a file into memory (``prepare.read_table``, in columns: about
:data:`CELL_BYTES` bytes a cell for the whole training). Above the memory budget
(``--memory-limit``, default a sixteenth of the RAM), and for a folder of Parquet/CSV files, it
reads the data here instead, one row group at a time, never holding the file:

1. :func:`scan` passes over every row once: the numeric/categorical decision, binary columns,
   missing counts, the levels of text columns and the target's classes are those of *all*
   rows, by the rules of ``prepare`` (only an empty or blank cell is missing; a column is
   numeric when every present value is a number; the same one-line errors, naming the file,
   the row and the value). The same pass keeps a systematic sample of about
   :data:`SAMPLE_ROWS` rows, prepared as ``prepare`` prepares a file: it gives the cut-off
   quantiles of the design (``families.design_for``) and the model file's golden rows.
2. :meth:`Streamed.design_batches` then turns each row group into the design's columns and
   +-1 labels, which the trainers consume block by block (``trainer/stream.py``).

The row groups are pyarrow record batches, typed column by column with pyarrow compute (no
Python object per cell but a categorical column's): from pyarrow (Parquet ``iter_batches``,
CSV ``open_csv`` with every column as text) or, under ``--dask``, the partitions of a
dask.dataframe on the workers (:func:`scan_batch` and :meth:`Streamed.typed` are what they run).
A CSV file's text is parsed once: the scan keeps its row groups as read, numbers as float64,
in a temporary file (:class:`~.spill.Spill`) that the later passes read instead of the text.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Iterator

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from scorecard.runtime import Input
from scorecard.runtime.errors import DataError
from scorecard.runtime.score import WHITESPACE
from scorecard.runtime.table import csv_reader, open_csv

from .columnar import PARQUET_SUFFIXES, check_header
from .cells import as_text as _as_text
from .design import Design
from .prepare import LARGEST, LabeledData, _code_target, _levels, _number, _text, arrow_numbers, prepare
from .spill import Spill

CSV_SUFFIXES = (".csv",)
#: Rows of the design sample (cut-off quantiles, golden rows, the risk table of a non-logistic loss).
SAMPLE_ROWS = 100_000
#: Rows per row group read (Parquet).
BATCH_ROWS = 1 << 20
#: Bytes of CSV text per row group read.
CSV_BLOCK_BYTES = 1 << 24
#: Bytes one cell of DATA costs when ``train`` holds it in memory (the columnar reader,
#: ``data/columnar.py``, then the typed frame, the design and the oracle): measured as the peak
#: RSS of ``scorecard train`` (logistic, ``--numeric linear``, ``--memory-limit 1T``) on 2*10^6
#: rows x 6 columns less that of the imports: 649 MB from Parquet, 656 MB from CSV, less 117 MB,
#: about 46 a cell; 48 (the text-per-cell reader before it took about 190).
CELL_BYTES = 48
#: Distinct text values a categorical column may hold: each level is a condition of the design.
MAX_LEVELS = 10_000


def _cells(column: pa.Array) -> list[str | None]:
    """Every cell of a text column, ``None`` when missing (empty, blank or null), as ``prepare``
    reads a cell (one Python object per cell: only where pyarrow cannot read the column)."""
    return [c if c is not None and c.strip() else None for c in column.to_pylist()]


def _parse_numbers(cells: list[str | None]) -> tuple[np.ndarray | None, int | None]:
    """Float values (NaN where missing), or None and the position of the first non-number
    (``prepare``'s reading of a cell: ``_number``)."""
    present = [k for k, c in enumerate(cells) if c is not None]
    out = np.full(len(cells), np.nan)
    try:
        out[present] = np.array([cells[k] for k in present], dtype=float)
        return out, None
    except ValueError:
        pass
    for k in present:
        value = _number(cells[k].strip())
        if value is None:
            return None, k
        out[k] = value
    return out, None


def physical_memory() -> int:
    """The machine's RAM in bytes."""
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def memory_budget(limit: int | None) -> int:
    """``--memory-limit`` in bytes, or a sixteenth of the RAM when it is not given.

    A sixteenth, not more: streaming costs nothing in time where its design columns fit the
    budget (``fits``), and holds the peak near 0.7 GB whatever the size. Measured on the
    10^7-row Parquet file of ``benchmarks/scale.py --cli`` (logistic, ``--numeric linear``,
    2026-11-27, load 4-5): in memory 18.5 s wall, 2.5 GB peak RSS, cutting planes 2.4 s; streamed
    (``--memory-limit 1500M``) 7.0 s, 0.73 GB, 1.8 s. A quarter of 24 GB kept that file in memory."""
    return limit if limit is not None else physical_memory() // 16


@dataclass(frozen=True)
class Files:
    """The data files of DATA: the file itself, or the Parquet and CSV files of a folder (by name)."""

    paths: tuple[str, ...]
    source: str

    @classmethod
    def of(cls, path: str) -> "Files":
        if not os.path.exists(path):
            raise DataError(f"{path}: no such file")
        if os.path.isdir(path):
            names = sorted(n for n in os.listdir(path) if n.lower().endswith(PARQUET_SUFFIXES + CSV_SUFFIXES))
            if not names:
                raise DataError(f"{path}: the folder holds no .parquet, .pq or .csv file")
            return cls(tuple(os.path.join(path, n) for n in names), path)
        return cls((path,), path)

    @property
    def folder(self) -> bool:
        return len(self.paths) > 1 or self.paths[0] != self.source

    def header(self, path: str) -> list[str]:
        """The column names of one file (checked as ``prepare`` checks a header)."""
        if path.lower().endswith(PARQUET_SUFFIXES):
            names = list(_parquet(path).schema_arrow.names)
        else:
            with open_csv(path) as fh:
                names = next(csv_reader(fh), None)
            if names is None:
                raise DataError(f"{path}: the file is empty (no header row)")
        check_header(names, path, unnamed_first=not self.folder)  # the in-memory reading may leave it out
        return names

    def columns(self) -> list[str]:
        """The columns every file shares, in the first file's order (DataError when they differ)."""
        first = self.header(self.paths[0])
        for path in self.paths[1:]:
            other = self.header(path)
            if set(other) != set(first):
                raise DataError(f"{path}: its columns ({', '.join(other[:8])}) are not those of "
                                f"{self.paths[0]} ({', '.join(first[:8])}); the files of a folder share one header")
        return first

    def rows(self) -> int:
        """The number of data rows: exact for Parquet, estimated from the first MB for CSV."""
        total = 0
        for path in self.paths:
            if path.lower().endswith(PARQUET_SUFFIXES):
                total += _parquet(path).metadata.num_rows
            else:
                with open(path, "rb") as fh:
                    head = fh.read(1 << 20)
                lines = max(head.count(b"\n"), 1)
                total += max(int(os.path.getsize(path) * lines / max(len(head), 1)) - 1, 0)
        return total

    def in_memory_bytes(self) -> int:
        """What reading DATA into memory (``prepare.read_table``) would take, about."""
        return self.rows() * len(self.columns()) * CELL_BYTES

    def batches(self, columns: list[str], batch_rows: int = BATCH_ROWS) -> Iterator[tuple[str, int, pa.RecordBatch]]:
        """``(path, first row number, batch)`` of every row group, in file order (bounded memory).

        Parquet columns keep their types (numbers as numbers); CSV columns are text, an empty
        cell ``""``, as the CSV reader of every command reads them.
        """
        for path in self.paths:
            first = 1
            for batch in (_parquet_batches if path.lower().endswith(PARQUET_SUFFIXES) else _csv_batches)(
                    path, columns, batch_rows):
                yield path, first, batch
                first += batch.num_rows

    @property
    def csv(self) -> bool:
        """Whether every file is a CSV file (text the scan parses, worth keeping as read: :class:`Spill`)."""
        return not any(path.lower().endswith(PARQUET_SUFFIXES) for path in self.paths)


def _parquet(path: str):
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise DataError(f"{path}: reading Parquet needs pyarrow; pip install 'scorecard[parquet]'") from None
    try:
        return pq.ParquetFile(path, pre_buffer=False, buffer_size=1 << 20)
    except Exception as exc:  # pyarrow raises several unrelated types for a bad file
        raise DataError(f"{path}: not a readable Parquet file ({exc})") from None


def _parquet_batches(path: str, columns: list[str], batch_rows: int) -> Iterator[pa.RecordBatch]:
    with _parquet(path) as fh:
        yield from fh.iter_batches(batch_size=batch_rows, columns=columns, use_threads=False)


def _csv_batches(path: str, columns: list[str], batch_rows: int) -> Iterator[pa.RecordBatch]:
    import pyarrow.csv as pcsv

    header = Files((path,), path).header(path)
    read = pcsv.ReadOptions(column_names=header, skip_rows=1, block_size=CSV_BLOCK_BYTES, use_threads=False,
                            encoding="utf-8")
    convert = pcsv.ConvertOptions(column_types={name: pa.string() for name in header}, include_columns=columns,
                                  strings_can_be_null=False, quoted_strings_can_be_null=False)
    try:
        with pcsv.open_csv(path, read_options=read, convert_options=convert) as reader:
            yield from reader
    except pa.ArrowInvalid as exc:
        raise DataError(f"{path}: not a readable CSV file ({exc})") from None


# ---------------------------------------------------------------------------- the scan


@dataclass
class ColumnScan:
    """What one pass learns of a column: its type by ``prepare``'s rules, levels, missing cells."""

    numeric: bool = True
    binary: bool = True
    missing: int = 0
    levels: set = field(default_factory=set)
    too_many: bool = False

    def add_levels(self, values) -> None:
        if not self.too_many:
            self.levels.update(values)
            self.too_many = len(self.levels) > MAX_LEVELS

    def merge(self, other: "ColumnScan") -> None:
        self.numeric &= other.numeric
        self.binary &= other.binary
        self.missing += other.missing
        self.too_many |= other.too_many
        self.add_levels(other.levels)

    @property
    def kind(self) -> str:
        return "categorical" if not self.numeric else "binary" if self.binary else "numeric"


def _native(column: pa.Array) -> bool:
    """Whether a column holds numbers in its own type (Parquet integers and floats), as
    ``prepare`` reads them; any other type is read as the text a CSV would hold."""
    return pa.types.is_integer(column.type) or pa.types.is_floating(column.type)


def _floats(column: pa.Array) -> np.ndarray:
    """A column of Parquet numbers as float64, NaN where null (an integer beyond 2^53 rounded, as
    ``prepare`` reads it; pyarrow's cast would refuse it)."""
    return column.to_numpy(zero_copy_only=False).astype(np.float64)


def _missing(cells: list[str | None], codes: np.ndarray) -> int:
    """How many rows of a text column (``prepare._levels``: distinct cells, each row's) are missing."""
    absent = [k for k, c in enumerate(cells) if c is None]
    return int(np.isin(codes, absent).sum())


def _numbers(column: pa.Array, name: str, where: str) -> np.ndarray | None:
    """Float values (NaN where missing) of a row group's column, or None when a present cell
    is not a number: Parquet numbers as they are, text read by pyarrow as the in-memory reader
    reads it (``prepare.arrow_numbers``) or, where pyarrow refuses a cell, by Python's reading
    of each cell (``prepare._number``). A non-finite or huge number is refused as ``prepare``
    refuses it (``where``: file, first row)."""
    if _native(column):
        values = _floats(column)
        present = ~np.isnan(values)
    elif (parsed := arrow_numbers(_text(column))) is not None:
        values, present = parsed
    else:
        cells = _cells(_text(column))
        values, _ = _parse_numbers(cells)
        if values is None:
            return None
        present = np.array([c is not None for c in cells], dtype=bool)
    with np.errstate(invalid="ignore"):
        bad = np.flatnonzero((present & ~np.isfinite(values)) | (np.abs(values) > LARGEST))
    if len(bad):
        k = int(bad[0])
        raise DataError(f"{where}: column {name!r} holds {column[k].as_py()!r} on row {k}, which is not a finite "
                        f"number within +-{LARGEST:g}; leave the cell empty for a missing value")
    return values


def scan_batch(batch: pa.RecordBatch, target: str, where: str) -> tuple[dict[str, ColumnScan], pa.RecordBatch]:
    """The scan of one row group (``where``: its file and first row, for messages), and the row
    group as read: a column of numbers as float64 (NaN where missing), any other as it is."""
    out: dict[str, ColumnScan] = {}
    read: dict[str, pa.Array] = {}
    for name, column in zip(batch.schema.names, batch.columns):
        s = out[name] = ColumnScan()
        read[name] = column
        if name == target:
            s.numeric = s.binary = False
            if _native(column):  # numbers: their distinct values as text
                values = _floats(column)
                present = values[~np.isnan(values)]
                s.missing = int(len(values) - len(present))
                s.add_levels({_as_text(float(v)) for v in np.unique(present)})
            else:
                cells, codes = _levels(_text(column))
                s.missing = _missing(cells, codes)
                s.add_levels({c.strip() for c in cells if c is not None})
            continue
        values = _numbers(column, name, where)
        if values is None:
            s.numeric = s.binary = False
            cells, codes = _levels(_text(column))
            s.missing = _missing(cells, codes)
            s.add_levels({c for c in cells if c is not None})
            continue
        if not _native(column):
            read[name] = pa.array(values, pa.float64())
        present = values[~np.isnan(values)]
        s.missing = int(len(values) - len(present))
        s.binary = not len(present) or bool(present.min() >= 0 and present.max() <= 1 and np.isin(present, (0.0, 1.0)).all())
        distinct = np.unique(present[: 4 * MAX_LEVELS]) if len(present) else present
        if len(distinct) <= MAX_LEVELS:  # the text of each number, should a later row group hold text
            distinct = np.unique(present)
        s.too_many = len(distinct) > MAX_LEVELS
        if not s.too_many and _native(column):
            s.add_levels({_as_text(float(v)) for v in distinct})
        elif not s.too_many:  # the cells as written ("1.50"), the levels prepare would read
            s.add_levels({c for c in _levels(_text(column))[0] if c is not None})
    return out, pa.RecordBatch.from_arrays(list(read.values()), names=list(read))


def picked_rows(batch: pa.RecordBatch, start: int, every: int) -> pd.DataFrame:
    """Rows ``start``, ``start + every``, ... of a row group as ``prepare`` reads a frame of
    text: a text cell as written (None when blank), another value as the text a CSV would hold."""
    rows = batch.take(pa.array(np.arange(start, batch.num_rows, every, dtype=np.int64)))
    out = {}
    for name, column in zip(rows.schema.names, rows.columns):
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            blank = pc.equal(pc.utf8_trim(column, WHITESPACE), "")
            out[name] = pd.Series(pc.if_else(blank, pa.scalar(None, column.type), column).to_pylist(), dtype=object)
        else:
            out[name] = column.to_pandas().map(_as_text).astype(object)
    return pd.DataFrame(out)


def merge_scans(parts: list[dict[str, ColumnScan]]) -> dict[str, ColumnScan]:
    total = {name: ColumnScan(binary=True) for name in parts[0]}
    for part in parts:
        for name, s in part.items():
            total[name].merge(s)
    return total


# ---------------------------------------------------------------------------- streamed data


@dataclass(frozen=True)
class Streamed:
    """Data read in row groups: the scan's types and the prepared design sample.

    sample: ``prepare``'s ``LabeledData`` of the sampled rows, its inputs and missing counts
      replaced by those of every row (types, levels); what the design and golden rows read.
    rows: data rows in all files (before ``--missing drop``).
    spill: the row groups as the scan read them (CSV numbers parsed), which every later pass
      reads instead of the files; None when the files are read again (Parquet, a mixed folder,
      or a column the scan found numeric in one row group and text in another).
    """

    files: Files
    sample: LabeledData
    rows: int
    columns: tuple[str, ...]
    spill: Spill | None = None

    @property
    def target(self) -> str:
        return self.sample.target.name

    def batches(self, batch_rows: int = BATCH_ROWS) -> Iterator[tuple[str, int, pa.RecordBatch]]:
        """``(path, first row number, batch)`` of every row group: the spill's, else the files'."""
        if self.spill is not None:
            yield from self.spill.batches()
        else:
            yield from self.files.batches(list(self.columns), batch_rows)

    def typed(self, batch: pa.RecordBatch, where: str) -> tuple[pd.DataFrame, np.ndarray]:
        """A raw row group as the trainer's frame (numeric float64 with NaN, categorical text or
        None) and its labels (+1/-1, int8), after the missing policy (drop, impute)."""
        columns = {}
        for inp in self.sample.inputs:
            column = batch.column(inp.name)
            if inp.type == "categorical":
                cells, codes = _levels(_text(column))
                objects = np.empty(len(cells), dtype=object)
                objects[:] = cells
                columns[inp.name] = objects[codes]
                continue
            values = _numbers(column, inp.name, where)
            if values is None:
                cells = _cells(_text(column))
                k = next(i for i, c in enumerate(cells) if c is not None and _parse_numbers([c])[0] is None)
                raise DataError(f"{where}: column {inp.name!r} holds {cells[k]!r} on row {k}, not a number, in a "
                                "column the scan of every row read as numeric; the file changed while training read it")
            columns[inp.name] = values
        typed = pd.DataFrame(columns, index=pd.RangeIndex(batch.num_rows))
        y = self.labels(batch.column(self.target))
        policy = self.sample.policy
        if policy == "drop":
            keep = ~typed.isna().any(axis=1).to_numpy()
            typed, y = typed[keep], y[keep]
        elif policy == "impute":
            for name, value in self.sample.imputed.items():
                typed[name] = typed[name].where(typed[name].notna(), value)
        return typed, y

    def labels(self, column: pa.Array) -> np.ndarray:
        """+1 where the target holds the positive class (as ``prepare`` codes it), else -1."""
        positive = self.sample.target.positive
        number = isinstance(positive, (int, float)) and not isinstance(positive, bool)
        if number and _native(column):
            values = _floats(column)
            return np.where(values == float(positive), 1, -1).astype(np.int8)
        cells, codes = _levels(_text(column))  # each distinct cell read once
        if number:
            hits = [c is not None and _number(c.strip()) == float(positive) for c in cells]
        else:
            hits = [c is not None and c.strip() == str(positive) for c in cells]
        return np.where(np.array(hits, dtype=bool)[codes], 1, -1).astype(np.int8)

    def design_batches(self, design: Design, batch_rows: int = BATCH_ROWS,
                       every: int = 1) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """``(X float32, y int8)`` of each row group: the design's columns, as the runtime scores them.

        every: keep every ``every``-th row (a systematic sample, one pass).
        """
        for path, first, batch in self.batches(batch_rows):
            if every > 1:
                batch = batch.take(pa.array(np.arange(0, batch.num_rows, every, dtype=np.int64)))
            typed, y = self.typed(batch, f"{path} (rows from {first})")
            yield design_matrix(design, typed), y


def design_matrix(design: Design, typed: pd.DataFrame) -> np.ndarray:
    """The design's columns over a typed row group, float32 (exact for conditions and for
    float32 data; a float64 value is rounded as the in-memory trainer's float32 oracle rounds it)."""
    X = np.empty((len(typed), len(design.columns)), dtype=np.float32)
    for j, col in enumerate(design.columns):
        X[:, j] = col.values(typed[col.input])
    return X


def scan(files: Files, target: str, positive: object, missing: str, spill: Spill | None = None) -> Streamed:
    """One pass over every row: the types, levels and missing counts of all rows, and the
    design sample (about :data:`SAMPLE_ROWS` rows, every k-th), prepared by ``prepare``.

    spill: where to keep the row groups as read when every file is CSV, so that no later pass
    parses the text again (:class:`Spill`)."""
    columns = files.columns()
    check_header(columns, files.source)  # a nameless first column: the in-memory reading's alone to leave out
    if target not in columns:
        prepare(pd.DataFrame({c: ["0"] for c in columns}), target, positive, missing, source=files.source)
    every = max(1, files.rows() // SAMPLE_ROWS)
    keep = spill if spill is not None and files.csv else None
    parts, picked, rows = [], [], 0
    for path, first, batch in files.batches(columns):
        part, read = scan_batch(batch, target, f"{path} (rows from {first})")
        parts.append(part)
        if keep is not None:
            keep.write(path, first, read)
        picked.append(picked_rows(batch, (-rows) % every, every))
        rows += batch.num_rows
    if rows == 0:
        raise DataError(f"{files.source}: the data has a header but no rows")
    data = from_scan(files, merge_scans(parts), pd.concat(picked, ignore_index=True), rows, target, positive, missing)
    text = {inp.name for inp in data.sample.inputs if inp.type == "categorical"}
    if keep is None or keep.full or text & keep.numbered:  # numbers here, text there: read the cells as written
        return data
    return replace(data, spill=keep)


def from_scan(files: Files, scans: dict[str, ColumnScan], picked: pd.DataFrame, rows: int, target: str,
              positive: object, missing: str) -> Streamed:
    """The :class:`Streamed` data of a finished scan and its sampled rows (text cells)."""
    source = files.source
    if scans[target].missing:
        raise DataError(f"{source}: target column {target!r} has {scans[target].missing} missing values; "
                        "every row needs a label: leave the rows without one out of the file")
    levels = sorted(scans[target].levels)
    _, positive_value, rest = _code_target(pa.array(levels, pa.string()), target, positive, source, lambda i: f"row {i}")
    counts = {name: s.missing for name, s in scans.items() if name != target and s.missing}
    if counts and missing == "null":
        name, n = next(iter(counts.items()))
        raise DataError(f"{source}: column {name!r} has {n} missing values; "
                        "use --missing drop to drop those rows or --missing impute to fill them")
    picked.index = pd.RangeIndex(1, len(picked) + 1, name="row")
    sample = prepare(picked, target, positive_value, missing, source=source)
    inputs, frame = [], sample.frame.copy()
    for inp in sample.inputs:
        s = scans[inp.name]
        if s.kind != "categorical":
            inputs.append(Input(inp.name, s.kind))
            continue
        if s.too_many:
            raise DataError(f"{source}: column {inp.name!r} holds more than {MAX_LEVELS} distinct text values; "
                            "a scorecard needs a condition per level, so group the levels or drop the column")
        if inp.type != "categorical":  # numbers in the sample, text elsewhere: the sample's cells as text
            frame[inp.name] = pd.Series([None if pd.isna(v) else _as_text(v) for v in frame[inp.name]], dtype=object)
        inputs.append(Input(inp.name, "categorical", tuple(sorted(s.levels))))
    # the target's classes are the whole file's (a sample may miss a third one): its note replaces the sample's
    notes = ((rest,) if rest else ()) + (sample.notes[1:] if sample.target.rest else sample.notes)
    sample = replace(sample, frame=frame, inputs=tuple(inputs), missing_counts=counts,
                     target=replace(sample.target, rest=rest is not None), notes=notes)
    return Streamed(files=files, sample=sample, rows=rows, columns=tuple(picked.columns))


def worth_streaming(files: Files, budget: int) -> bool:
    """Whether DATA is read here rather than into memory: a folder, or more than the budget."""
    return files.folder or files.in_memory_bytes() > budget


def fits(rows: int, columns: int, budget: int) -> bool:
    """Whether the signed design columns (float32) of ``rows`` fit in the budget with room to work."""
    return 3 * 4 * rows * (columns + 1) <= budget
