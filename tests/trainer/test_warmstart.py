"""The warm start: a good, feasible model in well under a second, reported at once."""
from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest
from scorecard.trainer.data.families import design_for
from scorecard.trainer.data.prepare import prepare
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.problem.constrained import constrained_problem
from scorecard.trainer.search.warm_start import warm_start
from scorecard.trainer.solvers import auto
from scorecard.trainer.solvers.options import Deadline, SolveOptions
from slimdata import tiny
from testdata import SHARED, shared_datasets


def shared_problem(name: str, **options):
    frame = pd.read_csv(SHARED / f"{name}.csv")
    data = prepare(frame, frame.columns[0], 1)
    config = TrainConfig(**{"c0": 0.01, **options})  # a problem has a numeric C0
    return constrained_problem(design_for(data, config), data, config)


def test_warm_start_obeys_the_box_signs_and_feature_limit():
    data = prepare(tiny(seed=2, n=60, p=3), "y")
    config = TrainConfig(c0=0.001, coef_min=-3, coef_max=3, signs={"f1": "+"}, max_features=2)
    problem = constrained_problem(design_for(data, config), data, config)
    found = warm_start(problem, seconds=0.2)
    assert np.count_nonzero(found.coef) <= 2
    assert np.all(found.coef >= problem.coef_lo) and np.all(found.coef <= problem.coef_hi)
    assert found.coef[1] >= 0
    assert problem.intercept_lo <= found.intercept <= problem.intercept_hi
    assert found.objective == pytest.approx(problem.objective(found.coef, found.intercept))


def test_warm_start_finds_the_papers_breastcancer_scorecard():
    # Paper Fig. 1 (C0 = 0.025): 2 x UniformityOfCellSize + 1 x BareNuclei > 8, proven optimal.
    problem = shared_problem("breastcancer", c0=0.025)
    found = warm_start(problem, seconds=1.0)
    assert found.coef.tolist() == [0, 2, 0, 0, 0, 1, 0, 0, 0]
    assert found.intercept == -8


def first_model_seconds(name: str) -> tuple[float, float]:
    """Seconds from the start of ``--solver auto`` to its first progress event, and the
    objective that event reports (the solve is stopped right after it)."""
    problem = shared_problem(name)
    seen: list[tuple[float, float]] = []

    def stop_at_first(event) -> None:
        seen.append((event.elapsed, event.incumbent))
        raise KeyboardInterrupt  # the user presses Ctrl-C as soon as a model shows up

    start = time.monotonic()
    out = auto.solve(problem, SolveOptions(deadline=Deadline.after(60)), progress=stop_at_first)
    assert time.monotonic() - start < 5
    assert out.status in ("interrupted", "optimal")
    assert out.incumbent.objective == pytest.approx(seen[0][1])
    return seen[0]


def test_first_model_within_a_second_on_mushroom():
    elapsed, objective = first_model_seconds("mushroom")
    assert elapsed < 1.0
    assert objective < 0.5


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in shared_datasets() if p.stem != "mushroom_raw"], ids=lambda p: p.stem)
def test_first_model_within_a_second_on_every_shared_dataset(path):
    """Every dataset of the paper (mushroom_raw is mushroom with missing cells, refused by default)."""
    elapsed, objective = first_model_seconds(path.stem)
    assert elapsed < 1.0
    assert np.isfinite(objective)
