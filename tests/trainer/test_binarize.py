"""Binary rules keep their raw meaning: what the solver saw is what the runtime scores."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scorecard.runtime import Model, Target, score
from scorecard.trainer.data.binarize import binarize, nice_cut, thresholds
from scorecard.trainer.data.prepare import prepare


def mixed() -> pd.DataFrame:
    rng = np.random.default_rng(1)
    n = 60
    return pd.DataFrame({
        "age": rng.integers(20, 90, n),
        "bmi": np.round(rng.normal(27, 4, n), 1),
        "smoker": rng.integers(0, 2, n),
        "odor": rng.choice(["none", "foul", "almond"], n),
        "y": rng.integers(0, 2, n),
    })


@pytest.mark.parametrize("low,high,cut", [(59, 60, 60), (59.2, 60.7, 60), (1.37, 1.52, 1.4),
                                          (0.0012, 0.0019, 0.0013), (-0.5, 0.5, 0), (99, 101, 100)])
def test_cuts_are_the_roundest_number_between_two_values(low, high, cut):
    assert nice_cut(low, high) == cut


def test_few_distinct_values_get_every_cut_and_many_get_round_quantiles():
    assert thresholds(np.arange(1.0, 11.0)) == (2, 3, 4, 5, 6, 7, 8, 9, 10)
    cuts = thresholds(np.random.default_rng(0).normal(50, 10, 500), max_thresholds=8)
    assert 1 <= len(cuts) <= 8 and list(cuts) == sorted(cuts)
    assert all(float(c).is_integer() for c in cuts)  # "age >= 47", not ">= 46.83"


def test_every_rule_scores_raw_rows_as_it_did_in_training():
    data = prepare(mixed(), "y")
    design = binarize(data, max_thresholds=5)
    rows = data.frame.to_dict("records")
    for j, column in enumerate(design.columns):
        model = Model(kind="m_of_n", target=Target("y", 1), inputs=data.inputs,
                      terms=(column.term(1),), intercept=0)
        assert [score(model, r) for r in rows] == design.X[:, j].tolist(), column.label


def test_rules_read_as_conditions_on_the_raw_columns():
    data = prepare(mixed(), "y")
    labels = {c.label: c for c in binarize(data, cuts={"age": [60]}).columns}
    assert labels["age >= 60"].op == ">=" and labels["age < 60"].op == "<"
    assert labels["smoker"].op == "==" and labels["not smoker"].value == 0
    negated = labels["odor != none"]
    assert negated.op == "in" and set(negated.value) == {"almond", "foul"}


def test_negations_can_be_left_out_and_useless_rules_are():
    frame = mixed()
    frame["constant"] = 5
    data = prepare(frame, "y")
    design = binarize(data, cuts={"age": [60.2, 60.5]}, negations=False)
    labels = [c.label for c in design.columns]
    assert not any(" < " in lab or "!=" in lab or lab.startswith("not ") for lab in labels)
    assert not any(lab.startswith("constant") for lab in labels)  # holds on every row
    assert "age >= 60.2" in labels and "age >= 60.5" not in labels  # the same rows on integer ages


# ------------------------------------------------------------------ cut-offs of a SLIM card


def test_a_cut_rounds_to_two_significant_digits_or_the_columns_precision():
    from scorecard.trainer.data.binarize import round_cut
    assert round_cut(147.3) == 150 and isinstance(round_cut(147.3), int)
    assert round_cut(9837.2) == 9800
    assert round_cut(0.23456) == 0.23
    assert round_cut(3.7, exponent=0) == 4  # a column of whole numbers: whole cuts
    assert round_cut(93_456, exponent=2) == 93_000  # two digits are coarser than hundreds
    assert round_cut(1_234, exponent=2) == 1_200
    assert repr(round_cut(0.20000000000000284)) == "0.2"  # never float noise


def test_the_columns_precision_is_its_coarsest_power_of_ten():
    from scorecard.trainer.data.binarize import precision_exponent
    assert precision_exponent(np.array([8300.0, 9100.0, 11500.0])) == 2
    assert precision_exponent(np.array([1.0, 2.0, 17.0])) == 0
    assert precision_exponent(np.array([0.1, 0.25, 0.3])) == -2
    assert precision_exponent(np.array([0.1 + 0.2, 0.7])) == -1  # 0.30000000000000004 reads as 0.3


def test_card_cuts_are_few_round_distinct_and_split_the_rows():
    from scorecard.trainer.data.binarize import card_cuts, significant_digits
    rng = np.random.default_rng(0)
    for values, most in [(np.round(rng.normal(120, 30, 500)), 8), (rng.uniform(8300, 11500, 500), 8),
                         (rng.uniform(0, 1, 500), 5), (np.round(rng.uniform(18, 90, 500)), 8)]:
        cuts = card_cuts(values, most)
        assert 2 <= len(cuts) <= most and list(cuts) == sorted(set(cuts))
        for cut in cuts:
            above = int((values >= cut).sum())
            assert 0 < above < len(values)
            assert significant_digits(cut) <= 3  # 2, or 3 where 2 would repeat another cut
            assert repr(cut) == repr(float(cut)) or isinstance(cut, int)
        counts = [int((values >= c).sum()) for c in cuts]
        assert len(set(counts)) == len(counts)  # no two cuts flag the same rows


def test_card_cuts_reach_the_tail_where_a_rare_outcome_lives():
    # balance of 10,000 card holders, 3 % of whom default, nearly all with a balance near 2000
    from scorecard.trainer.data.binarize import card_cuts
    rng = np.random.default_rng(2)
    balance = np.r_[rng.normal(800, 400, 9700).clip(0), rng.normal(2000, 150, 300)]
    labels = np.r_[-np.ones(9700), np.ones(300)]
    plain, aware = card_cuts(balance, 8), card_cuts(balance, 8, labels=labels)
    assert max(plain) < 1500  # the top overall quantile flags a tenth of the rows, mostly non-defaulters
    assert any(1700 <= c <= 2100 for c in aware)  # a cut among the defaulters: the condition that predicts them
    assert set(plain) <= set(aware) and len(aware) <= 8 + 2 * 4


def test_card_cuts_of_income_in_the_thousands_read_like_9800():
    from scorecard.trainer.data.binarize import card_cuts, number_text
    values = np.random.default_rng(1).uniform(8300, 11500, 300)
    cuts = card_cuts(values, 8)
    assert all(isinstance(c, int) and c % 100 == 0 for c in cuts)
    assert number_text(9800) == "9800" and number_text(12000) == "12,000" and number_text(0.25) == "0.25"


def test_few_distinct_values_give_cuts_between_neighbours_and_none_for_a_constant():
    from scorecard.trainer.data.binarize import card_cuts
    assert card_cuts(np.array([1.0, 1.0, 2.0, 5.0, np.nan])) == (2, 3)
    assert card_cuts(np.array([7.0, 7.0, np.nan])) == ()


def test_card_cuts_of_a_count_are_whole_numbers():
    # pima's npreg: interpolated quantiles 2.0 and 2.2 once gave the cut 2.1 ("npreg >= 2.1")
    from scorecard.trainer.data.binarize import at_precision, card_cuts
    assert at_precision(2.1, 0) == 3 and isinstance(at_precision(2.1, 0), int)
    assert at_precision(0.25, -1) == 0.3 and at_precision(0.1 + 0.2, -1) == 0.3  # no float noise
    assert at_precision(9850, 2) == 9900 and at_precision(60, 0) == 60
    # the pregnancies of pima's 372 training rows (issue 13), per count 0, 1, 2, ... by class
    yes = [21, 14, 10, 13, 6, 9, 4, 12, 10, 9, 5, 4, 3, 0, 2, 1, 0, 1]
    no = [36, 65, 40, 28, 19, 17, 14, 8, 6, 5, 4, 1, 3, 2]
    npreg = np.r_[np.repeat(np.arange(len(yes)), yes), np.repeat(np.arange(len(no)), no)].astype(float)
    labels = np.r_[np.ones(sum(yes)), -np.ones(sum(no))]
    assert card_cuts(npreg, 8) == (1, 2, 3, 4, 6, 10)  # was (1, 2, 2.1, 4, 6, 10)
    cuts = card_cuts(npreg, 8, labels=labels)
    assert cuts == (1, 2, 3, 4, 5, 6, 8, 10) and all(isinstance(c, int) for c in cuts)
