"""Small C0s: when an avoidable error costs more than a feature, search the models that
make none first, and certify the result.

Each distinct row's best prediction is its heavier label (:func:`majority`); a model that
predicts every row so has the unavoidable loss U, and any other model pays at least U + d,
d the smallest |pos_w - neg_w| among rows whose labels do not tie (:func:`lightest_error`).
When the largest penalty (C0 and epsilon L1) a model can pay is below d, as at the paper's
C0 = 0.9 / NP (Section 6: "the most accurate model"), the optimum is the sparsest such
model if one exists (:func:`decisive`); when only the cheapest feature costs less than d
(:func:`applies`), such a model is a strong incumbent for the full search. CP-SAT with
every prediction fixed (:func:`..solvers.cpsat.solve` with ``predictions``) has no implications left
to branch on, only the covering problem of the coefficients: on mushroom it finds a
7-feature zero-error model in a minute where the full problem's search ends at 31
features. The certificate (:func:`bound`): the optimum is at least min(U + d, the
restricted problem's lower bound), so the best model making no avoidable error is the
optimum once that bound reaches it.
"""
from __future__ import annotations

import numpy as np

from ..problem.bounds import size_limit, unavoidable_loss
from ..problem.slim import SlimProblem, free_columns, penalty_terms
from .warm_start import Incumbent


def majority(problem: SlimProblem) -> np.ndarray:
    """Per distinct row, the prediction of least loss: 1 (positive), 0 (negative) or -1
    (a tie: either costs the same)."""
    return np.where(problem.pos_w > problem.neg_w, 1, np.where(problem.neg_w > problem.pos_w, 0, -1))


def lightest_error(problem: SlimProblem) -> float:
    """d: the least loss a model adds to U by predicting one row against its majority."""
    excess = np.abs(problem.pos_w - problem.neg_w)
    excess = excess[excess > 0]
    return float(excess.min()) if len(excess) else float("inf")


def applies(problem: SlimProblem) -> bool:
    """Whether one avoidable error costs more than the cheapest feature, so that a model
    making none may well be the optimum (worth searching those first)."""
    return len(free_columns(problem)) > 0 and problem.feature_price < lightest_error(problem)


def decisive(problem: SlimProblem, upper_bound: float) -> bool:
    """Whether every model better than ``upper_bound`` pays less penalty than one avoidable
    error, so that the optimum makes none if any model can."""
    limit = size_limit(problem, upper_bound)
    free = free_columns(problem)
    if limit is None or limit < 1 or len(free) == 0:
        return False
    widest = np.maximum(np.abs(problem.coef_lo[free]), np.abs(problem.coef_hi[free]))
    priciest = np.sort(penalty_terms(widest, problem.c0[free], problem.epsilon))[::-1][:limit].sum()
    return bool(priciest < lightest_error(problem))


def makes_no_avoidable_error(problem: SlimProblem, model: Incumbent) -> bool:
    """Whether ``model`` predicts every distinct row by its heavier label."""
    return problem.loss(model.coef, model.intercept) <= unavoidable_loss(problem) + 1e-12


def bound(problem: SlimProblem, restricted_bound: float) -> float:
    """A lower bound on the optimum from the restricted problem's lower bound (``inf`` when
    no model makes no avoidable error)."""
    return min(restricted_bound, unavoidable_loss(problem) + lightest_error(problem))
