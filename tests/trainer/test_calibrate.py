"""Score -> risk: a monotone two-parameter logistic fit at every reachable score, with its 95 %
interval, never 0 or 1; out of fold under --c0 auto; the runtime reads what the trainer writes."""
from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scorecard.exporters.layout import card
from scorecard.runtime import Input, Model, ModelError, Target, Term, dumps, loads, score
from scorecard.runtime.risk import check_probability, risk
from scorecard.runtime.score import reachable_scores
from scorecard.trainer.calibrate import fit, logistic, risk_table
from scorecard.trainer.data.prepare import prepare, read_table
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.train import train

ROOT = Path(__file__).resolve().parents[2]


def test_the_fit_recovers_a_logistic_relation_and_its_uncertainty():
    rng = np.random.default_rng(0)
    m = rng.integers(-6, 7, 20000).astype(float)
    y = np.where(rng.random(m.size) < 1 / (1 + np.exp(-(0.5 + 0.7 * m))), 1, -1)
    a, b, cov = fit(m, y)
    assert a == pytest.approx(0.5, abs=0.05) and b == pytest.approx(0.7, abs=0.05)
    assert 0 < cov[1, 1] < 1e-3 and cov[0, 0] > 0


def test_a_falling_relation_gives_a_flat_risk_never_a_falling_one():
    m = np.array([0.0, 1, 2, 3] * 50)
    y = np.where(m < 2, 1, -1)
    a, b, cov = fit(m, y)
    assert b == 0.0 and cov[1, 1] == 0.0 and 1 / (1 + math.exp(-a)) == pytest.approx(0.5)


def test_weighted_rows_fit_as_the_rows_they_stand_for():
    """Grouped rows of big data (``LabeledData.counts``): the fit, its interval and the table
    are those of the rows expanded."""
    rng = np.random.default_rng(1)
    m = rng.integers(-4, 5, 400).astype(float)
    y = np.where(rng.random(m.size) < 1 / (1 + np.exp(-(0.3 + 0.6 * m))), 1, -1)
    counts = rng.integers(1, 6, m.size).astype(float)
    a, b, cov = fit(m, y, counts)
    a2, b2, cov2 = fit(np.repeat(m, counts.astype(int)), np.repeat(y, counts.astype(int)))
    assert (a, b) == pytest.approx((a2, b2), rel=1e-9) and np.allclose(cov, cov2, rtol=1e-9)
    model = _checklist()
    points = np.array([0, 2, 3, 5] * 5, dtype=float)
    labels = np.where(rng.random(points.size) < 0.2 + 0.15 * points, 1, -1)
    w = rng.integers(1, 4, points.size)
    grouped = risk_table(model, points, labels, w.astype(float))
    expanded = risk_table(model, np.repeat(points, w), np.repeat(labels, w))
    assert grouped["fit"]["rows"] == expanded["fit"]["rows"] == int(w.sum())
    assert [r["risk"] for r in grouped["table"]] == pytest.approx([r["risk"] for r in expanded["table"]], abs=2e-6)


def _checklist() -> Model:
    return Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "binary"), Input("b", "binary")),
                 terms=(Term("a", "==", 1, 3, ""), Term("b", "==", 1, 2, "")), intercept=-2)


def test_separable_data_never_reads_0_or_100_percent_and_every_reachable_score_has_a_row():
    model = _checklist()  # scores 0, 2, 3, 5; threshold 2; the outcome is exactly "score > 2"
    points = np.array([0, 2, 3, 5] * 3, dtype=float)
    y = np.where(points > 2, 1, -1)
    probability = risk_table(model, points, y)
    check_probability(probability)
    table = probability["table"]
    assert [row["score"] for row in table] == reachable_scores(model, 100) == [0, 2, 3, 5]
    for row in table:
        assert 0 < row["low"] <= row["risk"] <= row["high"] < 1
    risks = [row["risk"] for row in table]
    assert risks == sorted(risks) and risks[0] < 0.5 < risks[-1]
    shown = [r.risk_text for r in card(replace(_checklist(), probability=probability)).risks]
    assert not any(text in ("0.0%", "100.0%") for text in shown)


def test_a_risk_that_rounds_to_0_or_100_percent_prints_as_a_bound():
    table = {"method": "table", "table": [{"score": 0, "risk": 0.0004}, {"score": 1, "risk": 0.5},
                                          {"score": 2, "risk": 0.9996}]}
    model = replace(_checklist(), probability=table)
    assert [r.risk_text for r in card(model).risks] == ["<\u00a00.1%", "50.0%", ">\u00a099.9%"]


def test_the_breastcancer_demo_card_is_honest():
    """The issue's test case: the demo's card (make demo: --c0 0.025) has no risk of 0 or 1 in
    its file and prints neither 0 % nor 100 %; its risk has an interval at every total seen
    (its rows are "x 4" rows, whose totals the card cannot list without the data)."""
    data = prepare(read_table(str(ROOT / "examples" / "breastcancer.csv")), "Benign")
    model = loads(dumps(train(data, TrainConfig(c0=0.025, time_limit=120))))
    table = model.probability["table"]
    seen = {score(model, row) for row in data.frame.to_dict("records")} - {None}
    assert [row["score"] for row in table] == sorted(seen)
    assert all(0 < row["low"] <= row["risk"] <= row["high"] < 1 for row in table)
    assert not model.probability["fit"]["out_of_fold"]  # C0 was given: the training scores
    printed = [r.risk_text for r in card(model).risks]
    assert printed and not any(text in ("0.0%", "100.0%") for text in printed)


def test_c0_auto_calibrates_out_of_fold():
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.integers(0, 4, size=(200, 2)), columns=["a", "b"])
    frame["y"] = (frame.a - frame.b + rng.normal(0, 1, 200) > 0).astype(int)
    model = train(prepare(frame, "y"), TrainConfig(coef_min=-3, coef_max=3, intercept_min=-6, intercept_max=6,
                                                   time_limit=120, work_limit=2e6))
    fitted = model.probability["fit"]
    assert fitted["out_of_fold"] and fitted["rows"] <= 200 and fitted["center"] == model.threshold


def test_a_trained_zero_one_model_reads_its_risk_at_runtime():
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.integers(0, 4, size=(200, 2)), columns=["a", "b"])
    frame["y"] = (frame.a - frame.b + rng.normal(0, 1, 200) > 0).astype(int)
    model = loads(dumps(train(prepare(frame, "y"), TrainConfig(c0=0.01, coef_min=-3, coef_max=3,
                                                              intercept_min=-6, intercept_max=6,
                                                              time_limit=120))))
    assert model.probability["method"] == "table"
    seen = {score(model, row) for row in frame.to_dict("records")}
    assert seen <= {row["score"] for row in model.probability["table"]}  # every training score has its row
    low, high = min(seen), max(seen)
    assert risk(model, low) < risk(model, high)
    assert risk(model, low - 100) == model.probability["table"][0]["risk"]  # below the table: first row
    assert risk(model, None) is None


def test_logistic_shape_is_the_sigmoid_of_the_score_minus_its_center():
    class M:
        probability = logistic(center=3)
    assert risk(M, 3) == 0.5
    assert risk(M, 5) == pytest.approx(1 / (1 + math.exp(-2)))
    assert risk(M, -800) == pytest.approx(0.0)


@pytest.mark.parametrize("bad", [
    {"method": "table", "table": [{"score": 1, "risk": 0.5}, {"score": 2, "risk": 0.4}]},
    {"method": "table", "table": [{"score": 2, "risk": 0.1}, {"score": 1, "risk": 0.4}]},
    {"method": "table", "table": [{"score": 1, "risk": 0.5, "low": 0.6}]},
    {"method": "table", "table": [{"score": 1, "risk": 0.5, "high": 1.5}]},
    {"method": "table", "table": []},
    {"method": "logistic", "scale": 0},
    {"method": "logistic", "scale": 1, "center": "x"},
    {"method": "platt"},
])
def test_broken_probability_is_refused_naming_the_field(bad):
    with pytest.raises(ModelError, match="probability"):
        check_probability(bad)
