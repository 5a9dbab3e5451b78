"""Integer-program formulations, one module per model family, plus their shared warm start.

:func:`local_search` finds a good integer model fast (coordinate moves with the intercept
optimized exactly by a sweep). Its objective is an upper bound that tightens the IP (fewer
features allowed, smaller big-M constants, a cutoff) and its solution seeds the solver.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..problem.slim import SlimProblem

MAX_CANDIDATES = 41  # coefficient values tried per column in one move (all of them for [-20, 20])


@dataclass(frozen=True)
class Incumbent:
    """An integer model and its true objective (:meth:`SlimProblem.objective`)."""

    coef: np.ndarray
    intercept: int
    objective: float


def best_intercept(problem: SlimProblem, partial: np.ndarray) -> tuple[int, float]:
    """The intercept minimizing the loss given the rows' scores without it, and that loss.

    Row k is predicted positive iff partial_k + b >= gamma, i.e. b >= t_k = gamma - partial_k;
    sorting t gives every candidate's loss by cumulative sums (ties go to the smaller b).
    """
    t = problem.gamma - partial
    order = np.argsort(t, kind="stable")
    ts = t[order]
    neg_cum = np.concatenate(([0.0], np.cumsum(problem.neg_w[order])))
    pos_cum = np.concatenate(([0.0], np.cumsum(problem.pos_w[order])))
    lo, hi = problem.intercept_lo, problem.intercept_hi
    candidates = np.unique(np.clip(np.ceil(ts - 1e-9), lo, hi).astype(np.int64))
    candidates = np.union1d(candidates, [lo])
    m = np.searchsorted(ts, candidates + 1e-9, side="right")
    losses = neg_cum[m] + (pos_cum[-1] - pos_cum[m])
    best = int(np.argmin(losses))
    return int(candidates[best]), float(losses[best])


def _values(lo: int, hi: int) -> np.ndarray:
    """Coefficient values tried for a column: all of [lo, hi] when few, else the small ones
    and a geometric spread up to the bounds."""
    if hi - lo + 1 <= MAX_CANDIDATES:
        return np.arange(lo, hi + 1)
    spread = np.unique(np.round(np.geomspace(1, max(abs(lo), abs(hi), 1), 12)).astype(np.int64))
    values = np.concatenate((np.arange(-10, 11), spread, -spread, [lo, hi, 0]))
    return np.unique(values[(values >= lo) & (values <= hi)])


def local_search(problem: SlimProblem, seconds: float = 5.0, max_features: int | None = None) -> Incumbent:
    """Best-improvement search over single-coefficient moves from the intercept-only model.

    Each round tries every (column, value) change, re-optimizing the intercept exactly, and
    applies the best one; it stops when no move improves the objective or time runs out.
    Deterministic: ties go to the first column and the smallest value.
    """
    limit = problem.n_columns if max_features is None else max_features
    p = problem.n_columns
    coef = np.zeros(p, dtype=np.int64)
    b, loss = best_intercept(problem, np.zeros(len(problem.X)))
    best = loss
    values = [_values(int(problem.coef_lo[j]), int(problem.coef_hi[j])) for j in range(p)]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        partial = problem.X @ coef.astype(np.float64)
        used = int(np.count_nonzero(coef))
        penalty = float(problem.c0[coef != 0].sum()) + problem.epsilon * float(np.abs(coef).sum())
        move = None
        for j in range(p):
            base = partial - coef[j] * problem.X[:, j]
            for c in values[j]:
                if c == coef[j] or (coef[j] == 0 and c != 0 and used >= limit):
                    continue
                pen = penalty - (problem.c0[j] if coef[j] else 0.0) + (problem.c0[j] if c else 0.0) \
                    + problem.epsilon * (abs(int(c)) - abs(int(coef[j])))
                if pen >= best:
                    continue
                cb, closs = best_intercept(problem, base + c * problem.X[:, j])
                if closs + pen < best - 1e-12:
                    best, move = closs + pen, (j, int(c), cb)
        if move is None:
            break
        j, c, b = move
        coef[j] = c
    return Incumbent(coef=coef, intercept=b, objective=problem.objective(coef, b))
