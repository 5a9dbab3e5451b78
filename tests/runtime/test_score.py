"""runtime.score: score = intercept + points, exact integers, missing values never a silent 0."""
from __future__ import annotations

import pytest
from scorecard.runtime import Input, Model, RowError, Target, Term, predict, score


def model(missing="null") -> Model:
    return Model(
        kind="linear", target=Target("y", 1),
        inputs=(Input("a", "numeric"), Input("c", "categorical"), Input("unused", "numeric")),
        terms=(Term("a", "linear", None, 3, "a"), Term("a", ">=", 4, 10, "a >= 4"),
               Term("c", "==", "x", -2, "c is x"), Term("c", "in", ("y", "z"), 5, "c is y or z")),
        intercept=-7, missing=missing)


@pytest.mark.parametrize("row, expected", [
    ({"a": "1", "c": "x"}, -7 + 3 - 2),
    ({"a": "4", "c": "y"}, -7 + 12 + 10 + 5),
    ({"a": "2.0", "c": "w"}, -1),
    ({"a": 2, "c": "z", "unused": ""}, -7 + 6 + 5),
])
def test_score_adds_the_points_of_each_term_that_applies(row, expected):
    value = score(model(), row)
    assert value == expected and type(value) is int


def test_prediction_is_positive_only_above_zero():
    m = model()
    assert score(m, {"a": "1", "c": "y"}) == 1 and predict(m, {"a": "1", "c": "y"}) == 1
    assert score(m, {"a": "3", "c": "x"}) == 0 and predict(m, {"a": "3", "c": "x"}) == 0


@pytest.mark.parametrize("missing_value", [None, "", "  ", float("nan")])
def test_missing_used_input_gives_no_score_under_null(missing_value):
    assert score(model(), {"a": missing_value, "c": "x"}) is None
    assert predict(model(), {"c": "x"}) is None


def test_imputed_value_replaces_a_missing_one():
    m = model(missing={"impute": {"a": 4}})
    assert score(m, {"a": "", "c": "x"}) == score(m, {"a": "4", "c": "x"}) == -7 + 12 + 10 - 2


def test_float_points_stay_exact_in_term_order():
    m = Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"), Input("b", "numeric")),
              terms=(Term("a", "linear", None, 0.1, "a"), Term("b", "linear", None, 0.2, "b")), intercept=0.3)
    assert score(m, {"a": "1", "b": "1"}) == 0.3 + 0.1 + 0.2


def test_text_in_a_numeric_input_is_a_row_error():
    with pytest.raises(RowError, match="column 'a': 'abc' is not a number"):
        score(model(), {"a": "abc", "c": "x"})
