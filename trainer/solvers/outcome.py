"""``Outcome``: what every solve path returns (the best model, its certificate and status)."""
from __future__ import annotations

from dataclasses import dataclass

from ..search.warm_start import Incumbent
from .progress import relative_gap


@dataclass(frozen=True)
class Outcome:
    """The best model, the proven lower bound on the optimum, the status ("optimal",
    "time_limit" or "interrupted") and the backend that produced the certificate."""

    incumbent: Incumbent
    lower_bound: float
    status: str
    backend: str
    seconds: float

    @property
    def gap(self) -> float | None:
        return relative_gap(self.incumbent.objective, self.lower_bound)
