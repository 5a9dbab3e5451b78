"""Small datasets shared by the trainer tests, and the brute-force optimum of a tiny SLIM problem."""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from scorecard.trainer.data.families import design_for
from scorecard.trainer.data.prepare import LabeledData, prepare
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.problem.constrained import constrained_problem
from testdata import SHARED


def labeled(frame: pd.DataFrame, target: str = "y") -> LabeledData:
    return prepare(frame, target)


def tiny(seed: int = 3, n: int = 40, p: int = 3) -> pd.DataFrame:
    """Integer features in 0..3 and a noisy linear label: no model is perfect."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, p))
    score = X[:, 0] - X[:, 1] + (X[:, 2] if p > 2 else 0) - 1 + rng.normal(0, 1.0, n)
    frame = pd.DataFrame(X, columns=[f"f{k}" for k in range(p)])
    frame["y"] = (score > 0).astype(int)
    return frame


def breastcancer() -> LabeledData:
    return prepare(pd.read_csv(SHARED / "breastcancer.csv"), "Benign")


def problem_of(frame: pd.DataFrame, **options):
    """The SLIM problem of ``frame`` (target ``y``) under ``TrainConfig(**options)``, and the config.

    Numeric columns enter linear (``numeric="linear"`` unless given): these problems test the
    solvers on the paper's design, real-valued columns included, not the cut-off default."""
    data = prepare(frame, "y")
    config = TrainConfig(**{"numeric": "linear", **options})
    return constrained_problem(design_for(data, config), data, config), config


def brute_force(problem) -> float:
    """The least objective over every coefficient vector and intercept in the box."""
    ranges = [range(int(lo), int(hi) + 1) for lo, hi in zip(problem.coef_lo, problem.coef_hi)]
    best = np.inf
    for coef in itertools.product(*ranges):
        coef = np.array(coef)
        size = np.count_nonzero(coef)
        if problem.max_features is not None and size > problem.max_features:
            continue
        if problem.min_features is not None and size < problem.min_features:
            continue
        for b in range(problem.intercept_lo, problem.intercept_hi + 1):
            best = min(best, problem.objective(coef, b))
    return best
