"""Scoring rows with a model: the reference every export is checked against.

``score = sum(contribution of each term)``, the points total a person adds up on the card
(no intercept), added left to right from 0 in the order of ``model.terms`` (every export adds
in the same order, so float scores agree to the bit); ``prediction = 1`` when the score is
``> model.threshold`` (``-intercept``: the number the card states).
Integer points on integer data stay Python ints. A value is *missing* when the key is
absent, ``None``, an empty or blank string or NaN; under the ``"null"`` policy a row missing
an input the model uses has no score (``None``), never a silent 0. Under ``"unmet"`` a
missing value is read as ``None`` and meets no condition (0 points) except a ``missing``
term's, which it meets; a row missing an input a ``linear`` term reads still has no score.
"""
from __future__ import annotations

import math
import re
from typing import Mapping

from .errors import RowError
from .model import Input, Model, Number, Term, Value


def is_missing(value: object) -> bool:
    """True for the values that mean "no value": absent/None, '' and NaN."""
    if value is None:
        return True
    if isinstance(value, str):
        return value.strip() == ""
    return isinstance(value, float) and math.isnan(value)


#: The largest magnitude of an integer every double holds exactly, and of every integer the
#: runtime keeps as an int (docs/contract.md, "Score semantics": reading values, numbers beyond 2^53).
EXACT = 2**53
#: The characters ``str.strip()`` removes (``str.isspace()``): the only ones around a number.
WHITESPACE = "".join(chr(c) for c in range(0x3001) if chr(c).isspace())
_SPACE = "[" + re.escape(WHITESPACE) + "]*"
#: The one grammar of a number in text (docs/contract.md, "Score semantics", reading values): whitespace, an
#: optional sign, ASCII decimal digits with an optional fraction and exponent, whitespace.
#: No other base, no underscore, no non-ASCII digit, no inf or nan (templates/scorecard.js
#: implements the same).
NUMBER = re.compile(_SPACE + r"([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)" + _SPACE)


def coerce(inp: Input, value: object, limit: int = EXACT) -> Value:
    """Read one present value as the input's type: a string, or a number as the nearest
    double, held as an int when integral and within ``limit`` (at most 2^53, where an int and
    its double are the same number; smaller for an input of a linear term, see
    :func:`int_limit`)."""
    if inp.type == "categorical":
        if isinstance(value, str):
            return value
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return str(value)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int) and -limit <= value <= limit:
        return value
    if isinstance(value, str):
        match = NUMBER.fullmatch(value)
        if match is None:
            raise RowError(f"column {inp.name!r}: {value!r} is not a number")
        number = float(match.group(1))  # the nearest double, also of a long integer
    else:
        try:
            number = float(value)  # ints beyond the limit, numpy scalars, Decimal
        except OverflowError:
            raise RowError(f"column {inp.name!r}: {value!r} is not a finite number") from None
        except (TypeError, ValueError):
            raise RowError(f"column {inp.name!r}: {value!r} is not a number") from None
    if not math.isfinite(number):
        raise RowError(f"column {inp.name!r}: {value!r} is not a finite number")
    if number.is_integer() and -limit <= number <= limit:
        return int(number)
    return number


def int_limit(model: Model, name: str) -> int:
    """The largest magnitude at which a value of input ``name`` is held as an int: 2^53, or
    for an input of a ``linear`` term the model's integer range ``floor((2^53 - |intercept| -
    sum of |condition points|) / sum of |linear points|)``, within which no integer sum can
    leave 2^53; beyond, the value is a float and the score is computed in doubles, as by
    every export (docs/contract.md, "Score semantics", numbers beyond 2^53)."""
    return model.int_limits.get(name, EXACT)


def read_inputs(model: Model, row: Mapping[str, object]) -> dict[str, Value | None] | None:
    """The values of the inputs the model uses, after the missing-value policy.

    Returns None when a used input is missing and the policy gives no value for it. Under
    ``"unmet"`` a missing input no ``linear`` term reads has the value None (unknown).
    """
    imputed = model.imputed
    needed = {inp.name for inp in model.needs_value}
    limits = model.int_limits
    values: dict[str, Value | None] = {}
    for inp in model.used_inputs:
        raw = row.get(inp.name)
        if is_missing(raw):
            if inp.name in needed:
                return None
            if inp.name not in imputed:  # "unmet": unknown
                values[inp.name] = None
                continue
            raw = imputed[inp.name]
        values[inp.name] = coerce(inp, raw, limits.get(inp.name, EXACT))
    return values


def contribution(term: Term, x: Value | None) -> Number:
    """Points a term adds for input value ``x`` (0 when its condition does not hold).

    ``x`` None is an unknown value (the ``"unmet"`` policy): it meets only a ``missing``
    term; a ``linear`` term cannot take it (``read_inputs`` gives the row no score first).
    """
    if term.op == "missing":
        return term.points if x is None else 0
    if x is None:
        if term.op == "linear":
            raise ValueError(f"a linear term on {term.input!r} cannot score an unknown value")
        return 0
    if term.op == "linear":
        return term.points * x  # type: ignore[operator]
    if term.op == ">=":
        return term.points if x >= term.value else 0  # type: ignore[operator]
    if term.op == "<":
        return term.points if x < term.value else 0  # type: ignore[operator]
    if term.op == "==":
        return term.points if x == term.value else 0
    return term.points if x in term.value else 0  # type: ignore[operator]


def term_points(model: Model, row: Mapping[str, object]) -> list[Number] | None:
    """The points each term adds to ``row``, in term order (what the reason codes rank,
    runtime/explain.py); None when the row cannot be scored."""
    values = read_inputs(model, row)
    if values is None:
        return None
    return [contribution(term, values[term.input]) for term in model.terms]


def total(model: Model, points: list[Number] | None) -> Number | None:
    """The score from :func:`term_points`: the points total of the card (no intercept), each
    term's points added left to right in term order from 0 (None stays None)."""
    if points is None:
        return None
    result: Number = 0
    for p in points:
        result = result + p
    return result


def score(model: Model, row: Mapping[str, object]) -> Number | None:
    """The row's score (the points total of the card, no intercept), or None when it cannot
    be scored."""
    return total(model, term_points(model, row))


def decide(total: Number | None, threshold: Number) -> int | None:
    """Prediction from a score: 1 when the score is > ``threshold`` (``model.threshold``),
    else 0 (None stays None)."""
    if total is None:
        return None
    return 1 if total > threshold else 0


def predict(model: Model, row: Mapping[str, object]) -> int | None:
    """1 for the positive class, 0 otherwise, None when the row cannot be scored."""
    return decide(score(model, row), model.threshold)


def format_number(value: Number | None) -> str:
    """How scores are written to CSV: ints as ints, floats round-trip exact, None as ''."""
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _input_totals(model: Model, name: str) -> set[Number] | None:
    """The points the terms on input ``name`` can add up to together, over every value the
    input can take; None when unbounded (a ``linear`` term on a numeric input)."""
    terms = [t for t in model.terms if t.input == name]
    tests = [t for t in terms if t.op != "missing"]
    kind = model.input(name).type
    # None: the value unknown, which the "unmet" policy scores (a linear term's input excepted)
    unknown: list = [None] if model.unmet and not any(t.op == "linear" for t in terms) else []
    if kind == "binary":
        values: list = [0, 1]
    elif kind == "categorical":
        named = {c for t in tests for c in (t.value if t.op == "in" else (t.value,))}  # type: ignore[union-attr]
        other = "\x00other"
        while other in named:
            other += "\x00"
        values = sorted(named) + [other]
    elif any(t.op == "linear" for t in terms):
        return None
    elif not tests:  # only "unknown" rows: any known value is as good as another
        values = [0]
    else:  # thresholds and equalities: each cut, each gap between cuts, and beyond both ends
        cuts = sorted({t.value for t in tests})  # type: ignore[type-var]
        values = cuts + [(a + b) / 2 for a, b in zip(cuts, cuts[1:])] + [cuts[0] - 1, cuts[-1] + 1]
    return {sum(contribution(t, x) for t in terms) for x in values + unknown}


def reachable_scores(model: Model, most: int) -> list[int] | None:
    """Every score (card points total) some row can reach, sorted; None when the points are
    not all integers, an input is unbounded (a ``linear`` term on a numeric input) or there
    are more than ``most`` totals. The cards print a risk at each; training calibrates there."""
    if not all(isinstance(t.points, int) for t in model.terms):
        return None
    totals = {0}
    for inp in model.used_inputs:
        adds = _input_totals(model, inp.name)
        if adds is None:
            return None
        totals = {a + b for a in totals for b in adds}
        if len(totals) > most:
            return None
    return sorted(totals)
