"""``--onnx-input matrix``: the numeric inputs stacked in one double [N, k] input, in the order
the metadata states, scored in onnxruntime to the runtime's bit on every row: integer models of
conditions through Gemm/MatMul, anything else (linear terms, whose values may be fractions or
beyond the model's integer range; fractional points) through the terms in the model's order."""
from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from code_models import CASES, breastcancer_model, case_rows, mushroom_model
from scorecard.exporters import onnx as onnx_export
from scorecard.exporters import verify as verify_module
from scorecard.runtime import Input, Model, Target, Term, predict, score
from test_code_hostile import hostile_model, hostile_rows
from test_probability import CASES as RISK_CASES


def check(model: Model, rows: list[dict]) -> verify_module.FormatCheck:
    return verify_module.check_onnx(model, verify_module.cases_for(model, rows), "matrix")


def run(model: Model, matrix: list[list[float]], **text: list[str]) -> list[tuple]:
    """(score, prediction) per row from the matrix-input graph, NaN as None."""
    name, _ = onnx_export.matrix_columns(model)
    session = ort.InferenceSession(onnx_export.render(model, "matrix"), providers=["CPUExecutionProvider"])
    feeds = {name: np.array(matrix, dtype=np.float64).reshape(len(matrix), -1)}
    feeds.update({k: np.array(v, dtype=object) for k, v in text.items()})
    out = session.run(["score", "prediction"], feeds)
    return [tuple(None if math.isnan(v) else v for v in row) for row in zip(*out)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_model_scores_like_the_runtime_on_every_row(name):
    build, data = CASES[name]
    model = build()
    result = check(model, case_rows(model, data))
    assert result.ok and result.rows > 300, result.line()


@pytest.mark.parametrize("name", sorted(RISK_CASES))
def test_the_risk_is_the_runtimes(name):
    model, data = RISK_CASES[name]
    assert check(model, case_rows(model, data)).ok


def test_the_signature_is_one_double_matrix_in_the_stated_order_and_named_text_inputs():
    model = Model(kind="linear", target=Target("y", 1),
                  inputs=(Input("b", "numeric"), Input("colour", "categorical"), Input("a", "binary"),
                          Input("unused", "numeric")),
                  terms=(Term("a", "==", 1, 2, "a"), Term("colour", "==", "red", 1, "red"), Term("b", ">=", 3, 1, "b")),
                  intercept=-2)
    proto = onnx.load_from_string(onnx_export.render(model, "matrix"))
    onnx.checker.check_model(proto, full_check=True)
    inputs = {i.name: i.type.tensor_type for i in proto.graph.input}
    assert list(inputs) == ["features", "colour"]
    assert inputs["features"].elem_type == onnx.TensorProto.DOUBLE
    assert [d.dim_param or d.dim_value for d in inputs["features"].shape.dim] == ["N", 2]
    meta = {p.key: p.value for p in proto.metadata_props}
    assert json.loads(meta["matrix_columns"]) == ["b", "a"] and json.loads(meta["matrix_input"]) == "features"
    rows = [{"b": b, "a": a, "colour": c} for b in (0, 3, 7) for a in (0, 1) for c in ("red", "blue")]
    assert run(model, [[r["b"], r["a"]] for r in rows], colour=[r["colour"] for r in rows]) == \
        [(score(model, r), predict(model, r)) for r in rows]


def test_an_integer_model_is_matmuls_not_one_node_per_term():
    terms = tuple(Term(f"x{k}", ">=", k % 5 + 0.5, k % 3 + 1, f"x{k}") for k in range(40))
    model = Model(kind="linear", target=Target("y", 1), inputs=tuple(Input(f"x{k}", "numeric") for k in range(40)),
                  terms=terms, intercept=-30)
    matrix = [n.op_type for n in onnx_export.build(model, "matrix").graph.node]
    columns = [n.op_type for n in onnx_export.build(model).graph.node]
    assert "Gemm" in matrix and len(matrix) < 10 < 80 < len(columns)
    data = np.random.default_rng(3).integers(0, 7, size=(200, 40)).astype(float) / 2
    rows = [{f"x{k}": v for k, v in enumerate(r)} for r in data.tolist()]
    assert run(model, data.tolist()) == [(score(model, r), predict(model, r)) for r in rows]


def test_linear_terms_add_in_the_models_order_whatever_their_values():
    """MatMul adds in its own order, which could change the double (0.1 + 0.2 ..., values
    beyond the model's integer range): a model with linear terms is scored term by term."""
    model = dataclasses.replace(breastcancer_model(), intercept=-8)
    batches = [[[0.1, 0.2], [0.7, 1e16 + 2], [3, 4]],  # fractional, beyond the integer range
               [[2**52, 2**52], [5, 3]],                  # integral, but a sum no double holds
               [[1, 2], [10, 10]]]
    assert "Split" in [n.op_type for n in onnx_export.build(model, "matrix").graph.node]
    for batch in batches:
        rows = [{"UniformityOfCellSize": a, "BareNuclei": b} for a, b in batch]
        assert run(model, batch) == [(score(model, r), predict(model, r)) for r in rows]


def test_missing_values_under_each_policy():
    model = Model(kind="linear", target=Target("y", 1),
                  inputs=(Input("n", "numeric"), Input("k", "numeric"), Input("c", "categorical")),
                  terms=(Term("n", "linear", None, 2, "2 n"), Term("k", ">=", 3, 4, "k >= 3"), Term("k", "<", 1, -1, "k < 1"),
                         Term("k", "==", 2, 5, "k = 2"), Term("c", "==", "x", 3, "c = x")),
                  intercept=-4)
    grid = [(n, k, c) for n in (1, 2.5, None) for k in (0, 1, 2, 3, math.nextafter(3, 0), None)
            for c in ("x", "y", " ", "")]
    rows = [{"n": n, "k": k, "c": c} for n, k, c in grid]
    unknown_k = Term("k", "missing", None, 7, "k unknown")
    # imputing only n (a linear term's input) or only k: the other's NaN still leaves its row without a score
    for policy in ("null", "unmet", {"impute": {"n": 3, "k": 2, "c": "x"}}, {"impute": {"n": 3}}, {"impute": {"k": 2}}):
        m = dataclasses.replace(model, missing=policy,
                                terms=model.terms + ((unknown_k,) if policy == "unmet" else ()))
        matrix = [[math.nan if n is None else n, math.nan if k is None else k] for n, k, _ in grid]
        assert run(m, matrix, c=[c for _, _, c in grid]) == [(score(m, r), predict(m, r)) for r in rows], policy


def test_thresholds_a_step_cannot_hold_still_compare_exactly():
    """A threshold of 0 (no power of two is 1 / the gap below it) and values next to each
    threshold."""
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"), Input("b", "numeric")),
                  terms=(Term("a", ">=", 0, 2, "a >= 0"), Term("b", ">=", 1e-310, 1, "tiny"), Term("b", "==", 0.1, 3, "b")),
                  intercept=-1)
    values = [0.0, -0.0, 5e-324, -5e-324, 1e-310, math.nextafter(1e-310, 0), 0.1, math.nextafter(0.1, 1),
              math.nextafter(0.1, 0), -1.0, 1e300]
    batch = [[a, b] for a in values for b in values]
    assert run(model, batch) == [(score(model, {"a": a, "b": b}), predict(model, {"a": a, "b": b})) for a, b in batch]


def test_categorical_only_models_have_an_empty_matrix_and_hostile_names_keep_theirs():
    model = mushroom_model("unmet")
    assert onnx_export.matrix_columns(model) == ("features", [])
    assert check(model, case_rows(model, "mushroom_raw.csv")).ok
    clash = Model(kind="linear", target=Target("y", 1), inputs=(Input("features", "numeric"), Input("x", "numeric")),
                  terms=(Term("features", ">=", 1, 1, "f"), Term("x", "linear", None, 1, "x")), intercept=0)
    assert onnx_export.matrix_columns(clash) == ("_features", ["features", "x"])
    assert check(clash, [{"features": f, "x": x} for f in (0, 1, 2) for x in (0, -1, 3)]).ok
    assert check(hostile_model(), hostile_rows()).ok


def test_a_whole_number_score_is_compared_with_the_threshold_by_a_clip():
    """A card of whole-number points: prediction is Clip(score - floor(threshold), 0, 1), for a
    threshold between two whole numbers, one at 2^53 - 10 (the largest the model file allows
    with these points), NaN for a row without a score; a total of negative points that no row
    meets is 0.0, not -0.0."""
    terms = (Term("a", ">=", 2, -3, "a >= 2"), Term("b", "<", 5, -1, "b < 5"), Term("b", ">=", 7, 4, "b >= 7"))
    grid = [[a, b] for a in (0, 1.5, 2, 3, math.nan) for b in (4, 4.5, 5, 6.9, 7, 9, math.nan)]
    for intercept in (-2.5, 1.5, 0, 3, -(2**53 - 10)):
        model = Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"), Input("b", "numeric")),
                      terms=terms, intercept=intercept)
        nodes = [n.op_type for n in onnx_export.build(model, "matrix").graph.node]
        assert nodes[-2:] == ["Sub", "Clip"] and "Greater" not in nodes
        rows = [{"a": None if math.isnan(a) else a, "b": None if math.isnan(b) else b} for a, b in grid]
        assert run(model, grid) == [(score(model, r), predict(model, r)) for r in rows], intercept
    zero = Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"),),
                 terms=(Term("a", ">=", 2, -3, "a >= 2"),), intercept=0)
    assert [math.copysign(1.0, s) for s, _ in run(zero, [[0.0], [1.0]])] == [1.0, 1.0]
