"""Golden rows: real training rows every export must score exactly like the runtime.

Chosen to exercise the whole model (docs/contract.md, "The model file"): for every term a row where
it applies and one where it does not (for a ``linear`` term, the rows with the smallest and
the largest value of its input), the rows closest to the decision boundary on each side
(the threshold and one above it for integer scores), and, when the data had missing values, a row with a
used input blanked (no score under ``"null"``, the imputed score under imputation, the
score of a value that meets no condition but "unknown" under ``"unmet"``, where the trainer
adds it even when the data had none). Deterministic:
the first qualifying row in data order wins.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd
from scorecard.runtime import GoldenRow, Model, score
from scorecard.runtime.score import decide

from .vectorised import frame_columns, met, totals

MAX_ROWS = 30
BOUNDARY_ROWS = 2  # per side of the boundary


def plain(value: object) -> object:
    """A JSON-friendly Python value: integral floats as int, numpy scalars unwrapped."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if value.is_integer() and abs(value) < 2**53:
            return int(value)
    return value


def _record(frame: pd.DataFrame, i: int) -> dict:
    return {name: plain(frame.iat[i, k]) for k, name in enumerate(frame.columns)}


def choose(model: Model, frame: pd.DataFrame, blank: str | None = None) -> tuple[GoldenRow, ...]:
    """The golden rows of ``model`` from the training ``frame`` (its rows in data order);
    ``blank`` names an input to leave empty in one extra row (the missing-value case)."""
    n = len(frame)
    if n == 0:
        return ()
    # Every row is scored at once (trainer/vectorised.py: the runtime's numbers); the runtime
    # scores the picked rows alone, and a golden row keeps every column of its data row.
    columns, scored = frame_columns(model, frame)
    total, _ = totals(model, columns, n)
    picked: list[int] = []

    def take(i: int | None) -> None:
        if i is not None and i not in picked:
            picked.append(i)

    for term in model.terms:
        if term.op == "linear":
            numbers = frame[term.input].to_numpy(dtype=float)
            take(int(np.argmin(numbers)))
            take(int(np.argmax(numbers)))
        else:
            on = met(term, columns[term.input]) & (term.points != 0)
            take(int(np.argmax(on)) if on.any() else None)
            take(int(np.argmax(~on)) if not on.all() else None)
    rows = np.flatnonzero(scored)
    values = total[rows]
    threshold = model.threshold
    above, below = values > threshold, values <= threshold
    for side, key in ((below, threshold - values), (above, values - threshold)):
        near, at = key[side], rows[side]
        if len(near) > BOUNDARY_ROWS:  # only rows as near as the BOUNDARY_ROWS-th nearest
            keep = near <= np.partition(near, BOUNDARY_ROWS - 1)[BOUNDARY_ROWS - 1]
            near, at = near[keep], at[keep]
        for i in at[np.lexsort((at, near))[:BOUNDARY_ROWS]]:
            take(int(i))
    picked = picked[:MAX_ROWS - 1]
    golden = []
    for i in sorted(picked):
        row = _record(frame, i)
        s = score(model, {name: row[name] for name in columns})
        golden.append(GoldenRow(row=row, score=s, prediction=decide(s, threshold)))
    if blank is not None:
        row = _record(frame, picked[0] if picked else 0)
        row[blank] = None
        s = score(model, row)
        golden.append(GoldenRow(row=row, score=s, prediction=decide(s, threshold)))
    return tuple(golden)


def with_golden(model: Model, frame: pd.DataFrame, blank: str | None = None) -> Model:
    """``model`` with its golden rows filled in."""
    return replace(model, golden=choose(model, frame, blank))
