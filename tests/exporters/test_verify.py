"""``verify`` runs every code export in every engine on the machine and reports what a user
needs: one check per format and engine, a pass only when every row agrees, a skip (never a
pass) when an engine is not there, and the first differing row when one differs."""
from __future__ import annotations

import dataclasses

import pytest
from code_models import CASES, DATASETS, breastcancer_model, read_rows, with_golden
from scorecard.exporters import verify as verify_module
from scorecard.exporters.verify import FormatCheck, verify, verify_all
from scorecard.runtime import GoldenRow, RowError

ENGINES = [("python", "python"), ("sql", "sqlite"), ("sql", "duckdb"), ("sql", "postgres"), ("sql", "mysql"),
           ("sql", "clickhouse"), ("sql", "spark"), ("onnx", "onnxruntime"), ("onnx", "onnxruntime"), ("pmml", "jpmml-evaluator")]
#: Dialects written through sqlglot, whose engines cannot run here: listed, never ok.
NOT_RUN = [("sql", "tsql"), ("sql", "oracle"), ("sql", "snowflake"), ("sql", "bigquery")]


def engines(checks: list[FormatCheck]) -> list[tuple[str, str]]:
    return [(c.format, c.engine.split()[0]) for c in checks]


@pytest.mark.parametrize("name", ["breastcancer", "mushroom", "spambase", "mofn"])
def test_every_export_agrees_on_golden_and_data_rows(name, pg_dsn):
    build, data = CASES[name]
    rows = read_rows(data)[::4]  # spread over the file: mushroom_raw's missing stalk_root rows come late
    model = with_golden(build(), rows[:20])
    checks = verify(model, rows, pg_dsn=pg_dsn)
    assert engines(checks) == [("model", "golden"), ("card", "hand-added")] + ENGINES[:-1] + ENGINES + NOT_RUN
    assert [" matrix" in c.engine for c in checks if c.format == "onnx"] == [False, True, False, True]
    assert all("--explain" in c.engine and "identical reasons" in c.line() for c in checks[11:20])
    assert name != "mushroom" or sum(c.score is None for c in verify_module.cases_for(model, rows)) > 400
    assert [(c.ok, c.mismatches, c.rows) for c in checks] == (
        [(True, 0, 20)] * 2 + [(True, 0, 20 + len(rows))] * 19 + [(None, 0, 0)] * 4), [c.line() for c in checks]
    assert all(c.line().endswith("not run: no engine here") for c in checks[-4:])


def test_the_servers_are_not_run_with_their_reason_when_none_is_named(monkeypatch):
    monkeypatch.delenv("SCORECARD_PG_DSN", raising=False)
    monkeypatch.delenv("SCORECARD_MYSQL_DSN", raising=False)
    model = with_golden(breastcancer_model(), read_rows("breastcancer.csv")[:10])
    checks = verify(model)
    skipped = [c for c in checks if c.ok is None and c.reason != verify_module.NO_ENGINE]
    assert [(c.format, c.engine) for c in skipped] == [("sql", "postgres"), ("sql", "mysql"),
                                                       ("sql", "postgres --explain 2"), ("sql", "mysql --explain 2")]
    assert all(("SCORECARD_PG_DSN" in c.reason or "SCORECARD_MYSQL_DSN" in c.reason) and "not run" in c.line()
               for c in skipped)
    assert all(c.ok for c in checks if c not in skipped and c.reason != verify_module.NO_ENGINE)


def test_a_disagreeing_export_fails_and_names_the_first_row(monkeypatch):
    model = with_golden(breastcancer_model(), read_rows("breastcancer.csv")[:10])
    real = verify_module.python_export.render
    first = model.terms[0]
    monkeypatch.setattr(verify_module.python_export, "render", lambda m: real(dataclasses.replace(
        m, terms=(dataclasses.replace(first, points=first.points + 1),) + m.terms[1:])))
    check = verify_module.check_python(model, verify_module.cases_for(model))
    assert (check.ok, check.mismatches, check.rows) == (False, 10, 10)
    g = model.golden[0]
    assert check.first_mismatch.startswith(f"golden row 0: runtime score {g.score} prediction {g.prediction}, python")
    assert "FAILED: 10 of 10 rows differ" in check.line()


def test_a_card_whose_score_means_something_else_fails(monkeypatch):
    """The printed card, the golden rows and the exports must mean one SCORE: a card whose
    total included the intercept (the old "model score") is caught on the golden rows."""
    model = with_golden(breastcancer_model(), read_rows("breastcancer.csv")[:10])
    real = verify_module.card_total
    monkeypatch.setattr(verify_module, "card_total", lambda c, values: real(c, values) + model.intercept)
    check = verify_module.check_card(model, verify_module.cases_for(model))
    assert check.ok is False and check.mismatches == 10 and "hand-added score" in check.first_mismatch


def test_an_export_the_engine_rejects_is_a_failure_with_the_engines_message(monkeypatch):
    model = with_golden(breastcancer_model(), read_rows("breastcancer.csv")[:3])
    monkeypatch.setattr(verify_module.sql_export, "render", lambda m, dialect, explain: "SELECT nonsense FROM input")
    check = verify_module.check_sqlite(model, verify_module.cases_for(model))
    assert check.ok is False and "no such column: nonsense" in check.first_mismatch


def test_wrong_golden_scores_in_the_model_file_fail_the_model_check():
    model = with_golden(breastcancer_model(), read_rows("breastcancer.csv")[:3])
    bad = dataclasses.replace(model, golden=(GoldenRow(model.golden[0].row, 99, 1),) + model.golden[1:])
    check = verify(bad)[0]
    assert (check.format, check.ok, check.mismatches) == ("model", False, 1)


def test_verify_all_reads_a_csv_and_refuses_one_without_the_models_columns(write):
    model = breastcancer_model()
    assert all(c.ok is not False for c in verify_all(model, str(DATASETS / "breastcancer.csv")))
    with pytest.raises(RowError, match="needs column 'BareNuclei'"):
        verify_all(model, str(write("other.csv", "UniformityOfCellSize,Other\n1,2\n")))
    with pytest.raises(RowError, match="no such file"):
        verify_all(model, "/nonexistent/data.csv")


def test_a_name_postgres_would_cut_short_skips_its_check_with_the_reason(pg_dsn):
    """Issue 12, item 10: the postgres export refuses such a name, so its check is not run
    (before, verify created the table with the name cut short and reported a failure)."""
    from scorecard.runtime import Input, Model, Target, Term

    name = "Q" * 56 + "_age_years"
    model = with_golden(Model(kind="linear", target=Target("y", 1), inputs=(Input(name, "numeric"),),
                              terms=(Term(name, ">=", 18, 2, "adult"),), intercept=-1), [{name: 30}, {name: 3}])
    checks = verify(model, pg_dsn=pg_dsn)
    assert engines(checks) == [("model", "golden"), ("card", "hand-added")] + ENGINES[:-1] + ENGINES + NOT_RUN
    skipped = [c for c in checks if c.ok is None and c.reason != verify_module.NO_ENGINE]
    assert engines(skipped) == [("sql", "postgres"), ("sql", "mysql")] * 2
    assert all("is 66 bytes long; postgres keeps only the first 63 bytes" in c.line() for c in skipped[::2])
    assert all("is 66 characters long; MariaDB and MySQL names are at most 64" in c.line() for c in skipped[1::2])
    assert all(c.ok for c in checks if c not in skipped and c.reason != verify_module.NO_ENGINE), \
        [c.line() for c in checks]
