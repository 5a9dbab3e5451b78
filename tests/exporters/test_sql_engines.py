"""The SQL dialects added in issue 15: ``mysql`` run in a real MariaDB server (.ci/mariadb.sh),
``clickhouse`` in chdb (ClickHouse in a child process), and T-SQL, Oracle, Snowflake and BigQuery, written through sqlglot, parsed back (no engine of
theirs runs here, and verify says so)."""
from __future__ import annotations

import paper_models
import pytest
import test_code_hostile
from code_models import CASES, read_rows, with_golden
from scorecard.exporters import sql as sql_export
from scorecard.exporters import verify as v
from scorecard.exporters.registry import ExportError
from scorecard.runtime import Input, Model, Target, Term

NOT_RUNNABLE = {"tsql": "tsql", "oracle": "oracle", "snowflake": "snowflake", "bigquery": "bigquery"}


def _mysql(model: Model, rows: list[dict], mysql_dsn: str) -> list[v.FormatCheck]:
    """The mysql query as written and with every reason code, on the golden rows and ``rows``."""
    k = v.reasons_for(model)
    cases = v.cases_for(model, rows, k)
    return [v.check_mysql(model, cases, mysql_dsn), v.check_mysql(model, cases, mysql_dsn, reasons=k)]


def _clickhouse(model: Model, rows: list[dict]) -> list[v.FormatCheck]:
    pytest.importorskip("chdb")  # not imported here: its check runs it in a child process
    k = v.reasons_for(model)
    cases = v.cases_for(model, rows, k)
    return [v.check_clickhouse(model, cases), v.check_clickhouse(model, cases, reasons=k)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_clickhouse_gives_the_runtimes_scores_and_reasons_on_every_data_set(name):
    build, data = CASES[name]
    rows = read_rows(data)[::3]
    checks = _clickhouse(with_golden(build(), rows[:20]), rows)
    assert [c.ok for c in checks] == [True, True], [c.line() for c in checks]
    assert checks[0].engine.startswith("clickhouse (chdb ") and "identical reasons" in checks[1].line()


@pytest.mark.parametrize("name", sorted(paper_models.ALL))
def test_clickhouse_gives_the_paper_models_scores_probabilities_and_hostile_names(name):
    """Including the hostile names (emoji, quotes, backslashes, which ClickHouse reads as
    escapes in strings) and the long card, whose reasons fit ClickHouse's 256 KiB query limit
    because the ranked array is written once and read by name."""
    model = paper_models.ALL[name]()
    checks = _clickhouse(model, [])
    assert [c.ok for c in checks] == [True, True], [c.line() for c in checks]
    assert model.probability is None or "identical probabilities" in checks[0].line()


def test_clickhouse_runs_the_hostile_model_with_its_missing_number():
    checks = _clickhouse(test_code_hostile.hostile_model(), test_code_hostile.hostile_rows())
    assert [c.ok for c in checks] == [True, True], [c.line() for c in checks]


@pytest.mark.parametrize("name", sorted(CASES))
def test_mariadb_gives_the_runtimes_scores_and_reasons_on_every_data_set(name, mysql_dsn):
    """breastcancer, heart, spambase, M-of-N and mushroom_raw (missing values: "null",
    imputed, "unmet" with its unknown condition) in MariaDB: every row as the runtime."""
    build, data = CASES[name]
    rows = read_rows(data)[::3]
    checks = _mysql(with_golden(build(), rows[:20]), rows, mysql_dsn)
    assert [c.ok for c in checks] == [True, True], [c.line() for c in checks]
    assert checks[0].engine.startswith("mysql (mariadb 1") and "identical reasons" in checks[1].line()


@pytest.mark.parametrize("name", sorted(set(paper_models.ALL) - {"hostile"}))
def test_mariadb_gives_the_paper_models_scores_and_probabilities(name, mysql_dsn):
    model = paper_models.ALL[name]()
    checks = _mysql(model, [], mysql_dsn)
    assert [c.ok for c in checks] == [True, True], [c.line() for c in checks]
    assert model.probability is None or "identical probabilities" in checks[0].line()


def test_mariadb_runs_the_hostile_names_that_fit_its_names(monkeypatch, mysql_dsn):
    """Quotes, backticks, backslashes (MariaDB reads them as escapes in strings), SQL and
    script injections: exact. Its names stop at U+FFFF, so the emoji of the hostile model
    is swapped for a character it can hold; with the emoji the export refuses, naming it."""
    monkeypatch.setattr(test_code_hostile, "NONASCII", "Größe (cm²) 名前 ☺ `tick`")
    model = test_code_hostile.hostile_model()
    checks = _mysql(model, test_code_hostile.hostile_rows(), mysql_dsn)
    assert [c.ok for c in checks] == [True, True], [c.line() for c in checks]
    monkeypatch.undo()
    with pytest.raises(ExportError, match=r"holds '🙂' \(U\+1F642\), beyond U\+FFFF; MariaDB and MySQL names"):
        sql_export.render(test_code_hostile.hostile_model(), dialect="mysql")


def test_mariadb_holds_a_name_of_64_characters_which_postgres_would_cut(mysql_dsn, pg_dsn):
    """MariaDB's longest name, 64 characters (here of two bytes each), is exact there; PostgreSQL
    keeps 63 bytes of a name, so its export refuses the name, and verify says so."""
    name = "é" * 63 + "`"
    model = with_golden(Model(kind="linear", target=Target("y", 1), inputs=(Input(name, "numeric"),),
                              terms=(Term(name, ">=", 1, 2, "x"),), intercept=-1),
                        [{name: v} for v in (0, 1, 2, "")])
    checks = _mysql(model, [], mysql_dsn)
    assert [c.ok for c in checks] == [True, True], [c.line() for c in checks]
    postgres = v.check_postgres(model, v.cases_for(model), pg_dsn)
    assert postgres.ok is None and "is 127 bytes long; postgres keeps only the first 63 bytes" in postgres.line()


@pytest.mark.parametrize("name, problem", [("x" * 65, "is 65 characters long"), ("age ", "ends in a space")])
def test_mysql_refuses_a_name_mariadb_would_refuse(name, problem):
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input(name, "numeric"),),
                  terms=(Term(name, ">=", 1, 1, "x"),), intercept=0)
    with pytest.raises(ExportError, match=problem):
        sql_export.render(model, dialect="mysql")


def test_mariadb_compares_categories_exactly_and_knows_every_blank(mysql_dsn):
    """MariaDB's default collations ignore case and trailing spaces ('Yes ' = 'yes'); the
    runtime does not. Text of Unicode spaces only is missing, as str.strip() says."""
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input("answer", "categorical", ("yes", "no")),),
                  terms=(Term("answer", "==", "yes", 2, "yes"), Term("answer", "missing", None, 5, "unknown")),
                  intercept=-1, missing="unmet")
    rows = [{"answer": a} for a in ("yes", "Yes", "yes ", "YES", "no", "", " ", "\u3000\u2003\t", "\u00a0yes", None)]
    cases = v.cases_for(model, rows)
    assert [c.score for c in cases] == [2, 0, 0, 0, 0, 5, 5, 5, 0, 5]
    check = v.check_mysql(model, cases, mysql_dsn)
    assert check.ok, check.line()
    assert all(c.ok for c in _clickhouse(model, rows)), "ClickHouse compares text byte for byte too"


@pytest.mark.parametrize("dialect", sorted(NOT_RUNNABLE))
@pytest.mark.parametrize("name", ["breastcancer", "mushroom", "sleep_apnea", "diabetes_unmet"])
def test_sqlglot_dialects_parse_back_as_one_select(dialect, name):
    sqlglot = pytest.importorskip("sqlglot")
    model = paper_models.ALL[name]()
    for explain in (None, 2):
        text = sql_export.render(model, dialect=dialect, explain=explain)
        assert f"-- dialect: {dialect} (written by sqlglot" in text
        statements = sqlglot.parse(text, read=NOT_RUNNABLE[dialect])
        assert len(statements) == 1 and isinstance(statements[0], sqlglot.exp.Select)
        names = statements[0].named_selects
        assert {"score", "prediction"} <= set(names)
        assert explain is None or {"reason_1", "reason_2", "points_1", "points_2"} <= set(names)
        assert (model.probability is not None) == ("probability" in names)


@pytest.mark.parametrize("dialect", ["tsql", "oracle"])
def test_prediction_is_1_0_or_null_where_there_is_no_boolean(dialect):
    """T-SQL and Oracle have no boolean type: the prediction is a CASE giving 1, 0 or NULL."""
    sqlglot = pytest.importorskip("sqlglot")
    text = sql_export.render(paper_models.breastcancer(), dialect=dialect)
    select = sqlglot.parse_one(text, read=dialect)
    prediction = next(e for e in select.expressions if e.alias_or_name == "prediction").this
    assert isinstance(prediction, sqlglot.exp.Case)
    assert sorted(str(branch.args["true"]) for branch in prediction.args["ifs"]) == ["0", "1"]
    assert prediction.args.get("default") is None  # a NULL score falls through to NULL


def test_verify_lists_the_sqlglot_dialects_as_not_run(mysql_dsn):
    checks = v.verify(paper_models.breastcancer())
    listed = [c for c in checks if c.engine in NOT_RUNNABLE]
    assert [c.engine for c in listed] == ["tsql", "oracle", "snowflake", "bigquery"]
    assert all(c.ok is None and c.line().endswith("not run: no engine here") for c in listed)


def test_an_unknown_dialect_names_the_known_ones():
    with pytest.raises(ExportError, match="known: ansi, bigquery, clickhouse, duckdb, mysql, oracle, postgres, snowflake, spark, sqlite, tsql"):
        sql_export.render(paper_models.breastcancer(), dialect="hive")
