"""Solving a SLIM problem: the one entry every trainer calls (``fit_problem``).

Plain SLIM problems under ``--solver auto``/``cpsat`` go to ``auto.py`` (warm start, exact
search, CP-SAT, the integer program); constrained problems and named MIP backends go to the
integer program (:func:`.mip.solve_mip`) from a local-search warm start, repaired to meet
every hard constraint. Every phase runs until ``options.deadline`` at most.
"""
from __future__ import annotations

import time
from typing import Optional

import numpy as np

from ..problem.constrained import violations
from ..problem.slim import SlimProblem
from ..search.warm_start import Incumbent, warm_start
from ..search.repair import feasible_start
from . import auto
from .mip import solve_mip
from .options import Phase, SolveOptions
from .progress import ProgressCallback
from .outcome import Outcome
from .pulp_mip import SolveResult, resolve

WARM_START_SHARE = 0.1  # of the time left, for the local search (and at most WARM_START_MAX s)
WARM_START_MAX = 5.0


def _feasible(problem: SlimProblem, incumbent: Incumbent, search: Phase) -> Incumbent | None:
    """The local-search model if it meets every hard constraint, else a feasible repair of
    it (resolve.feasible_start), else None: the IP trusts its warm start as an upper bound."""
    if not violations(problem, incumbent.coef, incumbent.intercept):
        return incumbent
    fixed = feasible_start(problem, incumbent.coef, incumbent.intercept, search.seconds, search.by_work)
    return Incumbent(coef=fixed[0], intercept=fixed[1], objective=problem.objective(*fixed)) if fixed else None


def fit_problem(problem: SlimProblem, options: SolveOptions,
                progress: Optional[ProgressCallback] = None) -> tuple[np.ndarray, int, SolveResult]:
    """Solve a SLIM problem by ``options.deadline``: integer coefficients, intercept and the
    solver's report.

    When the solver stops on the time limit without a model but the warm start is
    feasible, the warm start is returned with status ``time_limit``.
    """
    if options.solver in ("auto", "cpsat") and auto.applies(problem):  # warm start, exact search, CP-SAT (issue 5)
        return auto.fit_auto(problem, options, progress)
    start = time.monotonic()
    search = options.phase(WARM_START_SHARE, WARM_START_MAX)
    incumbent = warm_start(problem, seconds=search.clock, max_features=problem.max_features,
                           until=options.deadline.at)
    usable = _feasible(problem, incumbent, search)
    try:
        out = solve_mip(problem, usable, options, progress)
    except KeyboardInterrupt:  # Ctrl-C: the warm start, when it meets every constraint
        if usable is None:
            raise
        out = Outcome(usable, 0.0, "interrupted", resolve(options.solver), time.monotonic() - start)
    best = out.incumbent
    return best.coef, best.intercept, SolveResult(solver=out.backend, status=out.status, objective=best.objective,
                                                  bound=out.lower_bound, gap=out.gap,
                                                  seconds=time.monotonic() - start)
