"""``--solver auto``: the fastest certificate we have for the problem at hand.

1. A warm start in milliseconds (:mod:`..warmstart`), reported as the first progress event,
   so an interrupted run still returns a good model.
2. If the incumbent leaves few supports that could beat it (collision and L0 bounds,
   :func:`.enumerate.plan`), exhaustive search proves the optimum: sub-second on
   bankruptcy, haberman, mammo and breastcancer (C0 = 0.025), where a MIP takes seconds.
3. Otherwise more local search, then the plan again with a larger budget and the conflict
   bound (four rows no linear model can all get right): breastcancer at C0 = 0.01, which
   neither CPLEX nor CP-SAT proves in a minute, is proven this way.
4. Otherwise exhaustive search over the models of at most 1, 2, ... features while each
   size is cheap: every larger model pays (m + 1) C0, a lower bound reported even if the
   rest times out (mushroom: 0.03 instead of CP-SAT's 0 at C0 = 0.01) and passed on.
5. Where an avoidable error costs more than a feature, CP-SAT over the models making none
   first (:mod:`.separable`): at the smallest C0s, where any penalty costs less, that is the
   whole search (mushroom's 7-feature zero-error model); elsewhere its best model warm-starts
   the next step, or a proof in well under a second that none exists raises the bound
   (breastcancer, mammo, heart).
6. Then a MIP from the incumbent: CP-SAT over the larger models when OR-Tools is installed
   and its exact encoding applies (integer and decimal columns, up to two real-valued ones:
   see :func:`.cpsat.encode`; it beats HiGHS and CBC on the big-M IP), else the PuLP
   formulation on HiGHS (or CBC without highspy).
Ctrl-C at any point returns the best model so far with status "interrupted". Under a work
limit (``--work-limit``) the phases that otherwise run by the clock (the local search of step 3,
the listing of each plan) get budgets of work (:meth:`.options.SolveOptions.phase`), so the run
is the same on any machine.
"""
from __future__ import annotations

import dataclasses
import math
import time
from typing import Callable

from scorecard.runtime.errors import ConfigError, InfeasibleError

from ..problem.bounds import unavoidable_loss
from ..problem.slim import SlimProblem, free_columns
from ..search import exhaustive
from ..search import no_error as separable
from ..search.warm_start import WORK as WARM_WORK
from ..search.warm_start import Incumbent, warm_start
from . import cpsat
from .mip import solve_mip
from .options import SolveOptions
from .outcome import Outcome
from .progress import Progress, relative_gap
from .pulp_mip import SolveResult, available

# Work (candidates x first-cascade rows) below which exhaustive search runs at once, and the
# larger budget allowed after the full local search (about 1 s and 20 s of numpy on 2 cores).
QUICK_WORK = 2e7
#: Work of the first, cheap warm start (candidate x row entries; search/warm_start.WORK is the full
#: one): 1e4 proves bankruptcy, mammo and breastcancer (C0 0.025) fastest (benchmarks/certify.py).
QUICK_WARM_WORK = 1e4
FULL_WORK = 4e8
# Most seconds of local search before the larger plan (it stops earlier at a local optimum),
# and its share of the time left.
LOCAL_SEARCH_SECONDS = 5.0
LOCAL_SEARCH_SHARE = 0.1
#: Entries (candidates x rows) of that local search per second of its budget, under a work limit
#: (2-12 x 10^7 a second on heart, adult, spambase and mammo on one core here, 2026-11-28).
LOCAL_SEARCH_PER_SECOND = 5e7
# Seconds the quick and the larger plan may spend listing supports (the larger one at
# least PLAN_SECONDS, up to PLAN_SHARE of the time left: its conflict bounds pay).
QUICK_PLAN_SECONDS = 0.25
PLAN_SECONDS = 1.0
PLAN_SHARE = 0.15
# Work of each size-limited exhaustive search (models of at most m features) before the MIP.
SIZE_WORK = QUICK_WORK
#: Under a work limit W, the fixed budgets above shrink with it (a fold's fit of ``--c0 auto``
#: gets a twentieth of W): the quick plan and each size-limited one at most W x
#: PLAN_PER_WORK, the full plan W x FULL_PLAN_PER_WORK, the warm start's beam and local search
#: W x WARM_PER_WORK (about a second, five and one on one core here per unit).
PLAN_PER_WORK = QUICK_WORK
FULL_PLAN_PER_WORK = 1e8
WARM_PER_WORK = 4e7

MipStep = Callable[[SlimProblem, Incumbent, SolveOptions], Outcome]


def solve(problem: SlimProblem, options: SolveOptions, progress: Callable[[Progress], None] | None = None,
          mip: MipStep | None = None) -> Outcome:
    """Certify the optimum of ``problem`` by ``options.deadline`` (see the module doc).

    ``mip`` solves the IP from an incumbent when neither exhaustive search nor CP-SAT
    applies (:func:`.mip.solve_mip`); without it the incumbent is returned as is.
    """
    start = time.monotonic()
    deadline = options.deadline
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

    def raise_bound(bound: float) -> None:
        if bound > state["bound"]:
            state["bound"] = bound
            best = state["best"]
            if progress is not None and best is not None and math.isfinite(best.objective):
                progress(Progress(elapsed=time.monotonic() - start, incumbent=best.objective, bound=bound,
                                  gap=relative_gap(best.objective, bound), message="exhaustive search"))

    def outcome(best: Incumbent, bound: float, status: str, backend: str) -> Outcome:
        bound = max(bound, state["bound"])  # a backend's bound may be weaker than what we know
        return Outcome(best, min(bound, best.objective), status, backend, time.monotonic() - start)

    try:
        # A cheap warm start first (a few milliseconds) and the quick exhaustive search, which
        # proves small problems at once; only then the full beam search, for the harder ones.
        report(warm_start(problem, seconds=0.0, on_improve=lambda inc: report(inc, "warm start"),
                          work=QUICK_WARM_WORK, until=deadline.at), "warm start")
        state["backend"] = "enumerate"
        found = _exhaustive(problem, state["best"], options.scaled(QUICK_WORK, PLAN_PER_WORK), options, report,
                            raise_bound)
        if found is not None:
            return outcome(found.incumbent, found.lower_bound, found.status, "enumerate")
        state["backend"] = "warmstart"
        report(warm_start(problem, seconds=0.0, on_improve=lambda inc: report(inc, "warm start"),
                          until=deadline.at, work=options.scaled(WARM_WORK, WARM_PER_WORK)), "warm start")
        search = options.phase(LOCAL_SEARCH_SHARE, LOCAL_SEARCH_SECONDS)
        report(warm_start(problem, seconds=search.seconds, on_improve=lambda inc: report(inc, "local search"),
                          start=state["best"], until=deadline.at,
                          work=search.work * LOCAL_SEARCH_PER_SECOND if search.by_work else None),
               "local search")
        state["backend"] = "enumerate"
        found = _exhaustive(problem, state["best"], options.scaled(FULL_WORK, FULL_PLAN_PER_WORK), options, report,
                            raise_bound, full=True)
        if found is not None:
            return outcome(found.incumbent, found.lower_bound, found.status, "enumerate")
        if not options.exact:
            return outcome(state["best"], state["bound"], "time_limit", "warmstart")
        covered = _few_features(problem, state["best"], options, report, raise_bound)
        larger = dataclasses.replace(problem, min_features=max(problem.min_features or 0, covered + 1))
        state["backend"] = "cpsat"
        if cpsat.available() and separable.applies(larger):
            found = _no_avoidable_error(larger, state["best"], options, report, raise_bound)
            if found is not None:
                return outcome(found.incumbent, found.lower_bound, found.status, "cpsat")
        if cpsat.available():  # None when its encoding does not apply
            result = cpsat.solve(larger, state["best"], options, progress=None
                                 if progress is None else _shifted(progress, start))
            if result is not None and result.incumbent is not None:
                return outcome(result.incumbent, result.lower_bound, result.status, "cpsat")
        if mip is not None:
            state["backend"] = "mip"
            result = mip(problem, state["best"], options)
            return outcome(result.incumbent, result.lower_bound, result.status, result.backend)
        return outcome(state["best"], state["bound"], "time_limit", "warmstart")
    except KeyboardInterrupt:
        if state["best"] is None:
            raise
        return outcome(state["best"], state["bound"], "interrupted", state["backend"])


def _exhaustive(problem: SlimProblem, incumbent: Incumbent, max_work: float, options: SolveOptions,
                report: Callable[[Incumbent, str], None], raise_bound: Callable[[float], None],
                full: bool = False) -> exhaustive.SearchResult | None:
    """Exhaustive search if its plan fits ``max_work`` (None otherwise); ``full``: the larger
    plan, with conflict bounds and a longer listing."""
    listing = options.phase(PLAN_SHARE, at_least=PLAN_SECONDS) if full else options.phase(0.0, at_least=QUICK_PLAN_SECONDS)
    plan = exhaustive.plan(problem, incumbent.objective, max_work=max_work, seconds=listing.seconds,
                           listing=listing.work * exhaustive.LISTING_PER_SECOND, conflicts=full)
    if plan is None:
        return None
    return exhaustive.search(problem, incumbent, plan, deadline=options.deadline.at,
                             on_improve=lambda inc: report(inc, "exhaustive search"), on_bound=raise_bound)


def _few_features(problem: SlimProblem, incumbent: Incumbent, options: SolveOptions,
                  report: Callable[[Incumbent, str], None], raise_bound: Callable[[float], None]) -> int:
    """The largest m such that exhaustive search proved no model of at most m features beats
    the (possibly improved) incumbent, trying m = 1, 2, ... while a size's plan fits SIZE_WORK.

    Every other model pays C0 + epsilon for each of its m + 1 or more features on top of the
    unavoidable loss, so the lower bound rises to that (when below the incumbent).
    """
    free = free_columns(problem)
    if len(free) == 0:
        return 0
    price = problem.feature_price
    covered, best = 0, incumbent
    for m in range(1, len(free)):
        if problem.max_features is not None and m >= problem.max_features:
            break
        restricted = dataclasses.replace(problem, max_features=m)
        listing = options.phase(PLAN_SHARE, at_least=PLAN_SECONDS)
        plan = exhaustive.plan(restricted, best.objective, max_work=options.scaled(SIZE_WORK, PLAN_PER_WORK),
                               seconds=listing.seconds,
                               listing=listing.work * exhaustive.LISTING_PER_SECOND)
        if plan is None:
            break
        result = exhaustive.search(restricted, best, plan, deadline=options.deadline.at,
                                   on_improve=lambda inc: report(inc, "exhaustive search"))
        if result.status != "optimal":
            break
        covered, best = m, result.incumbent
        raise_bound(min(best.objective, unavoidable_loss(problem) + (m + 1) * price))
    return covered


def _no_avoidable_error(problem: SlimProblem, incumbent: Incumbent, options: SolveOptions,
                        report: Callable[[Incumbent, str], None],
                        raise_bound: Callable[[float], None]) -> cpsat.CpsatResult | None:
    """CP-SAT over the models that predict every row by its heavier label (:mod:`.separable`)
    for half the time left (under a work limit, for its work: ``Deadline.part``). Their best, with the bound min(U + d, their lower bound), settles
    the problem when the bound reaches it; when ``separable.decisive`` (no model with an
    avoidable error can beat one without), they get the rest of the time too and their best
    is the answer. Otherwise None: the full search follows from the best model found."""
    predictions = separable.majority(problem)
    decisive = separable.decisive(problem, incumbent.objective)
    for share in (0.5, 1.0):
        start = incumbent if separable.makes_no_avoidable_error(problem, incumbent) else None
        if share == 1.0 and (start is None or not decisive):
            return None
        result = cpsat.solve(problem, start, options.until(options.deadline.part(share, options.work_limit)),
                             predictions=predictions)
        if result is None:
            return None
        if result.incumbent is not None:
            report(result.incumbent, "no avoidable error")
            incumbent = min(incumbent, result.incumbent, key=lambda model: model.objective)
        restricted = result.incumbent.objective if result.status == "optimal" else result.lower_bound
        bound = min(separable.bound(problem, restricted), incumbent.objective)
        raise_bound(bound)
        if result.status == "interrupted":
            raise KeyboardInterrupt  # solve() returns the best model so far
        if bound >= incumbent.objective:
            return cpsat.CpsatResult(incumbent, bound, "optimal")
        if result.status != "time_limit":  # none exists, or the best of them may be beaten
            return None
    return cpsat.CpsatResult(incumbent, bound, "time_limit")


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


def fit_auto(problem: SlimProblem, options: SolveOptions, progress: Callable[[Progress], None] | None = None):
    """``fit.fit_problem`` for ``--solver auto`` and ``--solver cpsat``: (coef, intercept,
    SolveResult), the solver named ``auto:BACKEND`` after the backend that produced the
    certificate (``cpsat`` for CP-SAT alone, from the warm start)."""
    start = time.monotonic()
    if options.solver == "cpsat":
        if not cpsat.available():
            raise ConfigError("solver cpsat needs OR-Tools (pip install ortools); or use solver auto")
        out = _cpsat_only(problem, options, progress)
        name = "cpsat"
    else:
        backend = options.using("highs" if available("highs") else "cbc")

        def mip(problem: SlimProblem, incumbent: Incumbent, options: SolveOptions) -> Outcome:
            return solve_mip(problem, incumbent, backend.until(options.deadline),
                             None if progress is None else _shifted(progress, start))

        out = solve(problem, options, progress=progress, mip=mip)
        name = f"auto:{out.backend}"
    best = out.incumbent
    if not math.isfinite(best.objective):
        raise InfeasibleError("no model satisfies the constraints (the minimum and maximum number of "
                              "features, signs); relax them")
    result = SolveResult(solver=name, status=out.status, objective=best.objective,
                         bound=out.lower_bound, gap=out.gap, seconds=time.monotonic() - start)
    return best.coef, best.intercept, result


def _cpsat_only(problem: SlimProblem, options: SolveOptions, progress: Callable[[Progress], None] | None) -> Outcome:
    """CP-SAT from the millisecond warm start (``--solver cpsat``)."""
    start = time.monotonic()
    incumbent = warm_start(problem, seconds=0.0, until=options.deadline.at)
    result = cpsat.solve(problem, incumbent if math.isfinite(incumbent.objective) else None, options,
                         progress=progress)
    if result is None:
        raise ConfigError(f"solver cpsat needs integer or decimal columns, at most {cpsat.MAX_REAL_COLUMNS} "
                          "real-valued ones and few rows of several fractional values (whose float score "
                          "may round either way at 0); use solver auto")
    best = result.incumbent if result.incumbent is not None else incumbent
    return Outcome(best, result.lower_bound, result.status, "cpsat", time.monotonic() - start)
