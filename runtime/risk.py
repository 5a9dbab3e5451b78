"""Score -> risk: reading ``model.probability``. Standard library only.

A model trained for it says how its score maps to the probability of the positive class
(the "risk" column of a risk scorecard). ``probability`` is ``null`` or one of:

``score`` is the card's points total (runtime/score.py; no intercept).

``{"method": "logistic", "scale": s, "center": c}``
    ``risk = 1 / (1 + exp(-s * (score - c)))`` (``center`` 0 when absent). Models trained
    with the logistic loss carry ``scale = 1.0`` and ``center`` = their threshold: their
    score minus the threshold *is* the log-odds the loss was fitted to.

``{"method": "table", "table": [{"score": x, "risk": r, "low": l, "high": h}, ...]}``
    A calibrated, monotone step function: rows sorted by ``score`` (strictly increasing),
    ``risk`` in [0, 1] and non-decreasing (``trainer/calibrate.py``: a monotone logistic
    fit of the outcome on the score, one row per score a person can reach, each with its
    95 % interval ``low`` <= ``risk`` <= ``high``, optional). A score reads the row of the
    largest table score at or below it; a score below the first row reads the first row.
    Used for models trained with the 0-1 loss (and the other losses).

Exporters print the same thing: the logistic formula, or the table as a "score -> risk"
list (the HTML/LaTeX scorecards' risk table).
"""
from __future__ import annotations

import bisect
import math
from typing import Any, Callable, Protocol

from .errors import ModelError  # not from .model: model.py imports this module to check a model file

METHODS = ("logistic", "table")


class HasProbability(Protocol):
    """What :func:`risk` reads of a :class:`~scorecard.runtime.model.Model`."""

    probability: dict | None


def check_probability(probability: Any) -> None:
    """Raise ModelError naming the field when ``probability`` is not null or a valid shape above."""
    if probability is None:
        return
    if not isinstance(probability, dict):
        raise ModelError("probability: must be null or an object")
    method = probability.get("method")
    if method not in METHODS:
        raise ModelError(f"probability.method: must be one of {', '.join(METHODS)}, got {method!r}")
    if method == "logistic":
        scale = probability.get("scale")
        if not _number(scale) or scale <= 0:
            raise ModelError(f"probability.scale: must be a number > 0, got {scale!r}")
        center = probability.get("center", 0)
        if not _number(center):
            raise ModelError(f"probability.center: must be a finite number, got {center!r}")
        return
    table = probability.get("table")
    if not isinstance(table, list) or not table:
        raise ModelError("probability.table: must be a non-empty list of {score, risk} rows")
    last_score, last_risk = -math.inf, 0.0
    for k, row in enumerate(table):
        where = f"probability.table[{k}]"
        if not isinstance(row, dict) or not _number(row.get("score")) or not _number(row.get("risk")):
            raise ModelError(f"{where}: must be {{\"score\": number, \"risk\": number}}")
        if not 0 <= row["risk"] <= 1:
            raise ModelError(f"{where}.risk: must be between 0 and 1, got {row['risk']!r}")
        if row["score"] <= last_score:
            raise ModelError(f"{where}.score: scores must be strictly increasing")
        if row["risk"] < last_risk:
            raise ModelError(f"{where}.risk: risks must not decrease as the score grows")
        for key, ok in (("low", lambda v: 0 <= v <= row["risk"]), ("high", lambda v: row["risk"] <= v <= 1)):
            if key in row and not (_number(row[key]) and ok(row[key])):
                raise ModelError(f"{where}.{key}: must be a number between 0 and 1 on the {key} side of the "
                                 f"risk, got {row[key]!r}")
        last_score, last_risk = row["score"], row["risk"]


def risk(model: HasProbability, score: float | None) -> float | None:
    """The probability of the positive class at ``score`` (None without a score or a mapping)."""
    if score is None or model.probability is None:
        return None
    return risk_function(model.probability)(score)


def risk_function(probability: dict | None) -> Callable[[float | None], float | None]:
    """``risk`` as a function of the score alone, checked and prepared once (for many rows):
    ``risk_function(model.probability)(s) == risk(model, s)`` for every score ``s``."""
    check_probability(probability)
    if probability is None:
        return lambda score: None
    if probability["method"] == "logistic":
        scale, center = probability["scale"], probability.get("center", 0)

        def logistic(score: float | None) -> float | None:
            if score is None:
                return None
            z = scale * (score - center)
            return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))

        return logistic
    scores = [row["score"] for row in probability["table"]]
    risks = [float(row["risk"]) for row in probability["table"]]

    def table(score: float | None) -> float | None:
        if score is None:
            return None
        return risks[max(bisect.bisect_right(scores, score) - 1, 0)]

    return table


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
