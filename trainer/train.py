"""``train(data, config) -> Model``: the pipeline from validated data to a model file.

design (data/) -> problem with its constraints (problem/) -> solve (solvers/: warm start,
exact search, integer program; or data reduction first) -> the true objective and training
error recomputed from the integers (the solver's float objective is never trusted) ->
the model file with its certificate, risk map and golden rows (record.py). Convex losses
train by cutting planes instead (convex/).

The solve options (solver, threads, seed and the deadline) are built here, once, as a
:class:`~.solvers.options.SolveOptions`; no backend reads the TrainConfig. The deadline is
``config.time_limit`` after the start of the call (or the caller's: the command line's counts
from the start of the process), and every phase gets only what is left of it, less a
margin kept for what follows the solve (the model file's risk table and golden rows).
"""
from __future__ import annotations

import time
from typing import Optional

from scorecard.runtime import Model
from scorecard.runtime.errors import InfeasibleError, NoModelInTimeError

from .calibrate import risk_table
from .convex.train import train_convex
from .data.families import design_for
from .data.prepare import LabeledData
from .options.config import TrainConfig
from .problem.constrained import constrained_problem
from .record import finished_model
from .solvers.conflicts import explain, hard_constraints
from .solvers.fit import fit_problem
from .solvers.options import Deadline, SolveOptions, finish_margin
from .solvers.progress import ProgressCallback, relative_gap
from .solvers.reduce import fit_reduced


def solve_options(config: TrainConfig, deadline: Deadline | None = None,
                  work_limit: float | None = None) -> SolveOptions:
    """The backends' options for ``config``: its solver, threads and seed, and the deadline
    (default: ``config.time_limit`` from now) less the finishing margin."""
    deadline = deadline if deadline is not None else Deadline.after(config.time_limit)
    return SolveOptions.of(config, deadline.earlier(finish_margin(deadline.remaining())), work_limit)


def train(data: LabeledData, config: TrainConfig, progress: Optional[ProgressCallback] = None, *,
          deadline: Deadline | None = None, work_limit: float | None = None) -> Model:
    """Train a scoring system on ``data`` under ``config``.

    deadline: when everything must be done (default: ``config.time_limit`` from now).
    work_limit: a deterministic budget for the solvers (see ``solvers/options.py``): the
      same model on any machine under any load, the deadline as a safety net only.

    Raises ConfigError for an unusable option or solver and InfeasibleError when no model
    satisfies the constraints (NoModelInTimeError when none was found within the time limit).
    """
    start = time.monotonic()
    options = solve_options(config, deadline, work_limit)
    if config.loss != "zero-one":  # convex losses: cutting planes (Section 4.1)
        return train_convex(data, config, options, progress)
    design = design_for(data, config)
    problem = constrained_problem(design, data, config)
    reduction: dict = {}
    try:
        if config.reduce:  # data reduction first (Section 4.2)
            coef, intercept, result, reduction = fit_reduced(problem, options, config.reduce_width, progress)
        else:
            coef, intercept, result = fit_problem(problem, options, progress)
    except NoModelInTimeError:
        raise
    except InfeasibleError:
        if not hard_constraints(config):
            raise
        raise InfeasibleError(explain(design, data, config, options.deadline)) from None
    objective = problem.objective(coef, intercept)
    bound = None if result.bound is None else min(result.bound, objective)
    return finished_model(
        data, design, coef, intercept, kind="m_of_n" if config.model == "mofn" else "linear",
        solver=result.solver, status=result.status, objective=objective,
        lower_bound=bound if bound is not None else 0.0,
        gap=relative_gap(objective, bound) if bound is not None else 1.0,
        seconds=time.monotonic() - start,
        params=config.to_params() | ({"reduction": reduction} if reduction else {}),
        probability=risk_table)
