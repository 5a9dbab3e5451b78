"""Data reduction (Section 4.2, Algorithm 2): drop the rows every near-optimal model agrees on.

Proxy: the LP relaxation of the SLIM IP (the paper's "off-the-shelf" choice, Section 4.2.1):
the same variables and big-M loss constraints with integrality dropped, so ``Z~(f) <= Z(f)``
for every integer model. Stage 1 solves it (``Z~(f~*)``, the labels ``y~ = sign f~*(x)``);
the level-set width is ``eps = Z(f^) - Z~(f~*)`` with ``f^`` the warm start (Section 4.2.1).
Stage 2 solves it again for each distinct row forced to the other label; a row whose
variant costs more than ``Z~(f~*) + eps`` is one no near-optimal model labels otherwise, and
leaves the data. Only rows that the proxy optimum and the warm start both give their
(majority) true label are candidates.

This eps meets Theorem 4.1's condition, but exactness does not even rest on that: it rests
on a check, so a smaller (unproven) width stays safe too: a removed row
costs every model at least its minority weight, so
``Z(f; all rows) >= Z(f; kept rows) + sum_removed min(w+, w-)`` for every model ``f``, with
equality for a model that gives each removed row its majority label. Hence if the optimum
on the kept rows does that, it is optimal on all rows, and its lower bound plus the
constant is a lower bound for the full problem. :func:`fit_reduced` puts back any removed
row the reduced optimum mislabels and solves again (at most ``ROUNDS`` times, then whole).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Optional

import numpy as np

from .config import TrainConfig
from .decompose import quiet_highs
from .problem import SlimProblem
from .progress import ProgressCallback

LP_SLACK = 1e-7  # a row leaves only when its variant beats the level set by more than this
ROUNDS = 3       # reduced solves before solving the whole problem


@dataclass(frozen=True)
class Reduction:
    """What Algorithm 2 did to a problem.

    problem: the reduced problem (its distinct rows are the kept ones).
    kept: per distinct row of the original problem, whether it stays.
    labels: per distinct row, the proxy optimum's label (+1/-1); removed rows keep it in
      every near-optimal model.
    width: the level-set width eps; proxy: the relaxation's optimum Z~(f~*).
    removed_rows: data rows removed (with their duplicates).
    """

    problem: SlimProblem
    kept: np.ndarray
    labels: np.ndarray
    width: float
    proxy: float
    removed_rows: int
    seconds: float


class _Relaxation:
    """The LP relaxation of the SLIM IP over a problem's distinct rows, as one HiGHS model."""

    def __init__(self, problem: SlimProblem) -> None:
        import highspy

        self.h = h = quiet_highs()
        inf = highspy.kHighsInf
        X = problem.X.astype(np.float64)
        K, P = X.shape
        lo = np.concatenate([[problem.intercept_lo], problem.coef_lo]).astype(np.float64)
        hi = np.concatenate([[problem.intercept_hi], problem.coef_hi]).astype(np.float64)
        self.Xb = np.hstack([np.ones((K, 1)), X])
        smallest = np.minimum(self.Xb * lo, self.Xb * hi).sum(axis=1)
        largest = np.maximum(self.Xb * lo, self.Xb * hi).sum(axis=1)
        self.gamma = problem.gamma if problem.gamma_exact else 0.0
        self.n_lam = P + 1

        def add(lower, upper, cost) -> np.ndarray:
            start = h.getNumCol()
            n = len(lower)
            h.addVars(n, np.asarray(lower, float), np.asarray(upper, float))
            idx = np.arange(start, start + n, dtype=np.int32)
            h.changeColsCost(n, idx, np.asarray(cost, float))
            return idx

        lam = add(lo, hi, np.zeros(P + 1))
        alpha = add(np.zeros(P), np.ones(P), problem.c0)
        beta = add(np.zeros(P), np.full(P, inf), np.full(P, problem.epsilon))
        for j in range(P):
            h.addRow(-inf, 0.0, 2, np.array([lam[j + 1], alpha[j]], np.int32), np.array([1.0, -hi[j + 1]]))
            h.addRow(0.0, inf, 2, np.array([lam[j + 1], alpha[j]], np.int32), np.array([1.0, -lo[j + 1]]))
            h.addRow(0.0, inf, 2, np.array([beta[j], lam[j + 1]], np.int32), np.array([1.0, -1.0]))
            h.addRow(0.0, inf, 2, np.array([beta[j], lam[j + 1]], np.int32), np.array([1.0, 1.0]))
        if problem.max_features is not None:
            h.addRow(-inf, float(problem.max_features), P, alpha, np.ones(P))
        cols = lam.tolist()
        for k in range(K):  # positives: M psi + score >= gamma; negatives: M psi - score >= 0
            for weight, sign, need, big in ((problem.pos_w[k], 1.0, self.gamma, self.gamma - smallest[k]),
                                            (problem.neg_w[k], -1.0, 0.0, largest[k])):
                if weight > 0 and big > 0:  # big <= 0: every model in the box gets the row right
                    psi = add([0.0], [1.0], [weight])[0]
                    h.addRow(need, inf, P + 2, np.array(cols + [psi], np.int32),
                             np.concatenate([sign * self.Xb[k], [big]]))
        self.lam = lam
        self._inf = inf

    def solve(self) -> tuple[float, np.ndarray]:
        import highspy

        self.h.run()
        if self.h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return np.inf, np.zeros(self.n_lam)
        return self.h.getInfo().objective_function_value, np.asarray(self.h.getSolution().col_value)[: self.n_lam]

    def value_at(self, lam: np.ndarray) -> float:
        """``Z~(f)`` of a fixed model: the relaxation with the coefficients held at ``lam``."""
        lower, upper = self.h.getLp().col_lower_, self.h.getLp().col_upper_
        idx = self.lam
        fixed = np.asarray(lam, dtype=np.float64)
        self.h.changeColsBounds(len(idx), idx, fixed, fixed)
        value, _ = self.solve()
        self.h.changeColsBounds(len(idx), idx, np.asarray(lower)[idx], np.asarray(upper)[idx])
        return value

    def solve_flipped(self, k: int, label: int) -> float:
        """The relaxation's optimum with distinct row ``k`` forced to the label ``-label``."""
        row = self.h.getNumRow()
        if label > 0:   # force a negative prediction: score <= 0
            self.h.addRow(-self._inf, 0.0, self.n_lam, self.lam, self.Xb[k])
        else:           # force a positive prediction: score >= gamma (>= 0 when gamma is inexact)
            self.h.addRow(self.gamma, self._inf, self.n_lam, self.lam, self.Xb[k])
        value, _ = self.solve()
        self.h.deleteRows(1, np.array([row], np.int32))
        return value


def reduce_problem(problem: SlimProblem, coef: np.ndarray, intercept: int, width: float | None = None) -> Reduction:
    """Algorithm 2 on ``problem``; ``(coef, intercept)`` is a feasible model ``f^``.

    width: the level-set width eps; None uses ``Z(f^) - Z~(f~*)``, which satisfies Theorem
    4.1's condition (``Z~(f*) <= Z(f*) <= Z(f^)``). The paper's Figure 10 also tries smaller
    widths down to ``Z~(f*) - Z~(f~*)``; any width is safe here (see :func:`fit_reduced`).
    """
    start = time.monotonic()
    relaxation = _Relaxation(problem)
    proxy, lam = relaxation.solve()
    if width is None:
        width = max(problem.objective(coef, intercept) - proxy, 0.0)
    labels = np.where(relaxation.Xb @ lam > 0, 1, -1)
    warm = np.where(problem.scores(coef, intercept) > 0, 1, -1)
    majority = np.where(problem.pos_w > problem.neg_w, 1, np.where(problem.neg_w > problem.pos_w, -1, 0))
    kept = np.ones(len(problem.X), dtype=bool)
    for k in np.flatnonzero((labels == majority) & (warm == majority)):
        if relaxation.solve_flipped(k, int(labels[k])) > proxy + width + LP_SLACK:
            kept[k] = False
    return Reduction(problem=subset(problem, kept), kept=kept, labels=labels, width=width, proxy=proxy,
                     removed_rows=removed_rows(problem, kept), seconds=time.monotonic() - start)


def removed_rows(problem: SlimProblem, kept: np.ndarray) -> int:
    """How many data rows the removed distinct rows stand for."""
    return int(np.isin(problem.row_of, np.flatnonzero(~kept)).sum())


def subset(problem: SlimProblem, kept: np.ndarray) -> SlimProblem:
    """The problem over the kept distinct rows (data rows of removed ones map to -1)."""
    index = np.full(len(kept), -1, dtype=np.int64)
    index[kept] = np.arange(int(kept.sum()))
    constraints = problem.constraints
    if constraints is not None:
        constraints = replace(constraints, pos_n=constraints.pos_n[kept], neg_n=constraints.neg_n[kept])
    return replace(problem, X=problem.X[kept], pos_w=problem.pos_w[kept], neg_w=problem.neg_w[kept],
                   row_of=index[problem.row_of], constraints=constraints)


def mislabelled(problem: SlimProblem, kept: np.ndarray, coef: np.ndarray, intercept: int) -> np.ndarray:
    """Removed distinct rows the model does not give their majority label (bool per distinct row)."""
    positive = problem.scores(coef, intercept) > 0
    wrong = np.where(positive, problem.neg_w > problem.pos_w, problem.pos_w > problem.neg_w)
    return ~kept & wrong


def fit_reduced(problem: SlimProblem, config: TrainConfig, progress: Optional[ProgressCallback] = None,
                width: float | None = None):
    """``fit.fit_problem`` on the reduced problem, checked (see the module doc).

    Returns ``(coef, intercept, result, info)`` with the result's lower bound raised to one
    for the full problem, and ``info`` the reduction's report for ``training.params``. Rate
    limits (max FPR, min TPR, ...) count every row: with them the problem is solved whole.
    """
    from .fit import fit_problem
    from .formulation import local_search
    from .resolve import violations

    limits = problem.constraints is not None and any(
        k in problem.constraints.present for k in ("max_fpr", "min_tpr", "max_positive_rate"))
    start = local_search(problem, seconds=min(5.0, 0.1 * config.time_limit), max_features=problem.max_features)
    if limits or violations(problem, start.coef, start.intercept):
        coef, intercept, result = fit_problem(problem, config, progress)
        return coef, intercept, result, {"rows_removed": 0, "reason": "rate limits or no feasible warm start"}
    reduction = reduce_problem(problem, start.coef, start.intercept, width)
    kept = reduction.kept.copy()
    for _ in range(ROUNDS):
        coef, intercept, result = fit_problem(subset(problem, kept), config, progress)
        wrong = mislabelled(problem, kept, coef, intercept)
        if not wrong.any():
            floor = float(np.minimum(problem.pos_w, problem.neg_w)[~kept].sum())
            if result.bound is not None:
                result = replace(result, bound=result.bound + floor)
            info = {"rows_removed": removed_rows(problem, kept), "distinct_rows_removed": int((~kept).sum()),
                    "width": reduction.width, "seconds": round(reduction.seconds, 3)}
            return coef, intercept, result, info
        kept |= wrong
    coef, intercept, result = fit_problem(problem, config, progress)
    return coef, intercept, result, {"rows_removed": 0, "reason": "the reduced optimum kept mislabelling removed rows"}
