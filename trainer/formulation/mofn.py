"""M-of-N rule tables (paper Section 3.3.1): predict positive when at least M of N rules hold.

The paper's IP is the SLIM IP over binary rules with lambda_{j,t} in {0, 1} and the
intercept lambda_0 in Z cap [-P, 0]: a table of the rules with coefficient 1 predicts
positive when (number of true rules) + lambda_0 > 0, i.e. M = 1 - lambda_0 rules hold; the
L1 and L0 penalties coincide on {0, 1}, so C0 prices each rule. ``resolve.py`` sets that box
(and P = the number of candidate rules); this module makes the candidate rules: thresholds
of numeric inputs, a rule per category, a binary input as itself, each with its negation
(``binarize.py``), so a rule reads as the raw condition (``BareNuclei < 3``).
"""
from __future__ import annotations

from ..binarize import binarize
from ..config import TrainConfig
from ..data import LabeledData
from ..encode import Design


def design(data: LabeledData, config: TrainConfig) -> Design:
    """The candidate rules of an M-of-N table (with negations unless ``config.negations`` is off)."""
    return binarize(data, cuts=config.cuts, max_thresholds=config.max_thresholds, negations=config.negations)
