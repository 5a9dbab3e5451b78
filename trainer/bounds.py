"""Valid bounds on the optimal SLIM model, derived from the data and an incumbent.

Every exact backend uses them to cut the search without losing the optimum:
- :func:`unavoidable_loss`: rows identical on the columns a model uses but labelled both ways
  get one prediction, so the lighter label's weight is lost whatever the coefficients;
- :func:`size_limit`: a model strictly better than the incumbent pays C0 + epsilon per
  non-zero coefficient on top of the unavoidable loss, which caps its number of features.
"""
from __future__ import annotations

import math

import numpy as np

from .problem import SlimProblem

# Objective values are sums of row weights, C0s and epsilons; float noise is far below this.
TOLERANCE = 1e-12


def unavoidable_loss(problem: SlimProblem, columns: np.ndarray | None = None) -> float:
    """Weighted error no model using only ``columns`` (all columns when None) can avoid."""
    if columns is None:  # the problem's rows are distinct already
        return float(np.minimum(problem.pos_w, problem.neg_w).sum())
    X = problem.X[:, np.asarray(columns, dtype=np.int64)]
    if X.shape[1] == 0:
        return float(min(problem.pos_w.sum(), problem.neg_w.sum()))
    _, group = np.unique(X, axis=0, return_inverse=True)
    group = group.reshape(-1)
    pos = np.bincount(group, weights=problem.pos_w)
    neg = np.bincount(group, weights=problem.neg_w)
    return float(np.minimum(pos, neg).sum())


def free_columns(problem: SlimProblem) -> np.ndarray:
    """Columns whose coefficient may be non-zero."""
    return np.flatnonzero((problem.coef_lo != 0) | (problem.coef_hi != 0))


def size_limit(problem: SlimProblem, upper_bound: float) -> int | None:
    """Most non-zero coefficients a model with objective < ``upper_bound`` can have: -1 when
    no model can, None when no finite limit follows (an infinite bound and no max_features)."""
    free = free_columns(problem)
    limit = len(free)
    if problem.max_features is not None:
        limit = min(limit, problem.max_features)
    price = float(problem.c0[free].min()) + problem.epsilon if len(free) else 0.0
    if price > 0 and math.isfinite(upper_bound):
        room = upper_bound - unavoidable_loss(problem) - TOLERANCE
        limit = min(limit, int(math.floor(room / price)) if room >= 0 else -1)
    elif problem.max_features is None and len(free):
        return None
    return max(limit, -1)
