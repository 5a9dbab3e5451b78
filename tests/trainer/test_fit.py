import itertools

import numpy as np
import pandas as pd
import pytest
from scorecard.runtime import predict, score
from scorecard.runtime.errors import InfeasibleError
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.train import train
from slimdata import breastcancer, labeled, tiny

# Proven at once by exhaustive search: 120 s is only a safety net.
SMALL = dict(coef_min=-3, coef_max=3, intercept_min=-10, intercept_max=10, time_limit=120)


def brute_force(frame: pd.DataFrame, c0: float) -> float:
    """min over every integer model in the box of (error rate + c0 * number of features)."""
    X = frame.drop(columns="y").to_numpy(dtype=float)
    y = frame["y"].to_numpy() == 1
    best = np.inf
    for coef in itertools.product(range(-3, 4), repeat=X.shape[1]):
        partial = X @ np.array(coef, dtype=float)
        for b in range(-10, 11):
            errors = np.sum((partial + b > 0) != y)
            best = min(best, errors / len(y) + c0 * np.count_nonzero(coef))
    return best


def l1_free_objective(model, frame, c0):
    errors = sum(predict(model, row) != row["y"] for row in frame.to_dict(orient="records"))
    return errors / len(frame) + c0 * len(model.terms)


@pytest.mark.parametrize("seed,c0", [(3, 0.02), (5, 0.001), (8, 0.06)])
def test_the_trained_model_is_optimal_among_all_integer_models(seed, c0):
    frame = tiny(seed)
    model = train(labeled(frame), TrainConfig(c0=c0, **SMALL))
    assert model.training.status == "optimal"
    assert l1_free_objective(model, frame, c0) == pytest.approx(brute_force(frame, c0))
    assert model.training.gap == pytest.approx(0, abs=1e-6)


def test_training_record_is_recomputed_from_the_integer_model():
    frame = tiny(3)
    model = train(labeled(frame), TrainConfig(c0=0.02, **SMALL))
    errors = sum(predict(model, row) != row["y"] for row in frame.to_dict(orient="records"))
    assert model.training.train_error == pytest.approx(errors / len(frame))
    assert model.training.n_rows == len(frame)
    assert all(isinstance(t.points, int) and t.points != 0 for t in model.terms)
    assert model.training.params["c0"] == 0.02


def test_same_seed_gives_the_same_model():
    frame = tiny(5, n=60)
    config = TrainConfig(c0=0.001, **SMALL)
    a, b = train(labeled(frame), config), train(labeled(frame), config)
    assert (a.terms, a.intercept, a.golden) == (b.terms, b.intercept, b.golden)


def test_class_weight_trades_errors_between_the_classes():
    frame = tiny(8, n=60)

    def errors(model):
        rows = frame.to_dict(orient="records")
        fn = sum(predict(model, r) == 0 and r["y"] == 1 for r in rows)
        fp = sum(predict(model, r) == 1 and r["y"] == 0 for r in rows)
        return fn, fp

    fn_hi, fp_hi = errors(train(labeled(frame), TrainConfig(c0=0.001, w_pos=0.95, **SMALL)))
    fn_lo, fp_lo = errors(train(labeled(frame), TrainConfig(c0=0.001, w_pos=0.05, **SMALL)))
    assert fn_hi == 0 and fp_lo == 0
    assert fp_hi > 0 and fn_lo > 0


def test_golden_rows_turn_every_term_on_and_off_and_cross_the_boundary():
    frame = pd.DataFrame({"odor": ["none", "foul", "almond", "none", "foul", "none", "almond", "foul"],
                          "size": [1, 2, 3, 4, 1, 2, 3, 4], "y": [0, 1, 0, 0, 1, 1, 0, 1]})
    model = train(labeled(frame), TrainConfig(c0=0.01, min_level_rows=1, **SMALL))
    assert model.terms and len(model.golden) <= 30
    for g in model.golden:
        assert g.score == score(model, g.row) and g.prediction == predict(model, g.row)
    for term in model.terms:
        values = {g.row[term.input] for g in model.golden}
        if term.op == "==":
            assert term.value in values and values - {term.value}
        else:
            assert len(values) > 1
    assert {g.prediction for g in model.golden} == {0, 1}


def test_golden_rows_include_a_missing_value_when_the_data_had_some():
    frame = tiny(3).astype(object)
    frame.loc[0, "f0"] = None
    from scorecard.trainer.data.prepare import prepare
    model = train(prepare(frame, "y", missing="impute"), TrainConfig(c0=0.001, **SMALL))
    blanked = [g for g in model.golden if any(v is None for v in g.row.values())]
    assert len(blanked) == 1
    assert blanked[0].score == score(model, blanked[0].row) is not None  # imputed value used


def test_impossible_constraints_raise_infeasible():
    frame = tiny(3)
    with pytest.raises(InfeasibleError, match="no model satisfies"):
        train(labeled(frame), TrainConfig(c0=0.001, min_features=3, signs={"f0": "+"}, coef_min=-3,
                                          coef_max=0, time_limit=120))


def test_time_limit_returns_the_incumbent_with_its_gap():
    # A work limit (CBC's node limit) stops the solve at the same point on any machine; the
    # time limit is only a safety net. A stop at the work limit reads "work_limit".
    model = train(breastcancer(), TrainConfig(c0=0.025, solver="cbc", time_limit=120, work_limit=0.2))
    assert model.training.status == "work_limit" and model.training.solver == "cbc"
    assert 0 < model.training.gap < 1
    assert model.training.lower_bound < model.training.objective
    assert len(model.terms) == 2


def test_breastcancer_gives_the_papers_two_feature_model_proven_optimal():
    model = train(breastcancer(), TrainConfig(c0=0.025, solver="auto", time_limit=120, work_limit=10))
    assert model.training.status == "optimal" and model.training.gap == 0
    points = {t.input: t.points for t in model.terms}
    assert points == {"UniformityOfCellSize": 2, "BareNuclei": 1} and model.intercept == -8
    assert model.training.train_error * 683 == pytest.approx(22)


def test_a_rare_level_enters_the_card_only_when_min_level_rows_allows_it():
    """15 wards of 4 rows; ward W0's rows all had the outcome whatever their glucose: the card
    buys 'ward = W0' once --min-level-rows 4 offers it, never by default (a work limit: the same
    search on any machine)."""
    rng = np.random.default_rng(0)
    glu = rng.integers(70, 200, 60)
    ward = [f"W{k // 4}" for k in range(60)]
    y = np.where((glu >= 140) | (np.array(ward) == "W0"), 1, 0)
    assert ((glu < 140) & (np.array(ward) == "W0")).any()
    data = labeled(pd.DataFrame({"glu": glu, "ward": ward, "y": y}))
    wards = {t.value for t in train(data, TrainConfig(c0=0.01, time_limit=120, work_limit=0.2)).terms
             if t.input == "ward"}
    allowed = train(data, TrainConfig(c0=0.01, min_level_rows=4, time_limit=120, work_limit=0.2))
    assert wards == set() and "W0" in {t.value for t in allowed.terms if t.input == "ward"}
