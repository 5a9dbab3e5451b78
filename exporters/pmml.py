"""The ``pmml`` export: a PMML 4.4 ``Scorecard`` with reason codes, for decision engines
(JPMML, SAS, Pega and others that read PMML).

The document, element by element (docs/contract.md, "Exports"):

- ``DataDictionary``: each input the model uses, ``double``/continuous for numeric and binary
  inputs, ``string``/categorical for categorical ones (no list of valid values: an unseen
  level is an ordinary value that meets no condition, as in the runtime).
- ``MiningSchema``: the missing-value policy as PMML states it. ``"null"``: every used input
  ``missingValueTreatment="returnInvalid"`` (a row missing one has no score: the engine
  returns an invalid result). ``{"impute": ...}``: ``missingValueTreatment="asValue"`` with
  ``missingValueReplacement`` the stated value. ``"unmet"``: the inputs of linear terms are
  ``returnInvalid``; any other missing value meets no Attribute but its Characteristic's "not
  met" one (0 points), or the ``isMissing`` Attribute of an ``unknown`` condition.
- ``LocalTransformations``: a categorical input is read through a derived field that turns a
  blank text (one ``str.strip()`` empties: ``matches`` with the same characters as the
  runtime) into a missing value (or the imputed value), since PMML has no such notion.
- ``Characteristics``: consecutive conditions on one input that no value meets together (the
  levels of a categorical input, an ``unknown`` condition and the others) form one
  Characteristic with one Attribute per condition, then the "not met" Attribute with 0 points
  (``True``; under ``"null"`` ``isNotMissing``, so a blank text matches nothing and the result
  is invalid). Conditions that can hold together (the cut-offs ``x >= 40`` and ``x >= 60``,
  the rules of a TILM column) are one Characteristic each, as PMML scores only the first
  Attribute that matches. A ``linear`` term is an Attribute with ``ComplexPartialScore``
  ``points * x``. Characteristics follow the order of ``model.terms``, so the engine adds the
  same points in the same order as the runtime (float scores agree to the bit).
- Reason codes: ``useReasonCodes="true"``, ``reasonCodeAlgorithm="pointsAbove"``,
  ``baselineScore="0"``: a condition's reason points are the points it adds, so the engine
  ranks the conditions met by their points, highest first, ties in card order (the order of
  the Characteristics), the ranking ``runtime.score.contribution`` gives. Each condition's
  ``reasonCode`` is its label (as a person reads it, ``runtime.names.visible``), or
  ``term K`` when the label is empty, with `` (term K)`` added to a label that two conditions
  share, so every code names one condition; "not met" Attributes have the code
  ``<name>: none``. Output fields ``reason code 1`` ... ``reason code K`` carry them.
- ``Output``: ``score`` (the predicted value: ``initialScore`` plus the partial scores),
  ``prediction`` (``feature="decision"``: 1 when the score exceeds the threshold, else 0) and,
  for a model with a risk map, ``probability``: a risk table is a ``Discretize`` of the score
  into the table's steps (the risk of the largest table score at or below it: exactly the
  runtime's double), the logistic map ``1 / (1 + exp(-scale * (score - center)))`` (within 1e-12).

Models that cannot be PMML are refused with the reason (ExportError, exit 2): a model with no
terms (a Scorecard needs at least one Characteristic, and one on no input reads nothing), and a
name or category holding a character XML 1.0 cannot carry at all (a control character other
than tab and line breaks, U+FFFE, U+FFFF, a lone surrogate), since names and categories must
stay exact to match the data.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from typing import Iterable

from scorecard.runtime import Input, Model, Term
from scorecard.runtime.names import visible
from scorecard.runtime.score import WHITESPACE
from scorecard.runtime.table import added_columns

from .registry import ExportError, Exporter, register

NAMESPACE = "http://www.dmg.org/PMML-4_4"


def _ranges(chars: str) -> str:
    """A regular-expression character class body for ``chars``: runs as ``\\x{a}-\\x{b}``."""
    codes = sorted(map(ord, chars))
    runs: list[list[int]] = []
    for c in codes:
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return "".join(f"\\x{{{a:x}}}" if a == b else f"\\x{{{a:x}}}-\\x{{{b:x}}}" for a, b in runs)


#: A text ``str.strip()`` empties, as a regular expression (Java's ``\\x{h}`` escapes): only
#: the whitespace characters the runtime strips.
BLANK = "^[" + _ranges(WHITESPACE) + "]*$"


def score_and_threshold(model: Model) -> tuple[int | float, int | float]:
    """``(initialScore, threshold)``: the score is ``initialScore`` plus the points of the
    conditions met, and the prediction is 1 when the score exceeds the threshold. The one
    place the export defines what ``score`` means: the card's points total, so ``initialScore``
    is 0 and the threshold is the model's)."""
    return 0, model.threshold


def _xml_ok(text: str) -> bool:
    """Whether XML 1.0 can carry ``text`` (as characters or character references)."""
    for c in text:
        o = ord(c)
        if not (o in (0x9, 0xA, 0xD) or 0x20 <= o <= 0xD7FF or 0xE000 <= o <= 0xFFFD or 0x10000 <= o <= 0x10FFFF):
            return False
    return True


def _check_exact(model: Model) -> None:
    """Refuse a name or category XML cannot hold: matching it with anything else would score
    other rows than the runtime."""
    for inp in model.used_inputs:
        if not _xml_ok(inp.name):
            raise ExportError(f"input {visible(inp.name)!r} holds a character XML 1.0 cannot carry "
                              "(a control character, U+FFFE, U+FFFF or a lone surrogate): PMML cannot name it; rename it")
    for term in model.terms:
        values = term.value if isinstance(term.value, tuple) else (term.value,)
        for v in values:
            if isinstance(v, str) and not _xml_ok(v):
                raise ExportError(f"input {visible(term.input)!r}: the category {visible(v)!r} holds a character "
                                  "XML 1.0 cannot carry (a control character, U+FFFE, U+FFFF or a lone surrogate): "
                                  "PMML cannot match it")
    for value in model.imputed.values():
        if isinstance(value, str) and not _xml_ok(value):
            raise ExportError(f"the imputed value {visible(value)!r} holds a character XML 1.0 cannot carry")


def _number(value: int | float) -> str:
    """A number as PMML reads it back to the same double (ints as ints, floats round-trip)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def _values(term: Term) -> tuple:
    return term.value if isinstance(term.value, tuple) else (term.value,)


def _exclusive(a: Term, b: Term) -> bool:
    """Whether no value meets both conditions (on one input)."""
    if a.op == "linear" or b.op == "linear":
        return False
    if a.op == "missing" or b.op == "missing":
        return a.op != b.op  # an unknown value meets no other condition; two unknowns are the same
    if a.op in ("==", "in") and b.op in ("==", "in"):
        return not set(_values(a)) & set(_values(b))
    if a.op in (">=", "<") and b.op in (">=", "<"):
        if a.op == b.op:
            return False
        low, high = (a, b) if a.op == ">=" else (b, a)  # x >= low.value and x < high.value
        return high.value <= low.value  # type: ignore[operator]
    point, cut = (a, b) if a.op == "==" else (b, a)
    if not isinstance(point.value, (int, float)):
        return False
    return point.value < cut.value if cut.op == ">=" else point.value >= cut.value  # type: ignore[operator]


def characteristics(model: Model) -> list[list[Term]]:
    """The terms grouped as Characteristics: runs of consecutive terms on one input that are
    pairwise exclusive, in the model's order."""
    groups: list[list[Term]] = []
    for term in model.terms:
        last = groups[-1] if groups else None
        if last and last[0].input == term.input and all(_exclusive(t, term) for t in last):
            last.append(term)
        else:
            groups.append([term])
    return groups


def reason_codes(model: Model) -> list[str]:
    """Each term's reason code, in term order: its label as a person reads it, ``term K``
    for an empty label, `` (term K)`` added where two terms share a label."""
    labels = [visible(t.label).strip() for t in model.terms]
    counts = Counter(labels)
    codes = []
    for k, label in enumerate(labels, start=1):
        if not label:
            codes.append(f"term {k}")
        elif counts[label] > 1:
            codes.append(f"{label} (term {k})")
        else:
            codes.append(label)
    return codes


def _unique(name: str, taken: set[str]) -> str:
    while name in taken:
        name = "_" + name
    taken.add(name)
    return name


class _Doc:
    """The PMML elements, built with ElementTree (which escapes every attribute and text)."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.taken = {i.name for i in model.used_inputs} | set(added_columns(model))

    @staticmethod
    def el(parent: ET.Element, tag: str, **attrs: str) -> ET.Element:
        return ET.SubElement(parent, tag, {k.rstrip("_"): v for k, v in attrs.items()})

    def constant(self, parent: ET.Element, value: object, inp: Input | None = None) -> ET.Element:
        kind = "string" if (inp is not None and inp.type == "categorical") or isinstance(value, str) else "double"
        c = self.el(parent, "Constant", dataType=kind)
        c.text = str(value) if kind == "string" else _number(value)  # type: ignore[arg-type]
        return c

    def apply(self, parent: ET.Element, function: str) -> ET.Element:
        return self.el(parent, "Apply", function=function)


def _predicate(d: _Doc, parent: ET.Element, term: Term, field: str, inp: Input) -> None:
    """The condition of one term as a PMML predicate on ``field``."""
    if term.op == "missing":
        d.el(parent, "SimplePredicate", field=field, operator="isMissing")
        return
    if term.op == "in":
        values = list(term.value)  # type: ignore[arg-type]
        if len(values) == 1:
            d.el(parent, "SimplePredicate", field=field, operator="equal", value=values[0])
            return
        either = d.el(parent, "CompoundPredicate", booleanOperator="or")
        for v in values:
            d.el(either, "SimplePredicate", field=field, operator="equal", value=v)
        return
    operator = {">=": "greaterOrEqual", "<": "lessThan", "==": "equal"}[term.op]
    value = str(term.value) if inp.type == "categorical" else _number(term.value)  # type: ignore[arg-type]
    d.el(parent, "SimplePredicate", field=field, operator=operator, value=value)


def _blank_as_missing(d: _Doc, parent: ET.Element, inp: Input, imputed: object) -> str:
    """A derived field holding the input, a blank text read as missing
    (``if(isNotMissing(x), if(not(matches(x, BLANK)), x))``: an ``if`` without an else is
    missing where its condition fails, and ``matches`` takes no missing value) or as the
    imputed value (``if(matches(x, BLANK), imputed, x)``: the mining schema has already put
    the imputed value where x was missing); returns its name."""
    name = _unique(f"{inp.name} (blank is missing)", d.taken)
    field = d.el(parent, "DerivedField", name=name, optype="categorical", dataType="string")
    if imputed is None:
        present = d.apply(field, "if")
        d.el(d.apply(present, "isNotMissing"), "FieldRef", field=inp.name)
        choose = d.apply(present, "if")
        blank = d.apply(d.apply(choose, "not"), "matches")
    else:
        choose = d.apply(field, "if")
        blank = d.apply(choose, "matches")
    d.el(blank, "FieldRef", field=inp.name)
    d.constant(blank, BLANK)
    if imputed is not None:
        d.constant(choose, imputed, inp)
    d.el(choose, "FieldRef", field=inp.name)
    return name


def _probability(d: _Doc, output: ET.Element, score: str) -> None:
    probability = d.model.probability
    if probability is None:
        return
    field = d.el(output, "OutputField", name="probability", feature="transformedValue", dataType="double",
                 optype="continuous")
    if probability["method"] == "logistic":
        # 1 / (1 + exp(-scale * (score - center)))
        ratio = d.apply(field, "/")
        d.constant(ratio, 1)
        below = d.apply(ratio, "+")
        d.constant(below, 1)
        exp = d.apply(below, "exp")
        times = d.apply(exp, "*")
        d.constant(times, -float(probability["scale"]))
        centred = d.apply(times, "-")
        d.el(centred, "FieldRef", field=score)
        d.constant(centred, float(probability.get("center", 0)))
        return
    table = probability["table"]
    # below the second table score: the first row's risk (defaultValue); from each later score on, its row's
    steps = d.el(field, "Discretize", field=score, dataType="double", defaultValue=repr(float(table[0]["risk"])))
    for k in range(1, len(table)):
        bin_ = d.el(steps, "DiscretizeBin", binValue=repr(float(table[k]["risk"])))
        margins = {"leftMargin": _number(table[k]["score"])}
        if k + 1 < len(table):
            margins["rightMargin"] = _number(table[k + 1]["score"])
        d.el(bin_, "Interval", closure="closedOpen", **margins)


def build(model: Model) -> ET.Element:
    """The model as a PMML 4.4 document (the root element)."""
    if not model.terms:
        raise ExportError("a PMML Scorecard needs at least one Characteristic, and this model has no terms "
                          "(it gives every row the same score): PMML cannot state it")
    _check_exact(model)
    for clash in added_columns(model):
        if any(inp.name == clash for inp in model.used_inputs):
            raise ExportError(f"input {clash!r} clashes with the PMML output of that name; rename it")
    d = _Doc(model)
    initial, threshold = score_and_threshold(model)
    root = ET.Element("PMML", {"xmlns": NAMESPACE, "version": "4.4"})
    header = d.el(root, "Header", description=(
        f"{model.kind} scoring system: predicts {visible(model.target.name)} = {visible(str(model.target.positive))} "
        f"when the score is above {_number(threshold)}"))
    d.el(header, "Application", name="scorecard")
    used = model.used_inputs
    dictionary = d.el(root, "DataDictionary", numberOfFields=str(len(used)))
    for inp in used:
        categorical = inp.type == "categorical"
        d.el(dictionary, "DataField", name=inp.name, optype="categorical" if categorical else "continuous",
             dataType="string" if categorical else "double")
    card = d.el(root, "Scorecard", modelName="scorecard", functionName="regression", useReasonCodes="true",
                reasonCodeAlgorithm="pointsAbove", initialScore=_number(initial), baselineScore="0")
    schema = d.el(card, "MiningSchema")
    imputed = model.imputed
    needed = {i.name for i in model.needs_value}
    for inp in used:
        if inp.name in imputed:
            value = imputed[inp.name]
            d.el(schema, "MiningField", name=inp.name, missingValueTreatment="asValue",
                 missingValueReplacement=str(value) if inp.type == "categorical" else _number(value))
        elif inp.name in needed:
            d.el(schema, "MiningField", name=inp.name, missingValueTreatment="returnInvalid")
        else:
            d.el(schema, "MiningField", name=inp.name)
    output = d.el(card, "Output")
    d.el(output, "OutputField", name="score", feature="predictedValue", dataType="double", optype="continuous")
    decision = d.el(output, "OutputField", name="prediction", feature="decision", dataType="integer",
                    optype="categorical")
    values = d.el(decision, "Decisions", description=f"is {visible(model.target.name)} predicted "
                                                     f"{visible(str(model.target.positive))}?")
    d.el(values, "Decision", value="1", description=f"yes: the score is above {_number(threshold)}")
    d.el(values, "Decision", value="0", description=f"no: the score is at most {_number(threshold)}")
    choose = d.apply(decision, "if")
    above = d.apply(choose, "greaterThan")
    d.el(above, "FieldRef", field="score")
    d.constant(above, threshold)
    c1 = d.el(choose, "Constant", dataType="integer")
    c1.text = "1"
    c0 = d.el(choose, "Constant", dataType="integer")
    c0.text = "0"
    _probability(d, output, "score")
    groups = characteristics(model)
    for k in range(1, len(groups) + 1):
        d.el(output, "OutputField", name=_unique(f"reason code {k}", d.taken), feature="reasonCode", rank=str(k),
             dataType="string", optype="categorical")
    fields: dict[str, str] = {}
    categorical = [inp for inp in used if inp.type == "categorical"]
    if categorical:
        local = d.el(card, "LocalTransformations")
        for inp in categorical:
            fields[inp.name] = _blank_as_missing(d, local, inp, imputed.get(inp.name))
    codes = dict(zip(map(id, model.terms), reason_codes(model)))
    chars = d.el(card, "Characteristics")
    names: set[str] = set()
    used_codes = set(codes.values())
    for group in groups:
        inp = model.input(group[0].input)
        field = fields.get(inp.name, inp.name)
        title = visible(inp.name) if len(group) > 1 or group[0].op == "linear" else codes[id(group[0])]
        char = d.el(chars, "Characteristic", name=_unique(title, names))
        for term in group:
            attribute = d.el(char, "Attribute", reasonCode=codes[id(term)])
            if term.op == "linear":
                d.el(attribute, "True")
                product = d.apply(d.el(attribute, "ComplexPartialScore"), "*")
                d.constant(product, term.points)
                d.el(product, "FieldRef", field=field)
                continue
            attribute.set("partialScore", _number(term.points))
            _predicate(d, attribute, term, field, inp)
        if group[0].op == "linear":
            continue
        rest = d.el(char, "Attribute", reasonCode=_unique(f"{char.get('name')}: none", used_codes), partialScore="0")
        if model.missing == "null" and inp.type == "categorical":
            d.el(rest, "SimplePredicate", field=field, operator="isNotMissing")
        else:
            d.el(rest, "True")
    return root


def render(model: Model) -> str:
    """The PMML document as UTF-8 XML text."""
    root = build(model)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def ranked_reasons(model: Model, contributions: Iterable[int | float]) -> list[str]:
    """The reason codes a PMML engine reports first for a row whose terms add
    ``contributions`` (``runtime.score.contribution`` of each term, in order): the terms
    with positive points, highest first, ties in term order."""
    codes = reason_codes(model)
    met = [(-p, k) for k, p in enumerate(contributions) if p > 0]
    return [codes[k] for _, k in sorted(met)]


register(Exporter(name="pmml", suffix=".pmml", render=render,
                  description="a PMML 4.4 Scorecard with reason codes, score, prediction (decision) "
                              "and probability when the model has one"))
