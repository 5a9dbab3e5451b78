"""The ``sql`` export in the real engines, where a table or a model is hostile to the query's
shape (issue 12, items 4, 10 and 21): a table that already has columns named like the query's
own, names PostgreSQL would cut short, and models too long for a left-deep sum."""
from __future__ import annotations

import pytest
from code_engines import quote, run_sql
from code_models import long_model
from scorecard.exporters import sql as sql_export
from scorecard.runtime import ExportError, Input, Model, Target, Term, predict, score
from scorecard.runtime.risk import risk_function

A, B = "UniformityOfCellSize", "BareNuclei"
#: Columns a user's table may hold besides the model's inputs: the query's outputs and its
#: internal aliases, each holding a value that would turn every score if the query read it.
EXTRA = {"score": -1000, "prediction": 7, "probability": 0.5, "s": -1000, "i": -1000, "v": -1000}


def _risky_model() -> Model:
    """Two inputs, a risk table: score, prediction and probability all depend on the score."""
    return Model(kind="linear", target=Target("Benign", 1),
                 inputs=(Input(A, "numeric"), Input(B, "numeric")),
                 terms=(Term(A, ">=", 3, -4, "size >= 3"), Term(B, "linear", None, -1, "nuclei")), intercept=6,
                 probability={"method": "table", "table": [{"score": -3, "risk": 0.1}, {"score": 0, "risk": 0.5},
                                                           {"score": 3, "risk": 0.9}]})


def test_table_columns_named_like_the_outputs_change_no_score(engine):
    eng, con = engine
    model = _risky_model()
    rows = [{A: a, B: b, **EXTRA} for a in (1, 5, 9) for b in (0, 2, 5, None)]
    kinds = {A: "BIGINT", B: "BIGINT", "probability": "DOUBLE PRECISION" if eng == "postgres" else "DOUBLE"}
    columns = ", ".join(f"{quote(n)} {kinds.get(n, 'BIGINT')}" for n in rows[0])
    con.execute(f"CREATE TABLE input ({columns})")
    marks = ", ".join(["%s" if eng == "postgres" else "?"] * len(rows[0]))
    con.cursor().executemany(f"INSERT INTO input VALUES ({marks})", [tuple(r.values()) for r in rows])
    cur = con.execute(sql_export.render(model, dialect=eng))
    assert [d[0] for d in cur.description] == [*rows[0], "score", "prediction", "probability"]
    risk = risk_function(model.probability)
    got = [tuple(r) for r in cur.fetchall()]
    assert got == [(*r.values(), score(model, r), predict(model, r), risk(score(model, r))) for r in rows]


LONG = "Q" * 56 + "_age_"  # 61 bytes: "..._years" and "..._months" share their first 63 bytes


def test_postgres_refuses_a_name_it_would_cut_short(postgres_con):
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input(LONG + "years", "numeric"),),
                  terms=(Term(LONG + "years", ">=", 18, 2, "adult"),), intercept=-1)
    # the table PostgreSQL builds keeps 63 bytes of each name: "..._years" would read "..._mo"
    postgres_con.execute(f"CREATE TABLE input ({quote(LONG + 'months')} BIGINT)")
    postgres_con.execute("INSERT INTO input VALUES (240)")
    with pytest.raises(ExportError, match=r"'Q{56}_age_years' is 66 bytes long; postgres keeps only the first "
                                          r"63 bytes of a name"):
        sql_export.render(model, dialect="postgres")


@pytest.mark.parametrize("name, refused", [("é" * 31 + "x", False), ("é" * 32, True), ("名" * 21, False),
                                           ("名" * 22, True)])
def test_postgres_counts_the_limit_in_bytes_of_utf8(name, refused):
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input(name, "numeric"),),
                  terms=(Term(name, "linear", None, 1, "x"),), intercept=0)
    if refused:
        with pytest.raises(ExportError, match="63 bytes"):
            sql_export.render(model, dialect="postgres")
    else:
        assert quote(name) in sql_export.render(model, dialect="postgres")
    assert quote(name) in sql_export.render(model, dialect="sqlite")  # other dialects keep long names


def test_postgres_refuses_a_table_name_it_would_cut_short():
    model = _risky_model()
    with pytest.raises(ExportError, match="'" + "t" * 64 + "' is 64 bytes long"):
        sql_export.render(model, dialect="postgres", table="t" * 64)


@pytest.mark.parametrize("missing", ["null", "unmet"])
def test_a_model_of_1500_terms_runs_in_every_engine(engine, missing):
    """1500 terms in DuckDB and PostgreSQL; in SQLite its most, 900 (a sum is as deep as it is long)."""
    eng, con = engine
    n = 450 if eng == "sqlite" else 750
    model = long_model(n, missing)
    rows = [{f"x{k}": (k * (j + 3)) % 9 - 2 + 0.5 * (j % 2) for k in range(n)} for j in range(4)]
    rows[2]["x377"] = None  # a missing input of a linear term: no score
    number = "DOUBLE PRECISION" if eng == "postgres" else "DOUBLE"
    con.execute(f"CREATE TABLE input ({', '.join(f'{quote(name)} {number}' for name in rows[0])})")
    marks = ", ".join(["%s" if eng == "postgres" else "?"] * n)
    con.cursor().executemany(f"INSERT INTO input VALUES ({marks})", [tuple(r.values()) for r in rows])
    got = run_sql(eng, con, sql_export.render(model, dialect=eng))
    risk = risk_function(model.probability)
    assert [(g["score"], g["prediction"]) for g in got] == [(score(model, r), predict(model, r)) for r in rows]
    assert got[2]["score"] is None and got[2]["probability"] is None and isinstance(got[0]["score"], float)
    assert [g["probability"] for g in got[:2]] == pytest.approx([risk(score(model, r)) for r in rows[:2]], rel=1e-12)


def test_sqlite_refuses_a_model_longer_than_it_can_parse():
    with pytest.raises(ExportError, match="the model has 902 terms; a sqlite query adds at most 900 "):
        sql_export.render(long_model(451), dialect="sqlite")
