"""``--c0 auto``: choose the card by stratified K-fold cross-validation and the one-standard-error rule.

K = 5 (fewer when the smaller class has fewer rows), folds dealt by ``--seed``. The
candidates are the 0-1-loss cards of the C0 grid :func:`folds.c0_grid` (about 1/N to 0.05)
and, for plain SLIM, the logistic-loss cards of 1 to 10 items of the logistic path
(``logistic_cv.py``: FasterRisk's method, on more dealings of the folds since they cost
milliseconds); the chosen card is the smallest within one standard error of the best mean
test error (:func:`folds.one_standard_error`; Hastie, Tibshirani & Friedman, The Elements of
Statistical Learning, 2nd ed., Section 7.10). The caller (``train.py``) trains the chosen kind
on every row (the exact 0-1 search at the chosen C0, or the logistic card of the chosen size)
and records the grid in the model file (``training.selection``). The deadline given here is
the share of the command's time for the cross-validation: the logistic cards first, within
LOGISTIC_SHARE of it at most (a safety net: their work is counted, not timed), then each 0-1
fit an equal share of what is left, from the middle of the grid outwards (:func:`middle_out`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Optional

import numpy as np
from scorecard.runtime import Model
from scorecard.runtime.errors import ConfigError

from . import logistic_cv
from .data.prepare import LabeledData
from .folds import (LOGISTIC, RULE, ZERO_ONE, FoldResult, GridPoint, c0_grid, grid_points, one_standard_error,
                    run, smaller_class)
from .options.config import TrainConfig
from .solvers.options import Deadline

AUTO = "auto"
FOLDS = 5
#: Most of the cross-validation's time the logistic cards may take (their work is counted;
#: this only guards a loaded machine).
LOGISTIC_SHARE = 0.4


@dataclass(frozen=True)
class Selection:
    """The outcome of ``--c0 auto``: the folds, the candidates' points and the card chosen:
    a C0 of the 0-1 grid (``chosen``) or a logistic card of ``items`` items (``loss``
    "logistic", ``chosen`` None)."""

    folds: int
    points: tuple[GridPoint, ...]
    chosen: float | None
    results: tuple[FoldResult, ...] = ()
    #: Out-of-fold margins at the chosen C0: each row's score minus the threshold of the fold
    #: model that did not see it (NaN where that fold found no model or the row no score).
    margins: np.ndarray | None = None
    loss: str = ZERO_ONE
    items: int | None = None
    #: ``--w-pos``: the errors are weighted by class (``folds.weighted_error``) unless 0.5.
    w_pos: float = 0.5

    def record(self) -> dict:
        """The model file's ``training.selection`` (``w_pos`` only when the errors are weighted)."""
        out = {"method": "cv", "folds": self.folds, "rule": RULE, "grid": [p.record() for p in self.points]}
        if self.w_pos != 0.5:
            out["w_pos"] = self.w_pos
        if self.loss == ZERO_ONE:
            return out | {"chosen": self.chosen}
        return out | {"loss": self.loss, "items": self.items}


def folds_for(n_smaller: int, folds: int = FOLDS) -> int:
    """K: ``folds``, or fewer when the smaller class has fewer rows (ConfigError below 2)."""
    if n_smaller < 2:
        raise ConfigError(f"--c0: 'auto' is not valid here; the smaller class has {n_smaller} row(s), too few "
                          "to cross-validate; use a number (e.g. --c0 0.01)")
    return min(folds, n_smaller)


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
              fit: Callable[..., Model], folds: int = FOLDS,
              on_result: Callable[[FoldResult], None] = lambda r: None) -> Selection:
    """Cross-validate ``config`` (its c0 is "auto") along the grid within ``deadline``, with
    the logistic cards beside it where they are offered (:func:`logistic_cv.offered`).

    fit: the training function (``train.train`` with a numeric C0); folds: K (``scorecard cv
    --folds``; fewer when the smaller class has fewer rows); on_result: each 0-1 fold's row and
    each C0's summary as it comes (the cv command prints them). When no candidate found a model
    in every fold, the middle of the grid is taken (the final fit then says whether a model
    exists)."""
    k = folds_for(smaller_class(data.y), folds)
    grid = c0_grid(len(data.y))
    out_of_fold = {c0: np.full(len(data.y), np.nan) for c0 in grid}

    def keep(c0: float, test: np.ndarray, margin: np.ndarray) -> None:
        out_of_fold[c0][test] = margin

    logistic: list[GridPoint] = []
    numeric = config.with_options(c0=middle_c0(len(data.y)))  # the problem needs a number; no C0 enters the path
    problem = logistic_cv.offered(data, numeric)
    if problem is not None:
        logistic = logistic_cv.cross_validate(data, numeric, k, deadline.part(LOGISTIC_SHARE, config.work_limit),
                                              columns=problem.n_columns)
    # From the middle of the grid outwards: a run short of time loses the ends (middle_out).
    results = run(data, config, k, middle_out(grid), fit, on_result=on_result, progress=progress,
                  deadline=deadline, on_model=keep)
    points = sorted(grid_points(results), key=lambda p: p.c0) + logistic
    best = one_standard_error(points)
    if best is not None and best.loss == LOGISTIC:
        return Selection(folds=k, points=tuple(points), chosen=None, results=tuple(results), loss=LOGISTIC,
                         items=best.items, w_pos=config.w_pos)
    chosen = best.c0 if best is not None else middle_c0(len(data.y))
    return Selection(folds=k, points=tuple(points), chosen=chosen, results=tuple(results),
                     margins=out_of_fold[chosen], w_pos=config.w_pos)


def middle_c0(n_rows: int) -> float:
    """The middle of the grid: the C0 taken when no candidate found a model in every fold."""
    grid = c0_grid(n_rows)
    return grid[len(grid) // 2]


def zero_one_choice(selection: Selection, n_rows: int) -> Selection:
    """``selection`` with the rule applied to its 0-1 points alone (the middle of the grid
    without any): the fallback when the chosen logistic card cannot be trained on all rows."""
    best = one_standard_error(p for p in selection.points if p.loss == ZERO_ONE)
    return replace(selection, loss=ZERO_ONE, items=None, chosen=best.c0 if best is not None else middle_c0(n_rows))

