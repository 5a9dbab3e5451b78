"""``scorecard export --format sql`` as a data engineer calls it: ``--table`` a dotted path,
``--keep``, ``--as view NAME``, ``--statement``; their mistakes are one line and exit 2."""
from __future__ import annotations

import sqlite3

import pytest
from scorecard.runtime import Input, Model, Target, Term, dump, score


def _model() -> Model:
    return Model("linear", Target("y", 1), (Input("glu", "numeric"), Input("race", "categorical")),
                 (Term("glu", ">=", 150, 2, "glu >= 150"), Term("race", "==", "x", 1, "race x")), -1,
                 missing="unmet")


@pytest.fixture
def model_path(tmp_path):
    path = tmp_path / "m.json"
    dump(_model(), str(path))
    return path


ROWS = [(1, 160.0, "x", "a"), (2, 100.0, " ", "b"), (3, None, "y", "c")]


def _database() -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    con.execute("ATTACH ':memory:' AS ehr")
    con.execute('CREATE TABLE ehr.vitals (id INTEGER, glu REAL, race TEXT, note TEXT)')
    con.executemany("INSERT INTO ehr.vitals VALUES (?, ?, ?, ?)", ROWS)
    return con


def test_export_reads_a_dotted_table_keeps_columns_and_writes_a_view(cli, model_path, tmp_path):
    out = tmp_path / "q.sql"
    run = cli("export", model_path, "--format", "sql", "--dialect", "sqlite", "--table", "ehr.vitals",
              "--keep", "id", "--as", "view", "ehr.scored", "--statement", "-o", out)
    assert run.code == 0, run.err
    text = out.read_text(encoding="utf-8")
    assert 'CREATE VIEW "ehr"."scored" AS' in text and 'FROM "ehr"."vitals" AS i' in text and text.endswith(";\n")
    con = _database()
    con.executescript(text)
    got = con.execute('SELECT * FROM ehr.scored').fetchall()
    model = _model()
    assert got == [(r[0], score(model, {"glu": r[1], "race": r[2]}), 1 if r == ROWS[0] else 0) for r in ROWS]


def test_without_statement_the_query_ends_without_a_semicolon(cli, model_path, tmp_path):
    out = tmp_path / "q.sql"
    assert cli("export", model_path, "--format", "sql", "--dialect", "sqlite", "--table", "ehr.vitals",
               "-o", out).code == 0
    text = out.read_text(encoding="utf-8")
    assert not text.rstrip().endswith(";")
    got = _database().execute(f"WITH q AS (\n{text}) SELECT count(*), sum(score) FROM q").fetchone()
    assert got == (3, 3)  # 2 + 1, 0 (a blank race meets nothing), 0 (no glu)


@pytest.mark.parametrize("args, message", [
    (("--table", "ehr..vitals"), "--table 'ehr..vitals': an empty name"),
    (("--table", '"ehr.vitals'), "never closed"),
    (("--keep", "id,"), "--keep 'id,': an empty name after the last ','"),
    (("--as", "table", "x"), "--as 'table': write --as view NAME"),
    (("--as", "view", "a..b"), "--as view 'a..b': an empty name"),
])
def test_a_bad_sql_option_is_one_line_and_exit_2(cli, model_path, tmp_path, args, message):
    out = tmp_path / "q.sql"
    run = cli("export", model_path, "--format", "sql", *args, "-o", out)
    assert run.code == 2 and run.err.startswith("error: ") and run.err.count("\n") == 1, run.err
    assert message in run.err and not out.exists()


@pytest.mark.parametrize("args, flag", [(("--keep", "id"), "--keep"), (("--as", "view", "v"), "--as view"),
                                        (("--statement",), "--statement")])
def test_sql_options_do_not_apply_to_other_formats(cli, model_path, tmp_path, args, flag):
    run = cli("export", model_path, "--format", "python", *args, "-o", tmp_path / "m.py")
    assert run.code == 2 and f"{flag} does not apply to --format python" in run.err
