"""Data reduction (Algorithm 2, hinge proxy) removes rows and never changes the optimum."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scorecard.runtime.errors import ConfigError
from scorecard.trainer.data.families import design_for
from scorecard.trainer.data.prepare import prepare
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.problem.constrained import constrained_problem
from scorecard.trainer.search.warm_start import warm_start
from scorecard.trainer.solvers.fit import fit_problem
from scorecard.trainer.solvers.options import SolveOptions
from scorecard.trainer.solvers.reduce import HingeProxy, fit_reduced, reduce_problem
from scorecard.trainer.train import train
from testdata import SHARED

TARGETS = {"bankruptcy": "NotBankrupt", "breastcancer": "Benign", "haberman": "AliveAfter5Yrs", "mammo": "Malignant"}
BOX = dict(coef_min=-5, coef_max=5, intercept_min=-30, intercept_max=30)  # a smaller box keeps the solves quick

CASES = [  # dataset, rows used (None: all), options
    ("bankruptcy", None, dict(c0=0.01)),  # the paper's Figure: Lset_j = Z cap [-10, 10], C0 = 0.01
    ("haberman", None, dict(c0=0.01, **BOX)),
    ("mammo", None, dict(c0=0.01)),
    ("breastcancer", 200, dict(c0=0.025, **BOX)),
]


def problem_of(name: str, rows: int | None, **options):
    frame = pd.read_csv(SHARED / f"{name}.csv")
    data = prepare(frame if rows is None else frame.head(rows), TARGETS[name])
    config = TrainConfig(time_limit=120, work_limit=10, numeric="linear", **options)  # the paper's design; proven in about a second: a safety net
    return constrained_problem(design_for(data, config), data, config), config


@pytest.mark.parametrize("name,rows,options", CASES, ids=[c[0] for c in CASES])
def test_reduced_training_reaches_the_direct_optimum(name, rows, options):
    problem, config = problem_of(name, rows, **options)
    coef, intercept, direct = fit_problem(problem, SolveOptions.of(config))
    coef_r, intercept_r, reduced, info = fit_reduced(problem, SolveOptions.of(config))
    assert direct.status == reduced.status == "optimal"
    assert problem.objective(coef_r, intercept_r) == pytest.approx(problem.objective(coef, intercept), abs=1e-12)
    assert reduced.bound <= problem.objective(coef_r, intercept_r) + 1e-9
    assert info["rows_removed"] >= 0 and info["variants"] > 0


def test_bankruptcy_loses_most_of_its_rows_as_in_the_papers_figure():
    problem, config = problem_of("bankruptcy", None, c0=0.01)
    events = []
    coef, intercept, _, info = fit_reduced(problem, SolveOptions.of(config), progress=events.append)
    assert info["rows_removed"] >= 0.6 * len(problem.row_of)  # 206 of 250 at the paper's width
    assert info["rows_put_back"] == 0 and info["solves"] == 1
    incumbents = [e.incumbent for e in events if e.incumbent is not None]
    assert incumbents and incumbents[-1] == pytest.approx(problem.objective(coef, intercept))  # full-problem units


def test_removed_rows_have_one_label_in_the_whole_level_set():
    """Each removed row: proxy optimum and warm start give it its majority label, and forcing
    the other label pushes the proxy (solved afresh, no early stop) above the level set."""
    problem, _ = problem_of("bankruptcy", None, c0=0.01)
    start = warm_start(problem, 2.0)
    reduction = reduce_problem(problem, start.coef, start.intercept)
    removed = np.flatnonzero(~reduction.kept)
    assert len(removed) > 0
    majority = np.sign(problem.pos_w - problem.neg_w)
    assert np.all(reduction.labels[removed] == majority[removed])
    assert np.all((problem.scores(start.coef, start.intercept)[removed] > 0) == (majority[removed] > 0))
    proxy = HingeProxy(problem)
    best, _ = proxy.solve()
    assert best == pytest.approx(reduction.proxy, abs=1e-9)
    for k in removed[:: max(1, len(removed) // 10)]:
        value, _ = proxy.variant(k, int(reduction.labels[k]), np.inf)
        assert value > reduction.proxy + reduction.width


def test_a_narrower_level_set_removes_more_rows():
    problem, _ = problem_of("bankruptcy", None, c0=0.01)
    start = warm_start(problem, 2.0)
    counts = [reduce_problem(problem, start.coef, start.intercept, width).removed_rows for width in (0.0, 0.02, 0.6)]
    assert counts[0] >= counts[1] >= counts[2] and counts[0] > counts[2]


def test_stage_2_out_of_time_keeps_the_rows_it_did_not_reach():
    problem, _ = problem_of("bankruptcy", None, c0=0.01)
    start = warm_start(problem, 2.0)
    reduction = reduce_problem(problem, start.coef, start.intercept, seconds=0.0)
    assert reduction.variants == 0 and reduction.removed_rows == 0 and reduction.unchecked > 0


def test_the_check_puts_back_rows_the_reduced_optimum_mislabels():
    """eps = 0 removes nearly every row; the optimum over the few left labels removed rows
    wrongly (Theorem 4.1's conclusion fails), so the check puts them back."""
    problem, config = problem_of("bankruptcy", None, c0=0.01)
    coef, intercept, _ = fit_problem(problem, SolveOptions.of(config))
    coef_r, intercept_r, reduced, info = fit_reduced(problem, SolveOptions.of(config), width=0.0)
    assert info["rows_put_back"] > 0 and info["solves"] > 1
    assert problem.objective(coef_r, intercept_r) == pytest.approx(problem.objective(coef, intercept), abs=1e-12)
    assert reduced.status == "optimal"


def test_a_negative_width_is_refused():
    with pytest.raises(ConfigError, match="--reduce-width"):
        TrainConfig(reduce_width=-0.1)


def test_train_reports_the_rows_it_removed():
    rng = np.random.default_rng(4)
    frame = pd.DataFrame(rng.integers(0, 3, size=(300, 3)), columns=["a", "b", "c"])
    frame["y"] = (2 * frame.a - frame.b + rng.normal(0, 0.5, 300) > 1).astype(int)
    data = prepare(frame, "y")
    config = TrainConfig(c0=0.01, coef_min=-3, coef_max=3, intercept_min=-10, intercept_max=10, time_limit=120)
    plain, reduced = train(data, config), train(data, config.with_options(reduce=True))
    assert reduced.training.objective == pytest.approx(plain.training.objective, abs=1e-12)
    assert reduced.training.params["reduction"]["rows_removed"] >= 0


def test_cli_train_reduce_writes_the_reduction_into_the_model(cli, tmp_path):
    out = tmp_path / "model.json"
    run = cli("train", SHARED / "bankruptcy.csv", "--target", "NotBankrupt", "--reduce", "--time-limit", "120",
              "-o", out)
    assert run.code == 0, run.err
    reduction = json.loads(out.read_text())["training"]["params"]["reduction"]
    assert reduction["rows_removed"] > 100 and reduction["proxy"] == "hinge"
    shown = cli("show", out)
    assert "rows_removed" in shown.out
    wide = cli("train", SHARED / "bankruptcy.csv", "--target", "NotBankrupt", "--reduce", "--reduce-width", "0.1",
               "--time-limit", "120", "-o", out)
    assert wide.code == 0, wide.err
    params = json.loads(out.read_text())["training"]["params"]
    assert params["reduce_width"] == 0.1 and params["reduction"]["width"] == 0.1
    assert params["reduction"]["rows_removed"] < reduction["rows_removed"]  # a wider level set keeps more
