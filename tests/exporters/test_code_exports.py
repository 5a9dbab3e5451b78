"""Every code export, run in its real engine outside the project, gives exactly the runtime's
score and prediction on every row of the real datasets (breastcancer, mushroom_raw with its
missing stalk_root, heart and spambase with float scores, an M-of-N table, an imputing model).
"""
from __future__ import annotations

import csv
import io
import math

import numpy as np
import onnx
import pytest
from code_engines import (
    call_export,
    create_table,
    import_and_score,
    onnx_feeds,
    onnx_results,
    run_python_export,
    run_sql,
)
from code_models import (
    DATASETS,
    breastcancer_model,
    case_rows,
    heart_model,
    mushroom_model,
    read_rows,
)
from scorecard.exporters import onnx as onnx_export
from scorecard.exporters import python as python_export
from scorecard.exporters import sql as sql_export
from scorecard.runtime import Input, Model, Target, Term, predict, score, score_csv


def expected(model, rows) -> list[tuple]:
    return [(score(model, r), predict(model, r)) for r in rows]


BATCH = """{"score_columns": module.score_columns(columns), "predict_columns": module.predict_columns(columns),
 "score_rows": module.score_rows(rows), "predict_rows": module.predict_rows(iter(rows)),
 "tuples": module.score_columns({k: tuple(v) for k, v in columns.items()}),
 "one_by_one": [module.score(r) for r in rows]}"""


def batch_scores(path, rows: list[dict]) -> dict[str, list]:
    """The exported file's batch functions on ``rows`` (as columns, as row dicts, as tuples)."""
    return call_export(path, rows, BATCH)


def typed_values(rows: list[dict]) -> list[dict]:
    """Rows as a program holds them: ints, floats, text, None for blanks."""
    out = []
    for r in rows:
        typed = {}
        for k, v in r.items():
            try:
                typed[k] = int(v)
            except ValueError:
                try:
                    typed[k] = float(v)
                except ValueError:
                    typed[k] = v if v else None
        out.append(typed)
    return out


def same(got: list, want: list) -> bool:
    """Equal scores of the same type (int stays int, float stays float; None is None)."""
    return len(got) == len(want) and all(type(g) is type(w) and g == w for g, w in zip(got, want))


def runtime_table(model, data: str) -> str:
    out = io.StringIO()
    with open(DATASETS / data, newline="", encoding="utf-8") as fh:
        score_csv(model, fh, out)
    return out.getvalue()


# ---------------------------------------------------------------------------- python


def test_python_file_prints_what_scorecard_predict_prints(case, tmp_path):
    name, model, data = case
    path = tmp_path / "model.py"
    path.write_text(python_export.render(model), encoding="utf-8")
    done = run_python_export(path, DATASETS / data)
    assert done.returncode == 0, done.stderr
    assert done.stdout == runtime_table(model, data)  # byte for byte: same scores, same formatting
    if name == "mushroom":
        assert done.stderr == "2480 of 8124 rows have no score (missing values)\n"


def test_python_file_reads_a_csv_with_a_byte_order_mark_like_the_runtime(tmp_path):
    """Issue 12, item 19: a BOM (as Excel writes) is not part of the first column's name."""
    model = breastcancer_model()
    path, data = tmp_path / "model.py", tmp_path / "bom.csv"
    path.write_text(python_export.render(model), encoding="utf-8")
    data.write_bytes(b"\xef\xbb\xbf" + (DATASETS / "breastcancer.csv").read_bytes())
    done = run_python_export(path, data)
    assert done.returncode == 0, done.stderr
    assert done.stdout == runtime_table(model, "breastcancer.csv")


def test_python_score_and_predict_take_typed_values_like_the_runtime(case, tmp_path):
    name, model, data = case
    path = tmp_path / "model.py"
    path.write_text(python_export.render(model), encoding="utf-8")
    rows = []
    for r in read_rows(data)[:300]:
        typed = {}
        for k, v in r.items():
            try:
                typed[k] = int(v)
            except ValueError:
                try:
                    typed[k] = float(v)
                except ValueError:
                    typed[k] = v if v else None
        rows.append(typed)
    rows[0] = {k: (math.nan if isinstance(v, float) else v) for k, v in rows[0].items()}
    assert import_and_score(path, rows) == expected(model, rows)


def test_python_batch_functions_give_the_runtimes_scores_on_every_row(case, tmp_path):
    """score_columns / predict_columns / score_rows / predict_rows on every row of the data,
    as CSV text and as typed values (plain int columns take the fast path, others are read
    value by value), equal to the runtime's in value and type."""
    name, model, data = case
    path = tmp_path / "model.py"
    path.write_text(python_export.render(model), encoding="utf-8")
    text_rows = case_rows(model, data)
    for rows in (text_rows, typed_values(text_rows)):
        want = expected(model, rows)
        got = batch_scores(path, rows)
        for key in ("score_columns", "score_rows", "tuples", "one_by_one"):
            assert same(got[key], [s for s, _ in want]), key
        for key in ("predict_columns", "predict_rows"):
            assert got[key] == [p for _, p in want], key
    if name == "breastcancer":
        assert all(type(s) is int for s in got["score_columns"])


def test_python_batch_missing_values_and_non_integral_inputs(tmp_path):
    """A None, NaN, blank or absent value gives that row None and leaves the other rows alone;
    integral floats read as ints, other floats stay floats; an imputing model fills in."""
    from test_code_missing import numeric_impute

    for model in (breastcancer_model(), numeric_impute()):
        path = tmp_path / "model.py"
        path.write_text(python_export.render(model), encoding="utf-8")
        namespace: dict = {}
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
        size = [3, 3.0, 2.5, "4", " 7 ", 1, 2, True, 10**20, -0.0, 5, 6]
        bare = [1, None, 2, 3, math.nan, "", "  ", 4.0, 1, 0.0, 2.25, 1e300]
        rows = [{"UniformityOfCellSize": a, "BareNuclei": b} for a, b in zip(size, bare)]
        want = [score(model, r) for r in rows]
        columns = {"UniformityOfCellSize": size, "BareNuclei": bare}
        assert same(namespace["score_columns"](columns), want)
        assert same(namespace["score_rows"](rows), want)
        assert namespace["predict_columns"](columns) == [predict(model, r) for r in rows]
        absent = namespace["score_columns"]({"UniformityOfCellSize": size})
        assert same(absent, [score(model, {"UniformityOfCellSize": a}) for a in size])
        ints = {"UniformityOfCellSize": [1, 2, 3, -7], "BareNuclei": [4, 5, True, 2**70]}  # the fast path
        assert same(namespace["score_columns"](ints), [score(model, {k: v[i] for k, v in ints.items()})
                                                       for i in range(4)])
        assert namespace["score_columns"]({}) == [] and namespace["score_rows"]([]) == []


def test_python_batch_fast_path_takes_only_ints_in_linear_columns():
    """In an integer model, score_columns uses a column read only by linear terms without
    checking it first, and adds the intercept last: every value there that is not an int
    (Decimal, Fraction, NumPy scalars, floats, NaN, text, None) must still give the runtime's
    score, type and error, with an intercept or without one (where "x" + "y" adds up), a first
    term of -1 points too."""
    import decimal
    import fractions

    inputs = (Input("a", "numeric"), Input("b", "numeric"), Input("c", "numeric"))
    terms = (Term("a", "linear", None, 2, "2 a"), Term("b", "linear", None, -1, "-b"),
             Term("c", ">=", 3, 4, "c >= 3"), Term("b", "linear", None, 1, "b"))
    odd = [7, True, 2.0, 2.5, decimal.Decimal("3"), fractions.Fraction(7, 2), np.int64(4), np.float64(6.0),
           np.float64("nan"), math.nan, None, " 8 ", "", np.bool_(True), 10**30, -(10**30)]
    for intercept, order in ((-5, terms), (0, terms[1:] + terms[:1])):
        model = Model(kind="linear", target=Target("y", 1), inputs=inputs, terms=order, intercept=intercept)
        namespace: dict = {}
        exec(compile(python_export.render(model), "model.py", "exec"), namespace)
        score_columns, RowError = namespace["score_columns"], namespace["RowError"]
        for column in ("a", "b"):
            columns = {"a": [1] * len(odd), "b": [2] * len(odd), "c": list(range(len(odd)))}
            columns[column] = odd
            rows = [{k: v[i] for k, v in columns.items()} for i in range(len(odd))]
            assert same(score_columns(columns), [score(model, r) for r in rows]), (intercept, column)
            with pytest.raises(RowError, match=f"row 1: column '{column}': 'x' is not a number"):
                score_columns({"a": [1, 1, 1], "b": [2, 2, 2], "c": [0, 1, 2], column: [4, "x", 5]})
        with pytest.raises(RowError, match="row 0: column 'a': 'x' is not a number"):
            score_columns({"a": ["x"], "b": ["y"], "c": [1]})
        # a compared column is checked first: floats, NaN and infinities there are read, not compared as they are
        got = score_columns({"a": [1, 1, 1, 1], "b": [2, 2, 2, 2], "c": [3.0, 2.5, math.nan, 4]})
        assert same(got, [score(model, {"a": 1, "b": 2, "c": c}) for c in (3.0, 2.5, math.nan, 4)])
        with pytest.raises(RowError, match="row 0: column 'c'"):
            score_columns({"a": [1], "b": [2], "c": [math.inf]})
        ints = {"a": [-7, 0, 3, 10**20], "b": [2, -300, True, 5], "c": [3, 2, -1, 10]}  # the fast path
        assert same(score_columns(ints), [score(model, {k: v[i] for k, v in ints.items()}) for i in range(4)])
    plain = Model(kind="linear", target=Target("y", 1), inputs=inputs[:2], intercept=0,
                  terms=(Term("a", "linear", None, 1, "a"), Term("b", "linear", None, 1, "b")))
    namespace = {}
    exec(compile(python_export.render(plain), "model.py", "exec"), namespace)
    with pytest.raises(namespace["RowError"], match="row 0: column 'a': 'x' is not a number"):
        namespace["score_columns"]({"a": ["x"], "b": ["y"]})  # x0 + x1 is "xy": text, not a score


def test_python_batch_errors_are_the_rows_errors(tmp_path):
    """A value the model cannot read raises RowError naming the first such row, unless the row
    already lacks an earlier input (score(row) returns None before reading the value)."""
    namespace: dict = {}
    exec(compile(python_export.render(breastcancer_model()), "model.py", "exec"), namespace)
    score_columns, RowError = namespace["score_columns"], namespace["RowError"]
    with pytest.raises(RowError, match=r"row 2: column 'BareNuclei': 'abc' is not a number"):
        score_columns({"UniformityOfCellSize": [1, 2, 3, "x"], "BareNuclei": [1, 2, "abc", 4]})
    # row 0's bad BareNuclei comes after its missing UniformityOfCellSize: no score, no error
    assert score_columns({"UniformityOfCellSize": [None, 2], "BareNuclei": ["abc", 1]}) == [
        None, score(breastcancer_model(), {"UniformityOfCellSize": 2, "BareNuclei": 1})]
    assert score(breastcancer_model(), {"UniformityOfCellSize": None, "BareNuclei": "abc"}) is None
    with pytest.raises(RowError, match="row 0: column 'UniformityOfCellSize'"):
        score_columns({"UniformityOfCellSize": [math.inf, 2], "BareNuclei": [None, 1]})
    with pytest.raises(RowError, match="different lengths"):
        score_columns({"UniformityOfCellSize": [1, 2], "BareNuclei": [1]})


# ---------------------------------------------------------------------------- sql


def test_sql_query_gives_the_runtimes_scores_on_every_row(case, engine):
    name, model, data = case
    eng, con = engine
    rows = case_rows(model, data)
    create_table(eng, con, rows)
    got = run_sql(eng, con, sql_export.render(model, dialect=eng))
    assert list(got[0]) == list(rows[0]) + ["score", "prediction"]
    assert [(g["score"], g["prediction"]) for g in got] == expected(model, rows)
    if name == "breastcancer":
        assert all(isinstance(g["score"], int) for g in got)  # integer model, integer data: integer scores


@pytest.mark.parametrize("build,data", [(breastcancer_model, "breastcancer.csv"), (heart_model, "heart.csv"),
                                        (mushroom_model, "mushroom_raw.csv")])
def test_ansi_sql_runs_unchanged_in_every_engine(build, data, engine):
    eng, con = engine
    model, rows = build(), read_rows(data)
    create_table(eng, con, rows)
    got = run_sql(eng, con, sql_export.render(model, dialect="ansi"))
    assert [(g["score"], g["prediction"]) for g in got] == expected(model, rows)


def test_sql_table_and_view_options(engine):
    eng, con = engine
    model, rows = heart_model(), read_rows("heart.csv")
    create_table(eng, con, rows, table="Heart patients 2024")
    con.execute(sql_export.render(model, dialect=eng, table="Heart patients 2024", view="scored hearts"))
    got = run_sql(eng, con, 'SELECT * FROM "scored hearts"')
    assert [(g["score"], g["prediction"]) for g in got] == expected(model, rows)


def test_columns_in_another_order_give_identical_results(engine, tmp_path):
    eng, con = engine
    model = heart_model()
    rows = [dict(reversed(list(r.items()))) for r in read_rows("heart.csv")]
    create_table(eng, con, rows)
    got = run_sql(eng, con, sql_export.render(model, dialect=eng))
    assert list(got[0])[:2] == list(rows[0])[:2]
    assert [(g["score"], g["prediction"]) for g in got] == expected(model, rows)
    data = tmp_path / "reversed.csv"
    with open(data, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    path = tmp_path / "model.py"
    path.write_text(python_export.render(model), encoding="utf-8")
    done = run_python_export(path, data)
    scored = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [(float(s["score"]), int(s["prediction"])) for s in scored] == expected(model, rows)


# ---------------------------------------------------------------------------- onnx


def test_onnx_gives_the_runtimes_scores_on_every_row(case):
    name, model, data = case
    rows = case_rows(model, data)
    assert onnx_results(onnx_export.render(model), onnx_feeds(model, rows)) == expected(model, rows)


def test_onnx_signature_is_the_models_inputs_and_passes_the_full_checker(case):
    name, model, data = case
    proto = onnx.load_from_string(onnx_export.render(model))
    onnx.checker.check_model(proto, full_check=True)
    assert [(o.domain, o.version) for o in proto.opset_import] == [("", onnx_export.OPSET)]
    graph_inputs = {i.name: i.type.tensor_type for i in proto.graph.input}
    assert list(graph_inputs) == [i.name for i in model.inputs]
    for inp in model.inputs:
        want = onnx.TensorProto.STRING if inp.type == "categorical" else onnx.TensorProto.DOUBLE
        assert graph_inputs[inp.name].elem_type == want
        assert [d.dim_param for d in graph_inputs[inp.name].shape.dim] == ["N"]
    assert [o.name for o in proto.graph.output] == ["score", "prediction"]


def test_onnx_zero_scores_keep_the_runtimes_sign():
    """A failed condition adds Cast(False) * points, -0.0 for negative points, where the runtime
    adds an int 0: zero scores still carry the runtime's sign bit, also for an intercept of
    -0.0 (the one case that keeps Where)."""
    values = [0.0, -0.0, 2.0, -1.0, 1.0]
    for intercept in (0, 0.0, -0.0, 2.5, -1):
        model = Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"), Input("b", "numeric")),
                      terms=(Term("a", ">=", 1, -2.5, "a high"), Term("b", "linear", None, -1.5, "b"),
                             Term("a", "<", -0.5, -1, "a low"), Term("a", "linear", None, 1, "a")),
                      intercept=intercept)
        rows = [{"a": a, "b": b} for a in values for b in values]
        session_scores = onnx_results(onnx_export.render(model), {
            "a": np.array([r["a"] for r in rows], dtype=np.float64),
            "b": np.array([r["b"] for r in rows], dtype=np.float64)})
        want = [float(score(model, r)) for r in rows]
        got = [s for s, _ in session_scores]
        assert got == want
        assert [math.copysign(1, g) for g in got] == [math.copysign(1, w) for w in want], intercept
