"""Logistic-loss cards (FasterRisk's method on SLIM's design) as candidates of ``--c0 auto``:
the cards, their cross-validated errors, the rule choosing among cards of both losses, and the
model file of a chosen logistic card. The cards' work is counted, never timed; the 0-1 fits
here are proven at once (the time limit is only a safety net)."""
from __future__ import annotations

import json
import math
import time

import numpy as np
import pandas as pd
import pytest
from scorecard.exporters.layout import result_text, selection_text
from scorecard.exporters.text import render_text
from scorecard.runtime import dumps, loads, predict, risk, score
from scorecard.runtime.errors import ModelError, NoModelInTimeError
from scorecard.trainer import logistic_cv
from scorecard.trainer.data.design import build
from scorecard.trainer.data.families import design_for
from scorecard.trainer.data.prepare import prepare
from scorecard.trainer.folds import EMPTY, LOGISTIC, ZERO_ONE, GridPoint, error_rate, one_standard_error, weighted_error
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.problem.constrained import constrained_problem
from scorecard.trainer.record import model_from_solution
from scorecard.trainer.search.beam import Budget
from scorecard.trainer.search.logistic_cards import logistic_cards, scaled_fit
from scorecard.trainer.select import choose_c0
from scorecard.trainer.solvers.options import Deadline
from scorecard.trainer.train import train
from testdata import SHARED


def _weak_effects(n=200, p=8, seed=0):
    """Eight 0/1 inputs each adding a little to the log-odds: a sum of weak effects."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, p))
    y = (rng.random(n) < 1 / (1 + np.exp(-0.6 * (X.sum(axis=1) - p / 2)))).astype(int)
    frame = pd.DataFrame(X, columns=[f"x{k}" for k in range(p)])
    frame["y"] = y
    return prepare(frame, "y", "1")


def _problem(data, **options):
    config = TrainConfig(**{"c0": 0.01, **options})  # a problem has a number for C0; no C0 enters the path
    design = design_for(data, config)
    return design, constrained_problem(design, data, config)


def _budget():
    return Budget(math.inf, time.monotonic() + 600)  # the clock only as a safety net


def test_one_card_per_size_with_integer_points_in_the_box_and_the_same_every_time():
    _, problem = _problem(_weak_effects(), coef_min=-5, coef_max=5)
    cards = logistic_cards(problem, 6, _budget())
    assert len(cards) == 6
    for size, card in enumerate(cards, start=1):
        assert 1 <= card.size <= size
        assert np.all(card.coef >= problem.coef_lo) and np.all(card.coef <= problem.coef_hi)
        assert problem.intercept_lo <= card.intercept <= problem.intercept_hi and card.scale > 0
    assert [c.loss for c in cards] == sorted([c.loss for c in cards], reverse=True)  # more items, less loss
    again = logistic_cards(problem, 6, _budget())
    assert all(np.array_equal(a.coef, b.coef) and a.intercept == b.intercept for a, b in zip(cards, again))


def test_a_card_predicts_positive_exactly_where_its_fitted_risk_is_above_one_half():
    _, problem = _problem(_weak_effects())
    for card in logistic_cards(problem, 8, _budget()):
        totals = np.arange(-80, 81)
        totals = totals[totals != card.center]
        assert np.array_equal(totals + card.intercept > 0, totals > card.center)


def test_the_slope_and_offset_fit_finds_the_least_logistic_loss():
    rng = np.random.default_rng(4)
    scores = rng.integers(-6, 7, size=(300, 2)).astype(float)
    target = (rng.random(300) < 1 / (1 + np.exp(-(0.7 * scores[:, 0] - 1)))).astype(float)
    weight = np.full(300, 1 / 300)
    loss, a, b = scaled_fit(scores, target, weight, np.array([0.3, 0.3]), np.array([0.0, 0.0]), steps=25)

    def at(k, slope, offset):
        z = slope * scores[:, k] + offset
        return float(weight @ (np.logaddexp(0, z) - target * z))

    for k in range(2):
        grid = min(at(k, s, o) for s in np.linspace(0, 2, 81) for o in np.linspace(-3, 3, 121))
        assert loss[k] == pytest.approx(at(k, a[k], b[k])) and loss[k] <= grid + 1e-9
    assert a[0] == pytest.approx(0.7, abs=0.25)  # the column the label follows


def test_the_cross_validated_error_is_the_runtime_s_error():
    data = _weak_effects()
    train_rows, test_rows = np.arange(0, 150), np.arange(150, 200)
    fit_data = data.subset(train_rows).impute_with()
    test_data = data.subset(test_rows).impute_with(fit_data.imputed)
    design, problem = _problem(fit_data)
    test_X = build(test_data, list(design.columns)).X
    for card in logistic_cards(problem, 5, _budget()):
        model = model_from_solution(fit_data, design, card.coef, card.intercept)
        for w_pos in (0.5, 0.9):  # --w-pos weighs both kinds of candidate alike
            assert logistic_cv._error(card, test_X, test_data, w_pos) == pytest.approx(
                error_rate(model, test_data, w_pos))


def test_the_error_cross_validation_compares_is_weighted_as_training_weighs_it():
    """--w-pos weighs a positive row w and a negative one 1 - w in the 0-1 loss; the
    cross-validation of --c0 auto compares the candidates by the same weighted error (it
    compared the plain error, so a rare outcome's --w-pos 0.9 still chose the empty card)."""
    data = _weak_effects()
    wrong = np.zeros(len(data.y), dtype=bool)
    positives = data.y > 0
    wrong[np.flatnonzero(positives)[:3]] = True  # three positive rows wrong
    assert weighted_error(wrong, data, 0.5) == 3 / len(data.y)
    w = 0.9
    expected = 3 * w / (w * positives.sum() + (1 - w) * (~positives).sum())
    assert weighted_error(wrong, data, w) == pytest.approx(expected)
    empty = model_from_solution(data, design_for(data, TrainConfig(c0=0.01)), np.zeros(8, dtype=np.int64), -1)
    assert error_rate(empty, data) == pytest.approx(positives.mean())  # negative everywhere: every positive wrong
    assert error_rate(empty, data, w) == pytest.approx(w * positives.sum() / (w * positives.sum() + (1 - w) * (~positives).sum()))


def test_under_class_weights_a_logistic_card_s_risk_is_fitted_on_the_rows_as_they_are():
    """The points come from the class-weighted path; the risk the model file states must be a
    row's risk: refitted without the weights, its mean over the rows is the rows' positive rate
    (the logistic fit's intercept equation), where the weighted curve's is far above it."""
    data = _weak_effects(n=400)
    rare = data.subset(np.flatnonzero((data.y < 0) | (np.arange(len(data.y)) % 5 == 0))).impute_with()
    config = TrainConfig(c0=0.01, w_pos=0.9)
    fit = logistic_cv.final_card(rare, config, 3, Deadline.after(600))
    scores = fit.design.X @ fit.card.coef
    def mean_risk(scale, center):
        return float(np.mean(1 / (1 + np.exp(-scale * (scores - center)))))
    rate = float(np.mean(rare.y > 0))
    scale, center = logistic_cv.row_risk(fit, rare)
    assert mean_risk(scale, center) == pytest.approx(rate, abs=1e-4)
    assert mean_risk(fit.card.scale, fit.card.center) > rate + 0.1


def test_cross_validation_gives_a_point_per_size_on_more_dealings_counted_by_work():
    data = _weak_effects()
    points = logistic_cv.cross_validate(data, TrainConfig(c0=0.01), 5, Deadline.after(600))
    assert [p.items for p in points] == list(range(1, 9)) and all(p.loss == LOGISTIC and p.c0 is None
                                                                  for p in points)
    assert all(0 <= p.test_error <= 1 and p.se > 0 and p.size <= p.items for p in points)
    assert logistic_cv.repeats_for(200, 8, 5) == logistic_cv.REPEATS  # small data: every dealing
    assert logistic_cv.repeats_for(3117, 117, 5) == 2 and logistic_cv.repeats_for(10 ** 6, 50, 5) == 1
    assert points == logistic_cv.cross_validate(data, TrainConfig(c0=0.01), 5, Deadline.after(600))


def test_logistic_cards_are_offered_for_plain_slim_only():
    data = _weak_effects()
    assert logistic_cv.offered(data, TrainConfig(c0=0.01)).n_columns == 8
    assert logistic_cv.offered(data, TrainConfig(c0=0.01, signs={"x0": "+"})) is not None  # the box keeps signs
    for refused in ({"max_features": 2}, {"loss": "logistic"}, {"max_fpr": 0.2}, {"reduce": True},
                    {"model": "mofn"}, {"coef_set": [-2, 0, 2]}):
        assert logistic_cv.offered(data, TrainConfig(c0=0.01, **refused)) is None, refused


def _point(test, se, size, c0=None, items=None):
    loss = ZERO_ONE if c0 is not None else LOGISTIC
    return GridPoint(c0, test, se, size, test / 2, loss=loss, items=items)


def test_the_rule_takes_a_logistic_card_when_it_is_the_smallest_within_one_se_and_a_0_1_card_on_a_tie():
    pima = [_point(0.239, 0.030, 2.2, c0=0.0056), _point(0.248, 0.031, 1.0, c0=0.024),
            _point(0.248, 0.009, 1.0, items=1), _point(0.226, 0.011, 8.0, items=8),
            _point(0.233, 0.009, 10.0, items=10)]
    assert one_standard_error(pima).items == 8  # 0.226 + 0.011: the 0-1 cards at 0.239 and 0.248 are out
    tie = [_point(0.10, 0.02, 2.0, c0=0.01), _point(0.09, 0.02, 2.0, items=2)]
    assert one_standard_error(tie).c0 == 0.01  # same size within one SE: the card that can be proven


def test_auto_chooses_a_logistic_card_when_no_0_1_fit_finishes():
    def out_of_time(*args, **kwargs):
        raise NoModelInTimeError("no time for this fold")

    selection = choose_c0(_weak_effects(), TrainConfig(time_limit=60), Deadline.after(600), fit=out_of_time)
    assert selection.loss == LOGISTIC and selection.chosen is None and 1 <= selection.items <= 8
    assert all(p.loss in (LOGISTIC, EMPTY) for p in selection.points)
    assert selection.record()["items"] == selection.items and "chosen" not in selection.record()


def test_a_chosen_logistic_card_is_trained_on_all_rows_and_proven_by_its_exact_program():
    """bankruptcy (250 rows): the two-item logistic card's CV error (0.6 %) beats every 0-1
    card of the grid by more than its standard error, so the rule takes it; then the exact
    integer program of its logistic loss (at most 2 items, its scale) proves it optimal within
    the default work limit (convex/card_proof.py)."""
    data = prepare(pd.read_csv(SHARED / "bankruptcy.csv"), "NotBankrupt")
    model = train(data, TrainConfig(time_limit=300), warn=lambda m: None)
    t, s = model.training, model.training.selection
    assert s["loss"] == "logistic" and s["items"] == 2 and "chosen" not in s
    assert t.status == "optimal" and t.gap <= 1e-4 and len(model.terms) == 2 and t.params["c0"] == "auto"
    assert t.solver == "logistic path + cutting planes" and 0 < t.lower_bound <= t.objective
    assert result_text(t) == "proven optimal"
    assert "logistic-loss card of 2 items" in selection_text(t)
    assert model.probability["method"] == "logistic"
    for row in data.frame.to_dict("records"):  # the prediction and the fitted risk agree
        assert (predict(model, row) == 1) == (risk(model, score(model, row)) > 0.5)
    shown = render_text(model)
    assert "HOW THE CARD WAS CHOSEN" in shown and "logistic 2" in shown and shown.count("<- chosen") == 1
    assert loads(dumps(model)).training.selection == s


def test_the_model_file_refuses_a_logistic_selection_without_its_items():
    data = prepare(pd.read_csv(SHARED / "bankruptcy.csv"), "NotBankrupt")
    model = train(data, TrainConfig(c0=0.01, time_limit=120), warn=lambda m: None)
    raw = json.loads(dumps(model))
    raw["training"]["selection"] = {"method": "cv", "folds": 5, "rule": "one standard error", "grid": [],
                                    "loss": "logistic"}
    with pytest.raises(ModelError, match="training.selection.items"):
        loads(json.dumps(raw))
    raw["training"]["selection"] |= {"items": 2, "grid": [{"loss": "logistic", "test_error": 0.1, "se": 0.01,
                                                           "size": 2, "train_error": 0.1}]}
    with pytest.raises(ModelError, match=r"training.selection.grid\[0\].items"):
        loads(json.dumps(raw))
    raw["training"]["selection"]["grid"][0]["items"] = 2
    assert loads(json.dumps(raw)).training.selection["items"] == 2
