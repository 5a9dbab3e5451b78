"""The ``sql`` export pasted into a warehouse pipeline as is (issue 15, item 1): a dotted
``--table`` path read as schema and table, the query wrapped in a CTE and in ``--as view``
with no trailing ``;`` in the way, ``--keep`` choosing the columns carried through, blank
texts tested against the whitespace characters named once, and a risk table read by one
array lookup where the engine has arrays (item 5) giving the runtime's risks."""
from __future__ import annotations

import contextlib
from dataclasses import replace

import pytest
from code_engines import create_table, run_sql
from code_models import breastcancer_model, case_rows, read_rows, unmet_model
from scorecard.exporters import sql as sql_export
from scorecard.runtime import ExportError, Input, Model, Target, Term, predict, score
from scorecard.runtime.risk import risk_function


@contextlib.contextmanager
def schema(eng: str, con, name: str):
    """A schema ``name`` for the duration of the block: an attached database in SQLite, a
    schema in DuckDB, and in PostgreSQL one created in a transaction that is rolled back (the
    server is shared, so no other test ever sees it)."""
    quoted = '"' + name.replace('"', '""') + '"'
    if eng == "sqlite":
        con.execute(f"ATTACH ':memory:' AS {quoted}")
        yield
    elif eng == "duckdb":
        con.execute(f"CREATE SCHEMA {quoted}")
        yield
    else:
        import psycopg

        with con.transaction():
            con.execute(f"CREATE SCHEMA {quoted}")
            yield
            raise psycopg.Rollback()


def _fill(eng: str, con, rows: list[dict], path: str) -> None:
    """Table ``path`` (SQL, already quoted) holding ``rows`` with real column types."""
    create_table(eng, con, rows, table="source rows")
    con.execute(f'CREATE TABLE {path} AS SELECT * FROM "source rows"')
    con.execute('DROP TABLE "source rows"')


def _scores(model: Model, rows: list[dict]) -> list[tuple]:
    return [(score(model, r), predict(model, r)) for r in rows]


def test_a_dotted_table_is_schema_and_table_and_the_query_wraps_in_a_cte_and_a_view(engine):
    eng, con = engine
    model, rows = unmet_model(), read_rows("mushroom_raw.csv")
    with schema(eng, con, "ehr"):
        _fill(eng, con, rows, '"ehr"."vitals"')
        # a table named "ehr.vitals" in the default schema: the export must not read it
        _fill(eng, con, rows[:3], '"ehr.vitals"')
        query = sql_export.render(model, dialect=eng, table="ehr.vitals")
        assert not query.rstrip().endswith(";") and "--" not in query.rstrip().splitlines()[-1]
        got = run_sql(eng, con, f'WITH scored AS (\n{query}) SELECT "score", "prediction" FROM scored')
        assert [(g["score"], g["prediction"]) for g in got] == _scores(model, rows)
        con.execute(sql_export.render(model, dialect=eng, table="ehr.vitals", view="ehr.scored"))
        got = run_sql(eng, con, 'SELECT "score", "prediction" FROM "ehr"."scored"')
        assert [(g["score"], g["prediction"]) for g in got] == _scores(model, rows)


def test_a_quoted_part_may_hold_dots_and_quotes(engine):
    eng, con = engine
    model, rows = breastcancer_model(), read_rows("breastcancer.csv")
    with schema(eng, con, 'my.db "2024"'):
        _fill(eng, con, rows, '"my.db ""2024"""."vitals.v1"')
        query = sql_export.render(model, dialect=eng, table='"my.db ""2024"""."vitals.v1"', statement=True)
        assert query.endswith(";\n")
        got = run_sql(eng, con, query)
        assert [(g["score"], g["prediction"]) for g in got] == _scores(model, rows)


def test_keep_returns_only_the_columns_named(engine):
    eng, con = engine
    model, rows = breastcancer_model(), read_rows("breastcancer.csv")
    create_table(eng, con, rows)
    got = run_sql(eng, con, sql_export.render(model, dialect=eng, keep="Benign,BareNuclei", explain=1))
    assert list(got[0]) == ["Benign", "BareNuclei", "score", "prediction", "reason_1", "points_1"]
    assert [(g["Benign"], g["score"], g["prediction"]) for g in got] == [
        (int(r["Benign"]), score(model, r), predict(model, r)) for r in rows]


@pytest.mark.parametrize("table, message", [
    ("ehr..vitals", "an empty name"),
    ("ehr.", "an empty name after the last '.'"),
    ('"ehr.vitals', "never closed"),
    ('"ehr"x.vitals', "after a quoted name comes '.' or the end"),
    ('eh"r.vitals', "between double quotes"),
    ("ehr.vi\x00tals", "NUL"),
])
def test_a_table_path_that_cannot_be_quoted_safely_is_refused(table, message):
    with pytest.raises(ExportError, match=message):
        sql_export.render(unmet_model(), dialect="duckdb", table=table)


def test_keep_checks_only_its_syntax():
    text = sql_export.render(unmet_model(), dialect="postgres", keep='id,"a,b","say ""hi"""')
    assert 'SELECT i."id",\n    i."a,b",\n    i."say ""hi""",' in text
    with pytest.raises(ExportError, match="--keep 'id,,age': an empty name"):
        sql_export.render(unmet_model(), dialect="postgres", keep="id,,age")


def test_blank_texts_are_tested_against_the_whitespace_named_once():
    for dialect in ("sqlite", "duckdb", "postgres"):
        text = sql_export.render(unmet_model(), dialect=dialect)
        assert text.count('AS "whitespace") AS w') == 1
        assert 'TRIM(i."stalk_root", w."whitespace") = \'\'' in text
        assert "unhex" not in text and "decode(" not in text and "X'" not in text
    # a model without a blank test joins no whitespace table
    assert "whitespace" not in sql_export.render(breastcancer_model(), dialect="duckdb")


def test_comments_use_sql_words_and_only_the_inputs_used():
    base = unmet_model()
    model = replace(base, inputs=base.inputs + (Input("cap_shape", "categorical"),), terms=base.terms[:-2],
                    missing={"impute": {"stalk_root": "bulbous", "cap_shape": "flat"}})  # cap_shape: unused
    header = [line for line in sql_export.render(model, dialect="duckdb").splitlines() if line.startswith("--")]
    policy = next(line for line in header if line.startswith("-- missing values"))
    assert "{" not in policy and "\"stalk_root\" = 'bulbous'" in policy and "cap_shape" not in policy


def _floor_model() -> Model:
    """Whole points on a numeric linear input, so a score can fall between the table's whole
    scores (2.5 reads the risk at 2) or outside them."""
    return Model(kind="linear", target=Target("y", 1), inputs=(Input("x", "numeric"),),
                 terms=(Term("x", "linear", None, 1, "x"),), intercept=0,
                 probability={"method": "table", "table": [{"score": -2, "risk": 0.1}, {"score": 0, "risk": 0.3},
                                                           {"score": 1, "risk": 0.45}, {"score": 4, "risk": 0.9}]})


def test_a_risk_table_of_whole_scores_is_one_array_lookup_with_the_runtime_risks(engine):
    eng, con = engine
    model = _floor_model()
    rows = [{"x": v} for v in ("-7.5", "-2", "-1.5", "-0.2", "0", "0.5", "1", "2.5", "3.999", "4", "100.25", "")]
    create_table(eng, con, rows)
    text = sql_export.render(model, dialect=eng)
    if eng in ("duckdb", "postgres"):
        assert "floor(" in text and "[DOUBLE" in text and "WHEN s.\"score\" >= -1" not in text
    risk = risk_function(model.probability)
    got = run_sql(eng, con, text)
    want = [None if score(model, r) is None else risk(score(model, r)) for r in rows]
    assert [g["probability"] for g in got] == want



def test_a_binary_column_stored_as_double_indexes_the_array_by_its_floor(engine):
    """A linear term on a binary input: its 0/1 column stored as DOUBLE makes the score a
    double, and the column may hold a fraction (0.5 adds half the points, as in the runtime),
    so the array is read at the score's floor (SQLite's text of risks at the place's integer
    part, the place being at least 0); a card of conditions only, whose scores are
    whole whatever the row holds, indexes by the score as it is."""
    eng, con = engine
    model = replace(_floor_model(), inputs=(Input("x", "binary"),))
    rows = [{"x": v} for v in ("1.0", "0.0", "", "0.5", "-0.5")]
    create_table(eng, con, rows)
    text = sql_export.render(model, dialect=eng)
    assert ("floor(" in text) == (eng != "sqlite")  # SQLite cuts its text of risks at CAST(place AS INTEGER)
    risk = risk_function(model.probability)
    assert [g["probability"] for g in run_sql(eng, con, text)] == [0.45, 0.3, None, 0.3, 0.1] == [
        None if score(model, r) is None else risk(score(model, r)) for r in rows]
    cuts = replace(model, terms=(Term("x", ">=", 1, 1, "x >= 1"),))
    assert "floor(" not in sql_export.render(cuts, dialect=eng)
    assert [g["probability"] for g in run_sql(eng, con, sql_export.render(cuts, dialect=eng))] == [
        None if score(cuts, r) is None else risk(score(cuts, r)) for r in rows]


def test_a_long_risk_table_gives_the_runtime_risk_on_every_breastcancer_row(engine):
    eng, con = engine
    model = replace(breastcancer_model(), probability={"method": "table", "table": [
        {"score": s, "risk": round(0.02 + 0.9 * k / 40, 6)} for k, s in enumerate(range(-5, 35))]})
    rows = case_rows(model, "breastcancer.csv")
    create_table(eng, con, rows)
    risk = risk_function(model.probability)
    got = run_sql(eng, con, sql_export.render(model, dialect=eng))
    assert [g["probability"] for g in got] == [None if score(model, r) is None else risk(score(model, r))
                                               for r in rows]
