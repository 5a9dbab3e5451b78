"""The warm start of main before the beam search (commit 4cb8401), kept for benchmarks/warm_start.py
only: the reference the new warm start is measured against. Not part of the package."""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from scorecard.trainer.problem.slim import SlimProblem
from scorecard.trainer.search.sweep import Sweeper

# Two-coefficient moves are tried only when rows x features, and their number, are at most this.
PAIR_MOVE_LIMIT = 2e5
# Candidate-by-row entries evaluated between two looks at the clock (and before the first report).
ENTRIES_PER_CALL = 1e6
MAX_CANDIDATES = 41  # values a single move tries per column (all of them for [-20, 20])


@dataclass(frozen=True)
class Incumbent:
    """An integer model and its true objective (:meth:`SlimProblem.objective`)."""

    coef: np.ndarray
    intercept: int
    objective: float


def objective(problem: SlimProblem, loss: np.ndarray, coefs: np.ndarray) -> np.ndarray:
    """The exact objective of each row of ``coefs`` given its loss; +inf where it breaks
    ``max_features`` or ``min_features``."""
    coefs = np.atleast_2d(coefs)
    obj = loss + problem.penalty(coefs)
    size = (coefs != 0).sum(axis=1)
    if problem.max_features is not None:
        obj = np.where(size > problem.max_features, np.inf, obj)
    if problem.min_features is not None:
        obj = np.where(size < problem.min_features, np.inf, obj)
    return obj


def warm_start(problem: SlimProblem, seconds: float = 0.5,
               on_improve: Callable[[Incumbent], None] | None = None,
               start: Incumbent | None = None, max_features: int | None = None) -> Incumbent:
    """The best scoring system found by rounding and local search within ``seconds`` (the
    rounding always runs to the end; ``seconds=0`` stops there). With ``start``, only the
    local search runs, from that model. ``max_features`` caps the model's size below the
    problem's own limit."""
    if max_features is not None and (problem.max_features is None or max_features < problem.max_features):
        problem = replace(problem, max_features=max_features)
    deadline = time.monotonic() + seconds
    sweeper = Sweeper(problem, margin=None if problem.gamma_exact else problem.gamma)
    chunk = max(16, int(ENTRIES_PER_CALL // max(1, problem.X.shape[0])))
    best = start
    for direction in (_mean_difference, _logistic_direction) if start is None else ():
        w = direction(problem, deadline)
        if best is None:  # the empty model and the direction rounded at full scale: at once
            best = _evaluate(sweeper, problem, _candidates(problem, w, scales=(_top(problem),), sizes=(0, problem.n_columns)))
            if on_improve is not None:
                on_improve(best)
        candidates = _candidates(problem, w)  # all of them, whatever the budget: a few per column
        for first in range(0, candidates.shape[0], chunk):
            found = _evaluate(sweeper, problem, candidates[first:first + chunk])
            if found.objective < best.objective - 1e-12:
                best = found
                if on_improve is not None:
                    on_improve(best)
    while time.monotonic() < deadline:
        found = _improve(sweeper, problem, _single_moves(best.coef, problem), best, deadline, chunk)
        if found is best and problem.X.shape[0] * best.coef.size <= PAIR_MOVE_LIMIT \
                and _pair_count(problem) <= PAIR_MOVE_LIMIT:
            found = _improve(sweeper, problem, _pair_moves(best.coef, problem), best, deadline, chunk)
        if found is best:
            break
        best = found
        if on_improve is not None:
            on_improve(best)
    return best


def _improve(sweeper: Sweeper, problem: SlimProblem, moves: np.ndarray, best: Incumbent, deadline: float,
             chunk: int) -> Incumbent:
    """The best of the first chunk of ``moves`` that beats ``best`` (``best`` itself if none does)."""
    for start in range(0, moves.shape[0], chunk):
        trial = _evaluate(sweeper, problem, moves[start:start + chunk])
        if trial.objective < best.objective - 1e-12:
            return trial
        if time.monotonic() > deadline:
            break
    return best


def _evaluate(sweeper: Sweeper, problem: SlimProblem, coefs: np.ndarray) -> Incumbent:
    loss, intercept = sweeper.best_intercepts(coefs)
    obj = objective(problem, loss, coefs)
    k = int(np.argmin(obj))
    coef = coefs[k].astype(np.int64)
    if not np.isfinite(obj[k]):
        return Incumbent(coef, int(intercept[k]), float("inf"))
    return Incumbent(coef, int(intercept[k]), problem.objective(coef, int(intercept[k])))


def _top(problem: SlimProblem) -> int:
    """The largest coefficient magnitude the box allows."""
    return int(max(np.abs(problem.coef_lo).max(initial=0), np.abs(problem.coef_hi).max(initial=0), 1))


def _candidates(problem: SlimProblem, w: np.ndarray, scales: tuple[int, ...] | None = None,
                sizes: tuple[int, ...] | None = None) -> np.ndarray:
    """Copies of the direction ``w`` keeping its k largest weights (k in ``sizes``, all by
    default; k = 0 is the empty model), scaled so the largest is m (m in ``scales``, 1 to the
    largest allowed by default) and rounded into the box."""
    p = problem.n_columns
    w = np.clip(w, np.minimum(problem.coef_lo, 0), np.maximum(problem.coef_hi, 0))  # sign constraints
    scale = np.max(np.abs(w)) if p else 0.0
    sizes = (p, *range(0, p)) if sizes is None else sizes
    scales = tuple(range(1, _top(problem) + 1)) if scales is None else scales
    out = [np.zeros(p)]
    if scale > 0:
        order = np.argsort(-np.abs(w))
        for k in sizes:
            kept = np.zeros(p)
            kept[order[:k]] = w[order[:k]] / scale
            for m in scales:
                out.append(np.clip(np.round(kept * m), problem.coef_lo, problem.coef_hi))
    return _unique_rows(np.array(out))


def _unique_rows(a: np.ndarray) -> np.ndarray:
    """``a`` without repeated rows, first occurrences kept in their order."""
    _, first = np.unique(a, axis=0, return_index=True)
    return a[np.sort(first)]


def _mean_difference(problem: SlimProblem, deadline: float) -> np.ndarray:
    """Positive minus negative class mean of each column over its variance: a direction that
    costs one pass over the data, so the first model is ready at once."""
    total = problem.pos_w.sum(), problem.neg_w.sum()
    mean_pos = problem.pos_w @ problem.X / max(total[0], 1e-300)
    mean_neg = problem.neg_w @ problem.X / max(total[1], 1e-300)
    var = problem.X.var(axis=0)
    var[var == 0] = 1.0
    return (mean_pos - mean_neg) / var


def _logistic_direction(problem: SlimProblem, deadline: float, ridge: float = 1e-2,
                        iterations: int = 25, least: int = 2) -> np.ndarray:
    """Coefficients (in the data's units) of a ridge-penalised logistic regression on the rows
    (Newton steps until converged, ``iterations`` or, after ``least`` steps, the deadline)."""
    X = problem.X
    mean = X.mean(axis=0)
    sd = X.std(axis=0)
    sd[sd == 0] = 1.0
    Z = np.hstack([(X - mean) / sd, np.ones((X.shape[0], 1))])
    total = problem.pos_w + problem.neg_w
    target = np.divide(problem.pos_w, total, out=np.zeros_like(total), where=total > 0)
    beta = np.zeros(Z.shape[1])
    reg = ridge * np.eye(Z.shape[1])
    reg[-1, -1] = 0.0
    for step_number in range(iterations):
        prob = 1.0 / (1.0 + np.exp(-np.clip(Z @ beta, -30, 30)))
        grad = Z.T @ (total * (prob - target)) + reg @ beta
        hess = (Z * (total * prob * (1 - prob))[:, None]).T @ Z + reg + 1e-9 * np.eye(Z.shape[1])
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.max(np.abs(step)) < 1e-6 or (step_number + 1 >= least and time.monotonic() > deadline):
            break
    return beta[:-1] / sd


def _values(lo: int, hi: int) -> np.ndarray:
    """Coefficient values a single move tries for a column: all of [lo, hi] when few, else
    the small ones and a geometric spread up to the bounds."""
    if hi - lo + 1 <= MAX_CANDIDATES:
        return np.arange(lo, hi + 1)
    spread = np.unique(np.round(np.geomspace(1, max(abs(lo), abs(hi), 1), 12)).astype(np.int64))
    values = np.concatenate((np.arange(-10, 11), spread, -spread, [lo, hi, 0]))
    return np.unique(values[(values >= lo) & (values <= hi)])


def _single_moves(coefs: np.ndarray, problem: SlimProblem) -> np.ndarray:
    """Every vector that differs from ``coefs`` in exactly one coefficient (taking the
    values :func:`_values` lists)."""
    out = []
    for j in range(len(coefs)):
        values = _values(int(problem.coef_lo[j]), int(problem.coef_hi[j]))
        values = values[values != coefs[j]]
        block = np.repeat(coefs[None, :].astype(np.float64), len(values), axis=0)
        block[:, j] = values
        out.append(block)
    return np.vstack(out) if out else np.empty((0, len(coefs)))


def _pair_count(problem: SlimProblem) -> int:
    """How many two-coefficient moves there are (about)."""
    sizes = (problem.coef_hi - problem.coef_lo).astype(np.float64)
    return int((sizes.sum() ** 2 - (sizes ** 2).sum()) / 2)


def _pair_moves(coefs: np.ndarray, problem: SlimProblem) -> np.ndarray:
    """Every vector that differs from ``coefs`` in exactly two coefficients."""
    p = len(coefs)
    out = []
    for i in range(p):
        vi = np.arange(problem.coef_lo[i], problem.coef_hi[i] + 1)
        vi = vi[vi != coefs[i]]
        for j in range(i + 1, p):
            vj = np.arange(problem.coef_lo[j], problem.coef_hi[j] + 1)
            vj = vj[vj != coefs[j]]
            a, b = np.meshgrid(vi, vj, indexing="ij")
            block = np.repeat(coefs[None, :].astype(np.float64), a.size, axis=0)
            block[:, i] = a.ravel()
            block[:, j] = b.ravel()
            out.append(block)
    return np.vstack(out) if out else np.empty((0, p))
