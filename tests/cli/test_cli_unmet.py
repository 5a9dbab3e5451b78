"""Raw data with empty cells trains with the plain command (``--missing unmet``, the default):
a missing value meets no condition on its column, an input with missing cells is offered the
condition "COL unknown", and the model file, its card, ``verify`` and ``predict`` agree.

Every data set here is small and its optimum found and proven at once (a generous
``--time-limit`` is only a ceiling; no test depends on how long solving takes).
"""
from __future__ import annotations

import csv
import io
import json

import numpy as np
import pandas as pd
from scorecard.runtime import load, score

TIME = ("--time-limit", "120", "--work-limit", "10")


def _raw_csv(path, *, unknown_is_positive: bool = False) -> str:
    """``glu`` (numeric, a blank every 6th row) and ``smoker`` (text, a blank every 5th row);
    ``diabetes`` is ``glu >= 140``, and where glu is blank: ``smoker == yes``, or always yes
    with ``unknown_is_positive`` (missingness then predicts the outcome)."""
    rng = np.random.default_rng(1)
    n = 48
    glu = rng.integers(70, 200, n).astype(float)
    smoker = rng.choice(["yes", "no"], n).astype(object)
    glu[::6] = np.nan
    smoker[3::5] = None
    if unknown_is_positive:
        label = np.isnan(glu) | (glu >= 140)
    else:
        label = np.where(np.isnan(glu), smoker == "yes", glu >= 140)
    frame = pd.DataFrame({"glu": glu, "smoker": smoker, "diabetes": np.where(label, "yes", "no")})
    frame["glu"] = frame["glu"].astype("Int64")  # written as 83, not 83.0; a blank stays blank
    frame.to_csv(path, index=False)
    return str(path)


def _train(cli, data, model, *args):
    return cli("train", data, "--target", "diabetes", "--positive", "yes", *TIME, "-o", str(model), *args)


def test_empty_cells_train_with_the_plain_command_and_every_output_agrees(cli, tmp_path):
    data = _raw_csv(tmp_path / "raw.csv")
    assert ",," in open(data).read() or ",\n" in open(data).read()  # the file has empty cells
    model_path = tmp_path / "m.json"
    run = _train(cli, data, model_path)
    assert run.code == 0, run.err
    doc = json.loads(model_path.read_text())
    assert doc["missing"] == "unmet"
    assert not any(t["op"] == "linear" for t in doc["terms"])
    model = load(str(model_path))
    assert {"glu", "smoker"} <= {i.name for i in model.used_inputs}
    # a golden row with a used input blanked, and a score for it
    blanks = [g for g in model.golden if any(v is None for v in g.row.values())]
    assert blanks and all(g.score is not None for g in blanks)

    card = tmp_path / "card.txt"
    assert cli("export", str(model_path), "--format", "text", "-o", str(card)).code == 0
    assert "An unknown value meets no condition on that input" in card.read_text()

    run = cli("verify", str(model_path), "--data", data)
    assert run.code == 0, run.out + run.err
    assert "ok" in run.out and "differ" not in run.out

    scored = tmp_path / "scored.csv"
    run = cli("predict", str(model_path), data, "-o", str(scored))
    assert run.code == 0, run.err
    rows = list(csv.DictReader(io.StringIO(scored.read_text())))
    blank_rows = [r for r in rows if r["glu"] == "" or r["smoker"] == ""]
    assert len(blank_rows) >= 10
    for r in rows:
        raw = {k: v for k, v in r.items() if k not in ("score", "prediction", "probability")}
        expected = score(model, raw)
        assert expected is not None and r["score"] == str(expected)


def test_the_unknown_condition_is_chosen_where_missingness_predicts_the_outcome(cli, tmp_path):
    data = _raw_csv(tmp_path / "raw.csv", unknown_is_positive=True)
    model_path = tmp_path / "m.json"
    run = _train(cli, data, model_path)
    assert run.code == 0, run.err
    model = load(str(model_path))
    assert model.training.status == "optimal" and model.training.train_error == 0
    unknown = [t for t in model.terms if t.op == "missing"]
    assert [t.input for t in unknown] == ["glu"] and unknown[0].label == "glu unknown"
    assert score(model, {"glu": "", "smoker": "no"}) > 0  # blank glu: predicted positive
    assert score(model, {"glu": "90", "smoker": ""}) <= 0
    card = tmp_path / "card.txt"
    assert cli("export", str(model_path), "--format", "text", "-o", str(card)).code == 0
    assert "glu unknown" in card.read_text()
    assert cli("verify", str(model_path)).code == 0


def test_without_the_unknown_condition_a_blank_meets_no_condition(cli, tmp_path):
    # glu >= 140 alone is the optimum when blank glu rows are negative: a blank scores as glu < 140
    rng = np.random.default_rng(2)
    glu = rng.integers(70, 200, 40).astype(float)
    label = glu >= 140
    glu[::5] = np.nan
    label[::5] = False
    frame = pd.DataFrame({"glu": pd.array(glu).astype("Int64"), "diabetes": np.where(label, "yes", "no")})
    frame.to_csv(tmp_path / "raw.csv", index=False)
    model_path = tmp_path / "m.json"
    assert _train(cli, str(tmp_path / "raw.csv"), model_path).code == 0
    model = load(str(model_path))
    assert [t.op for t in model.terms] == [">="] and model.training.train_error == 0
    assert score(model, {"glu": None}) == score(model, {"glu": 70}) == 0  # the points total: no condition met


def test_numeric_linear_with_missing_cells_enters_as_cut_offs_with_a_note(cli, tmp_path):
    data = _raw_csv(tmp_path / "raw.csv")
    model_path = tmp_path / "m.json"
    run = _train(cli, data, model_path, "--numeric", "linear")
    assert run.code == 0, run.err
    assert "note: column 'glu' enters as cut-off conditions, not linear: it has 8 missing values" in run.err
    doc = json.loads(model_path.read_text())
    assert doc["missing"] == "unmet" and not any(t["op"] == "linear" for t in doc["terms"])
    # impute keeps it linear, as before
    run = _train(cli, data, model_path, "--numeric", "linear", "--missing", "impute")
    assert run.code == 0, run.err
    assert "enters as cut-off" not in run.err
    doc = json.loads(model_path.read_text())
    assert "impute" in doc["missing"] and not any(t["op"] in ("missing", ">=") for t in doc["terms"])


def test_complete_data_under_unmet_still_scores_a_blank_by_the_rule(cli, tmp_path):
    rng = np.random.default_rng(3)
    glu = rng.integers(70, 200, 40)
    pd.DataFrame({"glu": glu, "diabetes": np.where(glu >= 140, "yes", "no")}).to_csv(tmp_path / "raw.csv", index=False)
    model_path = tmp_path / "m.json"
    assert _train(cli, str(tmp_path / "raw.csv"), model_path).code == 0
    model = load(str(model_path))
    assert model.missing == "unmet" and not any(t.op == "missing" for t in model.terms)
    assert score(model, {"glu": ""}) == model.intercept  # no condition met, not "no score"
    assert any(g.row["glu"] is None and g.score == model.intercept for g in model.golden)
    assert cli("verify", str(model_path)).code == 0
