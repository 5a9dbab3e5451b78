"""Running the code exports in their real engines, the way a user would.

SQL: tables loaded with real types, then the query run. Python: the file run or imported by
path in a fresh stdlib-only interpreter. ONNX: onnxruntime fed NumPy columns.

Column types come from the data (integer, double, text; '' is NULL): PostgreSQL reads rows
with COPY, DuckDB from an Arrow table, SQLite through executemany with declared types.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pyarrow as pa


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


def run_python_export(path: Path, data: Path) -> subprocess.CompletedProcess:
    """``python FILE.py DATA.csv`` in a fresh interpreter with no site-packages (so no scorecard,
    no numpy: the file must stand on the standard library alone)."""
    return subprocess.run([sys.executable, "-I", "-S", str(path), str(data)], capture_output=True, text=True,
                          cwd=path.parent, env={"PATH": os.environ.get("PATH", "")})


DRIVER = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("exported", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
rows = json.load(sys.stdin)
names = sorted({{k for r in rows for k in r}})
columns = {{k: [r.get(k) for r in rows] for k in names}}
json.dump({result}, sys.stdout)
"""


def call_export(path, rows: list[dict], result: str):
    """Import the exported file by path in a fresh stdlib-only interpreter and return the JSON
    of ``result``, an expression over ``module``, ``rows`` and ``columns`` (each input name to
    its values in row order); JSON keeps ints and floats apart."""
    done = subprocess.run([sys.executable, "-I", "-S", "-c", DRIVER.format(result=result), str(path)],
                          input=json.dumps(rows), capture_output=True, text=True, check=True, cwd=path.parent)
    return json.loads(done.stdout)


def import_and_score(path, rows: list[dict]) -> list[tuple]:
    """score(row) and predict(row) of the exported file for each of ``rows``."""
    return [tuple(r) for r in call_export(path, rows, "[[module.score(r), module.predict(r)] for r in rows]")]


def onnx_feeds(model, rows: list[dict]) -> dict:
    """Columns as a user feeds them: doubles (NaN for blanks) and strings ('' for blanks)."""
    feeds = {}
    for inp in model.inputs:
        values = [r[inp.name] for r in rows]
        if inp.type == "categorical":
            feeds[inp.name] = np.array(values, dtype=object)
        else:
            feeds[inp.name] = np.array([float(v) if v.strip() else math.nan for v in values], dtype=np.float64)
    return feeds


def onnx_results(blob: bytes, feeds: dict) -> list[tuple]:
    session = ort.InferenceSession(blob, providers=["CPUExecutionProvider"])
    scores, predictions = session.run(["score", "prediction"], feeds)
    return [(None if math.isnan(s) else float(s), None if math.isnan(p) else int(p))
            for s, p in zip(scores, predictions)]
