"""The design each model family reads (paper Sections 3.1-3.3).

SLIM and PILM read the inputs themselves (linear numeric columns, one-hot categories).
M-of-N rule tables (Section 3.3.1: predict positive when at least M of N rules hold) read
binary rules: thresholds of numeric inputs, a rule per category, a binary input as itself,
each with its negation, so a rule reads as the raw condition (``BareNuclei < 3``); the box
that makes the SLIM IP an M-of-N table (coefficients in {0, 1}, intercept in [-P, 0]) is set
in ``problem/constrained.py``. TILM (Section 3.3, Eq. 3.4) reads threshold rules ``x >= v``
without negations, since a negative coefficient on ``x >= v`` already scores ``x < v`` (up
to the intercept).
"""
from __future__ import annotations

from ..options.config import TrainConfig
from .binarize import binarize
from .design import Design, encode
from .prepare import LabeledData


def mofn_design(data: LabeledData, config: TrainConfig) -> Design:
    """The candidate rules of an M-of-N table (with negations unless ``config.negations`` is off)."""
    return binarize(data, cuts=config.cuts, max_thresholds=config.max_thresholds, negations=config.negations)


def tilm_design(data: LabeledData, config: TrainConfig) -> Design:
    """TILM's candidate rules: thresholds ``x >= v`` per numeric input (``config.cuts`` or
    automatic), a rule per category, a binary input as itself; no negations."""
    return binarize(data, cuts=config.cuts, max_thresholds=config.max_thresholds, negations=False)


def design_for(data: LabeledData, config: TrainConfig) -> Design:
    """The design a model family reads: SLIM and PILM the inputs themselves, M-of-N and
    TILM binary rules."""
    if config.model == "mofn":
        return mofn_design(data, config)
    if config.model == "tilm":
        return tilm_design(data, config)
    return encode(data)
