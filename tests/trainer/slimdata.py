"""Small datasets shared by the trainer tests."""
from __future__ import annotations

import numpy as np
import pandas as pd

from scorecard.trainer.data import LabeledData, prepare

from testdata import SHARED


def labeled(frame: pd.DataFrame, target: str = "y") -> LabeledData:
    return prepare(frame, target)


def tiny(seed: int = 3, n: int = 40, p: int = 3) -> pd.DataFrame:
    """Integer features in 0..3 and a noisy linear label: no model is perfect."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, p))
    score = X[:, 0] - X[:, 1] + (X[:, 2] if p > 2 else 0) - 1 + rng.normal(0, 1.0, n)
    frame = pd.DataFrame(X, columns=[f"f{k}" for k in range(p)])
    frame["y"] = (score > 0).astype(int)
    return frame


def breastcancer() -> LabeledData:
    return prepare(pd.read_csv(SHARED / "breastcancer.csv"), "Benign")
