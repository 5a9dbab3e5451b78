"""``scorecard recalibrate``: a card's risks refitted on a site's own outcomes. The points, the
threshold and the golden rows stay; the refit matches statsmodels' logistic fit of the outcome
on the score (the weak prior is negligible on thousands of rows); after it the risks are
calibrated on those rows (slope 1, intercept 0), which they were not before; the history says
when, where and on what; every export still agrees with the runtime."""
from __future__ import annotations

import io
import json
import math
import random
from datetime import datetime, timezone

import numpy as np
import pandas as pd
import pytest
from scorecard.exporters import verify as verify_module
from scorecard.runtime import Input, Model, Target, Term, dumps, loads
from scorecard.runtime.errors import DataError, ModelError
from scorecard.runtime.table import csv_records
from scorecard.runtime.validation import read_sample, validate
from scorecard.trainer.calibrate import risk_table
from scorecard.trainer.golden import with_golden
from scorecard.trainer.recalibrate import recalibrated, sha256

#: A published card: three cut-offs, its risk table fitted where the outcome is rarer than here.
CARD = Model(kind="linear", target=Target("event", "yes"),
             inputs=(Input("age", "numeric"), Input("bp", "numeric"), Input("smoker", "binary")),
             terms=(Term("age", ">=", 60, 2, ""), Term("bp", ">=", 140, 2, ""), Term("smoker", "==", 1, 1, "")),
             intercept=-3, missing="null",
             probability={"method": "table", "table": [{"score": s, "risk": round(1 / (1 + math.exp(-(-1.5 + 0.5 * (s - 3)))), 6)}
                                                       for s in range(6)]})


def local_rows(n: int = 4000, seed: int = 1) -> str:
    """The site's rows: the outcome more common and steeper in the score than the card says."""
    rng = random.Random(seed)
    out = ["age,bp,smoker,event"]
    for _ in range(n):
        age, bp, smoker = rng.randint(30, 90), rng.randint(100, 180), rng.randint(0, 1)
        s = 2 * (age >= 60) + 2 * (bp >= 140) + smoker
        p = 1 / (1 + math.exp(-(-0.2 + 0.9 * (s - 3))))
        out.append(f"{age},{bp},{smoker},{'yes' if rng.random() < p else 'no'}")
    return "\n".join(out) + "\n"


@pytest.fixture
def local(tmp_path):
    path = tmp_path / "local.csv"
    path.write_text(local_rows(), encoding="utf-8")
    return path


def sample(model: Model, path):
    header, records = csv_records(io.StringIO(path.read_text(encoding="utf-8")), path.name)
    return read_sample(model, header, records, path.name, "required")


def test_the_refit_keeps_the_card_and_matches_statsmodels_logistic_fit(local):
    sm = pytest.importorskip("statsmodels.api", reason="statsmodels (extra 'test') checks the refit")
    card = with_golden(CARD, pd.DataFrame([{"age": 65, "bp": 150, "smoker": 1}, {"age": 40, "bp": 120, "smoker": 0}]))
    s = sample(card, local)
    at = datetime(2026, 11, 28, 9, 30, tzinfo=timezone.utc)
    new = recalibrated(card, s, str(local), site="St Mary's", at=at)
    assert (new.terms, new.intercept, new.golden, new.training, new.inputs) == (card.terms, card.intercept, card.golden,
                                                                               card.training, card.inputs)
    (entry,) = new.history
    assert entry["event"] == "recalibrated" and entry["at"] == "2026-11-28T09:30:00Z" and entry["site"] == "St Mary's"
    assert entry["data"] == "local.csv" and entry["sha256"] == sha256(str(local)) and entry["rows"] == 4000
    assert entry["previous"] == card.probability and entry["fit"]["center"] == 3
    scores = np.array(s.scores, dtype=float)
    y = np.array(s.labels)
    mle = sm.Logit(y, sm.add_constant(scores - 3)).fit(disp=0)
    (low_a, high_a), (low_b, high_b) = mle.conf_int()
    fit = entry["fit"]
    assert fit["intercept"]["value"] == pytest.approx(mle.params[0], abs=0.01)
    assert fit["slope"]["value"] == pytest.approx(mle.params[1], abs=0.01)
    assert (fit["intercept"]["low"], fit["intercept"]["high"]) == pytest.approx((low_a, high_a), abs=0.01)
    assert (fit["slope"]["low"], fit["slope"]["high"]) == pytest.approx((low_b, high_b), abs=0.01)
    # the table holds every score the card reaches, each the fitted curve's risk
    table = new.probability["table"]
    assert [row["score"] for row in table] == list(range(6))
    for row in table:
        assert row["risk"] == pytest.approx(1 / (1 + math.exp(-(fit["intercept"]["value"] + fit["slope"]["value"]
                                                                * (row["score"] - 3)))), abs=1e-6)
        assert row["low"] < row["risk"] < row["high"]
    assert new.probability["fit"]["rows"] == 4000 and new.probability["fit"]["out_of_fold"] is False
    # the same fit training makes, on these rows
    assert new.probability == risk_table(card, scores, y)


def test_the_report_of_the_new_file_shows_the_risks_calibrated_after_and_not_before(local):
    new = recalibrated(CARD, sample(CARD, local), str(local))
    v = validate(new, sample(new, local))
    before, after = v.refit.before, v.refit.after
    assert before.predicted < after.predicted == pytest.approx(sum(y for y in sample(new, local).labels) / 4000, abs=0.01)
    assert after.recalibration.slope.value == pytest.approx(1, abs=0.05)
    assert after.recalibration.intercept.value == pytest.approx(0, abs=0.05)
    assert not before.recalibration.intercept.low <= 0 <= before.recalibration.intercept.high  # off before
    assert after.brier < before.brier
    assert v.refit.entry == new.history[-1] and v.recalibration == after.recalibration


def test_every_export_still_agrees_with_the_runtime_on_the_new_file(local):
    card = with_golden(CARD, pd.DataFrame([{"age": 65, "bp": 150, "smoker": 1}, {"age": 40, "bp": 120, "smoker": 0},
                                           {"age": 70, "bp": 100, "smoker": 0}]))
    new = loads(dumps(recalibrated(card, sample(card, local), str(local))))
    rows = [dict(zip(("age", "bp", "smoker"), line.split(",")[:3])) for line in local.read_text().splitlines()[1:200]]
    cases = verify_module.cases_for(new, rows)
    checks = [verify_module.check_golden(new, cases), verify_module.check_card(new, cases),
              verify_module.check_python(new, cases), verify_module.check_sqlite(new, cases),
              verify_module.check_duckdb(new, cases), verify_module.check_onnx(new, cases)]
    assert all(c.ok for c in checks), [c.line() for c in checks]
    assert all(c.ok is not None for c in checks)


def test_a_second_refit_keeps_the_first_in_the_history_and_old_files_still_read(local, tmp_path):
    once = recalibrated(CARD, sample(CARD, local), str(local))
    other = tmp_path / "other.csv"
    other.write_text(local_rows(800, seed=5), encoding="utf-8")
    twice = recalibrated(once, sample(once, other), str(other))
    assert [e["data"] for e in twice.history] == ["local.csv", "other.csv"]
    assert twice.history[1]["previous"] == once.probability
    assert loads(dumps(twice)) == twice
    assert "history" not in json.loads(dumps(CARD)) and loads(dumps(CARD)).history == ()
    broken = json.loads(dumps(once))
    del broken["history"][0]["previous"]
    with pytest.raises(ModelError, match=r"history\[0\].previous: is missing"):
        loads(json.dumps(broken))
    broken = json.loads(dumps(once))
    broken["history"][0]["previous"] = {"method": "table", "table": []}
    with pytest.raises(ModelError, match=r"history\[0\].previous: probability.table"):
        loads(json.dumps(broken))


def test_rows_of_one_class_cannot_be_refitted(tmp_path):
    path = tmp_path / "few.csv"
    path.write_text("age,bp,smoker,event\n70,150,1,yes\n40,120,0,yes\n", encoding="utf-8")
    with pytest.raises(DataError, match="few.csv: the rows with a score hold one class of 'event' only"):
        recalibrated(CARD, sample(CARD, path), str(path))
