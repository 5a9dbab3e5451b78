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

Under ``c0 = "auto"`` (the default) the card is chosen first by cross-validation
(``select.py``) within CV_SHARE of the time left: a C0 of the 0-1 grid, whose final model is
then trained on every row in the rest, or a logistic-loss card of some size
(``logistic_cv.py``), trained on every row by the logistic path and recorded as found, not
proven (status ``best_found``); the grid goes into ``training.selection``. A final model that may not be what the user
wants (no terms, no better than the majority class, an unusable numeric column) is reported
through ``advice.warn``.
"""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Callable, Optional

import numpy as np

from scorecard.runtime import Model
from scorecard.runtime.errors import InfeasibleError, NoModelInTimeError
from scorecard.runtime.model import BEST_FOUND

from . import advice, logistic_cv
from .calibrate import RISK_DIGITS, logistic, risk_table
from .convex.losses import Oracle
from .convex.train import train_convex
from .data.design import Design
from .data.families import design_for
from .data.prepare import LabeledData
from .folds import LOGISTIC
from .options.config import TrainConfig
from .problem.constrained import constrained_problem
from .record import finished_model
from .select import AUTO, Selection, choose_c0, middle_c0, zero_one_choice
from .solvers.conflicts import explain, hard_constraints
from .solvers.fit import fit_problem
from .solvers.options import Deadline, SolveOptions, finish_margin
from .solvers.progress import ProgressCallback, relative_gap
from .solvers.reduce import fit_reduced


def solve_options(config: TrainConfig, deadline: Deadline | None = None) -> SolveOptions:
    """The backends' options for ``config``: its solver, threads, seed and work limit, and the
    deadline (default: ``config.time_limit`` from now) less the finishing margin."""
    deadline = deadline if deadline is not None else Deadline.after(config.time_limit)
    return SolveOptions.of(config, deadline.earlier(finish_margin(deadline.remaining())))


#: Share of the time left that ``--c0 auto`` gives the cross-validation (the rest: the final fit;
#: under a work limit it gets all of it as a safety net, ``Deadline.part``).
CV_SHARE = 0.5


def train(data: LabeledData, config: TrainConfig, progress: Optional[ProgressCallback] = None, *,
          deadline: Deadline | None = None,
          warn: Optional[advice.Warn] = None, rows: Optional[Callable[[Design], Oracle]] = None) -> Model:
    """Train a scoring system on ``data`` under ``config``.

    deadline: when everything must be done (default: ``config.time_limit`` from now); under
      ``config.work_limit`` a safety net only (see ``solvers/options.py``).
    warn: where warnings about the final model go (see ``advice.py``; default: Python's
      ``warnings``).
    rows: convex losses only: the oracle over the rows the final model is trained on, given its
      design (``trainer/stream.py``: rows read in row groups or held on a Dask cluster; ``data``
      is then their design sample, which ``--c0 auto`` cross-validates on).

    Raises ConfigError for an unusable option or solver and InfeasibleError when no model
    satisfies the constraints (NoModelInTimeError when none was found within the time limit).
    """
    deadline = deadline if deadline is not None else Deadline.after(config.time_limit)
    model = _fit(data, config, progress, deadline, warn, rows)
    if config.work_limit is not None and deadline.remaining() <= finish_margin(config.time_limit):
        advice.warn(f"--time-limit {config.time_limit:g} s stopped the training before --work-limit "
                    f"{config.work_limit:g}: another run may give another model; raise --time-limit to make it "
                    "reproducible", warn)
    return model


def _fit(data: LabeledData, config: TrainConfig, progress: Optional[ProgressCallback], deadline: Deadline,
         warn: Optional[advice.Warn], rows: Optional[Callable[[Design], Oracle]]) -> Model:
    """``train`` without its last warning: one fit, or ``--c0 auto``'s selection and then the final fit."""
    start = time.monotonic()
    if config.c0 != AUTO or not c0_matters(config):
        return _train(data, config, progress, deadline, start, warn, rows=rows)
    selection = choose_c0(data, config, deadline.part(CV_SHARE, config.work_limit), progress, fit=_fold_fit)
    if selection.loss == LOGISTIC:
        card = _logistic_card(data, config, selection, deadline, start, warn)
        if card is not None:
            return replace(card, training=replace(card.training, selection=selection.record()))
        selection = zero_one_choice(selection, len(data.y))
    model = _train(data, config.with_options(c0=selection.chosen), progress, deadline, start, warn,
                   chosen=True, out_of_fold=selection.margins, rows=rows)
    return replace(model, training=replace(model.training, selection=selection.record()))


def _logistic_card(data: LabeledData, config: TrainConfig, selection: Selection, deadline: Deadline, start: float,
                   warn) -> Model | None:
    """The logistic card of ``selection.items`` items trained on every row (None when the
    path has no card that size): its points, its integer intercept and its fitted logistic
    risk (``risk = 1 / (1 + exp(-scale (score - center)))``); the objective recorded is its
    mean logistic loss, with no bound (nothing is proven about it)."""
    numeric = config.with_options(c0=middle_c0(len(data.y)))  # the problem needs a number; no C0 enters the path
    fit = logistic_cv.final_card(data, numeric, selection.items, deadline)
    if fit is None:
        return None
    card = fit.card
    # the points are chosen under --w-pos's class weights; the risk is that of the rows as they are
    scale, center = (card.scale, card.center) if config.w_pos == 0.5 else logistic_cv.row_risk(fit, data)
    model = finished_model(
        data, fit.design, card.coef, card.intercept, kind="linear", solver="logistic path", status=BEST_FOUND,
        objective=card.loss, lower_bound=0.0, gap=1.0, seconds=time.monotonic() - start, params=config.to_params(),
        probability=lambda model, points, y, counts: logistic(scale=_digits(scale), center=_digits(center)))
    numeric_inputs = {i.name for i in data.inputs if i.type == "numeric"}
    messages = advice.unusable_linear_columns(fit.design, fit.problem, numeric_inputs, {t.input for t in model.terms})
    for message in advice.model_warnings(model, data, config.c0, True, LOGISTIC, config.w_pos) + messages:
        advice.warn(message, warn)
    return model


def _digits(value: float) -> float:
    """``value`` to RISK_DIGITS significant digits (a card's risk formula a person can read)."""
    return float(f"{value:.{RISK_DIGITS}g}")


def _usable(out_of_fold: np.ndarray | None, y: np.ndarray, counts: np.ndarray | None = None
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None] | None:
    """The out-of-fold (margin, label, count) triples of the rows that have one (count None:
    one row each), or None when there are none of both classes (the calibration then fits the
    training scores)."""
    if out_of_fold is None:
        return None
    known = ~np.isnan(out_of_fold)
    labels = y[known]
    if not ((labels > 0).any() and (labels <= 0).any()):
        return None
    return out_of_fold[known], labels, None if counts is None else counts[known]


def c0_matters(config: TrainConfig) -> bool:
    """Whether C0 prices anything: not for PILM (its tiers carry their own C0s) nor for TILM
    with --c-feature given (C0 is then unused); ``--c0 auto`` has nothing to choose there."""
    return config.model != "pilm" and not (config.model == "tilm" and config.c_feature is not None)


def _fold_fit(data: LabeledData, config: TrainConfig, progress=None, **options) -> Model:
    """One fit of the cross-validation: no warnings (they are about the final model)."""
    return _train(data, config, progress, options.get("deadline"), time.monotonic(), lambda message: None)


def _train(data: LabeledData, config: TrainConfig, progress, deadline: Deadline | None, start: float, warn,
           chosen: bool = False, out_of_fold: np.ndarray | None = None,
           rows: Optional[Callable[[Design], Oracle]] = None) -> Model:
    """``train`` with a numeric C0. ``out_of_fold``: the cross-validation's margins at this C0
    (``select.Selection.margins``), which the 0-1 loss model's risk table is fitted on;
    ``rows``: as for :func:`train`."""
    options = solve_options(config, deadline)
    if config.loss != "zero-one":  # convex losses: cutting planes (Section 4.1)
        model = train_convex(data, config, options, progress, rows)
        for message in advice.model_warnings(model, data, config.c0, chosen, config.loss, config.w_pos):
            advice.warn(message, warn)
        return model
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
    model = finished_model(
        data, design, coef, intercept, kind="m_of_n" if config.model == "mofn" else "linear",
        solver=result.solver, status=result.status, objective=objective,
        lower_bound=bound if bound is not None else 0.0,
        gap=relative_gap(objective, bound) if bound is not None else 1.0,
        seconds=time.monotonic() - start,
        params=config.to_params() | ({"reduction": reduction} if reduction else {}),
        probability=lambda model, points, y, counts: risk_table(model, points, y, counts,
                                                                _usable(out_of_fold, data.y, counts)))
    numeric = {i.name for i in data.inputs if i.type == "numeric"}
    messages = advice.unusable_linear_columns(design, problem, numeric, {t.input for t in model.terms})
    for message in advice.model_warnings(model, data, config.c0, chosen, config.loss, config.w_pos) + messages:
        advice.warn(message, warn)
    return model
