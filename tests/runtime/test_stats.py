"""The report's and monitor's statistics against values computed another way: the AUC and
DeLong's variance by brute force over every pair, Wilson intervals from the literature,
logistic recalibration on data whose answer is exact, the PSI by hand."""
from __future__ import annotations

import math
import random

import pytest
from scorecard.runtime.stats import (EMPTY_BIN, Z95, auc, confusion, delong, psi, psi_band, recalibrate, roc_points,
                                     wilson)


def _pairs(scores, labels):
    pos = [s for s, y in zip(scores, labels) if y == 1]
    neg = [s for s, y in zip(scores, labels) if y == 0]
    return pos, neg


def _kernel(p, n):
    return 1.0 if p > n else 0.5 if p == n else 0.0


def _brute_force(scores, labels):
    """AUC and DeLong's standard error straight from the definitions, O(n^2)."""
    pos, neg = _pairs(scores, labels)
    m, n = len(pos), len(neg)
    value = sum(_kernel(p, q) for p in pos for q in neg) / (m * n)
    v10 = [sum(_kernel(p, q) for q in neg) / n for p in pos]
    v01 = [sum(_kernel(p, q) for p in pos) / m for q in neg]
    s10 = sum((v - value) ** 2 for v in v10) / (m - 1)
    s01 = sum((v - value) ** 2 for v in v01) / (n - 1)
    return value, math.sqrt(s10 / m + s01 / n)


@pytest.mark.parametrize("seed", range(5))
def test_auc_and_delong_interval_match_the_pair_count(seed):
    rng = random.Random(seed)
    scores = [rng.randint(-4, 6) for _ in range(120)]  # many ties, as integer scores have
    labels = [int(rng.random() < 0.15 + 0.08 * (s + 4)) for s in scores]
    value, se = _brute_force(scores, labels)
    got = delong(scores, labels)
    assert auc(scores, labels) == pytest.approx(value, abs=1e-12)
    assert got.low == pytest.approx(max(0.0, value - Z95 * se), abs=1e-12)
    assert got.high == pytest.approx(min(1.0, value + Z95 * se), abs=1e-12)


def test_auc_of_a_perfect_and_a_useless_score():
    assert auc([1, 2, 3, 4], [0, 0, 1, 1]) == 1.0
    assert auc([5, 5, 5, 5], [0, 1, 0, 1]) == 0.5
    with pytest.raises(ValueError):
        delong([1, 2], [1, 1])


def test_roc_points_step_through_every_distinct_score():
    points = roc_points([3, 3, 2, 1], [1, 0, 1, 0])
    assert points == [(math.inf, 0.0, 0.0), (3, 0.5, 0.5), (2, 0.5, 1.0), (1, 1.0, 1.0)]


@pytest.mark.parametrize("k, n, low, high", [(3, 10, 0.1078, 0.6032), (0, 20, 0.0, 0.1611), (50, 100, 0.4038, 0.5962)])
def test_wilson_interval_matches_published_values(k, n, low, high):
    got = wilson(k, n)
    assert got.value == k / n
    assert (round(got.low, 4), round(got.high, 4)) == (low, high)


def _rows(groups):
    """(risk, positives, rows) groups -> per-row risks and labels."""
    risks, labels = [], []
    for risk, positives, rows in groups:
        risks += [risk] * rows
        labels += [1] * positives + [0] * (rows - positives)
    return risks, labels


def test_recalibration_of_risks_that_match_the_observed_rates_is_slope_1_intercept_0():
    risks, labels = _rows([(0.2, 2, 10), (0.5, 5, 10), (0.8, 8, 10)])
    r = recalibrate(risks, labels)
    assert r.slope.value == pytest.approx(1.0, abs=1e-9)
    assert r.intercept.value == pytest.approx(0.0, abs=1e-9)
    assert r.slope.low < 1 < r.slope.high


def test_recalibration_of_too_extreme_risks_has_slope_one_half():
    def sigmoid(z):
        return 1 / (1 + math.exp(-z))

    def logit(p):
        return math.log(p / (1 - p))

    # observed rates 0.2, 0.5, 0.8 where the model says sigmoid(2 * logit(rate)): twice too extreme
    risks, labels = _rows([(sigmoid(2 * logit(0.2)), 2, 10), (0.5, 5, 10), (sigmoid(2 * logit(0.8)), 8, 10)])
    assert recalibrate(risks, labels).slope.value == pytest.approx(0.5, abs=1e-9)


def test_recalibration_intercept_says_risks_too_low():
    risks, labels = _rows([(0.1, 4, 20), (0.3, 12, 20)])  # observed twice the predicted risk
    assert recalibrate(risks, labels).intercept.value > 0


def test_recalibration_needs_both_classes_and_a_spread_for_the_slope():
    assert recalibrate([0.2, 0.3], [1, 1]).slope is None
    same = recalibrate([0.3] * 10, [1] * 3 + [0] * 7)
    assert same.slope is None
    assert same.intercept.value == pytest.approx(0.0, abs=1e-9)  # 30% observed where 30% predicted


def test_confusion_table_and_its_rates():
    m = confusion([1, 1, 1, 0, 0, 0, 0, 1], [1, 1, 0, 0, 0, 1, 0, 1])
    assert (m.tp, m.fp, m.fn, m.tn) == (3, 1, 1, 3)
    assert (m.sensitivity.value, m.specificity.value, m.ppv.value, m.npv.value) == (0.75, 0.75, 0.75, 0.75)
    assert m.accuracy.value == 0.75


def test_psi_by_hand():
    # shares 0.5/0.3/0.2 -> 0.4/0.3/0.3
    expected = (0.4 - 0.5) * math.log(0.4 / 0.5) + (0.3 - 0.2) * math.log(0.3 / 0.2)
    assert psi([50, 30, 20], [40, 30, 30]) == pytest.approx(expected, abs=1e-15)
    assert psi([5, 5], [50, 50]) == 0.0


def test_psi_counts_an_empty_bin_as_half_a_row():
    expected = (0.5 - 1.0) * math.log(0.5 / 1.0) + (0.5 - EMPTY_BIN / 10) * math.log(0.5 / (EMPTY_BIN / 10))
    assert psi([10, 0], [5, 5]) == pytest.approx(expected, abs=1e-15)
    assert psi([10, 0, 0], [5, 5, 0]) == pytest.approx(expected, abs=1e-15)  # empty on both sides: no term


def test_psi_bands():
    assert [psi_band(v) for v in (0.0, 0.099, 0.1, 0.249, 0.25, 2)] == [
        "no shift", "no shift", "moderate shift", "moderate shift", "major shift", "major shift"]


def test_auc_and_roc_agree_with_scikit_learn():
    metrics = pytest.importorskip("sklearn.metrics")
    rng = random.Random(7)
    scores = [rng.choice([-2, -1, 0, 0.5, 1, 3]) for _ in range(400)]
    labels = [int(rng.random() < 0.3 + 0.1 * s) for s in scores]
    assert auc(scores, labels) == pytest.approx(metrics.roc_auc_score(labels, scores), abs=1e-12)
    fpr, tpr, _ = metrics.roc_curve(labels, scores, drop_intermediate=False)
    ours = roc_points(scores, labels)
    assert [f for _, f, _ in ours] == pytest.approx(list(fpr)) and [t for _, _, t in ours] == pytest.approx(list(tpr))
