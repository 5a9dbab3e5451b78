"""A model that meets every hard constraint, from a warm start that may not.

The SLIM IP uses its warm start's objective as an upper bound, valid only for a feasible
model; this module turns any start into the best feasible model it can find cheaply.
"""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from ..problem.constrained import violations
from ..problem.slim import SlimProblem
from .warm_start import warm_start


def feasible_start(problem: SlimProblem, coef: np.ndarray, intercept: int,
                   seconds: float = 0.0, by_work: bool = False) -> tuple[np.ndarray, int] | None:
    """A model obeying every constraint, from a warm start that may not: the best of the
    start's coefficients, no coefficients at all and (given ``seconds``) local-search models
    of reweighted problems, each with the best intercept the rate limits allow. ``by_work``:
    those local searches run to the end of their own work only, the same on any machine
    (``--work-limit``), and ``seconds`` is a safety net.

    Why: the SLIM IP uses its warm start's objective as an upper bound, valid only for a
    feasible model, and a solver can take long to find a first model meeting a rate limit
    on its own. Rates depend on the intercept monotonically, so scanning the intercepts
    where some row's prediction changes finds the best feasible one; weighting up the class
    a rate limit protects (Section 2.6's w+/w-) steers the local search towards models
    that meet it. None if no candidate works.
    """
    candidates = [np.asarray(coef), np.zeros(problem.n_columns, dtype=np.int64)]
    if seconds > 0 and problem.constraints is not None:
        candidates += _reweighted(problem, seconds, by_work)
    cc = problem.constraints
    best = None
    for candidate in candidates:
        partial = problem.scores(candidate, 0)
        choices = np.unique(np.clip(np.floor(-partial).astype(np.int64) + 1, problem.intercept_lo, problem.intercept_hi))
        choices = np.union1d(choices, [problem.intercept_lo, problem.intercept_hi, intercept])
        if cc is not None and cc.intercept_values is not None:
            choices = np.asarray(cc.intercept_values)
        for b in choices:
            b = int(b)
            positive = partial + b > 0
            if np.any(positive & (partial + b < problem.gamma)):
                continue  # the IP's margin cannot represent this model
            if violations(problem, candidate, b):
                continue
            value = problem.objective(candidate, b)
            if best is None or value < best[0] - 1e-12:
                best = (value, candidate, b)
    return None if best is None else (best[1], best[2])


def _reweighted(problem: SlimProblem, seconds: float, by_work: bool) -> list[np.ndarray]:
    """Local-search coefficients with the protected class weighing 1, 4 and 16 times the
    other in total: the negatives for max_fpr and max_positive_rate, the positives for min_tpr."""

    limits = problem.constraints.limits()
    up_neg = "max_fpr" in limits or "max_positive_rate" in limits
    if up_neg == ("min_tpr" in limits):
        return []
    pos, neg = float(problem.pos_w.sum()), float(problem.neg_w.sum())
    if pos == 0 or neg == 0:
        return []
    out = []
    for ratio in (1.0, 4.0, 16.0):
        share = ratio / (1.0 + ratio)  # of the total weight, for the protected class
        pos_share, neg_share = (1 - share, share) if up_neg else (share, 1 - share)
        shifted = replace(problem, pos_w=problem.pos_w * (pos + neg) * pos_share / pos,
                          neg_w=problem.neg_w * (pos + neg) * neg_share / neg)
        out.append(warm_start(shifted, seconds=0.0 if by_work else seconds / 3,
                              until=time.monotonic() + seconds / 3).coef)
    return out
