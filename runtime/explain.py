"""Reason codes: the conditions that added the most points to a row (docs/contract.md, "Reason codes").

A credit adverse-action notice or the "why" of a clinical alert names the conditions that
pushed a row's score up, towards the positive class (a decline, an alert): so a *reason* is a
term that added points > 0 to this row. ``explain(model, row, k)`` gives at most ``k`` of
them, the most points first, equal points in the order of ``model.terms`` (the card's order),
each as the card words it (:func:`reason_text`) with the points it added (``points * value``
for a ``linear`` term). A term that added 0 or took points away is never a reason: it did not
drive the score up. A row with no score (a missing value its policy gives no rule for) has no
reasons (None); under ``"unmet"`` an ``INPUT unknown`` term a missing value meets is a reason
like any other. Reasons are points of terms, not the score: the intercept (the threshold)
never enters them. Standard library only; every export ranks the same way
(:func:`ranked`), and ``scorecard verify`` checks that they do.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from .errors import UsageError
from .model import Model, Number, Term
from .score import term_points


@dataclass(frozen=True)
class Reason:
    """One reason code: the card's wording of a term, the points it added to this row (> 0),
    and the term's index in ``model.terms``."""

    text: str
    points: Number
    term: int


def _number_text(value: object) -> str:
    """A threshold as a person reads it: ``5`` for 5 and 5.0, ``0.35`` (shortest round trip)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def reason_text(model: Model, term: Term) -> str:
    """How the card words a term (exporters/layout.py): a ``linear`` term on a numeric input
    by the input's name (the card's ``<input> × points``); any other term by its ``label``
    when it has one, else by its condition (``age >= 60``, ``odor = none``, ``odor in {foul,
    musty}``, ``glu unknown``, the input's name for a binary input equal to 1). The exact text, as the
    model holds it: a format that shows it to a person escapes it there."""
    kind = model.input(term.input).type
    if term.op == "linear" and kind == "numeric":  # the card's "<input> × points": what to measure
        return term.input
    if term.label:
        return term.label
    if term.op == "linear" or (term.op == "==" and kind == "binary" and term.value == 1):
        return term.input
    if term.op == "missing":
        return f"{term.input} unknown"
    if term.op == "in":
        return f"{term.input} in {{{', '.join(term.value)}}}"  # type: ignore[arg-type]
    op = "=" if term.op == "==" else term.op
    value = term.value if isinstance(term.value, str) else _number_text(term.value)
    return f"{term.input} {op} {value}"


def reason_texts(model: Model) -> tuple[str, ...]:
    """:func:`reason_text` of every term, in term order (what each export stores once)."""
    return tuple(reason_text(model, term) for term in model.terms)


def ranked(points: Sequence[Number], k: int) -> list[int]:
    """The indices of at most ``k`` entries of ``points`` that are > 0, the largest first,
    equal values by index: the one ranking every export implements."""
    candidates = [i for i, p in enumerate(points) if p > 0 and not (isinstance(p, float) and math.isnan(p))]
    candidates.sort(key=lambda i: -points[i])  # stable: equal points keep term order
    return candidates[:k]


def check_k(k: object, option: str = "--explain") -> int:
    """``k`` as the number of reasons asked for: an integer of at least 1."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise UsageError(f"{option}: the number of reasons must be a whole number of at least 1, got {k!r}")
    return k


def explain(model: Model, row: Mapping[str, object], k: int) -> list[Reason] | None:
    """At most ``k`` reasons for ``row``'s score (see the module docstring), or None when
    the row has no score. Fewer than ``k`` when fewer terms added points."""
    k = check_k(k, "k")
    points = term_points(model, row)
    if points is None:
        return None
    texts = reason_texts(model)
    return [Reason(texts[i], points[i], i) for i in ranked(points, k)]


def reason_columns(k: int) -> tuple[str, ...]:
    """The columns ``k`` reasons add: ``reason_1..reason_k``, then ``points_1..points_k``."""
    return tuple(f"reason_{j}" for j in range(1, k + 1)) + tuple(f"points_{j}" for j in range(1, k + 1))


def reason_cells(reasons: list[Reason] | None, k: int) -> tuple[list[str | None], list[Number | None]]:
    """(texts, points) padded to ``k`` with None: what a row's reason columns hold."""
    reasons = reasons or []
    texts: list[str | None] = [r.text for r in reasons] + [None] * (k - len(reasons))
    points: list[Number | None] = [r.points for r in reasons] + [None] * (k - len(reasons))
    return texts, points
