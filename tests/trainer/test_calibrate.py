"""Score -> risk: the calibrated table is monotone, and the runtime reads what the trainer writes."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scorecard.runtime import ModelError, dumps, loads, score
from scorecard.runtime.risk import check_probability, risk, risk_function
from scorecard.trainer.calibrate import isotonic, logistic, risk_table
from scorecard.trainer.data.prepare import prepare
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.train import train


def test_pool_adjacent_violators_fits_the_closest_monotone_sequence():
    fitted = isotonic(np.array([0.1, 0.5, 0.3, 0.2, 0.9]), np.array([1.0, 1.0, 1.0, 1.0, 2.0]))
    assert fitted.tolist() == pytest.approx([0.1, 1 / 3, 1 / 3, 1 / 3, 0.9])


def test_table_keeps_one_row_per_step_and_reads_the_per_score_fit_at_every_score():
    rng = np.random.default_rng(0)
    scores = rng.normal(0, 3, 3000).round(3)  # a real-valued model: ~2,600 distinct scores
    y = np.where(rng.random(3000) < 1 / (1 + np.exp(-scores)), 1, -1)
    table = risk_table(scores, y)["table"]
    check_probability({"method": "table", "table": table})
    risks = [row["risk"] for row in table]
    assert all(a < b for a, b in zip(risks, risks[1:]))  # a row only where the risk steps up
    assert len(table) < 100 < len(set(scores.tolist()))
    distinct, inverse = np.unique(scores, return_inverse=True)
    positive = np.bincount(inverse, weights=(y > 0).astype(float)) / np.bincount(inverse)
    per_score = np.round(isotonic(positive, np.bincount(inverse).astype(float)), 6)
    read = risk_function({"method": "table", "table": table})
    assert [read(s) for s in distinct.tolist()] == per_score.tolist()


def test_a_trained_zero_one_model_reads_its_risk_at_runtime():
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.integers(0, 4, size=(200, 2)), columns=["a", "b"])
    frame["y"] = (frame.a - frame.b + rng.normal(0, 1, 200) > 0).astype(int)
    model = loads(dumps(train(prepare(frame, "y"), TrainConfig(c0=0.01, coef_min=-3, coef_max=3,
                                                              intercept_min=-6, intercept_max=6,
                                                              time_limit=120))))
    assert model.probability["method"] == "table"
    by_score: dict = {}
    for row in frame.to_dict("records"):
        by_score.setdefault(score(model, row), []).append(row["y"])
    for row in model.probability["table"]:
        assert row["score"] in by_score  # every table row is a score seen in training
    low, high = min(by_score), max(by_score)
    assert risk(model, low) <= risk(model, high)
    assert risk(model, low - 100) == model.probability["table"][0]["risk"]  # below the table: first row
    assert risk(model, None) is None


def test_logistic_shape_is_the_sigmoid_of_the_score():
    class M:
        probability = logistic()
    assert risk(M, 0) == 0.5
    assert risk(M, 2) == pytest.approx(1 / (1 + math.exp(-2)))
    assert risk(M, -800) == pytest.approx(0.0)


@pytest.mark.parametrize("bad", [
    {"method": "table", "table": [{"score": 1, "risk": 0.5}, {"score": 2, "risk": 0.4}]},
    {"method": "table", "table": [{"score": 2, "risk": 0.1}, {"score": 1, "risk": 0.4}]},
    {"method": "table", "table": []},
    {"method": "logistic", "scale": 0},
    {"method": "platt"},
])
def test_broken_probability_is_refused_naming_the_field(bad):
    with pytest.raises(ModelError, match="probability"):
        check_probability(bad)
