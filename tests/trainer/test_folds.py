"""trainer/folds.py: the errors and out-of-fold margins of cross-validation are those the
runtime gives row by row (``runtime.predict`` and ``runtime.score``), computed for all rows at
once: on models of every kind (linear terms, categories, M-of-N, imputed, "unmet", "null")
over real data, with rows missing values (no score under "null": predicted negative), grouped
rows' counts and class weights."""
from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from scorecard.runtime import predict, score
from scorecard.trainer.data.prepare import prepare, read_table
from scorecard.trainer.folds import error_rate, margins

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "exporters"))
from code_models import CASES, DATASETS  # noqa: E402


def _prepared(case: str, keep_missing: bool):
    make, name = CASES[case]
    model = make()
    missing = "unmet" if model.unmet or keep_missing else "impute" if model.imputed else "drop"
    return model, prepare(read_table(str(DATASETS / name)), model.target.name, model.target.positive, missing)


@pytest.mark.parametrize("keep_missing", [False, True], ids=["as trained", "missing cells kept"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_errors_and_margins_are_the_runtimes_row_by_row(case, keep_missing):
    model, data = _prepared(case, keep_missing)
    rows = data.frame.to_dict("records")
    scores = [score(model, row) for row in rows]
    wrong = np.array([(predict(model, row) == 1) != (label == 1) for row, label in zip(rows, data.y)])
    positive = data.y == 1
    for w_pos in (0.5, 0.8):
        weight = np.where(positive, w_pos, 1 - w_pos)
        assert error_rate(model, data, w_pos) == pytest.approx(weight[wrong].sum() / weight.sum(), abs=1e-15)
    expected = np.array([math.nan if s is None else s - model.threshold for s in scores])
    assert np.array_equal(margins(model, data), expected, equal_nan=True)
    counts = np.arange(len(rows)) % 7 + 1  # grouped rows: each stands for its count
    assert error_rate(model, replace(data, counts=counts)) == pytest.approx(counts[wrong].sum() / counts.sum(), abs=1e-15)


def test_rows_without_a_score_count_as_predicted_negative():
    model, data = _prepared("mushroom", keep_missing=True)  # "null": a row missing a used value has no score
    unscored = np.isnan(margins(model, data))
    assert 0 < unscored.sum() < len(unscored)
    all_positive, all_negative = (replace(data, y=np.full(len(data.y), v, dtype=np.int8)) for v in (1, -1))
    predicted = ~unscored & (margins(model, data) > 0)
    assert error_rate(model, all_positive) == pytest.approx(1 - predicted.mean())
    assert error_rate(model, all_negative) == pytest.approx(predicted.mean())
