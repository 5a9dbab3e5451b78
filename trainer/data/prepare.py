"""Reading and checking training data: the one place user data is validated.

:func:`read_table` reads a CSV (or Parquet) file as text, cell for cell, the way the
runtime's CSV reader does, so training and scoring see the same values: only an empty
(or blank) cell is missing, ``NA`` or ``null`` are ordinary strings. :func:`prepare` then
types every column itself and codes the target, refusing bad input with a one-line
:class:`DataError` naming the file, the line or column and the value.
"""
from __future__ import annotations

import csv
import difflib
import math
import os
from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
from scorecard.runtime import Input, Target
from scorecard.runtime.errors import DataError
from scorecard.runtime.names import name_problem  # what no later command can use
from scorecard.runtime.table import RESERVED  # the columns scoring adds; training refuses them
from scorecard.runtime.table import csv_reader, not_utf8, open_csv

from ..options.config import MISSING

PARQUET_SUFFIXES = (".parquet", ".pq")
#: The largest magnitude a numeric training value may have: beyond, the squares and sums of
#: training overflow a double (1.8e308) and end in inf far from the value that caused it.
LARGEST = 1e100
BOOLEANS = {"true": True, "false": False}


@dataclass(frozen=True)
class LabeledData:
    """Validated training data.

    frame: the input columns only (target removed), in data order; numeric and binary
      columns as float64, categorical columns as object dtype holding str. No missing cell
      is left (rows dropped or cells imputed) except under missing="unmet", which keeps them
      (NaN in a numeric or binary column, None in a categorical one).
    y: int8 array of +1 (positive class) / -1 (negative class), one per row of ``frame``.
    inputs: one runtime ``Input`` per column of ``frame`` (same order, same names).
    target: the target column's name and its positive value as written in the data.
    imputed: column -> value filled in for missing cells (empty unless missing="impute").
    missing_counts: column -> number of missing cells in the raw data (columns with none
      are left out).
    missing_cells: column -> boolean mask of the cells ``imputed`` filled (one per row).
    dropped_rows: rows removed under missing="drop".
    policy: the missing policy the data was prepared under (unmet, null, drop or impute).
    counts: how many data rows each row stands for (None: one each): identical rows of big
      data grouped by ``trainer/stream.py``, their counts weighting the 0-1 loss, the training
      error, the risk table and the rate constraints.
    notes: typing decisions a user may not expect (a mostly numeric column read as
      categorical, say), one sentence each, for the CLI to show.
    """

    frame: pd.DataFrame
    y: np.ndarray
    inputs: tuple[Input, ...]
    target: Target
    source: str = "DATA"
    imputed: dict = field(default_factory=dict)
    missing_counts: dict = field(default_factory=dict)
    missing_cells: dict = field(default_factory=dict)
    dropped_rows: int = 0
    notes: tuple[str, ...] = ()
    policy: str = "null"
    counts: np.ndarray | None = None

    @property
    def n_rows(self) -> int:
        """Data rows, each grouped row counted as many times as it stands for."""
        return len(self.y) if self.counts is None else int(self.counts.sum())

    def subset(self, rows: np.ndarray) -> "LabeledData":
        """The same data restricted to ``rows`` (positions), e.g. one cross-validation fold."""
        return replace(self, frame=self.frame.iloc[rows].reset_index(drop=True), y=self.y[rows],
                       counts=None if self.counts is None else self.counts[rows],
                       missing_cells={name: mask[rows] for name, mask in self.missing_cells.items()})

    def impute_with(self, values: dict | None = None) -> "LabeledData":
        """The imputed cells filled again: with ``values`` (a training fold's fill values) or
        with fill values computed from these rows' own present cells. Cross-validation fills
        each fold this way, so a test fold never shapes the values its model imputes."""
        frame = self.frame.copy()
        kinds = {inp.name: inp.type for inp in self.inputs}
        filled = {}
        for name, mask in self.missing_cells.items():
            present = frame[name].where(~mask)
            filled[name] = values[name] if values is not None else _fill_value(present, kinds[name], self.source)
            frame[name] = present.where(~mask, filled[name])
        return replace(self, frame=frame, imputed=filled)


# ---------------------------------------------------------------------------- reading


def read_table(path: str) -> pd.DataFrame:
    """The file's cells as text (object dtype; ``None`` for an empty cell).

    The index holds each row's line number in the file (header = line 1), so errors can
    point at it. Parquet files (``.parquet``/``.pq``) need pyarrow; their values are turned
    into the same text a CSV would hold.
    """
    if not os.path.exists(path):
        raise DataError(f"{path}: no such file")
    if os.path.isdir(path):
        raise DataError(f"{path}: is a folder, not a data file")
    if path.lower().endswith(PARQUET_SUFFIXES):
        return _read_parquet(path)
    return _read_csv(path)


def _read_csv(path: str) -> pd.DataFrame:
    try:
        with open_csv(path) as fh:
            reader = csv_reader(fh)  # the runtime's reader: a cell of any size
            header = next(reader, None)
            if header is None:
                raise DataError(f"{path}: the file is empty (no header row)")
            _check_header(header, path)
            rows: list[list[str | None]] = []
            lines: list[int] = []
            start = reader.line_num
            for cells in reader:
                if not cells:
                    start = reader.line_num
                    continue
                if len(cells) != len(header):
                    raise DataError(f"{path}: line {start + 1} has {len(cells)} cells, the header has {len(header)}")
                rows.append([None if c.strip() == "" else c for c in cells])
                lines.append(start + 1)
                start = reader.line_num
    except UnicodeDecodeError as exc:
        raise DataError(not_utf8(path, exc, path)) from None
    except csv.Error as exc:
        raise DataError(f"{path}: not a readable CSV file ({exc})") from None
    if not rows:
        raise DataError(f"{path}: the file has a header but no data rows")
    return pd.DataFrame(rows, columns=header, index=pd.Index(lines, name="line"), dtype=object)


def _read_parquet(path: str) -> pd.DataFrame:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise DataError(f"{path}: reading Parquet needs pyarrow; pip install 'scorecard[parquet]'") from None
    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises several unrelated types for a bad file
        raise DataError(f"{path}: not a readable Parquet file ({exc})") from None
    _check_header(table.column_names, path)
    if table.num_rows == 0:
        raise DataError(f"{path}: the file has no data rows")
    columns = {name: [_as_text(v) for v in table.column(k).to_pylist()]
               for k, name in enumerate(table.column_names)}
    return pd.DataFrame(columns, index=pd.RangeIndex(1, table.num_rows + 1, name="row"), dtype=object)


def _check_header(header: list[str], path: str) -> None:
    seen: set[str] = set()
    for k, name in enumerate(header):
        if name.strip() == "":
            raise DataError(f"{path}: column {k + 1} of the header has no name")
        if name in seen:
            raise DataError(f"{path}: column {name!r} appears twice in the header")
        seen.add(name)


def _as_text(value: object) -> str | None:
    """A non-text value as the text a CSV would hold (floats round-trip exactly)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    text = value if isinstance(value, str) else repr(value) if isinstance(value, float) else str(value)
    return None if text.strip() == "" else text


# ---------------------------------------------------------------------------- typing


def prepare(df: pd.DataFrame, target: str, positive: object = None, missing: str = "unmet",
            source: str = "DATA") -> LabeledData:
    """Check ``df``, code the target as +1/-1, type the other columns and apply ``missing``
    (one of ``TrainConfig``'s policies: unmet keeps the missing cells, null refuses them,
    drop drops their rows, impute fills them).

    Accepts the text frame of :func:`read_table` and, for the Python API, a frame of
    native values (numbers, NaN/None for missing).
    """
    if missing not in MISSING:
        raise DataError(f"--missing: {missing!r} is not a policy; use one of {', '.join(MISSING)}")
    names = [str(c) for c in df.columns]
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            raise DataError(f"{source}: column {name!r}: its name {problem}; rename the column")
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise DataError(f"{source}: column {dup!r} appears twice")
    if target not in names:
        raise DataError(f"{source}: no column {target!r}{_suggest(target, names)}")
    for name in RESERVED:
        if name in names:
            raise DataError(f"{source}: column {name!r} clashes with the column predictions add; rename it")
    features = [n for n in names if n != target]
    if not features:
        raise DataError(f"{source}: no feature columns besides the target {target!r}")
    where = _locator(df)
    y, positive_value = _code_target(df[target], target, positive, source, where)

    notes: list[str] = []
    columns: dict[str, pd.Series] = {}
    inputs: list[Input] = []
    for name in features:
        kind, values, note = _type_column(df[name], name, source, where)
        columns[name] = values
        inputs.append(Input(name, kind))
        if note:
            notes.append(note)
    frame = pd.DataFrame(columns, index=df.index)

    is_missing = frame.isna()
    counts = {name: int(n) for name, n in is_missing.sum().items() if n}
    imputed: dict = {}
    dropped = 0
    if counts and missing == "null":
        name, n = next(iter(counts.items()))
        more = f" (and {len(counts) - 1} more columns)" if len(counts) > 1 else ""
        raise DataError(f"{source}: column {name!r} has {n} missing values{more}; "
                        "use --missing drop to drop those rows or --missing impute to fill them")
    if counts and missing == "drop":
        keep = ~is_missing.any(axis=1).to_numpy()
        dropped = int((~keep).sum())
        frame, y = frame[keep], y[keep]
        if len(set(y.tolist())) < 2:
            raise DataError(f"{source}: after dropping {dropped} rows with missing values, "
                            f"fewer than two classes of {target!r} are left")
    cells: dict = {}
    if counts and missing == "impute":
        for name in counts:
            cells[name] = frame[name].isna().to_numpy()
            imputed[name] = _fill_value(frame[name], inputs[features.index(name)].type, source)
            frame[name] = frame[name].where(frame[name].notna(), imputed[name])

    inputs = [Input(i.name, i.type, tuple(sorted(set(frame[i.name].dropna())))) if i.type == "categorical" else i
              for i in inputs]
    return LabeledData(frame=frame.reset_index(drop=True), y=y, inputs=tuple(inputs),
                       target=Target(target, positive_value), source=source, imputed=imputed,
                       missing_counts=counts, missing_cells=cells, dropped_rows=dropped, notes=tuple(notes),
                       policy=missing)


def _suggest(name: str, options: list[str]) -> str:
    folded = {o.lower(): o for o in options}
    close = [folded[name.lower()]] if name.lower() in folded else difflib.get_close_matches(name, options, n=1)
    return f"; did you mean {close[0]!r}?" if close else f" (columns: {', '.join(options[:8])}{', ...' if len(options) > 8 else ''})"


def _locator(df: pd.DataFrame):
    """How to name the row at a given index value in a message: its line, or its row."""
    label = "line" if df.index.name == "line" else "row"
    return lambda index: f"{label} {index}"


def _cells(series: pd.Series) -> list[str | None]:
    """Every cell as text, ``None`` when missing (empty, blank, None or NaN)."""
    return [(c if c.strip() else None) if type(c) is str else _as_text(c) for c in series.tolist()]


def _number(text: str) -> float | None:
    """The runtime's reading of a cell as a number (int first, then float), or None."""
    try:
        return float(int(text))
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return None


def _parse_numbers(cells: list[str | None]) -> tuple[np.ndarray | None, int | None]:
    """Float values (NaN where missing), or None and the position of the first non-number."""
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


def _type_column(series: pd.Series, name: str, source: str, where) -> tuple[str, pd.Series, str | None]:
    """(type, values, note): numeric/binary as float64 with NaN for missing, else categorical text."""
    index = series.index
    if series.dtype.kind in "iufb":
        values = series.to_numpy(dtype=float)
        bad = np.flatnonzero(np.isinf(values))
    else:
        cells = _cells(series)
        values, first_text = _parse_numbers(cells)
        if values is None:
            present = [c for c in cells if c is not None]
            numeric = sum(_number(c.strip()) is not None for c in present)
            note = None
            if numeric * 2 > len(present):
                note = (f"column {name!r} is read as categorical: {cells[first_text]!r} on {where(index[first_text])} "
                        f"is not a number ({len(present) - numeric} of {len(present)} values are not)")
            _check_categories(cells, name, source, where, index)
            return "categorical", pd.Series(cells, index=index, dtype=object), note
        bad = np.flatnonzero(~np.isfinite(values) & np.array([c is not None for c in cells]))
    if len(bad):
        k = bad[0]
        raise DataError(f"{source}: column {name!r} holds {series.iloc[k]!r} on {where(index[k])}, "
                        "which is not a finite number; leave the cell empty for a missing value")
    with np.errstate(invalid="ignore"):
        huge = np.flatnonzero(np.abs(values) > LARGEST)
    if len(huge):
        k = huge[0]
        raise DataError(f"{source}: column {name!r} holds {series.iloc[k]!r} on {where(index[k])}, beyond "
                        f"the largest magnitude training accepts ({LARGEST:g}); rescale the column")
    present = values[~np.isnan(values)]
    kind = "binary" if len(present) and np.isin(present, (0.0, 1.0)).all() else "numeric"
    return kind, pd.Series(values, index=index, dtype=float), None


def _check_categories(cells: list[str | None], name: str, source: str, where, index) -> None:
    """Refuse a category no later command can use (runtime/names.py), naming its line."""
    for k, cell in enumerate(cells):
        problem = None if cell is None else name_problem(cell)
        if problem is not None:
            raise DataError(f"{source}: column {name!r} holds {cell!r} on {where(index[k])}, which {problem}; "
                            "remove the character from the data")


def _fill_value(values: pd.Series, kind: str, source: str) -> int | float | str:
    """The imputed value: median of a numeric column (integral columns stay integral) or the
    most frequent level (ties go to the first in sorted order)."""
    present = values.dropna()
    if len(present) == 0:
        raise DataError(f"{source}: column {values.name!r} has no values at all; nothing to impute from")
    if kind == "categorical":
        counts = Counter(present.tolist())
        top = max(counts.values())
        return min(level for level, n in counts.items() if n == top)
    median = float(np.median(present.to_numpy()))
    if (present == np.floor(present)).all():
        return int(math.floor(median + 0.5))
    return median


# ---------------------------------------------------------------------------- target


def _code_target(series: pd.Series, name: str, positive: object, source: str, where) -> tuple[np.ndarray, object]:
    """y in {-1, +1} and the positive value as written in the data."""
    cells = _cells(series)
    absent = [k for k, c in enumerate(cells) if c is None]
    if absent:
        raise DataError(f"{source}: target column {name!r} has {len(absent)} missing values "
                        f"(first on {where(series.index[absent[0]])}); every row needs a label")
    texts = [c.strip() for c in cells]
    numbers = {v: _number(v) for v in dict.fromkeys(texts)}
    if all(n is not None and math.isfinite(n) for n in numbers.values()):
        key = numbers.__getitem__  # a numeric target: "1" and "1.0" are one class
    else:
        key = str
    classes = dict.fromkeys(key(v) for v in numbers)  # class -> None, in order of appearance
    first = {}
    for v in numbers:
        first.setdefault(key(v), v)
    levels = [first[c] for c in classes]  # each class as it is first written in the data
    if len(levels) == 1:
        same = f"; {', '.join(repr(v) for v in numbers)} are one number" if len(numbers) > 1 else ""
        raise DataError(f"{source}: target column {name!r} holds one class only ({levels[0]!r}{same}); it needs two")
    if len(levels) > 2:
        shown = ", ".join(repr(v) for v in levels[:5]) + (", ..." if len(levels) > 5 else "")
        raise DataError(f"{source}: target column {name!r} holds {len(levels)} classes ({shown}); "
                        "it needs exactly two")
    if positive is None:
        chosen = _default_positive(levels)
        if chosen is None:
            raise DataError(f"{source}: target column {name!r} holds {levels[0]!r} and {levels[1]!r}; "
                            f"say which is positive with --positive {levels[0]} or --positive {levels[1]}")
    else:
        matches = [v for v in levels if _same_label(v, positive)]
        if not matches:
            raise DataError(f"{source}: --positive {positive!r} is not a value of column {name!r} "
                            f"(it holds {levels[0]!r} and {levels[1]!r})")
        chosen = matches[0]
    y = np.where(np.array([key(c) == key(chosen) for c in texts]), 1, -1).astype(np.int8)
    number = _number(chosen)
    if number is not None and all(_number(v) is not None for v in levels):
        return y, int(number) if number.is_integer() else number
    return y, chosen


def _default_positive(levels: list[str]) -> str | None:
    """The positive class when the coding makes it plain: 1 of 0/1 or -1/1, true of true/false."""
    numbers = [_number(v) for v in levels]
    if None not in numbers and sorted(numbers) in ([0.0, 1.0], [-1.0, 1.0]):
        return levels[numbers.index(1.0)]
    lowered = [v.lower() for v in levels]
    if sorted(lowered) == ["false", "true"]:
        return levels[lowered.index("true")]
    return None


def _same_label(level: str, positive: object) -> bool:
    """Whether the user's --positive value names this level (text, number or boolean alike)."""
    text = str(positive).strip()
    if isinstance(positive, bool):
        text = "true" if positive else "false"
    if level == text:
        return True
    a, b = _number(level), _number(text)
    if a is not None and b is not None:
        return a == b
    return level.lower() in BOOLEANS and level.lower() == text.lower()
