"""TILM (paper Section 3.3): a scoring system of threshold rules on raw numeric inputs."""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd
import pytest
from scorecard.runtime import predict
from scorecard.runtime.errors import ConfigError
from scorecard.trainer.data.prepare import prepare
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.train import train
from testdata import SHARED

HABERMAN = SHARED / "haberman.csv"
# CBC stops at a work limit (branch-and-bound nodes): the same model on any machine however
# busy; the 120 s time limit is only a safety net.
SAFE = dict(time_limit=120)


def steps(n: int = 150, seed: int = 0) -> pd.DataFrame:
    """Risk jumps at age 60 and again at 75, and with three or more nodes."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"age": rng.integers(30, 90, n), "nodes": rng.integers(0, 8, n)})
    risk = (frame.age >= 60).astype(int) + (frame.age >= 75) + 2 * (frame.nodes >= 3) + rng.normal(0, 0.4, n)
    frame["y"] = (risk >= 2).astype(int)
    return frame


def by_input(model) -> dict:
    rows = defaultdict(list)
    for t in model.terms:
        rows[t.input].append(t)
    return rows


def test_thresholds_are_found_on_raw_columns():
    data = prepare(steps(), "y")
    model = train(data, TrainConfig(model="tilm", c0=0.01, max_thresholds=8, coef_min=-3, coef_max=3,
                                    **SAFE, work_limit=1))  # proven optimal within the limit
    assert model.kind == "linear" and model.terms
    assert all(t.op == ">=" for t in model.terms)
    truth = (data.frame.age >= 60).astype(int) + (data.frame.age >= 75) + 2 * (data.frame.nodes >= 3) >= 2
    assert model.training.train_error <= float((truth != (data.y > 0)).mean())  # as good as the true steps
    rows = data.frame.to_dict("records")
    assert [predict(model, r) for r in rows[:5]] == [predict(model, {k: str(v) for k, v in r.items()}) for r in rows[:5]]


def test_each_input_keeps_one_sign_and_at_most_r_max_rules():
    data = prepare(steps(seed=1), "y")
    model = train(data, TrainConfig(model="tilm", c0=0.001, c_rule=0.0005, max_rules_per_feature=1,
                                    coef_min=-3, coef_max=3, **SAFE, work_limit=1))
    for name, terms in by_input(model).items():
        assert len(terms) <= 1, name
        assert all(t.points > 0 for t in terms) or all(t.points < 0 for t in terms)


def test_an_extra_rule_may_not_cost_more_than_an_input():
    data = prepare(steps(), "y")
    with pytest.raises(ConfigError, match="--c-rule"):
        train(data, TrainConfig(model="tilm", c_feature=0.01, c_rule=0.02, **SAFE))


def test_haberman_gives_a_scoring_system_with_threshold_rows():
    data = prepare(pd.read_csv(HABERMAN), "AliveAfter5Yrs")
    n_pos = int((data.y > 0).sum())
    model = train(data, TrainConfig(model="tilm", c0=0.01, w_pos=1 - n_pos / len(data.y), coef_min=-5,
                                    coef_max=5, intercept_min=-20, intercept_max=20, max_thresholds=6,
                                    **SAFE, work_limit=0.2))
    assert model.terms and all(t.op == ">=" for t in model.terms)
    for name, terms in by_input(model).items():
        assert len(terms) <= 3
        assert all(t.points > 0 for t in terms) or all(t.points < 0 for t in terms)
