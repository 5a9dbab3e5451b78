"""--c0 auto: the grid, the one-standard-error rule (a pure function), and the choice
recorded in the model file. Small data the exhaustive search proves at once."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scorecard.runtime import dumps, loads
from scorecard.runtime.errors import ConfigError
from scorecard.trainer.data.prepare import prepare
from scorecard.trainer.folds import FoldResult, GridPoint, c0_grid, grid_points, one_standard_error
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.select import folds_for
from scorecard.trainer.train import train


def _point(c0, test, se, size):
    return GridPoint(c0=c0, test_error=test, se=se, size=size, train_error=test / 2)


def test_one_standard_error_takes_the_smallest_model_within_one_se_of_the_best():
    grid = [_point(0.001, 0.050, 0.010, 6), _point(0.005, 0.045, 0.010, 5),  # best: 0.045 + 0.010
            _point(0.01, 0.054, 0.012, 3), _point(0.03, 0.055, 0.02, 2),     # 0.055 <= 0.055: within
            _point(0.05, 0.080, 0.01, 1)]                                     # too far
    assert one_standard_error(grid).c0 == 0.03


def test_one_standard_error_breaks_a_size_tie_by_the_larger_c0_and_needs_points():
    grid = [_point(0.001, 0.05, 0.0, 2), _point(0.01, 0.05, 0.0, 2), _point(0.005, 0.04, 0.02, 3)]
    assert one_standard_error(grid).c0 == 0.01
    assert one_standard_error([]) is None
    assert one_standard_error([_point(0.02, 0.1, 0.0, 4)]).c0 == 0.02


def test_one_standard_error_prefers_a_card_of_at_most_ten_items_when_the_grid_has_one():
    credit = [_point(0.00032, 0.214, 0.007, 49.4), _point(0.0011, 0.217, 0.007, 16.0),  # too long a card
              _point(0.004, 0.227, 0.008, 6.0), _point(0.014, 0.256, 0.002, 2.2)]
    assert one_standard_error(credit).c0 == 0.004  # best of the short cards, and none within its SE
    assert one_standard_error(credit, max_size=None).c0 == 0.0011  # the plain rule: 16 items
    assert one_standard_error([_point(0.001, 0.1, 0.01, 30), _point(0.01, 0.3, 0.01, 12)]).c0 == 0.001  # none short


def test_grid_points_average_the_folds_and_skip_a_c0_with_a_fold_without_model():
    rows = [FoldResult(0.01, 1, 0.1, 0.2, 2, 0.1, "optimal", 0.0), FoldResult(0.01, 2, 0.1, 0.4, 4, 0.1, "optimal", 0.0),
            FoldResult(0.01, "all", 0.1, 0.3, 3, 0.2, "optimal", 0.0),
            FoldResult(0.1, 1, 0.1, 0.2, 1, 0.1, "optimal", 0.0), FoldResult(0.1, 2, None, None, None, 0, "infeasible", None)]
    (point,) = grid_points(rows)
    assert point.c0 == 0.01 and point.test_error == pytest.approx(0.3) and point.size == 3
    assert point.se == pytest.approx(np.std([0.2, 0.4], ddof=1) / np.sqrt(2))


def test_the_grid_spans_about_one_row_to_five_percent():
    assert c0_grid(683) == (0.0015, 0.0035, 0.0086, 0.021, 0.05)
    assert c0_grid(60)[0] == 0.005 and c0_grid(60)[-1] == 0.05  # 1/N above 0.005: from 0.005
    assert folds_for(100) == 5 and folds_for(3) == 3
    with pytest.raises(ConfigError, match="--c0: 'auto' is not valid here; the smaller class has 1 row"):
        folds_for(1)


def _tiny(n=60, seed=1):
    rng = np.random.default_rng(seed)
    a, b, c = (rng.integers(0, 2, n) for _ in range(3))
    y = np.where(rng.random(n) < 0.1, 1 - ((a + b) >= 1), (a + b) >= 1).astype(int)
    return prepare(pd.DataFrame({"y": y, "a": a, "b": b, "c": c}), "y", "1")


def test_auto_records_the_grid_and_trains_the_final_model_with_the_chosen_c0():
    model = train(_tiny(), TrainConfig(time_limit=120, work_limit=10), warn=lambda m: None)
    t = model.training
    s = t.selection
    assert s["method"] == "cv" and s["folds"] == 5 and s["rule"] == "one standard error"
    zero_one = [p for p in s["grid"] if "c0" in p]
    assert [p["c0"] for p in zero_one] == list(c0_grid(60))
    assert [p["items"] for p in s["grid"] if p.get("loss") == "logistic"] == [1, 2, 3]  # the logistic cards
    assert [p["items"] for p in s["grid"] if p.get("loss") == "empty"] == [0]  # the baseline: no item
    assert s["measure"] == "error"
    assert s["chosen"] in [p["c0"] for p in zero_one] and t.params["c0"] == s["chosen"]
    chosen = one_standard_error([GridPoint(**p) for p in zero_one] +
                                [GridPoint(None, **p) for p in s["grid"] if "c0" not in p])
    assert chosen.c0 == s["chosen"]
    assert t.status == "optimal"
    assert loads(dumps(model)).training.selection == s  # round trip


def test_a_given_c0_records_no_selection_and_pilm_has_nothing_to_choose():
    model = train(_tiny(), TrainConfig(c0=0.02, time_limit=60), warn=lambda m: None)
    assert model.training.selection is None and '"selection"' not in dumps(model)
    assert TrainConfig(model="tilm", c_feature=0.01, c_rule=0.005).c0 == "auto"


def test_fits_whose_turn_comes_after_the_deadline_are_rows_without_a_model():
    from scorecard.trainer.folds import NO_MODEL, run
    from scorecard.trainer.solvers.options import Deadline

    calls = []

    def fit(*args, **kwargs):
        calls.append(1)
        raise AssertionError("no fit may start after the deadline")

    results = run(_tiny(), TrainConfig(c0=0.01), 5, (0.01, 0.02), fit, deadline=Deadline.after(-1.0))
    assert not calls and all(r.status == NO_MODEL for r in results if r.fold != "all")
    assert grid_points(results) == [] and one_standard_error(grid_points(results)) is None


def test_auto_cross_validates_from_the_middle_of_the_grid_so_a_short_run_keeps_it():
    """The grid is fitted from its middle outwards (sparser neighbour first): when the time
    runs out on a busy machine, the ends of the range go missing, not the middle, and the
    rule never has only an empty card or only a 20-item table to choose from. Here every fit
    after the first C0's folds is out of time: the rule still has the middle point, and the
    grid is recorded from the smallest C0 up."""
    from scorecard.runtime.errors import NoModelInTimeError
    from scorecard.trainer.select import choose_c0
    from scorecard.trainer.solvers.options import Deadline
    from scorecard.trainer.train import fold_fit

    order = []

    def fit(data, cfg, **options):
        order.append(cfg.c0)
        if len(order) > 5:
            raise NoModelInTimeError("this fit's share of the time is spent")
        return fold_fit(data, cfg, **options)

    data = _tiny()
    selection = choose_c0(data, TrainConfig(time_limit=60), Deadline.after(60), fit=fit)
    grid = c0_grid(60)
    assert order == [c0 for c0 in (grid[2], grid[3], grid[1], grid[4], grid[0]) for _ in range(5)]
    assert [p.c0 for p in selection.points if p.loss == "zero-one"] == [grid[2]] and selection.chosen == grid[2]
    full = choose_c0(data, TrainConfig(time_limit=60), Deadline.after(60), fit=fold_fit)
    assert [p.c0 for p in full.points if p.loss == "zero-one"] == list(grid)
