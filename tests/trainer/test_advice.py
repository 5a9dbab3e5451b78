"""What training tells a user about the model it made (trainer/advice.py)."""
from __future__ import annotations

import pandas as pd
import pytest
from scorecard.runtime import Model, Target
from scorecard.trainer.advice import model_warnings
from scorecard.trainer.data.prepare import prepare


def _empty_card(rate: float):
    """An empty card (predicts the majority) of 100 rows, ``rate`` of them positive."""
    positives = round(100 * rate)
    data = prepare(pd.DataFrame({"a": range(100), "y": [1] * positives + [0] * (100 - positives)}), "y")
    return Model("linear", Target("y", 1), (), (), -1), data


@pytest.mark.parametrize("rate,w_pos,above", [(0.03, "0.94", "6.0%"), (0.2, "0.65", "35.0%"), (0.3, "0.6", "40.0%"),
                                              (0.45, "0.53", "47.0%")])
def test_an_empty_card_of_a_minority_outcome_chosen_by_cv_names_the_weight_that_flags_rows_below_half(
        rate, w_pos, above):
    """Cross-validation has tried the smaller C0s, so the advice is the class weight: it flags
    rows at twice the outcome's rate, or halfway from the rate to 1/2, never at 1/2 or above."""
    model, data = _empty_card(rate)
    (warning,) = model_warnings(model, data, 0.05, chosen=True)
    assert warning.endswith(f"the outcome is in {100 * rate:.1f}% of the rows and predicting it for a group of rows "
                            f"needs their risk above 50%: weigh it up with --w-pos {w_pos}, and a card flags the rows "
                            f"whose risk is above {above}")
    (given,) = model_warnings(model, data, 0.05, chosen=False)
    assert "try --c0 auto or a smaller --c0, or weigh it up with --w-pos" in given


def test_an_empty_card_of_a_majority_outcome_or_under_weights_says_try_a_smaller_c0():
    model, data = _empty_card(0.2)
    (weighted,) = model_warnings(model, data, 0.05, chosen=True, w_pos=0.7)
    assert weighted.endswith("try a smaller --c0")
