"""The numbers of ``report --by`` and ``monitor --by`` against the reference implementations on
the same rows: scikit-learn's AUC and Brier score, statsmodels' logistic calibration slope and
intercept (Logit, and a GLM with the predicted log-odds as offset) and Wilson intervals; the
decision curve against Vickers & Elkin's formula counted with numpy; too-small groups in words."""
from __future__ import annotations

import io
import math
import random

import numpy as np
import pytest
from scorecard.runtime import DataError, Input, Model, Target, Term
from scorecard.runtime.stats import logit
from scorecard.runtime.subgroups import ALL_ROWS, MAX_GROUPS, MIN_CLASS_ROWS, MISSING_GROUP, breakdowns, group_numbers
from scorecard.runtime.table import csv_records
from scorecard.runtime.validation import DECISION_THRESHOLDS, decision_curve, drift, read_sample, validate

#: Five cut-offs and a risk table that is off for one group: the calibration slope and
#: intercept differ from 1 and 0 and between groups.
MODEL = Model(kind="linear", target=Target("y", 1), inputs=(Input("x", "numeric"), Input("sex", "categorical")),
              terms=tuple(Term("x", ">=", c, 1, "") for c in (1, 2, 3, 4, 5)), intercept=-2, missing="null",
              probability={"method": "table", "table": [{"score": s, "risk": r} for s, r in
                                                        enumerate((0.05, 0.12, 0.25, 0.45, 0.7, 0.88))]})


def rows(seed: int = 3, n: int = 600) -> str:
    """CSV of x in 0..6, sex in three groups (and a few blanks), the outcome drawn from a risk
    that rises with x more steeply for women than the model says."""
    rng = random.Random(seed)
    out = ["x,sex,y"]
    for _ in range(n):
        x = rng.randint(0, 6)
        sex = rng.choice(["female", "male", "male", " other ", ""] if rng.random() < 0.1 else ["female", "male"])
        slope = 1.3 if sex == "female" else 0.8
        p = 1 / (1 + math.exp(-slope * (x - 3)))
        out.append(f"{x},{sex},{int(rng.random() < p)}")
    return "\n".join(out) + "\n"


def sample(text: str, source: str = "d.csv", columns=("sex",)):
    header, records = csv_records(io.StringIO(text), source)
    return read_sample(MODEL, header, records, source, "optional", columns)


def test_each_groups_numbers_match_scikit_learn_and_statsmodels():
    metrics = pytest.importorskip("sklearn.metrics")
    sm = pytest.importorskip("statsmodels.api", reason="statsmodels (extra 'test') checks the calibration fit")
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    s = sample(rows())
    v = validate(MODEL, s, ["sex"])
    (table,) = v.subgroups
    assert [g.label for g in table.groups] == ["female", "male", "other", MISSING_GROUP]
    cells = [c.strip() or None for c in s.columns["sex"]]
    for g in table.groups:
        index = [k for k, c in enumerate(cells) if c == (None if g.label == MISSING_GROUP else g.label)]
        y = np.array([s.labels[k] for k in index])
        risk = np.array([s.risks[k] for k in index])
        predicted = np.array([s.predictions[k] for k in index])
        assert (g.rows, g.positives) == (len(index), int(y.sum()))
        low, high = proportion.proportion_confint(int(y.sum()), len(y), alpha=0.05, method="wilson")
        assert (g.outcome.low, g.outcome.high) == pytest.approx((low, high), abs=1e-9)
        if g.label in ("female", "male"):  # large enough for every estimate
            assert g.too_few == {}
            assert g.auc.value == pytest.approx(metrics.roc_auc_score(y, [s.scores[k] for k in index]), abs=1e-12)
            assert g.brier == pytest.approx(metrics.brier_score_loss(y, risk), abs=1e-12)
            assert g.tpr.value == pytest.approx(predicted[y == 1].mean()) and g.fpr.value == pytest.approx(
                predicted[y == 0].mean())
            low, high = proportion.proportion_confint(int(predicted[y == 0].sum()), int((y == 0).sum()), method="wilson")
            assert (g.fpr.low, g.fpr.high) == pytest.approx((low, high), abs=1e-9)
            x = np.array([logit(r) for r in risk])
            fit = sm.Logit(y, sm.add_constant(x)).fit(disp=0)
            assert g.recalibration.slope.value == pytest.approx(fit.params[1], abs=1e-6)
            low, high = fit.conf_int()[1]
            assert (g.recalibration.slope.low, g.recalibration.slope.high) == pytest.approx((low, high), abs=1e-5)
            offset = sm.GLM(y, np.ones((len(y), 1)), family=sm.families.Binomial(), offset=x).fit()
            assert g.recalibration.intercept.value == pytest.approx(offset.params[0], abs=1e-6)
            low, high = offset.conf_int()[0]
            assert (g.recalibration.intercept.low, g.recalibration.intercept.high) == pytest.approx((low, high), abs=1e-5)
            assert g.predicted == pytest.approx(risk.mean())
    # the steeper women: a calibration slope above 1, the men's below
    female, male = table.groups[:2]
    assert female.recalibration.slope.value > 1 > male.recalibration.slope.value
    assert table.overall.label == ALL_ROWS and table.overall.auc == v.auc and table.overall.rows == v.rows


def test_a_group_too_small_for_an_estimate_says_so_in_words():
    g = group_numbers("other", [1] * 4 + [0] * 30, [3] * 34, [1] * 34, [0.5] * 34, True)
    assert g.auc is None and g.tpr is None and g.recalibration is None
    assert g.too_few["auc"] == g.too_few["tpr"] == f"too few rows with the outcome (4; {MIN_CLASS_ROWS} needed)"
    assert g.fpr.value == 1.0 and "fpr" not in g.too_few  # 30 rows without: enough for the FPR
    assert g.brier == pytest.approx(0.25) and g.predicted == 0.5
    tiny = group_numbers("tiny", [1, 0, 1], [1, None, 2], [1, None, 1], [0.6, None, 0.7], True)
    assert tiny.rows == 3 and tiny.scored == 2 and tiny.brier is None
    assert tiny.too_few["brier"] == f"too few rows with a score (2; {MIN_CLASS_ROWS} needed)"
    assert tiny.too_few["fpr"] == f"too few rows without the outcome (0; {MIN_CLASS_ROWS} needed)"
    plain = group_numbers("no map", [1] * 20 + [0] * 20, list(range(40)), [1] * 40, [None] * 40, False)
    assert plain.auc is not None and plain.brier is None and plain.recalibration is None
    assert "brier" not in plain.too_few  # no risk map: nothing too few about it


def test_groups_read_numbers_as_numbers_and_blank_cells_as_missing():
    columns = {"site": ["1", "1.0", " 2", "", "x", "2"]}
    (table,) = breakdowns(columns, ["site"], "d.csv", [1, 0, 1, 0, 1, 0], [1, 2, 3, 4, 5, 6], [1] * 6, [None] * 6,
                          False)
    assert [(g.label, g.rows) for g in table.groups] == [("1", 2), ("2", 2), ("x", 1), (MISSING_GROUP, 1)]


def test_two_columns_give_their_combinations_too_and_too_many_groups_are_refused():
    s = sample(rows(), columns=("sex", "x"))
    v = validate(MODEL, s, ["sex", "x"])
    assert [b.columns for b in v.subgroups] == [("sex",), ("x",), ("sex", "x")]
    combined = v.subgroups[2]
    assert combined.groups[0].label == "female, 0" and sum(g.rows for g in combined.groups) == v.rows
    many = "id,x,y\n" + "".join(f"{k},{k % 7},{k % 2}\n" for k in range(MAX_GROUPS + 1))
    with pytest.raises(DataError, match=f"d.csv: column 'id' holds {MAX_GROUPS + 1} values; --by takes a column of "
                                        f"at most {MAX_GROUPS} groups"):
        validate(MODEL, sample(many, columns=("id",)), ["id"])
    with pytest.raises(DataError, match="d.csv: no column 'race' to break the numbers down by"):
        validate(MODEL, sample(rows(), columns=("race",)), ["race"])
    wide = "a,b,x,y\n" + "".join(f"{k % 6},{k % 7},{k % 7},{k % 2}\n" for k in range(84))
    v = validate(MODEL, sample(wide, columns=("a", "b")), ["a", "b"])
    assert v.subgroups[2].groups == () and v.subgroups[2].refused == (
        f"the 42 combinations of a, b are more than {MAX_GROUPS} groups")


def test_decision_curve_is_vickers_and_elkins_net_benefit():
    rng = np.random.default_rng(5)
    risk = rng.choice([0.05, 0.1, 0.3, 0.55, 0.8], size=500)
    y = (rng.random(500) < risk).astype(int)
    predicted = (risk >= 0.3).astype(int)
    curve = decision_curve(y.tolist(), predicted.tolist(), risk.tolist())
    assert [p.threshold for p in curve] == list(DECISION_THRESHOLDS)
    n, prevalence = len(y), y.mean()
    for p in curve:
        odds = p.threshold / (1 - p.threshold)
        treated = risk >= p.threshold
        assert p.risk == pytest.approx(((treated & (y == 1)).sum() - (treated & (y == 0)).sum() * odds) / n)
        assert p.treat_all == pytest.approx(prevalence - (1 - prevalence) * odds)
        assert p.card == pytest.approx(((predicted == 1) & (y == 1)).sum() / n
                                       - ((predicted == 1) & (y == 0)).sum() / n * odds)
    # a calibrated risk beats treating everyone once the threshold passes the outcome rate
    assert all(p.risk >= p.treat_all - 1e-12 for p in curve if p.threshold > prevalence)
    assert all(p.risk is None for p in decision_curve([1, 0], [1, 0], None))


def test_monitor_breaks_the_score_shift_and_the_outcome_down_by_group():
    base, cur = sample(rows(1), "a.csv"), sample(rows(2).replace(",female,", ",woman,"), "b.csv")
    d = drift(MODEL, base, cur, ["sex"])
    labels = [(g.label, g.rows) for g in d.groups]
    assert [label for label, _ in labels] == ["female", "male", "other", "woman", MISSING_GROUP]
    female = d.groups[0]
    assert female.rows[1] == 0 and female.psi is None and female.outcomes[1] is None
    male = d.groups[1]
    assert male.psi is not None and male.outcomes[0].label == "male" and male.outcomes[1].auc is not None
    with pytest.raises(DataError, match="a.csv: no column 'race'"):
        drift(MODEL, base, cur, ["race"])
