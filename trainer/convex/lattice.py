"""The coefficient lattice of a scoring system (SLIM's Lset) and the price of using it.

Shared by the cutting-plane master (``convex/cutting_planes.py``), the curvature certificate
(``curvature.py``) and data reduction (``solvers/reduce.py``): which integer vectors are allowed
(ranges, explicit value sets, signs as bounds, feature counts) and the interpretability
penalty of Eq. 3.1 (computed by :func:`..problem.slim.penalty`, as for :class:`SlimProblem`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..problem.slim import penalty


@dataclass(frozen=True)
class CoefficientSpace:
    """The integer coefficients the master may choose (SLIM's Lset) and what each one costs.

    lower/upper: integer bounds per column (signs are bounds: ``lower = 0`` for ``+``).
    values: per column, an explicit set of allowed values (None: every integer in the bounds).
    c0: the L0 price of a non-zero coefficient, per column (0 for the intercept).
    epsilon: the L1 tie-break on ``sum |lam_j|`` (SLIM's epsilon: smaller than any C0 gain).
    intercept: the index of the intercept column (never counted as a feature), or None.
    max_features/min_features: bounds on the number of non-zero coefficients but the intercept.
    """

    lower: tuple[float, ...]
    upper: tuple[float, ...]
    c0: tuple[float, ...]
    epsilon: float = 0.0
    values: tuple[tuple[float, ...] | None, ...] | None = None
    intercept: int | None = 0
    max_features: int | None = None
    min_features: int | None = None
    #: Columns whose value is any real number in their bounds, not an integer (a logistic card's
    #: offset, ``card_proof.py``).
    continuous: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        n = len(self.lower)
        if len(self.upper) != n or len(self.c0) != n or (self.values is not None and len(self.values) != n):
            raise ValueError("lower, upper, c0 and values need one entry per column")
        for j in range(n):
            if self.lower[j] > self.upper[j]:
                raise ValueError(f"column {j}: lower bound {self.lower[j]} > upper bound {self.upper[j]}")

    @property
    def size(self) -> int:
        return len(self.lower)

    def allowed(self, j: int) -> tuple[float, ...] | None:
        return None if self.values is None else self.values[j]

    def counted(self, j: int) -> bool:
        """Does column j count as a feature (L0 price, max/min features)?"""
        return j != self.intercept

    def penalty(self, lam: np.ndarray) -> float:
        """Eq. 3.1's penalty (:func:`..problem.slim.penalty`) over the counted columns."""
        lam = np.asarray(lam, dtype=np.float64)
        mask = np.array([self.counted(j) for j in range(self.size)], dtype=bool)
        return float(penalty(lam[mask], np.asarray(self.c0, dtype=np.float64)[mask], self.epsilon))

    def feasible(self, lam: np.ndarray) -> bool:
        """Is ``lam`` a point of the lattice (bounds, value sets, feature counts)?"""
        for j, v in enumerate(lam):
            integral = j in self.continuous or abs(v - round(v)) <= 1e-9
            if not (self.lower[j] - 1e-9 <= v <= self.upper[j] + 1e-9) or not integral and self.allowed(j) is None:
                return False
            allowed = self.allowed(j)
            if allowed is not None and not any(abs(v - a) <= 1e-9 for a in allowed):
                return False
        used = sum(1 for j, v in enumerate(lam) if self.counted(j) and v != 0)
        return (self.max_features is None or used <= self.max_features) and (
            self.min_features is None or used >= self.min_features)

    def hull(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-column bounds of the convex hull of the set (what the relaxation optimizes over)."""
        lo = np.array([min(self.allowed(j)) if self.allowed(j) else self.lower[j] for j in range(self.size)], float)
        hi = np.array([max(self.allowed(j)) if self.allowed(j) else self.upper[j] for j in range(self.size)], float)
        return lo, hi

    def min_penalty(self) -> float:
        """The smallest penalty any lattice point can have (0 unless min_features forces some)."""
        if not self.min_features:
            return 0.0
        prices = sorted(c for j, c in enumerate(self.c0) if self.counted(j))
        return float(sum(prices[: self.min_features]))

    def project(self, lam: np.ndarray) -> np.ndarray:
        """The nearest lattice point by rounding each coordinate (feature caps not enforced)."""
        out = np.empty(self.size)
        for j, v in enumerate(np.asarray(lam, dtype=np.float64)):
            allowed = self.allowed(j)
            if allowed is None:
                out[j] = min(max(v if j in self.continuous else round(v), self.lower[j]), self.upper[j])
            else:
                out[j] = min(allowed, key=lambda a: abs(a - v))
        return out
