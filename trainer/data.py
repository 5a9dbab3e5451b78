"""Reading and checking training data: the one place user data is validated.

(Interface stub written by the lead; the data helper owns and completes this module.)
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from scorecard.runtime import Input, Target


class DataError(ValueError):
    """Bad training data; the message names the file, column and value."""


@dataclass(frozen=True)
class LabeledData:
    """Validated training data.

    frame: the raw input columns only (target removed), in data order; numeric and binary
      columns as float64 with NaN for missing, categorical columns as object dtype holding
      str or None for missing.
    y: int8 array of +1 (positive class) / -1 (negative class), one per row of ``frame``.
    inputs: one runtime ``Input`` per column of ``frame`` (same order, same names).
    target: the target column's name and its positive value as written in the data.
    imputed: column -> value filled in for missing cells (empty unless missing="impute").
    missing_counts: column -> number of missing cells in the raw data.
    """

    frame: pd.DataFrame
    y: np.ndarray
    inputs: tuple[Input, ...]
    target: Target
    source: str = "DATA"
    imputed: dict = field(default_factory=dict)
    missing_counts: dict = field(default_factory=dict)
    dropped_rows: int = 0
