"""Limits in groups of rows (``--limit``): the card trained under them is the proven optimum
among the cards that meet them, checked against every card of a small box enumerated with
numpy; they hold on the training rows whatever the solver's budget; conflicting ones are named;
and the model file records each with its groups' rates."""
from __future__ import annotations

import itertools
import json

import numpy as np
import pandas as pd
import pytest
from scorecard.runtime import dumps, loads, predict
from scorecard.runtime.errors import ConfigError, InfeasibleError
from scorecard.runtime.limits import GroupRate, Limit, holds
from scorecard.trainer.data.prepare import prepare
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.options.constraints import parse_limit
from scorecard.trainer.train import train

#: Generous deterministic work for the tiny problems here (CBC proves them in a few hundred
#: nodes); the time limit is only a safety net, so no verdict rests on the clock.
WORK = 100.0
FEATURES = ("a", "b", "c", "d", "e")


def clinic(n: int = 240, seed: int = 7) -> pd.DataFrame:
    """Five binary inputs and a group column whose groups differ in how the outcome depends on
    them, so the best card treats the groups' rates unequally."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({name: rng.integers(0, 2, n) for name in FEATURES})
    frame["group"] = np.where(rng.random(n) < 0.4, "B", "A")
    b = frame.group == "B"
    risk = 1.5 * frame.a + frame.b - frame.c + np.where(b, 1.2 * frame.d, 0.3 * frame.e) + rng.normal(0, 0.9, n)
    frame["y"] = (risk > np.where(b, 1.4, 0.9)).astype(int)
    return frame


def card_predictions(frame: pd.DataFrame, low: int = -2, high: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Every card with integer points in [low, high] on the five inputs and every intercept that
    matters: (points (M x 5), predictions (M x rows))."""
    x = frame[list(FEATURES)].to_numpy(dtype=np.int64)
    points = np.array(list(itertools.product(range(low, high + 1), repeat=len(FEATURES))))
    scores = points @ x.T  # M x rows
    reach = len(FEATURES) * high
    intercepts = np.arange(-reach - 1, reach + 2)
    predictions = (np.repeat(scores, len(intercepts), axis=0) + np.tile(intercepts, len(points))[:, None]) > 0
    return np.repeat(points, len(intercepts), axis=0), predictions


def group_counts(limit: Limit, frame: pd.DataFrame, predictions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each card (row of ``predictions``), each group's count of the rows the limit's rate
    counts (cards x groups), and those rows (groups)."""
    y = frame.y.to_numpy() == 1
    rows = {"fpr": ~y, "tpr": y, "positive_rate": np.ones_like(y)}[limit.rate]
    names = [limit.group] if limit.group is not None else sorted(frame[limit.column].unique())
    members = [(frame[limit.column].to_numpy() == name) & rows for name in names]
    return np.stack([predictions[:, m].sum(axis=1) for m in members], axis=1), np.array([m.sum() for m in members])


def meets(limit: Limit, counts: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Whether each card meets the limit, from its groups' rates (a second implementation of
    ``runtime.limits.holds``, in rates rather than whole numbers)."""
    rate = counts / rows
    if limit.sense == "<=":
        return (rate <= limit.bound + 1e-12).all(axis=1)
    if limit.sense == ">=":
        return (rate >= limit.bound - 1e-12).all(axis=1)
    return rate.max(axis=1) - rate.min(axis=1) <= limit.bound + 1e-12


LIMITS = ["fpr[group=B] <= 0.1", "tpr[group] >= 0.8", "tpr[group] gap <= 0.05", "fpr[group] gap <= 0.02",
          "positive_rate[group] gap <= 0.02"]


@pytest.mark.parametrize("text", LIMITS)
def test_the_card_under_a_limit_is_the_proven_optimum_of_every_card_that_meets_it(text):
    frame = clinic()
    c0 = 0.001
    limit = parse_limit(text, "--limit")
    data = prepare(frame, "y")
    config = TrainConfig(c0=c0, coef_min=-2, coef_max=2, coefficients={"group": [0]}, limits=[text],
                         time_limit=300, work_limit=WORK)
    model = train(data, config)
    assert model.training.status == "optimal" and model.training.solver == "cbc", model.training
    assert {t.input for t in model.terms} <= set(FEATURES)  # the group column stays off the card
    ours = np.array([predict(model, r) for r in frame[list(FEATURES)].to_dict("records")]).astype(bool)
    counts, rows = group_counts(limit, frame, ours[None, :])
    assert meets(limit, counts, rows)[0]
    assert holds(limit, [GroupRate(g["group"], g["count"], g["rows"]) for g in model.training.limits[0]["groups"]])
    # every card of the box: the best objective (errors / N + C0 per non-zero point) of those meeting it
    points, predictions = card_predictions(frame)
    y = frame.y.to_numpy() == 1
    objective = (predictions != y).mean(axis=1) + c0 * (points != 0).sum(axis=1)
    feasible = meets(limit, *group_counts(limit, frame, predictions))
    mine = (ours != y).mean() + c0 * len(model.terms)
    assert mine == pytest.approx(objective[feasible].min(), abs=1e-12)
    assert objective[feasible].min() > objective.min()  # the limit binds: the plain optimum breaks it
    record = model.training.limits[0]
    assert record["limit"] == limit.text and record["met"] is True
    assert [g["count"] for g in record["groups"]] == counts[0].tolist()
    assert [g["rows"] for g in record["groups"]] == rows.tolist()


def test_limits_hold_on_the_training_rows_whatever_the_budget():
    """A tiny work limit stops CBC early: whatever model comes back meets every limit."""
    frame = clinic(n=600, seed=3)
    frame["site"] = np.where(frame.index % 3 == 0, "x", "y")
    data = prepare(frame, "y")
    limits = ["tpr[group] gap <= 0.05", "fpr[site=x] <= 0.2", "positive_rate[group] >= 0.3"]
    for work in (0.01, 0.2):
        model = train(data, TrainConfig(c0=0.0005, limits=limits, time_limit=300, work_limit=work))
        pred = np.array([predict(model, r) for r in data.frame.to_dict("records")]).astype(bool)
        for text in limits:
            limit = parse_limit(text, "--limit")
            assert meets(limit, *group_counts(limit, frame, pred[None, :]))[0], text
        assert all(r["met"] for r in model.training.limits)


def test_conflicting_limits_are_named_and_the_others_are_not():
    data = prepare(clinic(), "y")
    config = TrainConfig(c0=0.001, limits=["fpr[group=A] <= 0", "tpr[group=A] >= 1", "positive_rate[group] gap <= 1"],
                         time_limit=300, work_limit=1.0)
    with pytest.raises(InfeasibleError) as err:
        train(data, config)
    message = str(err.value)
    assert "fpr[group=A] <= 0" in message and "tpr[group=A] >= 1" in message
    assert "positive_rate" not in message


@pytest.mark.parametrize("limit, fragment", [
    ("fpr[sex=female] <= 0.1", "--limit 'fpr[sex=female] <= 0.1': the data has no input column 'sex'"),
    ("fpr[groups=A] <= 0.1", "did you mean 'group'?"),
    ("fpr[group=a] <= 0.1", "column 'group' has no value 'a'; did you mean 'A'?"),
    ("fpr[a=yes] <= 0.1", "column 'a' holds numbers; 'yes' is not one"),
    ("fpr[a=2] <= 0.1", "group a = 2 has no row the rate counts"),
    ("tpr[n] gap <= 0.1", "column 'n' holds 240 values; a limit over its groups takes at most 30"),
])
def test_a_limit_the_data_cannot_have_is_refused_naming_it(limit, fragment):
    frame = clinic()
    frame["n"] = np.arange(frame.shape[0]) * 1.5
    with pytest.raises(ConfigError, match=None) as err:
        train(prepare(frame, "y"), TrainConfig(c0=0.01, limits=[limit], time_limit=60, work_limit=1.0))
    assert fragment in str(err.value)


def test_the_model_file_records_each_limit_and_reads_back():
    data = prepare(clinic(), "y")
    model = train(data, TrainConfig(c0=0.001, limits=["tpr[group] gap <= 0.1", {"rate": "fpr", "column": "group",
                                                                                "group": "B", "max": 0.2}],
                                    time_limit=300, work_limit=WORK))
    raw = json.loads(dumps(model))
    assert raw["training"]["params"]["limits"] == [{"rate": "tpr", "column": "group", "gap": 0.1},
                                                   {"rate": "fpr", "column": "group", "group": "B", "max": 0.2}]
    first, second = raw["training"]["limits"]
    assert first["limit"] == "tpr[group] gap <= 0.1" and [g["group"] for g in first["groups"]] == ["A", "B"]
    rates = [g["count"] / g["rows"] for g in first["groups"]]
    assert first["value"] == pytest.approx(max(rates) - min(rates)) and first["value"] <= 0.1
    assert second["limit"] == "fpr[group=B] <= 0.2" and second["value"] <= 0.2
    assert loads(dumps(model)) == model
    broken = json.loads(dumps(model))
    broken["training"]["limits"][0]["groups"][0]["count"] = 10 ** 6
    with pytest.raises(Exception, match=r"training.limits\[0\].groups\[0\]: count"):
        loads(json.dumps(broken))
