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
"""
from __future__ import annotations

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


def _missing(g: Graph, inp: Input) -> str:
    """A bool [N] tensor: True where the input holds no value (NaN, or a blank text)."""
    if inp.type == "categorical":
        return g.op("RegexFullMatch", inp.name, pattern=BLANK)
    return g.op("IsNaN", inp.name)


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
    """runtime/risk.py's logistic risk of ``total``: NaN for NaN (``Where`` picks e / (1 + e),
    NaN / NaN)."""
    z = g.op("Mul", g.double(float(scale)), g.op("Sub", total, g.double(center)))
    e = g.op("Exp", g.op("Neg", g.op("Abs", z)))
    one = g.double(1.0)
    below = g.op("Add", one, e)
    return g.op("Where", g.op("GreaterOrEqual", z, g.double(0)), g.op("Div", one, below), g.op("Div", e, below),
                out="probability")


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


def build(model: Model) -> "onnx.ModelProto":
    """The model as an ONNX ModelProto (checked with ``onnx.checker``, full check)."""
    if onnx is None:
        raise ExportError("the onnx export needs the onnx package: pip install 'scorecard[onnx]'")
    if not model.inputs:
        raise ExportError("an ONNX export needs at least one input to know how many rows it scores")
    outputs_named = added_columns(model)
    for clash in outputs_named:
        if any(inp.name == clash for inp in model.inputs):
            raise ExportError(f"input {clash!r} clashes with the ONNX output of that name; rename it")
    g = Graph({inp.name for inp in model.inputs} | set(outputs_named))
    imputed = model.imputed
    linear = {t.input for t in model.terms if t.op == "linear"}
    needed = {inp.name for inp in model.needs_value}
    x: dict[str, str] = {}
    missing: list[str] = []
    masks: dict[str, str] = {}  # "unmet": each input's missing mask, built once when a term needs it

    def mask(inp: Input) -> Callable[[], str]:
        def get() -> str:
            if inp.name not in masks:
                masks[inp.name] = _missing(g, inp)
            return masks[inp.name]
        return get

    for inp in model.used_inputs:
        if inp.name in imputed:
            x[inp.name] = g.op("Where", _missing(g, inp), _value(g, inp, imputed[inp.name]), inp.name)
            continue
        x[inp.name] = inp.name
        # a NaN read by a linear term makes the sum NaN by itself (under "unmet" the inputs of
        # linear terms are the only ones needed, so none gets a test)
        if inp.name in needed and inp.name not in linear:
            missing.append(_missing(g, inp))
    unscorable = None
    if missing:
        unscorable = missing[0]
        for mask in missing[1:]:
            unscorable = g.op("Or", unscorable, mask)
    parts = [_term(g, term, model.input(term.input), x[term.input],
                   mask(model.input(term.input)) if model.unmet else None) for term in model.terms]
    # 0 + part0 + part1 + ..., left to right; the last node writes "score". The 0 is a
    # ConstantOfShape tensor, since onnxruntime drops an Add of a constant 0 (and 0.0 + -0.0
    # must still give 0.0).
    total = g.op("ConstantOfShape", g.op("Shape", model.inputs[0].name), value=helper.make_tensor(
        "zero", TensorProto.DOUBLE, [1], [0.0]), out=None if parts else "score")
    for k, (join, part) in enumerate(parts):
        last = k == len(parts) - 1 and unscorable is None
        total = g.op(join, total, part, out="score" if last else None)
    if unscorable is not None:
        # NaN where a row cannot be scored: times 1.0 (exact, signed zeros too) or 0/0, which
        # two fast kernels give sooner than Where with a scalar branch
        present = g.op("Cast", g.op("Not", unscorable), to=TensorProto.DOUBLE)
        total = g.op("Mul", total, g.op("Div", present, present), out="score")
    # 1.0 or 0.0 over 1.0, and 0/0 where the score is NaN (NaN equals nothing, not itself)
    g.op("Div", g.op("Cast", g.op("Greater", total, g.double(model.threshold)), to=TensorProto.DOUBLE),
         g.op("Cast", g.op("Equal", total, total), to=TensorProto.DOUBLE), out="prediction")
    if model.probability is not None:
        if model.probability["method"] == "logistic":
            _logistic(g, total, model.probability["scale"], model.probability.get("center", 0))
        else:
            _table(g, total, model.probability["table"])
    inputs = [helper.make_tensor_value_info(
        inp.name, TensorProto.STRING if inp.type == "categorical" else TensorProto.DOUBLE, ["N"])
        for inp in model.inputs]
    outputs = [helper.make_tensor_value_info(n, TensorProto.DOUBLE, ["N"]) for n in outputs_named]
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
        # the model's meta (title, description, classes, input labels and units), as the model file holds it
        **({} if not model.meta else {"meta": json.dumps(meta_dict(model.meta), ensure_ascii=False, sort_keys=True)}),
    })
    onnx.checker.check_model(proto, full_check=True)
    return proto


def render(model: Model) -> bytes:
    """The serialized ONNX model."""
    return build(model).SerializeToString()


register(Exporter(name="onnx", suffix=".onnx", render=render, binary=True,
                  description="one ONNX graph (opset 20) with score and prediction outputs "
                              "(and probability when the model has one)"))
