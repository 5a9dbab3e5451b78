"""Scoring rows with a model: the reference every export is checked against.

``score = intercept + sum(contribution of each term)``, added left to right in the order of
``model.terms`` (every export adds in the same order, so float scores agree to the bit).
Integer points on integer data stay Python ints. A value is *missing* when the key is
absent, ``None``, an empty or blank string or NaN; under the ``"null"`` policy a row missing
an input the model uses has no score (``None``), never a silent 0. Under ``"unmet"`` a
missing value is read as ``None`` and meets no condition (0 points) except a ``missing``
term's, which it meets; a row missing an input a ``linear`` term reads still has no score.
"""
from __future__ import annotations

import math
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


def coerce(inp: Input, value: object) -> Value:
    """Read one present value as the input's type: a number (int when integral) or a string."""
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
    if isinstance(value, str):
        text = value.strip()
        try:
            number: float | int = int(text)
        except ValueError:
            try:
                number = float(text)
            except ValueError:
                raise RowError(f"column {inp.name!r}: {value!r} is not a number") from None
    elif isinstance(value, (int, float)):
        number = value
    else:
        try:
            number = float(value)  # numpy scalars, Decimal
        except (TypeError, ValueError):
            raise RowError(f"column {inp.name!r}: {value!r} is not a number") from None
    if isinstance(number, float):
        if not math.isfinite(number):
            raise RowError(f"column {inp.name!r}: {value!r} is not a finite number")
        if number.is_integer() and abs(number) < 2**53:
            return int(number)
    return number


def read_inputs(model: Model, row: Mapping[str, object]) -> dict[str, Value | None] | None:
    """The values of the inputs the model uses, after the missing-value policy.

    Returns None when a used input is missing and the policy gives no value for it. Under
    ``"unmet"`` a missing input no ``linear`` term reads has the value None (unknown).
    """
    imputed = model.imputed
    needed = {inp.name for inp in model.needs_value}
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
        values[inp.name] = coerce(inp, raw)
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


def score(model: Model, row: Mapping[str, object]) -> Number | None:
    """The row's score (intercept plus points), or None when it cannot be scored."""
    values = read_inputs(model, row)
    if values is None:
        return None
    total: Number = model.intercept
    for term in model.terms:
        total = total + contribution(term, values[term.input])
    return total


def decide(total: Number | None) -> int | None:
    """Prediction from a score: 1 when the score is > 0, else 0 (None stays None)."""
    if total is None:
        return None
    return 1 if total > 0 else 0


def predict(model: Model, row: Mapping[str, object]) -> int | None:
    """1 for the positive class, 0 otherwise, None when the row cannot be scored."""
    return decide(score(model, row))


def format_number(value: Number | None) -> str:
    """How scores are written to CSV: ints as ints, floats round-trip exact, None as ''."""
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value)
