"""Reason codes on the command line: ``predict --explain K``, the same columns from the
exported Python and SQL, and ``verify`` checking them."""
from __future__ import annotations

import csv
import sqlite3
import subprocess
import sys

from scorecard.runtime import Input, Model, Target, Term, dump, explain

ROWS = [{"glu": "150", "bmi": "obese", "age": "61"}, {"glu": "", "bmi": "normal", "age": "30"},
        {"glu": "95", "bmi": "", "age": "70"}, {"glu": "80", "bmi": "normal", "age": "20"}]


def _model() -> Model:
    return Model("linear", Target("diabetes", 1),
                 (Input("glu", "numeric"), Input("bmi", "categorical"), Input("age", "numeric")),
                 (Term("glu", ">=", 140, 3, "glucose 140 or more"), Term("bmi", "==", "obese", 3, ""),
                  Term("glu", "missing", None, 1, ""), Term("age", ">=", 60, 2, "age 60 or more"),
                  Term("bmi", "==", "normal", -2, "")),
                 -4, missing="unmet")


def _files(tmp_path):
    path, data = tmp_path / "m.json", tmp_path / "d.csv"
    dump(_model(), str(path))
    with open(data, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(ROWS[0]))
        writer.writeheader()
        writer.writerows(ROWS)
    return path, data


def _reasons(rows: list[dict], k: int) -> list[list[str]]:
    """The runtime's reason columns as CSV cells."""
    out = []
    for row in rows:
        found = explain(_model(), row, k) or []
        pad = [""] * (k - len(found))
        out.append([r.text for r in found] + pad + [str(r.points) for r in found] + pad)
    return out


def test_predict_explain_adds_k_reason_and_points_columns(cli, tmp_path):
    path, data = _files(tmp_path)
    out = tmp_path / "o.csv"
    assert cli("predict", path, data, "--explain", 2, "-o", out).code == 0
    lines = list(csv.reader(out.open()))
    assert lines[0][-4:] == ["reason_1", "reason_2", "points_1", "points_2"]
    assert [line[-4:] for line in lines[1:]] == _reasons(ROWS, 2)
    assert lines[1][-4:] == ["glucose 140 or more", "bmi = obese", "3", "3"]  # ties in card order
    assert lines[2][-4:] == ["glu unknown", "", "1", ""]  # a blank glucose meets its unknown row


def test_the_exported_python_and_the_bare_runtime_write_the_same_reason_columns(cli, tmp_path):
    path, data = _files(tmp_path)
    out, py = tmp_path / "o.csv", tmp_path / "m.py"
    assert cli("predict", path, data, "--explain", 3, "-o", out).code == 0
    assert cli("export", path, "--format", "python", "-o", py).code == 0
    exported = subprocess.run([sys.executable, "-I", "-S", str(py), str(data), "--explain", "3"],
                              capture_output=True, text=True, check=True)
    runtime = subprocess.run([sys.executable, "-m", "scorecard.runtime", str(path), str(data), "--explain", "3"],
                             capture_output=True, text=True, check=True)
    assert exported.stdout == runtime.stdout == out.read_text()


def test_the_sqlite_query_with_explain_returns_the_same_reasons(cli, tmp_path):
    path, _ = _files(tmp_path)
    query = tmp_path / "q.sql"
    assert cli("export", path, "--format", "sql", "--dialect", "sqlite", "--explain", 2, "-o", query).code == 0
    con = sqlite3.connect(":memory:")
    con.execute('CREATE TABLE "input" (glu INTEGER, bmi TEXT, age INTEGER)')
    con.executemany('INSERT INTO "input" VALUES (?, ?, ?)',
                    [(int(r["glu"]) if r["glu"] else None, r["bmi"], int(r["age"])) for r in ROWS])
    got = con.execute(query.read_text()).fetchall()
    assert [["" if v is None else str(v) for v in row[-4:]] for row in got] == _reasons(ROWS, 2)


def test_explain_errors_are_one_line_with_exit_2(cli, tmp_path):
    path, data = _files(tmp_path)
    run = cli("predict", path, data, "--explain", 0)
    assert run.code == 2 and run.err == "error: --explain: the number of reasons must be a whole number of at least 1, got 0\n"
    clash = tmp_path / "clash.csv"
    clash.write_text("glu,bmi,age,reason_1\n150,obese,61,x\n")
    run = cli("predict", path, clash, "--explain", 1)
    assert run.code == 2 and "already has a column 'reason_1'" in run.err
    run = cli("export", path, "--format", "python", "--explain", 2, "-o", tmp_path / "m.py")
    assert run.code == 2 and "--explain does not apply to --format python" in run.err
    assert not (tmp_path / "m.py").exists()


def test_verify_checks_the_reason_codes_of_every_export(cli, tmp_path):
    path, data = _files(tmp_path)
    run = cli("verify", path, "--data", data)
    assert run.code == 0
    explained = [line for line in run.out.splitlines() if "--explain 5" in line]
    assert {line.split()[0] for line in explained} == {"python", "sql", "onnx"}
    assert all("identical reasons" in line or "not run" in line for line in explained)
