"""The numbers of ``scorecard report`` and ``monitor`` from a model and CSV rows: scores from
the runtime, the outcome read like training reads it, bins from the model's own conditions,
and every refusal naming the file and line."""
from __future__ import annotations

import io
import math

import pytest
from scorecard.runtime import DataError, Input, Model, RowError, Target, Term, risk, score
from scorecard.runtime.stats import psi
from scorecard.runtime.table import csv_records
from scorecard.runtime.validation import KNOWN, MISSING, NO_SCORE, OTHER, drift, input_bins, read_sample, score_groups, validate

MODEL = Model(
    kind="linear", target=Target("sick", "yes"),
    inputs=(Input("glu", "numeric"), Input("bmi", "categorical", ("low", "mid", "high")), Input("age", "numeric")),
    terms=(Term("glu", ">=", 140, 3, ""), Term("glu", "<", 90, -1, ""), Term("glu", "missing", None, 1, ""),
           Term("bmi", "in", ("high", "mid"), 2, ""), Term("age", "linear", None, 1, "")),
    intercept=-4, missing="unmet",
    probability={"method": "table", "table": [{"score": -4, "risk": 0.1}, {"score": 0, "risk": 0.4},
                                              {"score": 2, "risk": 0.8}]})


def sample(text: str, outcome: str = "optional", source: str = "data.csv"):
    header, records = csv_records(io.StringIO(text), source)
    return read_sample(MODEL, header, ((f"line {line}", cells) for line, cells in records), source, outcome)


DATA = """glu,bmi,age,sick
150,high,1,yes
80,low,0,no
,mid,2,yes
120,low,0,no
95,,1,no
140,mid,0, yes
100,high,,no
"""


def test_sample_scores_with_the_runtime_and_reads_the_outcome():
    s = sample(DATA)
    rows = [dict(zip(["glu", "bmi", "age"], line.split(",")[:3])) for line in DATA.splitlines()[1:]]
    assert s.scores == [score(MODEL, r) for r in rows]
    assert s.scores[-1] is None  # age (a linear term) is missing
    assert s.risks == [risk(MODEL, v) for v in s.scores]
    assert s.labels == [1, 0, 1, 0, 0, 1, 0]  # " yes" is yes, as training reads it
    assert (s.missing("glu"), s.missing("bmi"), s.missing("age")) == (1, 1, 1)


def test_validation_counts_only_rows_with_a_score():
    v = validate(MODEL, sample(DATA))
    assert (v.rows, v.scored, v.unscored) == (7, 6, 1)
    assert v.outcome.value == pytest.approx(3 / 7)
    m = v.confusion
    assert m.tp + m.fp + m.fn + m.tn == 6
    assert sum(g.positives + g.negatives for g in v.groups) == 6


@pytest.mark.parametrize("text, error, words", [
    ("glu,bmi,age\n150,high,1\n", DataError, "data.csv: no column 'sick'"),
    ("glu,bmi,sick\n150,high,yes\n", RowError, "data.csv: the model needs column 'age'"),
    ("glu,bmi,age,sick\n150,high,1,yes\n80,low,0,\n", DataError, "data.csv: line 3: the outcome 'sick' is empty"),
    ("glu,bmi,age,sick\n150,high,1,yes\n80,low,0,no\n80,low,0,maybe\n", DataError, "line 4: the outcome 'sick' holds a third value"),
    ("glu,bmi,age,sick\n150,high,1,yes\nhigh,low,0,no\n", RowError, "data.csv: line 3: column 'glu': 'high' is not a number"),
    ("glu,bmi,age,sick\n", DataError, "data.csv: the file has no rows"),
])
def test_unusable_data_is_refused_naming_file_and_line(text, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(")):
        sample(text, outcome="required")


def test_a_bad_value_the_score_never_reached_is_still_refused():
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"), Input("b", "numeric")),
                  terms=(Term("a", ">=", 1, 1, ""), Term("b", ">=", 1, 1, "")), intercept=0, missing="null")
    header, records = csv_records(io.StringIO("a,b,y\n,abc,1\n"), "d.csv")
    with pytest.raises(RowError, match="d.csv: line 2: column 'b'"):
        read_sample(model, header, ((f"line {line}", cells) for line, cells in records), "d.csv")


def test_report_needs_both_classes_among_scored_rows():
    with pytest.raises(DataError, match="one class"):
        validate(MODEL, sample("glu,bmi,age,sick\n150,high,1,yes\n"))


def test_bins_follow_the_models_own_conditions():
    glu = input_bins(MODEL, MODEL.input("glu"), [])
    assert glu.labels == ("< 90", "90 to < 140", "\u2265 140", MISSING)
    assert [glu.index(v) for v in ("89.9", "90", "139", "140", "1e6")] == [0, 1, 1, 2, 2]
    bmi = input_bins(MODEL, MODEL.input("bmi"), [])
    assert bmi.labels == ("high", "mid", OTHER, MISSING)
    assert [bmi.index(v) for v in ("mid", "high", "low", "HIGH")] == [1, 0, 2, 2]


def test_an_input_read_only_as_points_times_value_is_binned_at_the_baselines_deciles():
    values = [str(v) for v in range(100)]
    age = input_bins(MODEL, MODEL.input("age"), values)
    assert len(age.labels) == 11  # ten groups and missing
    counts = [0] * 10
    for v in values:
        counts[age.index(v)] += 1
    assert counts == [10] * 10


def test_score_groups_keep_each_value_up_to_30_then_make_ten_runs():
    assert [g.label for g in score_groups([3, 1, 1, 2])] == ["1", "2", "3"]
    groups = score_groups([k / 7 for k in range(1000)])
    assert len(groups) == 10 and groups[0].low == 0 and groups[-1].high == 999 / 7


def test_drift_psi_of_an_input_by_hand_and_missing_rates():
    base = sample("glu,bmi,age\n80,low,1\n100,mid,1\n150,high,1\n150,high,1\n")
    cur = sample("glu,bmi,age\n80,low,1\n150,mid,1\n150,high,1\n,high,1\n")
    d = drift(MODEL, base, cur)
    glu = next(s for s in d.shifts if s.name == "glu")
    assert glu.labels == ("< 90", "90 to < 140", "\u2265 140", MISSING)
    assert (glu.baseline, glu.current) == ((1, 1, 2, 0), (1, 0, 2, 1))
    assert glu.psi == pytest.approx(psi([1, 1, 2, 0], [1, 0, 2, 1]))
    assert glu.psi == pytest.approx(2 * (0.25 - 0.125) * math.log(0.25 / 0.125))
    assert d.missing["glu"] == (0, 1)
    assert d.outcomes == (None, None)


def test_drift_score_bins_are_its_values_plus_no_score():
    base = sample("glu,bmi,age\n80,low,1\n150,high,1\n")
    cur = sample("glu,bmi,age\n80,low,\n150,high,1\n")
    shift = drift(MODEL, base, cur).shifts[0]
    assert shift.name == "score"
    values = sorted(score(MODEL, {"glu": glu, "bmi": bmi, "age": "1"}) for glu, bmi in (("80", "low"), ("150", "high")))
    assert shift.labels == tuple(str(v) for v in values) + (NO_SCORE,)
    assert (shift.baseline, shift.current) == ((1, 1, 0), (0, 1, 1))


def test_drift_reads_the_outcome_when_the_files_have_it():
    d = drift(MODEL, sample(DATA), sample(DATA.replace("80,low,0,no", "80,low,0,yes")))
    base, cur = d.outcomes
    assert base.rate.value == pytest.approx(3 / 7) and cur.rate.value == pytest.approx(4 / 7)
    assert base.predicted == cur.predicted


def test_an_input_read_only_for_being_unknown_has_two_bins():
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input("town", "categorical"), Input("age", "numeric")),
                  terms=(Term("town", "missing", None, 2, ""), Term("age", "missing", None, 1, "")),
                  intercept=-1, missing="unmet")
    town = input_bins(model, model.input("town"), ["a", "b", ""])
    assert town.labels == (KNOWN, MISSING) and town.index("anything") == 0
    age = input_bins(model, model.input("age"), ["1", "2", "3", ""])
    assert age.labels == ("< 2", "2 to < 3", "\u2265 3", MISSING)
