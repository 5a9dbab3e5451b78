"""Stratified K-fold cross-validation along a grid of C0 values, and the one-standard-error rule.

One implementation for ``scorecard cv`` (``scorecard/crossval.py`` prints it) and for
``--c0 auto`` (``select.py``). Each fold trains on K-1 parts and scores both parts as the
runtime scores them (the scoring every export reproduces; all rows at once,
trainer/vectorised.py), so the errors are those a user of the model would see. The training
function is passed in (``train``), so this module does not import the pipeline that uses it.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, fields
from typing import Callable, Iterable

import numpy as np
from scorecard.runtime import Model
from scorecard.runtime.errors import ConfigError, InfeasibleError, NoModelInTimeError

from .data.prepare import LabeledData
from .options.config import TrainConfig
from .options.spec import CARD_ITEMS
from .solvers.options import Deadline
from .solvers.progress import announce
from .vectorised import frame_scores

INFEASIBLE = "infeasible"
NO_MODEL = "no_model_in_time"
#: The largest C0 of the automatic grid: a feature must buy 5 % of training accuracy.
GRID_TOP = 0.05
#: Values of the automatic grid, spaced evenly on a log scale from about 1/N to GRID_TOP.
GRID_SIZE = 5
RULE = "one standard error"


@dataclass(frozen=True)
class FoldResult:
    """One line of the cv table; ``fold`` is 1..K, or "all" for the summary of a C0 value."""

    c0: float
    fold: int | str
    train_error: float | None
    test_error: float | None
    size: float | None
    seconds: float
    status: str
    gap: float | None


COLUMNS = tuple(f.name for f in fields(FoldResult))


def stratified_folds(y: np.ndarray, k: int, seed: int) -> list[np.ndarray]:
    """Test positions of each of ``k`` folds, each class dealt evenly after a seeded shuffle."""
    smallest = smaller_class(y)
    if not 2 <= k <= smallest:
        raise ConfigError(f"--folds: {k} is not valid; use 2..{smallest} (the smaller class has {smallest} rows)")
    rng = np.random.default_rng(seed)
    folds: list[list[int]] = [[] for _ in range(k)]
    offset = 0
    for label in (1, -1):
        rows = rng.permutation(np.flatnonzero(y == label))
        for j, row in enumerate(rows):
            folds[(j + offset) % k].append(int(row))
        offset += len(rows)
    return [np.array(sorted(f)) for f in folds]


def smaller_class(y: np.ndarray) -> int:
    """Rows of the less frequent label."""
    return min(int((y == 1).sum()), int((y == -1).sum()))


def error_rate(model: Model, data: LabeledData, w_pos: float = 0.5) -> float:
    """Share of rows whose runtime prediction differs from the label (each grouped row counted
    as the rows it stands for, ``data.counts``), each row weighted by its class as the 0-1 loss
    weighs it (``--w-pos``; :func:`weighted_error`)."""
    return margin_error(margins(model, data), data, w_pos)


def margin_error(margin: np.ndarray, data: LabeledData, w_pos: float) -> float:
    """:func:`error_rate` from the rows' :func:`margins`: predicted positive where the score is
    above the threshold (a difference of doubles is > 0 exactly then), negative where the row
    has no score (NaN), as ``predict``'s None."""
    return weighted_error((margin > 0) != (data.y == 1), data, w_pos)


def weighted_error(wrong: np.ndarray, data: LabeledData, w_pos: float) -> float:
    """The share of ``data``'s weight on the rows ``wrong`` marks: a positive row weighs
    ``w_pos``, a negative one 1 - ``w_pos`` (times its count), as in the 0-1 loss of training
    (the paper's weighted loss, Section 2.6: a rare outcome weighted up). At 0.5 it is the share
    of rows wrong. Cross-validation compares candidates by it, so --w-pos chooses the card too,
    as the paper's Section 6 reports weighted CV errors for the data sets it trains weighted."""
    weight = np.where(data.y > 0, w_pos, 1.0 - w_pos)
    if data.counts is not None:
        weight = weight * data.counts
    return float(weight[wrong].sum() / weight.sum())


def margins(model: Model, data: LabeledData) -> np.ndarray:
    """Each row's score minus the model's threshold (NaN where the row has no score): what the
    risk calibration of ``--c0 auto`` fits out of fold (trainer/calibrate.py)."""
    total, scored = frame_scores(model, data.frame)
    return np.where(scored, total - model.threshold, math.nan)


def model_size(model: Model) -> int:
    """Number of non-zero coefficients (terms with points), as the paper counts model size."""
    return sum(1 for t in model.terms if t.points != 0)


def c0_grid(n_rows: int) -> tuple[float, ...]:
    """The C0 values ``--c0 auto`` compares: GRID_SIZE values, evenly spaced on a log scale,
    from about one training row's worth of error (1/N: a feature must fix at least one row)
    to GRID_TOP, rounded to two significant digits. (The paper's grid, benchmarks/paper_table.py,
    spans 0.001 to 0.075 with 0.9/NP added; this one follows N instead of fixed values.)"""
    top = GRID_TOP
    low = min(1.0 / max(n_rows, 1), top / 10)
    values = [low * (top / low) ** (k / (GRID_SIZE - 1)) for k in range(GRID_SIZE)]
    return tuple(sorted({float(f"{v:.2g}") for v in values}))


def run(data: LabeledData, config: TrainConfig, folds: int, c0_grid: tuple[float, ...],
        train: Callable[..., Model], infeasible: type[Exception] = InfeasibleError,
        on_result: Callable[[FoldResult], None] = lambda r: None,
        progress: Callable | None = None, deadline: Deadline | None = None,
        on_model: Callable[[float, np.ndarray, np.ndarray], None] = lambda c0, test, margin: None,
        **train_options) -> list[FoldResult]:
    """Every fold of every C0 value, each C0 followed by its summary row.

    deadline: when the whole run must end: each fit gets an equal share of the time left for
    the fits left (under ``config.work_limit``, which bounds each fit, all of it: a safety net
    only), and a fit whose turn comes after it is a row without errors (on wide data a fit
    costs more than its share; the grid's later C0 values are then left out). None: each fit
    gets ``config.time_limit`` of its own. A fold with no model within the constraints
    (``infeasible``) or within its time is a row without errors.
    ``on_model(c0, test rows, their margins)`` sees each fold model's :func:`margins` of the
    rows it did not see (its test error comes from the same scores). ``train_options`` go to every ``train`` call.
    """
    parts = stratified_folds(data.y, folds, config.seed)
    everything = np.arange(len(data.y))
    results: list[FoldResult] = []
    fits_left = len(c0_grid) * len(parts)
    for c0 in c0_grid:
        cfg = config.with_options(c0=c0)
        per_c0 = []
        for number, test in enumerate(parts, start=1):
            fit_rows = np.setdiff1d(everything, test)
            fit_data = data.subset(fit_rows).impute_with()
            test_data = data.subset(test).impute_with(fit_data.imputed)
            share = {} if deadline is None else {"deadline": deadline.part(1 / fits_left, config.work_limit)}
            fits_left -= 1
            announce(progress, f"cross-validation: C0 {c0:g}, fold {number} of {len(parts)}")
            try:
                if deadline is not None and deadline.remaining() <= 0:
                    raise NoModelInTimeError("no time left for this fold")  # the run's time is spent
                model = train(fit_data, cfg, progress=progress, **share, **train_options)
            except NoModelInTimeError:  # before its base class InfeasibleError
                result = FoldResult(c0, number, None, None, None, 0.0, NO_MODEL, None)
            except infeasible:
                result = FoldResult(c0, number, None, None, None, 0.0, INFEASIBLE, None)
            else:
                if model.training is not None and model.training.status == "interrupted":
                    raise KeyboardInterrupt  # Ctrl-C stopped this fit: the whole run stops, not just the fold
                test_margins = margins(model, test_data)
                on_model(c0, test, test_margins)
                t = model.training
                result = FoldResult(c0, number, error_rate(model, fit_data, config.w_pos),
                                    margin_error(test_margins, test_data, config.w_pos),
                                    model_size(model), t.seconds if t else 0.0, t.status if t else "unknown",
                                    t.gap if t else None)
            per_c0.append(result)
            on_result(result)
        summary = summarize(c0, per_c0)
        results.extend(per_c0 + [summary])
        on_result(summary)
    return results


def summarize(c0: float, rows: list[FoldResult]) -> FoldResult:
    """Mean errors, median size, total time, the statuses seen and the largest gap; no means
    when a fold found no model (an average of the others would hide it: the status then
    says how many folds have one, ``3 of 5 folds``)."""
    solved = [r for r in rows if r.test_error is not None]

    def mean(name: str) -> float | None:
        return statistics.fmean(getattr(r, name) for r in solved) if solved and len(solved) == len(rows) else None

    statuses = sorted({r.status for r in rows})
    if len(solved) < len(rows):
        statuses = [f"{len(solved)} of {len(rows)} folds"] + statuses
    gaps = [r.gap for r in solved if r.gap is not None]
    return FoldResult(
        c0=c0, fold="all", train_error=mean("train_error"), test_error=mean("test_error"),
        size=statistics.median(r.size for r in solved) if solved else None,
        seconds=sum(r.seconds for r in rows), status="+".join(statuses), gap=max(gaps) if gaps else None)


# ------------------------------------------------------------------ the one-standard-error rule


ZERO_ONE = "zero-one"
LOGISTIC = "logistic"
#: The candidate with no item: every row gets the training rows' majority class (and their
#: base rate as its risk); the baseline the rule compares every card with.
EMPTY = "empty"
#: What the rule compares: the misclassification error (weighted by --w-pos), or, for a rare
#: outcome, the logistic loss of the cards' risks on the rows they did not see.
ERROR = "error"
LOG_LOSS = "log-loss"


@dataclass(frozen=True)
class GridPoint:
    """One candidate of the rule over its folds: mean test error, its standard error (the
    fold errors' standard deviation / sqrt(their number)), mean model size and mean training
    error. A 0-1-loss point is a C0 of the grid (``c0``); a logistic-loss point is the card of
    ``items`` items of the logistic path (``loss`` "logistic", ``c0`` None: no C0 enters it);
    the empty card is ``loss`` "empty". ``log_loss``/``log_loss_se``/``auc``: the mean test
    logistic loss of its risks, its standard error and the mean test AUC, where the candidate
    has risks (logistic cards and the empty card)."""

    c0: float | None
    test_error: float
    se: float
    size: float
    train_error: float
    loss: str = ZERO_ONE
    items: int | None = None
    log_loss: float | None = None
    log_loss_se: float | None = None
    auc: float | None = None

    def value(self, measure: str) -> tuple[float, float]:
        """(mean, standard error) of ``measure`` on the test folds."""
        if measure == LOG_LOSS:
            return self.log_loss, self.log_loss_se
        return self.test_error, self.se

    def record(self) -> dict:
        """As the model file's ``training.selection.grid`` holds it."""
        out = {"test_error": self.test_error, "se": self.se, "size": self.size, "train_error": self.train_error}
        if self.log_loss is not None:
            out |= {"log_loss": self.log_loss, "log_loss_se": self.log_loss_se, "auc": self.auc}
        if self.loss == ZERO_ONE:
            return {"c0": self.c0} | out
        return {"loss": self.loss, "items": self.items} | out


def grid_points(results: Iterable[FoldResult]) -> list[GridPoint]:
    """The grid points of per-fold results (summary rows are ignored); a C0 with a fold that
    found no model is left out (its mean would hide the fold it lacks)."""
    by_c0: dict[float, list[FoldResult]] = {}
    for r in results:
        if r.fold != "all":
            by_c0.setdefault(r.c0, []).append(r)
    points = []
    for c0, rows in by_c0.items():
        if any(r.test_error is None for r in rows):
            continue
        tests = [r.test_error for r in rows]
        points.append(GridPoint(c0, statistics.fmean(tests), standard_error(tests),
                                statistics.fmean(r.size for r in rows), statistics.fmean(r.train_error for r in rows)))
    return points


def standard_error(values: list[float]) -> float:
    """The standard error of the mean of ``values`` (0 for one value)."""
    return statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def one_standard_error(points: Iterable[GridPoint], max_size: float | None = CARD_ITEMS,
                       measure: str = ERROR) -> GridPoint | None:
    """The smallest card within one standard error of the best mean ``measure``.

    The cards compete: candidates of at least one item on average and at most ``max_size``
    (``--max-items``) when there are any (credit scoring: 26 items at 21.7 % against 7 at
    22.7 %; the card of 7 is the one a person can use). Among them, those whose mean is at
    most the best mean plus that best point's standard error; of those, the one with the
    smallest mean model size; on a tie of size, a 0-1-loss card (its optimality can be
    proven) and then the larger C0 (the sparser pressure); a C0 whose folds average under one
    item is no card. The empty card is chosen only when its mean is lower than every card's:
    when no item improves the measure on rows the cards did not see. None for no points.
    """
    points = list(points)

    def sparser(p: GridPoint) -> tuple:
        return (p.loss != ZERO_ONE, -(p.c0 or 0.0), p.items or 0)

    def key(p: GridPoint) -> tuple:
        return (p.value(measure)[0], p.size, sparser(p))

    floor = min((p for p in points if p.loss == EMPTY), key=key, default=None)
    cards = [p for p in points if p.loss != EMPTY and p.size >= 1]
    if not cards:
        return floor or min(points, key=key, default=None)
    cards = [p for p in cards if max_size is None or p.size <= max_size] or cards
    best = min(cards, key=key)
    if floor is not None and floor.value(measure)[0] < best.value(measure)[0] - 1e-12:
        return floor
    mean, se = best.value(measure)
    within = [p for p in cards if p.value(measure)[0] <= mean + se + 1e-12]
    return min(within, key=lambda p: (p.size, sparser(p)))
