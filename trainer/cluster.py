"""``--dask ADDRESS``: train and score with the rows on a Dask cluster (extra ``dask``).

The files of DATA (one, or a folder of Parquet/CSV files) are read by the workers as a
dask.dataframe (``read_parquet``; ``read_csv`` with every cell as text, only an empty cell
missing) and never pass through this process whole:

* training runs ``data/stream.py``'s scan on each partition where it lives (types, levels,
  missing counts of every row, and the design sample, gathered here), then builds the signed
  design columns on the workers and trains a convex loss through ``DaskOracle`` (each pass
  ships the coefficients and gets back one loss and gradient per block);
* scoring (:func:`score_on_cluster`) runs the runtime's own CSV scorer (``score_csv``) on each
  partition in parallel, so every row gets exactly the score ``scorecard predict`` gives it,
  and writes the partitions' rows here in file order.

The workers must be able to read the paths given (a shared file system or object store) and
have scorecard installed. The 0-1 loss needs the rows in one process (``trainer/stream.py``).
"""
from __future__ import annotations

import io
import time
from dataclasses import replace
from typing import Callable, Optional, TextIO

import numpy as np
import pandas as pd
import pyarrow as pa
from scorecard.runtime import Model, dumps, loads, score_csv
from scorecard.runtime.errors import ConfigError, DataError

from . import advice
from .convex.losses import DaskOracle
from .data.columnar import PARQUET_SUFFIXES, check_header
from .data.cells import as_text as _as_text
from .data.design import Design
from .data.workbook import is_workbook
from .data.families import data_notes
from .data.stream import (SAMPLE_ROWS, ColumnScan, Files, Streamed, design_matrix, from_scan, merge_scans, picked_rows,
                          scan_batch)
from .options.config import TrainConfig
from .solvers.options import Deadline
from .solvers.progress import ProgressCallback
from .stream import design_points
from .train import train


def connect(address: str):
    """A ``distributed.Client`` on the scheduler at ``address`` (ConfigError when it cannot be reached)."""
    try:
        from distributed import Client
    except ImportError:
        raise ConfigError("--dask needs dask and distributed; pip install 'scorecard[dask]'") from None
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise ConfigError(f"--dask {address}: no Dask scheduler answers there ({exc})") from None


def read_frame(files: Files):
    """DATA as one dask.dataframe: Parquet as typed, CSV as text (an empty cell ``""``)."""
    import dask.dataframe as dd

    if any(is_workbook(p) for p in files.paths):
        raise DataError(f"{files.source}: --dask reads CSV and Parquet files; an Excel workbook is read without --dask")
    columns = files.columns()
    check_header(columns, files.source)  # a nameless first column: the in-memory reading's alone to leave out
    parts = []
    parquet = [p for p in files.paths if p.lower().endswith(PARQUET_SUFFIXES)]
    csv = [p for p in files.paths if not p.lower().endswith(PARQUET_SUFFIXES)]
    if parquet:
        parts.append(dd.read_parquet(parquet, columns=columns))
    if csv:
        parts.append(dd.read_csv(csv, dtype=str, keep_default_na=False, na_filter=False, encoding="utf-8-sig",
                                 blocksize="64MB")[columns])
    return parts[0] if len(parts) == 1 else dd.concat(parts)


def _batch(frame: pd.DataFrame) -> pa.RecordBatch:
    """A partition as the record batch ``data/stream.py`` reads (CSV cells as text, Parquet typed)."""
    return pa.RecordBatch.from_pandas(frame, preserve_index=False)


def _scan_part(frame: pd.DataFrame, target: str, every: int, where: str) -> tuple[dict[str, ColumnScan], pd.DataFrame, int]:
    """A partition's scan, its sampled rows (every ``every``-th, as text) and its row count (runs on a worker)."""
    batch = _batch(frame)
    return scan_batch(batch, target, where)[0], picked_rows(batch, 0, every), len(frame)


def _design_part(frame: pd.DataFrame, data: Streamed, design: Design, where: str) -> pd.DataFrame:
    """A partition's design columns (float32) and labels (runs on a worker)."""
    typed, y = data.typed(_batch(frame), where)
    X = design_matrix(design, typed)
    out = pd.DataFrame(X, columns=[f"c{j}" for j in range(X.shape[1])], index=typed.index)
    out["y"] = y.astype(np.float32)
    return out


def scan_on_cluster(client, files: Files, ddf, target: str, positive: object, missing: str) -> Streamed:
    """``data/stream.scan`` with each partition scanned by the worker that reads it."""
    from dask import delayed

    every = max(1, files.rows() // SAMPLE_ROWS)
    parts = ddf.to_delayed()
    where = f"{files.source} (partition {{}})"
    results = client.gather(client.compute([delayed(_scan_part)(p, target, every, where.format(k))
                                            for k, p in enumerate(parts)]))
    rows = sum(r[2] for r in results)
    if rows == 0:
        raise DataError(f"{files.source}: the data has a header but no rows")
    picked = pd.concat([r[1] for r in results], ignore_index=True)
    return from_scan(files, merge_scans([r[0] for r in results]), picked, rows, target, positive, missing)


def train_on_cluster(address: str, path: str, target: str, positive: object, config: TrainConfig,
                     progress: Optional[ProgressCallback] = None, *, deadline: Deadline | None = None,
                     warn: Optional[advice.Warn] = None, notes: Callable[[str], None] = lambda m: None) -> Model:
    """Train on DATA read by the cluster at ``address`` (convex losses: the rows never leave it)."""
    if config.loss == "zero-one":
        raise ConfigError("--dask trains the convex losses (--loss logistic, hinge, exponential or quadratic); "
                          "the 0-1 loss needs the rows in one process (leave out --dask)")
    import dask.array as da

    start = time.monotonic()
    files = Files.of(path)
    with connect(address) as client:
        ddf = read_frame(files)
        data = scan_on_cluster(client, files, ddf, target, positive, config.missing)
        for note in data_notes(data.sample, config):  # as in memory and as streamed
            notes(note)
        notes(f"{path}: {data.rows:,} rows in {ddf.npartitions} partitions on the cluster at {address}; "
              f"the design from a sample of {len(data.sample.y):,} rows")
        light = replace(data, sample=replace(data.sample, frame=data.sample.frame.iloc[:0], y=data.sample.y[:0],
                                             missing_cells={}))
        held: dict = {}

        def rows(design: Design) -> DaskOracle:
            meta = pd.DataFrame({**{f"c{j}": np.float32() for j in range(len(design.columns))}, "y": np.float32()},
                                index=pd.RangeIndex(0))
            cols = ddf.map_partitions(_design_part, light, design, f"{path} (a partition)", meta=meta)
            arr = cols.to_dask_array(lengths=True)
            X, y = arr[:, :-1], arr[:, -1]
            w = None if config.w_pos == 0.5 else da.where(y > 0, 2.0 * config.w_pos, 2.0 * (1.0 - config.w_pos))
            held["oracle"] = DaskOracle.from_xy(X, y.astype(np.int8), w, loss=config.loss)
            held["design"] = design
            return held["oracle"]

        model = train(data.sample, config, progress, deadline=deadline, warn=warn, rows=rows)
        oracle: DaskOracle = held["oracle"]
        lam = np.array([model.intercept] + design_points(model, held["design"]), dtype=np.float32)
        m = da.dot(lam, oracle.ZT)
        yrow = oracle.ZT[0]
        (errors,) = oracle._compute(da.where(yrow > 0, m <= 0, m < 0).sum())
        stream = {"cluster": address, "files": len(files.paths), "rows": data.rows, "partitions": ddf.npartitions,
                  "sample_rows": len(data.sample.y), "oracle": "DaskOracle", "oracle_rows": oracle.n_rows,
                  "scan_and_fit_seconds": round(time.monotonic() - start, 3)}
    training = replace(model.training, n_rows=oracle.n_rows, train_error=int(errors) / max(oracle.n_rows, 1),
                       params=model.training.params | {"stream": stream})
    return replace(model, training=training)


def _score_part(frame: pd.DataFrame, model_text: str, source: str, explain: int = 0) -> tuple[str, int, int]:
    """A partition scored by the runtime's CSV scorer: (CSV text with header, rows, unscored)."""
    if any(frame[c].dtype.kind != "O" for c in frame.columns):  # Parquet values as the CSV text they stand for
        frame = frame.map(lambda v: "" if _as_text(v) is None else _as_text(v))
    out = io.StringIO()
    result = score_csv(loads(model_text), io.StringIO(frame.to_csv(index=False, lineterminator="\n")), out,
                       source=source, explain=explain)
    return out.getvalue(), result.rows, result.unscored


def score_on_cluster(address: str, model: Model, path: str, out: TextIO, explain: int = 0) -> tuple[int, int]:
    """Score DATA's partitions in parallel on the cluster, writing them to ``out`` in order
    (``explain`` K > 0: with the reason codes, as ``predict --explain K``): (rows, rows without
    a score)."""
    from dask import delayed

    files = Files.of(path)
    text = dumps(model)
    rows = unscored = 0
    with connect(address) as client:
        ddf = read_frame(files)
        futures = client.compute([delayed(_score_part)(p, text, path, explain) for p in ddf.to_delayed()])
        for k, future in enumerate(futures):
            scored, n, missing = future.result()
            out.write(scored if k == 0 else scored.split("\n", 1)[1])
            rows, unscored = rows + n, unscored + missing
            future.release()
    return rows, unscored
