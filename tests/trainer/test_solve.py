import pytest
from scorecard.runtime.errors import ConfigError
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.solvers.progress import CbcLogWatcher, Progress
from scorecard.trainer.solvers.pulp_mip import available
from scorecard.trainer.train import train
from slimdata import breastcancer, labeled, tiny

SMALL = dict(coef_min=-3, coef_max=3, intercept_min=-10, intercept_max=10, time_limit=120, c0=0.02)
# tiny(3) is proven optimal in well under a second by every backend: 120 s is only a safety net.


@pytest.mark.parametrize("solver", ["highs", "cplex"])
def test_other_backends_find_the_same_optimum_as_cbc(solver):
    if not available(solver):
        pytest.skip(f"{solver} is not installed")
    frame = tiny(3)
    ours = train(labeled(frame), TrainConfig(solver=solver, **SMALL))
    reference = train(labeled(frame), TrainConfig(solver="cbc", **SMALL))
    assert ours.training.solver == solver and ours.training.status == "optimal"
    assert ours.training.objective == pytest.approx(reference.training.objective)


def test_a_missing_solver_is_a_config_error_naming_the_usable_ones():
    if available("gurobi"):
        pytest.skip("gurobi is installed here")
    with pytest.raises(ConfigError, match="gurobi is not installed on this machine; use one of cbc"):
        train(labeled(tiny(3)), TrainConfig(solver="gurobi", **SMALL))


def test_cbc_log_lines_become_progress_numbers():
    watcher = CbcLogWatcher("/nonexistent.log", None, scale=10.0)
    assert watcher.read_line("Cbc0012I Integer solution of 0.82 found by DiveCoefficient after 10 iterations")
    assert watcher.incumbent == pytest.approx(0.082)
    assert watcher.read_line("Cbc0010I After 1000 nodes, 12 on tree, 0.8 best solution, best possible 0.2 (3.1 seconds)")
    assert (watcher.incumbent, watcher.bound) == (pytest.approx(0.08), pytest.approx(0.02))
    assert not watcher.read_line("Clp0006I 0  Obj 0 Primal inf 1.4 (8)")


@pytest.mark.parametrize("solver", ["cbc", "highs"])
def test_progress_events_reach_the_callback_while_solving(solver):
    # A work limit (5 branch-and-bound nodes) stops the solve mid-search at the same point on
    # any machine, however busy; the time limit is only a safety net. (HiGHS reports its node
    # limit as kSolutionLimit, which PuLP 3.3 did not map: this also covers that stop.)
    events: list[Progress] = []
    model = train(breastcancer(), TrainConfig(c0=0.025, solver=solver, time_limit=120, work_limit=0.05),
                  progress=events.append)
    assert model.training.status == "work_limit" and model.training.solver == solver
    assert events and all(isinstance(e, Progress) for e in events)
    assert any(e.incumbent is not None for e in events)
    assert [e.elapsed for e in events] == sorted(e.elapsed for e in events)


@pytest.mark.parametrize("solver", ["cbc", "highs"])
def test_progress_shows_the_objective_the_model_reports(solver):
    """The solvers see the objective without its constant term (the loss of rows a label
    fixes); progress adds it back, so the last incumbent shown is the model's objective."""
    events: list[Progress] = []
    fitted = train(labeled(tiny(3)), TrainConfig(solver=solver, **SMALL), progress=events.append)
    shown = [e.incumbent for e in events if e.incumbent is not None and e.message == solver]
    assert fitted.training.status == "optimal" and shown
    assert min(shown) == pytest.approx(fitted.training.objective)


@pytest.mark.slow
def test_highs_stops_at_its_time_limit_where_its_sub_mip_heuristics_hung(monkeypatch):
    """A paper-table fold of heart (C0 0.05) on which HiGHS 1.16's RINS heuristic looped in
    presolve for 15 minutes past a 60 s limit; auto's MIP fallback must end on time."""
    import time

    import numpy as np
    from scorecard.trainer.data.prepare import prepare, read_table
    from scorecard.trainer.solvers import cpsat
    from testdata import SHARED

    from scorecard.crossval import stratified_folds

    monkeypatch.setattr(cpsat, "encode", lambda problem: None)  # the PuLP/HiGHS path, as for spambase
    data = prepare(read_table(str(SHARED / "heart.csv")), "Disease", positive="1")
    test = stratified_folds(data.y, 10, seed=0)[5]
    fit = data.subset(np.setdiff1d(np.arange(len(data.y)), test))
    start = time.monotonic()
    model = train(fit, TrainConfig(c0=0.05, time_limit=60))
    assert model.training.solver == "auto:highs"
    assert time.monotonic() - start < 75
