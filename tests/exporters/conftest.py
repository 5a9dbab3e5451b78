"""Hand-built models over the real datasets, and the real engines the exports run in.

The models are built with the runtime dataclasses (no trainer needed), each shaped like
what the trainer produces for one kind of data: integer linear (breastcancer), categorical
with missing values (mushroom_raw), real-valued with float points (heart, spambase),
M-of-N, and an imputing model. Tables are loaded the way a user would load them: DuckDB
sniffs the CSV, PostgreSQL reads it with COPY, SQLite gets declared column types.
"""
from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scorecard.runtime import Input, Model, Target, Term

DATASETS = Path("/work/shared/datasets")
ROOT = Path(__file__).resolve().parents[2]


def read_rows(name: str) -> list[dict[str, str]]:
    """A dataset's rows as the csv module reads them (every value a string)."""
    with open(DATASETS / name, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def num(name: str) -> Input:
    return Input(name, "numeric")


def cat(name: str, categories: tuple[str, ...] | None = None) -> Input:
    return Input(name, "categorical", categories)


def breastcancer_model() -> Model:
    """The paper's 2-feature breastcancer system: 2 x UniformityOfCellSize + BareNuclei > 8."""
    return Model(
        kind="linear", target=Target("Benign", 1),
        inputs=(num("UniformityOfCellSize"), num("BareNuclei")),
        terms=(Term("UniformityOfCellSize", "linear", None, 2, "UniformityOfCellSize"),
               Term("BareNuclei", "linear", None, 1, "BareNuclei")),
        intercept=-8)


def mushroom_model(missing: str | dict = "null") -> Model:
    """Categorical terms, ``==`` and ``in``, on mushroom_raw (stalk_root is '' in 2480 rows)."""
    return Model(
        kind="linear", target=Target("poisonous", 1),
        inputs=(cat("odor"), cat("spore_print_color"), cat("stalk_root"), cat("gill_size")),
        terms=(Term("odor", "in", ("foul", "pungent", "creosote", "fishy", "spicy", "musty"), 6, "odor is bad"),
               Term("odor", "==", "none", -2, "odor = none"),
               Term("spore_print_color", "==", "green", 5, "spore print green"),
               Term("stalk_root", "in", ("club", "rooted"), -1, "stalk root club or rooted"),
               Term("gill_size", "==", "narrow", 2, "gill size narrow")),
        intercept=-1, missing=missing)


def heart_model() -> Model:
    """Real-valued inputs, float points and thresholds (scores are floats)."""
    return Model(
        kind="linear", target=Target("Disease", 1),
        inputs=(num("ExerciseSTDepression"), num("NumVesselsByFlourosopy"),
                num("MaxExerciseHRTargetRatio"), Input("Male", "binary"), num("ExerciseAngina")),
        terms=(Term("ExerciseSTDepression", "linear", None, 0.7, "0.7 x ST depression"),
               Term("NumVesselsByFlourosopy", "linear", None, 1.3, "1.3 x vessels"),
               Term("MaxExerciseHRTargetRatio", "<", 0.35, 0.1, "HR ratio < 0.35"),
               Term("MaxExerciseHRTargetRatio", ">=", 0.6, -0.2, "HR ratio >= 0.6"),
               Term("MaxExerciseHRTargetRatio", "linear", None, -1.7, "-1.7 x HR ratio"),
               Term("Male", "==", 1, 0.3, "male"),
               Term("ExerciseAngina", "linear", None, 1, "exercise angina")),
        intercept=-1.1)


SPAM_TERMS = (("WordFreqRemove", 2.7), ("WordFreqFree", 0.1), ("CharFreqDollarSign", 3.3),
              ("WordFreqHP", -1.9), ("CapitalRunLengthAverage", 0.01), ("WordFreqGeorge", -0.3),
              ("CharFreqExcalamationMark", 0.7), ("WordFreqOur", 0.2))


def spambase_model() -> Model:
    """Many float terms on real-valued frequencies: float sums that must agree to the bit."""
    return Model(
        kind="linear", target=Target("Spam", 1),
        inputs=tuple(num(n) for n, _ in SPAM_TERMS),
        terms=tuple(Term(n, "linear", None, p, f"{p} x {n}") for n, p in SPAM_TERMS)
        + (Term("CapitalRunLengthAverage", ">=", 3.5, 0.45, "long capital runs"),),
        intercept=-0.6)


def mofn_model() -> Model:
    """An M-of-N rule table on breastcancer: malignant (Benign = 0) when 2 of 4 rules hold."""
    return Model(
        kind="m_of_n", target=Target("Benign", 0),
        inputs=(num("ClumpThickness"), num("UniformityOfCellSize"), num("BareNuclei"), num("NormalNucleoli")),
        terms=(Term("ClumpThickness", ">=", 7, 1, "ClumpThickness >= 7"),
               Term("UniformityOfCellSize", ">=", 4, 1, "UniformityOfCellSize >= 4"),
               Term("BareNuclei", ">=", 5, 1, "BareNuclei >= 5"),
               Term("NormalNucleoli", "<", 3, 1, "NormalNucleoli < 3")),
        intercept=-1)


def imputing_model() -> Model:
    """Missing stalk_root replaced by 'bulbous' (categorical impute)."""
    return mushroom_model(missing={"impute": {"stalk_root": "bulbous"}})


CASES = {
    "breastcancer": (breastcancer_model, "breastcancer.csv"),
    "mushroom": (mushroom_model, "mushroom_raw.csv"),
    "heart": (heart_model, "heart.csv"),
    "spambase": (spambase_model, "spambase.csv"),
    "mofn": (mofn_model, "breastcancer.csv"),
    "impute": (imputing_model, "mushroom_raw.csv"),
}


@pytest.fixture(params=sorted(CASES))
def case(request) -> tuple[str, Model, str]:
    """(case name, model, dataset file) for every hand-built model."""
    build, data = CASES[request.param]
    return request.param, build(), data


# ---------------------------------------------------------------------------- engines


def column_types(rows: list[dict[str, str]]) -> dict[str, str]:
    """'int', 'float' or 'text' per column, from the values (empty = NULL)."""
    types = {}
    for name in rows[0]:
        kind = "int"
        for row in rows:
            v = row[name]
            if v == "":
                continue
            try:
                int(v)
                continue
            except ValueError:
                pass
            try:
                float(v)
                kind = "float"
            except ValueError:
                kind = "text"
                break
        types[name] = kind
    return types


def typed(value: str, kind: str) -> object:
    if value == "":
        return None
    return int(value) if kind == "int" else float(value) if kind == "float" else value


SQL_TYPES = {
    "sqlite": {"int": "INTEGER", "float": "REAL", "text": "TEXT"},
    "duckdb": {"int": "BIGINT", "float": "DOUBLE", "text": "VARCHAR"},
    "postgres": {"int": "BIGINT", "float": "DOUBLE PRECISION", "text": "TEXT"},
}


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def create_table(engine: str, con, rows: list[dict[str, str]], table: str = "input") -> None:
    """Create ``table`` with real column types and fill it with ``rows`` (strings, '' = NULL)."""
    types = column_types(rows)
    names = list(types)
    cols = ", ".join(f"{quote(n)} {SQL_TYPES[engine][types[n]]}" for n in names)
    con.execute(f"CREATE TABLE {quote(table)} ({cols})")
    values = [tuple(typed(r[n], types[n]) for n in names) for r in rows]
    if engine == "postgres":
        with con.cursor().copy(f"COPY {quote(table)} FROM STDIN") as copy:
            for v in values:
                copy.write_row(v)
        return
    if engine == "duckdb":
        import pyarrow as pa

        arrays = [pa.array([v[k] for v in values], type={"int": pa.int64(), "float": pa.float64(),
                                                         "text": pa.string()}[types[n]])
                  for k, n in enumerate(names)]
        arrow = pa.Table.from_arrays(arrays, names=[f"c{k}" for k in range(len(names))])
        con.register("arrow_rows", arrow)
        con.execute(f"INSERT INTO {quote(table)} SELECT * FROM arrow_rows")
        con.unregister("arrow_rows")
        return
    con.executemany(f"INSERT INTO {quote(table)} VALUES ({', '.join('?' * len(names))})", values)


def run_sql(engine: str, con, query: str) -> list[dict]:
    """Run a query; rows as dicts by column name."""
    cur = con.execute(query)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


@pytest.fixture
def sqlite_con():
    import sqlite3

    con = sqlite3.connect(":memory:")
    yield con
    con.close()


@pytest.fixture
def duckdb_con():
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    yield con
    con.close()


@pytest.fixture(scope="session")
def pg_dsn() -> str:
    """A reachable PostgreSQL: SCORECARD_PG_DSN, or one started by .ci/postgres.sh.

    In CI (CI=true) a missing server fails the test instead of skipping it.
    """
    dsn = os.environ.get("SCORECARD_PG_DSN")
    if not dsn:
        done = subprocess.run(["bash", str(ROOT / ".ci" / "postgres.sh")], capture_output=True, text=True)
        lines = [ln for ln in done.stdout.splitlines() if ln.startswith("export SCORECARD_PG_DSN=")]
        if done.returncode != 0 or not lines:
            reason = f"no PostgreSQL: set SCORECARD_PG_DSN or fix .ci/postgres.sh ({done.stderr.strip()[-300:]})"
            if os.environ.get("CI", "").lower() == "true":
                pytest.fail(reason)
            pytest.skip(reason)
        dsn = lines[-1].split("=", 1)[1]
        os.environ["SCORECARD_PG_DSN"] = dsn
    return dsn


@pytest.fixture
def postgres_con(pg_dsn):
    """A connection in its own schema, dropped afterwards (tests never touch each other)."""
    psycopg = pytest.importorskip("psycopg")
    import uuid

    schema = f"t_{uuid.uuid4().hex[:12]}"
    con = psycopg.connect(pg_dsn, autocommit=True)
    con.execute(f'CREATE SCHEMA "{schema}"')
    con.execute(f'SET search_path TO "{schema}"')
    yield con
    con.execute(f'DROP SCHEMA "{schema}" CASCADE')
    con.close()


@pytest.fixture
def engine_con(request):
    """A connection for the engine named by the test's ``engine`` parameter."""
    return request.getfixturevalue(f"{request.node.callspec.params['engine']}_con")


ENGINES = ["sqlite", "duckdb", "postgres"]


def run_python_export(path: Path, data: Path) -> subprocess.CompletedProcess:
    """``python FILE.py DATA.csv`` in a fresh interpreter, outside the project."""
    return subprocess.run([sys.executable, "-I", str(path), str(data)], capture_output=True, text=True,
                          cwd=path.parent, env={"PATH": os.environ.get("PATH", "")})
