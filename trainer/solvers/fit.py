"""Solving a SLIM problem: the one entry every trainer calls (``fit_problem``).

Plain SLIM problems under ``--solver auto``/``cpsat`` go to ``auto.py`` (warm start, exact
search, CP-SAT, the integer program); constrained problems and named MIP backends go to the
integer program here: local-search warm start, repaired to meet every hard constraint, a
zero-error phase where one may exist, then the MIP, whose model is checked against every
constraint with the runtime's rule before it is trusted.
"""
from __future__ import annotations

import time
from typing import Optional

import numpy as np
from scorecard.runtime.errors import InfeasibleError, NoModelInTimeError

from ..options.config import TrainConfig
from ..problem.constrained import violations
from ..problem.slim import SlimProblem
from ..search.warm_start import Incumbent, warm_start
from ..search.repair import feasible_start
from . import auto
from . import zero_error as separable
from .ip.slim import formulate, read_solution
from .progress import ProgressCallback
from .pulp_mip import SolveResult, solve

WARM_START_SHARE = 0.1  # of the time limit, for the local search (and at most WARM_START_MAX s)
WARM_START_MAX = 5.0


def _feasible(problem: SlimProblem, incumbent: Incumbent, seconds: float) -> Incumbent | None:
    """The local-search model if it meets every hard constraint, else a feasible repair of
    it (resolve.feasible_start), else None: the IP trusts its warm start as an upper bound."""
    if not violations(problem, incumbent.coef, incumbent.intercept):
        return incumbent
    fixed = feasible_start(problem, incumbent.coef, incumbent.intercept, seconds)
    return Incumbent(coef=fixed[0], intercept=fixed[1], objective=problem.objective(*fixed)) if fixed else None


def fit_problem(problem: SlimProblem, config: TrainConfig,
                progress: Optional[ProgressCallback] = None) -> tuple[np.ndarray, int, SolveResult]:
    """Solve a SLIM problem: integer coefficients, intercept and the solver's report.

    When the solver stops on the time limit without a model but the warm start is
    feasible, the warm start is returned with status ``time_limit`` and no bound.
    """
    if config.solver in ("auto", "cpsat") and auto.applies(problem):  # warm start, exact search, CP-SAT (issue 5)
        return auto.fit_auto(problem, config, progress)
    start = time.monotonic()
    incumbent = warm_start(problem, seconds=min(WARM_START_MAX, WARM_START_SHARE * config.time_limit),
                             max_features=problem.max_features)
    usable = _feasible(problem, incumbent, min(WARM_START_MAX, WARM_START_SHARE * config.time_limit))
    ip = formulate(problem, usable)
    remaining = max(1.0, config.time_limit - (time.monotonic() - start))
    warm = ip.warm_started
    if separable.worth_trying(problem, usable):  # a zero-error model, fast when one exists
        found = separable.zero_error_model(ip, problem, config.solver, separable.SHARE * remaining,
                                           config.threads, config.seed)
        if found is not None and (usable is None or found.objective < usable.objective):
            usable, warm = found, True
            separable.use_as_start(ip)
        remaining = max(1.0, config.time_limit - (time.monotonic() - start))
    gap_abs = 0.25 * problem.epsilon * ip.scale
    try:
        result = solve(ip.lp, config.solver, time_limit=remaining, threads=config.threads, seed=config.seed,
                       gap_abs=gap_abs, warm_start=warm, scale=ip.scale, progress=progress)
    except InfeasibleError as exc:
        if usable is None or not isinstance(exc, NoModelInTimeError):
            raise
        seconds = time.monotonic() - start
        return usable.coef, usable.intercept, SolveResult(solver=config.solver, status="time_limit",
                                                          objective=usable.objective, bound=None, gap=None,
                                                          seconds=seconds)
    coef, intercept = read_solution(ip, problem.n_columns)
    broken = violations(problem, coef, intercept)
    if usable is not None and (broken or usable.objective < problem.objective(coef, intercept)):
        coef, intercept = usable.coef, usable.intercept  # the solver's rounding made it worse
    elif broken:
        raise NoModelInTimeError(f"the solver's model breaks a constraint ({broken[0]}); raise the time limit")
    return coef, intercept, result
