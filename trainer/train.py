"""``train(data, config) -> Model``: the pipeline from validated data to a model file.

design (data/) -> problem with its constraints (problem/) -> solve (solvers/: warm start,
exact search, integer program; or data reduction first) -> the true objective and training
error recomputed from the integers (the solver's float objective is never trusted) ->
the model file with its certificate, risk map and golden rows (record.py). Convex losses
train by cutting planes instead (convex/).
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
from .solvers.progress import ProgressCallback, relative_gap
from .solvers.reduce import fit_reduced


def train(data: LabeledData, config: TrainConfig, progress: Optional[ProgressCallback] = None) -> Model:
    """Train a scoring system on ``data`` under ``config``.

    Raises ConfigError for an unusable option or solver and InfeasibleError when no model
    satisfies the constraints (NoModelInTimeError when none was found within the time limit).
    """
    if config.loss != "zero-one":  # convex losses: cutting planes (Section 4.1)
        return train_convex(data, config, progress)
    start = time.monotonic()
    design = design_for(data, config)
    problem = constrained_problem(design, data, config)
    reduction: dict = {}
    try:
        if config.reduce:  # data reduction first (Section 4.2)
            coef, intercept, result, reduction = fit_reduced(problem, config, progress)
        else:
            coef, intercept, result = fit_problem(problem, config, progress)
    except NoModelInTimeError:
        raise
    except InfeasibleError:
        if not hard_constraints(config):
            raise
        raise InfeasibleError(explain(design, data, config)) from None
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
