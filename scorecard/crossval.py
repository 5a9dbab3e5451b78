"""``scorecard cv``: stratified K-fold cross-validation along a grid of C0 values.

Each fold trains on K-1 parts and scores both parts with the runtime (the same scoring
every export reproduces), so the errors are those a user of the model would see.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, fields
from typing import Callable

import numpy as np

from scorecard.runtime import Model, predict
from scorecard.runtime.errors import ConfigError
from scorecard.trainer.data.prepare import LabeledData
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.solvers.options import Deadline

INFEASIBLE = "infeasible"


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
    smallest = min(int((y == 1).sum()), int((y == -1).sum()))
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


def error_rate(model: Model, data: LabeledData) -> float:
    """Share of rows whose runtime prediction differs from the label."""
    wrong = 0
    for row, label in zip(data.frame.to_dict("records"), data.y):
        wrong += (predict(model, row) == 1) != (label == 1)
    return wrong / len(data.y)


def model_size(model: Model) -> int:
    """Number of non-zero coefficients (terms with points), as the paper counts model size."""
    return sum(1 for t in model.terms if t.points != 0)


def run(data: LabeledData, config: TrainConfig, folds: int, c0_grid: tuple[float, ...],
        train: Callable[..., Model], infeasible: type[Exception],
        on_result: Callable[[FoldResult], None] = lambda r: None,
        progress: Callable | None = None, deadline: Deadline | None = None) -> list[FoldResult]:
    """Every fold of every C0 value, each C0 followed by its summary row.

    deadline: when the whole run must end (``--time-limit`` is for the whole command): each
    fit gets an equal share of the time left for the fits left. None: each fit gets
    ``config.time_limit`` of its own.
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
            share = {} if deadline is None else {"deadline": deadline.within(deadline.remaining() / fits_left)}
            fits_left -= 1
            try:
                model = train(fit_data, cfg, progress=progress, **share)
            except infeasible:
                result = FoldResult(c0, number, None, None, None, 0.0, INFEASIBLE, None)
            else:
                t = model.training
                result = FoldResult(c0, number, error_rate(model, fit_data), error_rate(model, test_data),
                                    model_size(model), t.seconds if t else 0.0, t.status if t else "unknown",
                                    t.gap if t else None)
            per_c0.append(result)
            on_result(result)
        summary = summarize(c0, per_c0)
        results.extend(per_c0 + [summary])
        on_result(summary)
    return results


def summarize(c0: float, rows: list[FoldResult]) -> FoldResult:
    """Mean errors, median size, total time, the statuses seen and the largest gap."""
    solved = [r for r in rows if r.status != INFEASIBLE]

    def mean(name: str) -> float | None:
        return statistics.fmean(getattr(r, name) for r in solved) if solved else None

    statuses = sorted({r.status for r in rows})
    gaps = [r.gap for r in solved if r.gap is not None]
    return FoldResult(
        c0=c0, fold="all", train_error=mean("train_error"), test_error=mean("test_error"),
        size=statistics.median(r.size for r in solved) if solved else None,
        seconds=sum(r.seconds for r in rows), status="+".join(statuses), gap=max(gaps) if gaps else None)


def cell(value: object) -> str:
    """A table or CSV cell: floats to 4 significant digits, None empty."""
    if value is None:
        return ""
    if isinstance(value, float):
        return "inf" if math.isinf(value) else f"{value:.4g}"
    return str(value)
