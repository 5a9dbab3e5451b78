"""Reason codes agree everywhere: the runtime, the Python file, SQLite, DuckDB, PostgreSQL
and onnxruntime give every row the same reason_1..reason_K and points_1..points_K, on every
row of the test data sets (missing values among them), on hostile names and on ties."""
from __future__ import annotations

import sqlite3

import paper_models
import pytest
from code_engines import create_table, run_sql
from code_models import CASES, case_rows
from scorecard.exporters import onnx as onnx_export
from scorecard.exporters import sql as sql_export
from scorecard.exporters import verify as v
from scorecard.runtime import ExportError, Input, Model, Target, Term, explain
from scorecard.runtime.explain import reason_columns

CHECKS = {"python": v.check_python, "sqlite": v.check_sqlite, "duckdb": v.check_duckdb, "onnx": v.check_onnx}


def _agree_everywhere(model: Model, rows: list[dict], pg_dsn: str, postgres: bool = True) -> None:
    """Every engine gives the runtime's reasons; ``postgres`` False: PostgreSQL refuses the
    model's names (over its 63 bytes), a skip that says so."""
    k = v.reasons_for(model)
    cases = v.cases_for(model, rows, k)
    checks = [check(model, cases, reasons=k) for check in CHECKS.values()]
    assert [(c.ok, c.rows) for c in checks] == [(True, len(cases))] * 4, [c.line() for c in checks]
    check = v.check_postgres(model, cases, pg_dsn, reasons=k)
    if postgres:
        assert (check.ok, check.rows) == (True, len(cases)), check.line()
    else:
        assert check.ok is None and "63 bytes" in check.reason


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_row_of_every_data_set_gets_the_same_reasons(name, pg_dsn):
    build, data = CASES[name]
    model = build()
    rows = case_rows(model, data)
    cases = v.cases_for(model, rows, v.reasons_for(model))
    assert any(c.reasons[0] is not None for c in cases)  # reasons to compare
    _agree_everywhere(model, rows, pg_dsn)


HOSTILE_ROWS = [{f"num{paper_models.HOSTILE}": n, f"cat{paper_models.HOSTILE}": c}
                for n in (None, "", 0, 1, 2.5, 3, 40) for c in (None, " ", "b", f"v{paper_models.HOSTILE}")]


@pytest.mark.parametrize("name,rows", [
    ("hostile", HOSTILE_ROWS), ("diabetes_unmet", []), ("glucose_linear_unmet", []), ("m_of_n", []),
    ("long_card", [{f"laboratory_measurement_{k:02d}_serum_level": (k * j) % 40 for k in range(30)}
                   for j in range(40)])])
def test_hostile_names_missing_values_and_ties_get_the_same_reasons(name, rows, pg_dsn):
    _agree_everywhere(paper_models.ALL[name](), rows, pg_dsn, postgres=name != "hostile")


def _ties() -> Model:
    """Four conditions worth 2 points each: which ones a row meets decides the order alone."""
    names = [f"c{k}" for k in range(4)]
    return Model(kind="linear", target=Target("y", 1), inputs=tuple(Input(n, "binary") for n in names),
                 terms=tuple(Term(n, "==", 1, 2, f"condition {n}") for n in names) + (
                     Term("c0", "linear", None, 1, ""),), intercept=-3)


def test_equal_points_keep_the_card_order_in_every_engine(pg_dsn):
    model = _ties()
    rows = [{f"c{k}": (j >> k) & 1 for k in range(4)} for j in range(16)]
    assert [r.text for r in explain(model, rows[14], 4)] == ["condition c1", "condition c2", "condition c3"]
    assert [(r.text, r.points) for r in explain(model, rows[15], 2)] == [("condition c0", 2), ("condition c1", 2)]
    _agree_everywhere(model, rows, pg_dsn)


@pytest.mark.parametrize("engine", ["sqlite", "duckdb"])
def test_the_ansi_query_with_reasons_runs_unchanged_in_sqlite_and_duckdb(engine, duckdb_con):
    build, data = CASES["unmet"]
    model = build()
    rows = case_rows(model, data)[:500]
    con = sqlite3.connect(":memory:") if engine == "sqlite" else duckdb_con
    create_table(engine, con, rows)
    got = run_sql(engine, con, sql_export.render(model, dialect="ansi", explain=3))
    for row, out in zip(rows, got):
        want = explain(model, row, 3)
        assert [out[f"reason_{j}"] for j in (1, 2, 3)] == [r.text for r in want] + [None] * (3 - len(want))
        assert [out[f"points_{j}"] for j in (1, 2, 3)] == [r.points for r in want] + [None] * (3 - len(want))


def test_onnx_pads_reasons_beyond_the_terms_with_empty_text_and_nan():
    import numpy as np
    import onnxruntime as ort

    model = CASES["breastcancer"][0]()  # two terms
    session = ort.InferenceSession(onnx_export.render(model, explain=3), providers=["CPUExecutionProvider"])
    names = list(reason_columns(3))
    feeds = {"UniformityOfCellSize": np.array([3.0, np.nan]), "BareNuclei": np.array([5.0, 1.0])}
    out = dict(zip(names, session.run(names, feeds)))
    assert [out[f"reason_{j}"][0] for j in (1, 2, 3)] == ["UniformityOfCellSize", "BareNuclei", ""]
    assert list(out["points_1"][:1]) == [6.0] and np.isnan(out["points_3"]).all()
    assert out["reason_1"][1] == "" and np.isnan(out["points_1"][1])  # no score, no reason


def test_an_input_named_like_a_reason_column_is_refused():
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input("reason_1", "numeric"),),
                  terms=(Term("reason_1", ">=", 1, 1, ""),), intercept=0)
    for render in (lambda: sql_export.render(model, dialect="duckdb", explain=1),
                   lambda: onnx_export.render(model, explain=2)):
        with pytest.raises(ExportError, match="'reason_1' clashes"):
            render()


def test_ansi_refuses_reasons_for_more_terms_than_sqlite_unions():
    names = [f"x{k}" for k in range(501)]
    model = Model(kind="linear", target=Target("y", 1), inputs=tuple(Input(n, "numeric") for n in names),
                  terms=tuple(Term(n, ">=", 1, 1, "") for n in names), intercept=0)
    with pytest.raises(ExportError, match="UNION ALL"):
        sql_export.render(model, dialect="ansi", explain=2)
    assert "reason_2" in sql_export.render(model, dialect="sqlite", explain=2)
