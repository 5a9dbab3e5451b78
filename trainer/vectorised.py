"""The runtime's score of many rows at once (numpy, pyarrow), for ``scorecard predict``
(scorecard/vectorised.py), the golden rows of training (trainer/golden.py) and the errors of
cross-validation (trainer/folds.py).

``totals`` adds in float64 left to right in ``model.terms`` order, the runtime's order
(runtime/score.py). Where the runtime adds ints, every partial sum is an integer of at most
2^53 (the model file guarantees it), which a double holds exactly; where it adds a float, it
turns the int into the same double first. So these doubles are the runtime's numbers, and
``is_float`` says where the runtime holds a float (a float intercept, points or value took part).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from scorecard.runtime.model import Model, Term
from scorecard.trainer.data.arrow_values import FALSE, booleans, texts
from scorecard.trainer.data.arrow_values import text as as_text
from scorecard.trainer.data.arrow_values import to_numpy as _np
from scorecard.runtime.score import EXACT, coerce

if TYPE_CHECKING:  # predict imports this module, and importing pandas costs it seconds on a busy machine
    import pandas as pd


@dataclass(frozen=True)
class Column:
    """An input's values in one batch, as ``runtime.score.read_inputs`` gives them.

    number: float64 values of a numeric or binary input (unused for categorical ones);
    text: the cells of a categorical input as written; known: False where the value is
    unknown (missing under ``"unmet"``); integral: True where the runtime holds an int.
    """

    number: np.ndarray | None
    text: pa.Array | None
    known: np.ndarray
    integral: np.ndarray


def policy_column(model: Model, name: str, missing: np.ndarray, number: np.ndarray | None = None,
                  text: pa.Array | None = None, integral: np.ndarray | None = None) -> Column:
    """An input's values after the model's missing-value policy (runtime.score.read_inputs):
    an imputed input's missing cells take the imputed value, read as the runtime reads it;
    under "unmet" they are unknown. (Rows missing an input they need are the caller's.)"""
    filled = name in model.imputed and missing.any()
    known = ~missing | (name in model.imputed)
    if integral is None:
        integral = np.ones(len(missing), dtype=bool)
    if filled:
        fill = coerce(model.input(name), model.imputed[name], model.int_limits.get(name, EXACT))
        if text is not None:
            text = pc.if_else(booleans(missing), as_text(fill), text)
        else:
            number = np.where(missing, float(fill), number)
            integral = np.where(missing, isinstance(fill, int), integral)
    return Column(number, text, known, integral)


def frame_columns(model: Model, frame: pd.DataFrame) -> tuple[dict[str, Column], np.ndarray]:
    """(columns, scored): the used inputs of a training frame as the runtime reads them
    (numbers as float64, categories as text, NaN/None missing) and the rows with a score."""
    columns: dict[str, Column] = {}
    scored = np.ones(len(frame), dtype=bool)
    needed = {inp.name for inp in model.needs_value}
    for inp in model.used_inputs:
        values = frame[inp.name]
        missing = values.isna().to_numpy()
        if inp.type == "categorical":
            text = pa.array(values.astype(object).where(~missing, None).tolist(), pa.string())
            columns[inp.name] = policy_column(model, inp.name, missing, text=text)
        else:
            columns[inp.name] = policy_column(model, inp.name, missing, number=values.to_numpy(dtype=float))
        if inp.name in needed:
            scored &= ~missing
    return columns, scored


def frame_scores(model: Model, frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(score, scored): the runtime's score of every row of a training frame as a double
    (``runtime.score``'s number: :func:`totals`) and which rows have one."""
    columns, scored = frame_columns(model, frame)
    return totals(model, columns, len(frame))[0], scored


def totals(model: Model, columns: dict[str, Column], n: int) -> tuple[np.ndarray, np.ndarray]:
    """(score, is_float): the runtime's score of every row (the points total, added from 0 in
    term order) as a double, and whether the runtime holds it as a float (else an int). The
    thresholds of one input are added together (:class:`Steps`) where every term adds an int."""
    total = np.zeros(n)  # +0.0: a sum from it is never -0.0, so adding 0.0 or nothing is the same
    is_float = np.zeros(n, dtype=bool)
    steps = Steps.of(model)
    for term in model.terms:
        column = columns[term.input]
        points = term.points
        step = steps.get(term.input)
        if step is not None and term.op in THRESHOLDS and column.text is None:
            if term is step.first:
                np.add(total, step.points(column.number), out=total, where=column.known)
            continue
        if term.op == "linear":
            np.add(total, float(points) * column.number, out=total, where=column.known)
            is_float |= isinstance(points, float) | ~column.integral
            continue
        on = met(term, column)
        np.add(total, float(points), out=total, where=on)
        if isinstance(points, float):
            is_float |= on
    return total, is_float


THRESHOLDS = (">=", "<")
#: Up to this many cut-offs on one input, a value's step is counted by comparisons.
FEW_CUTOFFS = 16


@dataclass(frozen=True)
class Steps:
    """The points of the ``>=`` and ``<`` terms on one numeric input, as a step function of its
    value: ``table[k]`` is what they add for a value with ``k`` of the sorted ``cutoffs`` at or
    below it (one ``searchsorted`` a row instead of two passes a term).

    Only where every term of the model adds an int (``Model.whole_scores``): the
    runtime's partial sums are then integers within 2^53 (runtime/model.py's ``_check_exact``),
    so adding one input's points together, out of term order, gives the same exact total."""

    first: Term
    cutoffs: np.ndarray
    table: np.ndarray

    def points(self, x: np.ndarray) -> np.ndarray:
        """What the input's thresholds add for each value ``x`` (known ones; NaN never comes).
        ``k`` is counted with one comparison a cut-off where they are few (a third of the
        instructions of a binary search, by valgrind), else found by ``searchsorted``."""
        if len(self.cutoffs) > FEW_CUTOFFS:
            return self.table[np.searchsorted(self.cutoffs, x, side="right")]
        k = np.zeros(len(x), dtype=np.uint8)
        at_or_above = np.empty(len(x), dtype=bool)
        for cutoff in self.cutoffs:
            np.greater_equal(x, cutoff, out=at_or_above)
            k += at_or_above.view(np.uint8)
        return self.table.take(k)

    @staticmethod
    def of(model: Model) -> dict[str, Steps]:
        """The inputs with two or more thresholds and their steps (none unless every term adds an
        int); the input's other terms (``missing``, ``==``) are added one by one."""
        if not model.whole_scores:
            return {}
        out: dict[str, Steps] = {}
        for name in {t.input for t in model.terms}:
            terms = [t for t in model.terms if t.input == name and t.op in THRESHOLDS]
            if len(terms) < 2 or not all(_exact_number(t.value) for t in terms):
                continue
            cutoffs = np.unique(np.array([float(t.value) for t in terms]))
            table = np.zeros(len(cutoffs) + 1)
            for t in terms:
                rank = int(np.searchsorted(cutoffs, float(t.value)))
                if t.op == ">=":  # met when value >= cut-off: k > rank
                    table[rank + 1:] += t.points
                else:  # met when value < cut-off: k <= rank
                    table[:rank + 1] += t.points
            out[name] = Steps(terms[0], cutoffs, table)
        return out


def _exact_number(value: object) -> bool:
    """A threshold a double holds exactly (an int or a float; not text, not a bool)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and float(value) == value


def met(term: Term, column: Column) -> np.ndarray:
    """Where ``term``'s condition holds (runtime.score.contribution)."""
    if term.op == "missing":
        return ~column.known
    if column.text is not None:  # a categorical input: text compared as text
        if term.op == "==":
            hits = pc.equal(column.text, as_text(term.value)) if isinstance(term.value, str) else None
        elif term.op == "in":
            hits = pc.is_in(column.text, value_set=texts([v for v in term.value if isinstance(v, str)]))
        else:
            hits = None
        if hits is None:
            return np.zeros(len(column.known), dtype=bool)
        return column.known & _np(hits.fill_null(FALSE))
    x = column.number
    if term.op == ">=":
        hits = x >= term.value
    elif term.op == "<":
        hits = x < term.value
    elif term.op == "==" and not isinstance(term.value, str):
        hits = x == term.value
    else:  # a number never equals text, nor is in a set of texts
        hits = np.zeros(len(x), dtype=bool)
    return column.known & hits
