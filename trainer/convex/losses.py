"""Loss oracles: the aggregate convex loss and its (sub)gradient over the data.

The cutting-plane trainer (``convex/cutting_planes.py``, the paper's Algorithm 1, Section 4.1) never
sees a row of data: it asks an *oracle* for ``L(lam)`` and ``grad L(lam)`` at a coefficient
vector and turns the answer into the cut ``theta >= L(lam_k) + grad L(lam_k) . (lam - lam_k)``
(Eq. 4.1). This module is that oracle, for the losses of the paper's Appendix tables
"Loss Constraints" and "Loss Cuts":

    logistic      l(m) = log(1 + exp(-m))          l'(m) = -1 / (1 + exp(m))
    hinge         l(m) = max(0, 1 - m)             l'(m) = -1 if m < 1 else 0 (a subgradient)
    exponential   l(m) = exp(-m)                   l'(m) = -exp(-m)
    quadratic     l(m) = (1 - m)^2                 l'(m) = -2 (1 - m)

where ``m_i = y_i * lam . x_i`` is the margin of row i. The paper's table writes the
exponential loss as ``exp(1 - m)``, a constant factor e; we use the usual ``exp(-m)``. The
aggregate loss is the weighted mean ``L(lam) = sum_i w_i l(m_i) / W`` (W = the total weight
unless given), and its gradient is ``Z^T (w * l'(m)) / W`` with ``Z`` the *signed rows*
``y_i * x_i``.

Why it is fast: the signed rows are stored once, column-major (``ZT``, p x n: the matrix-
vector products then run along long contiguous rows, about 3x faster than n x p for the
few columns of a scoring system) in float32 (half the memory and bandwidth of float64;
integer-valued data is exact); identical rows are merged into one row with their summed
weight (a large win on the integer data of scoring systems); and each call is one pass over
the rows in cache-sized blocks: ``m = lam @ ZT_b``, the loss and the slope into reused
buffers, ``grad += ZT_b @ slope``, with every sum accumulated in float64. Blocks are shared
among ``threads`` workers (numpy releases the GIL).

Three oracles give the same answer (tested): :class:`ArrayOracle` (in memory),
:class:`ParquetOracle` (streams a Parquet file in row batches with bounded memory, for data
that does not fit) and :class:`DaskOracle` (blocks of a dask array on a dask cluster, for
more than one machine).
"""
from __future__ import annotations

import math
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Iterator, Protocol

import numpy as np

LOSSES = ("logistic", "hinge", "exponential", "quadratic")
BLOCK_ROWS = 65536


class Oracle(Protocol):
    """Anything that returns the aggregate loss and a (sub)gradient at ``lam``."""

    n_cols: int
    loss: str

    def __call__(self, lam: np.ndarray) -> tuple[float, np.ndarray]: ...


def check_loss(loss: str) -> str:
    """The loss name, or ValueError naming the valid ones."""
    if loss not in LOSSES:
        raise ValueError(f"loss {loss!r} has no oracle; use one of {', '.join(LOSSES)}")
    return loss


class _Workspace:
    """Reused buffers for one worker: margins, slope, two scratch vectors and a mask of one block."""

    def __init__(self, rows: int, dtype: np.dtype) -> None:
        self.m = np.empty(rows, dtype)
        self.s = np.empty(rows, dtype)
        self.t = np.empty(rows, dtype)
        self.r = np.empty(rows, dtype)
        self.mask = np.empty(rows, bool)

    def views(self, rows: int) -> tuple[np.ndarray, ...]:
        return self.m[:rows], self.s[:rows], self.t[:rows], self.r[:rows], self.mask[:rows]


def _loss_and_slope(loss: str, m: np.ndarray, s: np.ndarray, t: np.ndarray, r: np.ndarray,
                    mask: np.ndarray) -> None:
    """Write each row's loss ``l(m)`` into ``r`` and ``-l'(m)`` into ``s`` (``t``, ``mask``: scratch).

    Logistic avoids overflow and log1p (slow in numpy) by working with ``t = exp(-|m|)``
    in (0, 1]: ``l = log(1 + t) + max(-m, 0)`` (the rounding of ``1 + t`` costs at most one
    ulp of 1 per row, in absolute terms) and ``-l' = sigma(-m)``, which is ``t / (1 + t)``
    for m > 0 and ``1 / (1 + t)`` otherwise.
    """
    if loss == "logistic":
        np.abs(m, out=t)
        np.negative(t, out=t)
        np.exp(t, out=t)
        np.add(t, 1.0, out=s)
        np.log(s, out=r)
        np.reciprocal(s, out=s)
        np.multiply(t, s, out=t)
        np.greater(m, 0.0, out=mask)
        np.copyto(s, t, where=mask)
        np.minimum(m, 0.0, out=t)
        np.subtract(r, t, out=r)
    elif loss == "hinge":
        np.subtract(1.0, m, out=r)
        np.maximum(r, 0.0, out=r)
        np.greater(r, 0.0, out=mask)
        np.copyto(s, mask, casting="unsafe")
    elif loss == "exponential":
        with np.errstate(over="ignore"):
            np.negative(m, out=r)
            np.exp(r, out=r)
        np.copyto(s, r)
    else:
        np.subtract(1.0, m, out=t)
        np.multiply(t, 2.0, out=s)
        np.multiply(t, t, out=r)


def work_dtype(loss: str, storage: np.dtype) -> np.dtype:
    """The dtype a block is computed in: the storage dtype, but float64 for the exponential loss."""
    return np.dtype(np.float64) if loss == "exponential" else np.dtype(storage)


def curvature_floor(loss: str, m: np.ndarray, rho: np.ndarray | float) -> np.ndarray:
    """A lower bound on ``l''`` over ``[m - rho, m + rho]`` for each margin.

    ``rho = 0`` gives ``l''(m)`` itself (the Hessian); ``rho > 0`` gives the curvature no
    point within ``rho`` of the margin can go below, which makes ``0.5 d' F d`` a valid lower
    bound on the Taylor remainder of ``L`` over a region (see ``curvature.py``). Hinge is
    piecewise linear: 0.
    """
    if loss == "logistic":
        t = np.exp(-(np.abs(m) + rho))
        return t / (1.0 + t) ** 2
    if loss == "exponential":
        with np.errstate(over="ignore"):
            return np.exp(-(m + rho))
    return np.full(np.shape(m), 2.0 if loss == "quadratic" else 0.0, dtype=np.asarray(m).dtype)


def block_sums(loss: str, ZT: np.ndarray, w: np.ndarray | None, lam: np.ndarray,
               work: _Workspace | None = None, spread: np.ndarray | None = None,
               curvature: bool = False) -> tuple[float, np.ndarray, np.ndarray | None]:
    """Weighted loss sum, gradient sum and (optionally) a curvature matrix sum of one block.

    ZT: the block's signed rows as columns (p x rows). The kernel every oracle uses, so they
    agree to the last bit on the same blocks. Exponential loss is computed in float64 (its
    values span many orders of magnitude), the others in the storage dtype; sums in float64.

    curvature: also return ``sum w l''(m) z z'`` (the Hessian), or with ``spread`` (a p x q
    matrix ``S``) the curvature *floor* ``sum w min_{|s| <= rho} l''(m + s) z z'`` with the
    margin change ``rho_i = ||S' z_i||`` (the largest over the ellipsoid
    ``{d : d' M d <= kappa}`` when ``S = sqrt(kappa) chol(M)^-T``).
    """
    dtype = work_dtype(loss, ZT.dtype)
    rows = ZT.shape[1]
    if work is None or work.m.shape[0] < rows or work.m.dtype != dtype:
        work = _Workspace(rows, dtype)
    m, s, t, r, mask = work.views(rows)
    Zc = ZT if dtype == ZT.dtype else ZT.astype(dtype)
    np.matmul(lam.astype(dtype), Zc, out=m)
    _loss_and_slope(loss, m, s, t, r, mask)
    if w is not None:
        np.multiply(r, w, out=r)
        np.multiply(s, w, out=s)
    total, grad = float(np.add.reduce(r, dtype=np.float64)), -_dot(Zc, s)
    if not curvature:
        return total, grad, None
    rho: np.ndarray | float = 0.0
    if spread is not None:  # rho_i = ||S' z_i||, one matrix-vector product per column of S
        rho = np.zeros(rows, dtype)
        for column in np.asarray(spread, dtype=dtype).T:
            v = column @ Zc
            rho += v * v
        np.sqrt(rho, out=rho)
    k = curvature_floor(loss, m, rho)
    if w is not None:
        k *= w
    return total, grad, _gram(Zc, k)


PIECE = 8192


def _dot(ZT: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``ZT @ s`` as float64: float32 products over pieces of ``PIECE`` rows, summed in float64."""
    if ZT.dtype == np.float64:
        return ZT @ s
    out = np.zeros(ZT.shape[0])
    for b in range(0, ZT.shape[1], PIECE):
        out += ZT[:, b:b + PIECE] @ s[b:b + PIECE]
    return out


def _gram(ZT: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``ZT diag(k) ZT'`` as float64 (float32 pieces summed in float64).

    Built from matrix-vector products: a BLAS matrix-matrix product this thin is slower, and
    multithreaded BLAS on a shared machine makes it far slower still.
    """
    p = ZT.shape[0]
    out = np.zeros((p, p))
    for b in range(0, ZT.shape[1], PIECE):
        Zb = ZT[:, b:b + PIECE]
        Zk = Zb * k[b:b + PIECE].astype(Zb.dtype, copy=False)
        for j in range(p):
            out[:, j] += Zk @ Zb[j]
    return out


def signed_columns(X: np.ndarray, y: np.ndarray, intercept: bool = True,
                   dtype: type = np.float32) -> np.ndarray:
    """``ZT = (y * [1, X])'`` (p x n): the signed rows, as columns; ``lam @ ZT`` are the margins.

    Built in blocks of rows, each transposed while it is in cache (a column-by-column copy of
    a row-major X strides through memory and is several times slower).
    """
    X = np.asarray(X)
    y = np.asarray(y)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must be n x p and y of length n; got {X.shape} and {y.shape}")
    if not np.all(np.abs(y) == 1):
        raise ValueError("y must hold only -1 and +1")
    first = 1 if intercept else 0
    ZT = np.empty((X.shape[1] + first, X.shape[0]), dtype=dtype)
    if intercept:
        ZT[0] = y
    for a in range(0, X.shape[0], BLOCK_ROWS):
        b = min(a + BLOCK_ROWS, X.shape[0])
        np.multiply(X[a:b].T, y[a:b], out=ZT[first:, a:b], casting="unsafe")
    return ZT


def merge_rows(ZT: np.ndarray, weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Collapse identical signed rows into one row carrying their summed weight.

    The loss of a row depends only on its signed row, so ``sum_i w_i l(z_i . lam)`` is the
    same over the merged rows: exact, and on integer-valued data often 10-1000x fewer rows.
    """
    w = np.ones(ZT.shape[1]) if weights is None else np.asarray(weights, dtype=np.float64)
    rows = np.ascontiguousarray(ZT.T)
    flat = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()
    _, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
    return np.ascontiguousarray(rows[first].T), np.bincount(inverse.ravel(), weights=w, minlength=first.size)


def worth_merging(ZT: np.ndarray, sample: int = 20000) -> bool:
    """True when a sample of integer-valued rows has at least 20% duplicates (merging then pays)."""
    head = np.ascontiguousarray(ZT[:, :sample].T)
    if not np.array_equal(head, np.round(head)):
        return False
    flat = head.view(np.dtype((np.void, head.dtype.itemsize * head.shape[1]))).ravel()
    return np.unique(flat).size <= 0.8 * head.shape[0]


def _add(parts: list[tuple[float, np.ndarray, np.ndarray | None]]) -> tuple[float, np.ndarray, np.ndarray | None]:
    total = sum(p[0] for p in parts)
    grad = np.sum([p[1] for p in parts], axis=0)
    matrix = None if parts[0][2] is None else np.sum([p[2] for p in parts], axis=0)
    return total, grad, matrix


class _OnePass:
    """What every oracle offers over its ``_pass`` (one pass over the data, normalised sums)."""

    def _pass(self, lam: np.ndarray, spread: np.ndarray | None = None,
              curvature: bool = False) -> tuple[float, np.ndarray, np.ndarray | None]:
        raise NotImplementedError

    def __call__(self, lam: np.ndarray) -> tuple[float, np.ndarray]:
        value, grad, _ = self._pass(lam)
        return value, grad

    def curvature(self, lam: np.ndarray, spread: np.ndarray | None = None) -> tuple[float, np.ndarray, np.ndarray]:
        """``L``, its gradient and its Hessian, or with ``spread`` a curvature floor (:func:`block_sums`).

        One pass; used for Newton steps on the convex relaxation and by the curvature
        certificate, a few times per fit.
        """
        value, grad, matrix = self._pass(lam, spread, curvature=True)
        return value, grad, matrix


class ArrayOracle(_OnePass):
    """The aggregate loss over signed rows held in memory.

    ZT: signed rows as columns (see :func:`signed_columns`), float32 or float64.
    weights: per-row weights (None: all 1), e.g. the counts of merged rows times class weights.
    normalizer: W in ``L = sum w l / W`` (None: the total weight).
    threads: workers sharing the blocks of each pass.
    """

    def __init__(self, ZT: np.ndarray, weights: np.ndarray | None = None, loss: str = "logistic",
                 normalizer: float | None = None, threads: int = 1, block_rows: int = BLOCK_ROWS) -> None:
        self.loss = check_loss(loss)
        self.ZT = ZT
        self.weights = None if weights is None else np.ascontiguousarray(weights, dtype=work_dtype(loss, ZT.dtype))
        total = float(ZT.shape[1] if weights is None else np.sum(weights, dtype=np.float64))
        self.normalizer = total if normalizer is None else float(normalizer)
        if not self.normalizer > 0:
            raise ValueError("the total weight of the rows must be > 0")
        self.n_cols, self.n_rows = ZT.shape
        self.block_rows = block_rows
        self.threads = max(1, min(threads, math.ceil(self.n_rows / block_rows)))
        self._local = threading.local()
        self._pool = ThreadPoolExecutor(self.threads) if self.threads > 1 else None

    @classmethod
    def from_xy(cls, X: np.ndarray, y: np.ndarray, weights: np.ndarray | None = None,
                loss: str = "logistic", intercept: bool = True, dtype: type = np.float32,
                merge: bool | None = None, normalizer: float | None = None,
                threads: int = 1) -> "ArrayOracle":
        """Oracle over ``(X, y)``; ``merge=None`` merges identical rows when a sample says it pays."""
        ZT = signed_columns(X, y, intercept, dtype)
        if merge or (merge is None and worth_merging(ZT)):
            total = float(ZT.shape[1] if weights is None else np.sum(weights))
            ZT, weights = merge_rows(ZT, weights)
            normalizer = total if normalizer is None else normalizer
        return cls(ZT, weights, loss, normalizer, threads)

    def _range(self, bounds: tuple[int, int], lam: np.ndarray, spread: np.ndarray | None,
               curvature: bool) -> tuple[float, np.ndarray, np.ndarray | None]:
        work = getattr(self._local, "work", None)
        if work is None:
            work = self._local.work = _Workspace(self.block_rows, work_dtype(self.loss, self.ZT.dtype))
        parts = []
        for b in range(bounds[0], bounds[1], self.block_rows):
            e = min(b + self.block_rows, bounds[1])
            w = None if self.weights is None else self.weights[b:e]
            parts.append(block_sums(self.loss, self.ZT[:, b:e], w, lam, work, spread, curvature))
        return _add(parts)

    def _pass(self, lam: np.ndarray, spread: np.ndarray | None = None,
              curvature: bool = False) -> tuple[float, np.ndarray, np.ndarray | None]:
        lam = np.asarray(lam, dtype=np.float64)
        if self._pool is None:
            total, grad, matrix = self._range((0, self.n_rows), lam, spread, curvature)
        else:
            bounds = _split(self.n_rows, self.threads, self.block_rows)
            total, grad, matrix = _add(list(self._pool.map(lambda r: self._range(r, lam, spread, curvature), bounds)))
        W = self.normalizer
        return total / W, grad / W, None if matrix is None else matrix / W

    def subsample(self, rows: int, seed: int = 0) -> "ArrayOracle":
        """An oracle over about ``rows`` random rows (same loss scale): cheap first steps.

        Drawn with replacement and deduplicated (a full permutation of 10^7 rows costs more
        than the steps it saves).
        """
        if rows >= self.n_rows:
            return self
        pick = np.unique(np.random.default_rng(seed).integers(0, self.n_rows, size=rows))
        w = None if self.weights is None else self.weights[pick]
        total = float(pick.size if w is None else np.sum(w, dtype=np.float64))
        weight = float(self.n_rows if self.weights is None else np.sum(self.weights, dtype=np.float64))
        return ArrayOracle(np.ascontiguousarray(self.ZT[:, pick]), w, self.loss,
                           self.normalizer * total / weight, self.threads)

    def margins(self, lam: np.ndarray) -> np.ndarray:
        """``y_i * lam . x_i`` of every stored row."""
        return np.asarray(lam, dtype=self.ZT.dtype) @ self.ZT


def _split(n: int, parts: int, block: int) -> list[tuple[int, int]]:
    """``parts`` contiguous row ranges, each a whole number of blocks (but the last)."""
    blocks = math.ceil(n / block)
    per = math.ceil(blocks / parts)
    return [(k * per * block, min(n, (k + 1) * per * block)) for k in range(parts) if k * per * block < n]


@dataclass(frozen=True)
class ParquetSource:
    """Where the rows are in a Parquet file: feature columns, the target and its positive value.

    ``intercept`` prepends a constant-1 column, as :func:`signed_columns` does; ``weight``
    names an optional column of row weights.
    """

    path: str
    features: tuple[str, ...]
    target: str
    positive: object = 1
    intercept: bool = True
    weight: str | None = None

    @property
    def n_rows(self) -> int:
        """Rows of the file (from its footer)."""
        import pyarrow.parquet as pq

        return pq.ParquetFile(self.path).metadata.num_rows

    def batches(self, batch_rows: int, every: int = 1) -> Iterator[tuple[np.ndarray, np.ndarray | None]]:
        """Signed-column blocks ``(ZT, w)`` read ``batch_rows`` at a time (bounded memory).

        every: keep every ``every``-th row of each batch (a systematic sample, one pass).
        """
        import pyarrow.parquet as pq

        columns = list(self.features) + [self.target] + ([self.weight] if self.weight else [])
        # pre_buffer (pyarrow's default) reads ahead whole row groups: 3x the memory, and slower
        with pq.ParquetFile(self.path, pre_buffer=False, buffer_size=1 << 20) as fh:
            for batch in fh.iter_batches(batch_size=batch_rows, columns=columns, use_threads=False):
                def col(name: str) -> np.ndarray:
                    return batch.column(name).to_numpy(zero_copy_only=False)[::every]
                y = np.where(col(self.target) == self.positive, 1, -1).astype(np.int8)
                X = np.column_stack([col(c) for c in self.features]) if self.features else np.empty((y.size, 0))
                yield signed_columns(X, y, self.intercept, np.float32), (col(self.weight) if self.weight else None)


class BatchSource(Protocol):
    """Rows read in batches: ``n_rows``, ``n_cols`` (signed columns) and ``batches(batch_rows, every)``
    yielding ``(ZT, w)`` blocks as :meth:`ParquetSource.batches` does (``trainer/stream.py`` has
    another: a design computed from raw files row group by row group)."""

    n_rows: int
    n_cols: int

    def batches(self, batch_rows: int, every: int = 1) -> Iterator[tuple[np.ndarray, np.ndarray | None]]: ...


class ParquetOracle(_OnePass):
    """The aggregate loss streamed from a Parquet file (any :class:`BatchSource`): one pass per call.

    Memory is bounded by ``batch_rows`` (the file is never held whole), so the number of
    rows is limited by disk, not RAM. Each batch is cut into the same blocks as
    :class:`ArrayOracle` uses, so both give the same answer on the same rows.
    """

    def __init__(self, source: "ParquetSource | BatchSource", loss: str = "logistic", batch_rows: int = 1 << 20) -> None:
        self.source = source
        self.loss = check_loss(loss)
        self.batch_rows = batch_rows
        self.n_rows = source.n_rows
        self.n_cols = len(source.features) + (1 if source.intercept else 0) if isinstance(source, ParquetSource) \
            else source.n_cols

    def _pass(self, lam: np.ndarray, spread: np.ndarray | None = None,
              curvature: bool = False) -> tuple[float, np.ndarray, np.ndarray | None]:
        lam = np.asarray(lam, dtype=np.float64)
        work = _Workspace(BLOCK_ROWS, work_dtype(self.loss, np.float32))
        parts, weight = [], 0.0
        for ZT, w in self.source.batches(self.batch_rows):
            for b in range(0, ZT.shape[1], BLOCK_ROWS):
                wb = None if w is None else np.asarray(w[b:b + BLOCK_ROWS], dtype=work.m.dtype)
                parts.append(block_sums(self.loss, ZT[:, b:b + BLOCK_ROWS], wb, lam, work, spread, curvature))
            weight += ZT.shape[1] if w is None else float(np.sum(w, dtype=np.float64))
            parts = [_add(parts)]
        total, grad, matrix = parts[0]
        return total / weight, grad / weight, None if matrix is None else matrix / weight

    def subsample(self, rows: int) -> ArrayOracle:
        """Every k-th row of the file in memory (k = n_rows / rows): one streamed pass."""
        every = max(1, self.n_rows // rows)
        blocks = list(self.source.batches(self.batch_rows, every))
        ZT = np.concatenate([b[0] for b in blocks], axis=1)
        w = None if blocks[0][1] is None else np.concatenate([b[1] for b in blocks])
        return ArrayOracle(ZT, w, self.loss)


class DaskOracle(_OnePass):
    """The aggregate loss over the blocks of a dask array, computed where the blocks live.

    ZT: a dask array of signed columns (p x n) chunked along rows only (see :meth:`from_xy`).

    On a cluster: create a ``distributed.Client`` first (it becomes dask's default scheduler)
    and keep it open while the oracle is in use; the oracle then runs on it, nothing else to
    pass::

        from distributed import Client
        client = Client("tcp://scheduler:8786")          # or Client(LocalCluster(...))
        oracle = DaskOracle.from_xy(X, y)                # X, y: dask (or numpy) arrays
        result = cutting_planes(oracle, space)

    The blocks are built and persisted on the workers once, when the oracle is made (numpy
    inputs are uploaded once; data already on the cluster, e.g. ``dd.read_parquet(...)``
    columns as ``.to_dask_array(lengths=True)``, never passes through the client). Each
    call then ships only ``lam`` and gets back one ``(loss, gradient)`` (with
    :meth:`curvature`, a p x p matrix) per block, computed on the worker that holds the
    block, through the client that persisted it (a client made later changes nothing).
    Without a client, the blocks stay in this process and run in threads.

    The answer is that of a one-thread :class:`ArrayOracle` on the same rows: bit for bit
    when each dask block is one ``BLOCK_ROWS`` piece, else to rounding (sums grouped by block).
    """

    def __init__(self, ZT, weights=None, loss: str = "logistic", normalizer: float | None = None) -> None:
        import dask

        if len(ZT.chunks[0]) != 1:
            raise ValueError("chunk the signed columns along rows only (one chunk across the features)")
        self.loss = check_loss(loss)
        self.ZT = ZT.persist()
        self.weights = None if weights is None else weights.rechunk((ZT.chunks[1],)).persist()
        _wait(self.ZT, self.weights)  # built on the workers now: calls only compute the sums
        self._dask = dask
        self._blocks = self.ZT.to_delayed().ravel().tolist()
        self._wblocks = None if self.weights is None else self.weights.to_delayed().ravel().tolist()
        self._futures = _block_futures(self.ZT, self.weights)
        self.n_cols, self.n_rows = int(ZT.shape[0]), int(ZT.shape[1])
        total = float(self.n_rows if weights is None else self._compute(self.weights.sum())[0])
        self.normalizer = total if normalizer is None else float(normalizer)

    def _compute(self, *collections) -> tuple:
        """Compute on the client that holds the blocks, or in local threads when no cluster does.

        (Never on a client made after a local oracle: that would ship the blocks every call.)
        """
        if self._futures is not None:
            client = self._futures[0]
            return tuple(client.gather(client.compute(list(collections))))
        return self._dask.compute(*collections, scheduler="threads")

    @classmethod
    def from_xy(cls, X, y, weights=None, loss: str = "logistic", intercept: bool = True,
                block_rows: int = 1 << 20) -> "DaskOracle":
        """Oracle over dask (or numpy) arrays ``X``, ``y``: signed columns are built block by block.

        block_rows: rows per dask block (per task of a call); a multiple of ``BLOCK_ROWS``
        keeps the answer bit-identical to :class:`ArrayOracle`.
        """
        import dask.array as da

        X = da.asarray(X).rechunk((block_rows, -1))
        y = da.asarray(y).rechunk((block_rows,))
        cols = X.shape[1] + (1 if intercept else 0)
        ZT = da.map_blocks(lambda xb, yb: signed_columns(xb, yb[:, 0], intercept).T, X, y[:, None],
                           dtype=np.float32, chunks=(X.chunks[0], (cols,))).T
        return cls(ZT.rechunk(((cols,), X.chunks[0])), None if weights is None else da.asarray(weights), loss)

    def _pass(self, lam: np.ndarray, spread: np.ndarray | None = None,
              curvature: bool = False) -> tuple[float, np.ndarray, np.ndarray | None]:
        lam = np.asarray(lam, dtype=np.float64)
        if self._futures is not None:  # on the client that holds the blocks: one task per block
            client, blocks, wblocks = self._futures
            parts = client.gather([client.submit(_blocked_sums, self.loss, b, w, lam, spread, curvature, pure=False)
                                   for b, w in zip(blocks, wblocks)])
        else:
            task = self._dask.delayed(_blocked_sums)
            wblocks = self._wblocks or [None] * len(self._blocks)
            parts = self._compute(*[task(self.loss, b, w, lam, spread, curvature)
                                    for b, w in zip(self._blocks, wblocks)])
        total, grad, matrix = _add(list(parts))
        W = self.normalizer
        return total / W, grad / W, None if matrix is None else matrix / W

    def subsample(self, rows: int, seed: int = 0) -> "DaskOracle | ArrayOracle":
        """The rows :meth:`ArrayOracle.subsample` draws, fetched into memory (only those reach the client).

        Used for the cheap first Newton steps (``curvature.relax``), as in memory.
        """
        if rows >= self.n_rows:
            return self
        pick = np.unique(np.random.default_rng(seed).integers(0, self.n_rows, size=rows))
        dtype = work_dtype(self.loss, self.ZT.dtype)
        if self.weights is None:
            (ZT,), w, weight = self._compute(self.ZT[:, pick]), None, float(self.n_rows)
        else:  # weights as ArrayOracle stores them (the work dtype)
            stored = self.weights.astype(dtype)
            ZT, w, weight = self._compute(self.ZT[:, pick], stored[pick], stored.sum(dtype=np.float64))
        total = float(pick.size if w is None else np.sum(w, dtype=np.float64))
        return ArrayOracle(np.ascontiguousarray(ZT), w, self.loss, self.normalizer * total / float(weight))


def _block_futures(ZT, weights):
    """``(client, block futures, weight-block futures or Nones)`` of collections persisted on a
    distributed cluster, in block order; None when they are not (dask's local scheduler)."""
    try:
        from distributed import futures_of
    except ImportError:
        return None
    blocks = []
    for collection in (ZT, weights):
        if collection is None:
            blocks.append([None] * len(blocks[0]))
            continue
        held = {f.key: f for f in futures_of(collection)}
        keys = list(_flat_keys(collection.__dask_keys__()))
        if not keys or any(k not in held for k in keys):
            return None
        blocks.append([held[k] for k in keys])
    return blocks[0][0].client, blocks[0], blocks[1]


def _flat_keys(keys):
    """The keys of a dask collection's nested key lists, in block order."""
    for k in keys:
        if isinstance(k, list):
            yield from _flat_keys(k)
        else:
            yield k


def _wait(*collections) -> None:
    """Block until persisted collections are in worker memory (a no-op without a distributed client)."""
    try:
        from distributed import futures_of, wait
    except ImportError:
        return
    futures = [f for c in collections if c is not None for f in futures_of(c)]
    if futures:
        wait(futures)
        for future in futures:
            if future.status == "error":
                future.result()  # raises the worker's error here, where the oracle is built


def _blocked_sums(loss: str, ZT: np.ndarray, w: np.ndarray | None, lam: np.ndarray,
                  spread: np.ndarray | None, curvature: bool) -> tuple[float, np.ndarray, np.ndarray | None]:
    """:func:`block_sums` over a large block in ``BLOCK_ROWS`` pieces (runs on a dask worker)."""
    work = _Workspace(BLOCK_ROWS, work_dtype(loss, ZT.dtype))
    ZT = np.asarray(ZT)
    return _add([block_sums(loss, ZT[:, b:b + BLOCK_ROWS],
                            None if w is None else np.asarray(w[b:b + BLOCK_ROWS], dtype=work.m.dtype),
                            lam, work, spread, curvature)
                 for b in range(0, ZT.shape[1], BLOCK_ROWS)])
