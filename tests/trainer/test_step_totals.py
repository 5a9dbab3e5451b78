"""trainer/vectorised.py: the thresholds of one input added together (``Steps``) give the
runtime's score of every row, values on and around the cut-offs, -0.0 and unknown values included."""
from __future__ import annotations

import numpy as np
import pytest
from scorecard.runtime import Input, Model, Target, Term
from scorecard.runtime.score import score
from scorecard.trainer import vectorised
from scorecard.trainer.vectorised import Steps, policy_column, totals


def card(points: tuple = (3, -2, 1, 4, 2)) -> Model:
    """Thresholds both ways on ``a`` (a repeated cut-off, 0 among them), one on ``b``, a missing term."""
    a, b, c, d, e = points
    return Model("linear", Target("y", 1), (Input("a", "numeric"), Input("b", "numeric")),
                 (Term("a", ">=", -0.25, a, "a1"), Term("b", "<", 2, b, "b1"), Term("a", "<", 0, c, "a2"),
                  Term("a", ">=", 1.5, d, "a3"), Term("a", ">=", 0, e, "a4"), Term("a", "missing", None, 5, "a?"),
                  Term("b", ">=", 3, 1, "b2")), -1, missing="unmet")


def runtime_and_vectorised(model: Model, a: list, b: list) -> tuple[list, list]:
    columns = {}
    for name, values in (("a", a), ("b", b)):
        missing = np.array([v is None for v in values])
        number = np.array([0.0 if v is None else float(v) for v in values])
        columns[name] = policy_column(model, name, missing, number=number)
    total, is_float = totals(model, columns, len(a))
    mine = [float(t) if f else int(t) for t, f in zip(total, is_float)]
    theirs = [score(model, {"a": x, "b": y}) for x, y in zip(a, b)]
    return mine, theirs


@pytest.mark.parametrize("few", [0, 16])
def test_thresholds_added_together_are_the_runtimes_scores(monkeypatch, few):
    """Steps counted by comparisons (few cut-offs) and found by a binary search (many)."""
    monkeypatch.setattr(vectorised, "FEW_CUTOFFS", few)
    model = card()
    assert set(Steps.of(model)) == {"a", "b"}
    values = [None, -1e300, -1, -0.25, -0.2500001, -0.0, 0.0, 0, 1e-300, 1.5, 1.4999999, 2, 3, 7, 1e300]
    a = [v for v in values for _ in values]
    b = [v for _ in values for v in values]
    mine, theirs = runtime_and_vectorised(model, a, b)
    assert [type(x) for x in mine] == [type(x) for x in theirs] and mine == theirs


def test_float_points_keep_the_term_order():
    """A float point anywhere: no steps (the runtime's float sums depend on the order)."""
    model = card((0.1, -2, 0.2, 4, 0.7))
    assert Steps.of(model) == {}
    a = [-1, -0.0, 0.3, 2, None]
    mine, theirs = runtime_and_vectorised(model, a, [1] * len(a))
    assert [type(x) for x in mine] == [type(x) for x in theirs] and mine == theirs
