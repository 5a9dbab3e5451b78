"""Sparse beam search over supports, the strong half of the warm start (after FasterRisk:
Liu, Zhong, Seltzer, Rudin, NeurIPS 2022, whose steps are adapted to the SLIM objective).

1. A path of supports on the (class-weighted, lightly ridged) logistic loss: from the empty
   model, every support of the beam is extended by the columns whose one-step Newton
   decrease of the loss is largest (each fit alone by a few coordinate Newton steps, the
   others fixed), the ``width`` best extensions are kept and refit by Newton steps on their whole support (warm-started
   from their parent, sign constraints kept).
2. Each support's continuous coefficients are turned into integer vectors along their ray
   (FasterRisk's star-ray search): scaled so the largest is m for every half-integer m up
   to the box's largest magnitude, and rounded into the box.
3. Every integer vector is judged by the exact SLIM objective with its best intercept
   (:class:`~.sweep.Sweeper`), never by the logistic loss: 0-1 loss, C0 per feature and
   epsilon L1 decide among sizes and scales.
The path stops at the feature cap, when a model of the next size would pay more in C0
than the incumbent's whole objective, after ``PATIENCE`` sizes without a better model, or
when the work budget (candidate x row entries, counted, never timed) is spent. Everything
is deterministic: the same problem and budget give the same model (a wall-clock cap is only
a safety net of the caller).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from ..problem.slim import SlimProblem, free_columns

WIDTH = 5  # supports kept per size (FasterRisk's beam size is 10; the exact objective decides here)
REFIT_STEPS = 4  # Newton steps refitting a support after it grows
COORD_STEPS = 3  # Newton steps of the one-coefficient fits that rank the extensions
RIDGE = 1e-3  # on standardized coefficients, per unit of total weight: keeps separable data finite
SHORTLIST = 2  # columns per beam support (times the width) fit before the best extensions are chosen
# Budget entries one matrix-vector entry of a logistic fit counts as (a sweep entry costs ~10x more).
LOGISTIC_COST = 0.1
PATIENCE = 4  # sizes without a better exact model before the path stops


@dataclass
class Budget:
    """Work left (candidate x row entries and their equivalents in logistic fits) and the
    safety-net deadline; ``spent`` says when either ran out."""

    entries: float
    deadline: float

    def spend(self, amount: float) -> None:
        self.entries -= amount

    @property
    def spent(self) -> bool:
        return self.entries <= 0 or time.monotonic() > self.deadline


@dataclass
class PathState:
    """One support of the path: its columns, their coefficients and intercept, its loss."""

    support: tuple[int, ...]
    beta: np.ndarray  # standardized coefficients of the free columns (zeros off the support)
    intercept: float
    loss: float


class LogisticPath:
    """The logistic loss on the problem's distinct rows (weight pos_w + neg_w, target the
    positive share), on standardized free, non-constant columns."""

    def __init__(self, problem: SlimProblem) -> None:
        cols = free_columns(problem)
        X = problem.X[:, cols].astype(np.float64)
        sd = X.std(axis=0)
        keep = sd > 0
        self.columns = cols[keep]
        self.sd = sd[keep]
        self.Z = np.ascontiguousarray((X[:, keep] - X[:, keep].mean(axis=0)) / self.sd)
        self.Z2 = self.Z * self.Z
        total = problem.pos_w + problem.neg_w
        self.weight = total / max(float(total.sum()), 1e-300)
        self.target = np.divide(problem.pos_w, total, out=np.zeros_like(total), where=total > 0)
        lo, hi = problem.coef_lo[self.columns], problem.coef_hi[self.columns]
        self.low = np.where(lo < 0, -np.inf, 0.0)  # the signs the box allows
        self.high = np.where(hi > 0, np.inf, 0.0)

    @property
    def n(self) -> int:
        return self.Z.shape[0]

    def loss(self, margin: np.ndarray) -> float:
        return float(self.weight @ (np.logaddexp(0.0, margin) - self.target * margin))

    def empty(self) -> PathState:
        share = float(self.weight @ self.target)
        b = math.log(max(share, 1e-12) / max(1 - share, 1e-12))
        return PathState((), np.zeros(len(self.columns)), b, self.loss(np.full(self.n, b)))

    def extensions(self, state: PathState, keep: int) -> tuple[np.ndarray, np.ndarray]:
        """The ``keep`` most promising columns to add to ``state`` and the loss after adding
        each with its own best coefficient (the others fixed). Columns are ranked by the
        decrease one Newton step promises, g^2 / 2h (two matrix-vector products for all of
        them); the shortlist is fit by COORD_STEPS Newton steps. Columns already in the
        support, or whose sign allows no move, are never proposed."""
        margin = self.Z @ state.beta + state.intercept
        prob = 1.0 / (1.0 + np.exp(-np.clip(margin, -30, 30)))
        grad = self.Z.T @ (self.weight * (prob - self.target))
        hess = self.Z2.T @ (self.weight * prob * (1 - prob)) + RIDGE
        step = np.clip(-grad / hess, self.low, self.high)
        gain = -(grad * step + 0.5 * hess * step ** 2)
        gain[list(state.support)] = -np.inf
        gain[step == 0] = -np.inf
        order = np.argsort(-gain, kind="stable")[:keep]
        cand = order[np.isfinite(gain[order])]
        if not len(cand):
            return cand, np.empty(0)
        Zc = self.Z[:, cand]
        alpha = step[cand]
        for _ in range(COORD_STEPS - 1):
            s = margin[:, None] + Zc * alpha
            prob = 1.0 / (1.0 + np.exp(-np.clip(s, -30, 30)))
            g = ((prob - self.target[:, None]) * Zc).T @ self.weight + RIDGE * alpha
            h = ((prob * (1 - prob)) * Zc * Zc).T @ self.weight + RIDGE
            alpha = np.clip(alpha - g / h, self.low[cand], self.high[cand])
        s = margin[:, None] + Zc * alpha
        loss = self.weight @ (np.logaddexp(0.0, s) - self.target[:, None] * s) + 0.5 * RIDGE * alpha ** 2
        return cand, loss

    def refit(self, state: PathState, column: int, steps: int = REFIT_STEPS) -> PathState:
        """``state`` grown by ``column`` (shrunk, with ``column`` in its support), refit by
        Newton steps on its support and intercept."""
        if column in state.support:
            support = tuple(c for c in state.support if c != column)
        else:
            support = tuple(sorted((*state.support, column)))
        idx = np.array(support, dtype=np.int64)
        A = np.hstack([self.Z[:, idx], np.ones((self.n, 1))])
        theta = np.append(state.beta[idx], state.intercept)
        reg = np.full(len(idx) + 1, RIDGE)
        reg[-1] = 0.0
        for _ in range(steps):
            s = A @ theta
            prob = 1.0 / (1.0 + np.exp(-np.clip(s, -30, 30)))
            grad = A.T @ (self.weight * (prob - self.target)) + reg * theta
            hess = (A * (self.weight * prob * (1 - prob))[:, None]).T @ A + np.diag(reg + 1e-9)
            theta = theta - np.linalg.solve(hess, grad)
            theta[:-1] = np.clip(theta[:-1], self.low[idx], self.high[idx])
        beta = np.zeros(len(self.columns))
        beta[idx] = theta[:-1]
        return PathState(support, beta, float(theta[-1]), self.loss(A @ theta))

    def direction(self, state: PathState, p: int) -> np.ndarray:
        """The state's coefficients in the data's units, over all ``p`` columns."""
        w = np.zeros(p)
        w[self.columns] = state.beta / self.sd
        return w


def ray_candidates(problem: SlimProblem, w: np.ndarray, top: int) -> np.ndarray:
    """Integer vectors along the ray of ``w``: largest magnitude m for m = 1, 1.5, ..., top,
    rounded into the box."""
    scale = np.max(np.abs(w)) if w.size else 0.0
    if scale == 0:
        return np.empty((0, w.size))
    multipliers = np.arange(1.0, top + 0.25, 0.5)
    out = np.clip(np.round(multipliers[:, None] * (w / scale)[None, :]), problem.coef_lo, problem.coef_hi) + 0.0
    seen: set[bytes] = set()
    first = [k for k, row in enumerate(out) if not (row.tobytes() in seen or seen.add(row.tobytes()))]
    return out[first]


def grow(path: LogisticPath, beam: list[PathState], width: int, budget: Budget) -> list[PathState]:
    """The next size of the support path: every support of ``beam`` extended by its most
    promising columns (:meth:`LogisticPath.extensions`), the ``width`` best distinct
    extensions refit on their whole support, best (lowest logistic loss) first; [] when no
    column can be added. The work is spent from ``budget``."""
    n = path.n
    size = len(beam[0].support) + 1 if beam else 1
    scored = []
    for b, state in enumerate(beam):
        cand, losses = path.extensions(state, SHORTLIST * width)
        budget.spend(LOGISTIC_COST * n * (2 * len(path.columns) + COORD_STEPS * len(cand)))
        scored += [(float(loss), b, int(j)) for j, loss in zip(cand, losses)]
    scored.sort()
    grown, seen = [], set()
    for _, b, j in scored:
        support = tuple(sorted((*beam[b].support, j)))
        if support in seen:
            continue
        seen.add(support)
        grown.append(path.refit(beam[b], j))
        budget.spend(LOGISTIC_COST * REFIT_STEPS * n * (size + 1))
        if len(grown) == width:
            break
    return sorted(grown, key=lambda s: s.loss)


def beam_candidates(problem: SlimProblem, top: int, upper_bound: float, evaluate, budget: Budget,
                    width: int = WIDTH, share: float = 1.0) -> None:
    """Walk the support path (see the module doc), handing each size's integer candidates
    to ``evaluate(coefs) -> best objective among them`` and stopping on its rules, or once
    it has spent ``share`` of the budget."""
    stop_at = budget.entries * (1.0 - share)
    path = LogisticPath(problem)
    if not len(path.columns):
        return
    p = problem.n_columns
    cap = min(problem.feature_cap, len(path.columns))
    price = problem.feature_price
    beam = [path.empty()]
    best = upper_bound
    since = 0
    for size in range(1, cap + 1):
        if price > 0 and size * price >= best:
            break
        if budget.entries <= stop_at or budget.spent:
            break
        beam = grow(path, beam, width, budget)
        if not beam:
            break
        coefs = np.vstack([ray_candidates(problem, path.direction(s, p), top) for s in beam])
        found = evaluate(coefs)
        if found < best - 1e-12:
            best, since = found, 0
        else:
            since += 1
            if since >= PATIENCE:
                break
