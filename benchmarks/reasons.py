"""What reason codes cost: each engine scoring the same rows with and without ``--explain 3``.

    python benchmarks/reasons.py                 # mushroom_raw x 10 (81,240 rows), median of 3
    python benchmarks/reasons.py --write         # ... and records it in benchmarks/RESULTS.md

One 7-term model over four text columns of ``datasets/mushroom_raw.csv`` (``stalk_root`` is
blank in 2,480 of its 8,124 rows) under the ``"unmet"`` policy, with an ``unknown`` row: the
shape ``scorecard train`` gives raw categorical data. The baseline of each engine is the same
export without reason codes, in the same run: ``scorecard predict`` (runtime ``score_csv``,
``--explain 3`` or not), the Python export (``score_rows`` against ``explain(row, 3)`` per row),
the ``sql`` query in SQLite and DuckDB (all rows fetched), the ONNX graph in onnxruntime (one
batch). Every engine's reasons are checked against the runtime's before timing. Not part of
the test suite.
"""
from __future__ import annotations

import argparse
import csv
import datetime
import importlib.util
import io
import os
import platform
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from results import write_section
from scorecard.exporters import onnx as onnx_export
from scorecard.exporters import python as python_export
from scorecard.exporters import sql as sql_export
from scorecard.runtime import Input, Model, Target, Term, explain, score_csv

DATA = Path(__file__).resolve().parents[1] / "datasets" / "mushroom_raw.csv"
K = 3
COLUMNS = ("odor", "spore_print_color", "stalk_root", "gill_size")


def bench_model() -> Model:
    return Model(
        kind="linear", target=Target("poisonous", 1), inputs=tuple(Input(c, "categorical") for c in COLUMNS),
        terms=(Term("odor", "in", ("foul", "pungent", "creosote", "fishy", "spicy", "musty"), 6, "odor is bad"),
               Term("odor", "==", "none", -2, "odor = none"),
               Term("spore_print_color", "==", "green", 5, "spore print green"),
               Term("stalk_root", "in", ("club", "rooted"), -1, "stalk root club or rooted"),
               Term("gill_size", "==", "narrow", 2, "gill size narrow"),
               Term("stalk_root", "missing", None, 3, "stalk root unknown"),
               Term("stalk_root", "==", "bulbous", 2, "stalk root bulbous")),
        intercept=-1, missing="unmet")


def _median(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(copies: int, repeat: int) -> list[tuple[str, float, float]]:
    """(engine, seconds without reasons, seconds with --explain 3), medians."""
    model = bench_model()
    with open(DATA, newline="", encoding="utf-8") as fh:
        rows = [{c: r[c] for c in COLUMNS} for r in csv.DictReader(fh)] * copies
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(COLUMNS), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    want = [explain(model, row, K) for row in rows]
    flat = [tuple([r.text for r in w] + [None] * (K - len(w)) + [r.points for r in w] + [None] * (K - len(w)))
            for w in want]
    out = []

    def predict(k: int) -> None:
        score_csv(model, io.StringIO(text.getvalue()), io.StringIO(), explain=k)

    out.append(("scorecard predict (runtime)", _median(lambda: predict(0), repeat), _median(lambda: predict(K), repeat)))

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.py")
        Path(path).write_text(python_export.render(model), encoding="utf-8")
        spec = importlib.util.spec_from_file_location("bench_reasons", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    assert [[(x.text, x.points) for x in w] for w in want] == [module.explain(r, K) for r in rows]
    out.append(("python export", _median(lambda: module.score_rows(rows), repeat),
                _median(lambda: [module.explain(r, K) for r in rows], repeat)))

    import duckdb

    for engine, con in (("sqlite", sqlite3.connect(":memory:")), ("duckdb", duckdb.connect())):
        con.execute(f'CREATE TABLE "input" (n BIGINT, {", ".join(f"{c} TEXT" for c in COLUMNS)})')
        con.executemany(f'INSERT INTO "input" VALUES (?, {", ".join("?" * len(COLUMNS))})',
                        [(k, *(r[c] or None for c in COLUMNS)) for k, r in enumerate(rows)])

        def ordered(query: str) -> str:  # DuckDB returns rows in any order
            return f"SELECT * FROM ({query.rstrip().rstrip(';')}) AS q ORDER BY q.n"

        plain = ordered(sql_export.render(model, dialect=engine))
        explained = ordered(sql_export.render(model, dialect=engine, explain=K))
        got = [tuple(row[-2 * K:]) for row in con.execute(explained).fetchall()]
        assert got == flat, f"{engine} disagrees with the runtime"
        out.append((f"sql {engine} {sqlite3.sqlite_version if engine == 'sqlite' else duckdb.__version__}",
                    _median(lambda: con.execute(plain).fetchall(), repeat),
                    _median(lambda: con.execute(explained).fetchall(), repeat)))

    import onnxruntime as ort

    feeds = {c: np.array([r[c] for r in rows], dtype=object) for c in COLUMNS}
    plain = ort.InferenceSession(onnx_export.render(model), providers=["CPUExecutionProvider"])
    explained = ort.InferenceSession(onnx_export.render(model, explain=K), providers=["CPUExecutionProvider"])
    names = [f"reason_{j}" for j in range(1, K + 1)] + [f"points_{j}" for j in range(1, K + 1)]
    got = [tuple(None if (isinstance(v, str) and v == "") or (isinstance(v, float) and np.isnan(v)) else v
                 for v in row) for row in zip(*[list(col) for col in explained.run(names, feeds)])]
    assert got == flat, "onnxruntime disagrees with the runtime"
    out.append((f"onnx (onnxruntime {ort.__version__})", _median(lambda: plain.run(["score"], feeds), repeat),
                _median(lambda: explained.run(["score"] + names, feeds), repeat)))
    return out


def section(results: list[tuple[str, float, float]], n: int, repeat: int, command: str, load: float) -> str:
    lines = [f"## Reason codes: what `--explain {K}` costs",
             "",
             f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
             f"load average {load:.1f} at the start; {datetime.date.today().isoformat()}; `{command}`.",
             f"{n:,} rows (mushroom_raw x {n // 8124}), a 7-term categorical model under \"unmet\"; "
             f"median of {repeat} runs; the baseline is the same engine without reason codes, in the same run. "
             "Every engine's reasons were checked equal to the runtime's first.",
             "",
             "| engine | without reasons (s) | with --explain 3 (s) | ratio |",
             "|---|---|---|---|"]
    lines += [f"| {name} | {a:.3f} | {b:.3f} | {b / a:.1f}x |" for name, a, b in results]
    lines += ["", "DuckDB and PostgreSQL rank each row's terms once in one LATERAL subquery (ROW_NUMBER over a "
              "VALUES list); SQLite, without LATERAL, runs one scalar subquery per reason column "
              "(ORDER BY points DESC, term LIMIT 1 OFFSET k - 1); numbering them with a window function "
              "instead measured 32.5 s against LIMIT's 4.2 s on these rows (one run while writing it, load ~13)."]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=10, help="copies of mushroom_raw's 8,124 rows")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="record the results in benchmarks/RESULTS.md")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    results = run(args.copies, args.repeat)
    text = section(results, args.copies * 8124, args.repeat,
                   "python " + " ".join(["benchmarks/reasons.py"] + sys.argv[1:]), load)
    print(text)
    if args.write:
        write_section("reasons", text)


if __name__ == "__main__":
    main()
