"""The constraint language: written once, obeyed exactly by every model trained with it."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import tomllib
from scorecard.runtime import dumps, predict
from scorecard.runtime.errors import ConfigError, InfeasibleError
from scorecard.trainer.data.prepare import prepare
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.options.constraints import (
    PRESETS,
    AtMostOne,
    Requires,
    parse_coef_set,
)
from scorecard.trainer.train import train
from testdata import SHARED

CLINICIAN_TOML = """
max_features = 10
max_fpr = 0.20
[signs]
hypertension = "+"
[coefficients]
age = { min = 0, max = 5 }
income = "two_significant_digits"
[[at_most_one]]
of = ["male", "female"]
[[requires]]
if_any = ["heart_attack", "hypertension"]
then = "stroke"
[[hierarchy]]
leaf = "diabetes_type2"
ancestors = ["diabetes"]
"""


def clinic(n: int = 160, seed: int = 0) -> pd.DataFrame:
    """Binary risk factors; the outcome leans on hypertension, stroke, age and sex."""
    rng = np.random.default_rng(seed)
    male = rng.integers(0, 2, n)
    frame = pd.DataFrame({
        "age": rng.integers(0, 4, n), "male": male, "female": 1 - male,
        "hypertension": rng.integers(0, 2, n), "stroke": rng.integers(0, 2, n),
        "heart_attack": rng.integers(0, 2, n), "smoker": rng.integers(0, 2, n),
    })
    risk = (2 * frame.hypertension + 2 * frame.heart_attack + frame.age - 2 * frame.male
            + frame.smoker + rng.normal(0, 1.2, n))
    frame["y"] = (risk > 2).astype(int)
    return frame


def rates(model, data) -> dict:
    pred = np.array([predict(model, r) for r in data.frame.to_dict("records")])
    pos = data.y > 0
    return {"fpr": float(pred[~pos].mean()), "tpr": float(pred[pos].mean()), "positive": float(pred.mean())}


def used(model) -> set[str]:
    return {t.input for t in model.terms}


# ---------------------------------------------------------------- the language


def test_a_clinician_readable_toml_becomes_checked_constraints():
    config = TrainConfig(**tomllib.loads(CLINICIAN_TOML))
    assert config.at_most_one == (AtMostOne(("male", "female")),)
    assert config.requires == (Requires(("heart_attack", "hypertension"), ("stroke",)),)
    assert config.coefficients["age"].values == (0, 1, 2, 3, 4, 5)
    assert len(config.coefficients["income"].values) == len(PRESETS["two_significant_digits"])
    again = TrainConfig(**json.loads(json.dumps(config.to_params())))  # the model file's params
    assert again == config


@pytest.mark.parametrize("spec,values", [
    ("-2..2", (-2, -1, 0, 1, 2)), ("0,1,2,5", (0, 1, 2, 5)), ([5, 1, 1], (1, 5)),
    ({"preset": "one_significant_digit", "min": -30, "max": 30}, (-30, -20, -10, -9, -8, -7, -6, -5, -4, -3, -2,
                                                                 -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 30)),
])
def test_coefficient_sets_are_written_as_ranges_lists_or_presets(spec, values):
    assert parse_coef_set(spec, "coefficients.x").values == values


def test_two_significant_digits_is_the_papers_set():
    values = PRESETS["two_significant_digits"]
    assert 9900 in values and 1200 in values and 1230 not in values and 9910 not in values
    assert max(values) == 9900 and min(values) == -9900


@pytest.mark.parametrize("options,fragment", [
    ({"coefficients": {"age": "two_sig_digits"}}, "two_significant_digits"),
    ({"at_most_one": [{"of": ["male"]}]}, "two or more"),
    ({"requires": [{"if": ["a"], "then": "b"}]}, "if_any"),
    ({"model": "pilm"}, "needs at least one tier"),
    ({"model": "pilm", "tiers": [{"values": [1, 2], "c0": 0.05}, {"values": [5], "c0": 0.01}]}, "larger than"),
    ({"cuts": {"age": ["sixty"]}}, "cuts.age"),
])
def test_a_bad_constraint_is_refused_saying_how_to_fix_it(options, fragment):
    with pytest.raises(ConfigError, match=fragment):
        TrainConfig(**options)


def test_an_unknown_column_is_named_with_the_closest_one():
    data = prepare(clinic(), "y")
    with pytest.raises(ConfigError, match=r"'hypertenson'.*did you mean 'hypertension'"):
        train(data, TrainConfig(signs={"hypertenson": "+"}))  # refused before any solve
    with pytest.raises(ConfigError, match=r"requires\[0\].then.*'strok'.*'stroke'"):
        train(data, TrainConfig(requires=[{"if_any": ["smoker"], "then": "strok"}]))


# ---------------------------------------------------------------- obeyed exactly

# The constrained solves below go to CBC, stopped by a work limit (its node limit: the same
# model on any machine, however busy; 120 s time limits are only a safety net). What they
# check holds at any budget: every requirement is met by whatever model the solver returns.
WORK = 0.2


def test_the_practitioners_requirements_hold_on_the_training_data():
    data = prepare(clinic(), "y")
    config = TrainConfig(c0=0.002, w_pos=0.9, max_features=3, max_fpr=0.2, signs={"hypertension": "+"},
                         coef_min=-5, coef_max=5, at_most_one=[{"of": ["male", "female"]}],
                         requires=[{"if_any": ["heart_attack"], "then": "stroke"}], time_limit=120)
    model = train(data, config.with_options(work_limit=WORK))
    assert rates(model, data)["fpr"] <= 0.2
    assert len(model.terms) <= 3
    assert all(t.points >= 0 for t in model.terms if t.input == "hypertension")
    assert not {"male", "female"} <= used(model)
    assert "heart_attack" not in used(model) or "stroke" in used(model)
    assert json.loads(dumps(model))["training"]["params"]["max_fpr"] == 0.2


def test_rate_limits_and_budget_hold_even_when_the_time_limit_stops_the_solver():
    data = prepare(clinic(n=400, seed=2), "y")
    for limits in ({"min_tpr": 0.9}, {"max_positive_rate": 0.25}, {"max_fpr": 0.1, "min_tpr": 0.5}):
        # a node limit stops the solver at the same point on any machine (the time limit is a safety net)
        model = train(data, TrainConfig(c0=0.001, time_limit=60, **limits, work_limit=0.2))
        got = rates(model, data)
        assert got["tpr"] >= limits.get("min_tpr", 0)
        assert got["positive"] <= limits.get("max_positive_rate", 1)
        assert got["fpr"] <= limits.get("max_fpr", 1)


def test_coefficient_and_intercept_sets_are_respected():
    data = prepare(clinic(), "y")
    model = train(data, TrainConfig(c0=0.001, coefficients={"age": [0, 3], "hypertension": "0,5,10"},
                                    intercept_set=[-12, -6, 0], time_limit=120, work_limit=WORK))
    points = {t.input: t.points for t in model.terms}
    assert points.get("age", 0) in (0, 3) and points.get("hypertension", 0) in (0, 5, 10)
    assert model.intercept in (-12, -6, 0)


def test_min_features_and_a_hierarchy_shape_the_model():
    data = prepare(clinic(), "y")
    model = train(data, TrainConfig(c0=0.05, min_features=2, hierarchy=[{"leaf": "heart_attack",
                                                                        "ancestors": ["hypertension"]}],
                                    time_limit=120, work_limit=WORK))
    assert len(model.terms) >= 2
    assert "heart_attack" not in used(model) or "hypertension" in used(model)


def test_a_categorical_inputs_constraint_covers_all_its_levels():
    frame = clinic()
    frame["region"] = np.where(frame.male == 1, "north", np.where(frame.smoker == 1, "south", "east"))
    data = prepare(frame.drop(columns=["male", "female"]), "y")
    model = train(data, TrainConfig(c0=0.001, signs={"region": "-"},
                                    at_most_one=[{"of": ["region", "smoker"]}], time_limit=120, work_limit=WORK))
    assert all(t.points <= 0 for t in model.terms if t.input == "region")
    assert not {"region", "smoker"} <= used(model)


def test_an_imputed_column_costs_the_rows_it_made_up():
    rng = np.random.default_rng(4)
    n = 200
    good = rng.integers(0, 2, n)
    frame = pd.DataFrame({"good": good.astype(float), "fair": np.where(rng.random(n) < 0.8, good, 1 - good)})
    frame["y"] = good
    frame.loc[: n // 2, "good"] = np.nan  # half of the best column is made up
    data = prepare(frame, "y", missing="impute")
    # exhaustive search proves both optima at once: 120 s is only a safety net
    with_penalty = train(data, TrainConfig(c0=0.01, time_limit=120))
    without = train(data, TrainConfig(c0=0.01, impute_penalty=False, time_limit=120))
    assert "good" in used(without) and "good" not in used(with_penalty)


@pytest.mark.parametrize("work_limit", [None, 1.0])
def test_conflicting_constraints_are_named(work_limit):
    data = prepare(clinic(), "y")
    config = TrainConfig(c0=0.01, min_features=2, max_fpr=0.5, at_most_one=[{"of": ["male", "stroke"]}],
                         requires=[{"if_any": ["smoker", "age", "hypertension", "heart_attack", "female"],
                                    "then": ["male", "stroke"]}], time_limit=60, work_limit=work_limit)
    # The conflict search gets what the time limit leaves, or its re-solves 100 nodes each under
    # --work-limit 1; 60 s is a safety net (it takes ~1 s).
    with pytest.raises(InfeasibleError) as err:
        train(data, config)
    message = str(err.value)
    assert "min_features = 2" in message and "at_most_one of ['male', 'stroke']" in message
    assert "requires" in message and "max_fpr" not in message


def test_every_toml_example_of_the_constraints_guide_is_a_valid_config():
    import re

    from testdata import ROOT

    guide = (ROOT / "docs" / "constraints.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", guide, re.S)
    assert len(blocks) >= 3
    for block in blocks:
        TrainConfig(**tomllib.loads(block))


def test_a_model_cut_short_by_the_time_limit_still_meets_every_requirement():
    data = prepare(pd.read_csv(SHARED / "mammo.csv"), "Malignant")
    model = train(data, TrainConfig(c0=1e-4, w_pos=0.998, max_fpr=0.2, max_features=5, coef_min=-5, coef_max=5,
                                    intercept_min=-20, intercept_max=20, signs={"SpiculatedMargin": "+"},
                                    time_limit=120, work_limit=0.2))  # a node limit: the same stop on any machine
    assert model.training.status == "work_limit"
    assert rates(model, data)["fpr"] <= 0.2 and len(model.terms) <= 5
    assert all(t.points >= 0 for t in model.terms if t.input == "SpiculatedMargin")
    assert model.terms  # the warm start is reweighted towards the limit, not just emptied
