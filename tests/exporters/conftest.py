"""Fixtures for the code-export tests: the hand-built models and the real SQL engines.

PostgreSQL comes from SCORECARD_PG_DSN, or from a throwaway server .ci/postgres.sh starts;
MariaDB from SCORECARD_MYSQL_DSN or .ci/mariadb.sh. Without one the tests that need the
servers (``pg_dsn``) skip with the reason, except in CI (CI=true) where they fail.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from code_models import CASES
from scorecard.runtime import Model

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=sorted(CASES))
def case(request) -> tuple[str, Model, str]:
    """(case name, model, dataset file) for every hand-built model."""
    build, data = CASES[request.param]
    return request.param, build(), data


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


def _server(variable: str, script: str, what: str) -> str:
    """The DSN in ``variable``, or the one ``.ci/SCRIPT`` prints after starting a throwaway
    server (exported for verify). In CI (CI=true) a missing server fails the test instead of
    skipping it."""
    dsn = os.environ.get(variable)
    if not dsn:
        done = subprocess.run(["bash", str(ROOT / ".ci" / script)], capture_output=True, text=True)
        lines = [ln for ln in done.stdout.splitlines() if ln.startswith(f"export {variable}=")]
        if done.returncode != 0 or not lines:
            reason = f"no {what}: set {variable} or fix .ci/{script} ({done.stderr.strip()[-300:]})"
            if os.environ.get("CI", "").lower() == "true":
                pytest.fail(reason)
            pytest.skip(reason)
        dsn = lines[-1].split("=", 1)[1]
        os.environ[variable] = dsn
    return dsn


@pytest.fixture(scope="session")
def mysql_dsn() -> str:
    """A reachable MariaDB: SCORECARD_MYSQL_DSN, or one started by .ci/mariadb.sh."""
    return _server("SCORECARD_MYSQL_DSN", "mariadb.sh", "MariaDB")


@pytest.fixture(scope="session")
def pg_dsn(mysql_dsn) -> str:
    """A reachable PostgreSQL: SCORECARD_PG_DSN, or one started by .ci/postgres.sh. Asking
    for it also starts MariaDB (``mysql_dsn``): the tests that run verify against the SQL
    servers expect every engine there."""
    return _server("SCORECARD_PG_DSN", "postgres.sh", "PostgreSQL")


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


@pytest.fixture(params=["sqlite", "duckdb", "postgres"])
def engine(request) -> tuple[str, object]:
    """(engine name, open connection) for each real SQL engine."""
    return request.param, request.getfixturevalue(f"{request.param}_con")
