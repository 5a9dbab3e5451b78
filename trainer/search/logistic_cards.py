"""Logistic-loss cards: FasterRisk's model on SLIM's design, one card per size, as candidates
of ``--c0 auto`` beside the 0-1-loss cards (``trainer/select.py``).

FasterRisk (Liu, Zhong, Seltzer, Rudin, NeurIPS 2022) fits a risk score of k items by
minimizing the logistic loss of ``(points total + offset) / multiplier``: sparse beam search
over supports, then each support's continuous coefficients rounded along their ray ("star ray
search") and the integer vector of least logistic loss kept. Here:

1. the support path is :func:`.beam.grow` on :class:`.beam.LogisticPath` (the same path the
   0-1 warm start walks), from the empty card to ``max_items`` items;
2. each support's coefficients are rounded along their ray (:func:`.beam.ray_candidates`:
   largest magnitude 1, 1.5, ..., the box's largest, rounded into the box);
3. every integer vector ``c`` is judged by the logistic loss of its points total ``s = c . x``
   with its best slope and offset, ``min over a >= 0, b of sum_i w_i log(1 + exp(-y_i (a s_i +
   b)))`` (the class weights of the problem): every vector's loss at the continuous fit's own
   scale ranks them, and the SHORTLIST best get a few Newton steps on (a, b); the card of
   size k is the best vector of that size's supports.

A card predicts positive when ``a s + b > 0``, i.e. when its (integer) total exceeds ``-b/a``:
its integer intercept is ``-floor(-b/a)``, clipped into the intercept's box, and its risk is
the fitted logistic ``1 / (1 + exp(-a (s - c)))`` with ``c = -b/a``. No C0 enters: the size is
the only parameter, and cross-validation chooses it. Deterministic (work is counted, the
budget's clock is only a safety net). Nothing is proven about a logistic card: it is the best
found by this search, not an optimum.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..problem.slim import SlimProblem
from .beam import WIDTH, Budget, LogisticPath, PathState, grow, ray_candidates

NEWTON_STEPS = 4  # of the slope-and-offset fit of each integer vector, from the continuous fit's scale
SHORTLIST = 8  # integer vectors per size whose slope and offset are fitted (the least loss at their start)
#: Budget entries one row x candidate of the slope-and-offset fit counts as, per Newton step
#: (as beam.LOGISTIC_COST counts a matrix-vector entry of the path).
SCALE_COST = 0.1


@dataclass(frozen=True)
class LogisticCard:
    """An integer card of the logistic path: points per design column, its integer intercept,
    and the logistic risk it was fitted with (``scale`` a = log-odds per point, ``center`` c =
    the total at risk 1/2, ``loss`` the weighted mean logistic loss on the training rows)."""

    coef: np.ndarray
    intercept: int
    scale: float
    center: float
    loss: float

    @property
    def size(self) -> int:
        """Items on the card (non-zero points)."""
        return int(np.count_nonzero(self.coef))


def logistic_cards(problem: SlimProblem, max_items: int, budget: Budget) -> list[LogisticCard]:
    """The best logistic card of each size 1, 2, ... up to ``max_items`` (fewer when the free
    columns, ``problem.max_features`` or the budget run out first), in order of size; a size
    whose rounding leaves fewer items than its support still counts as that size's card."""
    path = LogisticPath(problem)
    cap = min(max_items, problem.feature_cap, len(path.columns))
    top = int(max(np.abs(problem.coef_lo).max(initial=0), np.abs(problem.coef_hi).max(initial=0), 1))
    cards: list[LogisticCard] = []
    beam = [path.empty()]
    for _ in range(cap):
        if budget.spent:
            break
        beam = grow(path, beam, WIDTH, budget)
        if not beam:
            break
        cards.append(_best_rounding(problem, path, beam, top, budget))
    return cards


def _best_rounding(problem: SlimProblem, path: LogisticPath, beam: list[PathState], top: int,
                   budget: Budget) -> LogisticCard:
    """The integer vector of least logistic loss (best slope and offset) among the ray
    candidates of every support in ``beam``."""
    p = problem.n_columns
    blocks, slopes, offsets = [], [], []
    for state in beam:
        w = path.direction(state, p)
        coefs = ray_candidates(problem, w, top)
        if not len(coefs):
            continue
        # the continuous fit's margin is X w + offset; a vector rounded at largest magnitude m
        # holds about m / max|w| times w, so a = max|w| / max|c| starts each fit on that scale
        offset = float(path.Z[0] @ state.beta + state.intercept - problem.X[0] @ w)
        largest = np.abs(coefs).max(axis=1)
        largest[largest == 0] = 1.0
        blocks.append(coefs)
        slopes.append(np.abs(w).max() / largest)
        offsets.append(np.full(len(coefs), offset))
    coefs = np.vstack(blocks)
    slope, offset = np.concatenate(slopes), np.concatenate(offsets)
    scores = problem.X @ coefs.T
    # the loss at each vector's starting scale ranks them; the best few get the Newton fit
    z = scores * slope + offset
    start = path.weight @ (np.logaddexp(0.0, z) - path.target[:, None] * z)
    keep = np.sort(np.argsort(start, kind="stable")[:SHORTLIST])
    budget.spend(SCALE_COST * (scores.size + NEWTON_STEPS * len(keep) * scores.shape[0]))
    loss, a, b = scaled_fit(scores[:, keep], path.target, path.weight, slope[keep], offset[keep])
    coefs = coefs[keep]
    k = int(np.argmin(loss))
    center = -b[k] / a[k] if a[k] > 0 else math.copysign(math.inf, -b[k])
    intercept = int(np.clip(-math.floor(center) if math.isfinite(center) else (problem.intercept_hi if center < 0
                            else problem.intercept_lo), problem.intercept_lo, problem.intercept_hi))
    return LogisticCard(coefs[k].astype(np.int64), intercept, float(a[k]), float(center), float(loss[k]))


def scaled_fit(scores: np.ndarray, target: np.ndarray, weight: np.ndarray, slope: np.ndarray, offset: np.ndarray,
               steps: int = NEWTON_STEPS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each column of ``scores`` (rows x candidates), the slope a >= 0 and offset b that
    minimize ``sum_i weight_i (log(1 + exp(a s_i + b)) - target_i (a s_i + b))``: ``steps``
    Newton steps on (a, b) from ``(slope, offset)`` (the loss is convex in them; from that
    start a few steps converge), the start kept where they ended higher. Returns (loss, a, b),
    one of each per candidate."""
    w, t = weight[:, None], target[:, None]

    def losses(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        z = scores * a + b
        return (w * (np.logaddexp(0.0, z) - t * z)).sum(axis=0)

    a0, b0 = slope.astype(np.float64), offset.astype(np.float64)
    a, b = a0.copy(), b0.copy()
    for _ in range(steps):
        z = scores * a + b
        prob = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        r = w * (prob - t)
        h = w * prob * (1 - prob)
        ga, gb = (r * scores).sum(axis=0), r.sum(axis=0)
        haa, hab, hbb = (h * scores * scores).sum(axis=0) + 1e-12, (h * scores).sum(axis=0), h.sum(axis=0) + 1e-12
        det = np.maximum(haa * hbb - hab ** 2, 1e-300)
        a = np.maximum(a - (hbb * ga - hab * gb) / det, 0.0)
        b = b - (haa * gb - hab * ga) / det
    start, end = losses(a0, b0), losses(a, b)
    better = end <= start
    return np.where(better, end, start), np.where(better, a, a0), np.where(better, b, b0)
