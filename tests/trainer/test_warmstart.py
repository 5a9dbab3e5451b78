"""The warm start: a good, feasible model in well under a second, reported at once."""
from __future__ import annotations

import itertools
import time

import numpy as np
import pandas as pd
import pytest
from scorecard.trainer.data.families import design_for
from scorecard.trainer.data.prepare import prepare
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.problem.constrained import constrained_problem
from scorecard.trainer.search.sweep import Sweeper
from scorecard.trainer.search.warm_start import warm_start
from scorecard.trainer.solvers import auto
from scorecard.trainer.solvers.options import Deadline, SolveOptions
from slimdata import problem_of, tiny
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
    # The local search stops at its local optimum (about 0.8 s here); 120 s only caps it, so a
    # busy machine gets the same model, later.
    problem = shared_problem("breastcancer", c0=0.025)
    found = warm_start(problem, seconds=120)
    assert found.coef.tolist() == [0, 2, 0, 0, 0, 1, 0, 0, 0]
    assert found.intercept == -8


def brute_force(problem) -> float:
    """The optimum by trying every coefficient vector of the box (each with its best intercept)."""
    grid = np.array(list(itertools.product(*[range(int(lo), int(hi) + 1)
                                             for lo, hi in zip(problem.coef_lo, problem.coef_hi)])), dtype=float)
    loss, _ = Sweeper(problem).best_intercepts(grid)
    return float((loss + problem.penalty(grid)).min())


SMALL_BOX = dict(coef_min=-3, coef_max=3, intercept_min=-15, intercept_max=15)


@pytest.mark.parametrize("p", [3, 4])
@pytest.mark.parametrize("seed", range(10))
def test_warm_start_finds_the_optimum_of_small_problems(seed, p):
    # A heuristic: it misses on a few problems of this family (seed 10, p = 3: 0.1692 vs 0.1594),
    # never on these twenty; its objective is always that of the integers it returns.
    problem, _ = problem_of(tiny(seed=seed, n=80, p=p), c0=0.01, **SMALL_BOX)
    found = warm_start(problem, seconds=0.0)
    assert found.objective == pytest.approx(problem.objective(found.coef, found.intercept), abs=1e-12)
    assert found.objective == pytest.approx(brute_force(problem), abs=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_warm_start_is_never_worse_than_the_rounding_alone(seed):
    # work=0 is the previous warm start's first step (rounded class-mean direction).
    problem, _ = problem_of(tiny(seed=seed, n=120, p=6), c0=0.005, **SMALL_BOX)
    rounded = warm_start(problem, seconds=0.0, work=0)
    found = warm_start(problem, seconds=0.0)
    assert found.objective <= rounded.objective + 1e-12
    assert found.objective == pytest.approx(problem.objective(found.coef, found.intercept), abs=1e-12)


def test_warm_start_is_deterministic_given_its_work():
    problem = shared_problem("mammo", c0=0.001)
    first, second = (warm_start(problem, seconds=0.0, work=5e6) for _ in range(2))
    assert first.coef.tolist() == second.coef.tolist() and first.intercept == second.intercept
    assert first.objective == second.objective


def test_warm_start_obeys_min_features_and_max_features():
    problem, _ = problem_of(tiny(seed=4, n=100, p=5), c0=0.02, min_features=3, **SMALL_BOX)
    found = warm_start(problem, seconds=0.0)
    assert np.count_nonzero(found.coef) >= 3
    assert found.objective == pytest.approx(problem.objective(found.coef, found.intercept), abs=1e-12)
    capped = warm_start(problem, seconds=0.0, max_features=3)
    assert np.count_nonzero(capped.coef) == 3


def test_warm_start_obeys_sign_boxes_on_a_shared_dataset():
    problem = shared_problem("breastcancer", c0=0.001, signs={"ClumpThickness": "-", "BareNuclei": "-"})
    found = warm_start(problem, seconds=0.0)
    assert np.all(found.coef >= problem.coef_lo) and np.all(found.coef <= problem.coef_hi)
    assert np.all(found.coef[problem.coef_hi == 0] <= 0)
    assert found.objective == pytest.approx(problem.objective(found.coef, found.intercept), abs=1e-12)


@pytest.mark.parametrize("margin", [None, 1e-4])
def test_one_column_scores_as_the_full_sweep(margin):
    problem = shared_problem("heart", c0=0.01)
    sweeper = Sweeper(problem, margin=margin)
    rng = np.random.default_rng(0)
    coef = (rng.integers(-3, 4, problem.n_columns) * (rng.random(problem.n_columns) < 0.3)).astype(float)
    values = np.arange(-10, 11, dtype=float)
    for j in (0, 5, 7):
        coefs = np.repeat(coef[None, :], len(values), axis=0)
        coefs[:, j] = values
        full, _ = sweeper.best_intercepts(coefs)
        quick, _ = sweeper.one_column(coef, j, values)
        assert np.allclose(full, quick)


def test_one_column_of_a_column_without_non_zero_rows():
    problem, _ = problem_of(tiny(seed=1, n=60, p=3).assign(f2=0), c0=0.01)
    sweeper = Sweeper(problem)
    values = np.arange(-3, 4, dtype=float)
    coefs = np.zeros((len(values), 3))
    coefs[:, 2] = values
    assert np.allclose(sweeper.one_column(np.zeros(3), 2, values)[0], sweeper.best_intercepts(coefs)[0])


def first_model(name: str) -> tuple[float, float, str, float]:
    """Seconds from the start of ``--solver auto`` to its first progress event, the
    objective and message that event reports (the solve is stopped right after it) and the
    seconds until the solve returned."""
    problem = shared_problem(name)
    seen: list[tuple[float, float, str]] = []

    def stop_at_first(event) -> None:
        seen.append((event.elapsed, event.incumbent, event.message))
        raise KeyboardInterrupt  # the user presses Ctrl-C as soon as a model shows up

    start = time.monotonic()
    out = auto.solve(problem, SolveOptions(deadline=Deadline.after(120)), progress=stop_at_first)
    returned = time.monotonic() - start
    assert out.status in ("interrupted", "optimal")
    assert out.incumbent.objective == pytest.approx(seen[0][1])
    return (*seen[0], returned)


def test_the_first_model_on_mushroom_comes_from_the_warm_start_and_ctrl_c_keeps_it():
    # What holds on any machine however busy: the first model shown is the rounding's, before
    # any search, and Ctrl-C right then returns it. How fast that is: the slow benchmarks.
    _, objective, message, _ = first_model("mushroom")
    assert message == "warm start"
    assert objective < 0.5


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in shared_datasets() if p.stem != "mushroom_raw"], ids=lambda p: p.stem)
def test_first_model_within_a_second_on_every_shared_dataset(path):
    """Every dataset of the paper (mushroom_raw is mushroom with missing cells, refused by
    default). Wall-clock claims: slow benchmarks only (a busy machine misses them)."""
    elapsed, objective, message, returned = first_model(path.stem)
    assert elapsed < 1.0 and returned < 5
    assert message == "warm start" and np.isfinite(objective)


def test_a_wide_file_gets_its_first_models_in_memory_linear_in_the_columns():
    # 5,000 binary columns x 30 rows: the rounded copies of a direction were 10 per column and
    # kept all 5,000 columns each (6 GB, then MemoryError); now they hold about 1e6 entries.
    import tracemalloc

    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(30, 5000))
    frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(5000)])
    frame.insert(0, "y", (X[:, 0] + X[:, 1] + rng.integers(0, 2, 30) >= 2).astype(int))
    data = prepare(frame, "y", 1)
    config = TrainConfig(c0=0.01)
    problem = constrained_problem(design_for(data, config), data, config)
    tracemalloc.start()
    try:
        found = warm_start(problem, seconds=0.0, work=0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 300e6, f"{peak / 1e6:.0f} MB"
    assert np.isfinite(found.objective) and found.objective <= problem.objective(np.zeros(5000, np.int64), 0)
