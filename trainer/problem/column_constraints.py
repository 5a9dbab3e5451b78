"""What a coefficient box cannot say, by design column and merged row: the constraints a
:class:`~.slim.SlimProblem` carries beyond its box (value sets, composition, rate limits,
PILM tiers, TILM blocks), resolved from the options in ``constrained.py``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

import numpy as np

from .group_limits import GroupLimit

Number = int | float


@dataclass(frozen=True)
class Tilm:
    """TILM's per-input block (Section 3.3): the rules of each input, the price of an input
    on top of its rules (C_f - C_t: every rule already costs C_t in ``problem.c0``), R_max,
    and which inputs must keep one sign over all their threshold rules."""

    rules_of: Mapping[str, tuple[int, ...]]
    feature_extra: Mapping[str, float]
    max_rules: int
    one_sign: tuple[str, ...]


@dataclass(frozen=True)
class ColumnConstraints:
    """What a coefficient box cannot say, by design column and merged row.

    coef_values: column -> allowed values (0 included) when they are not all integers in
      [coef_lo, coef_hi] (Section 2.2's u binaries).
    intercept_values: the intercept's allowed values, or None for the integer range.
    columns_of: raw input -> its design columns, for the inputs composition names.
    at_most_one: groups of inputs, at most one used (Section 2.5).
    implications: (a, b, source): input a used only with input b (if-then, hierarchy).
    pos_n, neg_n: positive/negative data rows in each merged row (rate limits count rows).
    max_fpr, min_tpr, max_positive_rate: Section 2.6's single-shot limits.
    tiers: PILM (Section 3.2): (values, extra price over ``problem.c0``) of tiers 2..R.
    tilm: TILM's per-input block, or None.
    max_inputs, min_inputs: ``--max-features``/``--min-features`` counted in raw inputs (a
      data column with all its cut-off conditions or levels is one feature), when some input
      has more than one design column; ``columns_of`` then holds every input.
    group_limits: ``--limit``s on rates in groups of rows (``group_limits.py``).
    """

    coef_values: Mapping[int, tuple[Number, ...]]
    intercept_values: tuple[Number, ...] | None
    columns_of: Mapping[str, tuple[int, ...]]
    at_most_one: tuple[tuple[str, ...], ...]
    implications: tuple[tuple[str, str, str], ...]
    pos_n: np.ndarray
    neg_n: np.ndarray
    max_fpr: float | None
    min_tpr: float | None
    max_positive_rate: float | None
    tiers: tuple[tuple[tuple[Number, ...], float], ...]
    tilm: Tilm | None
    max_inputs: int | None = None
    min_inputs: int | None = None
    group_limits: tuple[GroupLimit, ...] = ()

    @property
    def present(self) -> tuple[str, ...]:
        """Names of the constraint kinds in force; empty means the plain SLIM box problem."""
        kinds = {
            "coef_values": bool(self.coef_values), "intercept_values": self.intercept_values is not None,
            "at_most_one": bool(self.at_most_one), "implications": bool(self.implications),
            "max_fpr": self.max_fpr is not None, "min_tpr": self.min_tpr is not None,
            "max_positive_rate": self.max_positive_rate is not None, "tiers": bool(self.tiers),
            "tilm": self.tilm is not None,
            "features_per_column": self.max_inputs is not None or self.min_inputs is not None,
            "limits": bool(self.group_limits),
        }
        return tuple(k for k, on in kinds.items() if on)

    def limits(self) -> dict[str, tuple[str, int]]:
        """Rate limits as row counts: name -> ("<=" or ">=", count) for FP, TP and positives."""
        n_neg, n_pos = int(self.neg_n.sum()), int(self.pos_n.sum())
        out = {}
        if self.max_fpr is not None:
            out["max_fpr"] = ("<=", math.floor(self.max_fpr * n_neg + 1e-9))
        if self.min_tpr is not None:
            out["min_tpr"] = (">=", math.ceil(self.min_tpr * n_pos - 1e-9))
        if self.max_positive_rate is not None:
            out["max_positive_rate"] = ("<=", math.floor(self.max_positive_rate * (n_pos + n_neg) + 1e-9))
        return out

    def extra_penalty(self, coef: np.ndarray) -> float:
        """The part of the objective beyond ``c0`` and L1: PILM tier prices, TILM input prices."""
        total = 0.0
        for values, extra in self.tiers:
            total += extra * int(np.isin(coef[coef != 0], values).sum())
        if self.tilm is not None:
            for name, cols in self.tilm.rules_of.items():
                if np.any(coef[list(cols)] != 0):
                    total += self.tilm.feature_extra[name]
        return total
