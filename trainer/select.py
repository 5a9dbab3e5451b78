"""``--c0 auto``: choose the card by stratified K-fold cross-validation and the one-standard-error rule.

K = 5 (fewer when the smaller class has fewer rows), folds dealt by ``--seed``. The
candidates are the logistic-loss cards of 1 to ``--max-items`` items of the logistic path
(``logistic_cv.py``: FasterRisk's method, on more dealings of the folds since they cost
milliseconds), the 0-1-loss cards of the C0 grid :func:`folds.c0_grid` (about 1/N to 0.05)
for plain SLIM, and the empty card (the majority class: the baseline). The chosen card is the
smallest within one standard error of the best mean measure (:func:`folds.one_standard_error`;
Hastie, Tibshirani & Friedman, The Elements of Statistical Learning, 2nd ed., Section 7.10);
the empty card only when no card beats it.

The measure: the misclassification error on the rows a card did not see (weighted by
``--w-pos``), or, when the outcome is rare (the smaller class under RARE of the rows, at
``--w-pos`` 0.5), the logistic loss of the cards' risks on those rows. With a rare outcome the
error rate cannot tell a useful risk score from the majority class (Caravan, 6 % positive:
every card's error is about 6 %), while the logistic loss rewards risks that rank and are
calibrated; only cards with risks compete then (the logistic-loss cards and the empty one).

Every fit is bounded by work, never by the clock: the logistic cards count their work, and
each 0-1 fit of the folds gets FOLD_WORK of ``--work-limit`` (the final fit gets all of it),
so the choice is the same on any machine under any load; the deadline is a safety net. The
caller (``train.py``) trains the chosen kind on every row and records the selection in the
model file (``training.selection``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Optional

import numpy as np
from scorecard.runtime import Model
from scorecard.runtime.errors import ConfigError

from . import logistic_cv
from .data.prepare import LabeledData
from .folds import (EMPTY, ERROR, LOG_LOSS, LOGISTIC, RULE, ZERO_ONE, FoldResult, GridPoint, c0_grid, grid_points,
                    one_standard_error, run, smaller_class)
from .options.config import TrainConfig
from .solvers.options import Deadline
from .solvers.progress import announce

AUTO = "auto"
FOLDS = 5
#: Most of the cross-validation's time the logistic cards may take (their work is counted;
#: this only guards a loaded machine).
LOGISTIC_SHARE = 0.4
#: Share of ``--work-limit`` each 0-1 fit of the folds gets: the cross-validation estimates how
#: well a C0's card does on new rows, which a short search tells as well as a long one; the
#: final card on every row gets the whole budget.
FOLD_WORK = 0.05
#: A smaller class under this share of the rows is a rare outcome (:data:`folds.LOG_LOSS`).
RARE = 0.2


@dataclass(frozen=True)
class Selection:
    """The outcome of ``--c0 auto``: the folds, the candidates' points, the measure that
    compared them and the card chosen: a C0 of the 0-1 grid (``chosen``), a logistic card of
    ``items`` items (``loss`` "logistic", ``chosen`` None) or the empty card (``loss`` "empty")."""

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
    measure: str = ERROR

    def record(self) -> dict:
        """The model file's ``training.selection`` (``w_pos`` only when the errors are weighted)."""
        out = {"method": "cv", "folds": self.folds, "rule": RULE, "measure": self.measure,
               "grid": [p.record() for p in self.points]}
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


def measure_for(data: LabeledData, config: TrainConfig) -> str:
    """LOG_LOSS for a rare outcome (the smaller class under RARE of the rows, classes not
    reweighted by --w-pos), else ERROR."""
    share = smaller_class(data.y) / max(1, len(data.y))
    return LOG_LOSS if share < RARE and config.w_pos == 0.5 else ERROR


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
    """Cross-validate ``config`` (its c0 is "auto"): the logistic cards where they are offered
    (:func:`logistic_cv.offered`), the empty card, and, under the error measure, the 0-1 cards
    of the grid (each fit with FOLD_WORK of the work limit), within ``deadline`` (a safety net).

    fit: the training function (``train.train`` with a numeric C0); folds: K (``scorecard cv
    --folds``; fewer when the smaller class has fewer rows); on_result: each 0-1 fold's row and
    each C0's summary as it comes (the cv command prints them). When no candidate found a model
    in every fold, the middle of the grid is taken (the final fit then says whether a model
    exists)."""
    k = folds_for(smaller_class(data.y), folds)
    measure = measure_for(data, config)
    logistic: list[GridPoint] = []
    numeric = config.with_options(c0=middle_c0(len(data.y)))  # the problem needs a number; no C0 enters the path
    problem = logistic_cv.offered(data, numeric)
    if problem is not None:
        announce(progress, f"cross-validation: the logistic-loss cards of 1 to {config.max_items} items, {k} folds")
        logistic = logistic_cv.cross_validate(data, numeric, k, deadline.part(LOGISTIC_SHARE, config.work_limit),
                                              columns=problem.n_columns)
    empty = [logistic_cv.empty_point(data, k, config.seed, config.w_pos)]
    if measure == LOG_LOSS and logistic:  # only cards with risks compete
        best = one_standard_error(logistic + empty, config.max_items, measure)
        return _chosen(best, Selection(folds=k, points=tuple(logistic + empty), chosen=None, w_pos=config.w_pos,
                                       measure=measure), len(data.y))
    grid = c0_grid(len(data.y))
    out_of_fold = {c0: np.full(len(data.y), np.nan) for c0 in grid}

    def keep(c0: float, test: np.ndarray, margin: np.ndarray) -> None:
        out_of_fold[c0][test] = margin

    fold_config = config if config.work_limit is None else config.with_options(work_limit=FOLD_WORK * config.work_limit)
    # From the middle of the grid outwards: a run cut short by its deadline loses the ends (middle_out).
    results = run(data, fold_config, k, middle_out(grid), fit, on_result=on_result, progress=progress,
                  deadline=deadline, on_model=keep)
    points = sorted(grid_points(results), key=lambda p: p.c0) + logistic + empty
    best = one_standard_error(points, config.max_items)
    selection = Selection(folds=k, points=tuple(points), chosen=None, results=tuple(results), w_pos=config.w_pos)
    if best is not None and best.loss == EMPTY and logistic and config.w_pos == 0.5:
        # no card beats the majority class's error: the cards' risks may still rank the rows
        # (birthwt: every card's error within a row of the majority's); they compete on the
        # logistic loss, as for a rare outcome, and the empty card stays only if none beats it
        best = one_standard_error(logistic + empty, config.max_items, LOG_LOSS)
        selection = replace(selection, measure=LOG_LOSS)
    chosen = _chosen(best, selection, len(data.y))
    return chosen if chosen.loss != ZERO_ONE else replace(chosen, margins=out_of_fold[chosen.chosen])


def _chosen(best: GridPoint | None, selection: Selection, n_rows: int) -> Selection:
    """``selection`` with ``best`` as its choice (the middle of the grid when there is none)."""
    if best is None:
        return replace(selection, loss=ZERO_ONE, chosen=middle_c0(n_rows))
    if best.loss == ZERO_ONE:
        return replace(selection, loss=ZERO_ONE, chosen=best.c0)
    return replace(selection, loss=best.loss, items=best.items)


def recommendation(selection: Selection) -> str:
    """The chosen candidate in words (``scorecard cv`` prints it)."""
    if selection.loss == LOGISTIC:
        return f"the logistic-loss card of {selection.items} item{'' if selection.items == 1 else 's'}"
    if selection.loss == EMPTY:
        return "the empty card (no card beats the majority class on the rows it did not see)"
    return f"the 0-1-loss card at C0 = {selection.chosen:g}"


def middle_c0(n_rows: int) -> float:
    """The middle of the grid: the C0 taken when no candidate found a model in every fold."""
    grid = c0_grid(n_rows)
    return grid[len(grid) // 2]


def zero_one_choice(selection: Selection, n_rows: int, max_items: int) -> Selection:
    """``selection`` with the rule applied to its 0-1 points alone (the middle of the grid
    without any): the fallback when the chosen logistic card cannot be trained on all rows."""
    best = one_standard_error((p for p in selection.points if p.loss == ZERO_ONE), max_items)
    return replace(selection, loss=ZERO_ONE, items=None, chosen=best.c0 if best is not None else middle_c0(n_rows))

