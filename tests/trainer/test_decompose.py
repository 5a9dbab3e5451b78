"""Cutting planes (Algorithm 1) and the curvature certificate find the true integer optimum."""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scorecard.runtime import score
from scorecard.runtime.risk import risk
from scorecard.trainer.convex.cutting_planes import cutting_planes
from scorecard.trainer.convex.lattice import CoefficientSpace
from scorecard.trainer.convex.losses import (
    LOSSES,
    ArrayOracle,
    signed_columns,
)
from scorecard.trainer.data.prepare import prepare
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.train import train
from test_losses import gaussian, pointwise


def brute_force(X, y, loss, space: CoefficientSpace) -> float:
    """The optimum by trying every lattice point (float64 throughout)."""
    Z = signed_columns(X, y, True, np.float64).T
    axes = [space.allowed(j) or range(int(space.lower[j]), int(space.upper[j]) + 1) for j in range(space.size)]
    best = np.inf
    for point in itertools.product(*axes):
        lam = np.array(point, dtype=np.float64)
        if space.feasible(lam):
            best = min(best, pointwise(loss, Z @ lam)[0].mean() + space.penalty(lam))
    return best


def small_problem(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(300, 3)).astype(float)
    y = np.where(X[:, 0] - 0.5 * X[:, 1] + rng.normal(0, 1.2, 300) > 0.3, 1, -1)
    return X, y


SPACES = {
    "box": CoefficientSpace(lower=(-4, -3, -3, -3), upper=(4, 3, 3, 3), c0=(0, 0.01, 0.01, 0.01), epsilon=1e-4),
    "one feature": CoefficientSpace(lower=(-4, -3, -3, -3), upper=(4, 3, 3, 3), c0=(0, 0.002, 0.002, 0.002),
                                    max_features=1),
    "value sets": CoefficientSpace(lower=(-4, -3, -3, -3), upper=(4, 3, 3, 3), c0=(0, 0.005, 0.005, 0.005),
                                   values=(None, (-3, 0, 1, 3), (-2, 0, 2), None)),
}


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("name", sorted(SPACES))
def test_same_optimum_as_trying_every_model(loss, name):
    space = SPACES[name]
    X, y = small_problem(seed=len(name))
    expected = brute_force(X, y, loss, space)
    oracle = ArrayOracle.from_xy(X, y, loss=loss, dtype=np.float64)
    for certificate in (True, False):
        result = cutting_planes(oracle, space, certificate=certificate, time_limit=120)
        assert result.status == "optimal"
        assert result.objective == pytest.approx(expected, abs=1e-9)
        assert space.feasible(result.coefficients)
        assert result.lower_bound <= result.objective + 1e-12 and result.gap <= 1e-6


def test_paper_simulation_reaches_the_known_optimum_with_a_proof():
    X, y = gaussian(200_000)
    N = len(y)
    oracle = ArrayOracle.from_xy(X.astype(np.float32), y)
    space = CoefficientSpace(lower=(-10,) * 6, upper=(10,) * 6, c0=(0,) + (0.9 / N,) * 5)
    rounds = []
    result = cutting_planes(oracle, space, progress=rounds.append)
    assert result.coefficients.tolist() == [-10, 2, 2, 2, 2, 2]
    assert result.status == "optimal" and result.gap <= 0.09 / N
    assert rounds and rounds[-1].upper_bound == result.objective


@pytest.mark.slow
def test_ten_million_rows_need_a_handful_of_passes():
    X, y = gaussian(10_000_000)
    oracle = ArrayOracle.from_xy(X.astype(np.float32), y)
    space = CoefficientSpace(lower=(-10,) * 6, upper=(10,) * 6, c0=(0,) + (0.9 / len(y),) * 5)
    result = cutting_planes(oracle, space)
    assert result.coefficients.tolist() == [-10, 2, 2, 2, 2, 2]
    assert result.status == "optimal" and result.proof == "curvature" and result.passes <= 10


def test_train_with_logistic_loss_gives_a_model_with_probabilities():
    rng = np.random.default_rng(5)
    frame = pd.DataFrame(rng.integers(0, 4, size=(400, 3)), columns=["a", "b", "c"])
    frame["y"] = (frame.a - frame.b + rng.normal(0, 1, 400) > 0.5).astype(int)
    data = prepare(frame, "y")
    model = train(data, TrainConfig(loss="logistic", c0=0.001, coef_min=-3, coef_max=3,
                                    intercept_min=-10, intercept_max=10, time_limit=120, work_limit=10))
    assert model.training.status == "optimal" and model.training.gap <= 1e-6
    assert model.probability == {"method": "logistic", "scale": 1.0, "center": model.threshold}
    row = {"a": 3, "b": 0, "c": 1}
    s = score(model, row)  # the points total: minus the threshold, the log-odds the loss fitted
    assert risk(model, s) == pytest.approx(1 / (1 + np.exp(-(s - model.threshold))))
    assert model.training.params["cutting_planes"]["cuts"] >= 1


def test_hinge_models_carry_a_monotone_risk_table():
    rng = np.random.default_rng(6)
    frame = pd.DataFrame(rng.integers(0, 4, size=(300, 2)), columns=["a", "b"])
    frame["y"] = (frame.a - frame.b + rng.normal(0, 1, 300) > 0).astype(int)
    model = train(prepare(frame, "y"), TrainConfig(loss="hinge", c0=0.001, coef_min=-3, coef_max=3,
                                                   intercept_min=-10, intercept_max=10, time_limit=120))
    risks = [row["risk"] for row in model.probability["table"]]
    assert model.probability["method"] == "table" and risks == sorted(risks)
