"""Reading and checking training data: the one place user data is validated.

:func:`read_table` reads a CSV (or Parquet) file as text, cell for cell, the way the
runtime's CSV reader does, so training and scoring see the same values: only an empty
(or blank) cell is missing, ``NA`` or ``null`` are ordinary strings. :func:`prepare` then
types every column itself and codes the target, refusing bad input with a one-line
:class:`DataError` naming the file, the line or column and the value.
"""
from __future__ import annotations

import difflib
import math
import re
from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from scorecard.runtime import Input, Target
from scorecard.runtime.errors import DataError
from scorecard.runtime.names import name_problem  # what no later command can use
from scorecard.runtime.score import WHITESPACE  # what str.strip() removes: a blank cell is missing
from scorecard.runtime.table import RESERVED  # the columns scoring adds; training refuses them

from ..options.config import MISSING
from . import columnar
from .cells import as_text
from .columnar import PARQUET_SUFFIXES, ColumnTable

__all__ = ["PARQUET_SUFFIXES", "LabeledData", "prepare", "read_table"]
#: The largest magnitude a numeric training value may have: beyond, the squares and sums of
#: training overflow a double (1.8e308) and end in inf far from the value that caused it.
LARGEST = 1e100
BOOLEANS = {"true": True, "false": False}
#: A text column is left out when more than half of its rows hold a value no other row holds
#: and such values number at least this many: a patient number, a date, free text. Each
#: level would be a condition met by one row, which tells nothing about the others, and
#: thousands of them made a slow problem whose cross-validation chose an empty card.
IDENTIFIER_LEVELS = 20
#: A number written with thousands separators (``76,774``; ``1,234.5``): read as text.
THOUSANDS = re.compile(r"[+-]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]*)?")


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


def read_table(path: str) -> ColumnTable:
    """The whole file in columns (trainer/data/columnar.py): CSV cells as text, Parquet
    columns in their own types; :func:`prepare` types them column by column."""
    return columnar.read_table(path)


# ---------------------------------------------------------------------------- typing


def prepare(df: pd.DataFrame | ColumnTable, target: str, positive: object = None, missing: str = "unmet",
            source: str = "DATA") -> LabeledData:
    """Check ``df``, code the target as +1/-1, type the other columns and apply ``missing``
    (one of ``TrainConfig``'s policies: unmet keeps the missing cells, null refuses them,
    drop drops their rows, impute fills them).

    Accepts the :class:`ColumnTable` of :func:`read_table` and, for the Python API, a frame
    of native values (numbers, NaN/None for missing) or text.
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
    if isinstance(df, ColumnTable):
        columns_of, locate = df.data.__getitem__, df.locate
        labels = _text(df.data[target])
    else:
        where = _locator(df)
        columns_of, locate = (lambda name: _frame_column(df[name])), (lambda k: where(df.index[k]))
        labels = _frame_text(df[target])
    y, positive_value, rest = _code_target(labels, target, positive, source, locate)

    notes: list[str] = [] if rest is None else [rest]
    columns: dict[str, pd.Series] = {}
    inputs: list[Input] = []
    for name in features:
        kind, values, note = _type_column(columns_of(name), name, source, locate)
        if isinstance(df, ColumnTable) and kind == "numeric" and _row_numbers(values):
            kind, note = UNUSED, _row_numbers_note(name, values)
        if name.strip() == "" and kind != UNUSED:
            raise DataError(f"{source}: column {names.index(name) + 1} of the header has no name; name it, or "
                            "leave it out of the file")
        if note:
            notes.append(note)
        if kind == UNUSED:
            continue
        columns[name] = pd.Series(values, dtype=object if kind == "categorical" else float)
        inputs.append(Input(name, kind))
    if not inputs:
        raise DataError(f"{source}: no usable feature columns besides the target {target!r} ({notes[0]})")
    frame = pd.DataFrame(columns)

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
            imputed[name] = _fill_value(frame[name], next(i.type for i in inputs if i.name == name), source)
            frame[name] = frame[name].where(frame[name].notna(), imputed[name])

    inputs = [Input(i.name, i.type, tuple(sorted(set(frame[i.name].dropna())))) if i.type == "categorical" else i
              for i in inputs]
    return LabeledData(frame=frame.reset_index(drop=True), y=y, inputs=tuple(inputs),
                       target=Target(target, positive_value, rest is not None), source=source, imputed=imputed,
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


def _frame_column(series: pd.Series) -> np.ndarray | pa.Array:
    """A column of a Python API frame: native numbers (and booleans) as float64, anything
    else as text cell by cell (None when missing), as a CSV would hold it."""
    if series.dtype.kind in "iufb":
        return series.to_numpy(dtype=float)
    return _frame_text(series)


def _frame_text(series: pd.Series) -> pa.Array:
    """A column of a Python API frame as text, cell by cell (None when missing)."""
    return pa.array([(c if c.strip() else None) if type(c) is str else as_text(c) for c in series.tolist()],
                    pa.string())


def _text(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """A column of a file as one text array (null or blank where missing)."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
        return column
    return columnar.text_column(column)


def _levels(text: pa.Array) -> tuple[list[str | None], np.ndarray]:
    """(levels, codes): each distinct cell once, in order of first appearance, as written
    (None for a missing cell, always the last level), and each row's level number."""
    encoded = pc.dictionary_encode(text)
    levels = [t if t.strip() else None for t in encoded.dictionary.to_pylist()]
    codes = encoded.indices.fill_null(len(levels)).to_numpy(zero_copy_only=False).astype(np.intp, copy=False)
    return levels + [None], codes


def _number(text: str) -> float | None:
    """The runtime's reading of a cell as a number (int first, then float), or None."""
    try:
        return float(int(text))
    except OverflowError:  # an integer beyond the doubles: float() reads it as inf
        return float(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return None


def _type_column(column, name: str, source: str, locate) -> tuple[str, np.ndarray, str | None]:
    """(type, values, note): numeric/binary as float64 with NaN for missing, else categorical
    text (object array, None for missing; each distinct text one object)."""
    if isinstance(column, np.ndarray):  # native numbers of a Python API frame
        return _numeric(column, ~np.isnan(column), name, source, locate, lambda k: repr(column[k]))
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if pa.types.is_integer(column.type) or pa.types.is_floating(column.type):  # Parquet numbers
        values = column.to_numpy(zero_copy_only=False).astype(float)
        return _numeric(values, ~np.isnan(values), name, source, locate, lambda k: repr(as_text(column[k].as_py())))
    text = _text(column)
    parsed = arrow_numbers(text)
    if parsed is None:
        return _type_levels(text, name, source, locate)
    values, present = parsed
    return _numeric(values, present, name, source, locate, lambda k: repr(text[k].as_py()))


def arrow_numbers(text: pa.Array) -> tuple[np.ndarray, np.ndarray] | None:
    """(values with NaN where missing, present) of a text column when pyarrow reads every
    non-blank cell as a number, else None (Python's reading then decides, cell by cell).

    A cell is blank when ``str.strip()`` empties it (null too); pyarrow reads a subset of what
    ``float()`` reads, to the same double (tests/trainer/test_data.py). A column of plain numbers
    (no blank, no padding, no null) is cast as it is: pyarrow refuses any whitespace, so such a
    cast reads what the trimmed one reads, at half the cost."""
    if text.null_count == 0:
        try:
            values = pc.cast(text, pa.float64()).to_numpy(zero_copy_only=False)
            return values, np.ones(len(values), dtype=bool)
        except pa.ArrowInvalid:
            pass
    trimmed = pc.utf8_trim(text, WHITESPACE).fill_null("")
    blank = pc.equal(trimmed, "")
    try:
        values = pc.cast(pc.if_else(blank, "0", trimmed), pa.float64()).to_numpy(zero_copy_only=False)
    except pa.ArrowInvalid:
        return None
    present = ~blank.to_numpy(zero_copy_only=False)
    return np.where(present, values, np.nan), present


#: The type :func:`_type_levels` gives a column it leaves out (``IDENTIFIER_LEVELS``).
UNUSED = "unused"


def _row_numbers(values: np.ndarray) -> bool:
    """True when a file's numeric column holds the row numbers: 1..n or 0..n-1, each once, in
    any order, in at least ``IDENTIFIER_LEVELS`` rows (R's ``write.csv`` and pandas' ``to_csv``
    write them as the first column by default; a sequential patient number is the same). Cut-offs
    on it would score the order the file was sorted in, which tells nothing about a new row."""
    n = len(values)
    if n < IDENTIFIER_LEVELS or np.isnan(values).any() or values.min() not in (0, 1):
        return False
    whole = values.astype(np.int64)
    return bool(np.array_equal(whole, values) and whole.max() - whole.min() == n - 1 and
                np.bincount(whole - whole.min(), minlength=n).max() == 1)


def _row_numbers_note(name: str, values: np.ndarray) -> str:
    """The note of a column :func:`_row_numbers` leaves out."""
    what = f"column {name!r}" if name.strip() else "the first column, which has no name,"
    return (f"{what} is not used: it holds the row numbers {values.min():.0f} to {values.max():,.0f}, each once "
            "(row names, as R's write.csv and pandas' to_csv write them, or a sequential identifier), which tell "
            "nothing about a new row")


def _type_levels(text: pa.Array, name: str, source: str, locate) -> tuple[str, np.ndarray | None, str | None]:
    """A text column pyarrow does not read as numbers: Python's reading of each distinct
    cell decides (numeric when every present one is a number, else categorical, or UNUSED
    with a note saying why for an identifier's column: ``IDENTIFIER_LEVELS``)."""
    levels, codes = _levels(text)
    parsed = [None if v is None else _number(v.strip()) for v in levels]
    is_text = np.array([v is not None and p is None for v, p in zip(levels, parsed)])
    numbers = np.array([np.nan if p is None else p for p in parsed])
    shown = lambda k: repr(levels[codes[k]])  # noqa: E731
    if not is_text.any():
        values = numbers[codes]
        return _numeric(values, ~np.isnan(values), name, source, locate, shown)
    counts = np.bincount(codes, minlength=len(levels))
    counts[[v is None for v in levels]] = 0  # empty or blank cells: neither numbers nor text
    present = int(counts.sum())
    not_numbers = int(counts[is_text].sum())
    separated = [v for v, text in zip(levels, is_text) if text and THOUSANDS.fullmatch(v.strip())]
    hint = ""
    if 2 * len(separated) > int(is_text.sum()):
        hint = (f"; its values look like numbers with thousands separators ({separated[0]!r}): write them "
                "without separators to use it as a number")
    once = int((counts == 1).sum())  # values of one row each
    if once >= IDENTIFIER_LEVELS and 2 * once > present:
        return UNUSED, None, (f"column {name!r} is not used: {once:,} of its {present:,} values occur in one row "
                              "only (an identifier, a date or free text?), and a condition met by one row tells "
                              f"nothing about the others{hint}")
    note = None
    if (present - not_numbers) * 2 > present:
        first = int(np.argmax(is_text[codes]))
        note = (f"column {name!r} is read as categorical: {levels[codes[first]]!r} on {locate(first)} "
                f"is not a number ({not_numbers} of {present} values are not)")
    elif hint:
        note = f"column {name!r} is read as categorical{hint}"
    problems = np.array([v is not None and name_problem(v) is not None for v in levels])
    if problems.any():
        k = int(np.argmax(problems[codes]))
        cell = levels[codes[k]]
        raise DataError(f"{source}: column {name!r} holds {cell!r} on {locate(k)}, which {name_problem(cell)}; "
                        "remove the character from the data")
    objects = np.empty(len(levels), dtype=object)
    objects[:] = levels
    return "categorical", objects[codes], note


def _numeric(values: np.ndarray, present: np.ndarray, name: str, source: str, locate,
             shown) -> tuple[str, np.ndarray, None]:
    """A numeric column checked: every present value finite and within LARGEST (else a
    DataError showing the cell as ``shown(k)``); binary when every present value is 0 or 1."""
    with np.errstate(invalid="ignore"):
        bad = np.flatnonzero(present & ~np.isfinite(values))
        if len(bad):
            k = int(bad[0])
            raise DataError(f"{source}: column {name!r} holds {shown(k)} on {locate(k)}, "
                            "which is not a finite number; leave the cell empty for a missing value")
        huge = np.flatnonzero(np.abs(values) > LARGEST)
    if len(huge):
        k = int(huge[0])
        raise DataError(f"{source}: column {name!r} holds {shown(k)} on {locate(k)}, beyond "
                        f"the largest magnitude training accepts ({LARGEST:g}); rescale the column")
    kept = values[present]
    kind = "binary" if len(kept) and np.isin(kept, (0.0, 1.0)).all() else "numeric"
    return kind, values, None


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


def _code_target(text: pa.Array, name: str, positive: object, source: str,
                 locate) -> tuple[np.ndarray, object, str | None]:
    """y in {-1, +1}, the positive value as written in the data (each distinct cell read once)
    and, for a column of more than two values with ``--positive`` one of them, the note that
    every other value is the negative class (None for a column of two)."""
    cells, codes = _levels(text)
    absent = np.flatnonzero(np.array([c is None for c in cells])[codes])
    if len(absent):
        raise DataError(f"{source}: target column {name!r} has {len(absent)} missing values "
                        f"(first on {locate(int(absent[0]))}); every row needs a label: leave the rows without "
                        "one out of the file")
    texts = [c.strip() for c in cells[:-1]]  # in order of first appearance
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
    rest = None
    if len(levels) > 2:
        shown = ", ".join(repr(v) for v in levels[:5]) + (", ..." if len(levels) > 5 else "")
        named = [v for v in levels if positive is not None and _same_label(v, positive)]
        if not named:
            which = "" if positive is None else f" (--positive {positive} is none of them)"
            raise DataError(f"{source}: target column {name!r} holds {len(levels)} classes ({shown}){which}; name the "
                            f"positive one with --positive (--positive {levels[0]}: {levels[0]!r} against the "
                            "others, which are then the negative class)")
        others = [v for v in levels if v != named[0]]
        listed = ", ".join(repr(v) for v in others[:5]) + (", ..." if len(others) > 5 else "")
        rest = (f"target column {name!r} holds {len(levels)} classes: {named[0]!r} is the positive class and the "
                f"other {len(others)} ({listed}) the negative one")
    if positive is None:
        chosen = _default_positive(levels)
        if chosen is None:
            raise DataError(f"{source}: target column {name!r} holds {levels[0]!r} and {levels[1]!r}; "
                            f"say which is positive with --positive {levels[0]} or --positive {levels[1]}")
    else:
        matches = [v for v in levels if _same_label(v, positive)]
        if not matches:
            near = [v for v in levels if v.strip().casefold() == str(positive).strip().casefold()]
            hint = f"; values are matched as written: --positive {near[0]}" if near else ""
            raise DataError(f"{source}: --positive {positive!r} is not a value of column {name!r} "
                            f"(it holds {levels[0]!r} and {levels[1]!r}{hint})")
        chosen = matches[0]
    y = np.where(np.array([key(c) == key(chosen) for c in texts] + [False])[codes], 1, -1).astype(np.int8)
    number = _number(chosen)
    if number is not None and all(_number(v) is not None for v in levels):
        return y, int(number) if number.is_integer() else number, rest
    return y, chosen, rest


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
