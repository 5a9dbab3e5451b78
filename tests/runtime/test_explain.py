"""Reason codes (runtime/explain.py): what an adverse-action notice or a clinical alert shows
for a row: the conditions that added the most points, worded as on the card."""
from __future__ import annotations

import io

import pytest
from scorecard.runtime import Input, Model, Target, Term, UsageError, explain, score, score_csv


def _model(missing="null") -> Model:
    return Model(
        kind="linear", target=Target("default", "yes"),
        inputs=(Input("income", "numeric"), Input("records", "categorical"), Input("age", "numeric"),
                Input("children", "numeric")),
        terms=(Term("income", "<", 1000, 3, "income below 1000"),
               Term("records", "==", "yes", 3, ""),
               Term("age", ">=", 60, -2, "age 60 or more"),
               Term("children", "linear", None, 1, "1 per child"),
               Term("age", "<", 25, 2, "")),
        intercept=-4, missing=missing)


def reasons(model, row, k=5):
    found = explain(model, row, k)
    return None if found is None else [(r.text, r.points) for r in found]


def test_the_most_points_first_and_equal_points_in_card_order():
    row = {"income": 500, "records": "yes", "age": 20, "children": 3}
    assert reasons(_model(), row) == [("income below 1000", 3), ("records = yes", 3), ("children", 3),
                                      ("age < 25", 2)]
    assert reasons(_model(), row, k=2) == [("income below 1000", 3), ("records = yes", 3)]


def test_points_taken_away_or_none_added_are_never_a_reason():
    row = {"income": 5000, "records": "no", "age": 70, "children": 0}
    assert score(_model(), row) < 0
    assert reasons(_model(), row) == []


def test_a_linear_term_gives_its_points_times_the_value_and_never_a_negative_one():
    assert reasons(_model(), {"income": 5000, "records": "no", "age": 40, "children": 2}) == [("children", 2)]
    assert reasons(_model(), {"income": 5000, "records": "no", "age": 40, "children": -2}) == []


def test_a_row_without_a_score_has_no_reasons_and_unknown_rows_are_reasons_under_unmet():
    assert reasons(_model(), {"income": "", "records": "yes", "age": 30, "children": 1}) is None
    unmet = _model("unmet")
    unmet = Model(kind=unmet.kind, target=unmet.target, inputs=unmet.inputs,
                  terms=unmet.terms + (Term("income", "missing", None, 4, ""),), intercept=-4, missing="unmet")
    assert reasons(unmet, {"income": "", "records": "yes", "age": 30, "children": 1}) == [
        ("income unknown", 4), ("records = yes", 3), ("children", 1)]
    assert reasons(unmet, {"income": 100, "records": "yes", "age": 30, "children": None}) is None  # linear input


def test_an_imputed_value_gives_the_reasons_it_scores():
    imputing = _model({"impute": {"income": 800}})
    assert reasons(imputing, {"income": " ", "records": "no", "age": 30, "children": 0}) == [("income below 1000", 3)]


@pytest.mark.parametrize("k", [0, -1, 1.5, True, "2"])
def test_k_must_be_a_whole_number_of_at_least_one(k):
    with pytest.raises(UsageError, match="at least 1"):
        explain(_model(), {}, k)


def test_the_scored_csv_gets_k_reason_and_points_columns_empty_where_there_are_fewer():
    data = io.StringIO("income,records,age,children\n500,yes,20,3\n5000,no,40,1\n,no,30,0\n")
    out = io.StringIO()
    result = score_csv(_model(), data, out, explain=2)
    assert result.unscored == 1
    lines = [line.split(",") for line in out.getvalue().splitlines()]
    assert lines[0][-4:] == ["reason_1", "reason_2", "points_1", "points_2"]
    assert [line[-4:] for line in lines[1:]] == [["income below 1000", "records = yes", "3", "3"],
                                                  ["children", "", "1", ""],
                                                  ["", "", "", ""]]
    assert [line[:4] for line in lines[1:]] == [["500", "yes", "20", "3"], ["5000", "no", "40", "1"], ["", "no", "30", "0"]]
