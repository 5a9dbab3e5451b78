"""``scorecard report`` and ``scorecard monitor`` from the command line: a page written, one
line per monitored item, exit 0 whatever the drift; bad input exit 2 with one line and no
page left behind."""
from __future__ import annotations

import json

import pytest
from scorecard.runtime import Input, Model, Target, Term, dump

#: The paper's breast cancer model (Figure SLIMExample) with a score-to-risk table.
MODEL = Model(kind="linear", target=Target("Benign", 1),
              inputs=(Input("UniformityOfCellSize", "numeric"), Input("BareNuclei", "numeric")),
              terms=(Term("UniformityOfCellSize", "linear", None, 4, ""), Term("BareNuclei", "linear", None, 2, "")),
              intercept=-17, missing="null",
              probability={"method": "table", "table": [
                  {"score": -11, "risk": 0.02, "low": 0.01, "high": 0.04}, {"score": 0, "risk": 0.5, "low": 0.4, "high": 0.6},
                  {"score": 5, "risk": 0.95, "low": 0.9, "high": 0.98}]})


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
    # the model's own 95% interval of the risk at each score (every score here is at least 5)
    assert "the model's 95% interval" in page and "90.0% to 98.0%" in page


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


def test_a_target_of_three_values_trains_the_positive_against_the_rest_and_reports_on_the_same_file(
        cli, write, tmp_path):
    """Melanoma's status (1 died of melanoma, 2 alive, 3 died of other causes) with --positive 1:
    trained and reported on the file as exported, no column to make by hand."""
    rows = [f"{1 if t >= 4 else (3 if k % 5 == 0 else 2)},{t},{k % 2}" for k, t in enumerate([1, 2, 3, 4, 5, 6] * 10)]
    data = write("melanoma.csv", "status,thickness,ulcer\n" + "\n".join(rows) + "\n")
    model, page = tmp_path / "m.json", tmp_path / "report.html"
    run = cli("train", data, "--target", "status", "--positive", "1", "--c0", "0.01", "--work-limit", "1", "-o", model)
    assert run.code == 0, run.err
    assert ("note: target column 'status' holds 3 classes: '1' is the positive class and the other 2 ('3', '2') the "
            "negative one") in run.err
    fitted = json.loads(model.read_text())
    assert fitted["target"] == {"name": "status", "positive": 1, "rest": True}
    assert fitted["training"]["train_error"] == 0  # thickness >= 4 is status 1 exactly
    run = cli("report", model, "--data", data, "-o", page)
    assert run.code == 0, run.err
    assert "melanoma.csv (60 rows)" in page.read_text(encoding="utf-8")
    run = cli("train", data, "--target", "status", "-o", tmp_path / "none.json")
    assert_refused(run, "target column 'status' holds 3 classes ('3', '2', '1'); name the positive one with --positive "
                        "(--positive 3: '3' against the others, which are then the negative class)", tmp_path / "none.json")


def _with_site(breastcancer, write):
    """breastcancer.csv with a column 'site' (a, b, c in turn) beside its own columns."""
    lines = breastcancer.read_text().splitlines()
    return write("sites.csv", "\n".join([lines[0] + ",site"] + [f"{line},{'abc'[k % 3]}" for k, line in
                                                                  enumerate(lines[1:])]) + "\n")


def test_report_by_a_column_adds_a_table_of_its_groups(cli, model, write, breastcancer, tmp_path):
    data = _with_site(breastcancer, write)
    out = tmp_path / "report.html"
    run = cli("report", model, "--data", data, "--by", "site", "--by", "UniformityOfCellSize", "-o", out)
    assert run.code == 0, run.err
    page = out.read_text(encoding="utf-8")
    assert page.count("<h3>") == 3 and "<h3>site</h3>" in page and "<h3>site, UniformityOfCellSize</h3>" in page
    assert "all rows" in page and "too few rows" in page  # the combinations hold small groups
    out = tmp_path / "refused.html"
    assert_refused(cli("report", model, "--data", data, "--by", "hospital", "-o", out),
                   "sites.csv: no column 'hospital' to break the numbers down by (--by)", out)
    lines = breastcancer.read_text().splitlines()
    ids = write("ids.csv", "\n".join([lines[0] + ",id"] + [f"{line},{k}" for k, line in enumerate(lines[1:])]) + "\n")
    assert_refused(cli("report", model, "--data", ids, "--by", "id", "-o", out),
                   "ids.csv: column 'id' holds 683 values; --by takes a column of at most 30 groups", out)


def test_monitor_by_a_column_prints_one_line_per_group(cli, model, write, breastcancer, tmp_path):
    data = _with_site(breastcancer, write)
    out = tmp_path / "drift.html"
    run = cli("monitor", model, "--baseline", data, "--current", data, "--by", "site", "-o", out)
    assert run.code == 0, run.err
    page = out.read_text(encoding="utf-8")
    assert 'id="groups"' in page and page.count("<td>site = ") == 3
    groups = [line for line in run.out.splitlines() if line.startswith("by site = ")]
    assert [line.split(":")[0] for line in groups] == ["by site = a", "by site = b", "by site = c"]
    assert all("score PSI 0.000 (no shift)" in line and "; AUC " in line and "; Brier " in line for line in groups)
