import dataclasses

import numpy as np
import pandas as pd
from scorecard.trainer.data.design import encode, offered_levels
from scorecard.trainer.data.families import design_for, level_notes
from scorecard.trainer.options.config import TrainConfig
from slimdata import labeled


def test_numeric_columns_are_linear_and_categoricals_one_hot():
    frame = pd.DataFrame({"age": [30, 40, 50, 60], "odor": ["none", "foul", "none", "almond"],
                          "y": [0, 1, 0, 1]})
    design = encode(labeled(frame), min_level_rows=1)  # four rows: every level a condition
    labels = [c.label for c in design.columns]
    assert labels == ["age", "odor = almond", "odor = foul", "odor = none"]
    assert [c.op for c in design.columns] == ["linear", "==", "==", "=="]
    np.testing.assert_array_equal(design.X[:, 0], [30, 40, 50, 60])
    np.testing.assert_array_equal(design.X[:, 3], [1, 0, 1, 0])


def test_a_design_column_becomes_the_runtime_term_it_stands_for():
    frame = pd.DataFrame({"odor": ["none", "foul"], "y": [0, 1]})
    column = encode(labeled(frame), min_level_rows=1).columns[0]
    term = column.term(3)
    assert (term.input, term.op, term.value, term.points, term.label) == ("odor", "==", "foul", 3, "odor = foul")


# ------------------------------------------------------------------ --numeric cuts / linear

from scorecard.trainer.problem.constrained import constrained_problem, violations  # noqa: E402

RAW = pd.DataFrame({"glu": [85, 120, 150, 99, 180, 140, 110, 160, 95, 130, 170, 105],
                    "grade": [1, 3, 2, 5, 4, 2, 1, 3, 2, 5, 4, 1],
                    "smoker": [0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0],
                    "sex": ["f", "m", "f", "m", "f", "m", "f", "m", "f", "m", "f", "m"],
                    "y": [0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0]})


def test_numeric_linear_is_the_papers_design_exactly():
    data = labeled(RAW)
    old, new = encode(data), design_for(data, TrainConfig(numeric="linear"))
    assert new.columns == old.columns
    np.testing.assert_array_equal(new.X, old.X)


def test_cuts_make_a_wide_numeric_column_conditions_and_keep_the_rest():
    design = design_for(labeled(RAW), TrainConfig(max_cuts=3, min_level_rows=6))
    by_input = {}
    for col in design.columns:
        by_input.setdefault(col.input, []).append(col)
    assert {c.op for c in by_input["glu"]} == {">="} and 1 <= len(by_input["glu"]) <= 3 + 2 * (3 // 2)  # + per class
    assert all(c.label == f"glu >= {c.value}" and isinstance(c.value, int) for c in by_input["glu"])
    assert [c.op for c in by_input["grade"]] == ["linear"]  # whole numbers within +-10: a grade stays linear
    assert [c.op for c in by_input["smoker"]] == ["linear"]  # a binary column is one condition
    assert [c.op for c in by_input["sex"]] == ["==", "=="]
    j = design.columns.index(by_input["glu"][0])
    np.testing.assert_array_equal(design.X[:, j], (RAW["glu"] >= by_input["glu"][0].value).astype(float))


def test_numeric_for_and_given_cuts_choose_per_column():
    config = TrainConfig(numeric="linear", numeric_by_input={"grade": "cuts"}, cuts={"grade": (3,)})
    design = design_for(labeled(RAW), config)
    ops = [(c.input, c.op, c.value) for c in design.columns if c.input in ("glu", "grade")]
    assert ops == [("glu", "linear", None), ("grade", ">=", 3)]
    assert all(c.op == "linear" for c in design_for(labeled(RAW), TrainConfig(numeric_by_input={"glu": "linear"}))
               .columns if c.input == "glu")


def test_a_sign_holds_on_every_cut_off_of_its_column():
    data, config = labeled(RAW), TrainConfig(c0=0.01, signs={"glu": "+"}, max_cuts=3)
    design = design_for(data, config)
    problem = constrained_problem(design, data, config)
    glu = [j for j, c in enumerate(design.columns) if c.input == "glu"]
    assert len(glu) >= 2 and all(problem.coef_lo[j] == 0 and problem.coef_hi[j] == 10 for j in glu)


def test_max_features_counts_columns_not_conditions():
    data, config = labeled(RAW), TrainConfig(c0=0.01, max_features=1, max_cuts=3, min_level_rows=6)
    design = design_for(data, config)
    problem = constrained_problem(design, data, config)
    glu = [j for j, c in enumerate(design.columns) if c.input == "glu"]
    sex = next(j for j, c in enumerate(design.columns) if c.input == "sex")
    two_cuts = np.zeros(len(design.columns), dtype=np.int64)
    two_cuts[glu[:2]] = (2, 3)
    assert not violations(problem, two_cuts, -2)  # one column, two of its conditions: one feature
    two_columns = two_cuts.copy()
    two_columns[sex] = 1
    assert any("max_features = 1" in v for v in violations(problem, two_columns, -2))


def _wards() -> pd.DataFrame:
    """30 rows: ward A holds 12, B 10, C 5 and D 3 (D's rows all had the outcome)."""
    ward = ["A"] * 12 + ["B"] * 10 + ["C"] * 5 + ["D"] * 3
    return pd.DataFrame({"ward": ward, "age": np.arange(30) + 40, "y": [0, 1] * 11 + [0, 1, 0, 0, 1] + [1] * 3})


def test_a_level_held_by_fewer_than_min_level_rows_is_no_condition_of_its_own():
    data = labeled(_wards())
    for model in ("slim", "mofn", "tilm"):
        design = design_for(data, TrainConfig(model=model))
        ward = [c for c in design.columns if c.input == "ward"]
        assert {c.value for c in ward if c.op == "=="} == {"A", "B"}, model
        negations = {c.label: set(c.value) for c in ward if c.op == "in"}
        # M-of-N's negations of the offered levels read every other level, the rare ones too
        assert negations == ({"ward != A": {"B", "C", "D"}, "ward != B": {"A", "C", "D"}} if model == "mofn" else {})
    every = design_for(data, TrainConfig(min_level_rows=3))
    assert [c.label for c in every.columns if c.input == "ward"] == [f"ward = {v}" for v in "ABCD"]
    assert level_notes(data, TrainConfig()) == [
        "column 'ward': 2 of its 4 levels are held by fewer than 10 rows each and are no condition of their own "
        "(their rows meet none of the column's conditions); --min-level-rows sets the number, or group the levels "
        "in the data"]
    assert level_notes(data, TrainConfig(min_level_rows=3)) == []


def test_grouped_rows_count_with_their_counts():
    """Big data's identical rows are grouped (trainer/stream.py): a level held by one grouped
    row of count 40 is held by 40 rows."""
    data = labeled(_wards())
    counts = np.ones(len(data.y))
    counts[-1] = 40  # one row of ward D stands for 40
    grouped = dataclasses.replace(data, counts=counts)
    assert offered_levels(grouped, "ward") == ["A", "B", "D"]
    assert offered_levels(data, "ward") == ["A", "B"]


# ------------------------------------------------------------------ --numeric-for COL=levels

CODES = pd.DataFrame({"race": [1, 2, 3, 2, 1, 3, 2, 1, 9, 3, 2, 1],  # 9: a code of one row
                      "glu": [85, 120, 150, 99, 180, 140, 110, 160, 95, 130, 170, 105],
                      "y": [0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0]})


def test_levels_read_numeric_codes_as_one_condition_per_value_in_every_family():
    data = labeled(CODES)
    for model in ("slim", "mofn", "tilm"):  # PILM reads SLIM's design
        config = TrainConfig(model=model, numeric_by_input={"race": "levels"}, min_level_rows=2)
        race = [c for c in design_for(data, config).columns if c.input == "race"]
        # the rare code 9 is no condition; no negation (a model file's `in` holds text levels only)
        assert [(c.op, c.value, c.label) for c in race] == [("==", 1, "race = 1"), ("==", 2, "race = 2"),
                                                              ("==", 3, "race = 3")], model
        assert all(isinstance(c.value, int) for c in race)
    design = design_for(data, TrainConfig(numeric_by_input={"race": "levels"}, min_level_rows=2))
    j = next(k for k, c in enumerate(design.columns) if c.label == "race = 2")
    np.testing.assert_array_equal(design.X[:, j], (CODES["race"] == 2).astype(float))


def test_levels_of_a_code_column_with_missing_cells_add_its_unknown_condition_and_name_rare_codes():
    frame = CODES.astype({"race": float})
    frame.loc[0, "race"] = np.nan
    data = labeled(frame)  # the "unmet" policy, train's default
    config = TrainConfig(numeric_by_input={"race": "levels"}, min_level_rows=2)
    race = [(c.op, c.value) for c in design_for(data, config).columns if c.input == "race"]
    assert race == [("==", 1), ("==", 2), ("==", 3), ("missing", None)]
    assert level_notes(data, config) == [
        "column 'race': 1 of its 4 levels is held by fewer than 2 rows and is no condition of its own (its rows meet "
        "none of the column's conditions); --min-level-rows sets the number, or group the levels in the data"]
