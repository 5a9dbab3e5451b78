"""The ``onnx`` export: one ONNX graph (ai.onnx opset 19 only) computing score and prediction.

Graph inputs are the model's inputs, one each, named exactly as the input: shape ``[N]``,
``double`` for numeric and binary inputs (SPEC's "float" means floating point: double keeps
every integer and every float score the same IEEE value Python computes; float32 would
round them), ``string`` for categorical inputs. Outputs, both ``double [N]``:

- ``score``: intercept plus each term, added left to right in the model's order (so it is
  bit-for-bit the runtime's score); NaN when the row cannot be scored;
- ``prediction``: 1.0 when the score is > 0, else 0.0, and NaN when the row cannot be
  scored. ONNX has no integer null, and any integer stand-in (0 or -1) would read as a
  negative; NaN cannot be mistaken for a class.

A missing value is NaN in a numeric input and an empty string in a categorical one; under
``{"impute": ...}`` the stated value replaces it inside the graph. A NaN read by a linear
term makes the sum NaN by itself, so only inputs read through conditions get a test: every
node is one pass over the batch, and onnxruntime's speed here is memory traffic. Opset 19 is the first
whose ``Equal`` compares strings; the graph uses nothing outside the default domain.
"""
from __future__ import annotations

import itertools
import json

try:
    import onnx
    from onnx import TensorProto, helper
except ImportError:  # the onnx extra is optional: build() says how to get it
    onnx = None

from scorecard.runtime import Input, Model, Term
from scorecard.runtime.score import coerce

from .registry import ExportError, Exporter, register

OPSET = 19
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

    def op(self, op_type: str, *inputs: str, **attrs: object) -> str:
        out = self.name(op_type.lower())
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], name=out, **attrs))
        return out

    def double(self, value: int | float) -> str:
        if isinstance(value, int) and abs(value) > EXACT:
            raise ExportError(f"{value} is too large to be exact as a double in ONNX")
        return self._constant("c", TensorProto.DOUBLE, float(value))

    def string(self, value: str) -> str:
        return self._constant("s", TensorProto.STRING, value.encode("utf-8"))

    def _constant(self, hint: str, dtype: int, value: float | bytes) -> str:
        key = (dtype, repr(value))
        if key not in self.known:
            self.known[key] = self.name(hint)
            self.constants.append(helper.make_tensor(self.known[key], dtype, [], [value]))
        return self.known[key]


def _missing(g: Graph, inp: Input) -> str:
    """A bool [N] tensor: True where the input holds no value (NaN, or '' for categories)."""
    if inp.type == "categorical":
        return g.op("Equal", inp.name, g.string(""))
    return g.op("IsNaN", inp.name)


def _value(g: Graph, inp: Input, value: object) -> str:
    if inp.type == "categorical":
        return g.string(str(value))
    return g.double(coerce(inp, value))  # type: ignore[arg-type]


def _term(g: Graph, term: Term, inp: Input, x: str) -> str:
    """A double [N] tensor: the points the term adds to each row."""
    points = g.double(term.points)
    if term.op == "linear":
        return g.op("Mul", points, x)
    if term.op == "in":
        hits = [g.op("Equal", x, g.string(v)) for v in term.value]  # type: ignore[union-attr]
        condition = hits[0]
        for hit in hits[1:]:
            condition = g.op("Or", condition, hit)
    else:
        op = {">=": "GreaterOrEqual", "<": "Less", "==": "Equal"}[term.op]
        condition = g.op(op, x, _value(g, inp, term.value))
    return g.op("Where", condition, points, g.double(0))


def build(model: Model) -> "onnx.ModelProto":
    """The model as an ONNX ModelProto (checked with ``onnx.checker``, full check)."""
    if onnx is None:
        raise ExportError("the onnx export needs the onnx package: pip install 'scorecard[onnx]'")
    if not model.inputs:
        raise ExportError("an ONNX export needs at least one input to know how many rows it scores")
    for clash in ("score", "prediction"):
        if any(inp.name == clash for inp in model.inputs):
            raise ExportError(f"input {clash!r} clashes with the ONNX output of that name; rename it")
    g = Graph({inp.name for inp in model.inputs} | {"score", "prediction"})
    imputed = model.imputed
    linear = {t.input for t in model.terms if t.op == "linear"}
    x: dict[str, str] = {}
    missing: list[str] = []
    for inp in model.used_inputs:
        if inp.name in imputed:
            x[inp.name] = g.op("Where", _missing(g, inp), _value(g, inp, imputed[inp.name]), inp.name)
            continue
        x[inp.name] = inp.name
        if inp.name not in linear:  # a NaN read by a linear term makes the sum NaN by itself
            missing.append(_missing(g, inp))
    shape = g.op("Shape", model.inputs[0].name)
    total = g.op("ConstantOfShape", shape,
                 value=helper.make_tensor("intercept", TensorProto.DOUBLE, [1], [float(model.intercept)]))
    for term in model.terms:
        total = g.op("Add", total, _term(g, term, model.input(term.input), x[term.input]))
    nan = g.double(float("nan"))
    if missing:
        unscorable = missing[0]
        for mask in missing[1:]:
            unscorable = g.op("Or", unscorable, mask)
        total = g.op("Where", unscorable, nan, total)
    g.nodes.append(helper.make_node("Identity", [total], ["score"], name="score"))
    decision = g.op("Cast", g.op("Greater", total, g.double(0)), to=TensorProto.DOUBLE)
    g.nodes.append(helper.make_node("Where", [g.op("IsNaN", total), nan, decision], ["prediction"],
                                    name="prediction"))
    inputs = [helper.make_tensor_value_info(
        inp.name, TensorProto.STRING if inp.type == "categorical" else TensorProto.DOUBLE, ["N"])
        for inp in model.inputs]
    outputs = [helper.make_tensor_value_info(n, TensorProto.DOUBLE, ["N"]) for n in ("score", "prediction")]
    graph = helper.make_graph(g.nodes, "scorecard", inputs, outputs, g.constants,
                              doc_string="score = intercept + points of the terms that apply; "
                                         "prediction = 1 when score > 0; NaN when a row cannot be scored")
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION,
                              producer_name="scorecard", doc_string=f"{model.kind} scoring system")
    helper.set_model_props(proto, {
        "target": json.dumps(model.target.name, ensure_ascii=False),
        "positive": json.dumps(model.target.positive, ensure_ascii=False),
        "missing": json.dumps(model.missing, ensure_ascii=False, sort_keys=True),
    })
    onnx.checker.check_model(proto, full_check=True)
    return proto


def render(model: Model) -> bytes:
    """The serialized ONNX model."""
    return build(model).SerializeToString()


register(Exporter(name="onnx", suffix=".onnx", render=render, binary=True,
                  description="one ONNX graph (opset 19) with score and prediction outputs"))
