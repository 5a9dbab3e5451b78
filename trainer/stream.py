"""Training on data that is not read into memory: the command line's path for big data.

``scorecard train DATA`` reads DATA into memory (``data/prepare.py``) unless DATA is a folder
of Parquet/CSV files or reading it would take more than the memory budget (``--memory-limit``,
default a sixteenth of the RAM; :func:`plan`). Then the data is scanned once (``data/stream.py``:
types, levels and missing counts of every row, a design sample of about 100,000 rows) and:

* a convex loss trains by cutting planes over an oracle of *all* rows
  (:func:`convex_rows`): the signed design columns are built row group by row group and held
  in memory when they fit the budget (float32, identical rows merged when that pays: one
  pass over the files), else each oracle call streams the files again (``ParquetOracle`` over a
  :class:`DesignSource`), in memory bounded by one row group;
* the design's cut-offs and levels, ``--c0 auto``'s cross-validation, the golden rows and a
  non-logistic loss's risk table come from the design sample; the training error and row
  count of the model file are those of every row (:func:`full_error`, one more pass).

``training.params.stream`` records the decision: the budget, the in-memory estimate, the
rows, the files, the sample and how the rows reached the oracle.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Iterator, Optional

import numpy as np
import pandas as pd
from scorecard.runtime import Model

from . import advice
from .convex.losses import ArrayOracle, Oracle, ParquetOracle, merge_rows, signed_columns, worth_merging
from .convex.train import row_weights
from .data.design import Column, Design
from .data.families import data_notes
from .data.spill import Spill
from .data.stream import BATCH_ROWS, Files, Streamed, fits, memory_budget, scan, worth_streaming
from .options.config import TrainConfig
from .options.spec import size_bytes
from .solvers.options import Deadline
from .solvers.progress import ProgressCallback
from .train import train


@dataclass(frozen=True)
class Plan:
    """How ``train`` reads DATA: in memory, or streamed (and why)."""

    files: Files
    budget: int
    in_memory_bytes: int
    streamed: bool

    def record(self) -> dict:
        return {"memory_limit": self.budget, "in_memory_estimate": self.in_memory_bytes,
                "files": len(self.files.paths)}


def plan(path: str, config: TrainConfig) -> Plan:
    """Stream DATA when it is a folder or its in-memory reading would exceed the budget, and
    for the 0-1 loss when it has more rows than the exact problem takes (:data:`EXACT_ROWS`:
    its rows are then grouped, or sampled)."""
    files = Files.of(path)
    budget = memory_budget(size_bytes(config.memory_limit) if config.memory_limit is not None else None)
    if not files.folder and not files.paths[0].lower().endswith((".parquet", ".pq", ".csv")):
        return Plan(files, budget, 0, False)  # another suffix: the in-memory reader's CSV
    many = config.loss == "zero-one" and files.rows() > EXACT_ROWS
    return Plan(files, budget, files.in_memory_bytes(), many or worth_streaming(files, budget))


@dataclass(frozen=True)
class DesignSource:
    """The signed design columns of every row, computed row group by row group from the files
    (a ``losses.BatchSource``): what :class:`ParquetOracle` streams when they do not fit."""

    data: Streamed
    design: Design
    w_pos: float
    n_rows: int

    @property
    def n_cols(self) -> int:
        return len(self.design.columns) + 1

    def batches(self, batch_rows: int = BATCH_ROWS, every: int = 1) -> Iterator[tuple[np.ndarray, np.ndarray | None]]:
        for X, y in self.data.design_batches(self.design, batch_rows, every):
            yield signed_columns(X, y), row_weights(y, self.w_pos)


def in_memory(source: DesignSource, loss: str, threads: int) -> ArrayOracle:
    """All signed columns in memory from one pass (float32; identical rows merged when a
    sample of the first row group says that pays, batch by batch, then once more overall)."""
    ZT = np.empty((source.n_cols, source.n_rows), dtype=np.float32)
    weights: list = []
    merged: list = []
    at, merge = 0, None
    for block, w in source.batches():
        if merge is None:
            merge = worth_merging(block)
        if merge:
            merged.append(merge_rows(block, w))
            continue
        ZT[:, at:at + block.shape[1]] = block
        weights.append(w)
        at += block.shape[1]
    if merge:
        if not merged:
            raise ValueError("no rows")
        joined = np.concatenate([m[0] for m in merged], axis=1)
        ZT, w = merge_rows(joined, np.concatenate([m[1] for m in merged]))
        return ArrayOracle(ZT, w, loss, threads=threads)
    w = None if not weights or weights[0] is None else np.concatenate(weights)
    return ArrayOracle(ZT[:, :at] if at < source.n_rows else ZT, w, loss, threads=threads)


def full_error(oracle: ArrayOracle | ParquetOracle, lam: np.ndarray, w_pos: float) -> tuple[int, int]:
    """(errors, rows) of coefficients ``lam`` (intercept first) over every row, by the runtime's
    rule (positive when the points total is > the threshold, ``-intercept``: ``lam @ row > 0``). Row 0 of the signed columns is the label itself, so
    a merged row's count is its weight over its class weight."""
    blocks = [(oracle.ZT, oracle.weights)] if isinstance(oracle, ArrayOracle) else oracle.source.batches()
    lam = np.asarray(lam, dtype=np.float32)
    errors = rows = 0.0
    for ZT, w in blocks:
        y = ZT[0]
        m = lam @ ZT
        wrong = np.where(y > 0, m <= 0, m < 0)
        count = np.ones(ZT.shape[1]) if w is None else np.asarray(w, dtype=np.float64) / np.where(
            y > 0, 2.0 * w_pos if w_pos != 0.5 else 1.0, 2.0 * (1 - w_pos) if w_pos != 0.5 else 1.0)
        errors += float(count[wrong].sum())
        rows += float(count.sum())
    return int(round(errors)), int(round(rows))


def train_streamed(path: str, target: str, positive: object, config: TrainConfig, the_plan: Plan,
                   progress: Optional[ProgressCallback] = None, *, deadline: Deadline | None = None,
                   warn: Optional[advice.Warn] = None, notes=lambda message: None) -> Model:
    """Train on DATA read in row groups (``the_plan.streamed``). ``notes`` receives one-line
    notes for the user: those of the data as in memory (``families.data_notes``: a target of
    more than two values, columns left out, rare levels), then what was streamed, and why."""
    start = time.monotonic()
    with Spill.open() as spill:
        data = scan(the_plan.files, target, positive, config.missing, spill)
        for note in data_notes(data.sample, config):
            notes(note)
        if config.loss == "zero-one":
            return _train_grouped(data, config, the_plan, progress, deadline, warn, notes, start)
        return _train_convex(data, path, config, the_plan, progress, deadline, warn, notes, start)


def _train_convex(data: Streamed, path: str, config: TrainConfig, the_plan: Plan, progress, deadline, warn, notes,
                  start: float) -> Model:
    """A convex loss on streamed data: cutting planes over an oracle of every row."""
    why = "a folder of files" if the_plan.files.folder else \
        f"about {size_text(the_plan.in_memory_bytes)} to hold in memory, over --memory-limit {size_text(the_plan.budget)}"
    notes(f"{path}: {data.rows:,} rows, {why}: read in row groups, the design from a sample of "
          f"{len(data.sample.y):,} rows")
    held: dict = {}

    def rows(design: Design) -> Oracle:
        held["design"] = design
        source = DesignSource(data, design, config.w_pos, data.rows)
        if fits(data.rows, len(design.columns), the_plan.budget):
            held["oracle"], held["how"] = in_memory(source, config.loss, config.threads), "signed columns in memory"
        else:
            held["oracle"], held["how"] = ParquetOracle(source, config.loss), "streamed every pass"
        return held["oracle"]

    model = train(data.sample, config, progress, deadline=deadline, warn=warn, rows=rows)
    oracle = held["oracle"]
    errors, n = full_error(oracle, np.array([model.intercept] + design_points(model, held["design"]),
                                            dtype=np.float64), config.w_pos)
    stream = the_plan.record() | {"rows": data.rows, "sample_rows": len(data.sample.y), "oracle": held["how"],
                                  "oracle_rows": int(oracle.n_rows), "passes_after_the_scan": passes_read(data),
                                  "scan_and_fit_seconds": round(time.monotonic() - start, 3)}
    training = replace(model.training, n_rows=n, train_error=errors / max(n, 1),
                       params=model.training.params | {"stream": stream})
    return replace(model, training=training)


def passes_read(data: Streamed) -> str:
    """What the passes after the scan read, for the model file: the scan's spill or the files."""
    if data.spill is not None:
        return "a temporary file of the row groups as the scan read them (the CSV text parsed once)"
    return "the files"


#: Distinct rows the exact 0-1 problem takes from big data within a --time-limit of 30 s (the
#: 0-1 pipeline keeps to it there); grouped data with more is trained on a random sample of this many rows.
EXACT_ROWS = 50_000
LABEL = "\x00label"  # the label's column among the grouped inputs (no input may hold a NUL in its name)


def grouped(data: Streamed) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """Every row group's identical rows (inputs and label) as one row and its count:
    ``(inputs frame, labels +1/-1, counts)``, in bounded memory when rows repeat."""
    total = None
    for path, first, batch in data.batches():
        typed, y = data.typed(batch, f"{path} (rows from {first})")
        counts = typed.assign(**{LABEL: y}).value_counts(dropna=False, sort=False)
        total = counts if total is None else pd.concat([total, counts]).groupby(
            level=list(range(counts.index.nlevels)), dropna=False, sort=False).sum()
    rows = total.index.to_frame(index=False)
    labels = rows.pop(LABEL).to_numpy(dtype=np.int8)
    for inp in data.sample.inputs:  # the grouped columns as prepare types them
        rows[inp.name] = rows[inp.name].astype(object).where(rows[inp.name].notna(), None) \
            if inp.type == "categorical" else rows[inp.name].astype(np.float64)
    return rows, labels, total.to_numpy(dtype=np.float64)


def _train_grouped(data: Streamed, config: TrainConfig, the_plan: Plan, progress, deadline, warn, notes,
                   start: float) -> Model:
    """The 0-1 loss on big data: identical rows grouped (their counts weight the loss), the
    exact problem when the groups are few enough, else a random sample of :data:`EXACT_ROWS`
    rows, said in a note and in the record. Data reduction (Section 4.2) runs when asked
    (``--reduce``): it is not forced, as on tens of thousands of distinct rows it overruns
    ``--time-limit`` (50,000 rows at 30 s: 43 s of wall time, against 32 s without)."""
    sample = data.sample
    distinct = len(sample.frame.assign(**{LABEL: sample.y}).drop_duplicates())
    if distinct > EXACT_ROWS:  # the sample alone has too many: so has all of it; no grouping pass
        frame, y, counts = sample.frame, sample.y, np.ones(len(sample.y))
    else:
        frame, y, counts = grouped(data)
    full = replace(sample, frame=frame, y=y, counts=counts, missing_cells={}, dropped_rows=0)
    record = the_plan.record() | {"rows": data.rows, "grouped_rows": len(y) if distinct <= EXACT_ROWS else None,
                                  "sample_rows": len(sample.y), "passes_after_the_scan": passes_read(data)}
    if distinct <= EXACT_ROWS and len(y) <= EXACT_ROWS:
        notes(f"{data.files.source}: {data.rows:,} rows are {len(y):,} distinct rows: the exact problem on them, "
              "their counts as weights")
        record["problem"] = "exact on grouped rows"
        train_on, cfg = full, config
    else:
        draw = np.random.default_rng(config.seed).multinomial(EXACT_ROWS, counts / counts.sum())
        pick = np.flatnonzero(draw)
        train_on, cfg = replace(full.subset(pick), counts=draw[pick].astype(np.float64)), config
        reduced = ", reduced (--reduce)" if config.reduce else ""
        many = f"{len(y):,}" if distinct <= EXACT_ROWS else f"at least {distinct:,} (as many in a sample of {len(sample.y):,})"
        notes(f"{data.files.source}: {data.rows:,} rows are {many} distinct rows, too many for the exact 0-1 "
              f"problem (at most {EXACT_ROWS:,}): trained on a random sample of {EXACT_ROWS:,} rows "
              f"({len(pick):,} distinct, their counts as weights{reduced}); the training error is that of every row")
        record["problem"] = f"random sample of {EXACT_ROWS} rows{reduced}"
    model = train(train_on, cfg, progress, deadline=deadline, warn=warn)
    if distinct <= EXACT_ROWS:
        wrong = (points(model, frame) > model.threshold) != (y > 0)
        errors, n = float(counts[wrong].sum()), int(counts.sum())
    else:  # one more pass: the error of every row
        errors = n = 0
        for path, first, raw in data.batches():
            typed, labels = data.typed(raw, f"{path} (rows from {first})")
            errors += int(((points(model, typed) > model.threshold) != (labels > 0)).sum())
            n += len(labels)
    record["scan_and_fit_seconds"] = round(time.monotonic() - start, 3)
    training = replace(model.training, n_rows=n, train_error=errors / n,
                       params=model.training.params | {"stream": record})
    return replace(model, training=training)


def points(model: Model, frame: pd.DataFrame) -> np.ndarray:
    """The model's score of each row of a typed frame: the card's points total, no intercept
    (the design's meaning of each term); positive when above ``model.threshold``."""
    total = np.zeros(len(frame))
    for t in model.terms:
        value = tuple(t.value) if isinstance(t.value, list) else t.value
        total += t.points * np.nan_to_num(Column(t.input, t.op, value, t.label).values(frame[t.input]))
    return total


def design_points(model: Model, design: Design) -> list[int]:
    """The model's points per design column, in the design's order (0 for an unused column)."""
    points = {(t.input, t.op, t.value if not isinstance(t.value, list) else tuple(t.value)): t.points
              for t in model.terms}
    return [points.get((c.input, c.op, c.value), 0) for c in design.columns]


def size_text(n: float) -> str:
    """``1.5 GB``, ``340 MB``: a size as a person reads it."""
    for unit, scale in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n:.0f} bytes"
