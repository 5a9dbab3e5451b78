"""The names scoring adds (score, prediction, probability) are refused as data columns at
training time, in one line naming the column, so no trained model can clash at scoring."""
from __future__ import annotations

import pytest
from scorecard.runtime.table import RESERVED

ROWS = [(1, 1, 0), (0, 2, 1), (1, 3, 0), (0, 4, 1), (1, 5, 0), (0, 6, 1)]


def _csv(feature: str) -> str:
    return "y,a," + feature + "\n" + "".join(f"{y},{a},{b}\n" for y, a, b in ROWS)


def assert_refused_naming(run, name: str, out) -> None:
    assert run.code == 2, run.err
    assert run.err.startswith("error: ") and run.err.count("\n") == 1, run.err
    assert repr(name) in run.err and "rename" in run.err and "Traceback" not in run.err
    assert not out.exists()


def test_reserved_is_the_three_added_columns():
    assert RESERVED == ("score", "prediction", "probability")


@pytest.mark.parametrize("name", RESERVED)
def test_train_refuses_a_reserved_feature_name(cli, write, tmp_path, name):
    data = write("d.csv", _csv(name))
    out = tmp_path / "m.json"
    assert_refused_naming(cli("train", data, "--target", "y", "--time-limit", "120", "-o", out), name, out)


def test_logistic_model_refuses_a_probability_column_at_train(cli, write, tmp_path):
    """A logistic model carries a score-to-risk map, so predict would add 'probability':
    the clash is caught when training, not when scoring."""
    data = write("d.csv", _csv("probability"))
    out = tmp_path / "m.json"
    run = cli("train", data, "--target", "y", "--loss", "logistic", "--time-limit", "120", "-o", out)
    assert_refused_naming(run, "probability", out)
