"""``--solver auto``: the fastest certificate we have for the problem at hand.

1. A warm start in milliseconds (:mod:`..warmstart`), reported as the first progress event,
   so an interrupted run still returns a good model.
2. If the incumbent leaves few supports that could beat it (collision and L0 bounds,
   :func:`.enumerate.plan`), exhaustive search proves the optimum: sub-second on
   bankruptcy, haberman, mammo and breastcancer (C0 = 0.025), where a MIP takes seconds.
3. Otherwise more local search, then the plan again with a larger budget.
4. Otherwise a MIP from the incumbent: CP-SAT when OR-Tools is installed and the data scales
   exactly to integers, else the PuLP formulation on HiGHS (or CBC).
Ctrl-C at any point returns the best model so far with status "interrupted".
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

from ..bounds import unavoidable_loss
from ..formulation import Incumbent
from ..problem import SlimProblem
from ..progress import Progress, relative_gap
from ..warmstart import warm_start
from . import cpsat, enumerate as exhaustive

# Work (candidates x first-cascade rows) below which exhaustive search runs at once, and the
# larger budget allowed after the full local search (about 1 s and 20 s of numpy on 2 cores).
QUICK_WORK = 2e7
FULL_WORK = 4e8
# Seconds the larger plan may spend listing supports (the quick one gets its share of it).
PLAN_SECONDS = 1.0


@dataclass(frozen=True)
class Outcome:
    """The best model, the proven lower bound on the optimum, the status ("optimal",
    "time_limit" or "interrupted") and the backend that produced the certificate."""

    incumbent: Incumbent
    lower_bound: float
    status: str
    backend: str
    seconds: float

    @property
    def gap(self) -> float | None:
        return relative_gap(self.incumbent.objective, self.lower_bound)


def solve(problem: SlimProblem, time_limit: float, threads: int = 2, seed: int = 0,
          progress: Callable[[Progress], None] | None = None,
          mip: Callable[[SlimProblem, Incumbent, float], Outcome] | None = None) -> Outcome:
    """Certify the optimum of ``problem`` within ``time_limit`` seconds (see the module doc).

    ``mip`` solves the IP from an incumbent when neither exhaustive search nor CP-SAT
    applies (the PuLP path of :mod:`..solve`); without it the incumbent is returned as is.
    """
    start = time.monotonic()
    deadline = start + time_limit
    state = {"best": None, "bound": unavoidable_loss(problem), "backend": "warmstart"}

    def report(found: Incumbent, message: str) -> None:
        if not math.isfinite(found.objective) and state["best"] is not None:
            return
        if state["best"] is None or found.objective < state["best"].objective:
            state["best"] = found
            if progress is not None and math.isfinite(found.objective):
                progress(Progress(elapsed=time.monotonic() - start, incumbent=found.objective,
                                  bound=state["bound"], gap=relative_gap(found.objective, state["bound"]),
                                  message=message))

    def outcome(best: Incumbent, bound: float, status: str, backend: str) -> Outcome:
        return Outcome(best, min(bound, best.objective), status, backend, time.monotonic() - start)

    try:
        report(warm_start(problem, seconds=0.0, on_improve=lambda inc: report(inc, "warm start")), "warm start")
        state["backend"] = "enumerate"
        found = _exhaustive(problem, state["best"], QUICK_WORK, deadline, report)
        if found is not None:
            return outcome(found.incumbent, found.lower_bound, found.status, "enumerate")
        budget = min(1.0, 0.1 * time_limit)
        report(warm_start(problem, seconds=budget, on_improve=lambda inc: report(inc, "local search")),
               "local search")
        found = _exhaustive(problem, state["best"], FULL_WORK, deadline, report)
        if found is not None:
            return outcome(found.incumbent, found.lower_bound, found.status, "enumerate")
        remaining = max(0.01, deadline - time.monotonic())
        state["backend"] = "cpsat"
        if cpsat.available():
            result = cpsat.solve(problem, state["best"], remaining, threads, seed, progress=None
                                 if progress is None else _shifted(progress, start))
            if result is not None and result.incumbent is not None:
                return outcome(result.incumbent, result.lower_bound, result.status, "cpsat")
        if mip is not None:
            return mip(problem, state["best"], remaining)
        return outcome(state["best"], state["bound"], "time_limit", "warmstart")
    except KeyboardInterrupt:
        if state["best"] is None:
            raise
        return outcome(state["best"], state["bound"], "interrupted", state["backend"])


def _exhaustive(problem: SlimProblem, incumbent: Incumbent, max_work: float, deadline: float,
                report: Callable[[Incumbent, str], None]) -> exhaustive.SearchResult | None:
    seconds = PLAN_SECONDS * max_work / FULL_WORK
    plan = exhaustive.plan(problem, incumbent.objective, max_work=max_work,
                           seconds=max(0.0, min(seconds, deadline - time.monotonic())))
    if plan is None:
        return None
    return exhaustive.search(problem, incumbent, plan, deadline=deadline,
                             on_improve=lambda inc: report(inc, "exhaustive search"))


def _shifted(progress: Callable[[Progress], None], start: float) -> Callable[[Progress], None]:
    """Progress events of a backend that started later, timed from ``start``."""
    offset = time.monotonic() - start

    def forward(event: Progress) -> None:
        progress(Progress(elapsed=event.elapsed + offset, incumbent=event.incumbent, bound=event.bound,
                          gap=event.gap, message=event.message))

    return forward


def applies(problem: SlimProblem) -> bool:
    """Whether these backends can solve ``problem``: the plain SLIM box problem (coefficient
    and intercept ranges, signs, per-column C0, min/max features); other constraints go to
    the MIP of ``formulation/``."""
    return problem.constraints is None


def fit_auto(problem: SlimProblem, config, progress: Callable[[Progress], None] | None = None):
    """``fit.fit_problem`` for ``--solver auto``: (coef, intercept, SolveResult), the solver
    named ``auto:BACKEND`` after the backend that produced the certificate."""
    from ..solve import SolveResult

    def mip(problem: SlimProblem, incumbent: Incumbent, remaining: float) -> Outcome:
        return _pulp_mip(problem, incumbent, remaining, config, progress)

    start = time.monotonic()
    out = solve(problem, config.time_limit, threads=config.threads, seed=config.seed, progress=progress, mip=mip)
    best = out.incumbent
    result = SolveResult(solver=f"auto:{out.backend}", status=out.status, objective=best.objective,
                         bound=out.lower_bound, gap=out.gap, seconds=time.monotonic() - start)
    return best.coef, best.intercept, result


def _pulp_mip(problem: SlimProblem, incumbent: Incumbent, remaining: float, config,
              progress: Callable[[Progress], None] | None) -> Outcome:
    """The PuLP formulation on HiGHS (CBC without highspy), from the incumbent."""
    from ..formulation.slim import formulate, read_solution
    from ..solve import available, solve as solve_lp

    start = time.monotonic()
    name = "highs" if available("highs") else "cbc"
    ip = formulate(problem, incumbent if math.isfinite(incumbent.objective) else None)
    result = solve_lp(ip.lp, name, time_limit=remaining, threads=config.threads, seed=config.seed,
                      gap_abs=0.25 * problem.epsilon * ip.scale, warm_start=ip.warm_started, scale=ip.scale,
                      progress=progress)
    coef, intercept = read_solution(ip, problem.n_columns)
    best = Incumbent(coef, intercept, problem.objective(coef, intercept))
    if best.objective > incumbent.objective:
        best = incumbent
    bound = result.bound if result.bound is not None else 0.0
    return Outcome(best, min(bound, best.objective), result.status, name, time.monotonic() - start)
