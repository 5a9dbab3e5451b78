"""runtime.score: score = the points total (the intercept only sets the threshold), exact integers,
missing values never a silent 0."""
from __future__ import annotations

from dataclasses import replace

import pytest
from scorecard.runtime import Input, Model, ModelError, RowError, Target, Term, predict, score


def model(missing="null") -> Model:
    return Model(
        kind="linear", target=Target("y", 1),
        inputs=(Input("a", "numeric"), Input("c", "categorical"), Input("unused", "numeric")),
        terms=(Term("a", "linear", None, 3, "a"), Term("a", ">=", 4, 10, "a >= 4"),
               Term("c", "==", "x", -2, "c is x"), Term("c", "in", ("y", "z"), 5, "c is y or z")),
        intercept=-7, missing=missing)


@pytest.mark.parametrize("row, expected", [
    ({"a": "1", "c": "x"}, 3 - 2),
    ({"a": "4", "c": "y"}, 12 + 10 + 5),
    ({"a": "2.0", "c": "w"}, 6),
    ({"a": 2, "c": "z", "unused": ""}, 6 + 5),
])
def test_score_adds_the_points_of_each_term_that_applies(row, expected):
    value = score(model(), row)
    assert value == expected and type(value) is int


def test_prediction_is_positive_only_above_the_threshold():
    m = model()
    assert m.threshold == 7
    assert score(m, {"a": "1", "c": "y"}) == 8 and predict(m, {"a": "1", "c": "y"}) == 1
    assert score(m, {"a": "3", "c": "x"}) == 7 and predict(m, {"a": "3", "c": "x"}) == 0


@pytest.mark.parametrize("missing_value", [None, "", "  ", float("nan")])
def test_missing_used_input_gives_no_score_under_null(missing_value):
    assert score(model(), {"a": missing_value, "c": "x"}) is None
    assert predict(model(), {"c": "x"}) is None


def test_imputed_value_replaces_a_missing_one():
    m = model(missing={"impute": {"a": 4}})
    assert score(m, {"a": "", "c": "x"}) == score(m, {"a": "4", "c": "x"}) == 12 + 10 - 2


def test_float_points_stay_exact_in_term_order():
    m = Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"), Input("b", "numeric")),
              terms=(Term("a", "linear", None, 0.1, "a"), Term("b", "linear", None, 0.2, "b")), intercept=0.3)
    assert score(m, {"a": "1", "b": "1"}) == 0 + 0.1 + 0.2


def test_text_in_a_numeric_input_is_a_row_error():
    with pytest.raises(RowError, match="column 'a': 'abc' is not a number"):
        score(model(), {"a": "abc", "c": "x"})


def unmet_model() -> Model:
    """Policy "unmet": thresholds, a category, an ``in`` set and two "unknown" rows."""
    return Model(
        kind="linear", target=Target("y", 1),
        inputs=(Input("glu", "numeric"), Input("c", "categorical"), Input("b", "binary")),
        terms=(Term("glu", ">=", 140, 4, ""), Term("glu", "<", 90, -2, ""), Term("glu", "missing", None, 1, ""),
               Term("c", "==", "x", 3, ""), Term("c", "in", ("y", "z"), -1, ""), Term("c", "missing", None, 2, ""),
               Term("b", "==", 1, 5, "")),
        intercept=-3, missing="unmet")


BLANKS = [None, "", "  ", "\t\n", float("nan")]


@pytest.mark.parametrize("blank", BLANKS)
def test_unmet_a_missing_value_meets_only_its_unknown_row(blank):
    m = unmet_model()
    # glu unknown: neither >= 140 nor < 90, but "glu unknown" (+1)
    assert score(m, {"glu": blank, "c": "x", "b": 0}) == 1 + 3
    # c unknown: not x, not in {y, z}, but "c unknown" (+2)
    assert score(m, {"glu": 150, "c": blank, "b": 1}) == 4 + 2 + 5
    # b unknown: "b == 1" is not met; no unknown row for b
    assert score(m, {"glu": 100, "c": "w", "b": blank}) == 0


def test_unmet_absent_keys_are_unknown_and_every_missing_row_still_has_a_score():
    m = unmet_model()
    assert score(m, {}) == 1 + 2 and predict(m, {}) == 0
    assert type(score(m, {})) is int
    # a known value never meets an "unknown" row
    assert score(m, {"glu": "80", "c": "y", "b": "1"}) == -2 - 1 + 5


@pytest.mark.parametrize("blank", BLANKS)
def test_unmet_a_linear_input_that_is_missing_gives_no_score(blank):
    m = Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"), Input("c", "categorical")),
              terms=(Term("a", "linear", None, 2, "a"), Term("a", ">=", 4, 10, "a >= 4"), Term("c", "==", "x", 1, "")),
              intercept=-1, missing="unmet")
    assert score(m, {"a": blank, "c": "x"}) is None and predict(m, {"a": blank, "c": "x"}) is None
    assert score(m, {"a": 5, "c": blank}) == 10 + 10  # c is only read by a condition


@pytest.mark.parametrize("missing", ["null", {"impute": {"a": 1}}])
def test_an_unknown_row_needs_the_unmet_policy(missing):
    with pytest.raises(ModelError, match=r"terms\[1\]\.op: 'missing' .* needs the model's missing policy \"unmet\""):
        Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"),),
              terms=(Term("a", ">=", 1, 1, ""), Term("a", "missing", None, 2, "")), intercept=0, missing=missing)


def test_an_unknown_row_has_no_value():
    with pytest.raises(ModelError, match=r"terms\[0\]\.value: must be null for a 'missing' term"):
        Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"),),
              terms=(Term("a", "missing", 0, 2, ""),), intercept=0, missing="unmet")


def test_whole_scores_only_when_no_row_can_make_a_fraction():
    """A card of int points on conditions always scores a whole number; a linear term may read
    0.95 from a binary column (its score then holds a fraction), and a float point is a double."""
    binary = (Input("smoker", "binary"), Input("age", "numeric"))
    card = Model(kind="linear", target=Target("y", 1), inputs=binary,
                 terms=(Term("smoker", "==", 1, 2, "smoker"), Term("age", ">=", 60, 3, "age >= 60")), intercept=-2)
    assert card.whole_scores
    linear = replace(card, terms=(Term("smoker", "linear", None, 2, "smoker"),) + card.terms[1:])
    assert not linear.whole_scores and score(linear, {"smoker": 0.95, "age": 70}) == 2 * 0.95 + 3
    assert not replace(card, terms=(replace(card.terms[0], points=2.5),) + card.terms[1:]).whole_scores
