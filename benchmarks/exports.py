"""Rows per second of the code exports, against hand-written and library anchors in the same run.

    python benchmarks/exports.py                 # 1,000,000 rows, median of 3, prints a table
    python benchmarks/exports.py --write         # ... and records it in benchmarks/RESULTS.md

One 11-term integer model (6 linear terms, 5 thresholds, threshold 40) over 11 integer
columns with values 1..10, scored on the same rows by:
- the ``python`` export: ``score(row)`` over a list of dict rows, and the batch functions
  ``score_columns(columns)`` (column lists by input name) and ``score_rows(rows)`` (dict rows);
  the runtime's own ``score(model, row)`` alongside, and m2cgen's positional Python for a linear
  model over the same columns when m2cgen is installed;
- the ``sql`` export in DuckDB and SQLite, against the query a person would write by hand
  (the same sum of ``CASE WHEN`` terms, no missing-value handling), both aggregated with
  ``count(*), sum(score), sum(prediction)`` so no engine ships rows to Python;
- the ``onnx`` export in onnxruntime, in one batch and in batches of ``BATCH`` rows, against
  NumPy's ``X @ w`` and skl2onnx's linear model (when installed) fed the same batches; every
  onnxruntime session, ours and the anchor's, gets the same options (full graph optimisation,
  ``--threads`` intra-op threads, each thread count in ``--threads`` measured for both);
- the ``onnx`` export with ``--onnx-input matrix`` (one double [N, 11] input) against skl2onnx's
  LinearRegression and LogisticRegression converted for the same double [N, 11] input, in the
  same batches with the same threads (the issue's goal: at least 1.0x skl2onnx's rows/s).
Every engine's sums are checked against NumPy's before timing. Not part of the test suite.

    python benchmarks/exports.py --risk          # the sql export with its risk column (issue 15 item 5)
    python benchmarks/exports.py --risk --write  # ... recorded in its own section of RESULTS.md

``--risk``: adult's model at C0 0.0005 (``RISK_MODEL``: 15 linear terms on 0/1 columns, a
63-row risk table) over adult's rows repeated to ``--rows``, in DuckDB and SQLite: the
export with ``probability`` against the hand-written score query (the sum of ``points * col``
and the prediction, no missing-value handling, no risk), the export without the risk column
and, in DuckDB, the risk as the CASE tree used before the array lookup; aggregated with
``count(*)``, ``sum(score)``, ``sum(prediction)`` and ``sum(probability)`` so the risk is
computed. DuckDB runs on one thread (as SQLite), which keeps the medians steady on a shared
machine. Every query's sums are checked against the runtime's first.
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import importlib.util
import os
import platform
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import numpy as np
from results import show
from scorecard.exporters import onnx as onnx_export
from scorecard.exporters import python as python_export
from scorecard.exporters import sql as sql_export
from scorecard.runtime import Input, Model, Target, Term, score

HERE = Path(__file__).resolve().parent
NAMES = [f"x{k}" for k in range(1, 12)]
LINEAR = [2, 1, 3, -1, 2, 1]                      # points of x1..x6
THRESHOLDS = [(">=", 5, 3), ("<", 3, -2), (">=", 8, 4), ("<", 6, 1), (">=", 2, 2)]  # x7..x11
INTERCEPT = -40
THRESHOLD = -INTERCEPT  # prediction 1 when the score (the points total) is above it
BATCH = 65_536  # rows per onnxruntime run in the batched measurement (ours and skl2onnx's alike)
HEADING = "## Code exports (benchmarks/exports.py)"
#: Instruction counts of one 65,536-row batch (valgrind --tool=callgrind), measured by hand: not rerun by --write.
CALLGRIND = ("Instructions per 65,536-row batch, 1 intra-op thread, counted by valgrind --tool=callgrind "
             "(`python benchmarks/onnx_instructions.py`, run twice on 2026-11-27, and once by hand with the same "
             "method; load-independent, but about 5% apart from count to count): the matrix graph of the benchmark "
             "model 22.6-23.6 M, skl2onnx LinearRegression 13.6-15.0 M, LogisticRegression 41.0-41.2 M (one count "
             "63.2 M) on the same double input: about 0.56x LogisticRegression's instructions and 1.6x "
             "LinearRegression's. The Split graph it replaces (main at af40c82, counted by hand the same way) took "
             "38.0 M.")


def bench_model() -> Model:
    terms = [Term(n, "linear", None, p, f"{p} x {n}") for n, p in zip(NAMES, LINEAR)]
    terms += [Term(n, op, v, p, f"{n} {op} {v}") for n, (op, v, p) in zip(NAMES[6:], THRESHOLDS)]
    return Model(kind="linear", target=Target("y", 1), inputs=tuple(Input(n, "numeric") for n in NAMES),
                 terms=tuple(terms), intercept=INTERCEPT)


#: A card of conditions only (one cut-off per column, whole-number points), the shape `train` gives
#: by default: scored with --onnx-input matrix by one Gemm + Clip + MatMul, not term by term.
CUTS = [(2 + (k * 3) % 8, (k % 5) - 2 or 1) for k in range(len(NAMES))]


#: The 11 cut-offs card under the missing-value policy `train` writes by default ("unmet": a
#: NaN meets no condition), whose conditions the matrix graph compares instead of stepping.
UNMET_CARD = "onnx export, --onnx-input matrix, 11 cut-offs card, missing unmet (train's default)"
#: The benchmark model under "unmet": a block free of NaN takes the steps as under "null", a block
#: with one in a condition's column the comparisons (exporters/onnx.py, _block).
UNMET_MODEL = "onnx export, --onnx-input matrix, missing unmet (train's default)"


def cuts_model() -> Model:
    return Model(kind="linear", target=Target("y", 1), inputs=tuple(Input(n, "numeric") for n in NAMES),
                 terms=tuple(Term(n, ">=", t, p, f"{n} >= {t}") for n, (t, p) in zip(NAMES, CUTS)), intercept=-3)


def reference(x: np.ndarray) -> np.ndarray:
    """The scores (points totals) with NumPy (int64): what every engine must reproduce."""
    total = x[:, :6] @ np.array(LINEAR)
    for k, (op, v, p) in enumerate(THRESHOLDS):
        col = x[:, 6 + k]
        total = total + np.where(col >= v if op == ">=" else col < v, p, 0)
    return total


def hand_written_sql() -> str:
    terms = [f"{p} * {n}" for n, p in zip(NAMES, LINEAR)]
    terms += [f"CASE WHEN {n} {op} {v} THEN {p} ELSE 0 END" for n, (op, v, p) in zip(NAMES[6:], THRESHOLDS)]
    return (f"SELECT *, CASE WHEN score > {THRESHOLD} THEN 1 ELSE 0 END AS prediction FROM "
            f"(SELECT *, {' + '.join(terms)} AS score FROM input) AS t")


def aggregate(query: str) -> str:
    return f'SELECT count(*), sum("score"), sum("prediction") FROM ({query.rstrip().rstrip(";")}) AS q'


def median_seconds(run: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``repeat`` runs after one untimed warm-up run."""
    run()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


#: Seconds of rest before each timed run of :func:`interleaved`: onnxruntime's pool threads spin
#: for a while after a run, and an idle session's spinning threads took the cores of the session
#: measured next (the 11 cut-offs card with 2 threads: 0.91x LogisticRegression measured right
#: after other sessions, 1.6x after this rest).
REST = 0.05


def interleaved(runs: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Median wall time of each run, the runs taking turns (one untimed warm-up each, then
    ``repeat`` rounds of every run, each after ``REST``): on a shared machine the load changes
    from second to second, and taking turns gives an export and its anchor the same load."""
    for fn in runs.values():
        fn()
    times: dict[str, list[float]] = {key: [] for key in runs}
    for _ in range(repeat):
        for key, fn in runs.items():
            time.sleep(REST)
            start = time.perf_counter()
            fn()
            times[key].append(time.perf_counter() - start)
    return {key: statistics.median(t) for key, t in times.items()}


def load_module(text: str, name: str):
    path = Path(tempfile.mkdtemp(prefix="scorecard-bench-")) / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def session(blob: bytes, threads: int):
    """An onnxruntime session with the options every session here gets."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return ort.InferenceSession(blob, options, providers=["CPUExecutionProvider"])


def run(n: int, repeat: int, threads: tuple[int, ...] = (1, 2), onnx_only: bool = False) -> list[tuple[str, str, float, str]]:
    """(what, engine, rows per second, note) for every measurement (``onnx_only``: the ONNX
    part alone)."""
    model = bench_model()
    x = np.random.default_rng(7).integers(1, 11, size=(n, len(NAMES)), dtype=np.int64)
    want = reference(x)
    want_sums = (n, int(want.sum()), int((want > THRESHOLD).sum()))
    out: list[tuple[str, str, float, str]] = []

    def record(what: str, engine: str, seconds: float, note: str = "") -> None:
        out.append((what, engine, n / seconds, note))
        print(f"{what:<44} {engine:<22} {n / seconds / 1e6:9.2f} M rows/s  {note}", flush=True)

    if not onnx_only:
        run_python_sql(model, x, want, want_sums, n, repeat, record)
    run_onnx(model, x, want, n, repeat, threads, record)
    return out


def run_python_sql(model: Model, x: np.ndarray, want: np.ndarray, want_sums: tuple, n: int, repeat: int,
                   record: Callable[..., None]) -> None:
    """The python and sql exports against their anchors."""
    rows = [dict(zip(NAMES, r)) for r in x.tolist()]
    exported = load_module(python_export.render(model), "bench_export")
    scores = [exported.score(r) for r in rows]
    if scores != want.tolist():
        raise SystemExit("python export disagrees with NumPy")
    columns = {name: x[:, k].tolist() for k, name in enumerate(NAMES)}
    if exported.score_columns(columns) != want.tolist() or exported.score_rows(rows) != want.tolist():
        raise SystemExit("python export's batch functions disagree with NumPy")
    cpython = f"CPython {platform.python_version()}"
    runs = {"python export: score(row) over dict rows": lambda: [exported.score(r) for r in rows],
            "python export: score_columns(columns)": lambda: exported.score_columns(columns),
            "python export: score_rows(rows) over dict rows": lambda: exported.score_rows(rows)}
    m2c = None
    try:
        import m2cgen
        from sklearn.linear_model import LinearRegression

        lr = LinearRegression().fit(x[:1000].astype(float), x[:1000] @ np.arange(1, 12))
        m2c = load_module(m2cgen.export_to_python(lr), "bench_m2cgen")
        lists = x.astype(float).tolist()
        runs["anchor: m2cgen Python, positional lists"] = lambda: [m2c.score(r) for r in lists]
    except ImportError:
        print("m2cgen not installed: anchor skipped")
    notes = {"python export: score_columns(columns)": "column lists by input name",
             "anchor: m2cgen Python, positional lists": "linear terms only"}
    for what, seconds in interleaved(runs, repeat).items():
        record(what, f"m2cgen {m2cgen.__version__}" if what.startswith("anchor") else cpython, seconds,
               notes.get(what, ""))
    columns = runs = None  # free the memory (not del: the lambdas above close over these names)
    sample = rows[: n // 10]
    seconds = median_seconds(lambda: [score(model, r) for r in sample], 1) * 10
    record("scorecard.runtime score(model, row)", cpython, seconds, f"timed on {len(sample):,} rows")
    rows = scores = None

    # ---- SQL
    import duckdb
    import pandas as pd

    frame = pd.DataFrame({name: x[:, k] for k, name in enumerate(NAMES)})
    duck = duckdb.connect()
    duck.register("frame", frame)
    duck.execute("CREATE TABLE input AS SELECT * FROM frame")
    duck.unregister("frame")
    ours, hand = aggregate(sql_export.render(model, dialect="duckdb")), aggregate(hand_written_sql())
    for query in (ours, hand):
        if tuple(int(v) for v in duck.execute(query).fetchone()) != want_sums:
            raise SystemExit("duckdb query disagrees with NumPy")
    timed = interleaved({"ours": lambda: duck.execute(ours).fetchone(), "hand": lambda: duck.execute(hand).fetchone()},
                        repeat)
    record("sql export", f"duckdb {duckdb.__version__}", timed["ours"])
    record("anchor: hand-written CASE WHEN query", f"duckdb {duckdb.__version__}", timed["hand"])
    duck.close()

    lite = sqlite3.connect(":memory:")
    lite.execute(f"CREATE TABLE input ({', '.join(f'{c} INTEGER' for c in NAMES)})")
    lite.executemany(f"INSERT INTO input VALUES ({', '.join('?' * len(NAMES))})", x.tolist())
    ours, hand = aggregate(sql_export.render(model, dialect="sqlite")), aggregate(hand_written_sql())
    for query in (ours, hand):
        if tuple(lite.execute(query).fetchone()) != want_sums:
            raise SystemExit("sqlite query disagrees with NumPy")
    timed = interleaved({"ours": lambda: lite.execute(ours).fetchone(), "hand": lambda: lite.execute(hand).fetchone()},
                        repeat)
    record("sql export", f"sqlite {sqlite3.sqlite_version}", timed["ours"])
    record("anchor: hand-written CASE WHEN query", f"sqlite {sqlite3.sqlite_version}", timed["hand"])
    lite.close()



def run_onnx(model: Model, x: np.ndarray, want: np.ndarray, n: int, repeat: int, threads: tuple[int, ...],
             record: Callable[..., None]) -> None:
    """The onnx export (named columns and --onnx-input matrix) against NumPy and skl2onnx."""
    import onnxruntime as ort

    feeds = {name: np.ascontiguousarray(x[:, k], dtype=np.float64) for k, name in enumerate(NAMES)}
    batches = [{k: v[i:i + BATCH] for k, v in feeds.items()} for i in range(0, n, BATCH)]
    engine = f"onnxruntime {ort.__version__}"
    skl = None
    try:
        import skl2onnx
        from skl2onnx.common.data_types import DoubleTensorType, FloatTensorType
        from sklearn.linear_model import LinearRegression, LogisticRegression

        lr = LinearRegression().fit(x[:1000].astype(float), x[:1000] @ np.arange(1, 12))
        skl = skl2onnx.convert_sklearn(lr, initial_types=[("X", FloatTensorType([None, len(NAMES)]))])
        x32 = x.astype(np.float32)
        x32_batches = [x32[i:i + BATCH] for i in range(0, n, BATCH)]
        double = [("X", DoubleTensorType([None, len(NAMES)]))]
        skl64 = skl2onnx.convert_sklearn(lr, initial_types=double)
        labels = (want > THRESHOLD).astype(np.int64)
        logistic = LogisticRegression(max_iter=1000).fit(x[:5000].astype(float), labels[:5000])
        skl_logistic = skl2onnx.convert_sklearn(logistic, initial_types=double, options={id(logistic): {"zipmap": False}})
    except ImportError:
        print("skl2onnx not installed: anchor skipped")
    xf = x.astype(np.float64)
    xf_batches = [xf[i:i + BATCH] for i in range(0, n, BATCH)]
    matrix_name, matrix_columns = onnx_export.matrix_columns(model)
    if matrix_columns != NAMES:
        raise SystemExit("the matrix columns are not x1..x11")
    w = np.array(LINEAR + [0] * 5, dtype=np.float64)
    for count in threads:
        ours = session(onnx_export.render(model), count)
        got = ours.run(["score", "prediction"], feeds)
        if not np.array_equal(got[0], want) or not np.array_equal(got[1], (want > THRESHOLD).astype(np.float64)):
            raise SystemExit("onnx export disagrees with NumPy")
        label = f"{count} intra-op thread{'s' if count > 1 else ''}"
        whole, batched = "one batch of all rows", f"batches of {BATCH:,} rows"
        runs = {("onnx export", f"{whole}, {label}"): lambda: ours.run(None, feeds),
                ("onnx export", f"{batched}, {label}"): lambda: [ours.run(None, b) for b in batches]}
        if skl is not None:
            anchor = session(skl.SerializeToString(), count)
            what = "anchor: skl2onnx LinearRegression"
            runs[(what, f"float32 [N, 11], linear only, {whole}, {label}")] = lambda: anchor.run(None, {"X": x32})
            runs[(what, f"float32 [N, 11], linear only, {batched}, {label}")] = \
                lambda: [anchor.run(None, {"X": b}) for b in x32_batches]
        runs[("anchor: NumPy X @ w", f"linear terms only, next to the {label} runs")] = lambda: xf @ w
        for (what, note), seconds in interleaved(runs, repeat).items():
            record(what, f"numpy {np.__version__}" if "NumPy" in what else engine, seconds, note)
        # the matrix input against skl2onnx on the very same double [N, 11] input, batches and threads
        matrix = session(onnx_export.render(model, "matrix"), count)
        got = matrix.run(["score", "prediction"], {matrix_name: xf})
        if not np.array_equal(got[0], want) or not np.array_equal(got[1], (want > THRESHOLD).astype(np.float64)):
            raise SystemExit("onnx export (matrix input) disagrees with NumPy")
        card = cuts_model()
        card_want = sum(np.where(x[:, k] >= t, p, 0) for k, (t, p) in enumerate(CUTS))
        card_matrix, card_columns = session(onnx_export.render(card, "matrix"), count), session(onnx_export.render(card), count)
        if not (np.array_equal(card_matrix.run(["score"], {matrix_name: xf})[0], card_want)
                and np.array_equal(card_columns.run(["score"], feeds)[0], card_want)):
            raise SystemExit("onnx export of the cut-off card disagrees with NumPy")
        # the same card under "unmet", train's default: a NaN meets no condition, so its cut-offs are compared
        unmet_matrix = session(onnx_export.render(dataclasses.replace(card, missing="unmet"), "matrix"), count)
        if not np.array_equal(unmet_matrix.run(["score"], {matrix_name: xf})[0], card_want):
            raise SystemExit("onnx export of the cut-off card under 'unmet' disagrees with NumPy")
        unmet_model = session(onnx_export.render(dataclasses.replace(model, missing="unmet"), "matrix"), count)
        if not np.array_equal(unmet_model.run(["score"], {matrix_name: xf})[0], want):
            raise SystemExit("onnx export of the benchmark model under 'unmet' disagrees with NumPy")
        runs = {("onnx export, --onnx-input matrix", f"double [N, 11], {whole}, {label}"):
                lambda: matrix.run(None, {matrix_name: xf}),
                ("onnx export, --onnx-input matrix", f"double [N, 11], {batched}, {label}"):
                lambda: [matrix.run(None, {matrix_name: b}) for b in xf_batches],
                ("onnx export, --onnx-input matrix, 11 cut-offs card", f"double [N, 11], {batched}, {label}"):
                lambda: [card_matrix.run(None, {matrix_name: b}) for b in xf_batches],
                (UNMET_CARD, f"double [N, 11], {batched}, {label}"):
                lambda: [unmet_matrix.run(None, {matrix_name: b}) for b in xf_batches],
                (UNMET_MODEL, f"double [N, 11], {batched}, {label}"):
                lambda: [unmet_model.run(None, {matrix_name: b}) for b in xf_batches],
                ("onnx export, named columns, 11 cut-offs card", f"{batched}, {label}"):
                lambda: [card_columns.run(None, b) for b in batches]}
        if skl is not None:
            for what, proto in (("anchor: skl2onnx LinearRegression", skl64),
                                ("anchor: skl2onnx LogisticRegression", skl_logistic)):
                anchored = session(proto.SerializeToString(), count)
                runs[(what, f"double [N, 11], {whole}, {label}")] = \
                    lambda s=anchored: s.run(None, {"X": xf})
                runs[(what, f"double [N, 11], {batched}, {label}")] = \
                    lambda s=anchored: [s.run(None, {"X": b}) for b in xf_batches]
        for (what, note), seconds in interleaved(runs, repeat).items():
            record(what, engine, seconds, note)


#: adult at C0 0.0005: `scorecard train datasets/adult.csv --target Over50K --c0 0.0005 --time-limit 90`.
RISK_MODEL = HERE / "cache" / "adult-c0-0.0005.json"
RISK_HEADING = "## SQL export with the risk column (benchmarks/exports.py --risk)"
RISK_ROWS = 32_561  # adult's rows, repeated up to --rows


def run_risk(n: int, repeat: int) -> list[tuple[str, str, float, str]]:
    """(what, engine, rows per second, note) of the sql export with probability and its anchors."""
    import csv
    import math
    from dataclasses import replace

    import duckdb
    import pandas as pd
    from scorecard.exporters.sql_dialects import DIALECTS
    from scorecard.runtime import load
    from scorecard.runtime.risk import risk_function

    model = load(str(RISK_MODEL))
    with open(HERE.parent / "datasets" / "adult.csv", newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        header = next(reader)
        base = [tuple(int(v) for v in row) for row in reader]
    copies = -(-n // len(base))
    rows = base * copies
    risk = risk_function(model.probability)
    scores = [score(model, dict(zip(header, row))) for row in base]
    want = (len(rows), copies * sum(scores), copies * sum(s > model.threshold for s in scores),
            copies * math.fsum(risk(s) for s in scores))
    hand_terms = " + ".join(f'{t.points} * "{t.input}"' for t in model.terms)
    hand = (f'SELECT *, CASE WHEN "score" > {model.threshold} THEN 1 ELSE 0 END AS "prediction" '
            f'FROM (SELECT *, {hand_terms} AS "score" FROM input) AS t')
    bare = replace(model, probability=None)
    DIALECTS["duckdb-tree"] = replace(DIALECTS["duckdb"], name="duckdb-tree", array=None)  # the risk as before

    def risk_sums(query: str) -> str:
        return aggregate(query).replace("FROM (", ', sum("probability") FROM (', 1)

    out: list[tuple[str, str, float, str]] = []

    def record(what: str, engine: str, seconds: float, note: str = "") -> None:
        out.append((what, engine, len(rows) / seconds, note))
        print(f"{what:<52} {engine:<14} {len(rows) / seconds / 1e6:8.2f} M rows/s  {note}", flush=True)

    duck = duckdb.connect()
    duck.execute("SET threads TO 1")  # one thread, as SQLite: steadier medians on a shared machine
    duck.register("frame", pd.DataFrame(rows, columns=header))
    duck.execute("CREATE TABLE input AS SELECT * FROM frame")
    duck.unregister("frame")
    lite = sqlite3.connect(":memory:")
    lite.execute("CREATE TABLE input (" + ", ".join(f'"{c}" INTEGER' for c in header) + ")")
    lite.executemany(f"INSERT INTO input VALUES ({', '.join('?' * len(header))})", rows)
    for con, dialect, engine in ((duck, "duckdb", f"duckdb {duckdb.__version__}"),
                                 (lite, "sqlite", f"sqlite {sqlite3.sqlite_version}")):
        queries = {"anchor: hand-written score query": aggregate(hand),
                   "anchor: the same plus a constant probability column":
                       risk_sums(hand.replace('AS "prediction"', 'AS "prediction", 0.5 AS "probability"')),
                   "sql export with probability": risk_sums(sql_export.render(model, dialect=dialect)),
                   "sql export without probability": aggregate(sql_export.render(bare, dialect=dialect))}
        if dialect == "duckdb":
            queries["sql export with probability as a CASE tree"] = risk_sums(sql_export.render(model, "duckdb-tree"))
        for what, query in queries.items():
            got = con.execute(query).fetchone()
            constant = what.startswith("anchor: the same")  # its probability column is 0.5, not the risk
            if tuple(got[:3]) != want[:3] or (len(got) > 3 and not constant
                                              and not math.isclose(got[3], want[3], rel_tol=1e-9)):
                raise SystemExit(f"{engine}: {what} disagrees with the runtime: {got} != {want}")
        timed = interleaved({what: (lambda q=query: con.execute(q).fetchone()) for what, query in queries.items()},
                            repeat)
        for what, seconds in timed.items():
            record(what, engine, seconds)
    del DIALECTS["duckdb-tree"]
    return out


def risk_section(results: list[tuple[str, str, float, str]], n: int, repeat: int, command: str, load: float) -> str:
    lines = [RISK_HEADING, "", _machine(n, repeat, load), f"Command: `{command}`", "",
             f"Model: `{RISK_MODEL.relative_to(HERE.parent)}` (adult, C0 0.0005: 15 linear terms on 0/1 columns, "
             f"a risk table of 63 whole scores), over adult's {RISK_ROWS:,} rows repeated; every query aggregated with "
             "count(*) and the sums of its columns (with sum(probability) where it has one, so the risk is computed); "
             "DuckDB on one thread, as SQLite.",
             "", "| what | engine | M rows/s | hand-written / this |", "|---|---|---:|---:|"]
    by = {(w, e): r for w, e, r, _ in results}
    for what, engine, rate, _ in results:
        hand = by[("anchor: hand-written score query", engine)]
        lines.append(f"| {what} | {engine} | {rate / 1e6:.2f} | {hand / rate:.2f}x |")
    ratios = [f"{e}: {by[('anchor: hand-written score query', e)] / r:.2f}x"
              for w, e, r, _ in results if w == "sql export with probability"]
    lines += ["", "The export with the risk column against the hand-written score query (goal: within 1.5x): "
              + "; ".join(ratios) + ".", "",
              "Where the time goes: the risk table was a balanced CASE tree of comparisons (8 rows a leaf); "
              "DuckDB evaluates each CASE level over its share of the rows, and the tree cost more than the "
              "whole score (the row 'as a CASE tree'). DuckDB and PostgreSQL now read one array of the risk at "
              "every whole score, indexed by the score, and DuckDB's prediction is the comparison cast to INTEGER "
              "(one test a row, the CASE made two). On a shared machine the medians move from run to run "
              "(the row 'plus a constant probability column' shows this run's noise: compare within one run); "
              "instructions do not (valgrind --tool=callgrind, 300,000 rows, DuckDB in Python, by hand on "
              "2026-11-27, against the anchor's): DuckDB's export 2.13x before the cast, 1.99x after; of the "
              "0.99 above the anchor about 0.4 is the array lookup and 0.14 its clamp to the table (a CASE, or "
              "coalesce after the lookup: the same; a join to a VALUES table 2.14x, a fixed-size DOUBLE[63] 2.15x, "
              "a substr of a text of the risks 4.3x), 0.33 the NaN test of the 15 inputs (testing the sum instead "
              "needs it twice: 1.99x, or a fenced LATERAL stage: 7.3x), 0.1 the LATERAL. "
              "SQLite has no LATERAL and no arrays: its probability read the score in a scalar subquery, "
              "which computed the sum a third time (the hand-written query computes it twice, as SQLite "
              "copies the subquery's expression into the prediction). A table-valued function may read the "
              "row, so a whole-number score is now computed once, as the one row of json_each(score), and "
              "the risk is cut from one text of fixed-width numbers (substr of it as a BLOB: a text's substr "
              "walks its characters) and CAST to REAL: sqlite3 3.40.1 on adult's 32,561 rows, 398M "
              "instructions before, 290M after, the anchor 255-262M (1.52x -> 1.11x); as text, the lookup "
              "cost 2,500 instructions a row. "
              "Since then (valgrind --tool=callgrind, by hand on 2026-11-27 11:00-11:45 UTC; DuckDB on 300,000 rows, "
              "instructions beyond planning, the planning measured on 1,000 rows and subtracted; SQLite per run of "
              "adult's 32,561 rows): DuckDB asks for NaN only of a FLOAT or DOUBLE column, its typeof being "
              "folded when the query is planned, so on these BIGINT columns the test is gone: 87M -> 71M, the "
              "anchor 47M (1.85x -> 1.51x); the clamp is 7M of the 71M. Both engines read the risk of a score "
              "that may hold a fraction correctly now (a binary column may hold 0.95, which the runtime reads as "
              "it is; before, SQLite gave a risk of 273.0 and a 15-digit score, DuckDB the next row's risk): "
              "DuckDB indexes the array by the score's floor only where the score is a DOUBLE or DECIMAL (typeof "
              "again, so BIGINT columns pay nothing), and SQLite keeps json_each's row only when its value is an "
              "integer (ON s.\"type\" = 'integer'; a double comes back rounded to 15 digits) and computes the "
              "score again where it did not (coalesce): 287M -> 304M against the anchor's 251M (1.14x -> 1.21x), "
              "the price of exact scores for a fraction in a binary column (testing the type in each of the "
              "three reads instead: 346M)."]
    return "\n".join(lines)


def _machine(n: int, repeat: int, load: float) -> str:
    cpu = "unknown"
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        match = re.search(r"^Model name:\s*(.+)$", lscpu, re.M)
        cpu = match.group(1).strip() if match else cpu
    except OSError:
        pass
    return (f"{datetime.date.today().isoformat()}; {cpu}, {os.cpu_count()} cores (shared with other jobs; "
            f"load average {load:.1f} at the start); Python {platform.python_version()}; {n:,} rows, median of {repeat}.")


def section(results: list[tuple[str, str, float, str]], n: int, repeat: int, command: str, load: float) -> str:
    lines = [HEADING, "", _machine(n, repeat, load), f"Command: `{command}`", "",
             "The issue's anchors, measured earlier on an idle machine of this type: m2cgen Python 4.8, "
             "skl2onnx + onnxruntime 175, hand-written CASE WHEN 51 (DuckDB) and 2.8 (SQLite), NumPy 280 M rows/s. "
             "Compare within one run: the anchors below ran next to our exports, under the same load.", "",
             "| what | engine | M rows/s | note |", "|---|---|---:|---|"]
    lines += [f"| {what} | {engine} | {rate / 1e6:.2f} | {note} |" for what, engine, rate, note in results]
    by = {(w, e): r for w, e, r, _ in results}
    ratios = []
    for engine in sorted({e for w, e, _, _ in results if w == "sql export"}):
        ours, hand = by[("sql export", engine)], by.get(("anchor: hand-written CASE WHEN query", engine))
        if hand:
            ratios.append(f"{engine}: hand-written / export = {hand / ours:.2f}x")
    if ratios:
        lines += ["", "SQL export against the hand-written query (goal: within 1.5x): " + "; ".join(ratios) + "."]
    m2c = next((r for w, _, r, _ in results if w == "anchor: m2cgen Python, positional lists"), None)
    if m2c:
        mine = [(w.removeprefix("python export: "), r) for w, _, r, _ in results if w.startswith("python export")]
        lines += ["", "Python export against m2cgen's positional function (goal: ahead, ratio > 1): "
                  + "; ".join(f"{w} = {r / m2c:.2f}x" for w, r in mine) + "."]
    matrix_ratios = []
    for what, _, rate, note in results:
        if not what.startswith("onnx export, --onnx-input matrix"):
            continue
        for anchor in ("anchor: skl2onnx LinearRegression", "anchor: skl2onnx LogisticRegression"):
            other = next((r for w, _, r, nt in results if w == anchor and nt == note), None)
            if other:
                card = f" ({what.split('matrix, ', 1)[1]})" if "matrix, " in what else ""
                matrix_ratios.append(f"{note.removeprefix('double [N, 11], ')}{card}: {rate / other:.2f}x "
                                     f"{anchor.removeprefix('anchor: skl2onnx ')}")
    onnx_ratios = []
    for what, _, rate, note in results:
        if what != "onnx export":
            continue
        threads = note.rsplit(", ", 1)[-1]  # "1 intra-op thread": compare with the anchors run next to it
        parts = [f"{note}:"]
        skl_rate = next((r for w, _, r, nt in results if w.startswith("anchor: skl2onnx") and nt.endswith(note)),
                        None)
        numpy_rate = next((r for w, _, r, nt in results
                           if w.startswith("anchor: NumPy") and nt.endswith(threads + " runs")), None)
        for other, short in ((skl_rate, "skl2onnx in the same batches"), (numpy_rate, "NumPy")):
            if other:
                parts.append(f"{rate / other:.2f}x {short}")
        onnx_ratios.append(" ".join(parts[:2]) + "".join(", " + p for p in parts[2:]))
    if onnx_ratios:
        lines += ["", "ONNX export against the anchors (same session options; goal: ahead, ratio > 1): "
                  + "; ".join(onnx_ratios) + "."]
        best = {w: max((r for ww, _, r, nt in results if ww.startswith(w) and not nt.startswith("double")), default=0)
                for w in ("onnx export", "anchor: skl2onnx")}  # named columns against float32 (the matrix rows below)
        if best["anchor: skl2onnx"]:
            lines += ["", f"Best against best (any batching, any thread count): "
                          f"{best['onnx export'] / best['anchor: skl2onnx']:.2f}x skl2onnx."]
    if matrix_ratios:
        lines += ["", "ONNX export with --onnx-input matrix against skl2onnx's models on the same double [N, 11] "
                  "input, batches and threads (goal: at least 1.0x): " + "; ".join(matrix_ratios) + "."]
        ours = [r for w, _, r, _ in results if w == "onnx export, --onnx-input matrix"]
        card = [r for w, _, r, _ in results if w == "onnx export, --onnx-input matrix, 11 cut-offs card"]
        unmet = [r for w, _, r, _ in results if w == UNMET_CARD]
        unmet_model = [r for w, _, r, _ in results if w == UNMET_MODEL]
        named = [r for w, _, r, _ in results if w == "onnx export, named columns, 11 cut-offs card"]
        anchors = {a: max((r for w, _, r, nt in results if w == f"anchor: skl2onnx {a}" and nt.startswith("double")),
                          default=0) for a in ("LinearRegression", "LogisticRegression")}
        if all(anchors.values()):
            lines += ["", "Best against best on the double matrix (any batching, any thread count): benchmark model "
                      + ", ".join(f"{max(ours) / r:.2f}x {a}" for a, r in anchors.items())
                      + " (under 'unmet' " + ", ".join(f"{max(unmet_model) / r:.2f}x {a}" for a, r in anchors.items())
                      + "); 11 cut-offs card "
                      + ", ".join(f"{max(card) / r:.2f}x {a}" for a, r in anchors.items())
                      + "; the card under 'unmet' " + ", ".join(f"{max(unmet) / r:.2f}x {a}" for a, r in anchors.items())
                      + f" (the same card with named columns: {max(named) / anchors['LinearRegression']:.2f}x "
                      "LinearRegression)."]
    if m2c:
        lines += ["", "The Python export's score_columns checks each column read by a condition with one C-level "
                  "sum (ints only) and, in an integer model, the columns read only by linear terms through the "
                  "sum of the scores (any other value there raises or makes a score a non-int), then runs one "
                  "comprehension over zip of the columns: no call and no check per row. Every value added being "
                  "an int, whose sum no order changes, that comprehension adds the intercept (-40 here) last, so "
                  "the running total of small points stays among CPython's cached small ints (-5 to 256) instead "
                  "of allocating an int per term: in a separate run, the same comprehension in the model's order "
                  "(what other values get, for float-exact sums) measured 1.00x m2cgen and this one 1.28x. "
                  "score(row) and score_rows look every input up by name in a dict and check it "
                  "per row: an operator.itemgetter over the dict rows feeding the same comprehension with no "
                  "check at all measured 0.95x m2cgen in a separate run, so rows read by name and held to the "
                  "missing-value policy do not get ahead of m2cgen's positional lists."]
    ours = {nt.rsplit(", ", 1)[0]: r for w, _, r, nt in results
            if w == "onnx export" and nt.endswith(" 1 intra-op thread")}
    speedup = (f"at {ours[f'batches of {BATCH:,} rows'] / ours['one batch of all rows']:.1f}x the rate of one batch "
               "of all rows (one thread, this run)" if len(ours) == 2 else "faster")
    nodes = onnx_export.build(bench_model()).graph.node
    lines += ["", "The ONNX graph adds the terms one node at a time in the model's order (bit-identical to "
              "Python's float sums); each node is a pass over the batch, so batches that keep the "
              f"intermediate tensors in cache ({BATCH:,} rows) run {speedup}. "
              "Kernels are chosen for speed: a condition's points are Cast * points, points of 1 and -1 are "
              "added or subtracted with no Mul, and the NaN of an unscorable row (score * (p / p)) and of its "
              "prediction (Cast(score > threshold) / Cast(score == score)) avoid Where, whose broadcasting kernel is "
              "the slowest element-wise pass. Tried and not used: a variadic Sum over the terms (still one "
              "pass per input, slower than the Adds), Where with tensor branches (slower still), and a MatMul "
              "over the stacked columns as skl2onnx emits, exact only on integers: with the run-time test "
              "that the batch is integral (Floor, compare, reduce) and the Concat that stacks our "
              "one-input-per-column signature into a matrix, it measured slower than the ordered adds. "
              "skl2onnx makes one MatMul pass over one float32 [N, 11] tensor (44 MB); our graph reads 11 "
              f"double columns (88 MB) and runs {len(nodes)} nodes, each a pass over the batch (for this model: "
              "13 for the NaN of rows missing a compared input, 3-4 per condition, 1-2 per linear term, 5 for "
              "the prediction), which is why it stays behind the MatMul anchor."]
    top = next(n for n in onnx_export.build(bench_model(), "matrix").graph.node if n.op_type == "If")
    block = next(a.g for a in top.attribute if a.name == "then_branch")  # a batch of at most one block
    proof = [n.op_type for n in block.node]
    inner = next(n for n in block.node if n.op_type == "If")
    fast = [n.op_type for n in next(a.g for a in inner.attribute if a.name == "then_branch").node]
    again = next(a.g for a in inner.attribute if a.name == "else_branch")  # the proof on the Slice
    retry = [n.op_type for n in again.node]
    slow = next(a.g for a in next(n for n in again.node if n.op_type == "If").attribute if a.name == "else_branch").node
    card_nodes = [n.op_type for n in onnx_export.build(cuts_model(), "matrix").graph.node]
    lines += ["", "With --onnx-input matrix the benchmark model (6 linear terms, whole-number points) is scored in "
              f"blocks of {onnx_export.BLOCK:,} rows: an If on the row count, and above one block a Loop over the "
              "blocks whose outputs ConcatFromSequence joins (before the blocks, one batch of all rows ran at 0.75x "
              "LogisticRegression and 65,536-row batches at 1.18x in the same run: each 10^6-row intermediate was "
              "out of the CPU's cache). Each block runs "
              f"{', '.join(proof)}: the linear columns (one MatMul by their 0/1 selection matrix, on every "
              "intra-op thread, where a Slice copies on one), the proof Clip(-L, L), Floor, Sub, ReduceL1 == 0 "
              "that every linear value is a whole number within L (the range where the runtime adds ints, and "
              "|linear sum| <= 2^51; NaN and infinities fail it), then the If's integer graph "
              f"({', '.join(fast)}): one Gemm of the 5 conditions' steps scaled to 0 or 2^52 and the linear sum + "
              "2^51 as a 6th column, one Clip to [0, 2^52] (the steps become 0 or 2^52, the sum passes unchanged), "
              "one Gemm by the points / 2^52 and 1 with C = offset - 2^51, and prediction Clip(score - "
              "floor(threshold), 0, 1); every product and partial sum is an integer below 2^53, so any order gives "
              "the runtime's int. The selection makes a row NaN where any of its values is NaN, so a block failing "
              f"that proof is proven again on its linear columns taken by one Slice ({', '.join(retry)}): a missing "
              "value in a condition's column costs its block that copy, not the integer graph. A block holding a "
              "fraction, a value beyond L, an infinity or a NaN in a linear "
              f"column takes the second If's other graph ({len(slow)} nodes: one Split, then the terms in the "
              "model's order, as before), so the scores are the runtime's to the bit on every batch (tests/exporters/"
              "test_onnx_matrix.py mixes both in blocks of 4 rows). The 11 cut-offs card is "
              f"{len(card_nodes)} nodes ({', '.join(card_nodes)}): one Gemm (x * k - t' * k, k = 1 / (t - t'), t' "
              "the double below t: exact, at least 1 from x = t on, 0 at t'), one Clip to [0, 1], one Gemm of "
              "those steps by the points (whole numbers: exact in any order) with the offset of '<' conditions as "
              "its C, by a [k, 1] column (onnxruntime's MatMul by a 1-D vector measured 25x slower), and, its score "
              "being a whole number, prediction = Clip(score - floor(threshold), 0, 1) (NaN for NaN) where the "
              "general formula takes five nodes (1.10x the card graph before it, Gemm, Clip, MatMul, Reshape, Add and the "
              "five-node prediction, in an interleaved run of 61 rounds on 2026-11-27; callgrind: 16.2 M instructions "
              "per 65,536-row batch against 17.2 M)."]
    lines += ["", CALLGRIND]
    lines += ["", "Tried for the block's proof (2026-11-27, 10^6 rows, 7-9 interleaved rounds, 1 thread, load 2-4.5, "
              "ratios of the whole graph against the kept proof in the same run, one batch and 65,536-row batches; "
              "the shared machine's noise is about 10%): ReduceMax/ReduceMin for the range instead of the Clip "
              "0.98x; Cast to int32 and back instead of Floor 0.89-1.00x; Floor, Equal, Cast to uint8 and ReduceMin "
              "0.92-1.28x (no steady gain); Floor and Sub over the whole matrix with per-column reductions (axis 0) "
              "0.44-0.85x, or with a masking MatMul 0.72-0.78x (two passes over 11 columns cost more than a Slice "
              "of 6); Mod(x, 1) alone costs about 8x a Floor pass (std::fmod per value). No reduction of the values "
              "themselves proves them whole: a sum or a sum of squares loses a fraction smaller than the rounding "
              "of the batch's total, so each value is compared with its own floor, two element-wise passes. "
              "Without Clip, Floor and Sub (no proof: not exact) the same graph measured 1.07-2.12x "
              "LogisticRegression and 0.28-0.89x LinearRegression in those runs. Blocks of 32,768, 65,536, "
              "131,072 and 262,144 rows: 1.26x, 1.25x, 1.08x and 0.81x LogisticRegression on one batch of all rows "
              "(1 thread, load 4.5). With 2 intra-op threads on this 2-core machine, shared with other jobs, every "
              "graph of many small kernels suffers: each kernel splits its work and waits for both threads. "
              "On 2026-11-27 23:30 UTC (3 interleaved runs of 9 rounds, 65,536-row batches, load 0.1-0.3, /tmp scripts): the "
              "linear columns by a MatMul with a 0/1 selection matrix instead of the Slice, 1 thread 1.23-1.25x "
              "LogisticRegression against the Slice's 1.24-1.27x, 2 threads 1.01-1.11x against 0.84-1.04x (onnxruntime's "
              "profiler, 2 threads: the Slice 764 us of a 2,472 us block, on one thread; the MatMul 577 us); the range "
              "as ReduceL1 of the block <= L instead of the Clip, no steady gain (0.98-1.22x); blocks of 8,192, 16,384 "
              "and 32,768 rows with the MatMul, 1 thread 1.64x, 1.43x and 1.30x, 2 threads 0.95x, 1.06x and 0.98x (the "
              "smaller the kernels, the more each pays for splitting its work in two). One batch of all rows with 2 "
              "threads: the Slice of each block's rows out of the matrix, a single-threaded copy of 5.7 MB read from "
              "memory, is 27 % of the run (profiler)."]
    return "\n".join(lines) + "\n"



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="record the results in benchmarks/RESULTS.md")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2],
                        help="onnxruntime intra-op thread counts to measure (ours and the anchor alike)")
    parser.add_argument("--onnx-only", action="store_true",
                        help="measure only the onnx export and its anchors (not for --write: the section holds every part)")
    parser.add_argument("--risk", action="store_true",
                        help="measure only the sql export with its risk column (its own RESULTS.md section)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    command = "python " + " ".join(["benchmarks/exports.py"] + sys.argv[1:])
    if args.risk:
        results = run_risk(args.rows, args.repeat)
        show("exports-sql-risk", risk_section(results, RISK_ROWS * -(-args.rows // RISK_ROWS), args.repeat, command, load),
             args.write)
        return
    if args.onnx_only and args.write:
        parser.error("--onnx-only measures a part of the section: run without it to --write")
    results = run(args.rows, args.repeat, tuple(args.threads), args.onnx_only)
    show("exports", section(results, args.rows, args.repeat, "python " + " ".join(["benchmarks/exports.py"] + sys.argv[1:]),
                            load), args.write)


if __name__ == "__main__":
    main()
