"""``scorecard report`` and ``scorecard monitor`` from the command line: a page written, one
line per monitored item, exit 0 whatever the drift; bad input exit 2 with one line and no
page left behind."""
from __future__ import annotations

import pytest
from scorecard.runtime import Input, Model, Target, Term, dump

#: The paper's breast cancer model (Figure SLIMExample) with a score-to-risk table.
MODEL = Model(kind="linear", target=Target("Benign", 1),
              inputs=(Input("UniformityOfCellSize", "numeric"), Input("BareNuclei", "numeric")),
              terms=(Term("UniformityOfCellSize", "linear", None, 4, ""), Term("BareNuclei", "linear", None, 2, "")),
              intercept=-17, missing="null",
              probability={"method": "table", "table": [{"score": -11, "risk": 0.02}, {"score": 0, "risk": 0.5},
                                                        {"score": 5, "risk": 0.95}]})


@pytest.fixture
def model(tmp_path):
    path = tmp_path / "model.json"
    dump(MODEL, str(path))
    return path


def assert_refused(run, message, *outputs):
    assert run.code == 2, run.err
    assert run.err.startswith("error: ") and run.err.count("\n") == 1, run.err
    assert message in run.err and "Traceback" not in run.err
    for path in outputs:
        assert not path.exists(), f"{path} was left behind"


def test_report_writes_one_self_contained_page(cli, model, breastcancer, tmp_path):
    out = tmp_path / "report.html"
    run = cli("report", model, "--data", breastcancer, "-o", out)
    assert run.code == 0, run.err
    page = out.read_text(encoding="utf-8")
    assert "Validation report: PREDICT Benign = 1 IF SCORE &gt; 17" in page
    assert "breastcancer.csv (683 rows)" in page and "AUC (DeLong)" in page
    assert 'id="scorecard-model"' in page  # the card itself, with its calculator


def test_monitor_prints_one_line_per_item_and_exits_0_on_a_major_shift(cli, model, write, breastcancer, tmp_path):
    lines = breastcancer.read_text().splitlines()
    header, rows = lines[0], lines[1:]
    base = write("base.csv", "\n".join([header] + rows[::2]) + "\n")
    shifted = [",".join(cells[:6] + ["10"] + cells[7:]) for cells in (r.split(",") for r in rows[1::2])]
    cur = write("cur.csv", "\n".join([header] + shifted) + "\n")
    out = tmp_path / "drift.html"
    run = cli("monitor", model, "--baseline", base, "--current", cur, "-o", out)
    assert run.code == 0, run.err
    printed = run.out.splitlines()
    assert printed[0] == f"rows: 342 baseline ({base}), 341 current ({cur})"
    assert printed[1].startswith("score: PSI ")
    assert printed[2].startswith("input UniformityOfCellSize: PSI ") and printed[2].endswith("(no shift)")
    assert printed[3].startswith("input BareNuclei: PSI ") and printed[3].endswith("(major shift)")
    assert printed[4:6] == ["missing UniformityOfCellSize: 0.0% -> 0.0%", "missing BareNuclei: 0.0% -> 0.0%"]
    assert printed[6].startswith("outcome rate: ") and printed[7].startswith("calibration: current observed ")
    assert printed[8].startswith("AUC: ") and len(printed) == 9
    assert "Drift: PREDICT Benign = 1 IF SCORE &gt; 17" in out.read_text(encoding="utf-8")


def test_monitor_without_the_outcome_in_the_current_data(cli, model, write, breastcancer):
    rows = breastcancer.read_text().splitlines()
    cur = write("cur.csv", "\n".join(",".join(r.split(",")[1:]) for r in rows) + "\n")
    run = cli("monitor", model, "--baseline", breastcancer, "--current", cur)
    assert run.code == 0, run.err
    assert run.out.splitlines()[-1] == "outcome: not in the current data (no outcome rate or calibration drift)"


@pytest.mark.parametrize("text, message", [
    ("UniformityOfCellSize,BareNuclei\n1,1\n", "d.csv: no column 'Benign' (the model's outcome), which the report needs"),
    ("Benign,UniformityOfCellSize\n1,1\n", "d.csv: the model needs column 'BareNuclei', which the data lacks"),
    ("Benign,UniformityOfCellSize,BareNuclei\n1,1,x\n", "d.csv: line 2: column 'BareNuclei': 'x' is not a number"),
    ("Benign,UniformityOfCellSize,BareNuclei\n1,1,1\n0,2,2\n2,3,3\n", "line 4: the outcome 'Benign' holds a third value"),
    ("Benign,UniformityOfCellSize,BareNuclei\n1,1,1\n,2,2\n", "d.csv: line 3: the outcome 'Benign' is empty"),
    ("Benign,UniformityOfCellSize,BareNuclei\n1,1,1\n1,2,2\n", "hold one class of 'Benign' only (every one of them 1"),
    ("Benign,UniformityOfCellSize,BareNuclei\nno,1,1\nyes,2,2\n", "(none of them 1, the positive class)"),
    ("Benign,UniformityOfCellSize,BareNuclei\n", "d.csv: the file has no rows"),
    ("", "d.csv: the file is empty"),
])
def test_report_refuses_bad_data_with_one_line(cli, model, write, tmp_path, text, message):
    data = write("d.csv", text)
    out = tmp_path / "report.html"
    assert_refused(cli("report", model, "--data", data, "-o", out), message, out)


def test_monitor_refuses_bad_data_with_one_line(cli, model, write, breastcancer, tmp_path):
    cur = write("cur.csv", "UniformityOfCellSize\n1\n")
    out = tmp_path / "drift.html"
    assert_refused(cli("monitor", model, "--baseline", breastcancer, "--current", cur, "-o", out),
                   "cur.csv: the model needs column 'BareNuclei', which the data lacks", out)


def test_pages_never_overwrite_their_inputs(cli, model, breastcancer, tmp_path):
    assert_refused(cli("report", model, "--data", breastcancer, "-o", breastcancer), "is the input file")
    assert_refused(cli("monitor", model, "--baseline", breastcancer, "--current", breastcancer, "-o", model),
                   "is the input file")


def test_report_needs_data_and_a_model_file(cli, model, breastcancer, tmp_path):
    out = tmp_path / "report.html"
    assert_refused(cli("report", model, "-o", out), "--data", out)
    assert_refused(cli("report", tmp_path / "none.json", "--data", breastcancer, "-o", out), "none.json", out)
