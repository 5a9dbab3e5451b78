"""Warnings about a model that trained without error but may not be what the user wants.

A model with no terms, a model whose one column classifies nearly every training row correctly
(a leak of the outcome?), a model no better than predicting the majority class, a numeric
column that cannot be used as a linear term (its values are too large for the intercept
range), and a column named as a column scoring adds (which exports refuse) are each reported
in one sentence that says why and what to try. They reach the user through one function,
:func:`warn` (the command line prints ``warning: ...`` on standard error; the Python API
raises a :class:`ScorecardWarning` through the ``warnings`` module).
"""
from __future__ import annotations

import math
import warnings
from typing import Callable, Optional

import numpy as np
from scorecard.runtime import Model
from scorecard.runtime.names import visible
from scorecard.runtime.table import added_columns

from .data.design import Design
from .data.prepare import LabeledData
from .problem.slim import SlimProblem

Warn = Callable[[str], None]


class ScorecardWarning(UserWarning):
    """A trained model that may not be what was wanted (see the message)."""


def warn(message: str, sink: Optional[Warn] = None) -> None:
    """The one way a warning leaves the trainer: to ``sink`` (the CLI's printer), else as a
    :class:`ScorecardWarning`."""
    if sink is not None:
        sink(message)
    else:
        warnings.warn(message, ScorecardWarning, stacklevel=3)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _positive_text(data: LabeledData) -> str:
    return visible(f"{data.target.name} = {data.target.positive}")  # a warning a person reads


#: From this many training rows, one column that removes all but LEAK_SHARE of the majority
#: class's errors (flchain's cause of death: all; Aids2's date of death or censoring: 97 %) is
#: more likely a leak of the outcome than a law of nature: the warning says so.
LEAK_ROWS, LEAK_SHARE = 100, 0.05


def model_warnings(model: Model, data: LabeledData, c0: float, chosen: bool = False,
                   loss: str = "zero-one", w_pos: float = 0.5, by_risk: bool = False) -> list[str]:
    """An empty model, one whose single column classifies nearly every training row correctly
    (a leak?), or one no better than the majority class (one message each), in the words of the
    loss trained (``--loss``: C0 buys training accuracy only under the 0-1 loss); and
    :func:`name_clashes`. Under class weights (``w_pos`` not 0.5) the plain error is not
    what training minimised, so it is not compared with the majority class's; nor for a card
    chosen for its risks (``by_risk``: a rare outcome's card, whose threshold at a risk of 1/2
    may flag no row)."""
    return _quality(model, data, c0, chosen, loss, w_pos, by_risk) + name_clashes(model)


def name_clashes(model: Model) -> list[str]:
    """An input named as a column scoring adds (``score``, ``prediction``, ``probability``) but
    for the case of its letters (``Score``): ``predict`` and the python export work, but the
    sql export refuses the model, as SQL engines read names without regard to case
    (docs/contract.md). Said when training, where renaming the column is cheap, not first at
    export time. (The same name exactly is refused when the data is read.)"""
    return [visible(f"column {inp.name!r} differs only in case from the column {column!r} that scoring adds: "
                    "the sql export refuses this model; rename the column in the data and train again")
            for column in added_columns(model) for inp in model.inputs
            if inp.name.casefold() == column.casefold() and inp.name != column]


def _quality(model: Model, data: LabeledData, c0: float, chosen: bool, loss: str, w_pos: float,
             by_risk: bool = False) -> list[str]:
    """The messages of :func:`model_warnings` about what the model predicts."""
    t = model.training
    n = data.n_rows
    positives = int((data.y > 0).sum() if data.counts is None else data.counts[data.y > 0].sum())
    majority_error = min(positives, n - positives) / n
    price = f"{c0:g}" if isinstance(c0, (int, float)) else str(c0)
    where = f"at C0 = {price}" + (" (chosen by cross-validation)" if chosen else "")
    if not model.terms:
        predicts = _positive_text(data) if 0 > model.threshold else f"not {_positive_text(data)}"
        smaller = "a smaller --c0" if chosen else "--c0 auto or a smaller --c0"
        if loss == "zero-one":
            price = (f"each must fix about {_pct(c0) if isinstance(c0, (int, float)) else 'its C0'} "
                     "of the training rows")
        else:
            price = f"each must lower the mean {loss} loss per training row by at least C0"
        advice = f"try {smaller}"
        if w_pos == 0.5 and 0 < positives < n / 2:
            advice = _weigh_up(positives / n, advice if not chosen else None)
        return [f"the model has no terms: {where} no condition pays for itself ({price}); it predicts "
                f"{predicts} for every row; {advice}"]
    inputs = {term.input for term in model.terms}
    if t is not None and len(inputs) == 1 and n >= LEAK_ROWS and t.train_error <= LEAK_SHARE * majority_error:
        right = "all" if t.train_error == 0 else f"{_pct(1 - t.train_error)} of the"
        return [f"column {next(iter(inputs))!r} alone classifies {right} {n:,} training rows correctly (predicting "
                f"the majority class, {_pct(1 - majority_error)}): if it is recorded after the outcome (a cause of "
                "death, a follow-up time, a discharge code), it leaks the outcome and the card will fail on new "
                "rows; leave it out of the data and train again"]
    if w_pos == 0.5 and not by_risk and t is not None and t.train_error >= majority_error - 1e-12:
        return [f"the model's training error ({_pct(t.train_error)}) is no better than predicting the majority "
                f"class for every row ({_pct(majority_error)}); try a smaller --c0, a wider --coef-min/--coef-max, "
                "or other columns"]
    return []


def empty_chosen(data: LabeledData, best_card: float | None, empty: float, measure: str) -> str:
    """Why ``--c0 auto`` chose the empty card, in words: no card beat the majority class on the
    rows it did not see (``best_card``: the best card's mean measure, ``empty``: the empty
    card's), and what the user can do."""
    n = data.n_rows
    positives = int((data.y > 0).sum() if data.counts is None else data.counts[data.y > 0].sum())
    shown = (lambda v: f"{v:.4f}") if measure == "log-loss" else _pct
    versus = "" if best_card is None else f" (best card {shown(best_card)} against {shown(empty)})"
    text = (f"the model has no terms: no card beat the majority class on the rows it did not see in "
            f"cross-validation, by the {'logistic loss of its risks' if measure == 'log-loss' else 'error'}{versus}; "
            f"it predicts {'the outcome' if positives > n / 2 else 'no outcome'} for every row")
    if 0 < positives < n / 2 and measure != "log-loss":
        return f"{text}; {_weigh_up(positives / n, None)}"
    return f"{text}; the columns given may not predict this outcome"


def _weigh_up(rate: float, also: str | None) -> str:
    """The advice for an empty card of a minority outcome (a share ``rate`` of the rows): no
    group of rows reaches a risk of 1/2, the risk above which the 0-1 loss predicts it, so no
    C0 helps (cross-validation has tried the smaller ones). Weights w and 1 - w flag a row whose
    risk is above 1 - w: twice the outcome's rate, or halfway from it to 1/2 when that is lower."""
    above = float(f"{min(2 * rate, (rate + 0.5) / 2):.2g}")
    first = f"{also}, or " if also else ""
    return (f"the outcome is in {_pct(rate)} of the rows and predicting it for a group of rows needs their risk "
            f"above 50%: {first}weigh it up with --w-pos {1 - above:g}, and a card flags the rows whose risk is "
            f"above {_pct(above)}")


def _can_flip(c: int, low: float, high: float, b_lo: int, b_hi: int) -> bool:
    """Whether some integer intercept b in [b_lo, b_hi] makes b + c*x positive for some x in
    [low, high] and not positive for another: b in (-max(c*x), -min(c*x)]."""
    s_lo, s_hi = sorted((c * low, c * high))
    first = max(b_lo, math.floor(-s_hi) + 1)
    last = min(b_hi, math.floor(-s_lo))
    return first <= last


def unusable_linear_columns(design: Design, problem: SlimProblem, numeric: set[str],
                            used: set[str]) -> list[str]:
    """One message per numeric input, not in the model, whose linear column cannot change a
    prediction on its own: with every allowed non-zero coefficient, the values times the
    coefficient lie beyond what the intercept range can offset (e.g. incomes of 20000 to
    200000 against an intercept in -100..100)."""
    messages = []
    for j, col in enumerate(design.columns):
        if col.op != "linear" or col.input not in numeric or col.input in used:
            continue
        x = design.X[:, j]
        x = x[np.isfinite(x)]
        if len(x) == 0 or x.min() == x.max():
            continue
        low, high = float(x.min()), float(x.max())
        lo, hi = int(problem.coef_lo[j]), int(problem.coef_hi[j])
        smallest = [c for c in (1 if hi >= 1 and lo <= 1 else lo if lo > 0 else None,
                                -1 if lo <= -1 and hi >= -1 else hi if hi < 0 else None) if c]
        if not smallest:
            continue  # the column may not be used at all (a sign or a set of 0)
        if any(_can_flip(c, low, high, problem.intercept_lo, problem.intercept_hi) for c in smallest):
            continue
        messages.append(
            f"column {col.input!r} could not be used: its values ({low:g} to {high:g}) times any coefficient in "
            f"{lo}..{hi} are beyond what an intercept in {problem.intercept_lo}..{problem.intercept_hi} can offset, "
            "so as a linear term it cannot change a prediction; use threshold conditions (--numeric cuts) or a "
            "wider --intercept-min/--intercept-max")
    return messages
