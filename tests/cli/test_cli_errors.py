"""Every bad input ends in exit 2, one line on stderr naming the problem, and no output file."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scorecard.runtime import Input, Model, Target, Term, dump

GOOD = "y,a,b\n1,1,0\n0,2,1\n1,3,0\n0,4,1\n"

BAD_DATA = [
    ("", "the file is empty"),
    ("y,a\n", "no data rows"),
    ("y,a\n1\n0,2\n", "line 2 has 1 cells, the header has 2"),
    ("y,a,a\n1,1,2\n0,2,3\n", "column 'a' appears twice"),
    ("y,a\n1,1\n0,inf\n", "column 'a' holds 'inf' on line 3"),
    ("y,a\n1,1\n1,2\n", "one class only"),
    ("y,a\n1,1\n0,2\n2,3\n", "3 classes"),
    ("y,a\nsick,1\nwell,2\n", "say which is positive with --positive sick or --positive well"),
    ("y,a\n1,1\n,2\n0,3\n", "target column 'y' has 1 missing values"),
    ("y\n1\n0\n", "no feature columns"),
    # saved as "CSV" by Excel in a locale with decimal commas, or as tab-separated text
    ("y;a;b\n1;1,5;0\n0;2,5;1\n", "the header is one column, 'y;a;b': the file seems separated by semicolons; "
                                   "scorecard reads comma-separated files"),
    ("y\ta\tb\n1\t1.5\t0\n0\t2.5\t1\n", "the header is one column, 'y\\ta\\tb': the file seems separated by tabs"),
]


def assert_refused(run, message, *outputs):
    assert run.code == 2, run.err
    assert run.err.startswith("error: ") and run.err.count("\n") == 1, run.err
    assert message in run.err and "Traceback" not in run.err
    for path in outputs:
        assert not path.exists(), f"{path} was left behind"


@pytest.mark.parametrize("text, message", BAD_DATA)
def test_bad_training_data(cli, write, tmp_path, text, message):
    data = write("d.csv", text)
    out = tmp_path / "m.json"
    assert_refused(cli("train", data, "--target", "y", "-o", out), message, out)


def test_missing_null_refuses_empty_cells_as_before(cli, write, tmp_path):
    data = write("d.csv", "y,a\n1,1\n0,\n")
    out = tmp_path / "m.json"
    assert_refused(cli("train", data, "--target", "y", "--missing", "null", "-o", out),
                   "column 'a' has 1 missing values; use --missing drop to drop those rows or --missing impute "
                   "to fill them", out)


@pytest.mark.parametrize("args, message", [
    (("--target", "Y"), "no column 'Y'; did you mean 'y'"),
    (("--target", "y", "--positive", "7"), "--positive '7' is not a value of column 'y'"),
    (("--target", "y", "--c0", "-1"), "--c0: -1.0 is not valid"),
    (("--target", "y", "--time-limit", "0"), "--time-limit: 0.0 is not valid"),
    (("--target", "y", "--model", "forest"), "--model: 'forest' is not valid; use one of slim"),
    (("--target", "y", "--coef-min", "5", "--coef-max", "1"), "--coef-min/--coef-max: (5, 1)"),
    (("--target", "y", "--coef-set", "1,x"), "--coef-set: 'x' in '1,x' is not a number"),
    (("--target", "y", "--sign", "a"), "--sign: 'a' is not COL=+ or COL=-"),
    (("--target", "y", "--sign", "a=up"), "--sign: 'a=up' is not valid"),
    (("--target", "y", "--max-fpr", "1.5"), "--max-fpr: 1.5 is not valid"),
    (("--target", "y", "--missing", "zero"), "--missing: 'zero' is not valid"),
    (("--target", "y", "--c0", "abc"), "--c0: 'abc' is not a number"),
    (("--target", "y", "--c0", "-1"), "--c0: -1.0 is not valid; use a number >= 0 (e.g. 0.01) or auto"),
    (("--target", "y", "--bogus"), "No such option: --bogus"),
    ((), "missing option '--target'"),
])
def test_bad_options(cli, write, tmp_path, args, message):
    data = write("d.csv", GOOD)
    out = tmp_path / "m.json"
    assert_refused(cli("train", data, "-o", out, *args), message, out)


def test_missing_data_file(cli, tmp_path):
    out = tmp_path / "m.json"
    assert_refused(cli("train", tmp_path / "none.csv", "--target", "y", "-o", out), "none.csv: no such file", out)


def test_bad_config_file(cli, write, tmp_path):
    data = write("d.csv", GOOD)
    config = write("c.toml", "c0 = 0.1\ntime_limt = 5\n")
    out = tmp_path / "m.json"
    assert_refused(cli("train", data, "--target", "y", "--config", config, "-o", out),
                   "unknown option 'time_limt'; did you mean 'time_limit'", out)
    config = write("c2.toml", "c0 = -3\n")
    assert_refused(cli("train", data, "--target", "y", "--config", config, "-o", out), "--c0: -3", out)


@pytest.fixture
def model_file(tmp_path):
    path = tmp_path / "model.json"
    dump(Model("linear", Target("y", 1), (Input("a", "numeric"),), (Term("a", "linear", None, 2, "a"),), -5),
         str(path))
    return path


def test_a_semicolon_separated_file_is_refused_by_every_command_that_reads_data(cli, write, model_file, tmp_path):
    data = write("eu.csv", "y;a;b\n1;1,5;0\n0;2,5;1\n")
    out = tmp_path / "p.csv"
    for args in (("predict", model_file, data, "-o", out), ("verify", model_file, "--data", data),
                 ("cv", data, "--target", "y")):
        assert_refused(cli(*args), "eu.csv: the header is one column, 'y;a;b': the file seems separated by semicolons", out)


def test_one_column_named_with_a_semicolon_among_others_is_read_as_it_is(cli, write, tmp_path):
    data = write("d.csv", "y,\"a;b\"\n1,1\n0,2\n1,3\n0,4\n")
    run = cli("train", data, "--target", "y", "--c0", "0.01", "-o", tmp_path / "m.json")
    assert run.code == 0, run.err


def test_predict_needs_the_model_columns(cli, write, model_file, tmp_path):
    data = write("d.csv", "b\n1\n")
    out = tmp_path / "o.csv"
    assert_refused(cli("predict", model_file, data, "-o", out), "the model needs column 'a', which the data lacks", out)
    data = write("e.csv", "a\n1\nx\n")
    assert_refused(cli("predict", model_file, data, "-o", out), "line 3: column 'a': 'x' is not a number", out)


def test_export_refuses_unknown_formats_and_options(cli, model_file, tmp_path):
    out = tmp_path / "m.out"
    assert_refused(cli("export", model_file, "--format", "pdff", "-o", out), "unknown export format 'pdff'", out)
    assert_refused(cli("export", model_file, "--format", "html", "--dialect", "sqlite", "-o", out),
                   "--dialect does not apply to --format html", out)
    assert_refused(cli("export", model_file, "--format", "sql", "--onnx-input", "matrix", "-o", out),
                   "--onnx-input does not apply to --format sql", out)
    assert_refused(cli("export", model_file, "--format", "onnx", "--onnx-input", "rows", "-o", out),
                   "--onnx-input must be one of columns, matrix, got 'rows'", out)


def test_a_model_pmml_cannot_hold_is_exit_2_with_the_reason(cli, tmp_path):
    path, out = tmp_path / "empty.json", tmp_path / "m.pmml"
    dump(Model("linear", Target("y", 1), (Input("a", "numeric"),), (), 1), str(path))
    assert_refused(cli("export", path, "--format", "pmml", "-o", out),
                   "a PMML Scorecard needs at least one Characteristic, and this model has no terms", out)


def test_output_into_a_missing_folder(cli, model_file, write, tmp_path):
    data = write("d.csv", "a\n1\n")
    out = tmp_path / "no" / "o.csv"
    assert_refused(cli("predict", model_file, data, "-o", out), "no such folder", out)


def test_the_installed_command_prints_one_line_too(tmp_path):
    scorecard = str(Path(sys.executable).with_name("scorecard"))
    done = subprocess.run([scorecard, "train", str(tmp_path / "none.csv"), "--target", "y", "-o",
                           str(tmp_path / "m.json")], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "no such file" in done.stderr
    done = subprocess.run([scorecard, "trian"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "trian" in done.stderr
    corrupt = tmp_path / "m.json"
    corrupt.write_text("{", encoding="utf-8")
    done = subprocess.run([scorecard, "show", str(corrupt)], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "not valid JSON" in done.stderr


@pytest.mark.parametrize("args, message", [
    (("--folds", "3"), "--folds: 3 is not valid; use 2..2"),
    (("--c0-grid", "0.1,-1"), "--c0: -1 is not valid"),
    (("--c0-grid", "0.1,,"), "--c0-grid: '' in '0.1,,' is not a number"),
])
def test_bad_cv_options_fail_before_any_solving(cli, write, tmp_path, args, message):
    data = write("d.csv", GOOD)
    out, plot = tmp_path / "cv.csv", tmp_path / "cv.svg"
    assert_refused(cli("cv", data, "--target", "y", "-o", out, "--plot", plot, *args), message, out, plot)

