"""The ``spark`` SQL dialect run in Spark SQL itself: pyspark in local mode, one session (one
Java VM) for the whole test session, the one ``verify`` uses (exporters/spark_engine.py).

Every query goes through ``verify.check_spark``, as ``scorecard verify`` runs it: the rows
loaded with their types (BIGINT, DOUBLE, STRING; NULL, NaN and blank texts as they are), the
export wrapped as a user wraps it, each row compared with the runtime's score, prediction,
probability and reason codes.
"""
from __future__ import annotations

import os

import paper_models
import pytest
import test_code_hostile
from code_models import CASES, long_model, read_rows, with_golden
from scorecard.exporters import spark_engine
from scorecard.exporters import sql as sql_export
from scorecard.exporters import verify as v
from scorecard.exporters.registry import ExportError
from scorecard.runtime import Input, Model, Target, Term


@pytest.fixture(scope="session")
def spark() -> spark_engine.SparkChild:
    """The process's Spark session, started once; a missing pyspark or Java skips (fails in CI)."""
    why = spark_engine.missing()
    if why is None:
        try:
            spark_engine.shared().start()
        except spark_engine.SparkError as exc:
            why = str(exc)
    if why is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"Spark cannot run: {why}")
        pytest.skip(f"Spark cannot run: {why}")
    return spark_engine.shared()


def _spark(model: Model, rows: list[dict]) -> list[v.FormatCheck]:
    """The spark query as written and with every reason code, on the golden rows and ``rows``."""
    k = v.reasons_for(model)
    cases = v.cases_for(model, rows, k)
    return [v.check_spark(model, cases), v.check_spark(model, cases, reasons=k)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_spark_gives_the_runtimes_scores_and_reasons_on_every_data_set(name, spark):
    """breastcancer, heart, spambase, M-of-N and mushroom_raw (missing values: "null",
    imputed, "unmet" with its unknown condition): every third row as the runtime scores it."""
    build, data = CASES[name]
    rows = read_rows(data)[::3]
    checks = _spark(with_golden(build(), rows[:20]), rows)
    assert [c.ok for c in checks] == [True, True], [c.line() for c in checks]
    assert checks[0].engine.startswith("spark (pyspark 4.") and "identical reasons" in checks[1].line()


@pytest.mark.parametrize("name", sorted(paper_models.ALL))
def test_spark_gives_the_paper_models_scores_probabilities_and_hostile_names(name, spark):
    """Risk tables (an array lookup), NaN-free missing values of every JSON kind, the long
    card, and names full of script, LaTeX and comment specials, an emoji among them."""
    model = paper_models.ALL[name]()
    checks = _spark(model, [])
    assert [c.ok for c in checks] == [True, True], [c.line() for c in checks]
    assert model.probability is None or "identical probabilities" in checks[0].line()


def test_spark_runs_the_hostile_model_with_its_missing_number(spark):
    """Quotes, backticks, backslashes (escapes in Spark's strings), SQL and script injections,
    a line break in a name, and a term label ending in a backslash, which would carry a ``--``
    comment on to the next term's line in Spark."""
    checks = _spark(test_code_hostile.hostile_model(), test_code_hostile.hostile_rows())
    assert [c.ok for c in checks] == [True, True], [c.line() for c in checks]
    text = sql_export.render(test_code_hostile.hostile_model(), dialect="spark")
    assert "-- % & $ # _ { } ~ ^ \\ (ends with a backslash)\n" in text


def test_spark_gives_no_risk_where_there_is_no_score(spark):
    """A risk table read by index: a row missing an input has no score and so no risk (Spark
    4.3's generated code read the NULL index as -1, the last risk, until the query tested it)."""
    model = paper_models.labelled()
    rows = [{"UniformityOfCellSize": 3, "BareNuclei": None}, {"UniformityOfCellSize": 9, "BareNuclei": 10}]
    checks = _spark(model, rows)
    assert [c.ok for c in checks] == [True, True], [c.line() for c in checks]
    assert "element_at(array(" in sql_export.render(model, dialect="spark")


def test_spark_compares_categories_exactly_knows_every_blank_and_nan(spark):
    """Text compared byte for byte ('Yes ' is not 'yes'); Unicode spaces alone are missing, as
    str.strip() says; a NaN meets no cut-off (Spark sorts NaN above every number)."""
    model = Model(kind="linear", target=Target("y", 1),
                  inputs=(Input("answer", "categorical", ("yes", "no")), Input("x", "numeric")),
                  terms=(Term("answer", "==", "yes", 2, "yes"), Term("answer", "missing", None, 5, "unknown"),
                         Term("x", ">=", 3.5, 1, "x high"), Term("x", "missing", None, 7, "x unknown")),
                  intercept=-1, missing="unmet")
    answers = ("yes", "Yes", "yes ", "YES", "no", "", " ", "\u3000\u2003\t", "\u00a0yes", None)
    rows = [{"answer": a, "x": x} for a, x in zip(answers, (4.0, float("nan"), 1.0, None, "", 3.5, 10, 2, 9, 0))]
    cases = v.cases_for(model, rows)
    assert [c.score for c in cases] == [3, 7, 0, 7, 7, 6, 6, 5, 1, 5]
    checks = _spark(model, rows)
    assert [c.ok for c in checks] == [True, True], [c.line() for c in checks]


def test_spark_adds_200_terms_and_refuses_more(spark):
    """200 terms, float points: the same doubles as the runtime's sum. Spark's parser fails on
    a sum some 500 terms deep and its optimizer stalled on a longer one added in stages, so
    the export refuses a longer model, saying so."""
    model = long_model(100)
    rows = [{f"x{k}": (k * (j + 3)) % 9 - 2 + 0.5 * (j % 2) for k in range(100)} for j in range(4)]
    rows[2]["x77"] = None  # a missing input of a linear term: no score
    check = v.check_spark(model, v.cases_for(model, rows))
    assert check.ok, check.line()
    with pytest.raises(ExportError, match="the model has 202 terms; a spark query adds at most 200 .*Spark's parser"):
        sql_export.render(long_model(101), dialect="spark")


def test_spark_refuses_inputs_that_differ_only_in_case():
    """Spark reads ``Age`` and ``age`` as one column (an ambiguous reference): the export
    refuses, naming both, before Spark does; verify says not run, with that reason."""
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input("Age", "numeric"), Input("age", "numeric")),
                  terms=(Term("Age", ">=", 1, 1, "Age"), Term("age", ">=", 1, 1, "age")), intercept=0)
    with pytest.raises(ExportError, match=r"'Age' and 'age' differ only in case, and spark reads names"):
        sql_export.render(model, dialect="spark")
    assert sql_export.render(model, dialect="duckdb")  # the other engines tell them apart
    check = v.check_spark(model, v.cases_for(model, [{"Age": 1, "age": 2}]))
    assert check.ok is None and "differ only in case" in check.line()


@pytest.mark.parametrize("name, explain", [("Score", None), ("REASON_1", 2)])
def test_spark_refuses_an_input_named_like_an_added_column_in_another_case(name, explain):
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input(name, "numeric"),),
                  terms=(Term(name, ">=", 1, 1, "s"),), intercept=0)
    with pytest.raises(ExportError, match=f"input '{name}' clashes with the column"):
        sql_export.render(model, dialect="spark", explain=explain)


def test_verify_says_not_run_without_java(monkeypatch):
    """No Java runtime: the spark check is not run, saying why, never ok."""
    monkeypatch.setattr(spark_engine.shutil, "which", lambda name: None)
    monkeypatch.delenv("JAVA_HOME", raising=False)
    check = v.check_spark(paper_models.breastcancer(), v.cases_for(paper_models.breastcancer()))
    assert check.ok is None and check.line().endswith("not run: no Java runtime (apt-get install openjdk-17-jre-headless)")
