"""The "unmet" missing-value policy in every code export: a missing value meets no condition
on its input (0 points) except that input's "unknown" (``missing``) term, so a row with gaps
still gets a score, the same in the runtime, the Python file, SQLite, DuckDB, PostgreSQL and
onnxruntime; only a missing input of a ``linear`` term leaves a row without a score.

Missing comes in every form each engine has: an absent key, None, '', blanks and NaN in
Python; NULL, NaN (DuckDB, PostgreSQL) and blank text in SQL; NaN and blank strings in ONNX.
"""
from __future__ import annotations

import csv
import math

import numpy as np
import pytest
from code_engines import call_export, onnx_results, run_python_export, run_sql
from code_models import with_golden
from scorecard.exporters import onnx as onnx_export
from scorecard.exporters import python as python_export
from scorecard.exporters import sql as sql_export
from scorecard.exporters.verify import verify
from scorecard.runtime import Input, Model, Target, Term, predict, score
from scorecard.runtime.score import is_missing
from test_code_exports import BATCH, same

NAN = math.nan


def conditions_model(kind: str = "linear") -> Model:
    """Thresholds on glu, a category, an ``in`` set (one of its categories blank, which a
    blank value must still not meet), "unknown" rows, and a binary input with none."""
    return Model(
        kind="linear", target=Target("diabetes", 1),
        inputs=(Input("glu", "numeric"), Input("bmi class", "categorical"), Input("pregnant", "binary")),
        terms=(Term("glu", ">=", 140, 4, "glu >= 140"), Term("glu", "<", 90, -2, "glu < 90"),
               Term("glu", "missing", None, 1, "glu unknown"),
               Term("bmi class", "==", "obese", 3, ""), Term("bmi class", "in", ("normal", " "), -1, ""),
               Term("bmi class", "missing", None, 2, "bmi class unknown"),
               Term("pregnant", "==", 1, 5, "")),
        intercept=-3, missing="unmet")


def linear_model() -> Model:
    """A linear glu term (a missing glu: no score) beside conditions (a missing one: 0 points)."""
    return Model(
        kind="linear", target=Target("diabetes", 1),
        inputs=(Input("glu", "numeric"), Input("bmi class", "categorical")),
        terms=(Term("glu", "linear", None, 0.05, "0.05 x glu"), Term("glu", ">=", 140, 1.5, "glu >= 140"),
               Term("bmi class", "==", "obese", 2, ""), Term("bmi class", "missing", None, 0.25, "")),
        intercept=-7.5, missing="unmet")


GLU = [150, 80, 100, None, NAN]  # every value a SQL engine can hold (NaN is NULL in SQLite)
BMI = ["obese", "normal", "over", None, "", "  ", "\t", " "]
PREGNANT = [1, 0, None]
# Rows as SQL holds them: every combination, so each missing form meets each other value.
SQL_ROWS = [(g, c, p) for g in GLU for c in BMI for p in PREGNANT]
PY_ONLY = ["", "  ", "\t\n"]  # a blank text in a numeric input: missing too, outside SQL


def as_row(t: tuple, names=("glu", "bmi class", "pregnant")) -> dict:
    return dict(zip(names, t))


def python_rows() -> list[dict]:
    """SQL's rows, plus absent keys and blank text in the numeric inputs."""
    rows = [as_row(t) for t in SQL_ROWS]
    rows += [{"bmi class": "obese"}, {"glu": 150}, {}, {"pregnant": 1}]
    rows += [{"glu": b, "bmi class": "obese", "pregnant": b} for b in PY_ONLY]
    return rows


def test_runtime_scores_every_missing_form_and_never_loses_the_row():
    m = conditions_model()
    assert score(m, {}) == 1 + 2  # nothing known: the "unknown" rows only
    assert score(m, {"glu": NAN, "bmi class": "  ", "pregnant": None}) == 3 and predict(m, {}) == 0
    assert score(m, {"glu": "", "bmi class": "obese", "pregnant": 1}) == 1 + 3 + 5 and m.threshold == 3  # predicts positive
    assert score(m, {"glu": 150, "bmi class": " ", "pregnant": ""}) == 4 + 2  # ' ' is blank: not "in"
    assert all(score(m, r) is not None for r in python_rows())


DOUBLE = {"sqlite": "REAL", "duckdb": "DOUBLE", "postgres": "DOUBLE PRECISION"}
TEXT = {"sqlite": "TEXT", "duckdb": "VARCHAR", "postgres": "TEXT"}
INT = {"sqlite": "INTEGER", "duckdb": "BIGINT", "postgres": "BIGINT"}


def load(eng: str, con, names: tuple, types: tuple, rows: list[tuple]) -> None:
    cols = ", ".join(f'"{n}" {t}' for n, t in zip(names, types))
    con.execute(f"CREATE TABLE input ({cols})")
    marks = ", ".join(["%s" if eng == "postgres" else "?"] * len(names))
    con.cursor().executemany(f"INSERT INTO input VALUES ({marks})", rows)


def test_sql_scores_missing_values_like_the_runtime(engine):
    """NULL, NaN (DuckDB and PostgreSQL, where NaN >= 140 would hold) and blank text."""
    eng, con = engine
    m = conditions_model()
    load(eng, con, ("glu", "bmi class", "pregnant"), (DOUBLE[eng], TEXT[eng], INT[eng]), SQL_ROWS)
    got = run_sql(eng, con, sql_export.render(m, dialect=eng))
    want = [(score(m, as_row(t)), predict(m, as_row(t))) for t in SQL_ROWS]
    assert [(g["score"], g["prediction"]) for g in got] == want
    assert None not in [w[0] for w in want] and len({w[0] for w in want}) > 5


def test_sql_linear_input_missing_is_null_and_a_missing_category_scores(engine):
    eng, con = engine
    m = linear_model()
    rows = [(g, c) for g in GLU for c in BMI]
    load(eng, con, ("glu", "bmi class"), (DOUBLE[eng], TEXT[eng]), rows)
    got = run_sql(eng, con, sql_export.render(m, dialect=eng))
    want = [(score(m, as_row(t)), predict(m, as_row(t))) for t in rows]
    assert [(g["score"], g["prediction"]) for g in got] == want
    assert [w[0] is None for w in want] == [is_missing(g) for g, _ in rows]  # no score exactly when glu is missing


def test_python_export_scores_missing_values_like_the_runtime(tmp_path):
    for m in (conditions_model(), linear_model()):
        path = tmp_path / "model.py"
        path.write_text(python_export.render(m), encoding="utf-8")
        rows = python_rows()
        want = [score(m, r) for r in rows]
        namespace: dict = {}
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
        assert same([namespace["score"](r) for r in rows], want)  # NaN rows too (JSON cannot carry NaN)
        assert [namespace["predict"](r) for r in rows] == [predict(m, r) for r in rows]
        json_rows = [r for r in rows if not any(isinstance(v, float) and math.isnan(v) for v in r.values())]
        batch = call_export(path, json_rows, BATCH)  # score_columns, score_rows, ... in a stdlib-only Python
        json_want = [score(m, r) for r in json_rows]
        for name in ("score_columns", "score_rows", "tuples", "one_by_one"):
            assert same(batch[name], json_want), name
        assert batch["predict_columns"] == [predict(m, r) for r in json_rows]


def test_python_export_on_a_csv_counts_only_rows_missing_a_linear_input(tmp_path):
    data = tmp_path / "data.csv"
    cells = [("120", "obese"), ("", "obese"), ("120", ""), ("  ", " "), ("150", "over")]
    with open(data, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([("glu", "bmi class"), *cells])
    m = linear_model()
    path = tmp_path / "model.py"
    path.write_text(python_export.render(m), encoding="utf-8")
    done = run_python_export(path, data)
    assert done.returncode == 0 and done.stderr.strip() == "2 of 5 rows have no score (missing values)"
    scored = [r["score"] for r in csv.DictReader(done.stdout.splitlines())]
    assert scored == ["" if (s := score(m, as_row(c, ("glu", "bmi class")))) is None else repr(s) for c in cells]


def onnx_feeds(rows: list[dict], numeric: tuple, categorical: tuple) -> dict:
    """NaN for a missing number; a missing text as '' (ONNX strings have no null) or its blank."""
    feeds = {}
    for name in numeric:
        values = [r.get(name) for r in rows]
        feeds[name] = np.array([NAN if is_missing(v) else float(v) for v in values], dtype=np.float64)
    for name in categorical:
        feeds[name] = np.array(["" if r.get(name) is None else r[name] for r in rows], dtype=object)
    return feeds


def test_onnx_scores_nan_and_blank_strings_like_the_runtime():
    rows = python_rows()
    m = conditions_model()
    got = onnx_results(onnx_export.render(m), onnx_feeds(rows, ("glu", "pregnant"), ("bmi class",)))
    assert got == [(score(m, r), predict(m, r)) for r in rows]
    assert all(s is not None for s, _ in got)
    m = linear_model()
    got = onnx_results(onnx_export.render(m), onnx_feeds(rows, ("glu",), ("bmi class",)))
    assert got == [(score(m, r), predict(m, r)) for r in rows]
    assert [s is None for s, _ in got] == [is_missing(r.get("glu")) for r in rows]


@pytest.mark.parametrize("build", [conditions_model, linear_model])
def test_verify_agrees_in_every_engine_on_rows_with_missing_values(build, pg_dsn):
    """Golden rows with blanks, checked by `scorecard verify` in python, SQLite, DuckDB,
    PostgreSQL, MariaDB, ClickHouse, Spark, onnxruntime (both input modes) and JPMML-Evaluator."""
    rows = [r for r in python_rows() if not any(isinstance(v, float) and math.isnan(v) for v in r.values())]
    model = build()
    names = [i.name for i in model.inputs]
    rows = [{k: v for k, v in r.items() if k in names} for r in rows]
    model = with_golden(model, rows[:40:3] + rows[-7:])
    assert any(is_missing(v) for g in model.golden for v in g.row.values())
    checks = verify(model, rows, pg_dsn=pg_dsn)
    # the card, every export as written, then with its reason codes (--explain); PMML carries its own
    assert [(c.format, c.ok) for c in checks] == [("model", True), ("card", True)] + [
        ("python", True), ("sql", True), ("sql", True), ("sql", True), ("sql", True), ("sql", True), ("sql", True),
        ("onnx", True), ("onnx", True)] * 2 + [
        ("pmml", True)] + [("sql", None)] * 4, \
        [c.line() for c in checks]
