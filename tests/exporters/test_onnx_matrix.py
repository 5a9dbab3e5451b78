"""``--onnx-input matrix``: the numeric inputs stacked in one double [N, k] input, in the order
the metadata states, scored in onnxruntime to the runtime's bit on every row: integer models of
conditions through Gemm/MatMul, integer models with linear terms too on a batch proven whole and
within range (an ``If``), anything else (a batch with a fraction, a value beyond the model's
integer range or a missing linear value; fractional points) through the terms in the model's
order."""
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
    name, columns = onnx_export.matrix_columns(model)
    session = ort.InferenceSession(onnx_export.render(model, "matrix"), providers=["CPUExecutionProvider"])
    feeds = {name: np.array(matrix, dtype=np.float64).reshape(len(matrix), len(columns))}
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


def _path(node, name: str) -> None:
    """Let the block's ``If`` ``node`` also output the bool scalar ``name``: true where its
    rows take the integer graph, by its own proof or by the proof of the ``If`` in its other
    branch (a second proof over the linear columns themselves)."""
    helper, bool_ = onnx.helper, onnx.TensorProto.BOOL
    then, other = (next(a.g for a in node.attribute if a.name == k) for k in ("then_branch", "else_branch"))
    for branch, out, value in ((then, name + "_then", True), (other, name + "_else", False)):
        inner = next((n for n in branch.node if n.op_type == "If"), None) if branch is other else None
        if inner is None:
            branch.node.append(helper.make_node("Constant", [], [out], value=helper.make_tensor(out, bool_, [], [value])))
        else:
            _path(inner, out)
        branch.output.append(helper.make_tensor_value_info(out, bool_, []))
    node.output.append(name)


def taken(model: Model, matrix: list[list[float]]) -> list[bool]:
    """Which blocks of rows take the integer graph of a model with linear terms (the proof that
    every linear value of the block is whole and within range), read as one more output of the
    exported graph: of the one block of a short batch, or of each block of the ``Loop`` over a
    longer one."""
    helper, bool_ = onnx.helper, onnx.TensorProto.BOOL
    proto = onnx_export.build(model, "matrix")
    top = next(n for n in proto.graph.node if n.op_type == "If")
    one, many = (next(a.g for a in top.attribute if a.name == k) for k in ("then_branch", "else_branch"))
    _path(next(n for n in one.node if n.op_type == "If"), "path_one")
    proto.graph.initializer.append(helper.make_tensor("proof_axis", onnx.TensorProto.INT64, [1], [0]))
    one.node.append(helper.make_node("Unsqueeze", ["path_one", "proof_axis"], ["proof_one"]))
    one.output.append(helper.make_tensor_value_info("proof_one", bool_, None))
    loop = next(n for n in many.node if n.op_type == "Loop")
    body = next(a.g for a in loop.attribute if a.name == "body")
    _path(next(n for n in body.node if n.op_type == "If"), "path_block")
    body.output.append(helper.make_tensor_value_info("path_block", bool_, []))
    loop.output.append("proof_many")
    many.output.append(helper.make_tensor_value_info("proof_many", bool_, None))
    top.output.append("proofs")
    proto.graph.output.append(helper.make_tensor_value_info("proofs", bool_, None))
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    name, columns = onnx_export.matrix_columns(model)
    feed = np.array(matrix, dtype=np.float64).reshape(len(matrix), len(columns))
    return [bool(v) for v in session.run(["proofs"], {name: feed})[0]]


def bits(rows: list[tuple]) -> list[tuple]:
    """(score, prediction) with the score as its exact double, -0.0 apart from 0.0."""
    return [(None if s is None else float(s).hex(), p) for s, p in rows]


def runtime(model: Model, matrix: list[list[float]]) -> list[tuple]:
    _, columns = onnx_export.matrix_columns(model)
    rows = [{c: None if isinstance(v, float) and math.isnan(v) else v for c, v in zip(columns, r)} for r in matrix]
    return [(score(model, r), predict(model, r)) for r in rows]


def test_linear_terms_are_one_matmul_on_a_whole_batch_and_the_models_order_on_any_other():
    """MatMul adds in its own order, which changes the double of fractions (0.1 + 0.2 ...) and
    of values beyond the model's integer range: only a batch whose every linear value is a whole
    number within that range takes it, any other the terms in the model's order, and both give
    the runtime's double to the bit (0.0 for a total of -0.0 inputs, as the runtime's int 0)."""
    model = breastcancer_model()  # 2 x UniformityOfCellSize + BareNuclei, intercept -8
    limit = model.int_limits["BareNuclei"]
    nan = math.nan
    batches = [([[1, 2], [10, 10], [-3, 0]], [True]),
               ([[-0.0, 0.0], [0.0, -0.0], [-0.0, -0.0]], [True]),
               ([[limit, -limit], [-limit, limit], [3, 4]], [True]),
               ([[limit + 1, 0], [1, 1]], [False]),                    # whole, but beyond the range: doubles
               ([[0.1, 0.2], [0.7, 1e16 + 2], [3, 4]], [False]),      # fractions
               ([[2**52, 2**52], [5, 3]], [False]),                    # a sum no double holds
               ([[0.5, 1], [-2.25, 4]], [False]),
               ([[1, nan], [2, 3]], [False]),                          # no score for the row missing a value
               ([], [True])]
    for batch, whole in batches:
        assert bits(run(model, batch)) == bits(runtime(model, batch)), batch
        assert taken(model, batch) == whole, batch
    assert taken(model, [[math.inf, 1]]) == [False] and taken(model, [[1, -math.inf]]) == [False]


def test_each_block_of_rows_takes_its_own_graph(monkeypatch):
    """The rows are scored in blocks (onnx_export.BLOCK rows, 65,536 in the export): a fraction
    or a missing value sends its own block to the terms in the model's order, the other blocks
    take the MatMul, and the scores come out in the rows' order."""
    monkeypatch.setattr(onnx_export, "BLOCK", 4)
    model = breastcancer_model()
    batch = [[k % 10, k % 7] for k in range(10)]
    batch[5] = [2.5, 1]
    assert taken(model, batch) == [True, False, True]
    assert bits(run(model, batch)) == bits(runtime(model, batch))
    batch[9] = [math.nan, 1]
    assert taken(model, batch) == [True, False, False]
    assert bits(run(model, batch)) == bits(runtime(model, batch))


def test_batches_mixing_whole_fractional_huge_and_missing_values_score_as_the_runtime(monkeypatch):
    """A model of linear terms on non-adjacent columns (a Gather) and conditions (under "null"
    the conditions' Gemm also carries the linear sum), under each missing-value policy: blocks
    of 4 rows drawn from whole numbers, -0.0, fractions, values at and beyond the integer range,
    2^52 and NaN take either graph, and every row is the runtime's to the bit."""
    monkeypatch.setattr(onnx_export, "BLOCK", 4)
    base = Model(kind="linear", target=Target("y", 1),
                 inputs=(Input("a", "numeric"), Input("b", "numeric"), Input("c", "numeric"), Input("d", "binary")),
                 terms=(Term("a", "linear", None, 2, "2 a"), Term("b", ">=", 3, 4, "b >= 3"),
                        Term("c", "linear", None, -1, "-c"), Term("b", "<", 1.5, -2, "b < 1.5"),
                        Term("d", "linear", None, 3, "3 d"), Term("c", "==", 2, 1, "c = 2")),
                 intercept=-3)
    limit = base.int_limits["a"]
    pool = [0, 1, 2, 3, -4, 7, -0.0, 0.5, -2.25, 1e-300, 0.1, 2**52, 1e16 + 2, limit, -limit, limit + 1,
            2**51 // 6, 2**51 // 6 + 1, math.nan]
    rng = np.random.default_rng(11)
    batch = []
    for _ in range(60):  # half the blocks drawn from whole numbers only (and NaN)
        choices = [0, 1, 2, 3, 4, 5, 6, 18] if rng.random() < 0.5 else range(len(pool))
        batch += [[pool[rng.choice(choices)] for _ in range(4)] for _ in range(4)]
    batch += [[1, 2, 3, 1], [0.5, 2, 3, 1]]  # and a last block of 2 rows
    for policy in ("null", "unmet", {"impute": {"a": 3, "b": 2}}, {"impute": {"c": 0.5, "d": 1}}):
        model = dataclasses.replace(base, missing=policy, terms=base.terms + (
            (Term("b", "missing", None, 5, "b unknown"),) if policy == "unmet" else ()))
        assert bits(run(model, batch)) == bits(runtime(model, batch)), policy
        paths = taken(model, batch)
        assert len(paths) == 61 and set(paths) == {True, False}, policy
    # the sum of whole numbers rides in the steps' Gemm, NaN in a condition's column makes its row NaN;
    # and does not send its block to the model's order
    assert taken(base, [[1, math.nan, 2, 1]]) == [True] and run(base, [[1, math.nan, 2, 1]]) == [(None, None)]
    batch = [[3, 4, 5, 1], [1, math.nan, 2, 1]] * 3
    assert taken(base, batch) == [True, True] and bits(run(base, batch)) == bits(runtime(base, batch))


def test_under_unmet_a_block_without_missing_values_is_scored_by_steps(monkeypatch):
    """Under "unmet" (train's default) a missing value meets no condition, so conditions are
    compared one by one; a block the first proof shows free of NaN (every row's MatMul is a
    number) needs no such care and takes the steps' Gemm, a block with a missing value in a
    condition's column the comparisons, and a missing linear value the model's order: each row
    the runtime's to the bit, the points of a ``missing`` term included."""
    monkeypatch.setattr(onnx_export, "BLOCK", 4)
    model = Model(kind="linear", target=Target("y", 1), missing="unmet",
                  inputs=(Input("a", "numeric"), Input("b", "numeric"), Input("c", "numeric")),
                  terms=(Term("a", "linear", None, 2, "2 a"), Term("b", ">=", 3, 4, "b >= 3"),
                         Term("b", "<", 1.5, -2, "b < 1.5"), Term("b", "missing", None, 5, "b unknown"),
                         Term("c", ">=", 10, 1, "c >= 10")), intercept=-3)
    top = next(n for n in onnx_export.build(model, "matrix").graph.node if n.op_type == "If")
    block = next(a.g for a in top.attribute if a.name == "then_branch")
    first = next(n for n in block.node if n.op_type == "If")
    kinds = {"GreaterOrEqual", "Less", "IsNaN"}
    steps = {n.op_type for n in next(a.g for a in first.attribute if a.name == "then_branch").node}
    again = next(a.g for a in first.attribute if a.name == "else_branch")
    second = next(n for n in again.node if n.op_type == "If")
    compared = {n.op_type for n in next(a.g for a in second.attribute if a.name == "then_branch").node}
    assert not steps & kinds and "Clip" in steps and compared & kinds
    nan = math.nan
    batch = [[1, 0, 12], [2, 3, 9], [-1, 1, 10], [0, 2, 0],          # whole, nothing missing: steps
             [1, nan, 12], [2, 3, nan], [3, 0, 10], [4, 5, 1],       # missing in conditions' columns
             [nan, 1, 1], [1, 1, 1], [2, 2, 2], [3, 3, 3],           # a missing linear value
             [0.5, 4, 11]]                                           # a fraction
    assert taken(model, batch) == [True, True, False, False]
    assert bits(run(model, batch)) == bits(runtime(model, batch))


def test_text_inputs_are_cut_into_the_same_blocks(monkeypatch):
    """A model with a text input beside the matrix: each block of rows reads its own rows of the
    named string input too, under "null" and "unmet" (blank texts and NaN included)."""
    monkeypatch.setattr(onnx_export, "BLOCK", 3)
    base = Model(kind="linear", target=Target("y", 1),
                 inputs=(Input("n", "numeric"), Input("c", "categorical"), Input("k", "numeric")),
                 terms=(Term("n", "linear", None, 2, "2 n"), Term("c", "==", "x", 3, "c = x"),
                        Term("k", ">=", 3, 4, "k >= 3")), intercept=-4)
    grid = [(n, k, c) for n in (1, 2.5, -3) for k in (0, 3, math.nan) for c in ("x", "y", " ")]
    for policy in ("null", "unmet"):
        model = dataclasses.replace(base, missing=policy)
        rows = [{"n": n, "k": None if isinstance(k, float) and math.isnan(k) else k, "c": c} for n, k, c in grid]
        got = run(model, [[n, k] for n, k, _ in grid], c=[c for _, _, c in grid])
        assert bits(got) == bits([(score(model, r), predict(model, r)) for r in rows]), policy


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


def test_under_unmet_a_card_of_cut_offs_is_one_comparison_of_the_whole_matrix():
    """Under "unmet" (train's default) a NaN meets no condition, so the conditions are compared
    with their thresholds, not made steps: one cut-off per column is one comparison of the whole
    matrix, with no Gather (taking 11 columns out cost twice the comparison); a second cut-off
    on a column, a '<', an '==' and an 'unknown' are levels and kinds of their own. Scores are
    the runtime's on rows with NaN anywhere."""
    inputs = tuple(Input(f"x{k}", "numeric") for k in range(6))
    cuts = tuple(Term(f"x{k}", ">=", k + 0.5, k + 1, f"x{k} >= {k + 0.5}") for k in range(6))
    card = Model(kind="linear", target=Target("y", 1), inputs=inputs, terms=cuts, intercept=-5, missing="unmet")
    ops = [n.op_type for n in onnx_export.build(card, "matrix").graph.node]
    assert ops.count("GreaterOrEqual") == 1 and "Gather" not in ops and "Slice" not in ops
    mixed = dataclasses.replace(card, terms=cuts + (
        Term("x0", ">=", 3.5, 2, "x0 >= 3.5"), Term("x1", "<", 0.5, -3, "x1 < 0.5"), Term("x2", "==", 2, 4, "x2 = 2"),
        Term("x3", "missing", None, 5, "x3 unknown")))
    rng = np.random.default_rng(5)
    data = rng.integers(0, 5, (400, 6)).astype(float)
    data[rng.random((400, 6)) < 0.1] = math.nan
    for model in (card, mixed):
        assert bits(run(model, data.tolist())) == bits(runtime(model, data.tolist()))


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
