"""The ``onnx`` export: one ONNX graph (ai.onnx opset 20 only) computing score and prediction.

Graph inputs are the model's inputs, one each, named exactly as the input: shape ``[N]``,
``double`` for numeric and binary inputs (docs/contract.md, "Exports"; double keeps
every integer and every float score the same IEEE value Python computes; float32 would
round them), ``string`` for categorical inputs. Outputs, both ``double [N]``:

- ``score``: the card's points total, each term added to 0 left to right in the model's
  order (so it is bit-for-bit the runtime's score); NaN when the row cannot be scored;
- ``prediction``: 1.0 when the score is > the model's threshold, else 0.0, and NaN when the row cannot be
  scored. ONNX has no integer null, and any integer stand-in (0 or -1) would read as a
  negative; NaN cannot be mistaken for a class;
- ``probability`` (only when the model has a score-to-risk map, ``model.probability``; see
  runtime/risk.py): the risk at the score, NaN when the row cannot be scored. The logistic
  map is the runtime's two-branch formula on ``z = scale * (score - center)``: ``e = Exp(-|z|)``, then
  ``1 / (1 + e)`` where ``z >= 0`` and ``e / (1 + e)`` elsewhere (no overflow; onnxruntime's
  ``Exp`` kernel may differ from C's ``exp`` in the last bits, so ``scorecard verify``
  compares it within 1e-12). A risk table is a binary search in ``log2(rows)`` steps of
  ``Gather`` + ``GreaterOrEqual`` + ``Where`` over the table's scores (padded with -inf in
  front and +inf behind), then a ``Gather`` of its risks: exactly the runtime's double,
  with one [N] tensor per step however long the table.

With ``explain`` K (``export --explain K``) the graph also has the outputs ``reason_1..reason_K``
(``string [N]``) and ``points_1..points_K`` (``double [N]``): runtime/explain.py's reason codes,
ranked by ``TopK`` over the terms' points (``_reasons``).

A missing value is NaN in a numeric input and, in a categorical one, a text that is empty or
only whitespace (what the runtime calls blank: nothing left after ``str.strip()``, matched by
``RegexFullMatch`` over the same characters); under ``{"impute": ...}`` the stated value
replaces it inside the graph. A NaN read by a linear term makes the sum NaN by itself, so only
inputs read through conditions get a test. Under ``"unmet"`` no condition needs one: a
comparison with NaN is false and a blank text equals no category (a condition on a category
that is itself blank is guarded with ``Not(blank)``); a ``missing`` term adds its points where
``IsNaN`` / the blank match holds, and only the inputs of linear terms still make a row NaN.
Opset 20 is the first with ``RegexFullMatch`` (19 the first whose ``Equal`` compares strings);
the graph uses nothing outside the default domain.

Speed. onnxruntime runs one kernel per node, each a pass over the batch, so the time is the
number of passes over double [N] tensors and the speed of each kernel: a condition's points
are ``Cast(condition) * points`` (two fast element-wise kernels; ``Where`` goes through a slow
broadcasting kernel, with scalar or tensor branches), points of 1 and -1 need no ``Mul`` (the
value itself is added or subtracted), the sum starts from a ``ConstantOfShape`` 0 (onnxruntime
drops an ``Add`` of a constant 0, and 0.0 + -0.0 must still give 0.0) and the last node writes
``score`` itself (no ``Identity`` copy). The
NaN of an unscorable row is ``total * (p / p)`` with ``p = Cast(Not(missing))`` (times 1.0, or
0/0), and ``prediction`` is ``Cast(score > threshold) / Cast(score == score)`` (0/0 for NaN): fast
kernels again where ``Where`` would be one slow pass each. The terms are still added one node
at a time in the model's order: a variadic ``Sum`` still makes one pass per input and measured
slower than the chain of ``Add``; a single MatMul over the stacked inputs (what skl2onnx
emits) is exact only on integers, and the run-time test for integral inputs (Floor/compare/
reduce over every value) plus the Concat that stacks the columns cost more than the ordered
adds they replace (benchmarks/RESULTS.md).

``--onnx-input matrix`` (``build(model, "matrix")``): the numeric and binary inputs arrive
already stacked, in one ``double [N, k]`` input in a stated order (:func:`matrix_columns`,
recorded in the metadata), text inputs apart as named ``string [N]`` inputs. There no Concat
is needed, and an integer model of conditions (whole-number points, no linear
term) is scored by a handful of kernels whatever its number of terms (:func:`_matrix_total`):
its numeric conditions as 0/1 steps of one Gemm and one Clip (comparisons under "unmet"),
then one Gemm by their points with the offset of its "<" conditions as C (onnxruntime's
MatMul by a 1-D vector is about 25x slower than by a ``[k, 1]`` column, so the product is by
a column, reshaped to ``[N]``), and as its score is a whole number, ``prediction`` is
``Clip(score - floor(threshold), 0, 1)``: 1.0, 0.0, or NaN for NaN, in two passes where the
general formula takes five. An integer model with linear terms is scored the same way on
rows whose every linear value is a whole number within the range where the runtime adds
Python ints (``model.int_limits``): there the linear sum is exact in any order too, and rides
as one more column of the steps' Gemm (:func:`_steps`). A proof per block of ``BLOCK`` rows
(:func:`_whole_batch`: Clip, Floor, Sub and one ReduceL1 over the linear columns, taken out
of the matrix by a MatMul, and where a NaN elsewhere in the block fails that, by a Slice;
under "unmet" a block that passes the MatMul's proof holds no NaN, so its conditions are
steps) chooses, by an ``If``, between that graph and the terms added one by one in the
model's order (a block with a fraction, a value beyond the range, an infinity or a missing
linear value), and a
``Loop`` runs a long batch block by block (:func:`_by_blocks`), which keeps every
intermediate tensor in the CPU's cache. Fractional points always take the ordered graph (one
Split of the matrix, then the terms as with named inputs): only the model's order gives the
runtime's double there (benchmarks/RESULTS.md has the speeds).
"""
from __future__ import annotations

import dataclasses
import itertools
import json
import math
from typing import Callable

try:
    import onnx
    from onnx import TensorProto, helper
except ImportError:  # the onnx extra is optional: build() says how to get it
    onnx = None

from scorecard.runtime import Input, Model, Term
from scorecard.runtime.explain import check_k, reason_columns, reason_texts
from scorecard.runtime.model import meta_dict
from scorecard.runtime.score import coerce
from scorecard.runtime.table import added_columns

from .registry import ExportError, Exporter, register

OPSET = 20
# RE2 for a text str.strip() empties: any run of the characters str.isspace() accepts.
BLANK = "[" + "".join(f"\\x{{{c:x}}}" for c in range(0x3001) if chr(c).isspace()) + "]*"
IR_VERSION = 9
EXACT = 2**53


class Graph:
    """A growing ONNX graph: nodes, constants (each value stored once) and fresh names that
    never clash with inputs."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = set(taken)
        self.counter = itertools.count()
        self.nodes: list = []
        self.constants: list = []
        self.known: dict[tuple, str] = {}

    def name(self, hint: str) -> str:
        name = f"_{hint}{next(self.counter)}"
        while name in self.taken:
            name = f"_{hint}{next(self.counter)}"
        self.taken.add(name)
        return name

    def op(self, op_type: str, *inputs: str, out: str | None = None, **attrs: object) -> str:
        """Add a node; its output is ``out`` (a graph output) or a fresh name."""
        out = out or self.name(op_type.lower())
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], name=out, **attrs))
        return out

    def double(self, value: int | float) -> str:
        if isinstance(value, int) and abs(value) > EXACT:
            raise ExportError(f"{value} is too large to be exact as a double in ONNX")
        return self._constant("c", TensorProto.DOUBLE, float(value))

    def string(self, value: str) -> str:
        return self._constant("s", TensorProto.STRING, value.encode("utf-8"))

    def int64(self, value: int) -> str:
        return self._constant("i", TensorProto.INT64, value)

    def int64s(self, values: list[int]) -> str:
        """A 1-D int64 constant (the columns ``Gather`` takes)."""
        name = self.name("k")
        self.constants.append(helper.make_tensor(name, TensorProto.INT64, [len(values)], values))
        return name

    def matvec(self, matrix: str, weights: list[float], bias: float | None = None) -> str:
        """``matrix [N, m] @ weights (+ bias)`` as a ``[N]`` tensor: MatMul (Gemm with the bias
        as its C) by a ``[m, 1]`` column, then Reshape (onnxruntime's MatMul by a 1-D vector
        takes a path about 25x slower)."""
        name = self.name("w")
        self.constants.append(helper.make_tensor(name, TensorProto.DOUBLE, [len(weights), 1], weights))
        if bias is None:
            product = self.op("MatMul", matrix, name)
        else:
            c = self.name("bias")
            self.constants.append(helper.make_tensor(c, TensorProto.DOUBLE, [1, 1], [bias]))
            product = self.op("Gemm", matrix, name, c)
        return self.op("Reshape", product, self.int64s([-1]))

    def branch(self, build: Callable[[], list[str]]) -> "onnx.GraphProto":
        """A subgraph (an ``If`` branch) of the nodes ``build`` adds, whose outputs are the double
        [N] tensors it returns; its constants stay in the main graph (outer scope)."""
        outer, self.nodes = self.nodes, []
        outputs = build()
        nodes, self.nodes = self.nodes, outer
        return helper.make_graph(nodes, self.name("branch"), [],
                                 [helper.make_tensor_value_info(n, TensorProto.DOUBLE, ["N"]) for n in outputs])

    def rename(self, old: str, new: str) -> str:
        """Let the node that writes ``old`` write ``new`` instead (a graph output, with no copy)."""
        for node in self.nodes:
            node.output[:] = [new if name == old else name for name in node.output]
            node.input[:] = [new if name == old else name for name in node.input]
        return new

    def doubles(self, values: list[float]) -> str:
        """A 1-D double constant (a lookup table for ``Gather``)."""
        name = self.name("t")
        self.constants.append(helper.make_tensor(name, TensorProto.DOUBLE, [len(values)], values))
        return name

    def _constant(self, hint: str, dtype: int, value: float | bytes | int) -> str:
        key = (dtype, repr(value))
        if key not in self.known:
            self.known[key] = self.name(hint)
            self.constants.append(helper.make_tensor(self.known[key], dtype, [], [value]))
        return self.known[key]


def _value(g: Graph, inp: Input, value: object) -> str:
    if inp.type == "categorical":
        return g.string(str(value))
    return g.double(coerce(inp, value))  # type: ignore[arg-type]


def _term(g: Graph, term: Term, inp: Input, x: str,
          unknown: Callable[[], str] | None = None) -> tuple[str, str]:
    """How the term joins the running total: ``("Add", the points it adds)``, a double [N]
    tensor, or ``("Sub", ...)`` for points of -1. Points of 1 and -1 need no ``Mul``:
    ``t + 1 * v`` is ``t + v`` and ``t + -1 * v`` is ``t - v`` exactly, for every double, NaN
    and signed zeros included.

    ``unknown`` (the "unmet" policy) gives the input's missing mask: a ``missing`` term's
    condition, and the guard of a condition a blank text could meet (a category that is itself
    blank). A NaN meets no ``GreaterOrEqual``, ``Less`` or ``Equal``, so numbers need no guard."""
    unit = term.points in (1, -1)
    join = "Sub" if term.points == -1 else "Add"
    if term.op == "linear":
        return (join, x) if unit else ("Add", g.op("Mul", g.double(term.points), x))
    if term.op == "missing":
        condition = unknown()  # type: ignore[misc]
    elif term.op == "in":
        hits = [g.op("Equal", x, g.string(v)) for v in term.value]  # type: ignore[union-attr]
        condition = hits[0]
        for hit in hits[1:]:
            condition = g.op("Or", condition, hit)
    else:
        op = {">=": "GreaterOrEqual", "<": "Less", "==": "Equal"}[term.op]
        condition = g.op(op, x, _value(g, inp, term.value))
    if term.op != "missing" and unknown is not None and inp.type == "categorical":
        values = term.value if term.op == "in" else (term.value,)
        if any(str(v).strip() == "" for v in values):  # type: ignore[union-attr]
            condition = g.op("And", g.op("Not", unknown()), condition)
    # The runtime adds an int 0 when the condition fails; Cast * points adds 0.0 or -0.0 (for
    # negative points): the same sum unless the running total is -0.0, and adding never makes
    # -0.0 except from -0.0 + -0.0, so a sum starting from 0.0 never is.
    hit = g.op("Cast", condition, to=TensorProto.DOUBLE)
    return (join, hit) if unit else ("Add", g.op("Mul", hit, g.double(term.points)))


def _logistic(g: Graph, total: str, scale: int | float, center: int | float) -> str:
    """runtime/risk.py's logistic risk of ``total``, with ``z = scale * (total - center)``:
    ``1 / (1 + e)`` where ``z >= 0`` and ``e / (1 + e)`` elsewhere, ``e = exp(-|z|)``, written as
    ``Max([z >= 0], e) / (1 + e)`` (e <= 1, so the Max picks 1 or e exactly) with no ``Where``,
    whose broadcasting kernel is the slowest pass. The scale being > 0 (runtime/risk.py),
    ``-|z|`` is ``-scale * |total - center|`` (the same double: a product's rounding ignores
    signs) and ``z >= 0`` is ``total - center >= 0`` (where z underflows to a signed zero both
    branches give 0.5). NaN for NaN (its e is NaN)."""
    d = g.op("Sub", total, g.double(center))
    e = g.op("Exp", g.op("Mul", g.double(-float(scale)), g.op("Abs", d)))
    above = g.op("Cast", g.op("GreaterOrEqual", d, g.double(0)), to=TensorProto.DOUBLE)
    return g.op("Div", g.op("Max", above, e), g.op("Add", g.double(1.0), e), out="probability")


def _table(g: Graph, total: str, table: list[dict]) -> str:
    """runtime/risk.py's table risk of ``total``: the risk of the largest table score at or
    below it (the first row's below the first score), NaN for NaN. Binary search: ``k`` is
    the last index whose padded score is <= total (index 0 holds -inf, so every score
    passes it, NaN too: the final ``Where`` gives NaN its NaN)."""
    nan = g.double(float("nan"))
    risks = [float(row["risk"]) for row in table]
    if len(table) == 1:
        return g.op("Where", g.op("IsNaN", total), nan, g.double(risks[0]), out="probability")
    steps = (len(table) - 1).bit_length()
    size = 1 << steps
    for row in table:
        if isinstance(row["score"], int) and abs(row["score"]) > EXACT:
            raise ExportError(f"probability.table score {row['score']} is too large to be exact as a double in ONNX")
    scores = g.doubles([-math.inf] + [float(row["score"]) for row in table[1:]] + [math.inf] * (size - len(table)))
    k = None
    for step in reversed(range(steps)):
        jump = g.int64(1 << step)
        candidate = jump if k is None else g.op("Add", k, jump)
        passes = g.op("GreaterOrEqual", total, g.op("Gather", scores, candidate, axis=0))
        k = g.op("Where", passes, candidate, g.int64(0) if k is None else k)
    found = g.op("Gather", g.doubles(risks + [risks[-1]] * (size - len(table))), k, axis=0)
    return g.op("Where", g.op("IsNaN", total), nan, found, out="probability")


def _reasons(g: Graph, model: Model, parts: list[tuple[str, str]], score: str, k: int) -> list:
    """Outputs ``reason_1..reason_k`` (string [N]) and ``points_1..points_k`` (double [N]): the
    runtime's reason codes (runtime/explain.py). Each term's points (``Neg`` of a part the
    total subtracts) are stacked into [N, T]; ``TopK`` along the terms gives the largest first,
    and of equal values the lower index first (the ONNX specification's tie rule: term order);
    the j-th reason is the text of its term where its points are > 0 and the row has a score,
    else the empty text and NaN. Returns the output value infos."""
    names = reason_columns(k)
    texts, points = names[:k], names[k:]
    scored = g.op("Not", g.op("IsNaN", score))
    empty, nan = g.string(""), g.double(float("nan"))
    shown = min(k, len(parts))
    if shown:
        axis = g.name("axis")
        g.constants.append(helper.make_tensor(axis, TensorProto.INT64, [1], [1]))
        columns = [g.op("Unsqueeze", g.op("Neg", part) if join == "Sub" else part, axis) for join, part in parts]
        stacked = columns[0] if len(columns) == 1 else g.op("Concat", *columns, axis=1)
        count, values, indices = g.name("k"), g.name("topk"), g.name("topk_index")
        g.constants.append(helper.make_tensor(count, TensorProto.INT64, [1], [shown]))
        g.nodes.append(helper.make_node("TopK", [stacked, count], [values, indices], name=values,
                                        axis=1, largest=1, sorted=1))
        labels = g.name("reasons")
        g.constants.append(helper.make_tensor(labels, TensorProto.STRING, [len(parts)],
                                              [text.encode("utf-8") for text in reason_texts(model)]))
    for j in range(k):
        if j < shown:
            value = g.op("Gather", values, g.int64(j), axis=1)
            text = g.op("Gather", labels, g.op("Gather", indices, g.int64(j), axis=1), axis=0)
            ok = g.op("And", g.op("Greater", value, g.double(0)), scored)
            g.op("Where", ok, text, empty, out=texts[j])
            g.op("Where", ok, value, nan, out=points[j])
        else:  # fewer terms than reasons asked for: always none
            g.op("Where", scored, empty, empty, out=texts[j])
            g.op("Where", scored, nan, nan, out=points[j])
    return ([helper.make_tensor_value_info(n, TensorProto.STRING, ["N"]) for n in texts]
            + [helper.make_tensor_value_info(n, TensorProto.DOUBLE, ["N"]) for n in points])


#: The input modes: one named ``[N]`` input per model input, or the numeric inputs stacked in one matrix.
INPUT_MODES = ("columns", "matrix")
#: Metadata property naming the matrix input's columns, in order (a JSON list).
MATRIX_COLUMNS = "matrix_columns"


def build(model: Model, onnx_input: str = "columns", explain: int | None = None) -> "onnx.ModelProto":
    """The model as an ONNX ModelProto (checked with ``onnx.checker``, full check).

    ``onnx_input="matrix"``: the numeric and binary inputs the model uses arrive stacked in
    one ``double [N, k]`` input (see :func:`matrix_columns` for the name and the order),
    categorical ones as named ``string [N]`` inputs. ``explain`` K adds the reason-code outputs
    (:func:`_reasons`)."""
    if onnx is None:
        raise ExportError("the onnx export needs the onnx package: pip install 'scorecard[onnx]'")
    if onnx_input not in INPUT_MODES:
        raise ExportError(f"--onnx-input must be one of {', '.join(INPUT_MODES)}, got {onnx_input!r}")
    if not model.inputs:
        raise ExportError("an ONNX export needs at least one input to know how many rows it scores")
    outputs_named = added_columns(model)
    reasons = () if explain is None else reason_columns(check_k(explain))
    for clash in outputs_named + reasons:
        if any(inp.name == clash for inp in model.inputs):
            raise ExportError(f"input {clash!r} clashes with the ONNX output of that name; rename it")
    g = Graph({inp.name for inp in model.inputs} | set(outputs_named) | set(reasons))
    if onnx_input == "columns":
        total, parts = _ordered_total(g, model, {inp.name: inp.name for inp in model.used_inputs},
                                      model.inputs[0].name, "score")
        inputs = [helper.make_tensor_value_info(
            inp.name, TensorProto.STRING if inp.type == "categorical" else TensorProto.DOUBLE, ["N"])
            for inp in model.inputs]
        properties = {}
        predicted = False
    else:
        matrix, columns = matrix_columns(model)
        g.taken.add(matrix)
        total, predicted = _matrix_total(g, model, matrix, columns)
        inputs = [helper.make_tensor_value_info(matrix, TensorProto.DOUBLE, ["N", len(columns)])]
        inputs += [helper.make_tensor_value_info(inp.name, TensorProto.STRING, ["N"])
                   for inp in model.used_inputs if inp.type == "categorical"]
        properties = {"matrix_input": json.dumps(matrix, ensure_ascii=False),
                      MATRIX_COLUMNS: json.dumps(columns, ensure_ascii=False)}
        if explain is not None:  # each term's points, for the reasons, from the matrix's columns
            parts = _ordered_total(g, model, _split(g, model, matrix, columns), matrix, None)[1]
    if onnx_input == "columns" or not predicted:
        _prediction(g, model, total, onnx_input == "matrix" and model.whole_scores, "prediction")
    if model.probability is not None:
        if model.probability["method"] == "logistic":
            _logistic(g, total, model.probability["scale"], model.probability.get("center", 0))
        else:
            _table(g, total, model.probability["table"])
    outputs = [helper.make_tensor_value_info(n, TensorProto.DOUBLE, ["N"]) for n in outputs_named]
    if explain is not None:
        outputs += _reasons(g, model, parts, total, explain)
    graph = helper.make_graph(g.nodes, "scorecard", inputs, outputs, g.constants,
                              doc_string="score = the points of the terms that apply (the card's points total); "
                                         f"prediction = 1 when score > {model.threshold!r}; NaN when a row cannot "
                                         "be scored")
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION,
                              producer_name="scorecard", doc_string=f"{model.kind} scoring system")
    helper.set_model_props(proto, {
        "target": json.dumps(model.target.name, ensure_ascii=False),
        "positive": json.dumps(model.target.positive, ensure_ascii=False),
        "missing": json.dumps(model.missing, ensure_ascii=False, sort_keys=True),
        **({} if model.probability is None else
           {"probability": json.dumps(model.probability, ensure_ascii=False, sort_keys=True)}),
        **properties,
        # the model's meta (title, description, classes, input labels and units), as the model file holds it
        **({} if not model.meta else {"meta": json.dumps(meta_dict(model.meta), ensure_ascii=False, sort_keys=True)}),
    })
    onnx.checker.check_model(proto, full_check=True)
    return proto


def matrix_columns(model: Model) -> tuple[str, list[str]]:
    """``--onnx-input matrix``: the matrix input's name (``features``, with ``_`` in front
    while a model input has that name) and its columns, in order: the numeric and binary
    inputs the model uses, in the order of ``model.inputs``."""
    columns = [inp.name for inp in model.used_inputs if inp.type != "categorical"]
    name = "features"
    while any(inp.name == name for inp in model.inputs) or name in added_columns(model):
        name = "_" + name
    return name, columns


def _ordered_total(g: Graph, model: Model, x: dict[str, str], rows_of: str,
                   out: str | None) -> tuple[str, list[tuple[str, str]]]:
    """The score, term by term in the model's order from the ``[N]`` tensors ``x`` (input
    name -> tensor), NaN where a row cannot be scored; the last node writes ``out``.
    ``rows_of``: a tensor whose first dimension is the number of rows. Also returns each
    term's part as it joins the sum (``(join, tensor)``: ``Add`` or ``Sub``), for the reasons."""
    imputed = model.imputed
    linear = {t.input for t in model.terms if t.op == "linear"}
    needed = {inp.name for inp in model.needs_value}
    values: dict[str, str] = {}
    missing: list[str] = []
    masks: dict[str, str] = {}  # "unmet": each input's missing mask, built once when a term needs it

    def missing_of(inp: Input) -> str:
        if inp.type == "categorical":
            return g.op("RegexFullMatch", x[inp.name], pattern=BLANK)
        return g.op("IsNaN", x[inp.name])

    def mask(inp: Input) -> Callable[[], str]:
        def get() -> str:
            if inp.name not in masks:
                masks[inp.name] = missing_of(inp)
            return masks[inp.name]
        return get

    for inp in model.used_inputs:
        if inp.name in imputed:
            values[inp.name] = g.op("Where", missing_of(inp), _value(g, inp, imputed[inp.name]), x[inp.name])
            continue
        values[inp.name] = x[inp.name]
        # a NaN read by a linear term makes the sum NaN by itself (under "unmet" the inputs of
        # linear terms are the only ones needed, so none gets a test)
        if inp.name in needed and inp.name not in linear:
            missing.append(missing_of(inp))
    unscorable = None
    if missing:
        unscorable = missing[0]
        for more in missing[1:]:
            unscorable = g.op("Or", unscorable, more)
    parts = [_term(g, term, model.input(term.input), values[term.input],
                   mask(model.input(term.input)) if model.unmet else None) for term in model.terms]
    # 0 + part0 + part1 + ..., left to right; the last node writes ``out``. The 0 is a
    # ConstantOfShape tensor, since onnxruntime drops an Add of a constant 0 (and 0.0 + -0.0
    # must still give 0.0).
    total = g.op("ConstantOfShape", g.op("Shape", rows_of, end=1), value=helper.make_tensor(
        "zero", TensorProto.DOUBLE, [1], [0.0]), out=None if parts or unscorable else out)
    for k, (join, part) in enumerate(parts):
        last = k == len(parts) - 1 and unscorable is None
        total = g.op(join, total, part, out=out if last else None)
    if unscorable is not None:
        # NaN where a row cannot be scored: times 1.0 (exact, signed zeros too) or 0/0, which
        # two fast kernels give sooner than Where with a scalar branch
        present = g.op("Cast", g.op("Not", unscorable), to=TensorProto.DOUBLE)
        total = g.op("Mul", total, g.op("Div", present, present), out=out)
    return total, parts


def _integral(value: object) -> bool:
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _step(t: float, scale: float = 1.0) -> bool:
    """Whether ``[x >= t]`` can be a step ``Clip((x - t') * k, 0, scale)``: ``t'`` the double
    below ``t`` and ``k = scale / (t - t')`` a power of two a double holds (not for ``t`` within
    about 2^-1000 of 0, or 2^-950 with a ``scale`` of 2^52)."""
    return math.isfinite(scale / (t - math.nextafter(t, -math.inf)))


#: The scale of the steps that carry a linear sum (:func:`_steps`): a step is 0 or 2^52, and the
#: sum, offset by 2^51, passes the same Clip to [0, 2^52] unchanged while |sum| <= 2^51.
CARRY = 2.0**52


def _steps(g: Graph, x: str, width: int, steps: list[tuple[int, float, float]],
           carry: list[float] | None = None) -> str:
    """A double ``[N, m]`` tensor of 1.0 where ``x[:, column] >= t`` and 0.0 elsewhere, one
    column per step, NaN in a row holding a NaN: one ``Gemm`` (``x * k - t' * k``, with ``t'``
    the double below ``t`` and ``k = 1 / (t - t')`` a power of two, so every product and the
    one rounded sum are ``k * (x - t')`` exactly: 0 at ``x = t'``, at least 1 from ``x = t``
    on, negative below) and a ``Clip`` to [0, 1]; both are among onnxruntime's fastest
    kernels, where a comparison with a broadcast threshold row and the Cast of its booleans
    run several times slower.

    ``carry`` (one weight per column): the same Gemm also gives the whole-number sum
    ``x @ carry`` as a last column, offset by 2^51, and the steps are 0 or 2^52 (``k`` times
    2^52, still a power of two), so one Clip to [0, 2^52] makes the steps and keeps the sum
    while ``|x @ carry| <= 2^51`` (the caller proves it): no second pass over the matrix."""
    scale = 1.0 if carry is None else CARRY
    weights = [[0.0] * len(steps) + ([] if carry is None else [carry[row]]) for row in range(width)]
    bias = []
    for c, (column, t, _) in enumerate(steps):
        below = math.nextafter(t, -math.inf)
        k = scale / (t - below)
        weights[column][c] = k
        bias.append(-below * k)
    if carry is not None:
        bias.append(CARRY / 2)
    b = g.name("steps")
    g.constants.append(helper.make_tensor(b, TensorProto.DOUBLE, [width, len(weights[0])],
                                          [v for row in weights for v in row]))
    return g.op("Clip", g.op("Gemm", x, b, g.doubles(bias)), g.double(0), g.double(scale))


def _plan(model: Model, index: dict[str, int], scale: float,
          finite: bool = False) -> tuple[list[tuple[int, float, float]], list[Term], int]:
    """How the numeric conditions of an integer model are scored: ``(steps, compared,
    offset)``, the steps ``(column, t, points of [x >= t])`` (none under "unmet", where a NaN
    must meet no condition, unless the batch is ``finite``: proven to hold no NaN, where no
    numeric ``missing`` term applies either), the conditions compared one by one, and the
    points of the "<" conditions written as ``points - points * [x >= t]``."""
    numeric = [t for t in model.terms if model.input(t.input).type != "categorical" and t.op != "linear"]
    if finite:
        numeric = [t for t in numeric if t.op != "missing"]
    elif model.unmet:
        return [], numeric, 0
    steps: list[tuple[int, float, float]] = []
    compared = []
    offset = 0
    for t in numeric:
        value = float(t.value)  # type: ignore[arg-type]
        if t.op == "<" and _step(value, scale):
            steps.append((index[t.input], value, -float(t.points)))
            offset += t.points
        elif t.op == ">=" and _step(value, scale):
            steps.append((index[t.input], value, float(t.points)))
        elif t.op == "==" and _step(value, scale) and _step(math.nextafter(value, math.inf), scale):
            steps.append((index[t.input], value, float(t.points)))
            steps.append((index[t.input], math.nextafter(value, math.inf), -float(t.points)))
        else:
            compared.append(t)
    return steps, compared, offset


def _split(g: Graph, model: Model, matrix: str, columns: list[str], texts: dict[str, str] | None = None) -> dict[str, str]:
    """Every used input as an ``[N]`` tensor: the matrix's columns (one Split), the text inputs
    as they are (or ``texts``: input name -> its tensor, a block of its rows)."""
    x = {inp.name: (texts or {}).get(inp.name, inp.name) for inp in model.used_inputs if inp.type == "categorical"}
    if columns:
        parts = [g.name("column") for _ in columns]
        g.nodes.append(helper.make_node("Split", [matrix], parts, name=parts[0], axis=1, num_outputs=len(columns)))
        flat = g.int64s([-1])
        x.update({name: g.op("Reshape", part, flat) for name, part in zip(columns, parts)})
    return x


def _nan_rows(g: Graph, model: Model, matrix: str, columns: list[str], names: list[str]) -> str:
    """A ``[N]`` tensor of 0.0 (or -0.0), NaN in a row where one of the inputs ``names`` is
    missing: one MatMul of their columns by zeros (NaN times 0 is NaN). It reads the whole
    matrix, with no Gather, when every other column's NaN also leaves its row without a
    score (``needs_value``: under "null" every input; not an imputed one)."""
    if set(columns) <= set(names) | {inp.name for inp in model.needs_value}:
        return g.matvec(matrix, [0.0] * len(columns))
    index = {name: k for k, name in enumerate(columns)}
    return g.matvec(g.op("Gather", matrix, g.int64s([index[n] for n in names]), axis=1), [0.0] * len(names))


@dataclasses.dataclass(frozen=True)
class Linear:
    """The linear terms of an integer model on a batch proven whole (:func:`_whole_batch`):
    the matrix columns they read, each one's points (the sum over its terms), the ``[N, n]``
    block of those columns, whether the steps' Gemm carries their sum (:func:`_steps`), and
    whether the proof also showed that no column of the batch holds a NaN or an infinity
    (``finite``: under "unmet" its conditions are steps too, see :func:`_plan`)."""

    names: list[str]
    weights: list[float]
    block: str
    carry: bool
    finite: bool


def _matrix_total(g: Graph, model: Model, matrix: str, columns: list[str]) -> tuple[str, bool]:
    """The score from the matrix input, and whether ``prediction`` is written too. An integer
    model (whole-number points) adds only integers, whose sum no order changes, as long as the
    values it multiplies are whole numbers and every partial sum stays within 2^53: with no
    linear term that always holds (:func:`_integer_total`). With linear terms it holds on rows
    whose every linear value is a whole number within the model's integer range
    (``model.int_limits``, where the runtime adds Python ints): block by block of rows
    (:func:`_by_blocks`), a proof over the linear columns (:func:`_whole_batch`) takes the
    integer graph there, and any other block (a fraction, a value beyond the range, a missing
    or infinite linear value) the terms one by one in the model's order. Fractional points
    take that ordered graph always, so the score is the runtime's to the bit in every case."""
    numeric = [t for t in model.terms if model.input(t.input).type != "categorical"]
    integer = all(_integral(t.points) for t in model.terms)
    if not integer or not numeric:
        return _ordered_total(g, model, _split(g, model, matrix, columns), matrix, "score")[0], False
    if not any(t.op == "linear" for t in numeric):
        return g.rename(_integer_total(g, model, matrix, _imputed(g, model, matrix, columns), columns, None),
                        "score"), False
    _by_blocks(g, model, matrix, columns)
    return "score", True


def _imputed(g: Graph, model: Model, matrix: str, columns: list[str]) -> str:
    """The matrix with each imputed input's stated value in place of its NaN (one Where), or as it is."""
    imputed = model.imputed
    if not any(name in imputed for name in columns):
        return matrix
    fill = [float(coerce(model.input(n), imputed[n])) if n in imputed else math.nan for n in columns]
    return g.op("Where", g.op("IsNaN", matrix), g.doubles(fill), matrix)


#: Rows per block of the ``Loop`` that scores a matrix with linear terms (:func:`_by_blocks`).
BLOCK = 65_536


def _by_blocks(g: Graph, model: Model, matrix: str, columns: list[str]) -> None:
    """Writes ``score`` and ``prediction`` of an integer model with linear terms (:func:`_block`)
    in blocks of ``BLOCK`` rows: a batch of at most ``BLOCK`` rows as it is, a longer one by a
    ``Loop`` over its blocks whose outputs are concatenated (an ``If`` on the row count).
    Blocks keep the intermediate tensors in the CPU's cache (one batch of 10^6 rows measured
    about as fast per row as batches of ``BLOCK``), and a fraction or a missing value sends
    only its own block to the ordered graph."""
    texts = [inp.name for inp in model.used_inputs if inp.type == "categorical"]
    rows = g.op("Shape", matrix, end=1)
    one = g.branch(lambda: _block(g, model, matrix, {name: name for name in texts}, columns))
    index, go, scores, predictions = g.name("block"), g.name("go"), g.name("scores"), g.name("predictions")
    outer, g.nodes = g.nodes, []
    start = g.op("Mul", index, g.int64s([BLOCK]))
    end, axis = g.op("Add", start, g.int64s([BLOCK])), g.int64s([0])
    score, prediction = _block(g, model, g.op("Slice", matrix, start, end, axis),
                               {name: g.op("Slice", name, start, end, axis) for name in texts}, columns)
    more = [g.op("Identity", go), g.op("SequenceInsert", scores, score), g.op("SequenceInsert", predictions, prediction)]
    body_nodes, g.nodes = g.nodes, outer
    sequence = helper.make_tensor_sequence_value_info
    body = helper.make_graph(body_nodes, g.name("blocks"), [
        helper.make_tensor_value_info(index, TensorProto.INT64, []), helper.make_tensor_value_info(go, TensorProto.BOOL, []),
        sequence(scores, TensorProto.DOUBLE, ["n"]), sequence(predictions, TensorProto.DOUBLE, ["n"])],
        [helper.make_tensor_value_info(more[0], TensorProto.BOOL, []),
         sequence(more[1], TensorProto.DOUBLE, ["n"]), sequence(more[2], TensorProto.DOUBLE, ["n"])])

    def loop() -> list[str]:
        # ceil(N / BLOCK) blocks, each one's outputs appended to a sequence, then concatenated
        count = g.op("Div", g.op("Add", rows, g.int64s([BLOCK - 1])), g.int64s([BLOCK]))
        start_scores, start_predictions = g.op("SequenceEmpty", dtype=TensorProto.DOUBLE), g.op(
            "SequenceEmpty", dtype=TensorProto.DOUBLE)
        done_scores, done_predictions = g.name("scores"), g.name("predictions")
        g.nodes.append(helper.make_node("Loop", [g.op("Squeeze", count, g.int64s([0])), "", start_scores,
                                                 start_predictions], [done_scores, done_predictions],
                                        name=done_scores, body=body))
        return [g.op("ConcatFromSequence", done_scores, axis=0), g.op("ConcatFromSequence", done_predictions, axis=0)]

    many = g.branch(loop)
    g.nodes.append(helper.make_node("If", [g.op("Squeeze", g.op("LessOrEqual", rows, g.int64s([BLOCK])), g.int64s([0]))],
                                    ["score", "prediction"], name="score", then_branch=one, else_branch=many))


def _block(g: Graph, model: Model, rows: str, texts: dict[str, str], columns: list[str]) -> list[str]:
    """The score and prediction of the matrix ``rows`` (text inputs: ``texts``, input name ->
    tensor) for an integer model with linear terms: where every linear value is a whole number
    within the range where the runtime adds ints (:func:`_whole_batch`), the integer graph
    (:func:`_integer_total`), else the terms in the model's order (an ``If``). The proof reads
    the linear columns as one MatMul (:func:`_selected`), which runs on every intra-op thread
    but gives NaN on a row holding a NaN in any column; a block that fails it is proven again on
    the columns themselves (a Slice or a Gather, on one thread), so a missing value in a
    condition's column costs its block that copy, never the integer graph. With 2 threads, on
    65,536-row batches of the benchmark model, the Slice proof alone measured 0.84-1.04x
    skl2onnx's LogisticRegression and the MatMul 1.01-1.11x in the same runs (benchmarks/RESULTS.md)."""
    x = _imputed(g, model, rows, columns)
    names = [name for name in columns if any(t.input == name and t.op == "linear" for t in model.terms)]
    weights = [float(sum(t.points for t in model.terms if t.op == "linear" and t.input == n)) for n in names]
    index = [columns.index(name) for name in names]
    slow = g.branch(lambda: _predicted(g, model, _ordered_total(g, model, _split(g, model, rows, columns, texts),
                                                                 rows, None)[0], False))

    def choose(block: str, otherwise: "onnx.GraphProto", finite: bool) -> list[str]:
        """The integer graph where ``block`` (the linear columns) is proven whole, else ``otherwise``."""
        limit = model.int_limits[names[0]]
        steps = _plan(model, {name: k for k, name in enumerate(columns)}, CARRY, finite)[0]
        # the sum rides in the steps' Gemm while |sum| <= 2^51 and the steps' points leave room below 2^53
        carry = bool(steps) and sum(abs(t.points) for t in model.terms if t.op != "linear") <= 2**50
        if carry:
            limit = min(limit, 2**51 // max(1, int(sum(abs(w) for w in weights))))
        linear = Linear(names, weights, block, carry, finite)
        fast = g.branch(lambda: _predicted(g, model, _integer_total(g, model, rows, x, columns, linear, texts), True))
        score, prediction = g.name("score"), g.name("prediction")
        g.nodes.append(helper.make_node("If", [_whole_batch(g, block, limit)], [score, prediction], name=score,
                                        then_branch=fast, else_branch=otherwise))
        return [score, prediction]

    if index == list(range(len(columns))):  # every column is a linear one, proven free of NaN
        return choose(x, slow, True)
    # first the columns as one MatMul (both threads; NaN in a row holding a NaN or an infinity
    # anywhere, so a block that passes holds none: under "unmet" its conditions are steps too),
    # and only where that fails the proof the columns themselves (one thread)
    again = g.branch(lambda: choose(_columns(g, x, index, len(columns)), slow, False))
    return choose(_selected(g, x, index, len(columns)), again, True)


def _selected(g: Graph, x: str, index: list[int], width: int) -> str:
    """The columns ``index`` of the matrix ``x`` of ``width`` columns as one MatMul by their
    0/1 selection matrix: exactly those values on a row holding no NaN and no infinity (every
    other product is a signed zero, which adds nothing), NaN on any other row (0 times NaN or an
    infinity is NaN). Onnxruntime runs MatMul on every intra-op thread, where Slice and Gather
    copy on one."""
    name = g.name("select")
    g.constants.append(helper.make_tensor(name, TensorProto.DOUBLE, [width, len(index)],
                                          [float(index[c] == r) for r in range(width) for c in range(len(index))]))
    return g.op("MatMul", x, name)


def _columns(g: Graph, x: str, index: list[int], width: int) -> str:
    """The columns ``index`` of the matrix ``x`` of ``width`` columns: ``x`` itself for all of
    them in order, a Slice where they are adjacent, else a Gather."""
    if index == list(range(width)):
        return x
    if index == list(range(index[0], index[0] + len(index))):
        return g.op("Slice", x, g.int64s([index[0]]), g.int64s([index[-1] + 1]), g.int64s([1]))
    return g.op("Gather", x, g.int64s(index), axis=1)


def _whole_batch(g: Graph, block: str, limit: int) -> str:
    """A bool scalar: true when every value of ``block`` is a whole number within
    ``+-limit``. ``Floor(Clip(v, -limit, limit)) - v`` is 0 exactly there and nothing else:
    not 0 for a fraction (Floor moves it) or a value beyond the limit (Clip moves it), NaN for
    NaN, -inf for an infinity. Its ReduceL1 (the sum of the absolute values, which no rounding
    takes to 0 once a term is above 0, and NaN with a NaN) is 0 exactly on such a batch, and on
    a batch of no rows. Clip, Floor, Sub and one reduction: about two passes over the linear
    columns (onnxruntime computes Floor and Sub in place) besides taking them out of the matrix."""
    wrong = g.op("Sub", g.op("Floor", g.op("Clip", block, g.double(-limit), g.double(limit))), block)
    return g.op("Equal", g.op("ReduceL1", wrong, keepdims=0), g.double(0))


def _predicted(g: Graph, model: Model, total: str, whole: bool) -> list[str]:
    """The branch outputs: the score ``total`` and its prediction (:func:`_prediction`)."""
    return [total, _prediction(g, model, total, whole, None)]


def _prediction(g: Graph, model: Model, total: str, whole: bool, out: str | None) -> str:
    """1.0 when ``total`` > the threshold, 0.0 when not, NaN for NaN. ``whole``: the score is a
    whole number (or NaN), which is > threshold exactly when score - floor(threshold) >= 1: Clip
    to [0, 1] gives 1.0 or 0.0, and NaN for NaN (two passes over [N] where the general formula
    takes five). Such a score and the floor of the threshold lie within 2^53 of each other (the
    model's bound on |intercept| + sum of |points|), so their difference is exact."""
    if whole:
        return g.op("Clip", g.op("Sub", total, g.double(math.floor(model.threshold))), g.double(0), g.double(1),
                    out=out)
    # 1.0 or 0.0 over 1.0, and 0/0 where the score is NaN (NaN equals nothing, not itself)
    return g.op("Div", g.op("Cast", g.op("Greater", total, g.double(model.threshold)), to=TensorProto.DOUBLE),
                g.op("Cast", g.op("Equal", total, total), to=TensorProto.DOUBLE), out=out)


def _levels(terms: list[Term]) -> list[dict[str, Term]]:
    """``terms`` (conditions of one kind) in levels of at most one condition per input: each
    level can be compared with the whole matrix at once (:func:`_whole_matrix`)."""
    levels: list[dict[str, Term]] = []
    for term in terms:
        level = next((level for level in levels if term.input not in level), None)
        if level is None:
            levels.append(level := {})
        level[term.input] = term
    return levels


def _whole_matrix(levels: int, width: int, terms: int) -> bool:
    """Whether conditions of one kind cost less compared with the whole matrix (``width``
    columns) once per level than compared in the columns they read, taken out by a Gather:
    onnxruntime's kernels on 65,536 rows (version 1.32, one thread, in microseconds) take about
    600 + 60 a column to compare with a row of thresholds, 100 a column for the Cast and the
    product by the points, and 400 + 200 a column to Gather (2.6 ms for 11 columns: more than
    comparing them all). A card of one cut-off per column is one comparison of the matrix."""
    return levels * (600 + 160 * width) <= 1000 + 360 * terms


def _integer_total(g: Graph, model: Model, matrix: str, x: str, columns: list[str], linear: Linear | None,
                   texts: dict[str, str] | None = None) -> str:
    """The score of an integer model as a few kernels whatever its number of terms: its numeric
    conditions as one Gemm of their 0/1 matrix by the points, the offset as its C (steps of one
    Gemm and one Clip, or under "unmet", where a NaN must meet no condition, comparisons); its
    linear terms (``linear``, on a batch proven whole and within range) as one more column of
    the steps' Gemm or one MatMul of their block by their points. ``matrix`` is the input,
    ``x`` the same with imputed values."""
    index = {name: k for k, name in enumerate(columns)}
    carry = linear is not None and linear.carry
    steps, compared, offset = _plan(model, index, CARRY if carry else 1.0, linear is not None and linear.finite)

    sums = []
    if carry:  # the steps are 0 or 2^52, the last column the linear sum + 2^51
        sum_weights = [0.0] * len(columns)
        for name, weight in zip(linear.names, linear.weights):  # type: ignore[union-attr]
            sum_weights[index[name]] = weight
        sums.append(g.matvec(_steps(g, x, len(columns), steps, sum_weights),
                             [p / CARRY for _, _, p in steps] + [1.0], bias=float(offset) - CARRY / 2))
    elif steps:  # the Gemm reads every column: NaN times 0 is NaN, so a row missing any needed value is NaN
        sums.append(g.matvec(_steps(g, x, len(columns), steps), [p for _, _, p in steps], bias=float(offset)))
    conditions = []  # (the points of each column of a tensor of booleans, the tensor: which values meet a condition)
    for op, onnx_op in ((">=", "GreaterOrEqual"), ("<", "Less"), ("==", "Equal"), ("missing", "IsNaN")):
        terms = [t for t in compared if t.op == op]
        source = matrix if op == "missing" else x

        def met(block: str, of_column: list[Term | None]) -> str:
            """Whether each value of ``block`` meets the condition of its column (None: compared
            with 0.0, at 0 points)."""
            if op == "missing":
                return g.op(onnx_op, block)
            return g.op(onnx_op, block, g.doubles([0.0 if t is None else float(t.value) for t in of_column]))  # type: ignore[arg-type]

        levels = _levels(terms)
        if _whole_matrix(len(levels), len(columns), len(terms)):
            for level in levels:
                of_column = [level.get(n) for n in columns]
                conditions.append(([0.0 if t is None else float(t.points) for t in of_column], met(source, of_column)))
        elif terms:
            block = _columns(g, source, [index[t.input] for t in terms], len(columns))
            conditions.append(([float(t.points) for t in terms], met(block, list(terms))))
    if conditions:
        met = conditions[0][1] if len(conditions) == 1 else g.op("Concat", *(c for _, c in conditions), axis=1)
        sums.append(g.matvec(g.op("Cast", met, to=TensorProto.DOUBLE), [p for points, _ in conditions for p in points],
                             bias=None if sums else 0.0))
    if linear is not None and not carry:  # whole numbers within range: exact products and sums in any order
        sums.append(g.matvec(linear.block, linear.weights, bias=None if sums else 0.0))
    proven = [] if linear is None else linear.names  # a NaN there never reaches this graph
    needed = [n for n in columns if n in {i.name for i in model.needs_value} and n not in proven]
    if needed and not steps:
        sums.append(_nan_rows(g, model, matrix, columns, needed))
    categorical = [t for t in model.terms if model.input(t.input).type == "categorical"]
    if categorical:
        # the text inputs' terms, added one by one (integers: exact in any order) with their missing values
        sub = Model(kind=model.kind, target=model.target, inputs=model.inputs, terms=tuple(categorical), intercept=0,
                    missing=model.missing)
        x_text = {i.name: (texts or {}).get(i.name, i.name) for i in sub.used_inputs}
        sums.append(_ordered_total(g, sub, x_text, x_text[sub.used_inputs[0].name], None)[0])
    # the first product is a Gemm whose C is the offset (0.0 without one: it also turns a -0.0 sum into 0.0)
    total = sums[0]
    for part in sums[1:]:
        total = g.op("Add", total, part)
    return total


def render(model: Model, onnx_input: str = "columns", explain: int | None = None) -> bytes:
    """The serialized ONNX model (``onnx_input``: ``columns`` or ``matrix``, see :func:`build`;
    ``explain`` K: with K reason codes)."""
    return build(model, onnx_input, explain).SerializeToString()


register(Exporter(name="onnx", suffix=".onnx", render=render, binary=True,
                  description="one ONNX graph (opset 20) with score and prediction outputs "
                              "(and probability when the model has one)"))
