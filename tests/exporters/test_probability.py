"""Models with a score-to-risk map (``model.probability``, runtime/risk.py): every code export
outputs it and every engine gives the runtime's ``risk(model, score(model, row))`` on every row
of the real datasets, NULL / NaN / None where the row has no score.

Both shapes: a risk table (compared exactly: a lookup of the same doubles) and the logistic map
(compared within a relative 1e-12: onnxruntime's ``Exp`` kernel differs from C's ``exp`` in the
last bits; the SQL engines and the Python file call the C library's ``exp`` and agree exactly
here, but that is the platform's doing, not the export's).
"""
from __future__ import annotations

import csv
import io
import math
from dataclasses import replace

import numpy as np
import onnxruntime as ort
import pytest
from code_engines import (
    call_export,
    create_table,
    onnx_feeds,
    run_python_export,
    run_sql,
)
from code_models import (
    breastcancer_model,
    case_rows,
    heart_model,
    mofn_model,
    mushroom_model,
)
from scorecard.exporters import onnx as onnx_export
from scorecard.exporters import python as python_export
from scorecard.exporters import sql as sql_export
from scorecard.exporters.layout import card
from scorecard.exporters.registry import ExportError
from scorecard.exporters.text import render_text
from scorecard.exporters.verify import NO_ENGINE, verify
from scorecard.runtime import (
    Input,
    Model,
    RowError,
    Target,
    Term,
    risk,
    score,
    score_csv,
)

REL = 1e-12


def risk_table(model: Model, rows: list[dict], every: int = 2) -> dict:
    """A monotone table over some of the scores the data reaches (so scores fall between,
    above and below its rows), with risks that are not round numbers."""
    scores = sorted({s for s in (score(model, r) for r in rows) if s is not None})
    picked = scores[1::every] or scores
    return {"method": "table",
            "table": [{"score": s, "risk": (k + 1) / (len(picked) + 2) + 1e-9 * k} for k, s in enumerate(picked)]}


def logistic(scale: float, center: float = 0) -> dict:
    return {"method": "logistic", "scale": scale, "center": center}


def _cases() -> dict[str, tuple[Model, str]]:
    out = {}
    for name, build, data in (("breastcancer", breastcancer_model, "breastcancer.csv"),
                              ("mushroom", mushroom_model, "mushroom_raw.csv"),
                              ("heart", heart_model, "heart.csv"),
                              ("mofn", mofn_model, "breastcancer.csv")):
        model = build()
        rows = case_rows(model, data)
        out[f"{name}-table"] = (replace(model, probability=risk_table(model, rows)), data)
        out[f"{name}-logistic"] = (replace(model, probability=logistic(0.37 if name == "heart" else 1.0, model.threshold)),
                                         data)
    # one table row only, and a table whose first score is above every score (all read row 0)
    model = breastcancer_model()
    one_row = {"method": "table", "table": [{"score": 3, "risk": 0.25}]}
    out["one-row-table"] = (replace(model, probability=one_row), "breastcancer.csv")
    out["high-table"] = (replace(model, probability={"method": "table", "table": [{"score": 1000, "risk": 0.5},
                                                                                   {"score": 2000.5, "risk": 1}]}),
                         "breastcancer.csv")
    return out


CASES = _cases()


@pytest.fixture(params=sorted(CASES))
def case(request) -> tuple[Model, list[dict]]:
    model, data = CASES[request.param]
    return model, case_rows(model, data)


def expected(model: Model, rows: list[dict]) -> list[float | None]:
    return [risk(model, score(model, r)) for r in rows]


def assert_same(model: Model, want: list[float | None], got: list) -> None:
    """Every row's probability is the runtime's: None where it has none (NULL, NaN)."""
    assert len(got) == len(want)
    exact = model.probability["method"] == "table"
    for k, (w, g) in enumerate(zip(want, got)):
        if isinstance(g, float) and math.isnan(g):
            g = None
        if w is None or g is None:
            assert w is None and g is None, f"row {k}: runtime {w!r}, export {g!r}"
        elif exact:
            assert g == w, f"row {k}: runtime {w!r}, export {g!r}"
        else:
            assert math.isclose(g, w, rel_tol=REL, abs_tol=1e-300), f"row {k}: runtime {w!r}, export {g!r}"


def test_the_data_has_unscorable_rows_and_both_sides_of_the_table():
    model, data = CASES["mushroom-table"]
    rows = case_rows(model, data)
    values = expected(model, rows)
    assert None in values  # stalk_root is blank in 2480 rows
    model, data = CASES["breastcancer-table"]
    rows = case_rows(model, data)
    first = model.probability["table"][0]
    scores = [score(model, r) for r in rows]
    assert any(s < first["score"] for s in scores) and any(s > model.probability["table"][-1]["score"] for s in scores)


def test_sql_gives_the_runtime_risk_on_every_row(case, engine):
    model, rows = case
    name, con = engine
    create_table(name, con, rows)
    query = sql_export.render(model, dialect=name)
    got = run_sql(name, con, query.rstrip().rstrip(";"))
    assert list(got[0])[-3:] == ["score", "prediction", "probability"]
    assert [r["score"] for r in got] == [score(model, r) for r in rows]
    assert_same(model, expected(model, rows), [r["probability"] for r in got])


def test_sqlite_sums_a_whole_score_once_and_one_beyond_15_digits_as_before(sqlite_con):
    """SQLite has no LATERAL: a whole-number score is computed once per row, as the one row
    json_each makes of it, where the query wrote the sum three times (score, prediction,
    probability). json_each reads the score back from 15-digit text, so a model whose scores
    can pass 10^15 keeps the repeated sum; both give the runtime's scores and risks."""
    model, data = CASES["mushroom-table"]
    rows = case_rows(model, data)
    huge = replace(model, terms=tuple(replace(t, points=t.points * 10 ** 14) for t in model.terms))
    huge = replace(huge, probability=risk_table(huge, rows))
    assert sum(abs(t.points) for t in huge.terms) > 10 ** 15
    create_table("sqlite", sqlite_con, rows)
    for m, once in ((model, True), (huge, False)):
        query = sql_export.render(m, dialect="sqlite")
        first = query.splitlines().index(next(line for line in query.splitlines() if "-- " + m.terms[0].label in line))
        assert query.count(query.splitlines()[first]) == (1 if once else 3)
        assert ("json_each(" in query) == once
        got = run_sql("sqlite", sqlite_con, query)
        assert [r["score"] for r in got] == [score(m, r) for r in rows]
        assert_same(m, expected(m, rows), [r["probability"] for r in got])


def test_sql_without_probability_adds_no_column(sqlite_con):
    model = breastcancer_model()
    rows = case_rows(model, "breastcancer.csv")
    create_table("sqlite", sqlite_con, rows)
    got = run_sql("sqlite", sqlite_con, sql_export.render(model, dialect="sqlite").rstrip().rstrip(";"))
    assert list(got[0])[-2:] == ["score", "prediction"]


def test_python_file_gives_the_runtime_risk_on_every_row(case, tmp_path):
    model, rows = case
    path = tmp_path / "exported.py"
    path.write_text(python_export.render(model), encoding="utf-8")
    out = call_export(path, rows, '{"one_by_one": [module.probability(r) for r in rows], '
                                  '"columns": module.probability_columns(columns), "rows": module.probability_rows(rows)}')
    want = expected(model, rows)
    assert out["one_by_one"] == want  # the same math.exp: the very floats
    assert out["columns"] == want and out["rows"] == want


def test_python_file_prints_the_probability_column_like_scorecard_predict(case, tmp_path):
    model, rows = case
    data = tmp_path / "data.csv"
    with open(data, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    path = tmp_path / "exported.py"
    path.write_text(python_export.render(model), encoding="utf-8")
    done = run_python_export(path, data)
    assert done.returncode == 0, done.stderr
    runtime_out = io.StringIO()
    with open(data, newline="", encoding="utf-8") as fh:
        score_csv(model, fh, runtime_out)
    assert done.stdout == runtime_out.getvalue()
    assert done.stdout.splitlines()[0].endswith(",score,prediction,probability")


def test_onnx_outputs_the_runtime_risk_on_every_row(case):
    model, rows = case
    proto = onnx_export.build(model)
    assert [o.name for o in proto.graph.output] == ["score", "prediction", "probability"]
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    scores, risks = session.run(["score", "probability"], onnx_feeds(model, rows))
    assert risks.dtype == np.float64
    want = expected(model, rows)
    assert_same(model, want, [float(r) for r in risks])
    assert [math.isnan(s) for s in scores] == [w is None for w in want]


def test_verify_checks_probability_in_every_engine(case, pg_dsn):
    model, rows = case
    checks = [c for c in verify(model, rows, pg_dsn=pg_dsn) if c.reason != NO_ENGINE]
    assert checks and all(c.ok for c in checks), [c.line() for c in checks]
    assert all("probabilit" in c.line() for c in checks if c.format != "model")


def test_verify_catches_a_wrong_probability(monkeypatch):
    model, data = CASES["breastcancer-table"]
    rows = case_rows(model, data)[:50]
    real = sql_export.probability_expression

    def off_by_one_row(model, d, total):  # a query that reads the next table row
        table = model.probability["table"]
        shifted = replace(model, probability={"method": "table", "table": [
            {"score": row["score"], "risk": table[min(k + 1, len(table) - 1)]["risk"]} for k, row in enumerate(table)]})
        return real(shifted, d, total)

    monkeypatch.setattr(sql_export, "probability_expression", off_by_one_row)
    sqlite = [c for c in verify(model, rows) if c.engine.startswith("sqlite")][0]
    assert sqlite.ok is False and "probability" in sqlite.first_mismatch


def test_predict_adds_probability_and_refuses_a_data_column_of_that_name():
    model, _ = CASES["breastcancer-logistic"]
    out = io.StringIO()
    score_csv(model, io.StringIO("UniformityOfCellSize,BareNuclei\n1,2\n,3\n5,0\n"), out)
    assert out.getvalue() == ("UniformityOfCellSize,BareNuclei,score,prediction,probability\n"
                              f"1,2,4,0,{risk(model, 4)!r}\n,3,,,\n5,0,10,1,{risk(model, 10)!r}\n")
    with pytest.raises(RowError, match="already has a column 'probability'"):
        score_csv(model, io.StringIO("UniformityOfCellSize,BareNuclei,probability\n1,2,0.5\n"), io.StringIO())
    # a model without a map keeps the two columns and lets a 'probability' column through
    plain = replace(model, probability=None)
    out = io.StringIO()
    score_csv(plain, io.StringIO("UniformityOfCellSize,BareNuclei,probability\n1,2,0.5\n"), out)
    assert out.getvalue() == "UniformityOfCellSize,BareNuclei,probability,score,prediction\n1,2,0.5,4,0\n"


def test_an_input_named_probability_is_refused_only_with_a_map():
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input("probability", "numeric"),),
                  terms=(Term("probability", "linear", None, 2, ""),), intercept=-1, probability=logistic(1.0))
    with pytest.raises(ExportError, match="'probability' clashes"):
        sql_export.render(model, dialect="sqlite")
    with pytest.raises(ExportError, match="'probability' clashes"):
        onnx_export.build(model)
    plain = replace(model, probability=None)
    assert "probability" in sql_export.render(plain, dialect="sqlite")
    onnx_export.build(plain)


def test_logistic_sql_survives_extreme_scores(engine):
    """PostgreSQL's EXP raises on underflow; the query writes the runtime's 0.0 / 1.0 there."""
    name, con = engine
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input("x", "numeric"),),
                  terms=(Term("x", "linear", None, 1, ""),), intercept=0, probability=logistic(1.0))
    values = [-1e6, -746.0, -745.1332191019412, -745.1332191019411, -745.0, -700.5, -36.0, -1e-300, -0.0, 0.0,
              1e-300, 0.5, 36.0, 40.0, 41.0, 745.5, 1e6]
    create_table(name, con, [{"x": repr(v)} for v in values] + [{"x": ""}])
    got = run_sql(name, con, sql_export.render(model, dialect=name).rstrip().rstrip(";"))
    rows = [{"x": v} for v in values] + [{"x": None}]
    assert_same(model, expected(model, rows), [r["probability"] for r in got])


def test_logistic_onnx_survives_extreme_scores():
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input("x", "numeric"),),
                  terms=(Term("x", "linear", None, 1, ""),), intercept=0, probability=logistic(1.0))
    values = [-1e6, -746.0, -745.0, -700.5, -36.0, -0.0, 0.0, 0.5, 36.0, 41.0, 745.5, 1e6, math.nan]
    session = ort.InferenceSession(onnx_export.render(model), providers=["CPUExecutionProvider"])
    (risks,) = session.run(["probability"], {"x": np.array(values, dtype=np.float64)})
    rows = [{"x": v} for v in values]
    assert_same(model, expected(model, rows), [float(r) for r in risks])


def test_the_card_shows_the_logistic_map():
    model, _ = CASES["mofn-logistic"]
    c = card(model)
    assert c.risk_formula == "risk = 1 / (1 + exp(-(SCORE - 1)))"
    assert [r.score for r in c.risks] == [0, 1, 2, 3, 4]
    assert [r.risk for r in c.risks] == [risk(model, k) for k in range(5)]
    text = render_text(model)
    assert "RISK BY SCORE\n  risk = 1 / (1 + exp(-(SCORE - 1)))\n  score " in text


def test_a_logistic_card_with_unbounded_rows_shows_only_the_formula():
    model, _ = CASES["breastcancer-logistic"]  # x 2 and x 1 rows on numeric inputs
    c = card(model)
    assert c.risks == () and c.risk_formula == "risk = 1 / (1 + exp(-(SCORE - 8)))"
    model, _ = CASES["heart-logistic"]
    assert card(model).risk_formula == "risk = 1 / (1 + exp(-(0.37 \u00d7 (SCORE - 1.1))))"
    assert "RISK BY SCORE\n  risk = 1 / (1 + exp(-(SCORE - 8)))\n" in render_text(CASES["breastcancer-logistic"][0])


def test_a_logistic_card_lists_the_reachable_totals():
    model, _ = CASES["mushroom-logistic"]
    totals = [r.score for r in card(model).risks]
    # odor: bad (+6), none (-2) or other (0); spore print green (+5); stalk root club/rooted (-1);
    # gill size narrow (+2): every sum of one choice per input
    sums = sorted({o + s + r + g for o in (6, -2, 0) for s in (5, 0) for r in (-1, 0) for g in (2, 0)})
    assert totals == sums


def test_html_and_latex_print_the_logistic_formula_and_table():
    from scorecard.exporters.html import render_html
    from scorecard.exporters.latex import render_latex

    model, _ = CASES["mofn-logistic"]
    page = render_html(model)
    assert '<p class="formula">risk = 1 / (1 + exp(-(SCORE - 1)))</p>' in page
    assert page.count('<td data-points="4">') == 2  # the score and the risk cell of 4 rules
    tex = render_latex(model)
    assert r"risk = 1 / (1 + exp(-{}(SCORE -{} 1)))\par" in tex
    assert r"\textbf{RISK}" in tex


def _binary_linear_model() -> Model:
    """Linear terms on binary inputs (whole points) and a risk table of whole scores: the
    shape of the default card on 0/1 data, whose SQL reads the risk by the score as an index."""
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input("smoker", "binary"), Input("diabetic", "binary")),
                  terms=(Term("smoker", "linear", None, 3, "smoker"), Term("diabetic", "linear", None, -2, "diabetic")),
                  intercept=-1)
    return replace(model, probability={"method": "table", "table": [
        {"score": -2, "risk": 0.125}, {"score": 0, "risk": 0.25}, {"score": 1, "risk": 0.5}, {"score": 3, "risk": 0.875}]})


@pytest.mark.parametrize("values", [(0, 1, 2, -1), (0.95, 0.5, -0.95, 0.9999999999999999, 1.0, 2.5, -3.25)],
                         ids=["whole", "fractions"])
def test_a_binary_column_holding_any_number_gets_the_runtimes_score_and_risk(values, pg_dsn):
    """A binary input's column may hold any number, which the runtime reads as it is (0.95 adds
    0.95 of the term's points): every export gives that row's score and risk, also where the
    query indexes an array by a whole score (the floor of a fraction) or SQLite reads a whole
    score back from json_each's text (a fraction is computed again: its text is rounded)."""
    model = _binary_linear_model()
    rows = [{"smoker": a, "diabetic": b} for a in values for b in values[:3]] + [{"smoker": None, "diabetic": 1}]
    scores = [score(model, r) for r in rows]
    assert any(s is not None and s != int(s) for s in scores) == (values[0] != 0)
    checks = [c for c in verify(model, rows, pg_dsn=pg_dsn) if c.reason != NO_ENGINE]
    assert {"sqlite", "duckdb", "postgres"} <= {c.engine.split()[0] for c in checks}
    assert all(c.ok for c in checks), [c.line() for c in checks if not c.ok]
