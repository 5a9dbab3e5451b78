"""Issue 12 item 9: numbers beyond the exact range of a double, in every code export.

The contract ("Score semantics", numbers beyond 2^53): every export computes with IEEE doubles; the runtime and
the exported Python hold integral values as ints where integer arithmetic gives that same
double (within ±2^53, and for an input of a linear term within the model's integer range),
so a value beyond reads as the nearest double and every engine (CPython, SQLite, DuckDB,
PostgreSQL with DOUBLE columns, onnxruntime) gives the runtime's score to the bit.
"""
from __future__ import annotations

import pytest
from scorecard.exporters.verify import NO_ENGINE, verify
from scorecard.runtime import Input, Model, Target, Term, score
from scorecard.runtime.score import int_limit

BIG = 2**53


def _model() -> Model:
    return Model("linear", Target("y", 1), (Input("a", "numeric"), Input("b", "numeric")),
                 (Term("a", "linear", None, 3, "a"), Term("b", ">=", 2**52, 7, "b >= 2^52"),
                  Term("b", "<", -5.5, -2, "b < -5.5"),
                  # 2^53 + 3 is below this threshold, its nearest double (2^53 + 4) is not
                  Term("b", ">=", float(2**53 + 4), 11, "b >= 2^53 + 4")), -1)


ROWS = [
    {"a": BIG + 1, "b": 0}, {"a": str(BIG + 1), "b": str(BIG + 1)}, {"a": 2**52 + 1, "b": BIG + 3},
    {"a": 10**30, "b": -10**30}, {"a": "1000000000000000000000000000000", "b": "1e30"},
    {"a": -(2**63), "b": 2**63}, {"a": int_limit(_model(), "a"), "b": 2**52},
    {"a": int_limit(_model(), "a") + 1, "b": 2**52 - 1}, {"a": 1.5, "b": -6}, {"a": 7, "b": 1},
    {"a": 0, "b": 2**53 + 3}, {"a": 0, "b": str(2**53 + 3)}, {"a": 0, "b": 2**53 + 4},
]


def test_the_runtime_reads_integers_beyond_the_exact_range_as_the_nearest_double():
    model = _model()
    assert score(model, {"a": BIG + 1, "b": 0}) == 3 * float(BIG) - 1  # not 3 * (2^53 + 1) - 1
    assert score(model, {"a": "9007199254740993", "b": 0}) == 3 * float(BIG) - 1
    assert type(score(model, {"a": 7, "b": 1})) is int  # small integers stay exact ints


def test_every_code_export_gives_the_runtimes_score_beyond_2_53(pg_dsn):
    """ONNX (doubles), the Python file, SQLite, DuckDB and PostgreSQL all agree with the
    runtime on integers of 2^53 + 1, 2^63 and 10^30: no overflow, no rounding difference."""
    checks = verify(_model(), ROWS, pg_dsn=pg_dsn)
    engines = {(c.format, c.engine.split()[0]): c for c in checks}
    assert {"python", "sqlite", "duckdb", "postgres", "onnxruntime"} <= {e for _, e in engines}
    assert [c.line() for c in checks if c.ok is not True and c.reason != NO_ENGINE] == []


@pytest.mark.parametrize("columns", ["ints", "text"])
def test_the_python_files_batch_functions_agree_beyond_2_53(columns, tmp_path):
    import importlib.util

    from scorecard.exporters.python import render

    model = _model()
    path = tmp_path / "m.py"
    path.write_text(render(model), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("m_numbers", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rows = [r for r in ROWS if all(isinstance(v, int) for v in r.values())] if columns == "ints" else ROWS
    batch = module.score_columns({"a": [r["a"] for r in rows], "b": [r["b"] for r in rows]})
    expected = [score(model, r) for r in rows]
    assert batch == expected and [type(s) for s in batch] == [type(s) for s in expected]
    assert [module.score(r) for r in rows] == expected
