"""``train`` for the convex losses (``--loss logistic|hinge|exponential|quadratic``).

The same scoring systems as SLIM (same design columns, coefficient boxes and sets, signs,
C0 per column, L1 tie-break, feature counts), trained by cutting planes (Algorithm 1,
``cutting_planes.py``) over a loss oracle (``losses.py``): the integer program never holds a row
of data, so training scales to millions of rows. Logistic models carry
``probability = {"method": "logistic", "scale": 1.0, "center": threshold}``, the others a calibrated risk table
(``calibrate.py``).
"""
from __future__ import annotations

import math
import time
from typing import Callable, Optional

import numpy as np
from scorecard.runtime import Model
from scorecard.runtime.errors import ConfigError

from ..calibrate import logistic, risk_table
from ..data.design import Design
from ..data.families import design_for
from ..data.prepare import LabeledData
from ..options.config import TrainConfig
from ..problem.constrained import constrained_problem
from ..problem.slim import SlimProblem
from ..record import finished_model
from ..solvers.options import SolveOptions
from ..solvers.progress import Progress, ProgressCallback, relative_gap
from .cutting_planes import Round, cutting_planes
from .lattice import CoefficientSpace
from .losses import ArrayOracle, Oracle

#: Rounds of the cutting planes per unit of ``--work-limit`` (a round: one master solve, one
#: pass over the rows); without a work limit they run until the gap closes or the deadline.
ROUNDS_PER_WORK = 20

SUPPORTED = ("coef_values", "intercept_values")  # constraints the master expresses without rows


def space_of(problem: SlimProblem) -> CoefficientSpace:
    """The master's lattice for a SLIM problem: column 0 the intercept, then the design columns."""
    cons = problem.constraints
    extra = [k for k in (cons.present if cons is not None else ()) if k not in SUPPORTED]
    if extra:
        raise ConfigError(f"--loss: {', '.join(extra)} constraints need the 0-1 loss (zero-one); "
                          "the cutting-plane trainer supports coefficient ranges, sets, signs and "
                          "--max-features/--min-features")
    values = None
    if cons is not None and (cons.coef_values or cons.intercept_values is not None):
        values = (cons.intercept_values,) + tuple(cons.coef_values.get(j) for j in range(problem.n_columns))
    return CoefficientSpace(
        lower=(problem.intercept_lo, *problem.coef_lo.tolist()), upper=(problem.intercept_hi, *problem.coef_hi.tolist()),
        c0=(0.0, *problem.c0.tolist()), epsilon=problem.epsilon, values=values, intercept=0,
        max_features=problem.max_features, min_features=problem.min_features)


def row_weights(y: np.ndarray, w_pos: float) -> np.ndarray | None:
    """Class weights of Section 2.6 (positives 2 w+, negatives 2 (1 - w+)); None when equal."""
    if w_pos == 0.5:
        return None
    return np.where(y > 0, 2.0 * w_pos, 2.0 * (1.0 - w_pos))


def train_convex(data: LabeledData, config: TrainConfig, options: SolveOptions,
                 progress: Optional[ProgressCallback] = None,
                 rows: Optional[Callable[[Design], Oracle]] = None) -> Model:
    """Train a scoring system minimizing ``config.loss`` + C0 L0 + epsilon L1 (Eq. 4.3) by
    ``options.deadline`` (the cutting planes get what is left after the design).

    rows: the oracle over the rows to train on, given the design made from ``data`` (default:
    ``data``'s own rows in memory). ``trainer/stream.py`` passes data read in row groups or held
    on a Dask cluster, with ``data`` its design sample (cut-offs, golden rows, risk table).
    """
    start = time.monotonic()
    design = design_for(data, config)
    problem = constrained_problem(design, data, config)
    space = space_of(problem)
    if rows is not None:
        oracle = rows(design)
    else:
        oracle = ArrayOracle.from_xy(design.X, data.y, row_weights(data.y, config.w_pos), loss=config.loss,
                                     threads=options.threads)

    def report(r: Round) -> None:
        if progress is not None:
            bound = r.lower_bound if np.isfinite(r.lower_bound) else None
            progress(Progress(elapsed=r.seconds, incumbent=r.upper_bound, bound=bound,
                              gap=relative_gap(r.upper_bound, bound), message=f"cuts {r.cuts}"))

    rounds = {} if options.work_limit is None else {"max_iterations": math.ceil(options.work_limit * ROUNDS_PER_WORK)}
    result = cutting_planes(oracle, space, time_limit=options.deadline.limit(), progress=report,
                            threads=options.threads, **rounds)
    intercept, coef = int(result.coefficients[0]), result.coefficients[1:].astype(np.int64)
    params = config.to_params() | {"cutting_planes": {
        "iterations": result.iterations, "cuts": result.cuts, "proof": result.proof,
        "oracle_seconds": round(result.oracle_seconds, 3), "master_seconds": round(result.master_seconds, 3)}}
    return finished_model(
        data, design, coef, intercept, kind="linear", solver="highs", status=result.status,
        objective=result.objective, lower_bound=result.lower_bound,
        gap=relative_gap(result.objective, result.lower_bound) or 0.0, seconds=time.monotonic() - start,
        params=params, probability=(lambda model, points, y, counts: logistic(center=model.threshold))
        if config.loss == "logistic" else risk_table)
