"""The ``"unmet"`` missing policy on the training side: which columns the designs offer for
an input with missing cells, and that the estimator trains on NaN."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scorecard.trainer.data.families import design_for, unmet_notes
from scorecard.trainer.data.prepare import prepare
from scorecard.trainer.estimator import SLIMClassifier
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.problem.constrained import constrained_problem


def frame() -> pd.DataFrame:
    """grade: whole numbers 1-5 (linear by the whole-number rule), bp: numeric, flag: binary,
    color: text; every input but bp has blanks."""
    return pd.DataFrame({
        "grade": [1, 2, np.nan, 4, 5, 3, 2, np.nan],
        "bp": [110.0, 150, 130, 170, 120, 160, 140, 180],
        "flag": [0, 1, np.nan, 1, 0, 1, 0, 0],
        "color": ["red", None, "blue", "red", "blue", "red", None, "blue"],
        "y": [0, 1, 1, 1, 0, 1, 0, 1],
    })


def ops(design, name):
    return [c.op for c in design.columns if c.input == name]


def test_unmet_offers_unknown_where_cells_are_missing_and_never_a_linear_column_there():
    data = prepare(frame(), "y", positive=1)
    assert data.policy == "unmet" and data.missing_counts == {"grade": 2, "flag": 1, "color": 2}
    design = design_for(data, TrainConfig(min_level_rows=1))
    assert ops(design, "grade")[-1] == "missing" and set(ops(design, "grade")[:-1]) == {">="}
    assert ops(design, "flag") == ["==", "missing"]
    assert ops(design, "color") == ["==", "==", "missing"]
    assert "missing" not in ops(design, "bp")
    assert not np.isnan(design.X).any()
    unknown = next(j for j, c in enumerate(design.columns) if c.op == "missing" and c.input == "grade")
    assert design.X[:, unknown].tolist() == [0, 0, 1, 0, 0, 0, 0, 1]
    assert unmet_notes(data, TrainConfig()) == [
        "column 'grade' enters as cut-off conditions, not linear: it has 2 missing values and points times a "
        "value cannot score a missing one (--missing impute or drop keeps it linear)"]
    assert unmet_notes(data, TrainConfig(numeric_by_input={"grade": "cuts"})) == []


@pytest.mark.parametrize("model", ["mofn", "tilm"])
def test_rule_designs_offer_unknown_too(model):
    design = design_for(prepare(frame(), "y", positive=1), TrainConfig(model=model))
    assert [c.label for c in design.columns if c.op == "missing"] == ["grade unknown", "flag unknown",
                                                                      "color unknown"]


def test_impute_and_drop_designs_are_unchanged():
    for policy in ("impute", "drop"):
        design = design_for(prepare(frame(), "y", positive=1, missing=policy), TrainConfig(missing=policy))
        assert "missing" not in {c.op for c in design.columns}
        assert ops(design, "grade") == ["linear"] and ops(design, "flag") == ["linear"]


def test_a_sign_orders_the_cut_offs_not_the_unknown_condition():
    data = prepare(frame(), "y", positive=1)
    config = TrainConfig(c0=0.01, signs={"grade": "+"})
    design = design_for(data, config)
    problem = constrained_problem(design, data, config)
    for j, col in enumerate(design.columns):
        if col.input == "grade":
            assert problem.coef_lo[j] == (-10 if col.op == "missing" else 0)


def test_the_estimator_trains_on_nan_under_unmet_and_refuses_it_under_null():
    X = frame().drop(columns="y")
    y = frame()["y"]
    est = SLIMClassifier(time_limit=60).fit(X, y)
    assert est.model_.missing == "unmet"
    assert not np.isnan(est.decision_function(X)).any()
    with pytest.raises(ValueError, match="NaN"):
        SLIMClassifier(missing="null").fit(X, y)
