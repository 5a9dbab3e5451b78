"""Score -> risk for a trained scoring system (the ``probability`` field of the model file).

Two shapes (defined and read by ``runtime/risk.py``; ``score`` is the card's points total):
  * logistic-loss models: ``{"method": "logistic", "scale": 1.0, "center": threshold}``; the
    loss fitted the score minus the threshold as log-odds, so the risk needs nothing more.
  * every other model: a table of the risk at every score a person can reach on the card
    (``runtime.score.reachable_scores``; at the distinct training scores when the card's
    totals cannot be listed), from a monotone logistic fit of the outcome on the score, two
    parameters: ``risk = 1 / (1 + exp(-(a + b * (score - threshold))))`` with ``b >= 0``. Each
    row carries the 95 % interval of the fit (delta method on ``(a, b)``: ``a + b * m +-
    1.96 * its standard error``, through the logistic). Unlike the isotonic table it replaces,
    a handful of training rows at an extreme score never reads 0 % or 100 %: two parameters
    are fitted from every row, with a weak normal prior (sd 2.5 on the slope per standard
    deviation of the score, 10 on the intercept, as in Gelman et al. 2008), so a separable
    fit stays finite. Stored risks are rounded to 6 digits and kept within
    [1e-6, 1 - 1e-6]: no risk in a model file is exactly 0 or 1.
    When C0 came from cross-validation (``--c0 auto``), ``(a, b)`` are fitted on out-of-fold
    margins (each row scored by the fold model that did not see it, minus that model's
    threshold), so the risk is what the card does on rows it was not trained on, not the
    training fit; ``fit.out_of_fold`` says which.
"""
from __future__ import annotations

import math

import numpy as np
from scorecard.runtime import Model
from scorecard.runtime.score import reachable_scores

RISK_DIGITS = 6  # rounding of the table's risks (monotone, so the table stays monotone)
#: The nearest a stored risk comes to 0 or 1.
RISK_FLOOR = 10.0 ** -RISK_DIGITS
#: The most scores the table lists (one row each); beyond, quantiles of the training scores.
MAX_ROWS = 500
Z95 = 1.959963984540054
SLOPE_PRIOR_SD = 2.5  # per standard deviation of the score
INTERCEPT_PRIOR_SD = 10.0


def logistic(scale: float = 1.0, center: float = 0) -> dict:
    """The mapping of a logistic-loss model: its score minus ``center`` is the log-odds."""
    return {"method": "logistic", "scale": float(scale), "center": center}


def fit(margins: np.ndarray, y: np.ndarray, weights: np.ndarray | None = None) -> tuple[float, float, np.ndarray]:
    """``(a, b, covariance)`` of the penalized logistic fit ``P(y = 1) = 1 / (1 + exp(-(a + b *
    m)))`` with ``b >= 0`` (a score that rises never reads a lower risk): Newton's method on
    the log-likelihood plus the normal priors; when the best slope is negative, ``b = 0`` and
    only ``a`` is fitted (its variance alone in the covariance). ``weights``: how many data
    rows each row stands for (grouped rows of big data, ``LabeledData.counts``; None: one each)."""
    m = np.asarray(margins, dtype=np.float64)
    positive = (np.asarray(y) > 0).astype(np.float64)
    w = np.ones_like(m) if weights is None else np.asarray(weights, dtype=np.float64)
    mean = float(np.sum(w * m) / np.sum(w)) if m.size else 0.0
    spread = float(np.sqrt(np.sum(w * (m - mean) ** 2) / np.sum(w))) if m.size else 0.0
    spread = spread or 1.0
    prior = np.diag([1 / INTERCEPT_PRIOR_SD ** 2, (spread / SLOPE_PRIOR_SD) ** 2])
    design = np.column_stack([np.ones_like(m), m])

    def newton(columns: int) -> tuple[np.ndarray, np.ndarray]:
        x, p0 = design[:, :columns], prior[:columns, :columns]
        theta = np.zeros(columns)
        for _ in range(100):
            eta = x @ theta
            p = 1 / (1 + np.exp(-eta))
            gradient = x.T @ (w * (positive - p)) - p0 @ theta
            hessian = (x * (w * p * (1 - p))[:, None]).T @ x + p0
            step = np.linalg.solve(hessian, gradient)
            theta = theta + step
            if np.max(np.abs(step)) < 1e-10:
                break
        eta = x @ theta
        p = 1 / (1 + np.exp(-eta))
        hessian = (x * (w * p * (1 - p))[:, None]).T @ x + p0
        return theta, np.linalg.inv(hessian)

    theta, cov = newton(2)
    if theta[1] >= 0:
        return float(theta[0]), float(theta[1]), cov
    theta, cov = newton(1)
    return float(theta[0]), 0.0, np.array([[cov[0, 0], 0.0], [0.0, 0.0]])


def _sigmoid(eta: float) -> float:
    return 1 / (1 + math.exp(-eta)) if eta >= 0 else math.exp(eta) / (1 + math.exp(eta))


def _stored(risk: float) -> float:
    return min(max(round(risk, RISK_DIGITS), RISK_FLOOR), 1 - RISK_FLOOR)


def _table_scores(model: Model, points: np.ndarray) -> list:
    """The scores the table lists: every reachable total, or the distinct training scores
    (at most MAX_ROWS of them, evenly by rank)."""
    reachable = reachable_scores(model, MAX_ROWS)
    if reachable is not None:
        return reachable
    distinct = np.unique(np.asarray(points, dtype=np.float64))
    if distinct.size > MAX_ROWS:
        distinct = distinct[np.unique(np.round(np.linspace(0, distinct.size - 1, MAX_ROWS)).astype(int))]
    return [_plain(s) for s in distinct]


def risk_table(model: Model, points: np.ndarray, y: np.ndarray, counts: np.ndarray | None = None,
               out_of_fold: tuple[np.ndarray, np.ndarray, np.ndarray | None] | None = None) -> dict:
    """The calibrated table of ``model`` (its ``threshold`` and reachable scores) from its
    training scores ``points`` and labels ``y`` (+1/-1 or 1/0), each row weighted by ``counts``
    (None: one each), or from ``out_of_fold`` ``(margins, labels, counts)`` when given (see the
    module docstring)."""
    threshold = model.threshold
    margins, labels, weights = out_of_fold if out_of_fold is not None else \
        (np.asarray(points) - threshold, y, counts)
    a, b, cov = fit(margins, labels, weights)
    rows = []
    for s in _table_scores(model, points):
        m = s - threshold
        eta = a + b * m
        se = math.sqrt(max(cov[0, 0] + 2 * m * cov[0, 1] + m * m * cov[1, 1], 0.0))
        rows.append({"score": s, "risk": _stored(_sigmoid(eta)), "low": _stored(_sigmoid(eta - Z95 * se)),
                     "high": _stored(_sigmoid(eta + Z95 * se))})
    return {"method": "table", "table": rows,
            "fit": {"model": "logistic", "intercept": a, "slope": b, "center": threshold,
                    "covariance": [[float(cov[0, 0]), float(cov[0, 1])], [float(cov[1, 0]), float(cov[1, 1])]],
                    "rows": int(len(labels) if weights is None else round(float(np.sum(weights)))),
                    "out_of_fold": out_of_fold is not None}}


def _plain(score: float) -> int | float:
    """Integral scores as ints (as the runtime scores them), others as floats."""
    return int(score) if float(score).is_integer() else float(score)
