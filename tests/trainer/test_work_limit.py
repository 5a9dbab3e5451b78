"""``--work-limit``: every budget counted in work, so a run is the same on any machine and load.

Without a work limit the heuristics of ``--solver auto`` get shares of the time left (the local
search 10 % of it, the plan's listing 15 %), so the same command under another ``--time-limit``,
or on a busier machine, may search differently. Under a work limit they get shares of the work
instead and the clock is a safety net only."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scorecard.trainer.data.families import design_for
from scorecard.trainer.data.prepare import prepare
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.problem.constrained import constrained_problem
from scorecard.trainer.search import exhaustive
from scorecard.trainer.search.warm_start import Incumbent, warm_start
from scorecard.trainer.solvers.options import Deadline, SolveOptions
from scorecard.trainer.train import train
from testdata import EXAMPLES


def _noisy(seed: int = 3, n: int = 300, k: int = 8, digits: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, k)).round(digits)
    frame = pd.DataFrame(x, columns=[f"x{i}" for i in range(k)])
    frame["y"] = (x[:, :3] @ np.array([1.0, -0.8, 0.6]) + rng.normal(0, 1.0, n) > 0).astype(int)
    return frame


def _problem(frame: pd.DataFrame, c0: float):
    data = prepare(frame, "y")
    config = TrainConfig(c0=c0)
    return constrained_problem(design_for(data, config), data, config)


def test_a_phase_gets_a_share_of_the_work_whatever_the_time_left():
    short, long = (SolveOptions(deadline=Deadline.after(s), work_limit=2.0) for s in (10, 1000))
    assert short.phase(0.1, 5.0).work == long.phase(0.1, 5.0).work == 0.2
    assert short.phase(0.15, at_least=1.0).work == long.phase(0.15, at_least=1.0).work == 1.0
    assert long.phase(0.1).seconds > 900  # the clock is only a safety net
    small = SolveOptions(deadline=Deadline.after(1000), work_limit=0.2)
    assert small.phase(0.15, at_least=1.0).work == 0.2  # a small limit keeps every phase small
    # without a work limit: a share of the seconds left, never past the deadline
    clock = SolveOptions(deadline=Deadline.after(100)).phase(0.1, 5.0)
    assert math.isinf(clock.work) and 4.5 < clock.seconds <= 5.0


def test_a_plan_s_listing_stops_at_its_work_not_at_the_clock():
    problem = _problem(_noisy(k=5, digits=0), 0.02)  # a listing of a fraction of a second
    upper = warm_start(problem, seconds=0.0).objective
    whole = exhaustive.plan(problem, upper, conflicts=True)
    assert whole is not None and whole.supports
    step = problem.X.shape[0] + exhaustive.LISTING_OVERHEAD
    # one support looked at is not the whole listing: the budget stops it, with all the time in the world
    assert exhaustive.plan(problem, upper, conflicts=True, listing=step, seconds=math.inf) is None
    assert exhaustive.plan(problem, upper, conflicts=True, listing=1e15) == whole


def test_the_local_search_from_a_model_runs_to_its_work_and_ignores_the_seconds():
    problem = _problem(_noisy(k=5, digits=0), 0.02)
    empty = Incumbent(np.zeros(problem.n_columns, dtype=np.int64), 0, problem.objective(
        np.zeros(problem.n_columns, dtype=np.int64), 0))
    # an hour of clock would run the local search for an hour: the work budget stops it instead
    by_work = warm_start(problem, seconds=3600.0, start=empty, work=2e6)
    again = warm_start(problem, seconds=0.0, start=empty, work=2e6)
    assert by_work.objective < empty.objective
    assert np.array_equal(by_work.coef, again.coef) and by_work.intercept == again.intercept


def test_the_same_model_under_any_time_limit():
    data = prepare(_noisy(seed=5, n=250), "y")
    said: list[str] = []
    models = [train(data, TrainConfig(c0=0.004, time_limit=limit, work_limit=0.3), warn=said.append)
              for limit in (300, 900)]  # each run takes a few seconds: the clock never stops it
    assert not [m for m in said if "--work-limit" in m]  # the work limit stopped them, not the clock
    first, second = (m.training for m in models)
    assert models[0].terms == models[1].terms and models[0].intercept == models[1].intercept
    assert (first.status, first.objective, first.lower_bound) == (second.status, second.objective, second.lower_bound)
    assert first.params["work_limit"] == 0.3


def test_the_cutting_planes_of_a_convex_loss_stop_at_their_rounds_of_work():
    from scorecard.trainer.convex.train import ROUNDS_PER_WORK

    data = prepare(_noisy(seed=7, n=200, k=5), "y")
    model = train(data, TrainConfig(c0=0.001, loss="logistic", time_limit=600, work_limit=2 / ROUNDS_PER_WORK),
                  warn=lambda m: None)
    assert model.training.status == "work_limit"  # its own status: a reproducible stop, not the clock's
    assert model.training.params["cutting_planes"]["iterations"] == 2


def test_a_run_the_time_limit_stops_first_says_it_may_not_be_reproducible():
    frame = pd.read_csv(EXAMPLES / "breastcancer.csv")
    said: list[str] = []
    # a deadline already past stops the run before any work on every machine (the warm start's model)
    model = train(prepare(frame, "Benign"), TrainConfig(c0=0.002, time_limit=3, work_limit=1000),
                  deadline=Deadline.after(0.0), warn=said.append)
    assert model.training.status == "time_limit" and model.training.params["time_limit_cut"] is True
    assert [m for m in said if "--work-limit" in m] == [
        "--time-limit 3 s stopped the training before --work-limit 1000 was done: another run may give another "
        "card; raise --time-limit to make it reproducible"]
