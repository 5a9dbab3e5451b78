"""The loss oracles: right values and gradients, the same answer however the rows are held."""
from __future__ import annotations

import numpy as np
import pytest
from scorecard.trainer.convex.losses import (
    LOSSES,
    ArrayOracle,
    DaskOracle,
    ParquetOracle,
    ParquetSource,
    signed_columns,
)


def gaussian(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The paper's simulated data (Section 4.1): 5-dim Gaussians with means 2 and 0."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1, -1)
    X = rng.standard_normal((n, 5)) + np.where(y > 0, 2.0, 0.0)[:, None]
    return X, y


POINTS = [np.array([-10.0, 2, 2, 2, 2, 2]), np.array([-3.0, 1, 0, -1, 2, 0.5]), np.zeros(6)]


def pointwise(loss: str, margins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Reference float64 loss ``l(m)`` and slope ``l'(m)`` of each margin, written plainly
    to check the oracles' fused in-place kernels against."""
    m = np.asarray(margins, dtype=np.float64)
    if loss == "logistic":
        return np.logaddexp(0.0, -m), -0.5 * (1.0 - np.tanh(0.5 * m))
    if loss == "hinge":
        return np.maximum(0.0, 1.0 - m), -(m < 1.0).astype(np.float64)
    if loss == "exponential":
        e = np.exp(-m)
        return e, -e
    assert loss == "quadratic"
    return (1.0 - m) ** 2, -2.0 * (1.0 - m)


def reference(loss: str, X: np.ndarray, y: np.ndarray, lam: np.ndarray, w: np.ndarray | None = None):
    Z = signed_columns(X, y, True, np.float64).T
    w = np.ones(len(y)) if w is None else w
    value, slope = pointwise(loss, Z @ lam)
    return float(value @ w / w.sum()), (slope * w) @ Z / w.sum()


@pytest.mark.parametrize("loss", LOSSES)
def test_gradient_matches_finite_differences(loss):
    X, y = gaussian(2000)
    w = np.random.default_rng(1).uniform(0.5, 2.0, len(y))
    oracle = ArrayOracle.from_xy(X, y, w, loss=loss, dtype=np.float64)
    lam = np.array([-1.0, 0.3, -0.2, 0.5, 0.1, 0.7])  # away from the hinge's kinks in practice
    value, grad = oracle(lam)
    h = 1e-6
    numeric = [(oracle(lam + h * e)[0] - oracle(lam - h * e)[0]) / (2 * h) for e in np.eye(6)]
    assert np.allclose(grad, numeric, rtol=1e-4, atol=1e-6)
    assert value == pytest.approx(reference(loss, X, y, lam, w)[0], rel=1e-12)


@pytest.mark.parametrize("loss", LOSSES)
def test_float32_storage_agrees_with_float64(loss):
    X, y = gaussian(50_000)
    oracle = ArrayOracle.from_xy(X.astype(np.float32), y, loss=loss)
    for lam in POINTS:
        value, grad = oracle(lam)
        ref_value, ref_grad = reference(loss, X.astype(np.float32), y, lam)
        assert value == pytest.approx(ref_value, rel=1e-6, abs=1e-9)
        assert np.allclose(grad, ref_grad, rtol=1e-5, atol=1e-7)


def test_merging_identical_rows_changes_nothing_but_the_size():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 3, size=(30_000, 4)).astype(float)
    y = np.where(X[:, 0] - X[:, 1] + rng.normal(0, 1, len(X)) > 0, 1, -1)
    merged = ArrayOracle.from_xy(X, y, merge=True)
    plain = ArrayOracle.from_xy(X, y, merge=False)
    assert merged.n_rows <= 3 ** 4 * 2 < plain.n_rows
    for lam in (np.array([0.5, 1, -1, 0, 2]), np.zeros(5)):
        assert merged(lam)[0] == pytest.approx(plain(lam)[0], rel=1e-6)
        assert np.allclose(merged(lam)[1], plain(lam)[1], rtol=1e-5, atol=1e-8)


def test_threads_give_the_same_answer():
    X, y = gaussian(300_000)
    one, two = ArrayOracle.from_xy(X, y, threads=1), ArrayOracle.from_xy(X, y, threads=2)
    for lam in POINTS:
        assert one(lam)[0] == pytest.approx(two(lam)[0], rel=1e-12)
        assert np.allclose(one(lam)[1], two(lam)[1], rtol=1e-10)


def test_parquet_stream_equals_in_memory(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    X, y = gaussian(150_000)
    X = X.astype(np.float32)
    table = pa.table({**{f"x{j}": X[:, j] for j in range(5)}, "label": (y > 0).astype(np.int8)})
    path = tmp_path / "rows.parquet"
    pq.write_table(table, path, row_group_size=40_000)
    streamed = ParquetOracle(ParquetSource(str(path), tuple(f"x{j}" for j in range(5)), "label", 1),
                             batch_rows=30_000)
    memory = ArrayOracle.from_xy(X, y)
    for lam in POINTS:
        assert streamed(lam)[0] == pytest.approx(memory(lam)[0], rel=1e-9)
        assert np.allclose(streamed(lam)[1], memory(lam)[1], rtol=1e-6, atol=1e-9)
        assert np.allclose(streamed.curvature(lam)[2], memory.curvature(lam)[2], rtol=1e-6)


def test_dask_equals_in_memory():
    pytest.importorskip("dask.array")
    X, y = gaussian(120_000)
    X = X.astype(np.float32)
    distributed = DaskOracle.from_xy(X, y, block_rows=50_000)
    memory = ArrayOracle.from_xy(X, y)
    for lam in POINTS:
        assert distributed(lam)[0] == pytest.approx(memory(lam)[0], rel=1e-9)
        assert np.allclose(distributed(lam)[1], memory(lam)[1], rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("loss", ["logistic", "exponential", "quadratic"])
def test_curvature_floor_gives_a_lower_bound_on_the_ellipsoid(loss):
    X, y = gaussian(5000)
    oracle = ArrayOracle.from_xy(X, y, loss=loss, dtype=np.float64)
    o = np.array([-4.0, 1, 1, 0.5, 1, 0.8]) * (0.1 if loss == "exponential" else 1)
    value, grad, H = oracle.curvature(o)
    kappa = 0.05
    inv_chol = np.linalg.inv(np.linalg.cholesky(H))
    _, _, F = oracle.curvature(o, np.sqrt(kappa) * inv_chol.T)
    assert np.all(np.linalg.eigvalsh(H - F) >= -1e-12)  # the floor never exceeds the Hessian
    rng = np.random.default_rng(3)
    for _ in range(50):
        u = rng.standard_normal(6)
        d = np.sqrt(kappa) * (inv_chol.T @ u) / np.linalg.norm(u) * rng.uniform(0, 1)
        assert oracle(o + d)[0] >= value + grad @ d + 0.5 * d @ F @ d - 1e-12
