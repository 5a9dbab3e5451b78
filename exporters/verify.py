"""Run every code export in its real engine and compare it with the runtime, row by row.

``verify(model, rows)`` scores the model's golden rows (and ``rows``) with
``scorecard.runtime`` and with each export the machine can run: the ``python`` file in
CPython, the ``sql`` query in SQLite, DuckDB and PostgreSQL, the ``onnx`` graph in
onnxruntime; the ``mysql`` query in MariaDB (or MySQL) at ``SCORECARD_MYSQL_DSN``, the
``clickhouse`` query in chdb (ClickHouse in a child process), the ``spark`` query in Spark SQL
(pyspark in local mode, one session in a child process for the whole run: spark_engine.py). The
dialects written through sqlglot (T-SQL, Oracle, Snowflake, BigQuery) are written, and listed
as not run: no engine of theirs runs here. A score must be numerically equal to the runtime's (None where the runtime has
none), and so must the prediction. A model with a score-to-risk map (``model.probability``)
also has its ``probability`` compared with ``runtime.risk``: exactly for a risk table (a
lookup of the same doubles); for the logistic map within a relative ``1e-12`` (absolute
``1e-300`` near 0), because each engine calls its own ``exp`` (C's libm, onnxruntime's own
vectorised kernel) and those may differ from Python's ``math.exp`` in the last bits.
Reason codes (runtime/explain.py) are checked in a second run of each export that has them:
the Python file's ``explain(row, k)``, the ``sql`` query written with ``explain=k``, the ONNX
graph built with ``explain=k``, for ``k`` = the model's terms, at most ``REASONS``: each
row's ``reason_j`` must be the runtime's text and ``points_j`` its points, exactly (no reason
only matches no reason: NULL, None, or ONNX's empty text and NaN). An
engine that is not installed (or PostgreSQL when ``SCORECARD_PG_DSN`` is unset, MariaDB when
``SCORECARD_MYSQL_DSN`` is), or an export the format refuses for this model, gives a check
that is not run (``ok`` None) with its reason, never a pass.
Rows are loaded into each engine with real types: numeric inputs as integer or double
columns (double as soon as one value is not integral), categorical inputs as text, missing
values as NULL / NaN / '' (a blank text of a categorical input as that text).
"""
from __future__ import annotations

import importlib.util
import math
import os
import platform
import sqlite3
import tempfile
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from scorecard.runtime import Input, Model, RowError, decide, explain, score
from scorecard.runtime.explain import reason_columns
from scorecard.runtime.risk import risk_function
from scorecard.runtime.score import coerce, contribution, int_limit, is_missing, read_inputs
from scorecard.runtime.table import added_columns, csv_records, open_csv

from . import onnx as onnx_export
from . import pmml as pmml_export
from . import python as python_export
from . import spark_engine
from . import sql as sql_export
from .layout import card, card_total, percent_text
from .registry import ExportError
from .sql_dialects import DIALECTS, dialect

PG_ENV = "SCORECARD_PG_DSN"
MYSQL_ENV = "SCORECARD_MYSQL_DSN"
#: The reason given for a dialect no engine here can run (written through sqlglot).
NO_ENGINE = "no engine here"
#: The most reason codes verify asks each export for (the whole ranking of a model of up to so many terms).
REASONS = 10
#: How close a logistic ``probability`` must be to the runtime's (see the module docstring).
LOGISTIC_REL_TOL = 1e-12
LOGISTIC_ABS_TOL = 1e-300


@dataclass(frozen=True)
class FormatCheck:
    """How one export did in one engine.

    ``ok`` is True when every row agreed, False when one did not (or the export could not be
    produced or run: ``first_mismatch`` then says why), None when the check was not run
    (``reason`` says why).
    """

    format: str
    engine: str
    ok: bool | None
    rows: int
    mismatches: int
    first_mismatch: str | None
    reason: str | None = None
    note: str | None = None  # e.g. how probabilities were compared

    def line(self, width: int = 22) -> str:
        """One line for a terminal: format, engine (padded to ``width``, so the lines of one
        run align), verdict and the first difference."""
        where = f"{self.format:<7} {self.engine:<{width}}"
        if self.ok is None:
            return f"{where} not run: {self.reason}"
        if self.ok:
            return f"{where} ok: {self.rows} rows, identical scores" + (self.note or "")
        if self.mismatches:
            return f"{where} FAILED: {self.mismatches} of {self.rows} rows differ; first: {self.first_mismatch}"
        return f"{where} FAILED: {self.first_mismatch}"


@dataclass(frozen=True)
class Case:
    """One row to check and what the runtime says about it."""

    where: str
    row: Mapping[str, object]
    score: int | float | None
    prediction: int | None
    probability: float | None = None
    reasons: tuple = ()  # reason_1..reason_k, points_1..points_k (None where there is none)


Result = tuple  # (score, prediction[, probability][, reason_1.., points_1..]) as an engine returns them


def _agree(expected: object, got: object) -> bool:
    """Numerically equal, with None (and NaN, ONNX's null) only matching None."""
    if isinstance(got, float) and math.isnan(got):
        got = None
    if expected is None or got is None:
        return expected is None and got is None
    return expected == got


def _close(expected: object, got: object) -> bool:
    """``_agree`` within the logistic tolerance (engines' ``exp`` differ in the last bits)."""
    if isinstance(got, float) and math.isnan(got):
        got = None
    if expected is None or got is None:
        return expected is None and got is None
    return math.isclose(expected, got, rel_tol=LOGISTIC_REL_TOL, abs_tol=LOGISTIC_ABS_TOL)  # type: ignore[arg-type]


def _same_reason(expected: object, got: object) -> bool:
    """A reason's text or points: equal, with None matching only None, NaN or ONNX's empty text."""
    if got == "":
        got = None
    return _agree(expected, got)


def _compare(fmt: str, engine: str, cases: list[Case], results: list[Result],
             probability: dict | None = None, reasons: int = 0) -> FormatCheck:
    """Scores and predictions must agree exactly; with ``probability`` (the model's map) each
    result's third value is compared with the runtime's risk too; with ``reasons`` k the last
    2k values with the runtime's reason codes."""
    if len(results) != len(cases):
        return FormatCheck(fmt, engine, False, len(cases), abs(len(cases) - len(results)),
                           f"{engine} returned {len(results)} rows for {len(cases)}")
    logistic = probability is not None and probability.get("method") == "logistic"
    same_risk = _close if logistic else _agree

    def ok(c: Case, r: Result) -> bool:
        if not (_agree(c.score, r[0]) and _agree(c.prediction, r[1])):
            return False
        if reasons and not all(_same_reason(e, g) for e, g in zip(c.reasons, r[len(r) - 2 * reasons:], strict=True)):
            return False
        return probability is None or same_risk(c.probability, r[2])

    bad = [(c, r) for c, r in zip(cases, results) if not ok(c, r)]
    first = None
    if bad:
        c, r = bad[0]
        first = (f"{c.where}: runtime score {c.score!r} prediction {c.prediction!r}, "
                 f"{engine} score {r[0]!r} prediction {r[1]!r}")
        if probability is not None:
            first += f"; runtime probability {c.probability!r}, {engine} probability {r[2]!r}"
        if reasons:
            first += f"; runtime reasons {list(c.reasons)!r}, {engine} reasons {list(r[len(r) - 2 * reasons:])!r}"
    note = None
    if probability is not None:
        note = (f", probabilities within {LOGISTIC_REL_TOL:g} (relative)" if logistic
                else ", identical probabilities")
    if reasons:
        note = (note or "") + f", identical reasons (--explain {reasons})"
    return FormatCheck(fmt, engine, not bad, len(cases), len(bad), first, note=note)


def _run(fmt: str, engine: str, cases: list[Case], run: Callable[[], list[Result]],
         probability: dict | None = None, reasons: int = 0) -> FormatCheck:
    """Run one export; an export that fails in its engine is a failure. One the format refuses
    to write for this model (an ExportError naming why, e.g. a name PostgreSQL would cut
    short) is not run: skipped with that reason."""
    try:
        results = run()
    except ExportError as exc:
        return _skip(fmt, engine, f"the export refuses this model: {exc}")
    except Exception as exc:  # the engine's own error is the finding: report it, keep checking
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return FormatCheck(fmt, engine, False, len(cases), 0, f"{type(exc).__name__}: {message}")
    return _compare(fmt, engine, cases, results, probability, reasons)


def _skip(fmt: str, engine: str, reason: str) -> FormatCheck:
    return FormatCheck(fmt, engine, None, 0, 0, None, reason)


# ---------------------------------------------------------------------------- rows and types


def _typed(model: Model, inp: Input, value: object) -> object:
    """A value as its engine column holds it: number or text, None when missing or unreadable
    (an unreadable value can only be in an input no term uses: the runtime refuses the rest).
    A blank text of a categorical input stays that text, as a text column holds it: every
    engine must read it as missing too."""
    if is_missing(value):
        return value if inp.type == "categorical" and isinstance(value, str) else None
    try:
        return coerce(inp, value, int_limit(model, inp.name))  # beyond: a double, as the runtime reads it
    except RowError:
        return None


@dataclass(frozen=True)
class Table:
    """The cases as typed columns: one per model input, plus a row number to keep order."""

    key: str
    columns: list[tuple[Input, str]]  # (input, 'int' | 'float' | 'text')
    values: list[tuple]


def _table(model: Model, cases: list[Case]) -> Table:
    key = "_row"
    while any(inp.name.lower() == key for inp in model.inputs):  # Spark reads names without regard to case
        key = "_" + key
    columns = []
    cells = []
    for inp in model.inputs:
        column = [_typed(model, inp, c.row.get(inp.name)) for c in cases]
        if inp.type == "categorical":
            kind = "text"
        elif all(v is None or isinstance(v, int) for v in column):
            kind = "int"
        else:
            kind = "float"
            column = [None if v is None else float(v) for v in column]
        columns.append((inp, kind))
        cells.append(column)
    values = [(k, *row) for k, row in enumerate(zip(*cells))] if cells else [(k,) for k in range(len(cases))]
    return Table(key, columns, values)


SQL_TYPES = {
    "sqlite": {"int": "INTEGER", "float": "REAL", "text": "TEXT"},
    "duckdb": {"int": "BIGINT", "float": "DOUBLE", "text": "VARCHAR"},
    "postgres": {"int": "BIGINT", "float": "DOUBLE PRECISION", "text": "TEXT"},
    "mysql": {"int": "BIGINT", "float": "DOUBLE", "text": "TEXT CHARACTER SET utf8mb4"},
}


def _sql_rows(engine: str, con, model: Model, table: Table, placeholder: str, temporary: bool = False,
             reasons: int = 0) -> list[Result]:
    """Load ``table`` as ``input`` through DB-API ``con`` and run the exported query over it."""
    d = dialect(engine)
    types = SQL_TYPES[engine]
    columns = [f"{d.ident(table.key)} BIGINT"] + [f"{d.ident(inp.name)} {types[kind]}" for inp, kind in table.columns]
    cur = con.cursor()
    cur.execute(f"CREATE {'TEMPORARY ' if temporary else ''}TABLE {d.ident('input')} ({', '.join(columns)})")
    if engine == "duckdb":
        _insert_frame(con, table)
    else:
        width = len(columns)
        per_statement = max(1, 30000 // width)
        row_marks = "(" + ", ".join([placeholder] * width) + ")"
        for start in range(0, len(table.values), per_statement):
            chunk = table.values[start:start + per_statement]
            cur.execute(f"INSERT INTO {d.ident('input')} VALUES {', '.join([row_marks] * len(chunk))}",
                        [v for row in chunk for v in row])
    cur.execute(_scored_query(model, engine, table.key, reasons))
    return [tuple(row[1:]) for row in cur.fetchall()]


def _scored_query(model: Model, engine: str, key: str, reasons: int) -> str:
    """The exported query wrapped as a user would wrap it (it ends without ``;``): the row key
    and the added columns, in key order."""
    d = dialect(engine)
    query = sql_export.render(model, dialect=engine, explain=reasons or None).rstrip()
    added = "".join(f", q.{d.ident(name)}" for name in added_columns(model) + (reason_columns(reasons) if reasons else ()))
    return f"SELECT q.{d.ident(key)}{added} FROM ({query}\n) AS q ORDER BY q.{d.ident(key)}"


def _insert_frame(con, table: Table) -> None:
    """Fill DuckDB's ``input`` from a pandas frame with nullable dtypes (NULLs stay NULL):
    binding thousands of parameters is slow in DuckDB, scanning a frame is not."""
    import pandas as pd

    dtypes = {"int": "Int64", "float": "Float64", "text": "string"}
    frame = pd.DataFrame({
        f"c{k}": pd.array([row[k] for row in table.values], dtype="Int64" if k == 0 else dtypes[kind])
        for k, kind in enumerate(["int"] + [kind for _, kind in table.columns])})
    con.register("scorecard_rows", frame)
    try:
        con.execute('INSERT INTO "input" SELECT * FROM scorecard_rows')
    finally:
        con.unregister("scorecard_rows")


# ---------------------------------------------------------------------------- engines


def _explained(engine: str, reasons: int) -> str:
    return f"{engine} --explain {reasons}" if reasons else engine


def check_python(model: Model, cases: list[Case], reasons: int = 0) -> FormatCheck:
    """The exported .py file, imported from disk as its own module, scoring every row (with
    ``reasons`` k: and its ``explain(row, k)``)."""
    engine = _explained(f"python {platform.python_version()}", reasons)

    def explained(module, row) -> tuple:
        found = module.explain(row, reasons) or []
        return reason_row([text for text, _ in found], [points for _, points in found], reasons)

    def run() -> list[Result]:
        with tempfile.TemporaryDirectory(prefix="scorecard-verify-") as tmp:
            path = os.path.join(tmp, "exported_model.py")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(python_export.render(model))
            spec = importlib.util.spec_from_file_location("scorecard_exported_model", path)
            module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
            spec.loader.exec_module(module)  # type: ignore[union-attr]
        risk = (lambda row: (module.probability(row),)) if model.probability is not None else (lambda row: ())
        why = (lambda row: explained(module, row)) if reasons else (lambda row: ())
        return [(module.score(c.row), module.predict(c.row), *risk(c.row), *why(c.row)) for c in cases]

    return _run("python", engine, cases, run, model.probability, reasons)


def check_sqlite(model: Model, cases: list[Case], reasons: int = 0) -> FormatCheck:
    """The sqlite-dialect query in the standard library's SQLite."""

    def run() -> list[Result]:
        con = sqlite3.connect(":memory:")
        try:
            return _sql_rows("sqlite", con, model, _table(model, cases), "?", reasons=reasons)
        finally:
            con.close()

    return _run("sql", _explained(f"sqlite {sqlite3.sqlite_version}", reasons), cases, run, model.probability, reasons)


def check_duckdb(model: Model, cases: list[Case], reasons: int = 0) -> FormatCheck:
    """The duckdb-dialect query in an in-memory DuckDB (skipped when duckdb is not installed)."""
    try:
        import duckdb
    except ImportError:
        return _skip("sql", _explained("duckdb", reasons), "duckdb is not installed (pip install 'scorecard[sql]')")

    def run() -> list[Result]:
        con = duckdb.connect(":memory:")
        try:
            return _sql_rows("duckdb", con, model, _table(model, cases), "?", reasons=reasons)
        finally:
            con.close()

    return _run("sql", _explained(f"duckdb {duckdb.__version__}", reasons), cases, run, model.probability, reasons)


def check_postgres(model: Model, cases: list[Case], dsn: str | None = None, reasons: int = 0) -> FormatCheck:
    """The postgres-dialect query over a temporary table in the server at SCORECARD_PG_DSN."""
    dsn = dsn or os.environ.get(PG_ENV)
    if not dsn:
        return _skip("sql", _explained("postgres", reasons), f"set {PG_ENV} to a PostgreSQL database to check it (.ci/postgres.sh starts one)")
    try:
        import psycopg
    except ImportError:
        return _skip("sql", _explained("postgres", reasons), "psycopg is not installed (pip install 'scorecard[sql]')")
    try:
        con = psycopg.connect(dsn, connect_timeout=10)
    except psycopg.Error as exc:
        return _skip("sql", _explained("postgres", reasons), f"cannot connect to {PG_ENV}: {str(exc).strip().splitlines()[0]}")
    version = con.info.server_version

    def run() -> list[Result]:
        try:
            return _sql_rows("postgres", con, model, _table(model, cases), "%s", temporary=True, reasons=reasons)
        finally:
            con.rollback()
            con.close()

    return _run("sql", _explained(f"postgres {version // 10000}.{version % 10000}", reasons), cases, run,
                model.probability, reasons)


def mysql_connection(dsn: str):
    """A PyMySQL connection (text in utf8mb4) to ``mysql://USER[:PASSWORD]@HOST[:PORT]/DATABASE``."""
    import urllib.parse

    import pymysql

    url = urllib.parse.urlsplit(dsn)
    if url.scheme not in ("mysql", "mariadb") or not url.hostname:
        raise ValueError(f"{MYSQL_ENV} is not mysql://USER@HOST:PORT/DATABASE: {dsn!r}")
    return pymysql.connect(host=url.hostname, port=url.port or 3306, user=urllib.parse.unquote(url.username or "root"),
                           password=urllib.parse.unquote(url.password or ""), database=url.path.lstrip("/") or None,
                           charset="utf8mb4", connect_timeout=10)


def check_mysql(model: Model, cases: list[Case], dsn: str | None = None, reasons: int = 0) -> FormatCheck:
    """The mysql-dialect query over a temporary table in the MariaDB (or MySQL) server at
    SCORECARD_MYSQL_DSN (.ci/mariadb.sh starts one)."""
    engine = _explained("mysql", reasons)
    dsn = dsn or os.environ.get(MYSQL_ENV)
    if not dsn:
        return _skip("sql", engine, f"set {MYSQL_ENV} to a MariaDB/MySQL database to check it (.ci/mariadb.sh starts one)")
    try:
        import pymysql
    except ImportError:
        return _skip("sql", engine, "pymysql is not installed (pip install 'scorecard[sql]')")
    try:
        con = mysql_connection(dsn)
    except (pymysql.Error, ValueError) as exc:
        return _skip("sql", engine, f"cannot connect to {MYSQL_ENV}: {str(exc).strip().splitlines()[0]}")
    with con.cursor() as cur:
        cur.execute("SELECT VERSION()")
        version = cur.fetchone()[0]  # e.g. 10.11.19-MariaDB-0+deb12u1
    server = "mariadb" if "mariadb" in version.lower() else "mysql"

    def run() -> list[Result]:
        try:
            return _sql_rows("mysql", con, model, _table(model, cases), "%s", temporary=True, reasons=reasons)
        finally:
            con.close()

    return _run("sql", _explained(f"mysql ({server} {version.split('-')[0]})", reasons), cases, run, model.probability, reasons)


#: ClickHouse (chdb) runs in a child process: chdb installs its own signal handlers, and with a
#: Java VM in the same process (JPype, Spark) the test suite crashed with a segmentation fault.
#: The child reads the statements that load the table and the query (JSON) and writes the rows.
_CHDB_CHILD = """
import json, sys
from chdb import session
job = json.load(sys.stdin)
s = session.Session()
s.query("SET output_format_json_quote_64bit_integers = 0")
for statement in job["setup"]:
    s.query(statement)
print(s.query(job["query"], "JSONCompact").data())
"""


def check_clickhouse(model: Model, cases: list[Case], reasons: int = 0) -> FormatCheck:
    """The clickhouse-dialect query in chdb (in-process ClickHouse, run in a child process),
    over a Memory table of Nullable columns."""
    import importlib.metadata
    import json
    import subprocess
    import sys

    if importlib.util.find_spec("chdb") is None:
        return _skip("sql", _explained("clickhouse", reasons), "chdb is not installed (pip install 'scorecard[sql]')")
    d = dialect("clickhouse")
    types = {"int": "Int64", "float": "Float64", "text": "String"}

    def literal(value: object) -> str:
        if value is None:
            return "NULL"
        if isinstance(value, str):
            return d.string(value)
        return repr(value) if isinstance(value, float) else str(value)  # nan and inf read as such

    def run() -> list[Result]:
        table = _table(model, cases)
        columns = [f"{d.ident(table.key)} Int64"] + [f"{d.ident(inp.name)} Nullable({types[kind]})"
                                                    for inp, kind in table.columns]
        setup = [f"CREATE TABLE {d.ident('input')} ({', '.join(columns)}) ENGINE = Memory"]
        for start in range(0, len(table.values), 2000):
            rows = ", ".join("(" + ", ".join(map(literal, row)) + ")" for row in table.values[start:start + 2000])
            setup.append(f"INSERT INTO {d.ident('input')} VALUES {rows}")
        job = {"setup": setup, "query": _scored_query(model, "clickhouse", table.key, reasons)}
        child = subprocess.run([sys.executable, "-c", _CHDB_CHILD], input=json.dumps(job), capture_output=True,
                               text=True, encoding="utf-8")
        if child.returncode != 0:
            lines = child.stderr.strip().splitlines() or [f"exit code {child.returncode}"]
            raise RuntimeError(f"ClickHouse failed: {lines[-1]}")
        out = json.loads(child.stdout)
        # ClickHouse writes a large double in plain digits (-27670116110564327000): read it as a double again
        floats = ["Float" in column["type"] for column in out["meta"]]
        return [tuple(float(v) if f and v is not None else v for v, f in zip(row, floats))[1:] for row in out["data"]]

    engine = f"clickhouse (chdb {importlib.metadata.version('chdb')})"
    return _run("sql", _explained(engine, reasons), cases, run, model.probability, reasons)


def check_spark(model: Model, cases: list[Case], reasons: int = 0) -> FormatCheck:
    """The spark-dialect query in Spark SQL: pyspark in local mode, in the child process this
    process shares for every check (spark_engine.py), over a view of BIGINT, DOUBLE and STRING
    columns. Not run when pyspark or Java is missing, or the session cannot start."""
    why = spark_engine.missing()
    if why is not None:
        return _skip("sql", _explained("spark", reasons), why)
    engine = _explained(spark_engine.engine_name(), reasons)
    table = _table(model, cases)
    try:
        query = _scored_query(model, "spark", table.key, reasons)
    except ExportError as exc:
        return _skip("sql", engine, f"the export refuses this model: {exc}")
    session = spark_engine.shared()
    try:
        session.start()
    except spark_engine.SparkError as exc:
        return _skip("sql", engine, f"Spark could not start: {exc}")
    columns = [(table.key, "int")] + [(inp.name, kind) for inp, kind in table.columns]

    def run() -> list[Result]:
        answer = session.run(columns, table.values, [query])[0]
        if isinstance(answer, str):
            raise RuntimeError(f"Spark failed: {answer}")
        return [tuple(row[1:]) for row in answer]

    return _run("sql", engine, cases, run, model.probability, reasons)


def check_not_runnable(model: Model, name: str) -> FormatCheck:
    """A dialect written through sqlglot (sql_transpile.py): written, with and without reason
    codes, so an export it cannot write is reported, and listed as not run, never ok."""
    try:
        for reasons in (None, reasons_for(model)):
            sql_export.render(model, dialect=name, explain=reasons)
    except ExportError as exc:
        return _skip("sql", name, f"the export refuses this model: {exc}")
    return _skip("sql", name, NO_ENGINE)


def check_onnx(model: Model, cases: list[Case], onnx_input: str = "columns", reasons: int = 0) -> FormatCheck:
    """The ONNX graph in onnxruntime (skipped when onnx or onnxruntime is not installed), with
    one named input per column (``columns``) or the numeric inputs stacked in one double
    matrix in the stated column order (``matrix``, engine ``onnxruntime ... matrix``)."""
    try:
        import numpy as np
        import onnxruntime as ort
    except ImportError:
        return _skip("onnx", _explained("onnxruntime", reasons), "onnxruntime is not installed (pip install 'scorecard[onnx]')")

    def run() -> list[Result]:
        table = _table(model, cases)
        session = ort.InferenceSession(onnx_export.render(model, onnx_input, explain=reasons or None),
                                       providers=["CPUExecutionProvider"])
        feeds = {}
        for k, (inp, kind) in enumerate(table.columns, start=1):
            column = [row[k] for row in table.values]
            if kind == "text":
                feeds[inp.name] = np.array(["" if v is None else v for v in column], dtype=object)
            else:
                feeds[inp.name] = np.array([math.nan if v is None else float(v) for v in column], dtype=np.float64)
        if onnx_input == "matrix":
            matrix, columns = onnx_export.matrix_columns(model)
            stacked = np.empty((len(cases), len(columns)), dtype=np.float64)
            for j, name in enumerate(columns):
                stacked[:, j] = feeds[name]
            feeds = {name: feeds[name] for name in feeds if model.input(name).type == "categorical"
                     and name in {i.name for i in model.used_inputs}}
            feeds[matrix] = stacked
        names = list(added_columns(model)) + list(reason_columns(reasons) if reasons else ())
        columns = session.run(names, feeds)  # score, prediction (and probability, reasons)
        return [tuple(v if isinstance(v, str) else float(v) for v in row) for row in zip(*columns)]

    engine = f"onnxruntime {ort.__version__}" + (" matrix" if onnx_input == "matrix" else "")
    return _run("onnx", _explained(engine, reasons), cases, run, model.probability, reasons)


#: The JPMML-Evaluator exceptions that mean "invalid result": a missing value of a
#: ``returnInvalid`` input, or no Attribute matched (a blank text under "null").
PMML_INVALID = ("org.jpmml.evaluator.ValueCheckException", "org.jpmml.evaluator.UndefinedResultException",
                "org.jpmml.evaluator.InvalidResultException")

#: The engine runs in a child process: a Java VM inside this one (JPype) breaks native code that
#: runs after it (CP-SAT crashed with a segmentation fault in the same process). The child reads
#: the PMML file's path and the rows (JSON) and writes each row's outputs, or null for an invalid
#: result.
_PMML_CHILD = """
import json, sys
import jpmml_evaluator
invalid = set(sys.argv[2:])
evaluator = jpmml_evaluator.make_evaluator(sys.argv[1], backend="jpype").verify()
out = []
for arguments in json.load(sys.stdin):
    try:
        out.append(evaluator.evaluate(arguments))
    except jpmml_evaluator.JavaError as exc:
        if exc.className not in invalid:
            raise
        out.append(None)
json.dump(out, sys.stdout)
"""


def check_pmml(model: Model, cases: list[Case]) -> FormatCheck:
    """The PMML Scorecard in JPMML-Evaluator (the reference PMML engine, Java through JPype,
    in a child process), one row at a time: an invalid result is no score. Also checks the
    reason codes: the codes the engine ranks first must be the terms with positive points,
    ranked by ``runtime.score.contribution`` (highest first, ties in term order). Skipped when
    jpmml_evaluator or a Java runtime is missing."""
    import importlib.metadata
    import json
    import shutil
    import subprocess
    import sys
    import xml.etree.ElementTree as ET

    if importlib.util.find_spec("jpmml_evaluator") is None:
        return _skip("pmml", "jpmml-evaluator", "jpmml_evaluator is not installed (pip install 'scorecard[pmml]')")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        return _skip("pmml", "jpmml-evaluator", "no Java runtime (apt-get install openjdk-17-jre-headless)")
    engine = f"jpmml-evaluator {importlib.metadata.version('jpmml_evaluator')}"
    reasons_wrong: list[str] = []

    def run() -> list[Result]:
        text = pmml_export.render(model)
        tag = "{" + pmml_export.NAMESPACE + "}OutputField"
        reason_fields = [f.get("name") for f in ET.fromstring(text).iter(tag) if f.get("feature") == "reasonCode"]
        table = _table(model, cases)
        rows = [{inp.name: row[k] for k, (inp, _) in enumerate(table.columns, start=1)} for row in table.values]
        with tempfile.TemporaryDirectory(prefix="scorecard-verify-") as tmp:
            path = os.path.join(tmp, "model.pmml")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            child = subprocess.run([sys.executable, "-c", _PMML_CHILD, path, *PMML_INVALID], input=json.dumps(rows),
                                   capture_output=True, text=True, encoding="utf-8")
        if child.returncode != 0:
            lines = child.stderr.strip().splitlines() or [f"exit code {child.returncode}"]
            raise RuntimeError(f"the PMML engine failed: {lines[-1]}")
        results: list[Result] = []
        for case, out in zip(cases, json.loads(child.stdout)):
            if out is None:
                results.append((None, None, None))
                continue
            results.append((out["score"], out["prediction"], out.get("probability")))
            values = read_inputs(model, case.row)
            if values is not None and not reasons_wrong:
                want = pmml_export.ranked_reasons(model, [contribution(t, values[t.input]) for t in model.terms])
                got = [out[name] for name in reason_fields][:len(want)]
                if got != want:
                    reasons_wrong.append(f"{case.where}: runtime reasons {want!r}, {engine} {got!r}")
        return results

    check = _run("pmml", engine, cases, run, model.probability)
    if check.ok and reasons_wrong:
        return FormatCheck("pmml", engine, False, len(cases), 1, f"reason codes differ; {reasons_wrong[0]}")
    if check.ok:
        return FormatCheck("pmml", engine, True, check.rows, 0, None, note=(check.note or "") + ", identical reason codes")
    return check


# ---------------------------------------------------------------------------- entry points


def reasons_for(model: Model) -> int:
    """How many reason codes verify asks for: every term's, at most REASONS (at least 1)."""
    return max(1, min(len(model.terms), REASONS))


def reason_row(texts: list, points: list, k: int) -> tuple:
    """reason_1..reason_k, points_1..points_k padded with None."""
    pad = [None] * (k - len(texts))
    return (*texts, *pad, *points, *pad)


def cases_for(model: Model, rows: Iterable[Mapping[str, object]] | None = None, reasons: int = 0) -> list[Case]:
    """The golden rows and ``rows`` with the runtime's score and prediction for each (and with
    ``reasons`` k its k reason codes)."""
    risk = risk_function(model.probability)  # runtime.risk(model, value), checked once

    def case(where: str, row: Mapping[str, object]) -> Case:
        try:
            value = score(model, row)
            found = (explain(model, row, reasons) or []) if reasons else []
        except RowError as exc:
            raise RowError(f"{where}: {exc}") from None
        why = reason_row([r.text for r in found], [r.points for r in found], reasons) if reasons else ()
        return Case(where, row, value, decide(value, model.threshold), risk(value), why)

    return ([case(f"golden row {k}", g.row) for k, g in enumerate(model.golden)]
            + [case(f"data row {k + 1}", row) for k, row in enumerate(rows or ())])


def check_golden(model: Model, cases: list[Case]) -> FormatCheck:
    """The scores stored in the model file against the runtime's (the reference itself)."""
    golden = cases[:len(model.golden)]
    results = [(g.score, g.prediction) for g in model.golden]
    return _compare("model", "golden rows", golden, results)


def check_card(model: Model, cases: list[Case]) -> FormatCheck:
    """SCORE on the printed card (HTML, LaTeX, text: one layout) against the runtime's score:
    the total a person adds up on each golden row, the verdict beside the card's one
    threshold, and the risk the card prints at that total, as printed (one decimal of a
    percent; where it prints one: a logistic card showing a sample of totals is compared at
    those)."""
    c = card(model)
    golden = cases[:len(model.golden)]
    results = []
    for case in golden:
        total = card_total(c, read_inputs(model, case.row))
        shown = c.risk_at(total)
        same = shown is None or case.probability is not None and percent_text(shown) == percent_text(case.probability)
        results.append((total, decide(total, c.threshold), case.probability if same else shown))
    check = _compare("card", "hand-added", golden, results, model.probability)
    return check if model.probability is None else FormatCheck(
        check.format, check.engine, check.ok, check.rows, check.mismatches, check.first_mismatch,
        note=", the threshold and the risks the card prints")


def verify(model: Model, rows: list[dict] | None = None, pg_dsn: str | None = None,
           mysql_dsn: str | None = None) -> list[FormatCheck]:
    """Check the card and every code export on the golden rows (and ``rows``) in every
    available engine."""
    k = reasons_for(model)
    if spark_engine.missing() is None:
        spark_engine.shared()  # its Java VM boots while the other engines run
    cases = cases_for(model, rows, k)
    checks = [check_golden(model, cases), check_card(model, cases)] if model.golden else []
    for reasons in (0, k):  # the exports as written by default, then with their reason codes
        checks += [check_python(model, cases, reasons), check_sqlite(model, cases, reasons),
                   check_duckdb(model, cases, reasons), check_postgres(model, cases, pg_dsn, reasons),
                   check_mysql(model, cases, mysql_dsn, reasons), check_clickhouse(model, cases, reasons),
                   check_spark(model, cases, reasons),
                   check_onnx(model, cases, reasons=reasons), check_onnx(model, cases, "matrix", reasons)]
    checks.append(check_pmml(model, cases))  # its reason codes are part of the file: checked each time
    checks += [check_not_runnable(model, name) for name, d in DIALECTS.items() if d.via is not None]
    return checks


def read_rows(path: str) -> list[dict]:
    """A CSV (or Parquet) file's rows as dicts; CSV values stay strings, as the runtime reads them."""
    if path.lower().endswith((".parquet", ".pq")):
        import pandas as pd

        return pd.read_parquet(path).to_dict("records")
    try:
        with open_csv(path) as fh:
            return rows_of(fh, path)
    except FileNotFoundError:
        raise RowError(f"{path}: no such file") from None
    except OSError as exc:
        raise RowError(f"{path}: cannot read the data ({exc.strerror or exc})") from None


def rows_of(infile, source: str) -> list[dict]:
    """CSV text's rows as dicts, read as ``predict`` reads them (runtime.table.csv_records):
    duplicate column names, ragged rows and non-UTF-8 text are refused the same way."""
    header, records = csv_records(infile, source)
    return [dict(zip(header, cells)) for _, cells in records]


def verify_all(model: Model, data: str | None = None, rows: list[dict] | None = None) -> list[FormatCheck]:
    """``verify`` over the golden rows and, when given, the rows of the file ``data`` (or
    ``rows``, already read from it)."""
    if rows is None:
        rows = read_rows(data) if data else []
    if rows:
        lacking = [i.name for i in model.used_inputs if i.name not in rows[0]]
        if lacking:
            raise RowError(f"{data}: the model needs column {lacking[0]!r}, which the data lacks")
    if not rows and not model.golden:
        raise ExportError("nothing to verify: the model has no golden rows and no --data was given")
    return verify(model, rows)
