"""What training tells a user about the model it made (trainer/advice.py)."""
from __future__ import annotations

import pandas as pd
import pytest
from scorecard.runtime import Input, Model, Target, Term, Training
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


def _card(inputs: tuple[str, ...], rows: int, error: float):
    """A card of one condition per input, trained on ``rows`` rows with training error ``error``."""
    data = prepare(pd.DataFrame({"a": [k % 7 for k in range(rows)], "b": [k % 5 for k in range(rows)],
                                 "y": [k % 2 for k in range(rows)]}), "y")
    terms = tuple(Term(name, ">=", 3, 2, f"{name} >= 3") for name in inputs)
    training = Training(solver="cbc", status="optimal", objective=error, lower_bound=error, gap=0.0, seconds=0.1,
                        train_error=error, n_rows=rows, params={})
    return Model("linear", Target("y", 1), tuple(Input(n, "numeric") for n in inputs), terms, -1,
                 training=training), data


def test_one_column_that_classifies_every_row_correctly_is_named_as_a_possible_leak():
    """flchain: 'chapter' (the cause of death, blank for the living) alone gave a card of 0 %
    training error on 7,874 rows, which no new patient's data can repeat."""
    model, data = _card(("a",), 100, 0.0)
    assert model_warnings(model, data, 0.01) == [
        "column 'a' alone classifies all 100 training rows correctly (predicting the majority class, 50.0%): if it "
        "is recorded after the outcome (a cause of death, a follow-up time, a discharge code), it leaks the outcome "
        "and the card will fail on new rows; leave it out of the data and train again"]
    nearly, data = _card(("a",), 100, 0.02)  # Aids2's date of death or censoring: 0.6 % error against 38 %
    assert model_warnings(nearly, data, 0.01)[0].startswith("column 'a' alone classifies 98.0% of the 100 training rows")
    # two columns, errors beyond 5 % of the majority class's, or a small file (a clean toy problem): no such warning
    for inputs, rows, error in ((("a", "b"), 100, 0.0), (("a",), 100, 0.03), (("a",), 99, 0.0)):
        model, data = _card(inputs, rows, error)
        assert not any("alone classifies" in w for w in model_warnings(model, data, 0.01))
