"""The certificate of a logistic-loss card: the exact integer program on the card's own loss.

A logistic-loss card (``search/logistic_cards.py``, FasterRisk's method) is the best of a
heuristic search: its points ``c`` minimize, among the vectors the search tried, the logistic
loss of ``a (c . x) + b`` with its best slope ``a`` and offset ``b``. At that slope the card's
problem is RiskSLIM's (Ustun & Rudin, "Learning Optimized Risk Scores", JMLR 2019: the
logistic loss over integer points, at most k of them non-zero, solved exactly by cutting
planes) on the columns ``a x``:

    min  sum_i w_i log(1 + exp(-y_i (a (c . x_i + b))))   over integer c in the card's box
         with at most k non-zero points and any offset b (in points: the card's threshold is a
         whole number of points, its risk curve may sit between two),

which ``cutting_planes.py`` (Algorithm 1: the master holds only the points, the rows only the
oracle) solves from the card as its warm start (a card of one item: every column with every
value, each with its best offset, an exact enumeration in milliseconds), within a budget of work (``--work-limit``:
ROUNDS_PER_WORK rounds and NODES_PER_WORK master nodes per unit, the same on any machine).
Either the card is proven optimal (no card of at most k items has a smaller loss at its
scale), or a better one is found, or the run ends with a lower bound: the card's loss is then
at most ``gap`` above the optimum. The slope stays the card's: the proof is about the points;
the risk a person reads is refitted on the rows afterwards (``logistic_cv.row_risk``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..problem.slim import SlimProblem
from ..search.logistic_cards import LogisticCard
from ..solvers.options import NODES_PER_WORK, SolveOptions
from .cutting_planes import cutting_planes
from .lattice import CoefficientSpace
from .losses import ArrayOracle

#: Rounds of the cutting planes per unit of ``--work-limit`` and design column (a round: one
#: master solve, whose integer program grows with the columns, and one pass over the rows): a
#: card of 6 columns gets 80 rounds, one of 100 columns 5. Proofs come on narrow designs; wide
#: ones are not kept waiting for one.
ROUNDS_PER_WORK = 500
#: ``training.solver`` of a logistic-loss card: found on the path, then the exact program.
SOLVER = "logistic path + cutting planes"
#: Relative gap at which the card counts as proven: no card's loss is lower by more than this
#: share (0.01 %).
TOLERANCE = 1e-4


@dataclass(frozen=True)
class CardProof:
    """The exact program's answer: the best card found (``card``: the given one or a better
    one, its ``loss`` the program's objective), the lower bound on every card of at most
    ``items`` items at its scale, and ``status`` "optimal" or "work_limit" (the budget ended
    first; "time_limit" when the clock did; "interrupted" after Ctrl-C)."""

    card: LogisticCard
    lower_bound: float
    status: str
    rounds: int
    cuts: int

    @property
    def gap(self) -> float:
        """(loss - lower bound) / loss: how much lower the optimum's loss could be."""
        return max(0.0, self.card.loss - self.lower_bound) / max(self.card.loss, 1e-300)


def prove(problem: SlimProblem, card: LogisticCard, items: int, options: SolveOptions) -> CardProof:
    """The exact program of ``card``'s size and scale on ``problem``'s rows (see the module
    doc), warm-started from ``card``, within ``options``' work limit (and its deadline)."""
    scale = card.scale
    pos, neg = problem.pos_w > 0, problem.neg_w > 0
    X = np.vstack([problem.X[pos], problem.X[neg]]).astype(np.float64)
    y = np.concatenate([np.ones(int(pos.sum())), -np.ones(int(neg.sum()))])
    weight = np.concatenate([problem.pos_w[pos], problem.neg_w[neg]])
    columns = np.hstack([np.full((len(X), 1), scale), scale * X])
    oracle = ArrayOracle.from_xy(columns, y, weight, loss="logistic", intercept=False, dtype=np.float64, merge=False)
    low, high = problem.intercept_lo - 1, problem.intercept_hi + 1  # the offset b / a, in points
    space = CoefficientSpace(lower=(low, *problem.coef_lo.tolist()), upper=(high, *problem.coef_hi.tolist()),
                             c0=(0.0,) * (problem.n_columns + 1), intercept=0, max_features=items, continuous=(0,))
    offset = -card.center if math.isfinite(card.center) else 0.0
    start = np.concatenate([[min(max(offset, low), high)], card.coef.astype(np.float64)])
    loss = oracle(start)[0]
    if items == 1:  # every card of one item, each with its best offset: exact in milliseconds
        best, value = _one_item(X, y, weight, problem, scale, (low, high))
        found = _card(best, value, problem, scale) if value < loss else \
            LogisticCard(card.coef, card.intercept, card.scale, card.center, float(loss))
        return CardProof(found, min(value, found.loss), "optimal", 0, 0)
    budget = {} if options.work_limit is None else {
        "max_iterations": max(1, math.ceil(options.work_limit * ROUNDS_PER_WORK / max(1, problem.n_columns))),
        "max_nodes": max(1, int(options.work_limit * NODES_PER_WORK))}
    result = cutting_planes(oracle, space, tolerance=TOLERANCE * loss, time_limit=options.deadline.limit(),
                            threads=options.threads, certificate=False, start=start, **budget)
    status = {"optimal": "optimal", "iteration_limit": "work_limit", "interrupted": "interrupted"}.get(
        result.status, "time_limit")
    if options.work_limit is None and status == "work_limit":
        status = "iteration_limit"
    if result.objective < loss:  # a better card of at most ``items`` items at this scale
        found = _card(result.coefficients, result.objective, problem, scale)
    else:
        found = LogisticCard(card.coef, card.intercept, card.scale, card.center, float(loss))
    return CardProof(found, min(result.lower_bound, found.loss), status, result.iterations, result.cuts)


def _card(point: np.ndarray, loss: float, problem: SlimProblem, scale: float) -> LogisticCard:
    """The card of a point of the program (its offset in points first, then the points)."""
    center = -float(point[0])
    intercept = int(np.clip(-math.floor(center), problem.intercept_lo, problem.intercept_hi))
    return LogisticCard(np.asarray(point[1:]).astype(np.int64), intercept, scale, center, float(loss))


#: Newton steps on the offset of each one-item card (the loss is convex in it; from the base
#: rate's offset they converge to machine precision well before).
OFFSET_STEPS = 40


def _one_item(X: np.ndarray, y: np.ndarray, weight: np.ndarray, problem: SlimProblem, scale: float,
              box: tuple[float, float]) -> tuple[np.ndarray, float]:
    """The best card of at most one item at ``scale``: every free column with every value its
    box allows (and the empty card), each with its best offset in ``box``, found by Newton's
    method on rows grouped by the column's value. Returns (offset then points, mean loss)."""
    total = float(weight.sum())
    positive = y > 0
    best_point, best = np.zeros(problem.n_columns + 1), math.inf
    candidates = [(-1, np.array([0.0]))] + [
        (j, np.array([v for v in range(int(problem.coef_lo[j]), int(problem.coef_hi[j]) + 1) if v != 0], float))
        for j in range(problem.n_columns) if problem.coef_lo[j] != 0 or problem.coef_hi[j] != 0]
    for j, values in candidates:
        column = np.zeros(len(X)) if j < 0 else X[:, j]
        levels, at = np.unique(column, return_inverse=True)
        pos = np.bincount(at, weights=weight * positive, minlength=len(levels))
        neg = np.bincount(at, weights=weight * ~positive, minlength=len(levels))
        totals = scale * values[:, None] * levels[None, :]  # (values x levels) points times the scale
        offset = np.zeros(len(values))
        for _ in range(OFFSET_STEPS):
            z = totals + scale * offset[:, None]
            p = 1.0 / (1.0 + np.exp(-np.clip(z, -700, 700)))
            grad = scale * ((pos + neg) * p - pos).sum(axis=1)
            hess = scale * scale * ((pos + neg) * p * (1 - p)).sum(axis=1) + 1e-300
            offset = np.clip(offset - grad / hess, *box)
        z = totals + scale * offset[:, None]
        losses = (pos * np.logaddexp(0.0, -z) + neg * np.logaddexp(0.0, z)).sum(axis=1) / total
        k = int(np.argmin(losses))
        if losses[k] < best:
            best = float(losses[k])
            best_point = np.zeros(problem.n_columns + 1)
            best_point[0] = offset[k]
            if j >= 0:
                best_point[j + 1] = values[k]
    return best_point, best
