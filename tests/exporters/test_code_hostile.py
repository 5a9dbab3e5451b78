"""Hostile column and category names: the code exports stay correct and run no injected code.

Names try to close SQL identifiers and strings, break out of Python string literals and
comments, carry HTML and LaTeX specials, and non-ASCII text; categories hold quotes and
backslashes (PostgreSQL is run with standard_conforming_strings both on and off).
"""
from __future__ import annotations

import csv
import io
import math
from dataclasses import replace

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
from scorecard.exporters.registry import ExportError
from scorecard.exporters.verify import verify
from scorecard.runtime import GoldenRow, Input, Model, Target, Term, dump, predict, score
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


# Issue 15: hostile names every engine can hold, MariaDB included (at most 64 characters of
# U+0001..U+FFFF, not ending in a space; PostgreSQL keeps 63 bytes of a name), each attacking a
# quoting rule of some dialect: identifier quotes of every kind, a backslash (an escape in
# MariaDB's and ClickHouse's strings, and ClickHouse's names) before a quote and at the end,
# comment openers and a statement end, line breaks and tabs, the placeholders of DB-API
# drivers and of str.format and Jinja, right-to-left text, combining marks and an invisible
# bidirectional control, a name of PostgreSQL's 63 bytes, SQL keywords, and the names the
# query itself uses for its tables and columns (i, s, w, value, whitespace, rn). A name the
# query adds, in any case (Score), is refused: test_sql_refuses_an_input_named_as_an_added_column.
TICKS = "`tick``s` \"dq\"\"\" 'sq'' [br]"
BACKSLASH = "back\\slash \\' \\\" \\` ends\\"
COMMENT = "-- c */ /* c; DROP TABLE input; # x"
WHITE = "line\nbreak\ttab\r\nend"
FORMAT = "%s %(x)s %% ? :1 $1 {0} {{ x }} {% if %}"
BIDI = "\u05e9\u05b8\u05c1\u05dc\u05d5\u05b9\u05dd \u0645\u0631\u062d\u0628\u0627 e\u0301 \u202eder\u202c \u263a"
LONG = "n" * 55 + "_63bytes"  # PostgreSQL's longest name: 63 bytes
KEYWORD = "select"
QUOTING_CATEGORIES = ("it's", "`", "back\\slash", "ends\\", "%s", "{{ x }}", "-- x", "/* y", "na\u00efve e\u0301",
                      "\u05e9\u05dc\u05d5\u05dd", "Yes ", "YES", "yes", "")


def quoting_model() -> Model:
    """The names above on one card, with a risk table (so the SQLite query reads its score
    through json_each, whose column is ``value`` and whose alias is ``s``, both input names
    here) and the "unmet" policy (so blank tests join the whitespace table ``w``)."""
    model = Model(
        kind="linear", target=Target("out`come\"'\\ %s", "yes'`\\ {{ y }}"),
        inputs=(Input(TICKS, "numeric"), Input(BACKSLASH, "numeric"), Input(COMMENT, "binary"),
                Input(WHITE, "numeric"), Input(FORMAT, "binary"), Input(BIDI, "categorical", QUOTING_CATEGORIES[:-1]),
                Input(LONG, "numeric"), Input(KEYWORD, "numeric"), Input("value", "binary"), Input("s", "numeric"),
                Input("w", "categorical", ("w", "whitespace")), Input("whitespace", "numeric"), Input("i", "binary"),
                Input("rn", "numeric"), Input("ORDER", "numeric")),
        terms=(Term(TICKS, ">=", 3, 2, TICKS), Term(BACKSLASH, "<", 2.5, -1, BACKSLASH), Term(COMMENT, "linear", None, 3, COMMENT),
               Term(WHITE, ">=", 1, 1, WHITE), Term(FORMAT, "linear", None, -2, FORMAT),
               Term(BIDI, "==", "it's", 4, BIDI), Term(BIDI, "in", ("`", "back\\slash", "ends\\", "Yes "), -3, "quotes"),
               Term(BIDI, "in", ("%s", "{{ x }}", "-- x", "/* y", "na\u00efve e\u0301", "\u05e9\u05dc\u05d5\u05dd"), 2,
                    "{{ specials }} %s"),
               Term(BIDI, "missing", None, 1, "*/ unknown --"), Term(LONG, ">=", 2, 1, LONG), Term(KEYWORD, "<", 1, 2, "from"),
               Term("value", "linear", None, 1, "value"), Term("s", ">=", 2, -1, "s"), Term("w", "==", "whitespace", 2, "w"),
               Term("whitespace", ">=", 1, 1, "whitespace"), Term("i", "linear", None, 1, "i"),
               Term("rn", "<", 1, -1, "rn"), Term("ORDER", ">=", 2, 1, "order by")),
        intercept=-4, missing="unmet",
        probability={"method": "table", "table": [{"score": s, "risk": (s + 8) / 21 + 1e-9 * s} for s in range(-6, 13, 2)]})
    rows = quoting_rows()[:8]
    return replace(model, golden=tuple(GoldenRow(row, score(model, row), predict(model, row)) for row in rows))


def quoting_rows() -> list[dict]:
    """30 rows over every category, blanks (whitespace only too) in a condition's input and one
    in a linear term's binary input (that row has no score)."""
    rows = []
    for k in range(30):
        rows.append({TICKS: str(k % 5), BACKSLASH: str(k % 4 + 0.5 * (k % 2)), COMMENT: str(k % 2), WHITE: str(k % 3),
                     FORMAT: str((k // 2) % 2), BIDI: QUOTING_CATEGORIES[k % len(QUOTING_CATEGORIES)],
                     LONG: str(k % 4), KEYWORD: str(k % 3), "value": str((k // 3) % 2), "s": str(k % 6),
                     "w": ("w", "whitespace", " whitespace", "")[k % 4], "whitespace": str(k % 2), "i": str((k // 5) % 2),
                     "rn": str(k % 2), "ORDER": str(k % 7)})
    rows[3][BIDI] = " \t\u3000"
    rows[7][TICKS] = ""
    rows[11]["value"] = ""  # a linear term's input: no score
    return rows


def test_quoting_names_fit_every_engine():
    """The names are the longest and strangest every engine holds: MariaDB's rules and
    PostgreSQL's 63 bytes are kept, and the model covers what it claims."""
    model = quoting_model()
    names = [inp.name for inp in model.inputs]
    assert all(len(n) <= 64 and all(ord(c) <= 0xFFFF for c in n) and not n.endswith(" ") for n in names)
    assert max(len(n.encode("utf-8")) for n in names) == 63
    for text in ("`", '"', "'", "\\", "--", "/*", ";", "\n", "\t", "%", "?", "{{", "{%", "\u202e", "\u0301"):
        assert any(text in n for n in names), text
    scores = [score(model, r) for r in quoting_rows()]
    assert None in scores and len({s for s in scores if s is not None}) > 8


def test_verify_passes_on_quoting_names_in_every_engine(pg_dsn, mysql_dsn):
    """Every engine that runs here, MariaDB included, as written and with --explain: ok."""
    checks = verify(quoting_model(), quoting_rows(), pg_dsn=pg_dsn, mysql_dsn=mysql_dsn)
    ran = [c for c in checks if c.ok is not None]
    assert all(c.ok for c in ran), [c.line() for c in checks if not c.ok]
    engines = [c.engine.split(" (")[0].split(" ")[0] for c in ran]
    for engine in ("python", "sqlite", "duckdb", "postgres", "mysql", "clickhouse", "onnxruntime", "jpmml-evaluator"):
        assert engine in engines, (engine, [c.line() for c in checks])
    assert sum(c.engine.startswith("mysql (mariadb") for c in ran) == 2  # as written and --explain
    assert [c.engine for c in checks if c.ok is None] == ["tsql", "oracle", "snowflake", "bigquery"]


def test_scorecard_verify_says_ok_in_mariadb_for_quoting_names_and_why_not_for_an_emoji(cli, tmp_path, pg_dsn,
                                                                                      mysql_dsn):
    """The command a user runs: both MariaDB lines (as written, --explain) ok on the quoting
    names; on the hostile model, whose emoji MariaDB cannot hold, 'not run' with the reason, and
    the command still exits 0 (nothing differed)."""
    model, data = tmp_path / "quoting.json", tmp_path / "quoting.csv"
    dump(quoting_model(), str(model))
    with open(data, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(quoting_rows()[0]))
        writer.writeheader()
        writer.writerows(quoting_rows())
    run = cli("verify", model, "--data", data)
    assert run.code == 0, run.out + run.err
    mariadb = [line for line in run.out.splitlines() if line.split()[1:2] == ["mysql"]]
    assert len(mariadb) == 2 and all("(mariadb " in line and " ok: 38 rows, identical scores" in line
                                     for line in mariadb), run.out
    assert "FAILED" not in run.out
    emoji = tmp_path / "emoji.json"
    dump(hostile_model(), str(emoji))
    run = cli("verify", emoji)
    assert run.code == 0, run.out + run.err
    mariadb = [line for line in run.out.splitlines() if line.split()[1:2] == ["mysql"]]
    assert len(mariadb) == 2 and all(
        " not run: the export refuses this model: 'Größe (cm²) 名前 🙂' holds '🙂' (U+1F642), beyond U+FFFF; "
        "MariaDB and MySQL names are at most 64 characters" in line for line in mariadb), run.out


@pytest.mark.parametrize("name, explain", [("Score", None), ("PREDICTION", None), ("Probability", None),
                                           ("Reason_1", 2), ("POINTS_2", 2)])
def test_sql_refuses_an_input_named_as_an_added_column(name, explain):
    """SQLite, DuckDB and MariaDB take ``Score`` and ``score`` for one name: wrapped in a CTE or
    a view, SQLite read the input where the query meant its own score (every row wrong) and
    MariaDB refused the duplicate column. The export refuses it, in every dialect, naming both."""
    model = replace(quoting_model(), inputs=quoting_model().inputs + (Input(name, "numeric"),),
                    terms=quoting_model().terms + (Term(name, ">=", 1, 1, name),), golden=())
    for dialect in ("sqlite", "duckdb", "postgres", "mysql", "clickhouse", "ansi", "tsql"):
        with pytest.raises(ExportError, match=rf"input '{name}' clashes with the column '{name.lower()}' .* rename it"):
            sql_export.render(model, dialect=dialect, explain=explain)


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
