"""The one integer-program path: the PuLP formulation of ``ip/`` solved from an incumbent.

Used by ``fit.fit_problem`` (constrained problems and named MIP backends) and by ``--solver
auto`` when neither exhaustive search nor CP-SAT settles the problem. Steps: formulate from
the incumbent (a warm start and an upper bound), try the zero-error IP first where a
zero-error model may exist (:mod:`.zero_error`), solve the full IP until the deadline (or the
work limit), and keep the incumbent when the solver stops without a model or its rounding
made the model worse. The solver's model is checked against every hard constraint with the
runtime's rule before it is trusted; its float objective is never: objectives are recomputed
from the integers.
"""
from __future__ import annotations

import math
import time

from scorecard.runtime.errors import InfeasibleError, NoModelInTimeError

from ..problem.bounds import unavoidable_loss
from ..problem.constrained import violations
from ..problem.slim import SlimProblem
from ..search.warm_start import Incumbent
from . import zero_error
from .ip.slim import formulate, read_solution
from .options import SolveOptions
from .outcome import Outcome
from .progress import ProgressCallback
from .pulp_mip import resolve
from .pulp_mip import solve as solve_lp


def solve_mip(problem: SlimProblem, incumbent: Incumbent | None, options: SolveOptions,
              progress: ProgressCallback | None = None) -> Outcome:
    """Solve ``problem``'s IP on ``options.solver`` (``auto`` is CBC) from ``incumbent`` (a
    model meeting every hard constraint, or None) until ``options.deadline``.

    Status "optimal" only when the solver proved it; "time_limit" when the deadline or the
    work limit stopped it (the incumbent is kept if the solver found nothing better);
    "interrupted" when the solver returned early on Ctrl-C. Raises InfeasibleError when no
    model exists, NoModelInTimeError when none was found in time and there is no incumbent.
    """
    start = time.monotonic()
    usable = incumbent if incumbent is not None and math.isfinite(incumbent.objective) else None
    ip = formulate(problem, usable)
    warm = ip.warm_started
    if zero_error.worth_trying(problem, usable):  # a zero-error model, fast when one exists
        found = zero_error.zero_error_model(ip, problem, options.until(options.deadline.part(zero_error.SHARE,
                                                                                             options.work_limit)))
        if found is not None and (usable is None or found.objective < usable.objective):
            usable, warm = found, True
            zero_error.use_as_start(ip)
    limit = options.deadline.limit()
    floor = unavoidable_loss(problem)
    try:
        result = solve_lp(ip.lp, options, gap_abs=0.25 * problem.epsilon * ip.scale, warm_start=warm,
                          scale=ip.scale, progress=progress)
    except NoModelInTimeError:
        if usable is None:
            raise
        return Outcome(usable, min(floor, usable.objective), _stopped(start, limit, options),
                       result_name(options), time.monotonic() - start)
    coef, intercept = read_solution(ip, problem.n_columns)
    found = Incumbent(coef, intercept, problem.objective(coef, intercept))
    broken = violations(problem, coef, intercept)
    if usable is not None and (broken or usable.objective < found.objective):
        found = usable  # the solver's rounding made it worse
    elif broken:
        raise InfeasibleError(f"the solver's model breaks a constraint ({broken[0]}); give it more time")
    bound = result.bound if result.bound is not None else floor
    status = result.status if result.status == "optimal" else _stopped(start, limit, options)
    return Outcome(found, min(bound, found.objective), status, result.solver, time.monotonic() - start)


def result_name(options: SolveOptions) -> str:
    """The backend ``options.solver`` names (``auto``: CBC)."""
    return resolve(options.solver)


def _stopped(start: float, limit: float, options: SolveOptions) -> str:
    """Why a solve that did not prove optimality ended: HiGHS and CBC catch Ctrl-C themselves
    and return early, which reads as "interrupted"; otherwise the time limit (or the work
    limit, reported as "time_limit" too: it is the same kind of stop, only reproducible)."""
    if options.work_limit is not None:
        return "time_limit"
    return "interrupted" if time.monotonic() - start < 0.95 * limit else "time_limit"
