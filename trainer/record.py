"""From integer coefficients to the finished model file: terms, training record (with each
``--limit``'s value on the training rows), risk map, golden rows. Every trainer (the 0-1 loss
pipeline and the cutting-plane trainer) ends here, so the model file is built the same way
whatever solved the problem.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from scorecard.runtime import Model, Training
from scorecard.runtime.limits import limit_from_dict

from .data.design import Design
from .data.prepare import LabeledData
from .golden import plain, with_golden
from .problem import group_limits


def model_from_solution(data: LabeledData, design: Design, coef: np.ndarray, intercept: int,
                        kind: str = "linear") -> Model:
    """The runtime Model (no training record or golden rows yet) for integer coefficients."""
    terms = tuple(design.columns[j].term(int(coef[j])) for j in range(len(coef)) if coef[j] != 0)
    missing: str | dict = "null"
    if data.policy == "unmet":
        # also when training had no missing cell: a blank met no condition there either, and
        # a linear term's input still needs a value (the runtime gives such a row no score)
        missing = "unmet"
    elif data.imputed:
        missing = {"impute": {name: plain(value) for name, value in data.imputed.items()}}
    return Model(kind=kind, target=data.target, inputs=data.inputs, terms=terms, intercept=int(intercept),
                 missing=missing)


def limits_on_training(data: LabeledData, params: dict, positive: np.ndarray) -> tuple[dict, ...]:
    """``training.limits``: each ``--limit`` of ``params`` (their dict form) with every group's
    rate on the training rows (``positive``: each row predicted positive), its value and verdict."""
    limits = tuple(limit_from_dict(raw, f"limits[{k}]") for k, raw in enumerate(params.get("limits") or ()))
    if not limits:
        return ()
    rows = np.arange(len(data.y))
    return group_limits.record(group_limits.resolve(limits, data, rows, len(rows)), positive)


def finished_model(data: LabeledData, design: Design, coef: np.ndarray, intercept: int, *, kind: str,
                   solver: str, status: str, objective: float, lower_bound: float, gap: float,
                   seconds: float, params: dict, probability) -> Model:
    """The model file of a trained scoring system: its terms, the training record (the
    certificate and the training error by the runtime's rule, score > threshold), the
    score-to-risk map ``probability`` (a callable of the model, its training scores, the
    card's points totals, the labels and ``data.counts``, the rows each row stands for) and golden rows,
    among them a row with a used input blanked when the data had missing values or the
    policy is ``"unmet"`` (an input read by conditions, so the row has a score, where one is)."""
    coef = np.asarray(coef, dtype=np.int64)
    points = design.X @ coef.astype(np.float64)
    wrong = (points > -intercept) != (data.y > 0)
    errors = int(wrong.sum() if data.counts is None else data.counts[wrong].sum())
    model = model_from_solution(data, design, coef, intercept, kind)
    training = Training(solver=solver, status=status, objective=objective, lower_bound=lower_bound, gap=gap,
                        seconds=round(seconds, 3), train_error=errors / data.n_rows, n_rows=data.n_rows,
                        params=params, limits=limits_on_training(data, params, points > -intercept))
    used = [inp.name for inp in model.used_inputs]
    blank = next((name for name in used if name in data.missing_counts), None)
    if blank is None and model.unmet:  # the rule a blank is scored by, checked in every export
        conditions = [name for name in used if name not in {i.name for i in model.needs_value}]
        blank = conditions[0] if conditions else used[0] if used else None
    if blank is None and data.missing_counts and used:
        blank = used[0]
    return with_golden(replace(model, training=training,
                               probability=probability(model, points, data.y, data.counts)),
                       data.frame, blank)
