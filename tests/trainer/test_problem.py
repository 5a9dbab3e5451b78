import numpy as np
import pandas as pd
import pytest
from scorecard.runtime.errors import ConfigError
from scorecard.trainer.data.design import encode
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.problem.constrained import constrained_problem
from scorecard.trainer.problem.slim import build_problem, margin
from slimdata import labeled


def _problem(frame, w_pos=0.5, c0=0.01):
    data = labeled(frame)
    p = encode(data).X.shape[1]
    return build_problem(encode(data).X, data.y, w_pos=w_pos, coef_lo=np.full(p, -10), coef_hi=np.full(p, 10),
                         intercept_lo=-100, intercept_hi=100, c0=np.full(p, c0))


def test_identical_rows_share_one_prediction_with_both_weights():
    frame = pd.DataFrame({"a": [1, 1, 1, 2], "y": [1, 0, 1, 0]})
    problem = _problem(frame)
    assert len(problem.X) == 2
    k = int(np.flatnonzero(problem.X[:, 0] == 1)[0])
    assert problem.pos_w[k] == pytest.approx(2 / 4) and problem.neg_w[k] == pytest.approx(1 / 4)


def test_half_class_weight_gives_the_plain_error_rate():
    frame = pd.DataFrame({"a": [0, 1, 2, 3, 4], "y": [0, 1, 0, 1, 1]})
    problem = _problem(frame)
    # predicting everything positive misclassifies the 2 negatives of 5 rows
    assert problem.loss(np.zeros(1), 1) == pytest.approx(2 / 5)
    weighted = _problem(frame, w_pos=0.8)
    assert weighted.loss(np.zeros(1), 1) == pytest.approx(2 * 0.2 * 2 / 5)


def test_signs_bound_every_column_of_the_input():
    # Through the production path: constrained_problem applies the signs, not build_problem.
    frame = pd.DataFrame({"a": [0, 1, 2], "c": ["x", "y", "z"], "y": [0, 1, 1]})
    data = labeled(frame)

    def signed(signs):
        return constrained_problem(encode(data, min_level_rows=1), data, TrainConfig(c0=0.01, signs=signs))

    problem = signed({"c": "-", "a": "+"})
    assert list(problem.coef_lo) == [0, -10, -10, -10]
    assert list(problem.coef_hi) == [10, 0, 0, 0]
    with pytest.raises(ConfigError, match="'b'"):
        signed({"b": "+"})


def test_margin_is_exact_for_data_with_few_decimals():
    assert margin(np.array([[1.0, 2.0]])) == (1.0, True)
    assert margin(np.array([[0.25, 1.5]])) == (0.01, True)
    assert margin(np.array([[1 / 3]]))[1] is False


def test_l1_price_never_outweighs_one_error_or_one_feature():
    frame = pd.DataFrame({"a": range(10), "b": range(10), "y": [0, 1] * 5})
    problem = _problem(frame, c0=0.05)
    max_l1 = 2 * 10
    assert problem.epsilon * max_l1 < min(1 / 10, 0.05)


@pytest.mark.parametrize("seed", [0, 1])
def test_distinct_rows_are_numpys_unique_rows_in_its_order(seed):
    """build_problem merges rows by sorting the first column and its ties only: the rows and
    each row's group are np.unique's (integer, real, one-decimal and single-column data)."""
    from scorecard.trainer.problem.slim import distinct_rows

    rng = np.random.default_rng(seed)
    for X in (rng.integers(0, 3, (20000, 4)).astype(float), rng.standard_normal((5000, 3)),
              np.round(rng.standard_normal((8000, 2)), 1), rng.integers(0, 2, (500, 1)).astype(float)):
        rows, row_of = np.unique(X, axis=0, return_inverse=True)
        mine, mine_of = distinct_rows(X)
        assert np.array_equal(rows, mine) and np.array_equal(row_of.reshape(-1), mine_of)
