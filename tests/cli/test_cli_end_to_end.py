"""train -> show -> predict -> cv on the bundled breastcancer data, with short time limits."""
from __future__ import annotations

import csv
import json
import re
import xml.etree.ElementTree as ET

import pytest
from scorecard.runtime import load, score
from testdata import EXAMPLES

DATA = EXAMPLES / "breastcancer.csv"


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """One model trained through the CLI, shared by the tests of this module.

    Every command here runs on data exhaustive search proves in well under a second (cv: a
    few seconds in all); --work-limit makes the model the same however busy the machine, and
    the generous --time-limit is only a safety net."""
    from scorecard.cli import main

    folder = tmp_path_factory.mktemp("bc")
    path = folder / "model.json"
    code = main(["train", str(DATA), "--target", "Benign", "--c0", "0.025", "--time-limit", "120",
                 "--work-limit", "5", "-o", str(path)])
    assert code == 0
    return path


def test_train_writes_a_model_that_beats_the_majority_class(trained):
    model = load(str(trained))
    assert model.target.name == "Benign" and model.training is not None
    assert model.training.n_rows == 683 and model.training.train_error < 0.1
    assert all(isinstance(t.points, int) for t in model.terms)
    assert json.loads(trained.read_text())["training"]["params"]["c0"] == 0.025


def test_train_prints_one_summary_line_and_nothing_live_off_a_terminal(cli, tmp_path):
    out = tmp_path / "m.json"
    run = cli("train", DATA, "--target", "Benign", "--max-features", "1", "--time-limit", "120", "-o", out)
    assert run.code == 0, run.err
    assert run.err.count("\n") == 1 and "train error" in run.err and str(out) in run.err
    assert "\r" not in run.err
    assert len(load(str(out)).terms) <= 1


def test_a_work_limit_gives_the_same_model_file_under_any_time_limit(cli, tmp_path):
    """breastcancer at C0 0.005 is not proven within the work limit: without it, the model and
    its bound would depend on how far the clock let each phase go."""
    files = []
    for limit in ("300", "900"):  # each run takes a few seconds: the clock never stops it
        out = tmp_path / f"m{limit}.json"
        run = cli("train", DATA, "--target", "Benign", "--c0", "0.005", "--work-limit", "0.3", "--time-limit", limit,
                  "-o", out)
        assert run.code == 0, run.err
        files.append(json.loads(out.read_text()))
    for model in files:
        assert model["training"]["params"]["work_limit"] == 0.3 and model["training"]["status"] == "work_limit"
        del model["training"]["seconds"], model["training"]["params"]["time_limit"]
    assert files[0] == files[1]


def test_a_work_limit_must_be_a_positive_number(cli, tmp_path):
    run = cli("train", DATA, "--target", "Benign", "--work-limit", "0", "-o", tmp_path / "m.json")
    assert run.code == 2 and not (tmp_path / "m.json").exists()
    assert run.err == "error: --work-limit: 0.0 is not valid; use a number > 0 (units of deterministic work, e.g. 10)\n"


def test_show_prints_the_terms_and_the_training(cli, trained):
    run = cli("show", trained)
    model = load(str(trained))
    assert run.code == 0
    for term in model.terms:
        assert term.input in run.out
    assert model.training.status in run.out


def test_predict_scores_every_row_like_the_runtime(cli, trained, tmp_path):
    out = tmp_path / "scored.csv"
    assert cli("predict", trained, DATA, "-o", out).code == 0
    model = load(str(trained))
    with open(out, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 683
    for row in rows:
        assert row["score"] == str(score(model, row))
        assert row["prediction"] == str(int(score(model, row) > model.threshold))


def test_infeasible_constraints_exit_3_with_no_model(cli, tmp_path):
    out = tmp_path / "m.json"
    run = cli("train", DATA, "--target", "Benign", "--max-fpr", "0", "--min-tpr", "1", "--max-features", "1",
              "--time-limit", "120", "-o", out)
    assert run.code == 3, run.err
    assert run.err.startswith("error: ") and not out.exists()


def test_config_file_options_apply_and_flags_win(cli, write, tmp_path):
    config = write("c.toml", 'target = "Benign"\nmax_features = 3\ntime_limit = 100\n[signs]\nBareNuclei = "+"\n')
    out = tmp_path / "m.json"
    run = cli("train", DATA, "--config", config, "--max-features", "2", "--time-limit", "120", "-o", out)
    assert run.code == 0, run.err
    params = load(str(out)).training.params
    assert params["max_features"] == 2 and params["time_limit"] == 120 and params["signs"] == {"BareNuclei": "+"}
    assert all(t.points >= 0 for t in load(str(out)).terms if t.input == "BareNuclei")


def test_cv_prints_every_fold_and_writes_csv_and_svg(cli, tmp_path):
    table, plot = tmp_path / "cv.csv", tmp_path / "cv.svg"
    run = cli("cv", DATA, "--target", "Benign", "--folds", "2", "--c0-grid", "0.01,0.1", "--max-features", "3",
              "--time-limit", "120", "-o", table, "--plot", plot)
    assert run.code == 0, run.err
    with open(table, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["fold"] for r in rows] == ["1", "2", "all"] * 2
    assert {r["c0"] for r in rows} == {"0.01", "0.1"}
    for r in rows:
        assert 0 <= float(r["test_error"]) < 0.5 and 0 <= float(r["train_error"]) < 0.5
        assert r["status"] and float(r["size"]) <= 3
    assert run.out.count("\n") == 2 + len(rows)  # header, rows, the recommendation
    last = run.out.splitlines()[-1]
    assert re.match(r"recommended: C0 = (0\.01|0\.1), the smallest model .* within one standard error", last), last
    svg = ET.parse(plot).getroot()
    assert svg.tag.endswith("svg")
    assert len([e for e in svg.iter() if e.tag.endswith("polyline")]) == 2
    labels = [e.text for e in svg.iter() if e.tag.endswith("text") and e.get("class") == "point-label"]
    assert sorted(labels) == ["C0 = 0.01", "C0 = 0.1"]  # each point of the test series names its C0


@pytest.mark.parametrize("fmt, extra, mark", [
    ("html", (), b"<!DOCTYPE html"), ("latex", (), b"\\documentclass"), ("python", (), b"def score("),
    ("sql", ("--dialect", "duckdb"), b"SELECT"), ("onnx", (), b"score"), ("text", (), b"Benign"),
    ("onnx", ("--onnx-input", "matrix"), b"matrix_columns"), ("pmml", (), b'useReasonCodes="true"'),
])
def test_export_writes_one_file_per_format(cli, trained, tmp_path, fmt, extra, mark):
    out = tmp_path / f"model.{fmt}"
    run = cli("export", trained, "--format", fmt, *extra, "-o", out)
    assert run.code == 0, run.err
    assert mark in out.read_bytes()


def test_verify_prints_one_line_per_check_and_exits_1_on_a_difference(cli, trained, tmp_path):
    run = cli("verify", trained, "--data", DATA)
    assert run.code == 0, run.out + run.err
    lines = run.out.splitlines()
    assert any(line.startswith("python") and " ok: " in line for line in lines)
    assert [line.split()[:2] + [" ".join(w for w in ("matrix", "--explain") if w in line)] for line in lines
            if line.startswith("onnx")] == [["onnx", "onnxruntime", ""], ["onnx", "onnxruntime", "matrix"],
                                            ["onnx", "onnxruntime", "--explain"],
                                            ["onnx", "onnxruntime", "matrix --explain"]]
    assert any(line.startswith("pmml") and " ok: " in line and "identical reason codes" in line for line in lines)
    assert not any("FAILED" in line for line in lines)
    verdicts = {min(i for i in (line.find(" ok: "), line.find(" not run: ")) if i >= 0) for line in lines}
    assert len(verdicts) == 1  # the verdicts line up, however long an engine's name

    tampered = json.loads(trained.read_text())
    tampered["golden"][0]["score"] += 1
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(tampered))
    run = cli("verify", bad)
    assert run.code == 1
    assert "FAILED" in run.out and "golden row 0" in run.out
