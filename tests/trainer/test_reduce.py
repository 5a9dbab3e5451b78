"""Data reduction (Algorithm 2) never changes the optimum: compared with a direct solve."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorecard.trainer.config import TrainConfig
from scorecard.trainer.data import prepare
from scorecard.trainer.fit import fit_problem, train
from scorecard.trainer.formulation import local_search
from scorecard.trainer.reduce import fit_reduced, reduce_problem
from scorecard.trainer.resolve import constrained_problem, design_for

from testdata import SHARED

CASES = [  # dataset, target, rows used, C0 (small subsets keep the default run quick)
    ("bankruptcy", "NotBankrupt", 250, 0.01),
    ("breastcancer", "Benign", 40, 0.025),
    pytest.param("breastcancer", "Benign", 200, 0.025, marks=pytest.mark.slow),
    ("haberman", "AliveAfter5Yrs", 50, 0.02),
    ("mammo", "Malignant", 150, 0.02),
]


def problem_of(name: str, target: str, rows: int, c0: float):
    path = SHARED / f"{name}.csv"
    data = prepare(pd.read_csv(path).head(rows), target)
    config = TrainConfig(c0=c0, coef_min=-5, coef_max=5, intercept_min=-30, intercept_max=30, time_limit=60)
    return constrained_problem(design_for(data, config), data, config), config, data


@pytest.mark.parametrize("name,target,rows,c0", CASES)
def test_reduced_training_reaches_the_direct_optimum(name, target, rows, c0):
    problem, config, _ = problem_of(name, target, rows, c0)
    coef, intercept, direct = fit_problem(problem, config)
    coef_r, intercept_r, reduced, info = fit_reduced(problem, config)
    assert direct.status == reduced.status == "optimal"
    assert problem.objective(coef_r, intercept_r) == pytest.approx(problem.objective(coef, intercept), abs=1e-12)
    assert reduced.bound <= problem.objective(coef_r, intercept_r) + 1e-9
    assert info.get("rows_removed", 0) >= 0


def test_a_too_narrow_level_set_is_caught_and_the_optimum_kept():
    problem, config, _ = problem_of("bankruptcy", "NotBankrupt", 250, 0.01)
    start = local_search(problem, 2.0)
    narrow = reduce_problem(problem, start.coef, start.intercept, width=0.0)
    assert narrow.removed_rows > 100  # eps = 0 removes nearly everything: unsafe on its own
    coef, intercept, _ = fit_problem(problem, config)
    coef_r, intercept_r, _, info = fit_reduced(problem, config, width=0.0)
    assert problem.objective(coef_r, intercept_r) == pytest.approx(problem.objective(coef, intercept), abs=1e-12)
    assert info.get("rows_removed", 0) < narrow.removed_rows  # the rows it got wrong came back


def test_train_reports_the_rows_it_removed():
    rng = np.random.default_rng(4)
    frame = pd.DataFrame(rng.integers(0, 3, size=(300, 3)), columns=["a", "b", "c"])
    frame["y"] = (2 * frame.a - frame.b + rng.normal(0, 0.5, 300) > 1).astype(int)
    data = prepare(frame, "y")
    config = TrainConfig(c0=0.01, coef_min=-3, coef_max=3, intercept_min=-10, intercept_max=10, time_limit=30)
    plain, reduced = train(data, config), train(data, config.with_options(reduce=True))
    assert reduced.training.objective == pytest.approx(plain.training.objective, abs=1e-12)
    assert "rows_removed" in reduced.training.params["reduction"]
