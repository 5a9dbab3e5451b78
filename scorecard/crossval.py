"""``scorecard cv``: stratified K-fold cross-validation along a grid of C0 values.

The folds, the fits and the one-standard-error rule live in the trainer
(``trainer/folds.py``), shared with ``--c0 auto`` (``trainer/select.py``); this module adds
what only the command prints: the cells of its table.
"""
from __future__ import annotations

import math

from scorecard.trainer.folds import (  # noqa: F401  (the cv command's names, re-exported)
    COLUMNS,
    INFEASIBLE,
    FoldResult,
    GridPoint,
    c0_grid,
    error_rate,
    grid_points,
    model_size,
    one_standard_error,
    run,
    stratified_folds,
    summarize,
    ZERO_ONE,
)


def cell(value: object) -> str:
    """A table or CSV cell: floats to 4 significant digits, None empty."""
    if value is None:
        return ""
    if isinstance(value, float):
        return "inf" if math.isinf(value) else f"{value:.4g}"
    return str(value)
