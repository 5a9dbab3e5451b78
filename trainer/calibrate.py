"""Score -> risk for a trained scoring system (the ``probability`` field of the model file).

Two shapes (defined and read by ``runtime/risk.py``):
  * logistic-loss models: ``{"method": "logistic", "scale": 1.0}``; the loss fitted the score
    as log-odds, so ``risk = 1 / (1 + exp(-score))`` needs nothing more.
  * every other model: a monotone table from the training data, ``{"method": "table",
    "table": [{"score": s, "risk": r}, ...]}``: the weighted isotonic regression
    (pool-adjacent-violators) of the labels on the distinct training scores, so a higher
    score never reads a lower risk (a scorecard's risk column must be monotone). The fit is
    a step function, and the table keeps one row per step (the first score where the risk
    changes): the runtime reads the row at or below a score, so this is the same map at every
    training score, and a real-valued model's table has a few dozen rows, not one per row
    of data (spambase: 27 instead of 3,658).
"""
from __future__ import annotations

import numpy as np

RISK_DIGITS = 6  # rounding of the table's risks (monotone, so the table stays monotone)


def logistic(scale: float = 1.0) -> dict:
    """The mapping of a logistic-loss model: its score is the log-odds."""
    return {"method": "logistic", "scale": float(scale)}


def isotonic(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Weighted pool-adjacent-violators: the non-decreasing fit closest to ``values`` (least squares)."""
    means: list[float] = []
    sizes: list[float] = []
    counts: list[int] = []
    for v, w in zip(values.astype(np.float64), weights.astype(np.float64)):
        means.append(v)
        sizes.append(w)
        counts.append(1)
        while len(means) > 1 and means[-2] > means[-1]:
            w2 = sizes[-2] + sizes[-1]
            means[-2] = (means[-2] * sizes[-2] + means[-1] * sizes[-1]) / w2 if w2 > 0 else means[-1]
            sizes[-2] = w2
            counts[-2] += counts[-1]
            del means[-1], sizes[-1], counts[-1]
    return np.repeat(means, counts)


def risk_table(scores: np.ndarray, y: np.ndarray, weights: np.ndarray | None = None) -> dict:
    """The calibrated table of a model from its training scores and labels (+1/-1 or 1/0).

    Risk = isotonic fit of the (weighted) share of positives at each distinct score; one row
    where that fit steps up.
    """
    scores = np.asarray(scores, dtype=np.float64)
    positive = (np.asarray(y) > 0).astype(np.float64)
    w = np.ones(scores.shape) if weights is None else np.asarray(weights, dtype=np.float64)
    distinct, inverse = np.unique(scores, return_inverse=True)
    total = np.bincount(inverse, weights=w, minlength=distinct.size)
    hits = np.bincount(inverse, weights=w * positive, minlength=distinct.size)
    share = np.divide(hits, total, out=np.zeros_like(hits), where=total > 0)
    fitted = [round(float(r), RISK_DIGITS) for r in np.clip(isotonic(share, total), 0.0, 1.0)]
    rows = [{"score": _plain(s), "risk": r} for k, (s, r) in enumerate(zip(distinct, fitted))
            if k == 0 or r != fitted[k - 1]]
    return {"method": "table", "table": rows}


def _plain(score: float) -> int | float:
    """Integral scores as ints (as the runtime scores them), others as floats."""
    return int(score) if float(score).is_integer() else float(score)
