"""An unscorable row is never a silent negative: NULL in gives NULL out in SQL, None in Python,
NaN in ONNX; an imputing model uses its stated value in every engine.

The rows below would all score negative (prediction 0) if a missing value were read as 0.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from code_engines import onnx_results, run_sql
from code_models import breastcancer_model, mushroom_model, read_rows, with_golden
from scorecard.exporters import onnx as onnx_export
from scorecard.exporters import python as python_export
from scorecard.exporters import sql as sql_export
from scorecard.exporters.verify import NO_ENGINE, verify
from scorecard.runtime import Model, predict, score
from scorecard.runtime.score import is_missing

# (UniformityOfCellSize, BareNuclei): the first three cannot be scored, the last two can.
ROWS = [(3, None), (None, 1), (None, None), (1, 1), (5, 2)]
WANT = [(score(breastcancer_model(), {"UniformityOfCellSize": a, "BareNuclei": b}),
         predict(breastcancer_model(), {"UniformityOfCellSize": a, "BareNuclei": b})) for a, b in ROWS]
assert WANT[:3] == [(None, None)] * 3 and [p for _, p in WANT[3:]] == [0, 1]
DOUBLE = {"sqlite": "REAL", "duckdb": "DOUBLE", "postgres": "DOUBLE PRECISION"}


def test_sql_null_in_is_null_out(engine):
    eng, con = engine
    con.execute(f'CREATE TABLE input ("UniformityOfCellSize" BIGINT, "BareNuclei" {DOUBLE[eng]})')
    con.cursor().executemany("INSERT INTO input VALUES (%s, %s)" if eng == "postgres" else "INSERT INTO input VALUES (?, ?)", ROWS)
    got = run_sql(eng, con, sql_export.render(breastcancer_model(), dialect=eng))
    assert [(g["score"], g["prediction"]) for g in got] == WANT


@pytest.mark.parametrize("eng", ["duckdb", "postgres"])
def test_sql_nan_is_missing_where_the_engine_has_nan(eng, request):
    con = request.getfixturevalue(f"{eng}_con")
    con.execute('CREATE TABLE input ("UniformityOfCellSize" DOUBLE PRECISION, "BareNuclei" DOUBLE PRECISION)')
    con.execute("INSERT INTO input VALUES (CAST('NaN' AS DOUBLE PRECISION), 1), (2, 1)")
    got = run_sql(eng, con, sql_export.render(breastcancer_model(), dialect=eng))
    assert [(g["score"], g["prediction"]) for g in got] == [(None, None), (score(breastcancer_model(), {"UniformityOfCellSize": 2, "BareNuclei": 1}), 0)]



@pytest.mark.parametrize("kind", ["REAL", "DOUBLE", "BIGINT", "INTEGER", "DECIMAL(9, 2)"])
def test_duckdb_tests_nan_in_float_columns_only(kind, duckdb_con):
    """The DuckDB query asks for NaN only where the column's type holds one (its type is known
    when DuckDB plans the query): a NaN in a REAL or DOUBLE column is still a missing value, and
    a query over integer or DECIMAL columns, which hold no NaN, runs and scores."""
    con = duckdb_con
    con.execute(f'CREATE TABLE input ("UniformityOfCellSize" {kind}, "BareNuclei" DOUBLE)')
    con.execute("INSERT INTO input VALUES (2, 1), (5, 2), (NULL, 1)")
    if kind in ("REAL", "DOUBLE"):
        con.execute("INSERT INTO input VALUES (CAST('NaN' AS DOUBLE), 1)")
    got = run_sql("duckdb", con, sql_export.render(breastcancer_model(), dialect="duckdb"))
    want = [(score(breastcancer_model(), {"UniformityOfCellSize": a, "BareNuclei": b}),
             predict(breastcancer_model(), {"UniformityOfCellSize": a, "BareNuclei": b})) for a, b in ((2, 1), (5, 2))]
    assert [(g["score"], g["prediction"]) for g in got] == want + [(None, None)] * (len(got) - 2)
    assert len(got) == (4 if kind in ("REAL", "DOUBLE") else 3)

COLUMNS = ("odor", "spore_print_color", "stalk_root", "gill_size")
# Every text str.strip() empties is blank to the runtime: tabs, line breaks, no-break spaces.
BLANKS = [None, "", "  ", "\t", " \r\n", "\x0b\x1c", "\xa0\u2003\u3000"]


def test_blanks_are_missing_to_the_runtime():
    assert all(is_missing(b) for b in BLANKS) and not is_missing("\u200b")  # a zero-width space is text


def test_sql_blank_category_is_missing(engine):
    eng, con = engine
    con.execute('CREATE TABLE input (odor TEXT, spore_print_color TEXT, stalk_root TEXT, gill_size TEXT)')
    blanks = BLANKS
    rows = [("none", "white", b, "broad") for b in blanks] + [("none", "white", "club", "broad"),
                                                               ("none", "white", "\tclub", "broad")]
    con.cursor().executemany("INSERT INTO input VALUES (%s, %s, %s, %s)" if eng == "postgres"
                             else "INSERT INTO input VALUES (?, ?, ?, ?)", rows)
    got = run_sql(eng, con, sql_export.render(mushroom_model(), dialect=eng))
    assert [(g["score"], g["prediction"]) for g in got] == [(None, None)] * len(blanks) + [
        (score(mushroom_model(), dict(zip(COLUMNS, r))), 0) for r in rows[-2:]]
    assert got[-1]["score"] != got[-2]["score"]  # "\tclub" is not "club"
    assert [score(mushroom_model(), dict(zip(COLUMNS, r))) for r in rows] == [g["score"] for g in got]


def test_python_missing_is_none(tmp_path):
    namespace: dict = {}
    exec(compile(python_export.render(breastcancer_model()), "model.py", "exec"), namespace)
    for value in (None, "", "  ", math.nan):
        row = {"UniformityOfCellSize": 3, "BareNuclei": value}
        assert namespace["score"](row) is None and namespace["predict"](row) is None
    assert namespace["score"]({"UniformityOfCellSize": 3}) is None  # absent key
    assert [namespace["score"]({"UniformityOfCellSize": a, "BareNuclei": b}) for a, b in ROWS] == [w[0] for w in WANT]


def test_onnx_missing_is_nan():
    feeds = {"UniformityOfCellSize": np.array([np.nan if a is None else a for a, _ in ROWS], dtype=np.float64),
             "BareNuclei": np.array([np.nan if b is None else b for _, b in ROWS], dtype=np.float64)}
    assert onnx_results(onnx_export.render(breastcancer_model()), feeds) == WANT
    roots = BLANKS[1:] + ["club", "\tclub"]  # every blank text, then two categories
    feeds = {"odor": np.array(["none"] * len(roots), dtype=object),
             "spore_print_color": np.array(["white"] * len(roots), dtype=object),
             "stalk_root": np.array(roots, dtype=object), "gill_size": np.array(["broad"] * len(roots), dtype=object)}
    got = onnx_results(onnx_export.render(mushroom_model()), feeds)
    assert got[:len(BLANKS) - 1] == [(None, None)] * (len(BLANKS) - 1) and [p for _, p in got[-2:]] == [0, 0]
    assert [g[0] for g in got] == [score(mushroom_model(), {c: feeds[c][k] for c in COLUMNS}) for k in range(len(roots))]


def numeric_impute() -> Model:
    base = breastcancer_model()
    return Model(kind=base.kind, target=base.target, inputs=base.inputs, terms=base.terms, intercept=base.intercept,
                 missing={"impute": {"BareNuclei": 1.0}})


def test_imputed_values_agree_in_every_engine(pg_dsn):
    """Blank BareNuclei (every 7th row) takes the stated 1; blank stalk_root takes 'bulbous'."""
    cells = read_rows("breastcancer.csv")
    for k in range(0, len(cells), 7):
        cells[k] = {**cells[k], "BareNuclei": ""}
    mushrooms = read_rows("mushroom_raw.csv")
    mushrooms = [r for r in mushrooms if r["stalk_root"] == ""][:400] + [r for r in mushrooms if r["stalk_root"]][:400]
    for model, data, column in ((with_golden(numeric_impute(), cells[:5]), cells, "BareNuclei"),
                                (mushroom_model({"impute": {"stalk_root": "bulbous"}}), mushrooms, "stalk_root")):
        checks = [c for c in verify(model, data, pg_dsn=pg_dsn) if c.reason != NO_ENGINE]
        assert all(c.ok for c in checks), [c.line() for c in checks]
        assert all(score(model, r) is not None for r in data if r[column] == "")
    assert predict(numeric_impute(), {"UniformityOfCellSize": 4, "BareNuclei": ""}) == 1  # 8 + 1 - 8 > 0
