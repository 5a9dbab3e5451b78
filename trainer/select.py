"""``--c0 auto``: choose C0 by stratified K-fold cross-validation and the one-standard-error rule.

K = 5 (fewer when the smaller class has fewer rows), folds dealt by ``--seed``; the grid is
:func:`folds.c0_grid` (about 1/N to 0.05); the chosen C0 is the smallest model within one
standard error of the best mean test error (:func:`folds.one_standard_error`). The caller
(``train.py``) trains the final model on every row with it and records the grid in the model
file (``training.selection``). The deadline given here is the share of the command's time
for the cross-validation; each fit gets an equal share of what is left of it, from the
middle of the grid outwards (:func:`middle_out`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np
from scorecard.runtime import Model
from scorecard.runtime.errors import ConfigError

from .data.prepare import LabeledData
from .folds import RULE, FoldResult, GridPoint, c0_grid, grid_points, margins, one_standard_error, run, smaller_class
from .options.config import TrainConfig
from .solvers.options import Deadline

AUTO = "auto"
FOLDS = 5


@dataclass(frozen=True)
class Selection:
    """The outcome of ``--c0 auto``: the folds, the grid's points and the C0 chosen."""

    folds: int
    points: tuple[GridPoint, ...]
    chosen: float
    results: tuple[FoldResult, ...] = ()
    #: Out-of-fold margins at the chosen C0: each row's score minus the threshold of the fold
    #: model that did not see it (NaN where that fold found no model or the row no score).
    margins: np.ndarray | None = None

    def record(self) -> dict:
        """The model file's ``training.selection``."""
        return {"method": "cv", "folds": self.folds, "rule": RULE,
                "grid": [p.record() for p in self.points], "chosen": self.chosen}


def folds_for(n_smaller: int) -> int:
    """K: FOLDS, or fewer when the smaller class has fewer rows (ConfigError below 2)."""
    if n_smaller < 2:
        raise ConfigError(f"--c0: 'auto' is not valid here; the smaller class has {n_smaller} row(s), too few "
                          "to cross-validate; use a number (e.g. --c0 0.01)")
    return min(FOLDS, n_smaller)


def middle_out(grid: tuple[float, ...]) -> tuple[float, ...]:
    """The order ``--c0 auto`` cross-validates the grid in: from its middle outwards, the
    sparser neighbour first (0.0086, 0.021, 0.0035, 0.05, 0.0015).

    Each fit gets an equal share of the time left, and fits whose turn comes after the
    deadline are skipped (``folds.run``); on a busy machine the first C0 values' fits overrun
    their shares and the last ones go missing. In ascending order that left the rule only the
    densest C0 (pima, two jobs at once: 0.0027, 23 items on average); from the sparse end,
    only the sparsest (credit at load 8: C0 0.05, an empty card). From the middle, what a
    short run loses are the two ends of the range, and what it keeps starts where the
    fallback of :func:`choose_c0` (no C0 complete) already takes its C0."""
    middle = len(grid) // 2
    return tuple(grid[k] for k in sorted(range(len(grid)), key=lambda k: (abs(k - middle), -grid[k])))


def choose_c0(data: LabeledData, config: TrainConfig, deadline: Deadline, progress: Optional[Callable] = None, *,
              fit: Callable[..., Model], work_limit: float | None = None,
              on_result: Callable[[FoldResult], None] = lambda r: None) -> Selection:
    """Cross-validate ``config`` (its c0 is "auto") along the grid within ``deadline``.

    fit: the training function (``train.train`` with a numeric C0). When no C0 of the grid
    found a model in every fold, the middle of the grid is taken (the final fit then says
    whether a model exists)."""
    k = folds_for(smaller_class(data.y))
    grid = c0_grid(len(data.y))
    extra = {} if work_limit is None else {"work_limit": work_limit}
    out_of_fold = {c0: np.full(len(data.y), np.nan) for c0 in grid}

    def keep(c0: float, test: np.ndarray, model: Model, test_data: LabeledData) -> None:
        out_of_fold[c0][test] = margins(model, test_data)

    # From the middle of the grid outwards: a run short of time loses the ends (middle_out).
    results = run(data, config, k, middle_out(grid), fit, on_result=on_result, progress=progress,
                  deadline=deadline, on_model=keep, **extra)
    points = sorted(grid_points(results), key=lambda p: p.c0)
    best = one_standard_error(points)
    chosen = best.c0 if best is not None else grid[len(grid) // 2]
    return Selection(folds=k, points=tuple(points), chosen=chosen, results=tuple(results),
                     margins=out_of_fold[chosen])
