"""From typed input columns to the design matrix the integer program reads.

Every design column remembers the raw condition it stands for (input, op, value, label), so
a coefficient found by the solver becomes a runtime :class:`Term` with no guessing. Under
``--numeric linear`` numeric and binary inputs enter as ``linear`` columns (points times the
value, as in the paper's Section 3.1 scoring systems); categorical inputs are one-hot coded
into ``==`` columns, one per level seen in training. Cut-off conditions ``x >= t`` (the
``--numeric cuts`` default, ``families.slim_design``) and the rules of M-of-N and TILM
(Section 3.3-3.4) are more :class:`Column` objects, made in ``binarize.py``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scorecard.runtime import Term

from .prepare import LabeledData


@dataclass(frozen=True)
class Column:
    """One design column: the condition a coefficient multiplies.

    ``op`` and ``value`` follow the runtime's :class:`Term`: ``linear`` (value None, the
    column holds the input itself), ``==``/``>=``/``<`` (a scalar), ``in`` (a tuple of levels),
    ``missing`` (value None: the input is unknown); the column then holds 1.0 where the
    condition holds and 0.0 elsewhere. A missing value (NaN, None: kept under the ``"unmet"``
    policy) meets no condition but ``missing``, as the runtime scores it.
    """

    input: str
    op: str
    value: object
    label: str

    def term(self, points: int | float) -> Term:
        """The scorecard row for this column worth ``points``."""
        return Term(input=self.input, op=self.op, value=self.value, points=points, label=self.label)

    def values(self, raw: pd.Series) -> np.ndarray:
        """The column computed from the raw input values (the runtime's meaning of the term)."""
        if self.op == "missing":
            return raw.isna().to_numpy(dtype=np.float64)
        if self.op == "linear":
            return raw.to_numpy(dtype=np.float64)
        if self.op == "==":
            return (raw == self.value).to_numpy(dtype=np.float64)
        if self.op == ">=":
            return (raw.to_numpy(dtype=np.float64) >= self.value).astype(np.float64)
        if self.op == "<":
            return (raw.to_numpy(dtype=np.float64) < self.value).astype(np.float64)
        return raw.isin(self.value).to_numpy(dtype=np.float64)


@dataclass(frozen=True)
class Design:
    """The design matrix ``X`` (rows of the data x ``columns``, float64) and its columns."""

    columns: tuple[Column, ...]
    X: np.ndarray

    def extend(self, data: LabeledData, columns: list[Column]) -> "Design":
        """This design with more columns computed from ``data`` (e.g. thresholds)."""
        return build(data, list(self.columns) + list(columns))


#: Rows of the training data a level of a text column must hold to be a condition of its own
#: (``--min-level-rows``).
MIN_LEVEL_ROWS = 10


def levels_of(data: LabeledData, name: str) -> list:
    """Every level of categorical input ``name``: the input's own list, else those seen."""
    inp = next(i for i in data.inputs if i.name == name)
    return list(inp.categories) if inp.categories is not None else sorted(set(data.frame[name].dropna()))


def offered_levels(data: LabeledData, name: str, min_rows: int = MIN_LEVEL_ROWS) -> list:
    """The levels of categorical input ``name`` held by at least ``min_rows`` rows of ``data``
    (grouped rows counted with their counts), in :func:`levels_of`'s order. A rarer level is no
    condition of its own: the points of a handful of rows are noise (a level of 4 rows that all
    had the outcome is worth 10 points to a logistic-loss card, and tells nothing about the
    next patient), and a column of hundreds of them (diagnosis codes, postcodes) swamps the
    search. Its rows meet none of the column's conditions."""
    column = data.frame[name]
    weights = np.ones(len(column)) if data.counts is None else np.asarray(data.counts, dtype=float)
    rows = pd.Series(weights, index=column.index).groupby(column, observed=True).sum()
    return [level for level in levels_of(data, name) if rows.get(level, 0) >= min_rows]


def input_columns(data: LabeledData, name: str, min_level_rows: int = MIN_LEVEL_ROWS) -> list[Column]:
    """Input ``name`` as the paper's SLIM reads it: one ``linear`` column for a numeric or
    binary input, one ``==`` column per category level (:func:`offered_levels`)."""
    inp = next(i for i in data.inputs if i.name == name)
    if inp.type == "categorical":
        return [Column(name, "==", level, f"{name} = {level}") for level in offered_levels(data, name, min_level_rows)]
    return [Column(name, "linear", None, name)]


def unknown_column(name: str) -> Column:
    """The condition "``name`` unknown" (op ``missing``), met exactly where the input is missing:
    offered under the ``"unmet"`` policy for an input with missing cells in training."""
    return Column(name, "missing", None, f"{name} unknown")


def has_unknown(data: LabeledData, name: str) -> bool:
    """True when ``data`` is kept with its missing cells (the ``"unmet"`` policy) and input
    ``name`` is missing on some of its rows but not all, so "``name`` unknown" tells rows apart."""
    if data.policy != "unmet":
        return False
    missing = int(data.frame[name].isna().sum())
    return 0 < missing < len(data.frame)


def default_columns(data: LabeledData, min_level_rows: int = MIN_LEVEL_ROWS) -> list[Column]:
    """One ``linear`` column per numeric/binary input, one ``==`` column per offered level."""
    columns: list[Column] = []
    for inp in data.inputs:
        columns += input_columns(data, inp.name, min_level_rows)
    return columns


def build(data: LabeledData, columns: list[Column]) -> Design:
    """The design with the given columns evaluated on ``data``."""
    X = np.zeros((len(data.frame), len(columns)), dtype=np.float64)
    for j, col in enumerate(columns):
        X[:, j] = col.values(data.frame[col.input])
    return Design(columns=tuple(columns), X=X)


def encode(data: LabeledData, min_level_rows: int = MIN_LEVEL_ROWS) -> Design:
    """The paper's SLIM design of ``data`` (linear numeric columns, one-hot categoricals:
    ``--numeric linear``; ``families.slim_design`` builds the cut-off default)."""
    return build(data, default_columns(data, min_level_rows))
