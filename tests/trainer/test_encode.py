import numpy as np
import pandas as pd
from scorecard.trainer.data.design import encode
from slimdata import labeled


def test_numeric_columns_are_linear_and_categoricals_one_hot():
    frame = pd.DataFrame({"age": [30, 40, 50, 60], "odor": ["none", "foul", "none", "almond"],
                          "y": [0, 1, 0, 1]})
    design = encode(labeled(frame))
    labels = [c.label for c in design.columns]
    assert labels == ["age", "odor = almond", "odor = foul", "odor = none"]
    assert [c.op for c in design.columns] == ["linear", "==", "==", "=="]
    np.testing.assert_array_equal(design.X[:, 0], [30, 40, 50, 60])
    np.testing.assert_array_equal(design.X[:, 3], [1, 0, 1, 0])


def test_a_design_column_becomes_the_runtime_term_it_stands_for():
    frame = pd.DataFrame({"odor": ["none", "foul"], "y": [0, 1]})
    column = encode(labeled(frame)).columns[0]
    term = column.term(3)
    assert (term.input, term.op, term.value, term.points, term.label) == ("odor", "==", "foul", 3, "odor = foul")
