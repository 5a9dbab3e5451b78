"""Hostile column and category names: the code exports stay correct and run no injected code.

Names try to close SQL identifiers and strings, break out of Python string literals and
comments, carry HTML and LaTeX specials, and non-ASCII text; categories hold quotes and
backslashes (PostgreSQL is run with standard_conforming_strings both on and off).
"""
from __future__ import annotations

import csv
import io
import math

import numpy as np
import pytest
from code_engines import (
    import_and_score,
    onnx_results,
    quote,
    run_python_export,
    run_sql,
)
from code_models import with_golden
from scorecard.exporters import onnx as onnx_export
from scorecard.exporters import python as python_export
from scorecard.exporters import sql as sql_export
from scorecard.exporters.verify import verify
from scorecard.runtime import Input, Model, Target, Term, predict, score
from test_code_exports import batch_scores, same

SQLI = 'Uniformity "Size"; DROP TABLE input; --'
SCRIPT = "<script>alert('x')</script>"
LATEX = "% & $ # _ { } ~ ^ \\"
PYI = 'x"); import os; os.system("touch PWNED"); #'
PYI2 = "'''\"\"\"\nimport os; os.system('touch PWNED')\n#"
NONASCII = "Größe (cm²) 名前 🙂"
CAT = "côté'\"\\ ; DROP TABLE input; --"
CATEGORIES = ("it's", 'say "hi"', "back\\slash", "ends\\", "\\'; DROP TABLE input; --", "naïve 猫", "")


def hostile_model() -> Model:
    model = Model(
        kind="linear", target=Target("out\ncome\"'", "yes'\n"),
        inputs=(Input(SQLI, "numeric"), Input(SCRIPT, "numeric"), Input(LATEX, "binary"),
                Input(PYI, "numeric"), Input(PYI2, "numeric"), Input(NONASCII, "numeric"),
                Input(CAT, "categorical", CATEGORIES[:-1])),
        terms=(Term(SQLI, "linear", None, 2, "2 x size\n--\nimport os; os.system('touch PWNED')"),
               Term(SCRIPT, ">=", 3, -1, "*/ DROP TABLE input; /*"),
               Term(LATEX, "==", 1, 4, LATEX),
               Term(PYI, "<", 2.5, 0.5, PYI),
               Term(PYI2, "linear", None, -0.25, PYI2),
               Term(NONASCII, "linear", None, 1, NONASCII),
               Term(CAT, "==", "it's", 3, CAT),
               Term(CAT, "in", ('say "hi"', "back\\slash", "ends\\"), -2, "quotes"),
               Term(CAT, "==", "\\'; DROP TABLE input; --", 7, "sneaky")),
        intercept=-3)
    return with_golden(model, hostile_rows()[:6])


def hostile_rows() -> list[dict]:
    rows = []
    for k in range(24):
        rows.append({SQLI: str(k % 5), SCRIPT: str(k % 4), LATEX: str(k % 2), PYI: str(k % 3 + 0.5 * (k % 2)),
                     PYI2: str(k % 7), NONASCII: str(k % 3), CAT: CATEGORIES[k % len(CATEGORIES)]})
    rows[5][SQLI] = ""  # a missing number among the hostile names
    return rows


def typed_rows() -> list[dict]:
    """The rows as a database holds them: numbers, text, NULL for blanks."""
    out = []
    for r in hostile_rows():
        out.append({k: (None if v == "" else v if k == CAT else float(v) if "." in v else int(v)) for k, v in r.items()})
    return out


TYPES = {"sqlite": ("REAL", "TEXT"), "duckdb": ("DOUBLE", "VARCHAR"), "postgres": ("DOUBLE PRECISION", "TEXT")}


def load(eng, con, rows) -> None:
    number, text = TYPES[eng]
    names = list(rows[0])
    cols = ", ".join(f"{quote(n)} {text if n == CAT else number}" for n in names)
    con.execute(f"CREATE TABLE input ({cols})")
    marks = ", ".join(["%s" if eng == "postgres" else "?"] * len(names))
    con.cursor().executemany(f"INSERT INTO input VALUES ({marks})", [tuple(r[n] for n in names) for r in rows])


def test_hostile_names_in_sql_score_correctly_and_leave_the_table_alone(engine):
    eng, con = engine
    model, rows = hostile_model(), typed_rows()
    load(eng, con, rows)
    query = sql_export.render(model, dialect=eng)
    got = run_sql(eng, con, query)
    assert [(g["score"], g["prediction"]) for g in got] == [(score(model, r), predict(model, r)) for r in rows]
    assert run_sql(eng, con, "SELECT COUNT(*) AS n FROM input") == [{"n": len(rows)}]
    if eng == "postgres":  # the old escaping mode reads backslashes in '...' as escapes
        con.execute("SET standard_conforming_strings = off")
        con.execute("SET escape_string_warning = off")
        again = run_sql(eng, con, query)
        assert [(g["score"], g["prediction"]) for g in again] == [(g["score"], g["prediction"]) for g in got]
        assert run_sql(eng, con, "SELECT COUNT(*) AS n FROM input") == [{"n": len(rows)}]


def test_hostile_names_in_python_run_no_injected_code(tmp_path):
    model = hostile_model()
    path = tmp_path / "model.py"
    path.write_text(python_export.render(model), encoding="utf-8")
    data = tmp_path / "data.csv"
    rows = hostile_rows()
    with open(data, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    done = run_python_export(path, data)
    assert done.returncode == 0, done.stderr
    scored = list(csv.DictReader(io.StringIO(done.stdout)))
    assert list(scored[0])[:-2] == list(rows[0])
    want = [(score(model, r), predict(model, r)) for r in rows]
    assert [(s["score"], s["prediction"]) for s in scored] == [
        ("" if s is None else repr(s) if isinstance(s, float) else str(s), "" if p is None else str(p)) for s, p in want]
    assert import_and_score(path, typed_rows()) == want
    batch = batch_scores(path, typed_rows())  # score_columns and friends, by the same names
    assert same(batch["score_columns"], [s for s, _ in want]) and same(batch["score_rows"], [s for s, _ in want])
    assert batch["predict_columns"] == [p for _, p in want]
    assert not (tmp_path / "PWNED").exists()


def test_hostile_names_are_onnx_input_names():
    model = hostile_model()
    rows = hostile_rows()
    feeds = {}
    for inp in model.inputs:
        if inp.type == "categorical":
            feeds[inp.name] = np.array([r[inp.name] for r in rows], dtype=object)
        else:
            feeds[inp.name] = np.array([float(r[inp.name]) if r[inp.name] else math.nan for r in rows])
    assert onnx_results(onnx_export.render(model), feeds) == [(score(model, r), predict(model, r)) for r in rows]


def test_verify_passes_on_hostile_names(pg_dsn):
    checks = verify(hostile_model(), hostile_rows(), pg_dsn=pg_dsn)
    # the card, every export as written, then with its reason codes (--explain); PMML carries its own;
    # MariaDB refuses the name with an emoji (its names stop at U+FFFF): not run, with the reason
    # (tests/exporters/test_sql_engines.py runs the same model without the emoji there)
    assert [(c.format, c.ok) for c in checks] == [("model", True), ("card", True)] + [
        ("python", True), ("sql", True), ("sql", True), ("sql", True), ("sql", None), ("sql", True), ("sql", True),
        ("onnx", True), ("onnx", True)] * 2 + [
        ("pmml", True)] + [("sql", None)] * 4, \
        [c.line() for c in checks]
    assert all("U+1F642" in c.reason for c in checks if c.engine.startswith("mysql"))


@pytest.mark.parametrize("dialect", ["sqlite", "duckdb", "postgres", "ansi"])
def test_sql_text_holds_names_only_as_quoted_identifiers_and_literals(dialect):
    text = sql_export.render(hostile_model(), dialect=dialect)
    assert '"Uniformity ""Size""; DROP TABLE input; --"' in text
    assert "-- 2 x size\\n--\\nimport os" in text  # a label's newlines are escaped inside its comment


# Issue 12, item 3: bidirectional controls and invisible characters in names and categories.
BIDI_INPUT = "colo\u202dur"
BIDI_CATEGORY = "\u202eder"  # shows as "red" where printed raw


def bidi_model() -> Model:
    model = Model(kind="linear", target=Target("y\u2067", 1),
                  inputs=(Input(BIDI_INPUT, "categorical", (BIDI_CATEGORY, "blue")), Input("a\u200bge", "numeric")),
                  terms=(Term(BIDI_INPUT, "==", BIDI_CATEGORY, 2, f"{BIDI_INPUT} = {BIDI_CATEGORY}"),
                         Term("a\u200bge", "linear", None, 1, "a\u200bge")),
                  intercept=-3)
    return with_golden(model, [{BIDI_INPUT: BIDI_CATEGORY, "a\u200bge": 2}, {BIDI_INPUT: "der", "a\u200bge": 2}])


def _comments(text: str) -> str:
    return "\n".join(line[line.index("--"):] for line in text.splitlines() if "--" in line)


def test_sql_keeps_bidi_names_exact_for_the_engine_and_escaped_for_the_reader(engine):
    eng, con = engine
    model = bidi_model()
    rows = [{BIDI_INPUT: c, "a\u200bge": 2} for c in (BIDI_CATEGORY, "der", "red", "blue")]
    con.execute(f"CREATE TABLE input ({quote(BIDI_INPUT)} {TYPES[eng][1]}, {quote('a' + chr(0x200b) + 'ge')} "
                f"{TYPES[eng][0]})")
    con.cursor().executemany(f"INSERT INTO input VALUES ({', '.join(['%s' if eng == 'postgres' else '?'] * 2)})",
                             [(r[BIDI_INPUT], r["a\u200bge"]) for r in rows])
    query = sql_export.render(model, dialect=eng)
    got = run_sql(eng, con, query)
    assert [(g["score"], g["prediction"]) for g in got] == [(score(model, r), predict(model, r)) for r in rows]
    assert [g["prediction"] for g in got] == [1, 0, 0, 0]  # only the exact category matches
    comments = _comments(query)
    assert not any(c in comments for c in "\u202d\u202e\u200b\u2067")  # every comment reads as stored
    assert "colo\\u202dur = \\u202eder" in comments  # the term's label
    # the header names the identifiers and literals that hold invisible characters, escaped
    assert "'colo\\u202dur'" in comments and "'\\u202eder'" in comments and "'a\\u200bge'" in comments


def test_python_writes_bidi_names_as_escapes_that_hold_the_exact_value(tmp_path):
    model = bidi_model()
    path = tmp_path / "model.py"
    path.write_text(python_export.render(model), encoding="utf-8")
    source = path.read_text(encoding="utf-8")
    assert not any(c in source for c in "\u202d\u202e\u200b\u2067")
    assert "'\\u202eder'" in source
    rows = [{BIDI_INPUT: c, "a\u200bge": 2} for c in (BIDI_CATEGORY, "der")]
    assert import_and_score(path, rows) == [(score(model, r), predict(model, r)) for r in rows]
    assert [p for _, p in import_and_score(path, rows)] == [1, 0]
