"""Binary rules keep their raw meaning: what the solver saw is what the runtime scores."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scorecard.runtime import Model, Target, score
from scorecard.trainer.data.binarize import binarize, nice_cut, thresholds
from scorecard.trainer.data.prepare import prepare


def mixed() -> pd.DataFrame:
    rng = np.random.default_rng(1)
    n = 60
    return pd.DataFrame({
        "age": rng.integers(20, 90, n),
        "bmi": np.round(rng.normal(27, 4, n), 1),
        "smoker": rng.integers(0, 2, n),
        "odor": rng.choice(["none", "foul", "almond"], n),
        "y": rng.integers(0, 2, n),
    })


@pytest.mark.parametrize("low,high,cut", [(59, 60, 60), (59.2, 60.7, 60), (1.37, 1.52, 1.4),
                                          (0.0012, 0.0019, 0.0013), (-0.5, 0.5, 0), (99, 101, 100)])
def test_cuts_are_the_roundest_number_between_two_values(low, high, cut):
    assert nice_cut(low, high) == cut


def test_few_distinct_values_get_every_cut_and_many_get_round_quantiles():
    assert thresholds(np.arange(1.0, 11.0)) == (2, 3, 4, 5, 6, 7, 8, 9, 10)
    cuts = thresholds(np.random.default_rng(0).normal(50, 10, 500), max_thresholds=8)
    assert 1 <= len(cuts) <= 8 and list(cuts) == sorted(cuts)
    assert all(float(c).is_integer() for c in cuts)  # "age >= 47", not ">= 46.83"


def test_every_rule_scores_raw_rows_as_it_did_in_training():
    data = prepare(mixed(), "y")
    design = binarize(data, max_thresholds=5)
    rows = data.frame.to_dict("records")
    for j, column in enumerate(design.columns):
        model = Model(kind="m_of_n", target=Target("y", 1), inputs=data.inputs,
                      terms=(column.term(1),), intercept=0)
        assert [score(model, r) for r in rows] == design.X[:, j].tolist(), column.label


def test_rules_read_as_conditions_on_the_raw_columns():
    data = prepare(mixed(), "y")
    labels = {c.label: c for c in binarize(data, cuts={"age": [60]}).columns}
    assert labels["age >= 60"].op == ">=" and labels["age < 60"].op == "<"
    assert labels["smoker"].op == "==" and labels["not smoker"].value == 0
    negated = labels["odor != none"]
    assert negated.op == "in" and set(negated.value) == {"almond", "foul"}


def test_negations_can_be_left_out_and_useless_rules_are():
    frame = mixed()
    frame["constant"] = 5
    data = prepare(frame, "y")
    design = binarize(data, cuts={"age": [60.2, 60.5]}, negations=False)
    labels = [c.label for c in design.columns]
    assert not any(" < " in lab or "!=" in lab or lab.startswith("not ") for lab in labels)
    assert not any(lab.startswith("constant") for lab in labels)  # holds on every row
    assert "age >= 60.2" in labels and "age >= 60.5" not in labels  # the same rows on integer ages
