"""The SLIM integer program (paper Section 3.1) in PuLP, in a strong form.

Differences from the textbook IP (Eq. 3.2), each keeping the same optimal models:
- one binary z_k per *distinct* feature row k (z_k = 1: predict positive); its loss is
  pos_w_k (1 - z_k) + neg_w_k z_k, so rows with both labels share one prediction;
- one-sided constraints, only where a label needs them: positive weight needs
  score_k >= gamma - M+_k (1 - z_k), negative weight needs score_k <= M-_k z_k; this is the
  runtime's rule (positive iff score > 0) exactly when gamma is exact (problem.margin);
- per-row big-M from the box of the coefficients, with at most K non-zero (K from the
  incumbent: K <= floor(UB / C0), Section 3.1's L0 price), and the intercept clipped to the
  range where it still changes a prediction; rows whose prediction the box fixes get a fixed z;
- valid inequalities sum(alpha) <= K, sum(C0 alpha) <= UB, loss <= UB, and alpha_j' <= alpha_j
  for identical columns j < j' (symmetry);
- the incumbent of :func:`~...search.warm_start.warm_start` as the solver's warm start.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pulp

from ...problem.slim import SlimProblem, feature_limit
from ...search.warm_start import Incumbent
from .constraints import Handles
from .constraints import add as add_constraints


@dataclass(frozen=True)
class SlimIP:
    """The PuLP problem and the variables to read back (``coef[j]`` is None for a column
    fixed at 0); ``scale`` is the factor the objective was multiplied by."""

    lp: pulp.LpProblem
    coef: tuple[pulp.LpVariable | None, ...]
    intercept: pulp.LpVariable
    scale: float
    max_features: int
    warm_started: bool


def _top_sum(values: np.ndarray, k: int) -> np.ndarray:
    """Per row, the sum of the k largest entries (entries are >= 0)."""
    if k <= 0 or values.shape[1] == 0:
        return np.zeros(values.shape[0])
    if k >= values.shape[1]:
        return values.sum(axis=1)
    return -np.sort(-values, axis=1)[:, :k].sum(axis=1)


def formulate(problem: SlimProblem, incumbent: Incumbent | None = None) -> SlimIP:
    """Build the IP; ``incumbent`` (a feasible model) bounds and warm-starts it."""
    upper = incumbent.objective if incumbent is not None else float("inf")
    K = feature_limit(problem, upper)
    X, p = problem.X, problem.n_columns
    lo, hi = problem.coef_lo, problem.coef_hi
    # Objective scaled so that one unit of the smallest row weight is 1 (solver tolerances).
    weights = np.concatenate((problem.pos_w[problem.pos_w > 0], problem.neg_w[problem.neg_w > 0]))
    scale = 1.0 / float(weights.min()) if len(weights) else 1.0

    high_part = _top_sum(np.maximum(np.maximum(X * lo, X * hi), 0.0), K)
    low_part = -_top_sum(np.maximum(-np.minimum(X * lo, X * hi), 0.0), K)
    gamma = problem.gamma
    b_lo = max(problem.intercept_lo, int(np.floor(-high_part.max()))) if len(X) else problem.intercept_lo
    b_hi = min(problem.intercept_hi, int(np.ceil(gamma - low_part.min()))) if len(X) else problem.intercept_hi
    b_hi = max(b_hi, b_lo)
    if problem.constraints is not None and problem.constraints.intercept_values is not None:
        b_lo, b_hi = problem.intercept_lo, problem.intercept_hi  # every listed value stays reachable
    s_max = b_hi + high_part
    s_min = b_lo + low_part

    lp = pulp.LpProblem("slim", pulp.LpMinimize)
    intercept = lp.add_variable("intercept", b_lo, b_hi, cat=pulp.LpInteger)
    usable = [j for j in range(p) if (lo[j] != 0 or hi[j] != 0) and K > 0 and np.any(X[:, j] != 0)]
    coef: list[pulp.LpVariable | None] = [None] * p
    alpha: dict[int, pulp.LpVariable] = {}
    beta: dict[int, pulp.LpVariable] = {}
    for j in usable:
        coef[j] = lp.add_variable(f"coef_{j}", int(lo[j]), int(hi[j]), cat=pulp.LpInteger)
        alpha[j] = lp.add_variable(f"alpha_{j}", cat=pulp.LpBinary)
        beta[j] = lp.add_variable(f"beta_{j}", 0, max(abs(int(lo[j])), abs(int(hi[j]))))
        lp += coef[j] <= int(hi[j]) * alpha[j], f"l0_hi_{j}"
        lp += coef[j] >= int(lo[j]) * alpha[j], f"l0_lo_{j}"
        lp += beta[j] >= coef[j], f"l1_pos_{j}"
        lp += beta[j] >= -coef[j], f"l1_neg_{j}"

    z = []
    losses = []
    for k in range(len(X)):
        fixed = 1 if s_min[k] >= gamma else 0 if s_max[k] <= 0 else None
        zk = lp.add_variable(f"z_{k}", cat=pulp.LpBinary) if fixed is None else None
        z.append(zk)
        predicted = zk if zk is not None else fixed
        if problem.pos_w[k] > 0:
            losses.append(problem.pos_w[k] * scale * (1 - predicted))
        if problem.neg_w[k] > 0:
            losses.append(problem.neg_w[k] * scale * predicted)
        if zk is not None:
            score = intercept + pulp.lpSum(float(X[k, j]) * coef[j] for j in usable if X[k, j] != 0)
            if problem.pos_w[k] > 0:
                lp += score >= gamma - float(gamma - s_min[k]) * (1 - zk), f"pos_{k}"
            if problem.neg_w[k] > 0:
                lp += score <= float(s_max[k]) * zk, f"neg_{k}"
    loss = pulp.lpSum(losses)
    penalty = pulp.lpSum(float(problem.c0[j] * scale) * alpha[j] for j in usable)
    l1 = pulp.lpSum(float(problem.epsilon * scale) * beta[j] for j in usable)
    lp += loss + penalty + l1

    if alpha:
        if K < len(alpha):
            lp += pulp.lpSum(alpha.values()) <= K, "max_features"
        if problem.min_features:
            lp += pulp.lpSum(alpha.values()) >= problem.min_features, "min_features"
        if np.isfinite(upper):
            lp += penalty <= upper * scale, "penalty_below_incumbent"
    if np.isfinite(upper):
        lp += loss <= upper * scale, "loss_below_incumbent"
    # Identical columns stop being interchangeable once constraints name their inputs.
    for j, j2 in (_identical_pairs(problem, usable) if problem.constraints is None else []):
        lp += alpha[j2] <= alpha[j], f"symmetry_{j}_{j2}"

    start = (incumbent.coef, incumbent.intercept) if incumbent is not None else None
    add_constraints(problem, Handles(lp=lp, coef=coef, alpha=alpha, intercept=intercept, z=z, s_min=s_min,
                                     s_max=s_max, gamma=gamma, scale=scale, start=start))
    warm = incumbent is not None and _set_start(problem, incumbent, intercept, coef, alpha, beta, z)
    return SlimIP(lp=lp, coef=tuple(coef), intercept=intercept, scale=scale, max_features=K, warm_started=warm)


def _identical_pairs(problem: SlimProblem, usable: list[int]) -> list[tuple[int, int]]:
    """Pairs (j, j2), j < j2, of interchangeable columns: same values, bounds and price."""
    first: dict[tuple, int] = {}
    pairs = []
    for j in usable:
        key = (problem.X[:, j].tobytes(), int(problem.coef_lo[j]), int(problem.coef_hi[j]), float(problem.c0[j]))
        if key in first:
            pairs.append((first[key], j))
        else:
            first[key] = j
    return pairs


def _set_start(problem, incumbent, intercept, coef, alpha, beta, z) -> bool:
    """Give the incumbent to the solver as initial values; False when it is not a feasible
    point of this IP (a score strictly between 0 and an inexact gamma, or a fixed column)."""
    scores = problem.scores(incumbent.coef, incumbent.intercept)
    if np.any((scores > 0) & (scores < problem.gamma)):
        return False
    if any(incumbent.coef[j] != 0 and coef[j] is None for j in range(len(coef))):
        return False
    if intercept.lowBound is not None and not intercept.lowBound <= incumbent.intercept <= intercept.upBound:
        return False
    intercept.setInitialValue(int(incumbent.intercept))
    for j, var in enumerate(coef):
        if var is not None:
            var.setInitialValue(int(incumbent.coef[j]))
            alpha[j].setInitialValue(int(incumbent.coef[j] != 0))
            beta[j].setInitialValue(abs(int(incumbent.coef[j])))
    for k, zk in enumerate(z):
        if zk is not None:
            zk.setInitialValue(int(scores[k] >= problem.gamma))
    return True


def read_solution(ip: SlimIP, n_columns: int) -> tuple[np.ndarray, int]:
    """Integer coefficients and intercept from the solved IP (rounded from the solver's floats)."""
    coef = np.zeros(n_columns, dtype=np.int64)
    for j, var in enumerate(ip.coef):
        if var is not None and var.value() is not None:
            coef[j] = int(round(var.value()))
    value = ip.intercept.value()
    return coef, int(round(value)) if value is not None else 0
