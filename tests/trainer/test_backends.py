"""Every backend returns the same optimum: warm starts and backends change speed only.

The reference is brute force: every integer model of a tiny problem, scored with
``SlimProblem.objective`` (the runtime's rule, score > 0).
"""
from __future__ import annotations

import itertools
import os
import signal

import numpy as np
import pandas as pd
import pytest
from scorecard.trainer.data.families import design_for
from scorecard.trainer.data.prepare import prepare
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.problem.bounds import conflict_loss
from scorecard.trainer.problem.constrained import constrained_problem
from scorecard.trainer.search import exhaustive
from scorecard.trainer.search.sweep import Sweeper
from scorecard.trainer.search.warm_start import warm_start
from scorecard.trainer.solvers import auto, cpsat
from scorecard.trainer.solvers.options import Deadline, SolveOptions
from scorecard.trainer.solvers.fit import fit_problem
from scorecard.trainer.train import train
from slimdata import brute_force, problem_of, tiny
from testdata import SHARED

SMALL = dict(coef_min=-2, coef_max=2, intercept_min=-5, intercept_max=5)


def real_valued(seed: int = 5, n: int = 30) -> pd.DataFrame:
    """One-decimal and thirds-valued features (like heart's), a noisy label."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"a": rng.integers(0, 30, n) / 10, "b": rng.integers(-6, 7, n) / 3,
                          "c": rng.integers(0, 2, n).astype(float)})
    frame["y"] = ((frame.a - frame.b + frame.c - 1.2 + rng.normal(0, 0.7, n)) > 0).astype(int)
    return frame


CASES = [
    pytest.param(tiny(seed=3), dict(c0=0.05, **SMALL), id="integer"),
    pytest.param(tiny(seed=8), dict(c0=0.01, max_features=2, **SMALL), id="max-features"),
    pytest.param(tiny(seed=4), dict(c0=0.02, signs={"f1": "+"}, **SMALL), id="sign"),
    pytest.param(tiny(seed=1), dict(c0=0.05, min_features=2, **SMALL), id="min-features"),
    pytest.param(tiny(seed=1), dict(c0=0.05, max_features=0, **SMALL), id="intercept-only"),
    pytest.param(tiny(seed=1), dict(c0=0.3, **SMALL), id="c0-high"),
    pytest.param(real_valued(), dict(c0=0.02, **SMALL), id="real-valued"),
]


@pytest.mark.parametrize("frame, options", CASES)
def test_exhaustive_search_finds_the_brute_force_optimum(frame, options):
    problem, _ = problem_of(frame, **options)
    start = warm_start(problem, seconds=0.0)
    plan = exhaustive.plan(problem, start.objective)
    result = exhaustive.search(problem, start, plan)
    assert result.status == "optimal"
    assert result.incumbent.objective == pytest.approx(brute_force(problem), abs=1e-12)
    assert result.lower_bound == pytest.approx(result.incumbent.objective)


@pytest.mark.parametrize("frame, options", CASES)
def test_auto_and_the_mip_agree_with_brute_force(frame, options):
    problem, config = problem_of(frame, **options)
    expected = brute_force(problem)
    out = auto.solve(problem, SolveOptions(deadline=Deadline.after(120)))
    assert out.status == "optimal"
    assert out.incumbent.objective == pytest.approx(expected, abs=1e-12)
    if problem.gamma_exact:  # the PuLP IP is exact only with an exact margin
        coef, intercept, result = fit_problem(problem, SolveOptions.of(config.with_options(solver="cbc", time_limit=120)))
        assert result.status == "optimal"
        assert problem.objective(coef, intercept) == pytest.approx(expected, abs=1e-12)


@pytest.mark.skipif(not cpsat.available(), reason="OR-Tools is not installed")
@pytest.mark.parametrize("frame, options", CASES)
def test_cpsat_agrees_with_brute_force(frame, options):
    problem, _ = problem_of(frame, **options)
    result = cpsat.solve(problem, None, SolveOptions(deadline=Deadline.after(120), threads=1))
    assert result.status == "optimal"
    assert result.incumbent.objective == pytest.approx(brute_force(problem), abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_conflict_bound_never_exceeds_the_least_loss(seed):
    # The bound that lets exhaustive search skip supports must hold for every model.
    problem, _ = problem_of(tiny(seed=seed, n=40, p=2), c0=0.01, coef_min=-3, coef_max=3,
                            intercept_min=-8, intercept_max=8)
    rows = exhaustive._project(problem, np.arange(problem.n_columns))
    least = min(problem.loss(np.array(c), b)
                for c in itertools.product(range(-3, 4), repeat=problem.n_columns) for b in range(-8, 9))
    assert conflict_loss(rows, budget=1.0) <= least + 1e-12


def test_best_intercept_sweep_matches_trying_every_intercept():
    problem, _ = problem_of(real_valued(seed=11, n=25), c0=0.01, **SMALL)
    rng = np.random.default_rng(0)
    coefs = rng.integers(-2, 3, size=(40, problem.n_columns))
    loss, intercept = Sweeper(problem).best_intercepts(coefs)
    for c, l, b in zip(coefs, loss, intercept):
        assert problem.loss(c, int(b)) == pytest.approx(l)
        best = min(problem.loss(c, k) for k in range(problem.intercept_lo, problem.intercept_hi + 1))
        assert l == pytest.approx(best)


def test_best_intercept_sweep_with_a_margin_matches_trying_every_intercept():
    # The IP's rule (positive iff score + intercept >= gamma), which the warm start follows
    # where the problem's margin is not exact.
    problem, _ = problem_of(real_valued(seed=11, n=25), c0=0.01, **SMALL)
    gamma = 0.3
    rng = np.random.default_rng(1)
    coefs = rng.integers(-2, 3, size=(40, problem.n_columns))

    def loss(c, b):
        positive = problem.scores(c, b) >= gamma - 1e-9
        return float(problem.pos_w[~positive].sum() + problem.neg_w[positive].sum())

    found, intercept = Sweeper(problem, margin=gamma).best_intercepts(coefs)
    for c, l, b in zip(coefs, found, intercept):
        assert loss(c, int(b)) == pytest.approx(l)
        assert l == pytest.approx(min(loss(c, k) for k in range(problem.intercept_lo, problem.intercept_hi + 1)))


def test_auto_proves_the_same_optimum_as_cbc_on_bankruptcy():
    # a fixed C0: under --c0 auto the cross-validation may choose a logistic-loss card, which
    # neither backend solves (trainer/logistic_cv.py)
    data = prepare(pd.read_csv(SHARED / "bankruptcy.csv"), "NotBankrupt")
    ours = train(data, TrainConfig(solver="auto", c0=0.01, time_limit=120, work_limit=10))
    cbc = train(data, TrainConfig(solver="cbc", c0=0.01, time_limit=120, work_limit=10))
    assert ours.training.status == cbc.training.status == "optimal"
    assert ours.training.solver == "auto:enumerate"
    assert ours.training.objective == pytest.approx(cbc.training.objective, abs=1e-12)


@pytest.mark.slow  # in the full suite on a machine with two CPU hogs the press was lost twice (status
# time_limit); alone, or in the suite on a quiet machine, it passes. Open: see the closing note.
def test_ctrl_c_during_the_solve_returns_the_incumbent_as_interrupted():
    # heart at C0 = 0.01: no solver proves it within two minutes (CPLEX included), so the
    # press lands mid-search on any machine. The press comes from the first progress event
    # past the warm start (the local search's or exhaustive search's), never from a timer.
    # The paper's linear design of heart: its first progress event past the warm start comes
    # within seconds (the deadline is a safety net), so the press lands mid-search.
    data = prepare(pd.read_csv(SHARED / "heart.csv"), "Disease")
    config = TrainConfig(solver="auto", c0=0.01, numeric="linear")
    problem = constrained_problem(design_for(data, config), data, config)
    pressed: list[str] = []

    def press_ctrl_c(event) -> None:
        if event.message != "warm start" and not pressed:
            pressed.append(event.message)
            os.kill(os.getpid(), signal.SIGINT)  # as a user pressing it

    # Python's own SIGINT handler, as in a fresh `scorecard` process: a library used by an
    # earlier test in this process may have left its own C-level handler in place.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    out = auto.solve(problem, SolveOptions(deadline=Deadline.after(120)), progress=press_ctrl_c)
    assert pressed
    assert out.status == "interrupted"
    assert out.incumbent.objective == pytest.approx(problem.objective(out.incumbent.coef, out.incumbent.intercept))
    assert out.incumbent.objective < 0.25  # a searched model (about 0.18), not the empty one (0.46)
    assert out.gap is not None and out.gap > 0
