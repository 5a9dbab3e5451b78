"""``scorecard recalibrate``: a published card's risks refitted on a site's own outcomes.

A hospital that takes a card to its own population keeps the card (its points and its
threshold, so every printed card, export and golden row scores the same) and refits what a
score means there: the risk table is fitted again on the local rows exactly as training fits it
(``calibrate.risk_table``: a monotone logistic fit of the outcome on the score, ``risk = 1 / (1 +
exp(-(a + b * (score - threshold))))`` with ``b >= 0``, weak priors, a 95 % interval per score),
and the model file records the refit in its ``history``: when, on which data (its name, rows
and SHA-256), at which site, the fit's intercept and slope with their 95 % intervals, how the
previous risks were calibrated on these rows (``before``), and the previous map itself, so the
report of the new file can show the calibration before and after.
"""
from __future__ import annotations

import hashlib
import math
import os
from dataclasses import replace
from datetime import datetime, timezone

import numpy as np
from scorecard import __version__
from scorecard.runtime import Model
from scorecard.runtime.errors import DataError
from scorecard.runtime.stats import Z95, Interval, recalibrate as logistic_recalibration
from scorecard.runtime.validation import Sample

from .calibrate import risk_table

EVENT = "recalibrated"


def sha256(path: str) -> str:
    """The file's SHA-256, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _interval(value: float, variance: float) -> dict:
    half = Z95 * math.sqrt(max(variance, 0.0))
    return {"value": value, "low": value - half, "high": value + half}


def _plain(i: Interval | None) -> dict | None:
    return None if i is None else {"value": i.value, "low": i.low, "high": i.high}


def recalibrated(model: Model, sample: Sample, path: str, site: str | None = None,
                 at: datetime | None = None) -> Model:
    """``model`` with its risk table refitted on ``sample`` (the scored rows of the file
    ``path``, with their outcome) and the refit appended to its history; points, threshold,
    training record and golden rows unchanged. Refuses (DataError) a sample without the outcome,
    without a scored row, or whose scored rows hold one class only."""
    if sample.labels is None:
        raise DataError(f"{sample.source}: no column {model.target.name!r} (the model's outcome), which the refit needs")
    scored = sample.scored
    if not scored:
        raise DataError(f"{sample.source}: no row has a score (every row lacks a value the model needs)")
    scores = np.array([sample.scores[k] for k in scored], dtype=np.float64)
    labels = np.array([sample.labels[k] for k in scored])
    if labels.min() == labels.max():
        raise DataError(f"{sample.source}: the rows with a score hold one class of {model.target.name!r} only; "
                        "the risks need both")
    table = risk_table(model, scores, labels)
    fit = table["fit"]
    cov = fit["covariance"]
    before = None
    if model.probability is not None:
        old = [sample.risks[k] for k in scored]
        r = logistic_recalibration(old, labels.tolist())  # type: ignore[arg-type]
        before = {"predicted": math.fsum(old) / len(old), "slope": _plain(r.slope),  # type: ignore[arg-type]
                  "intercept": _plain(r.intercept)}
    when = (at or datetime.now(timezone.utc)).astimezone(timezone.utc)
    entry = {"event": EVENT, "at": when.strftime("%Y-%m-%dT%H:%M:%SZ"), "by": f"scorecard {__version__}",
             "data": os.path.basename(path), "sha256": sha256(path), "rows": sample.rows, "scored": len(scored),
             "outcome_rate": float(labels.mean()),
             "fit": {"model": "logistic", "center": fit["center"], "intercept": _interval(fit["intercept"], cov[0][0]),
                     "slope": _interval(fit["slope"], cov[1][1])},
             "before": before, "previous": model.probability}
    if site:
        entry["site"] = site
    return replace(model, probability=table, history=model.history + (entry,))

