"""``train(data, config) -> Model``: the SLIM pipeline from validated data to a model file.

encode -> problem -> warm start (local search) -> IP -> solve -> read back the integers ->
recompute the true objective and training error from them (the solver's float objective
is never trusted) -> pick golden rows. The certificate (status, lower bound, gap) lands in
``model.training``.
"""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Optional

import numpy as np

from scorecard.runtime import Model, Training
from scorecard.runtime.errors import NoModelInTimeError

from .backends import auto
from .calibrate import risk_table
from .config import ConfigError, TrainConfig
from .conflicts import explain, hard_constraints
from .data import LabeledData
from .encode import Design
from .formulation import Incumbent, local_search, separable
from .formulation.slim import formulate, read_solution
from .golden import plain, with_golden
from .problem import SlimProblem
from .progress import ProgressCallback, relative_gap
from .resolve import constrained_problem, design_for, feasible_start, violations
from .solve import InfeasibleError, SolveResult, solve

WARM_START_SHARE = 0.1  # of the time limit, for the local search (and at most WARM_START_MAX s)
WARM_START_MAX = 5.0


def _check_supported(config: TrainConfig) -> None:
    """Refuse options this trainer does not implement yet, naming the option."""
    if config.loss != "zero-one":
        raise ConfigError(f"--loss: {config.loss!r} is not available yet; use zero-one")


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
    incumbent = local_search(problem, seconds=min(WARM_START_MAX, WARM_START_SHARE * config.time_limit),
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


def model_from_solution(data: LabeledData, design: Design, coef: np.ndarray, intercept: int,
                        kind: str = "linear") -> Model:
    """The runtime Model (no training record or golden rows yet) for integer coefficients."""
    terms = tuple(design.columns[j].term(int(coef[j])) for j in range(len(coef)) if coef[j] != 0)
    missing: str | dict = "null"
    if data.imputed:
        missing = {"impute": {name: plain(value) for name, value in data.imputed.items()}}
    return Model(kind=kind, target=data.target, inputs=data.inputs, terms=terms, intercept=int(intercept),
                 missing=missing)


def train(data: LabeledData, config: TrainConfig, progress: Optional[ProgressCallback] = None) -> Model:
    """Train a SLIM scoring system on ``data`` under ``config``.

    Raises ConfigError for an unusable option or solver and InfeasibleError when no model
    satisfies the constraints (or none was found within the time limit).
    """
    if config.loss != "zero-one":  # convex losses: cutting planes (issue 6, trainer/convex.py)
        from .convex import train_convex
        return train_convex(data, config, progress)
    _check_supported(config)
    start = time.monotonic()
    design = design_for(data, config)
    problem = constrained_problem(design, data, config)
    reduction: dict = {}
    try:
        if config.reduce:  # data reduction first (Section 4.2, trainer/reduce.py)
            from .reduce import fit_reduced
            coef, intercept, result, reduction = fit_reduced(problem, config, progress)
        else:
            coef, intercept, result = fit_problem(problem, config, progress)
    except InfeasibleError as exc:
        if isinstance(exc, NoModelInTimeError) or not hard_constraints(config):
            raise
        raise InfeasibleError(explain(design, data, config)) from None
    objective = problem.objective(coef, intercept)
    bound = result.bound
    if bound is not None:
        bound = min(bound, objective)
    scores = intercept + design.X @ coef.astype(np.float64)
    errors = int(np.sum((scores > 0) != (data.y > 0)))
    model = model_from_solution(data, design, coef, intercept, "m_of_n" if config.model == "mofn" else "linear")
    training = Training(
        solver=result.solver, status=result.status, objective=objective,
        lower_bound=bound if bound is not None else 0.0,
        gap=relative_gap(objective, bound) if bound is not None else 1.0,
        seconds=round(time.monotonic() - start, 3), train_error=errors / len(data.y),
        n_rows=len(data.y), params=config.to_params() | ({"reduction": reduction} if reduction else {}))
    used = [inp.name for inp in model.used_inputs]
    blank = next((name for name in used if name in data.missing_counts), None)
    if blank is None and data.missing_counts and used:
        blank = used[0]
    probability = risk_table(scores, data.y)  # score -> risk, monotone (trainer/calibrate.py)
    return with_golden(replace(model, training=training, probability=probability), data.frame, blank)
