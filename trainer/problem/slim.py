"""The SLIM problem in data form (paper Eq. 3.1 with the 0-1 loss), for any formulation.

A :class:`SlimProblem` says *what* to solve, never *how*: the distinct feature rows with
their class weights, the box of each coefficient and of the intercept, the per-column L0
price, the L1 tie-break and the margin. Formulations (``solvers/ip/slim.py``, later PILM,
M-of-N, CP-SAT, cutting planes) read it; :meth:`SlimProblem.objective` is the true objective
every solution is judged by, computed from integers with the runtime's rule (score > 0).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .column_constraints import ColumnConstraints

MAX_DECIMALS = 4  # data with more decimals than this get an approximate margin (see margin())


@dataclass(frozen=True)
class SlimProblem:
    """min  sum_k pos_w[k]*[score_k <= 0] + neg_w[k]*[score_k > 0] + sum_j c0[j]*[coef_j != 0]
              + epsilon * sum_j |coef_j|
    over integer coef in [coef_lo, coef_hi] and intercept in [intercept_lo, intercept_hi],
    where score_k = intercept + X[k] @ coef.

    X: distinct feature rows (K x P); rows of the data with identical features are merged,
      so a group holding both labels gets one prediction (it can only have one).
    pos_w/neg_w: total weight of the positive/negative data rows in each distinct row: a
      positive row weighs 2*w_pos/N and a negative one 2*(1-w_pos)/N, so w_pos = 0.5 makes
      the loss the plain error rate (Section 2.5's (1/N) sum w_i with w+ + w- = 1, scaled).
    row_of: for each data row, the index of its distinct row.
    epsilon: L1 price, below min(weight unit, C0)/max L1 norm (Section 3.1) so it only picks
      the smallest (coprime) coefficients among equally accurate and sparse models.
    gamma: margin of the IP (see :func:`margin`); exact when ``gamma_exact``.
    """

    X: np.ndarray
    pos_w: np.ndarray
    neg_w: np.ndarray
    row_of: np.ndarray
    coef_lo: np.ndarray
    coef_hi: np.ndarray
    intercept_lo: int
    intercept_hi: int
    c0: np.ndarray
    epsilon: float
    gamma: float
    gamma_exact: bool
    max_features: int | None
    min_features: int | None
    # Constraints beyond the box (value sets, composition, rate limits, PILM, TILM; see
    # constrained.py). None for plain SLIM; a backend that cannot enforce every kind named in
    # ``constraints.present`` must leave the problem to the MIP.
    constraints: ColumnConstraints | None = None

    @property
    def n_columns(self) -> int:
        return self.X.shape[1]

    def scores(self, coef: np.ndarray, intercept: float) -> np.ndarray:
        """Score of each distinct row, added in column order as the runtime does."""
        total = np.full(self.X.shape[0], float(intercept))
        for j in np.flatnonzero(coef):
            total = total + coef[j] * self.X[:, j]
        return total

    def loss(self, coef: np.ndarray, intercept: float) -> float:
        """Weighted 0-1 loss with the runtime's rule: predict positive iff score > 0."""
        positive = self.scores(coef, intercept) > 0
        return float(self.pos_w[~positive].sum() + self.neg_w[positive].sum())

    def penalty(self, coefs: np.ndarray) -> float | np.ndarray:
        """The L0 + L1 penalty of Eq. 3.1 (:func:`penalty` with this problem's C0 and epsilon):
        a float for one coefficient vector, one value per row of a 2-D array."""
        value = penalty(coefs, self.c0, self.epsilon)
        return float(value) if np.ndim(value) == 0 else value

    @property
    def feature_costs(self) -> np.ndarray:
        """The least each column adds to the penalty when its coefficient is non-zero: its C0
        and epsilon (|coef| >= 1)."""
        return self.c0 + self.epsilon

    def least_penalty(self, columns) -> float:
        """The least penalty of a model whose non-zero coefficients are exactly ``columns``."""
        return float(self.feature_costs[np.asarray(columns, dtype=np.int64)].sum())

    @property
    def feature_price(self) -> float:
        """The least one non-zero coefficient adds to the objective: the cheapest column's C0
        and epsilon, over the columns that may be non-zero (0.0 when none may). Every model
        with k features pays at least k times this, which bounds the size of a better model."""
        free = free_columns(self)
        return float(self.feature_costs[free].min()) if len(free) else 0.0

    @property
    def feature_cap(self) -> int:
        """Most non-zero coefficients any model has: its free columns, at most max_features."""
        cap = len(free_columns(self))
        return cap if self.max_features is None else min(cap, self.max_features)

    def objective(self, coef: np.ndarray, intercept: float) -> float:
        """The true SLIM objective of an integer solution (never the solver's float)."""
        extra = self.constraints.extra_penalty(coef) if self.constraints is not None else 0.0
        return self.loss(coef, intercept) + self.penalty(coef) + extra


def free_columns(problem: SlimProblem) -> np.ndarray:
    """Columns whose coefficient may be non-zero."""
    return np.flatnonzero((problem.coef_lo != 0) | (problem.coef_hi != 0))


def penalty_terms(coefs: np.ndarray, c0: np.ndarray, epsilon: float) -> np.ndarray:
    """Each coefficient's share of the interpretability penalty of Eq. 3.1,
    ``C0_j [coef_j != 0] + epsilon |coef_j|`` (same shape as ``coefs``). The one place this
    formula is written: :func:`penalty`, :class:`SlimProblem` and the convex lattice use it."""
    coefs = np.asarray(coefs)
    return np.where(coefs != 0, np.asarray(c0, dtype=np.float64), 0.0) + epsilon * np.abs(coefs)


def penalty(coefs: np.ndarray, c0: np.ndarray, epsilon: float) -> np.floating | np.ndarray:
    """``sum_j C0_j [coef_j != 0] + epsilon sum_j |coef_j|`` (Eq. 3.1) of one coefficient vector
    (a scalar) or of each row of a 2-D array."""
    return penalty_terms(coefs, c0, epsilon).sum(axis=-1)


def build_problem(X: np.ndarray, y: np.ndarray, *, w_pos: float, coef_lo: np.ndarray, coef_hi: np.ndarray,
                  intercept_lo: int, intercept_hi: int, c0: np.ndarray, max_features: int | None = None,
                  min_features: int | None = None, counts: np.ndarray | None = None) -> SlimProblem:
    """The SLIM problem of a design matrix and labels (+1/-1) with its coefficient box and
    per-column C0: rows merged, class weights (Section 2.6), margin and the L1 price.
    counts: how many data rows each row of X stands for (grouped big data; None: one each).

    epsilon is half the smaller of one row's weight and the cheapest C0, over the largest L1
    norm any column's box allows (P times the widest bound), so it only breaks ties among
    equally accurate and sparse models (Section 3.1). ``constrained.constrained_problem``
    builds the box and prices from the options; this function only reads them.
    """
    counts = np.ones(len(y)) if counts is None else np.asarray(counts, dtype=np.float64)
    n, p = float(counts.sum()), X.shape[1]
    rows, row_of = distinct_rows(X)
    positive = y > 0
    pos_w = np.bincount(row_of, weights=positive * counts * (2.0 * w_pos / n), minlength=len(rows))
    neg_w = np.bincount(row_of, weights=~positive * counts * (2.0 * (1.0 - w_pos) / n), minlength=len(rows))
    coef_lo, coef_hi, c0 = np.asarray(coef_lo, dtype=np.int64), np.asarray(coef_hi, dtype=np.int64), np.asarray(c0, dtype=float)
    unit = 2.0 * min(w_pos, 1.0 - w_pos) / n
    prices = [v for v in (unit, float(c0.min()) if p else None) if v is not None and v > 0]
    widest = max(int(np.abs(coef_lo).max()) if p else 0, int(np.abs(coef_hi).max()) if p else 0, 1)
    max_l1 = float(p * widest)
    epsilon = 0.5 * min(prices) / max_l1 if max_l1 > 0 and prices else 0.0
    gamma, exact = margin(X)
    return SlimProblem(X=rows, pos_w=pos_w, neg_w=neg_w, row_of=row_of, coef_lo=coef_lo, coef_hi=coef_hi,
                       intercept_lo=intercept_lo, intercept_hi=intercept_hi, c0=c0, epsilon=epsilon,
                       gamma=gamma, gamma_exact=exact, max_features=max_features, min_features=min_features)


def distinct_rows(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(X, axis=0, return_inverse=True)``: the distinct rows in lexicographic order
    (column 0 first, NaN last) and each row's position among them, sorting by the first column
    alone and by the others only within its ties (a column of real values has few; 10^7 rows
    take seconds where ``np.unique`` takes minutes)."""
    n, p = X.shape
    if n == 0 or p == 0:
        return X[:min(n, 1)], np.zeros(n, dtype=np.intp)
    order = np.argsort(X[:, 0], kind="stable")
    first = X[order, 0]
    same_first = (first[1:] == first[:-1]) | (np.isnan(first[1:]) & np.isnan(first[:-1]))
    if p > 1 and same_first.any():
        block = np.concatenate(([0], np.cumsum(~same_first)))  # ties of column 0 share a block
        tied = np.zeros(n, dtype=bool)
        tied[1:] |= same_first
        tied[:-1] |= same_first
        where = np.flatnonzero(tied)
        rows = order[where]
        keys = tuple(X[rows, j] for j in range(p - 1, 0, -1)) + (block[where],)
        order[where] = rows[np.lexsort(keys)]  # stable: equal rows stay in data order
    new = np.zeros(n, dtype=bool)  # a row differing from the one before it in sorted order
    new[0] = True
    for j in range(p):  # column by column: no sorted copy of X
        column = X[order, j]
        new[1:] |= column[1:] != column[:-1]
    row_of = np.empty(n, dtype=np.intp)
    row_of[order] = np.cumsum(new) - 1
    return X[order[new]], row_of


def margin(X: np.ndarray, rows: int = 1 << 18) -> tuple[float, bool]:
    """The IP margin gamma and whether it is exact.

    With integer coefficients and intercept, if every value of X is a multiple of 10^-d then
    every score is too, so "score > 0" is exactly "score >= 10^-d": gamma = 10^-d is exact
    (gamma = 1 for integer data). The paper's fixed gamma = 0.1 (Section 3.1) is exact only
    for one-decimal data. Data with more than MAX_DECIMALS decimals get gamma = 10^-MAX_DECIMALS,
    an approximation: such a model never predicts positive with a score in (0, gamma).
    Read ``rows`` rows at a time, keeping the d every row so far passes: real-valued data
    is settled by its first block.
    """
    candidates = list(range(MAX_DECIMALS + 1))
    for a in range(0, len(X), rows):
        block = X[a:a + rows]
        finite = block[np.isfinite(block)]
        candidates = [d for d in candidates if _multiples(finite, d)]
        if not candidates:
            break
    if candidates:
        return 10.0 ** -candidates[0], True
    return 10.0 ** -MAX_DECIMALS, False


def _multiples(values: np.ndarray, d: int) -> bool:
    """Whether every value is a multiple of 10^-d (to 1e-9 relative)."""
    scaled = values * 10.0 ** d
    return bool(np.all(np.abs(scaled - np.round(scaled)) <= 1e-9 * np.maximum(1.0, np.abs(scaled))))


def feature_limit(problem: SlimProblem, upper_bound: float) -> int:
    """Most non-zero coefficients an optimal model can have given an objective upper bound.

    Every non-zero coefficient costs at least :attr:`SlimProblem.feature_price` (and the
    loss is >= 0), so at most floor(UB / price) of them fit under the incumbent (with equality
    allowed: the IP must be able to return the incumbent); also at most
    :attr:`SlimProblem.feature_cap`.
    """
    limit = problem.feature_cap
    price = problem.feature_price
    if price > 0 and math.isfinite(upper_bound):
        limit = min(limit, int(math.floor(upper_bound / price + 1e-9)))
    return max(limit, 0)
