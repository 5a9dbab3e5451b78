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
(``select.py``): a C0 of the 0-1 grid, whose card of 1 to ``--max-items`` items is then
trained on every row by the exact search; a logistic-loss card of some size
(``logistic_cv.py``), trained on every row by the logistic path and then given the exact integer
program of its loss (``convex/card_proof.py``: a proof, a better card, or a bound); or, when no
card beats the majority class, the empty card. The selection goes into
``training.selection``. Every step is bounded by ``config.work_limit`` (the default): the
model depends on the data and the options only; when the clock (``--time-limit``) cuts a step
short instead, the status says so (``time_limit``, ``params.time_limit_cut``) and a warning
says another run may differ. A final model that may not be what the user wants (no terms, no
better than the majority class, an unusable numeric column) is reported through ``advice.warn``.
"""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Callable, Optional

import numpy as np

from scorecard.runtime import Model
from scorecard.runtime.errors import InfeasibleError, NoModelInTimeError

from . import advice, logistic_cv
from .calibrate import RISK_DIGITS, logistic, risk_table
from .convex import card_proof
from .convex.losses import Oracle
from .convex.train import train_convex
from .data.design import Design
from .data.families import design_for
from .data.prepare import LabeledData
from .folds import EMPTY, LOG_LOSS, LOGISTIC
from .options.config import TrainConfig
from .problem.constrained import constrained_problem
from .problem.slim import SlimProblem, free_columns
from .record import finished_model
from .select import AUTO, Selection, choose_c0, middle_c0, recommendation, zero_one_choice
from .solvers.conflicts import explain, hard_constraints
from .search.warm_start import warm_start
from .solvers.fit import fit_problem
from .solvers.options import Deadline, SolveOptions, finish_margin
from .solvers.progress import ProgressCallback, announce, relative_gap
from .solvers.pulp_mip import SolveResult
from .solvers.reduce import fit_reduced


def solve_options(config: TrainConfig, deadline: Deadline | None = None, exact: bool = True) -> SolveOptions:
    """The backends' options for ``config``: its solver, threads, seed and work limit, and the
    deadline (default: ``config.time_limit`` from now) less the finishing margin; ``exact``
    False for a fold's fit (no CP-SAT or integer program: ``SolveOptions.exact``)."""
    deadline = deadline if deadline is not None else Deadline.after(config.time_limit)
    return replace(SolveOptions.of(config, deadline.earlier(finish_margin(deadline.remaining()))), exact=exact)


#: ``training.status``: proven; stopped by the work limit (reproducible); cut short by --time-limit
#: (another run may differ); Ctrl-C.
OPTIMAL, WORK_LIMIT, TIME_LIMIT, INTERRUPTED = "optimal", "work_limit", "time_limit", "interrupted"
#: What the backends say when they stop before a proof; under a work limit that ended every
#: step, the status is WORK_LIMIT.
STOPPED = (TIME_LIMIT, "iteration_limit", WORK_LIMIT)

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
    if config.work_limit is None:
        return model
    t = model.training
    if deadline.remaining() > finish_margin(config.time_limit):  # every step ended on its work, none on the clock
        return replace(model, training=replace(t, status=WORK_LIMIT)) if t.status in STOPPED else model
    advice.warn(f"--time-limit {config.time_limit:g} s stopped the training before --work-limit "
                f"{config.work_limit:g} was done: another run may give another card; raise --time-limit to make it "
                "reproducible", warn)
    return replace(model, training=replace(t, status=t.status if t.status in (OPTIMAL, INTERRUPTED) else TIME_LIMIT,
                                           params=t.params | {"time_limit_cut": True}))


def _fit(data: LabeledData, config: TrainConfig, progress: Optional[ProgressCallback], deadline: Deadline,
         warn: Optional[advice.Warn], rows: Optional[Callable[[Design], Oracle]]) -> Model:
    """``train`` without its last warning: one fit, or ``--c0 auto``'s selection and then the final fit."""
    start = time.monotonic()
    if config.c0 != AUTO or not c0_matters(config):
        return _train(data, config, progress, deadline, start, warn, rows=rows)
    selection = choose_c0(data, config, deadline.part(CV_SHARE, config.work_limit), progress, fit=fold_fit)
    if selection.loss == LOGISTIC:
        card = _logistic_card(data, config, selection, deadline, start, warn, progress)
        if card is not None:
            return replace(card, training=replace(card.training, selection=selection.record()))
        selection = zero_one_choice(selection, len(data.y), config.max_items)
    announce(progress, f"the card on every row: {recommendation(selection)}")
    if selection.loss == EMPTY:  # the rule found no card better than the majority class
        model = _train(data, config.with_options(c0=middle_c0(len(data.y))), progress, deadline, start,
                       lambda message: None, rows=rows, items=(0, 0))
        cards = [value for p in selection.points if p.loss != EMPTY and p.size >= 1
                 and (value := p.value(selection.measure)[0]) is not None]
        empty = next(p for p in selection.points if p.loss == EMPTY).value(selection.measure)[0]
        advice.warn(advice.empty_chosen(data, min(cards, default=None), empty, selection.measure), warn)
    else:  # the chosen C0's card, of 1 to --max-items items
        model = _train(data, config.with_options(c0=selection.chosen), progress, deadline, start, warn,
                       chosen=True, out_of_fold=selection.margins, rows=rows, items=(1, None))
    return replace(model, training=replace(model.training, selection=selection.record()))


def _logistic_card(data: LabeledData, config: TrainConfig, selection: Selection, deadline: Deadline, start: float,
                   warn, progress: Optional[ProgressCallback] = None) -> Model | None:
    """The logistic card of ``selection.items`` items trained on every row (None when the
    path has no card that size), then the exact integer program on its loss, warm-started
    from it (``convex/card_proof.py``), which proves it optimal or finds a better card within
    the work limit: its points, its integer intercept and its fitted logistic risk (``risk =
    1 / (1 + exp(-scale (score - center)))``); the objective recorded is its mean logistic
    loss, with the program's lower bound and gap."""
    numeric = config.with_options(c0=middle_c0(len(data.y)))  # the problem needs a number; no C0 enters the path
    announce(progress, f"the logistic-loss card of {selection.items} items on every row")
    fit = logistic_cv.final_card(data, numeric, selection.items, deadline)
    if fit is None:
        return None
    try:
        announce(progress, "the exact integer program of the card's logistic loss (its proof)")
        proof = card_proof.prove(fit.problem, fit.card, selection.items, solve_options(config, deadline))
    except KeyboardInterrupt:  # Ctrl-C before the program had a bound: the card as found
        proof = card_proof.CardProof(fit.card, 0.0, INTERRUPTED, 0, 0)
    card = proof.card
    fit = replace(fit, card=card)
    # the points are chosen under --w-pos's class weights; the risk is that of the rows as they are
    scale, center = (card.scale, card.center) if config.w_pos == 0.5 else logistic_cv.row_risk(fit, data)
    model = finished_model(
        data, fit.design, card.coef, card.intercept, kind="linear", solver=card_proof.SOLVER, status=proof.status,
        objective=card.loss, lower_bound=proof.lower_bound, gap=proof.gap, seconds=time.monotonic() - start,
        params=config.to_params() | {"cutting_planes": {"iterations": proof.rounds, "cuts": proof.cuts}},
        probability=lambda model, points, y, counts: logistic(scale=_digits(scale), center=_digits(center)))
    numeric_inputs = {i.name for i in data.inputs if i.type == "numeric"}
    messages = advice.unusable_linear_columns(fit.design, fit.problem, numeric_inputs, {t.input for t in model.terms})
    for message in advice.model_warnings(model, data, config.c0, True, LOGISTIC, config.w_pos,
                                         by_risk=selection.measure == LOG_LOSS) + messages:
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


def _search(problem: SlimProblem, options: SolveOptions, progress: Optional[ProgressCallback]
            ) -> tuple[np.ndarray, int, SolveResult]:
    """``fit_problem``; for the card on every row (``options.exact``), announced as a step, and
    a Ctrl-C before the search had a model of its own gives the rounding of the warm start
    (milliseconds), status "interrupted": once the card's search has begun, there is a card."""
    if not options.exact:
        return fit_problem(problem, options, progress)
    start = time.monotonic()
    try:
        announce(progress, "the exact search of the card on every row")
        return fit_problem(problem, options, progress)
    except KeyboardInterrupt:
        found = warm_start(problem, seconds=0.0, work=0)
        return found.coef, found.intercept, SolveResult(solver="warmstart", status=INTERRUPTED,
                                                        objective=found.objective, bound=None, gap=None,
                                                        seconds=time.monotonic() - start)


def _items(problem: SlimProblem, items: tuple[int, int | None] | None) -> SlimProblem:
    """``problem`` with at least ``items[0]`` and at most ``items[1]`` non-zero points (where
    it has that many free columns), on top of its own limits."""
    if items is None:
        return problem
    fewest, most = items
    free = len(free_columns(problem))
    low = max(problem.min_features or 0, min(fewest, free))
    high = problem.max_features if most is None else min(most, problem.feature_cap)
    if high is not None and low > high:
        return problem
    return replace(problem, min_features=low or None, max_features=high)


def c0_matters(config: TrainConfig) -> bool:
    """Whether C0 prices anything: not for PILM (its tiers carry their own C0s) nor for TILM
    with --c-feature given (C0 is then unused); ``--c0 auto`` has nothing to choose there."""
    return config.model != "pilm" and not (config.model == "tilm" and config.c_feature is not None)


def fold_fit(data: LabeledData, config: TrainConfig, progress=None, **options) -> Model:
    """One fit of the cross-validation: no warnings (they are about the final model), no
    exact backend (``SolveOptions.exact``)."""
    return _train(data, config, progress, options.get("deadline"), time.monotonic(), lambda message: None,
                  exact=False)


def _train(data: LabeledData, config: TrainConfig, progress, deadline: Deadline | None, start: float, warn,
           chosen: bool = False, out_of_fold: np.ndarray | None = None,
           rows: Optional[Callable[[Design], Oracle]] = None, items: tuple[int, int | None] | None = None,
           exact: bool = True) -> Model:
    """``train`` with a numeric C0. ``out_of_fold``: the cross-validation's margins at this C0
    (``select.Selection.margins``), which the 0-1 loss model's risk table is fitted on;
    ``rows``: as for :func:`train`; ``items``: the fewest and most items of the card
    ``--c0 auto`` chose (at least one, unless it chose the empty card: (0, 0)); ``exact``: as
    for :func:`solve_options`."""
    options = solve_options(config, deadline, exact)
    if config.loss != "zero-one":  # convex losses: cutting planes (Section 4.1)
        model = train_convex(data, config, options, progress, rows)
        for message in advice.model_warnings(model, data, config.c0, chosen, config.loss, config.w_pos):
            advice.warn(message, warn)
        return model
    design = design_for(data, config)
    problem = _items(constrained_problem(design, data, config), items)
    reduction: dict = {}
    try:
        if config.reduce:  # data reduction first (Section 4.2)
            coef, intercept, result, reduction = fit_reduced(problem, options, config.reduce_width, progress)
        else:
            coef, intercept, result = _search(problem, options, progress)
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
