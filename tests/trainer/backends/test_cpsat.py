"""CP-SAT on real-valued data: decimals scaled to integers, up to two arbitrary real columns
through per-row threshold tables, and the same optimum as brute force and the MIP.

Brute force scores every integer model with ``SlimProblem.objective``, the runtime's float
rule (score > 0), so these tests check that the encoding agrees with the floats a user's
scorecard computes, including rows whose score is a rounding error away from 0.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scorecard.trainer.solvers import auto, cpsat
from scorecard.trainer.solvers.options import Deadline, SolveOptions
from scorecard.trainer.solvers.fit import fit_problem
from slimdata import brute_force, problem_of
from testdata import SHARED

pytestmark = pytest.mark.skipif(not cpsat.available(), reason="OR-Tools is not installed")

SMALL = dict(coef_min=-3, coef_max=3, intercept_min=-4, intercept_max=4, numeric="linear")  # real-valued linear columns


def models(problem):
    """Every (coef, intercept) of the box."""
    ranges = [range(int(lo), int(hi) + 1) for lo, hi in zip(problem.coef_lo, problem.coef_hi)]
    for coef in itertools.product(*ranges):
        for b in range(problem.intercept_lo, problem.intercept_hi + 1):
            yield np.array(coef), b


# Reals whose float products and sums land a rounding error from an integer: 0.7 + 0.3 - 1
# is -5.6e-17 in floats, 9 * 0.0444444444444444 is 0.39999999999999997.
DECIMALS = (0.1, 0.2, 0.3, 0.7, 1.5, -0.4, 0.0)
REALS = (0.3, 0.1, 0.7, 0.3333333333333333, 0.2222222222222222, 0.0444444444444444, 0.1428571428571428, -0.6)


def near_zero(seed: int = 2, n: int = 40, reals: int = 1) -> pd.DataFrame:
    """A one-decimal column, ``reals`` real columns (thirds, ninths, sevenths written as
    truncated floats, with some decimals) and a binary column: many models put some row's
    float score within 1e-15 of 0, on either side."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"d": rng.choice(DECIMALS, n), "b": rng.integers(0, 2, n).astype(float)})
    for r in range(reals):
        frame[f"r{r}"] = rng.choice(REALS, n)
    noise = rng.normal(0, 0.4, n)
    frame["y"] = ((frame.d + frame.b - 0.5 + 2 * frame.r0 + noise) > 0).astype(int)
    return frame


def test_decimal_and_real_columns_are_encoded_not_refused():
    problem, _ = problem_of(near_zero(), c0=0.02, **SMALL)
    encoding = cpsat.encode(problem)
    assert encoding is not None
    assert [problem.X[:, j].tolist() != np.round(problem.X[:, j]).tolist() for j in encoding.real] == [True]


@pytest.mark.parametrize("reals", [1, 2])
def test_thresholds_agree_with_the_float_score_even_next_to_zero(reals):
    # For every model of the box and every row: S >= high means the float score is > 0,
    # S < low means it is <= 0; the two differ only on rows rounding could tip.
    problem, _ = problem_of(near_zero(n=25, reals=reals), c0=0.02, coef_min=-2, coef_max=2,
                            intercept_min=-2, intercept_max=2)
    encoding = cpsat.encode(problem)
    tiny_scores = 0
    for coef, b in models(problem):
        floats = problem.scores(coef, b)
        tiny_scores += int(np.sum((np.abs(floats) < 1e-12) & (floats != 0)))
        entry = 0
        for j, values in zip(encoding.real, encoding.ranges):
            entry = entry * len(values) + int(coef[j]) - values.start
        scaled = np.array(encoding.multiplier, dtype=np.int64) * b + encoding.scaled @ coef
        low = np.array([table[entry] for table in encoding.low])
        high = np.array([table[entry] for table in encoding.high])
        assert np.all(floats[scaled >= high] > 0)
        assert np.all(floats[scaled < low] <= 0)
    assert tiny_scores > 0  # the data does reach scores a rounding error from 0


@pytest.mark.parametrize("reals, c0", [(1, 0.02), (1, 0.06), (2, 0.03)])
def test_cpsat_proves_the_brute_force_optimum_on_real_valued_data(reals, c0):
    problem, _ = problem_of(near_zero(seed=reals + 4, n=30, reals=reals), c0=c0, coef_min=-2, coef_max=2,
                            intercept_min=-3, intercept_max=3)
    result = cpsat.solve(problem, None, SolveOptions(deadline=Deadline.after(120), threads=2))
    assert result.status == "optimal"
    assert result.incumbent.objective == pytest.approx(brute_force(problem), abs=1e-12)
    assert 0 <= result.incumbent.objective - result.lower_bound <= 1e-3 * result.incumbent.objective


def test_more_real_columns_than_the_tables_allow_are_refused():
    problem, _ = problem_of(near_zero(reals=3), c0=0.02, **SMALL)
    assert cpsat.encode(problem) is None
    assert cpsat.solve(problem, None, SolveOptions(deadline=Deadline.after(5))) is None


def test_data_where_a_zero_score_leaves_most_rows_free_are_refused():
    """Rows with several fractional decimals may round either way at a score of exactly 0, so
    their prediction is left free there; when most rows are like that, the all-zero model
    would make the bound worthless (spambase), and the data go to the big-M IP instead."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({c: rng.choice((0.1, 0.2, 0.3, 0.7), 40) for c in ("a", "b", "c")})
    frame["y"] = rng.integers(0, 2, 40)
    problem, _ = problem_of(frame, c0=0.02, **SMALL)
    assert cpsat.encode(problem) is None
    one_decimal, _ = problem_of(frame.drop(columns=["b", "c"]), c0=0.02, **SMALL)
    assert cpsat.encode(one_decimal) is not None


@pytest.mark.skipif(not (SHARED / "heart.csv").exists(), reason="heart.csv is not available")
def test_cpsat_cbc_and_auto_prove_the_same_optimum_on_a_heart_sample():
    # heart's ExerciseSTDepression (one decimal) and MaxExerciseHRTargetRatio (arbitrary
    # reals) with two binary columns, on 40 rows: small enough for CBC to prove it too.
    heart = pd.read_csv(SHARED / "heart.csv").sample(40, random_state=1)
    frame = heart[["ExerciseSTDepression", "MaxExerciseHRTargetRatio", "ExerciseAngina", "Male"]].copy()
    frame["y"] = heart["Disease"].to_numpy()
    problem, config = problem_of(frame, c0=0.01, coef_min=-3, coef_max=3, intercept_min=-6, intercept_max=6)
    result = cpsat.solve(problem, None, SolveOptions(deadline=Deadline.after(120)))
    coef, intercept, mip = fit_problem(problem, SolveOptions.of(config.with_options(solver="cbc", time_limit=120,
                                                                                     work_limit=50)))
    out = auto.solve(problem, SolveOptions(deadline=Deadline.after(120)))
    assert (result.status, mip.status, out.status) == ("optimal", "optimal", "optimal")
    assert result.incumbent.objective == pytest.approx(problem.objective(coef, intercept), abs=1e-12)
    assert out.incumbent.objective == pytest.approx(result.incumbent.objective, abs=1e-12)


@pytest.mark.parametrize("reals, c0", [(1, 0.02), (2, 0.03)])
def test_auto_splitting_by_model_size_keeps_the_optimum(monkeypatch, reals, c0):
    # Without the whole-problem exhaustive search, auto proves the small models by
    # exhaustion and hands CP-SAT the larger ones only: the optimum must not change.
    monkeypatch.setattr(auto, "QUICK_WORK", 0)
    monkeypatch.setattr(auto, "FULL_WORK", 0)
    problem, _ = problem_of(near_zero(seed=reals + 4, n=30, reals=reals), c0=c0, coef_min=-2, coef_max=2,
                            intercept_min=-3, intercept_max=3)
    bounds = []
    out = auto.solve(problem, SolveOptions(deadline=Deadline.after(120)), progress=lambda event: bounds.append(event.bound))
    assert (out.status, out.backend) == ("optimal", "cpsat")
    assert out.incumbent.objective == pytest.approx(brute_force(problem), abs=1e-12)
    assert max(bounds) > 0  # the size-limited searches raised the bound before CP-SAT ran
