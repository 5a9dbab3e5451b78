"""A zero-error start: fix every prediction to its row's label and solve the easier IP.

With every z_k fixed the big-M loss constraints become plain linear ones (score_k >= gamma
on positive rows, score_k <= 0 on negative ones), so the IP is a small covering problem the
solver settles fast, and its answer is the sparsest model that makes no training error,
if one exists. On separable data such as mushroom this finds the optimal M-of-N table
(0 % error) in seconds where the full IP, searching through z, takes minutes; its model
then warm-starts the full IP. Only worth trying when no merged row holds both labels.
"""
from __future__ import annotations

import numpy as np
import pulp
from scorecard.runtime.errors import InfeasibleError

from ..problem.constrained import violations
from ..problem.slim import SlimProblem
from ..search.warm_start import Incumbent
from .ip.slim import SlimIP, read_solution
from .options import SolveOptions
from .pulp_mip import solve

#: Share of the time left the zero-error IP may use.
SHARE = 0.3


def worth_trying(problem: SlimProblem, incumbent: Incumbent | None) -> bool:
    """True on binary designs (rules, one-hot data: the zero-error IP is then a covering
    problem, quickly solved or refuted) where a zero-error model could exist and the warm
    start makes errors."""
    binary = bool(np.all((problem.X == 0) | (problem.X == 1)))
    pure = not np.any((problem.pos_w > 0) & (problem.neg_w > 0))
    return binary and pure and (incumbent is None or problem.loss(incumbent.coef, incumbent.intercept) > 0)


def zero_error_model(ip: SlimIP, problem: SlimProblem, options: SolveOptions) -> Incumbent | None:
    """The best zero-error model found by ``options.deadline`` in ``ip`` (restored afterwards)."""
    variables = ip.lp.variablesDict()
    fixed = []
    for k in range(len(problem.X)):
        z = variables.get(f"z_{k}")
        if z is not None:
            fixed.append((z, z.lowBound, z.upBound))
            z.lowBound = z.upBound = 1 if problem.pos_w[k] > 0 else 0
    try:
        solve(ip.lp, options, scale=ip.scale)
        coef, intercept = read_solution(ip, problem.n_columns)
    except InfeasibleError:
        return None
    finally:
        for z, low, high in fixed:
            z.lowBound, z.upBound = low, high
    if problem.loss(coef, intercept) > 0 or violations(problem, coef, intercept):
        return None
    return Incumbent(coef=coef, intercept=intercept, objective=problem.objective(coef, intercept))


def use_as_start(ip: SlimIP) -> None:
    """Make the values the last solve left in ``ip`` (a zero-error model) its warm start."""
    for var in ip.lp.variables():
        if var.varValue is not None:
            var.setInitialValue(round(var.varValue) if var.cat == pulp.LpInteger else var.varValue)
