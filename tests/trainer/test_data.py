"""trainer.data: reading, typing and the one-line errors a user sees for bad data."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scorecard.runtime import Target
from scorecard.runtime.errors import DataError
from scorecard.trainer.data.prepare import prepare, read_table
from numbers_table import READ
from testdata import SHARED


def load(path, target="y", **kw):
    return prepare(read_table(str(path)), target, source=str(path), **kw)


def test_breastcancer_is_read_as_integer_features_with_benign_positive(breastcancer):
    data = load(breastcancer, "Benign")
    assert data.frame.shape == (683, 9)
    assert data.target.positive == 1
    assert {i.type for i in data.inputs} == {"numeric"}
    assert int((data.y == 1).sum()) == 239 and set(data.y.tolist()) == {-1, 1}


@pytest.mark.parametrize("labels, positive, expected, y", [
    (("0", "1"), None, 1, [-1, 1]), (("-1", "1"), None, 1, [-1, 1]), (("true", "false"), None, "true", [1, -1]),
    (("False", "True"), None, "True", [-1, 1]), (("no", "yes"), "yes", "yes", [-1, 1]),
    (("0", "1"), "0", 0, [1, -1]), (("1.0", "0.0"), "1", 1, [1, -1]),
])
def test_target_codings(write, labels, positive, expected, y):
    path = write("d.csv", "y,x\n" + "".join(f"{lab},{k}\n" for k, lab in enumerate(labels * 2)))
    data = load(path, positive=positive)
    assert data.target.positive == expected
    assert data.y.tolist() == y * 2


def test_empty_cells_alone_are_missing_and_na_text_is_a_category(write):
    path = write("d.csv", "y,c,n\n1,NA,1\n0,null,\n1,NA,3\n")
    data = load(path, missing="impute")
    assert data.frame["c"].tolist() == ["NA", "null", "NA"]
    assert data.missing_counts == {"n": 1}
    assert data.imputed == {"n": 2}


@pytest.mark.parametrize("text, message", [
    ("", "the file is empty"),
    ("y,x\n", "has a header but no data rows"),
    ("y,x,x\n1,2,3\n", "column 'x' appears twice"),
    ("y,x\n1,2\n0,3,4\n", "line 3 has 3 cells, the header has 2"),
    ("y,x\n1,2\n0,inf\n", "column 'x' holds 'inf' on line 3"),
    ("y,x\n1,-inf\n0,2\n", "column 'x' holds '-inf' on line 2"),
    ("y,x\n1,nan\n0,2\n", "column 'x' holds 'nan'"),
    ("y,x\n1,1\n1,2\n", "holds one class only ('1')"),
    ("y,x\n1,1\n0,2\n2,3\n", "holds 3 classes ('1', '0', '2'); name the positive one with --positive (--positive 1: "
     "'1' against the others, which are then the negative class)"),
    ("y,x\nyes,1\nno,2\n", "say which is positive with --positive yes or --positive no"),
    ("y,x\n1,1\n,2\n0,1\n", "target column 'y' has 1 missing values (first on line 3); every row needs a label: leave "
     "the rows without one out of the file"),
    ("y\n1\n0\n", "no feature columns"),
    ("y,score\n1,1\n0,2\n", "column 'score' clashes"),
])
def test_bad_data_is_refused_in_one_line_naming_the_problem(write, text, message):
    path = write("bad.csv", text)
    with pytest.raises(DataError) as err:
        load(path)
    assert message in str(err.value)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_empty_cells_are_refused_under_missing_null(write):
    path = write("d.csv", "y,x\n1,1\n0,\n")
    with pytest.raises(DataError, match="column 'x' has 1 missing values; use --missing drop"):
        load(path, missing="null")


def test_empty_cells_are_kept_under_missing_unmet_the_default(write):
    path = write("d.csv", "y,x,c\n1,1,a\n0,,b\n1,3,\n")
    data = load(path)
    assert data.policy == "unmet" and data.missing_counts == {"x": 1, "c": 1}
    assert np.isnan(data.frame["x"][1]) and data.frame["c"][2] is None
    assert data.inputs[1].categories == ("a", "b") and not data.imputed and not data.dropped_rows


def test_missing_file_and_unknown_target_suggest_a_fix(write, tmp_path):
    with pytest.raises(DataError, match="no such file"):
        read_table(str(tmp_path / "nope.csv"))
    path = write("d.csv", "Outcome,x\n1,1\n0,2\n")
    with pytest.raises(DataError, match="no column 'outcom'; did you mean 'Outcome'"):
        load(path, "outcom")


def test_positive_must_be_a_value_of_the_target(write):
    path = write("d.csv", "y,x\nyes,1\nno,2\n")
    with pytest.raises(DataError, match=r"--positive 'maybe' is not a value of column 'y' \(it holds 'yes' and 'no'\)"):
        load(path, positive="maybe")
    # IBM's churn file writes Yes/No: the value as written is named
    with pytest.raises(DataError, match="it holds 'yes' and 'no'; values are matched as written: --positive yes"):
        load(path, positive="YES")


def test_a_text_value_among_numbers_makes_the_column_categorical_with_a_note(write):
    path = write("d.csv", "y,x\n1,1\n0,2\n1,3\n0,n/a\n")
    data = load(path)
    assert data.inputs[0].type == "categorical"
    assert data.inputs[0].categories == ("1", "2", "3", "n/a")
    assert "'n/a' on line 5 is not a number" in data.notes[0]


def test_a_text_column_with_blank_cells_is_categorical_without_a_note(write):
    """A cause of death, blank for those alive: its filled cells are all text, so no note says
    it is 'read as categorical' as if it were mostly numbers (blanks are neither)."""
    path = write("d.csv", "y,cause,x\n" + "".join(f"{k % 2},{'' if k % 4 else 'Circulatory'},{k % 7}\n" for k in range(40)))
    data = load(path)
    assert data.inputs[0].type == "categorical" and data.notes == ()
    mostly = load(write("e.csv", "y,x\n" + "".join(f"{k % 2},{'' if k % 3 else k}\n" for k in range(30)) + "1,n/a\n"))
    assert mostly.notes == ("column 'x' is read as categorical: 'n/a' on line 32 is not a number (1 of 11 values are "
                            "not)",)


def _rows(n: int, **columns) -> str:
    """A CSV of ``n`` rows: y alternating 1/0, then each column's cells from its function of the row."""
    frame = pd.DataFrame({"y": [k % 2 for k in range(n)]} | {name: [f(k) for k in range(n)] for name, f in columns.items()})
    return frame.to_csv(index=False)


def test_a_column_of_an_identifier_a_date_or_free_text_is_left_out_with_a_note(write):
    """Raw hospital exports hold a patient number and a visit date: one condition per value,
    each met by one row, made thousands of useless columns (a slow problem whose
    cross-validation chose an empty card)."""
    path = write("d.csv", _rows(40, id=lambda k: f"P{1000 + k}", date=lambda k: f"2020-01-{k % 28 + 1:02d}/{k}",
                                ward=lambda k: "AB"[k % 2], half=lambda k: f"x{k}" if k < 20 else "same"))
    data = load(path, missing="impute")
    assert [i.name for i in data.inputs] == ["ward", "half"] and list(data.frame.columns) == ["ward", "half"]
    assert data.notes == tuple(f"column {name!r} is not used: 40 of its 40 values occur in one row only (an identifier, "
                               "a date or free text?), and a condition met by one row tells nothing about the others"
                               for name in ("id", "date"))


def test_row_names_as_r_and_pandas_write_them_are_left_out_with_a_note(write):
    """R's write.csv(x) and pandas' to_csv(path) write the row names first, under an empty name:
    1..n quoted, or 0..n-1. Cut-offs on them would score the order the file was sorted in."""
    frame = pd.DataFrame({"y": [k % 2 for k in range(30)], "age": [20 + (7 * k) % 50 for k in range(30)]})
    r_style = write("r.csv", '"","y","age"\n' + "".join(f'"{k + 1}",{y},{a}\n' for k, (y, a) in
                                                        enumerate(zip(frame["y"], frame["age"]))))
    pandas_style = write("p.csv", frame.to_csv())
    for path, first in ((r_style, 1), (pandas_style, 0)):
        data = load(path)
        assert [i.name for i in data.inputs] == ["age"]
        assert data.notes == (f"the first column, which has no name, is not used: it holds the row numbers {first} to "
                              f"{first + 29}, each once (row names, as R's write.csv and pandas' to_csv write them, or "
                              "a sequential identifier), which tell nothing about a new row",)
    shuffled = frame.assign(id=[(11 * k) % 30 + 1 for k in range(30)])  # 1..30 in another order
    assert [i.name for i in load(write("s.csv", shuffled.to_csv(index=False))).inputs] == ["age"]


def test_numbers_that_are_not_row_numbers_stay_and_a_nameless_column_of_them_is_refused(write):
    """A run not starting at 0 or 1 (years 1990-2019, ages 40-69), a repeated value, a short file:
    data, not row numbers. A nameless column holding them is refused, naming what to do; the
    Python API keeps its columns as given."""
    frame = pd.DataFrame({"y": [k % 2 for k in range(30)], "year": range(1990, 2020),
                          "n": [k + 1 for k in range(29)] + [1]})
    assert [i.name for i in load(write("d.csv", frame.to_csv(index=False))).inputs] == ["year", "n"]
    with pytest.raises(DataError, match="column 1 of the header has no name; name it, or leave it out of the file"):
        load(write("e.csv", frame.set_index("year").to_csv().replace("year", "", 1)))
    short = pd.DataFrame({"y": [k % 2 for k in range(10)], "a": range(1, 11)})
    assert [i.name for i in load(write("f.csv", short.to_csv(index=False))).inputs] == ["a"]
    assert [i.name for i in prepare(frame.assign(i=range(30)), "y").inputs] == ["year", "n", "i"]


def test_a_column_of_few_rows_or_few_values_of_one_row_stays():
    """Fewer than 20 values of one row each, or values of one row in at most half the rows
    (and every value of a small file): the column stays, each level a condition."""
    few = prepare(pd.DataFrame({"y": [1, 0] * 10, "c": [f"v{k}" for k in range(19)] + ["v0"]}), "y")
    half = prepare(pd.DataFrame({"y": [1, 0] * 20, "c": [f"v{k}" for k in range(20)] + ["w"] * 20}), "y")
    assert [i.name for i in few.inputs] == [i.name for i in half.inputs] == ["c"]
    assert few.notes == half.notes == ()


def test_numbers_with_thousands_separators_are_named_as_such(write):
    repeated = load(write("d.csv", _rows(8, amount=lambda k: ["1,200", "12,500.5"][k % 2], a=lambda k: k % 3)))
    assert repeated.inputs[0].type == "categorical"
    assert repeated.notes == ("column 'amount' is read as categorical; its values look like numbers with thousands "
                              "separators ('1,200'): write them without separators to use it as a number",)
    unique = load(write("e.csv", _rows(30, amount=lambda k: f"{k},{k:03d}", a=lambda k: k % 3)))
    assert [i.name for i in unique.inputs] == ["a"]
    assert unique.notes[0].endswith("; its values look like numbers with thousands separators ('0,000'): write them "
                                    "without separators to use it as a number")


def test_data_of_identifiers_only_is_refused(write):
    with pytest.raises(DataError, match=r"no usable feature columns besides the target 'y' \(column 'id' is not used"):
        load(write("d.csv", _rows(30, id=lambda k: f"P{k}")))


def test_binary_numeric_and_categorical_typing(write):
    path = write("d.csv", "y,b,n,c\n1,0,1.5,a\n0,1,2,b\n1,1,-3,a\n")
    data = load(path)
    assert [i.type for i in data.inputs] == ["binary", "numeric", "categorical"]
    assert data.frame["n"].dtype == np.float64 and data.frame["c"].tolist() == ["a", "b", "a"]


def test_drop_reports_dropped_rows_and_keeps_labels_aligned(write):
    path = write("d.csv", "y,x,c\n1,1,a\n0,,b\n1,3,\n0,4,d\n")
    data = load(path, missing="drop")
    assert data.dropped_rows == 2
    assert data.frame["x"].tolist() == [1.0, 4.0] and data.y.tolist() == [1, -1]
    assert data.missing_counts == {"x": 1, "c": 1}


def test_impute_uses_rounded_median_and_most_frequent_level(write):
    path = write("d.csv", "y,i,f,c\n1,1,0.5,a\n0,2,1.0,b\n1,,,\n0,5,2.0,b\n1,6,3.0,a\n")
    data = load(path, missing="impute")
    assert data.imputed == {"i": 4, "f": 1.5, "c": "a"}  # median(1,2,5,6)=3.5 -> 4; tie a/b -> a
    assert data.frame.loc[2, ["i", "f", "c"]].tolist() == [4.0, 1.5, "a"]
    assert not data.frame.isna().any().any()


def test_a_cross_validation_fold_imputes_from_its_own_training_rows(write):
    """cv fills each fold's gaps from the fold's training rows: the held-out rows never shape
    the value the fold's model imputes (the whole file's median here would be 4)."""
    path = write("d.csv", "y,i,c\n1,1,a\n0,2,b\n1,,\n0,5,b\n1,60,b\n0,,\n")
    data = load(path, missing="impute")
    fit = data.subset(np.array([0, 1, 2, 3])).impute_with()
    assert fit.imputed == {"i": 2, "c": "b"}  # median(1, 2, 5) and the most frequent of a, b, b
    assert fit.frame["i"].tolist() == [1.0, 2.0, 2.0, 5.0]
    test = data.subset(np.array([4, 5])).impute_with(fit.imputed)
    assert test.frame["i"].tolist() == [60.0, 2.0] and test.frame["c"].tolist() == ["b", "b"]


def test_mushroom_raw_missing_stalk_root_needs_a_policy():
    with pytest.raises(DataError, match="'stalk_root' has 2480 missing values"):
        load(SHARED / "mushroom_raw.csv", "poisonous", missing="null")
    assert load(SHARED / "mushroom_raw.csv", "poisonous", missing="drop").dropped_rows == 2480


def test_native_frames_from_the_python_api_are_typed_too():
    df = pd.DataFrame({"y": [True, False, True], "x": [1.0, np.nan, 3.0], "b": [0, 1, 1]})
    data = prepare(df, "y", missing="impute")
    assert data.target.positive == "true" and data.y.tolist() == [1, -1, 1]
    assert [i.type for i in data.inputs] == ["numeric", "binary"] and data.imputed == {"x": 2}


def test_parquet_reads_like_the_same_csv(tmp_path, breastcancer):
    csv_data = load(breastcancer, "Benign")
    pd.read_csv(breastcancer).to_parquet(tmp_path / "b.parquet")
    pq_data = load(tmp_path / "b.parquet", "Benign")
    assert pq_data.frame.equals(csv_data.frame) and (pq_data.y == csv_data.y).all()


def test_a_byte_order_mark_is_not_part_of_the_first_name(tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbfy,x\n1,1\n0,2\n")
    assert load(path).target.name == "y"


@pytest.mark.parametrize("positive", ["1.0", "1", None])
def test_numerically_equal_target_values_are_one_class(write, positive):
    """Issue 12 item 7: "1" and "1.0" rows were two classes, "1.0" silently negative."""
    path = write("t.csv", "y,x\n0,1\n1,2\n1.0,3\n0.0,4\n1.00,5\n")
    data = load(path, positive=positive)
    assert data.target.positive == 1
    assert data.y.tolist() == [-1, 1, 1, -1, 1]


@pytest.mark.parametrize("value", ["1e308", "-1.7976931348623157e308", "1e101"])
def test_a_huge_finite_value_is_refused_naming_file_column_and_value(write, value):
    """Issue 12 item 17: a finite 1e308 ended in numpy overflow warnings and an error about
    golden[2].score, naming neither file, column nor value."""
    path = write("t.csv", f"y,x\n0,1\n1,2\n0,{value}\n")
    with pytest.raises(DataError) as err:
        load(path)
    assert f"t.csv: column 'x' holds '{value}' on line 4, beyond the largest magnitude" in str(err.value)


def test_values_up_to_the_largest_magnitude_are_numbers(write):
    data = load(write("t.csv", "y,x\n0,1\n1,-1e100\n"))
    assert data.frame["x"].tolist() == [1.0, -1e100]


@pytest.mark.parametrize("text, message", [
    ("y,a\x00b\n1,1\n0,2\n", "bad.csv: column 'a\\x00b': its name holds a NUL character (U+0000)"),
    ("y,c\n1,red\n0,r\x00ed\n1,blue\n", "bad.csv: column 'c' holds 'r\\x00ed' on line 3, which holds a NUL character"),
])
def test_a_nul_character_in_a_name_or_category_is_refused_at_training(write, text, message):
    """Issue 12, item 20: every later command refuses such a name, so training does first."""
    path = write("bad.csv", text)
    with pytest.raises(DataError) as err:
        load(path)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_nul_character_is_refused_in_frames_of_the_python_api_too():
    with pytest.raises(DataError, match="column 'c' holds 'x\\\\x00' on row 0"):
        prepare(pd.DataFrame({"y": [1, 0], "c": ["x\x00", "z"]}), "y", source="frame")


TRAINING_CELLS = [*READ, "1_0", "١", " 7 ", "\x1c7\x1f", "Infinity", "-nan", "1e-400", "0x1p3", "+.5", "5.", "1" * 400]


@pytest.mark.parametrize("cell", TRAINING_CELLS)
def test_a_cell_is_a_number_in_training_exactly_when_python_reads_it_as_one(write, cell):
    """pyarrow types the columns; the rule stays Python's reading of the stripped cell
    (int(), then float()): the same value, or categorical, or a refusal of a non-finite one."""
    path = write("t.csv", "y,x\n1,1\n0," + cell.replace('"', '""').join('""') + "\n1,2\n")
    text = cell.strip()
    if text == "":
        assert load(path).frame["x"].isna().tolist() == [False, True, False]
        return
    try:
        expected = float(int(text))
    except OverflowError:
        expected = float(text)
    except ValueError:
        try:
            expected = float(text)
        except ValueError:
            expected = None
    if expected is not None and not np.isfinite(expected):
        with pytest.raises(DataError, match="is not a finite number|beyond the largest magnitude"):
            load(path)
        return
    data = load(path)
    if expected is None:
        assert data.inputs[0].type == "categorical" and data.frame["x"].tolist()[1] == cell
    else:
        assert data.inputs[0].type != "categorical" and data.frame["x"].tolist()[1] == expected


@pytest.mark.parametrize("name", ["adult.csv", "mushroom_raw.csv", "heart.csv", "spambase.csv", "bankruptcy.csv"])
def test_every_dataset_reads_as_its_text_read_by_pandas(name):
    """The columnar reader gives the frame the Python API gives for the same cells as text."""
    path = SHARED / name
    text = pd.read_csv(path, dtype=str, keep_default_na=False)
    target = text.columns[0]
    a, b = prepare(read_table(str(path)), target), prepare(text, target)
    assert a.frame.equals(b.frame) and (a.y == b.y).all() and a.inputs == b.inputs and a.notes == b.notes


def test_parquet_categorical_and_boolean_columns_read_as_their_text(tmp_path):
    frame = pd.DataFrame({"y": [1, 0, 1, 0], "c": pd.Categorical(["a", "b", None, "a"]), "b": [True, False, True, None],
                          "n": pd.array([1, None, 3, 2**60], dtype="Int64")})
    frame.to_parquet(tmp_path / "t.parquet")
    data = prepare(read_table(str(tmp_path / "t.parquet")), "y")
    assert data.frame["c"].tolist() == ["a", "b", None, "a"] and data.frame["b"].tolist() == ["true", "false", "true", None]
    assert data.frame["n"].tolist()[3] == float(2**60) and np.isnan(data.frame["n"].tolist()[1])


def test_streamed_csv_text_columns_read_their_numbers_as_prepare_reads_each_cell():
    """data/stream.py's row-group reader: a CSV column of texts (padded, blank, exponents) gets
    the doubles prepare's per-cell reading gives, plain numbers too (read without trimming),
    a column with a word is left to that reading, and a "nan" cell is refused, not missing."""
    import pyarrow as pa
    from scorecard.trainer.data.prepare import _number
    from scorecard.trainer.data.stream import _numbers

    padded = ["1.5", " 2\t", "", "  ", "-3e2", "0.1", "7", "+.25", "1E-7", "\u20034\u2003", "12345678901234567891"]
    for cells in (padded, [c.strip() for c in padded if c.strip()]):
        values = _numbers(pa.array(cells, pa.string()), "x", "f.csv (rows from 1)")
        expected = [np.nan if not c.strip() else _number(c.strip()) for c in cells]
        assert values.tolist() == pytest.approx(expected, nan_ok=True, rel=0, abs=0)
        assert values.dtype == np.float64 and [v.hex() for v in values.tolist() if v == v] == \
            [float(e).hex() for e in expected if e == e]
    assert _numbers(pa.array(["1", "high", ""]), "x", "f.csv (rows from 1)") is None
    big = _numbers(pa.array([2**60 + 1, None, 3], pa.int64()), "n", "f.parquet (rows from 1)")  # Parquet integers
    assert big[0] == float(2**60 + 1) and np.isnan(big[1]) and big[2] == 3.0
    with pytest.raises(DataError, match="f.csv \\(rows from 1\\): column 'x' holds 'nan' on row 1, which is not a finite"):
        _numbers(pa.array(["1", "nan", ""]), "x", "f.csv (rows from 1)")


def test_a_target_of_three_values_is_the_positive_one_against_the_rest(write):
    """pbc's status (0 censored, 1 transplant, 2 dead) with --positive 2: dead against the
    others, said in a note and kept in the target; a --positive none of them is refused."""
    data = load(write("d.csv", "y,x\n0,1\n1,2\n2,3\n2,4\n"), positive=2)
    assert data.y.tolist() == [-1, -1, 1, 1]
    assert data.target == Target("y", 2, rest=True)
    assert data.notes[0] == "target column 'y' holds 3 classes: '2' is the positive class and the other 2 ('0', '1') the negative one"
    two = load(write("e.csv", "y,x\n0,1\n2,3\n"), positive=2)
    assert two.target == Target("y", 2) and not two.target.rest and not two.notes
    with pytest.raises(DataError, match=r"holds 3 classes \('0', '1', '2'\) \(--positive 3 is none of them\); name "
                                        r"the positive one with --positive"):
        load(write("f.csv", "y,x\n0,1\n1,2\n2,3\n"), positive=3)
