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
from scorecard.runtime.score import contribution, decide

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
    # Scoring needs only the inputs the model uses; a golden row keeps every column of its
    # data row, so whole records are built for the picked rows alone (wide data stays fast).
    used = [inp.name for inp in model.used_inputs]
    columns = {name: [plain(v) for v in frame[name].tolist()] for name in used}
    rows = [{name: columns[name][i] for name in used} for i in range(n)]
    scores = [score(model, r) for r in rows]
    picked: list[int] = []

    def take(i: int | None) -> None:
        if i is not None and i not in picked:
            picked.append(i)

    for term in model.terms:
        values = [r[term.input] for r in rows]
        if term.op == "linear":
            numbers = np.array(values, dtype=float)
            take(int(np.argmin(numbers)))
            take(int(np.argmax(numbers)))
        else:
            on = [contribution(term, v) != 0 for v in values]
            take(next((i for i in range(n) if on[i]), None))
            take(next((i for i in range(n) if not on[i]), None))
    valued = [(s, i) for i, s in enumerate(scores) if s is not None]
    threshold = model.threshold
    above = sorted((s, i) for s, i in valued if s > threshold)
    below = sorted(((-s, i) for s, i in valued if s <= threshold))
    for _, i in below[:BOUNDARY_ROWS] + above[:BOUNDARY_ROWS]:
        take(i)
    picked = picked[:MAX_ROWS - 1]
    golden = [GoldenRow(row=_record(frame, i), score=scores[i], prediction=decide(scores[i], threshold)) for i in sorted(picked)]
    if blank is not None:
        row = _record(frame, picked[0] if picked else 0)
        row[blank] = None
        s = score(model, row)
        golden.append(GoldenRow(row=row, score=s, prediction=decide(s, threshold)))
    return tuple(golden)


def with_golden(model: Model, frame: pd.DataFrame, blank: str | None = None) -> Model:
    """``model`` with its golden rows filled in."""
    return replace(model, golden=choose(model, frame, blank))
