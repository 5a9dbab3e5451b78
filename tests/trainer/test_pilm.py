"""PILM (paper Section 3.2): large coefficients only when they pay for their price."""
from __future__ import annotations

import numpy as np
import pandas as pd
from scorecard.trainer.data.prepare import prepare
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.train import train


def lopsided(n: int = 200) -> pd.DataFrame:
    """The outcome is exactly x1 + 7 x2 >= 8: a coefficient of 7 makes no error."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"x1": rng.integers(0, 11, n), "x2": rng.integers(0, 2, n)})
    frame["y"] = (frame.x1 + 7 * frame.x2 >= 8).astype(int)
    return frame


def pilm(price_of_large: float) -> TrainConfig:
    # CBC proves both optima within a few nodes; the work limit keeps the verdict the same on
    # any machine, the 120 s time limit is only a safety net.
    return TrainConfig(model="pilm", intercept_min=-30, intercept_max=30, time_limit=120,
                       tiers=[{"values": {"min": -2, "max": 2}, "c0": 0.0005},
                              {"values": {"min": -20, "max": 20}, "c0": price_of_large}])


def test_a_large_coefficient_is_used_when_its_tier_is_cheap_enough():
    model = train(prepare(lopsided(), "y"), pilm(0.001).with_options(work_limit=1))
    assert model.training.train_error == 0
    assert max(abs(t.points) for t in model.terms) > 2


def test_an_expensive_tier_keeps_every_coefficient_small():
    model = train(prepare(lopsided(), "y"), pilm(0.5).with_options(work_limit=1))
    assert all(abs(t.points) <= 2 for t in model.terms)
    assert model.training.train_error > 0
