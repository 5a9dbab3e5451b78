"""The ``python`` export: one standard-library ``.py`` file with ``score`` and ``predict``.

The file is rendered from templates/python.py.j2 and follows runtime/score.py exactly: the
same reading of values (missing = absent, None, blank or NaN; integral numbers as ints), the
same missing-value policy (under "unmet" a missing value is None, which a ``missing`` term
meets and no other condition does: ``==``/``in`` are false for None, ``>=``/``<`` are
guarded with ``is not None``), and one expression adding each term to 0 left to right in the
model's order (the score is the card's points total, no intercept; ``predict`` compares it
with the model's threshold), so int and float scores are the very values the runtime gives.
A model of more than STAGE terms adds them in stages, each starting from the total of the
one before (the same additions in the same order), as CPython cannot compile a sum thousands
of terms deep.

Besides ``score(row)`` / ``predict(row)`` (a mapping by input name, the reference API), the
file has batch functions that give the same values for many rows:

- ``score_columns(columns)`` / ``predict_columns(columns)``: ``columns`` maps input names to
  equal-length sequences (one value per row); returns a list in row order, None for a row
  that cannot be scored. The sum is the same expression, inlined in one list comprehension
  over ``zip`` of the columns (``_scores``): no function call and no check per row. When one
  C-level pass over each column shows it holds only what ``score(row)`` would use unchanged
  (ints for a numeric input, non-blank text for a categorical one), the columns go to that
  comprehension as they are. In an integer model (int points) the columns read only by
  linear terms skip that pass, as any other value there raises or makes its row's score a
  non-int, which one ``sum`` of the scores shows; and as every value added is then an int,
  the fast path (``_int_scores``) adds the terms alone, without the leading 0. Otherwise every column is read value by value
  like ``score(row)`` does, missing values set their rows aside, and ``_scores`` (the
  model's order) runs on the values read.
- ``score_rows(rows)`` / ``predict_rows(rows)``: ``score``/``predict`` of each row mapping, as
  a list (rows held as mappings are scored one by one: transposing them into columns costs
  more than the comprehension saves).

A value the model cannot read raises ``RowError`` naming the first such row, unless that row
already lacks an earlier input (as ``score(row)`` returns None before reading further).

``explain(row, k)`` gives the row's reason codes (runtime/explain.py): ``_points(row)`` reads the
row as ``score(row)`` does and lists each term's points (the very expressions the sum adds),
ranked as the runtime ranks them; ``python FILE.py DATA.csv --explain K`` adds their columns.

When the model has a score-to-risk map (``model.probability``, runtime/risk.py) the file also
has ``probability(row)`` (and ``probability_columns`` / ``probability_rows``): the runtime's
risk at the score, the same float (the logistic formula with the same ``math.exp``, or a
``bisect`` in the risk table), and the CSV output gets a ``probability`` column.

Nothing from the model reaches the file as code: input names, categories and labels are
written only as ``repr`` string literals (labels inside comments, where ``repr`` keeps them
on one line), and the score reads its inputs into local variables ``x0, x1, ...``. Any
column name, however hostile, stays data.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

import jinja2

from scorecard.runtime import Input, Model, Term
from scorecard.runtime.explain import reason_texts
from scorecard.runtime.score import NUMBER, coerce, int_limit
from scorecard.runtime.table import CSV_ENCODING, OTHER_SEPARATORS, added_columns

from .layout import meta_lines
from .registry import Exporter, register


@dataclass(frozen=True)
class Read:
    """How the score functions read one used input: into local variable ``var`` per row, from
    column ``column`` in ``score_columns``, whose fast path first checks that column with the
    function named ``check`` (None: the check is the integer sum of the scores)."""

    var: str
    column: str
    name: str
    categorical: bool
    imputed: str | None
    check: str | None
    unknown: bool = False  # "unmet": a missing value stays None (unknown) instead of ending the row
    limit: str = "None"  # a numeric input's int range (runtime.score.int_limit), as a literal
    gate: str = "None"  # the int range score(row) takes as is: ``limit`` capped at GATE (a literal)


@dataclass(frozen=True)
class Line:
    """One term of the score expression and its label (a safe comment)."""

    code: str
    label: str


def _term(term: Term, inp: Input, var: str, unknown: bool = False) -> str:
    """The term as it joins the sum: ``+ points-it-adds``, or ``- var`` for a linear -1.

    ``unknown``: ``var`` may be None (a missing value under "unmet"), which meets only a
    ``missing`` term; ``==`` and ``in`` are already false for None, an order test needs the
    guard ``var is not None``."""
    points = repr(term.points)
    if term.op == "missing":
        return f"+ ({points} if {var} is None else 0)"
    if term.op == "linear":
        # ``total + 1 * x`` is ``total + x`` and ``total + -1 * x`` is ``total - x`` for every
        # number, float signs of zero included (a bool adds as its int): one operation less a row
        if term.points.__class__ is int and term.points in (1, -1):
            return f"{'+' if term.points == 1 else '-'} {var}"
        return f"+ {points} * {var}"
    if term.op == "in":
        condition = f"{var} in {repr(tuple(term.value))}"  # type: ignore[arg-type]
    else:
        value = term.value if inp.type == "categorical" else coerce(inp, term.value)
        condition = f"{var} {term.op} {repr(value)}"
        if unknown and term.op in (">=", "<"):
            condition = f"{var} is not None and {condition}"
    return f"+ ({points} if {condition} else 0)"


#: Terms one expression of the file adds at most: CPython compiles ``a + b + c ...`` as a
#: tree as deep as the sum is long, and a few thousand terms exceed its recursion limit.
STAGE = 200


def _stages(lines: list[Line]) -> list[list[Line]]:
    """The terms of the sum in stages of at most STAGE, each added to the total of the one
    before (``total = (total + ...)``): the same additions in the same order, so the same
    values, with every expression at most STAGE deep."""
    return [lines[k:k + STAGE] for k in range(0, len(lines), STAGE)] or [[]]


def _probability(model: Model) -> dict | None:
    """What the template needs to write ``probability(row)``; None when the model has no map."""
    probability = model.probability
    if probability is None:
        return None
    center = probability.get("center", 0)
    if probability["method"] == "logistic":
        literal = repr({"method": "logistic", "scale": probability["scale"], "center": center})
    else:  # only the checked fields (a stray key could hold a value repr cannot write back)
        literal = repr({"method": "table", "table": [{"score": row["score"], "risk": row["risk"]}
                                                     for row in probability["table"]]})
    if probability["method"] == "logistic":
        scale = probability["scale"]
        z = f"(score - {center!r})" if center else "score"
        return {"method": "logistic", "scale": repr(scale), "center": repr(center), "literal": literal,
                "doc": f"1 / (1 + exp(-{z if scale == 1 else f'{scale!r} * {z}'}))"}
    table = probability["table"]
    return {"method": "table", "literal": literal,
            "scores": repr(tuple(row["score"] for row in table)),
            "risks": repr(tuple(float(row["risk"]) for row in table)),
            "doc": f"the risk of the largest of {len(table)} table scores at or below the score"}


#: The ints score(row) takes as they are, without calling ``_number``: within +-(2^30 - 1), where
#: CPython compares them at its fastest; an int beyond it, but within the input's int range, takes
#: the general path, which keeps it as it is (so the gate changes speed, never a score).
GATE = 2**30 - 1


def _limit(model: Model, inp: Input) -> str:
    """The int range ``score(row)`` checks a numeric input's ints against (runtime.score.
    int_limit), or ``None`` (no check) for an input only compared with thresholds within
    +-2^53: an int of any size is then on the same side of each as its nearest double, so
    the runtime's reading of a huge int as a double cannot change a condition."""
    if inp.type == "categorical":
        return "None"
    terms = [t for t in model.terms if t.input == inp.name]
    if all(t.op != "linear" and not (isinstance(t.value, (int, float)) and abs(t.value) >= 2**53) for t in terms):
        return "None"
    return repr(int_limit(model, inp.name))


def render(model: Model) -> str:
    """The model as the text of a self-contained Python module."""
    imputed = model.imputed
    names = {inp.name: f"x{k}" for k, inp in enumerate(model.used_inputs)}
    integral = all(t.points.__class__ is int for t in model.terms)
    compared = {t.input for t in model.terms if t.op != "linear"}
    linear = {t.input for t in model.terms if t.op == "linear"}

    def check(inp: Input) -> str | None:
        """The fast path's check of the input's column (the template's functions of that name)."""
        if inp.type == "categorical":
            return "_texts"
        if inp.name not in compared:
            return None if integral else "_ints"
        return "_ints" if inp.name in linear else "_compared"

    needed = {inp.name for inp in model.needs_value}
    unknown = {inp.name for inp in model.used_inputs if inp.name not in needed and inp.name not in imputed}
    reads = [Read(var=names[inp.name], column=f"c{k}", name=repr(inp.name), categorical=inp.type == "categorical",
                  imputed=repr(coerce(inp, imputed[inp.name])) if inp.name in imputed else None, check=check(inp),
                  unknown=inp.name in unknown, limit=_limit(model, inp),
                  gate="None" if _limit(model, inp) == "None" else repr(min(GATE, int_limit(model, inp.name))))
             for k, inp in enumerate(model.used_inputs)]
    lines = [Line(code=_term(t, model.input(t.input), names[t.input], t.input in unknown), label=repr(t.label)[1:-1])
             for t in model.terms]
    # each term's points alone (explain): "+ e" is e, "- x" (a linear -1) is -x, the same value
    points = [Line(code=line.code[2:] if line.code.startswith("+ ") else f"-{line.code[2:]}", label=line.label)
              for line in lines]
    int_sum = None  # an integer model's sum for int values, without the leading 0 (_int_scores)
    if integral and lines:
        int_sum = {"stages": _stages([points[0]] + lines[1:])}  # the first term has no total to join
    template = resources.files("scorecard.templates").joinpath("python.py.j2").read_text(encoding="utf-8")
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined, autoescape=False)
    return env.from_string(template).render(
        kind=model.kind, target=repr(model.target.name), positive=repr(model.target.positive),
        inputs=[(repr(i.name), repr(i.type)) for i in model.inputs],
        missing=repr(model.missing), unmet=model.unmet, used=[repr(i.name) for i in model.used_inputs],
        reads=reads, start="0", threshold=repr(model.threshold), stages=_stages(lines), int_sum=int_sum,
        points=points, reasons=[repr(text) for text in reason_texts(model)],
        rules_needed=model.rules_needed if model.kind == "m_of_n" else None,
        added="(" + ", ".join(f'"{name}"' for name in added_columns(model)) + ")",
        csv_encoding=repr(CSV_ENCODING), meta=[repr(line)[1:-1] for line in meta_lines(model)],
        probability=_probability(model), number_pattern=repr(NUMBER.pattern),
        separators=repr(tuple(OTHER_SEPARATORS.items())))


register(Exporter(name="python", suffix=".py", render=render,
                  description="one standard-library .py file with score(row), predict(row) (and "
                              "probability(row) when the model has one) and batch score_columns/score_rows"))
