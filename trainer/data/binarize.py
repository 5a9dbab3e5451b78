"""Binary rules from raw columns: the inputs of M-of-N rule tables and TILM (Section 3.3).

Each rule is a 0/1 design :class:`~.design.Column` that keeps its raw meaning, so the trained model reads raw
data: ``age >= 60`` and its negation ``age < 60`` for a numeric input, ``odor == none``
and ``odor in {the other levels}`` for a categorical input (each level held by at least
``--min-level-rows`` rows), ``smoker == 1`` and
``smoker == 0`` for a binary input. The paper's recipe (Section 3.3): a rule per category,
and thresholds ``x >= v`` for a real-valued input, where at most one threshold between each
pair of adjacent distinct values matters. We place a cut between *every* pair of adjacent
values when there are few of them, and at quantiles otherwise; user-given cut points win.
Cuts are the "roundest" number between the two values (``60``, not ``59.5``), so a rule
reads the way a clinician would write it and scores the training data the same.
"""
from __future__ import annotations

import math
from decimal import Decimal
from typing import Collection, Mapping, Sequence

import numpy as np

from .design import MIN_LEVEL_ROWS, Column, Design, build, has_unknown, levels_of, offered_levels, unknown_column
from .prepare import LabeledData

#: Default number of candidate thresholds per numeric input.
MAX_THRESHOLDS = 16
#: Default number of cut-off conditions ``x >= t`` per numeric input of a SLIM/PILM design.
MAX_CUTS = 8
#: Significant digits of an automatic cut-off (``glu >= 150``, ``income >= 9800``).
CUT_DIGITS = 2


def nice_cut(low: float, high: float) -> float | int:
    """The number with the fewest significant digits in ``(low, high]``.

    ``x >= cut`` then separates the two adjacent data values ``low < high`` exactly as the
    midpoint would on the training data, and reads better (``60`` rather than ``59.5``).
    """
    if not low < high:
        raise ValueError(f"nice_cut needs low < high, got {low!r}, {high!r}")
    exponent = math.floor(math.log10(max(abs(low), abs(high)))) + 1 if max(abs(low), abs(high)) > 0 else 0
    for e in range(exponent, exponent - 17, -1):
        digits = max(0, -e)
        step = 10.0 ** e
        candidate = round((math.floor(low / step) + 1) * step, digits)
        if candidate <= low:  # low / step fell just under a whole number
            candidate = round(candidate + step, digits)
        if candidate <= high:
            return int(candidate) if float(candidate).is_integer() else candidate
    return int(high) if float(high).is_integer() else high


def thresholds(values: np.ndarray, max_thresholds: int = MAX_THRESHOLDS) -> tuple[float | int, ...]:
    """Candidate cut points for a numeric column (missing values ignored).

    All cuts between adjacent distinct values when there are at most ``max_thresholds`` of
    them. Otherwise ``max_thresholds`` cuts at evenly spaced quantiles, each the roundest
    number within half a quantile step of its quantile (so ``age >= 60``, not ``>= 59.37``).
    """
    present = values[~np.isnan(values)]
    distinct = np.unique(present)
    if len(distinct) < 2:
        return ()
    if len(distinct) - 1 <= max_thresholds:
        return tuple(nice_cut(float(a), float(b)) for a, b in zip(distinct[:-1], distinct[1:]))
    step = 1.0 / (max_thresholds + 1)
    cuts: list[float | int] = []
    for k in range(1, max_thresholds + 1):
        low, high = np.quantile(present, [(k - 0.5) * step, (k + 0.5) * step])
        if low < high:
            cut = nice_cut(float(low), float(high))
            if (not cuts or cut > cuts[-1]) and present.min() < cut <= present.max():
                cuts.append(cut)
    return tuple(cuts)


def precision_exponent(values: np.ndarray) -> int:
    """The column's own precision as a power of ten: the largest ``e`` in [-9, 9] with every
    value a multiple of ``10**e`` (0 for whole numbers, -1 for one decimal, 2 for hundreds)."""
    present = np.abs(values[~np.isnan(values)])
    present = present[present > 0]
    if not len(present):
        return 0
    for e in range(9, -10, -1):
        scaled = present / 10.0 ** e
        whole = np.round(scaled)
        if np.all(whole >= 1) and np.all(np.abs(scaled - whole) <= 1e-9 * scaled):
            return e
    return -9


def significant_digits(v: float | int) -> int:
    """How many significant digits ``v`` is written with (``9800``: 2, ``0.25``: 2, ``0``: 0)."""
    if v == 0:
        return 0
    digits = Decimal(repr(float(v))).normalize().as_tuple().digits
    return len(digits)


def round_cut(value: float, exponent: int = -9, digits: int = CUT_DIGITS) -> float | int:
    """``value`` rounded to ``digits`` significant digits, or to ``10**exponent`` (the column's
    own precision) when that is coarser; an ``int`` when whole, never float noise (``0.2``,
    not ``0.20000000000000284``)."""
    if value == 0:
        return 0
    e = max(math.floor(math.log10(abs(value))) + 1 - digits, exponent)
    return _whole(round(value, -e))


def at_precision(cut: float | int, exponent: int) -> float | int:
    """The smallest multiple of ``10**exponent`` (the column's own precision) at or above ``cut``.

    On a column whose values are all such multiples it flags the same rows as ``cut``, and it
    reads the way the column is written: between interpolated quantiles 2.0 and 2.2 of a count,
    :func:`nice_cut` gives ``2.1``, and ``npreg >= 2.1`` means ``npreg >= 3``."""
    step = 10.0 ** exponent
    multiple = math.ceil(cut / step - 1e-9) * step
    return _whole(round(multiple, max(0, -exponent)))


def card_cuts(values: np.ndarray, max_cuts: int = MAX_CUTS, digits: int = CUT_DIGITS,
              labels: np.ndarray | None = None) -> tuple[float | int, ...]:
    """Cut-offs ``t`` of the conditions ``x >= t`` a numeric column offers a scorecard.

    Between adjacent distinct values when there are at most ``max_cuts`` of them. Otherwise
    ``max_cuts`` cuts at evenly spaced quantiles of the rows and, given the ``labels``,
    ``max_cuts // 2`` more at quantiles within each class: where the classes differ the most
    can be a tail the overall quantiles miss (a rare outcome concentrated in the top 5 % of
    a column). Each is a number a person writes on a card: the roundest number within half a
    quantile step of its quantile, raised to the column's own precision (:func:`at_precision`:
    a count is cut at whole numbers), when that has at most ``digits`` significant digits
    (``age >= 60``), else the quantile rounded to ``digits`` significant digits or to the
    column's own precision when coarser (``income >= 9800``). Cuts that round to the same
    value or flag the same training rows as another (or none, or all) are dropped. Missing
    values are ignored.
    """
    present = ~np.isnan(values)
    distinct = np.unique(values[present])
    if len(distinct) < 2:
        return ()
    exponent = precision_exponent(distinct)
    if len(distinct) - 1 <= max_cuts:
        return distinct_cuts(values[present], [nice_cut(float(a), float(b))
                                               for a, b in zip(distinct[:-1], distinct[1:])])
    ordered = np.sort(values[present])
    taken: dict[int, float | int] = {}  # rows flagged (x >= cut) -> cut
    samples = [(values[present], max_cuts)]
    if labels is not None:
        samples += [(values[present & (labels == c)], max_cuts // 2) for c in np.unique(labels)]
    for sample, count in samples:
        if len(sample) == 0 or count == 0:
            continue
        step = 1.0 / (count + 1)
        for k in range(1, count + 1):
            q, low, high = np.quantile(sample, [k * step, (k - 0.5) * step, (k + 0.5) * step])
            options = [at_precision(nice_cut(float(low), float(high)), exponent)] if low < high else []
            options = [c for c in options if significant_digits(c) <= digits]
            # the quantile at `digits` significant digits; one more when that repeats an earlier cut
            options += [round_cut(float(q), exponent, digits), round_cut(float(q), exponent, digits + 1)]
            for cut in options:
                above = len(ordered) - int(np.searchsorted(ordered, cut, side="left"))
                if 0 < above < len(ordered) and above not in taken:
                    taken[above] = cut
                    break
    return tuple(sorted(taken.values()))


def distinct_cuts(present: np.ndarray, candidates) -> tuple[float | int, ...]:
    """``candidates`` sorted, keeping the first cut of each distinct set of rows ``x >= t``
    that is neither empty nor every row."""
    ordered = np.sort(present)
    n = len(ordered)
    out, seen = [], set()
    for cut in sorted(set(candidates)):
        above = n - int(np.searchsorted(ordered, cut, side="left"))
        if 0 < above < n and above not in seen:
            seen.add(above)
            out.append(cut)
    return tuple(out)


def number_text(v: float | int) -> str:
    """A cut-off as a card prints it: ``60``, ``0.25``, ``9800``, ``12,000`` (thousands grouped
    from 10,000 on, so a year reads ``1990``)."""
    if float(v).is_integer():
        whole = int(v)
        return f"{whole:,}" if abs(whole) >= 10_000 else str(whole)
    return repr(float(v))


def _number_text(v: float | int) -> str:
    return number_text(v)


def _whole(v: float) -> float | int:
    return int(v) if float(v).is_integer() else float(v)


def _binary_rules(name: str, col: np.ndarray) -> list[tuple[Column, bool]]:
    present = np.unique(col[~np.isnan(col)])
    if len(present) < 2:
        return []
    on, off = _whole(present[-1]), _whole(present[0])
    plain = (on, off) == (1, 0)
    return [(Column(name, "==", on, name if plain else f"{name} == {_number_text(on)}"), False),
            (Column(name, "==", off, f"not {name}" if plain else f"{name} == {_number_text(off)}"), True)]


def _numeric_rules(name: str, cuts: Sequence[float]) -> list[tuple[Column, bool]]:
    out = []
    for v in cuts:
        text = _number_text(v)
        out.append((Column(name, ">=", _whole(v), f"{name} >= {text}"), False))
        out.append((Column(name, "<", _whole(v), f"{name} < {text}"), True))
    return out


def _categorical_rules(name: str, levels: Sequence[str], offered: Sequence[str]) -> list[tuple[Column, bool]]:
    """``name == level`` and its negation (``name`` in every other level) for each offered level."""
    out = []
    for level in offered:
        out.append((Column(name, "==", level, f"{name} == {level}"), False))
        others = tuple(v for v in levels if v != level)
        if others:
            out.append((Column(name, "in", others, f"{name} != {level}"), True))
    return out


def level_columns(data: LabeledData, name: str, min_level_rows: int = MIN_LEVEL_ROWS) -> list[Column]:
    """A numeric input of codes (``--numeric-for COL=levels``: race 1/2/3, a clinic number) as
    one condition ``name == v`` per value held by at least ``min_level_rows`` rows, as a text
    column's levels (:func:`~.design.offered_levels`): codes have no order, so cut-offs or
    points times the code would rank them. A rarer value's rows meet none of these conditions."""
    return [Column(name, "==", _whole(float(v)), f"{name} = {number_text(v)}")
            for v in offered_levels(data, name, min_level_rows)]


def cut_columns(data: LabeledData, name: str, given: Sequence[float] | None = None,
                max_cuts: int = MAX_CUTS) -> list[Column]:
    """The cut-off conditions ``name >= t`` of a numeric input in a SLIM/PILM design: at the
    ``given`` cuts, else at :func:`card_cuts`; a cut flagging no training row, every row, or
    the same rows as an earlier one is left out."""
    values = data.frame[name].to_numpy(dtype=float)
    present = values[~np.isnan(values)]
    cuts = distinct_cuts(present, given) if given is not None else card_cuts(values, max_cuts, labels=data.y)
    return [Column(name, ">=", _whole(v), f"{name} >= {number_text(v)}") for v in cuts]


def rule_columns(data: LabeledData, *, cuts: Mapping[str, Sequence[float]] | None = None,
                 max_thresholds: int = MAX_THRESHOLDS, negations: bool = True,
                 min_level_rows: int = MIN_LEVEL_ROWS, levels: Collection[str] = ()) -> list[Column]:
    """Candidate rules for every input of ``data`` (see the module docstring).

    ``cuts`` gives the cut points of some numeric inputs (rules ``x >= v``); the others get
    :func:`thresholds`, but those named in ``levels`` (numeric codes), which get a rule
    ``x == v`` per value (:func:`level_columns`) and no negation: a model file's ``in`` holds
    text levels only. With ``negations`` each other rule comes with its complement, as the
    paper's M-of-N tables use.
    """
    cuts = dict(cuts or {})
    columns: list[Column] = []
    for inp in data.inputs:
        if inp.name in levels and inp.type != "categorical":
            made = [(c, False) for c in level_columns(data, inp.name, min_level_rows)]
        elif inp.type == "categorical":
            made = _categorical_rules(inp.name, levels_of(data, inp.name),
                                      offered_levels(data, inp.name, min_level_rows))
        elif inp.type == "binary" and inp.name not in cuts:
            made = _binary_rules(inp.name, data.frame[inp.name].to_numpy(dtype=float))
        else:
            given = cuts.get(inp.name)
            col = data.frame[inp.name].to_numpy(dtype=float)
            made = _numeric_rules(inp.name, tuple(given) if given is not None else thresholds(col, max_thresholds))
        columns.extend(c for c, negated in made if negations or not negated)
        if has_unknown(data, inp.name):  # "unmet": a missing value meets none of these rules
            columns.append(unknown_column(inp.name))
    return columns


def binarize(data: LabeledData, *, cuts: Mapping[str, Sequence[float]] | None = None,
             max_thresholds: int = MAX_THRESHOLDS, negations: bool = True,
             min_level_rows: int = MIN_LEVEL_ROWS, levels: Collection[str] = ()) -> Design:
    """The rule design of ``data``: :func:`rule_columns` evaluated on its rows.

    Rules that hold on all rows or on none are left out (they cannot change a prediction
    the intercept does not already make), and so is a rule equal on every row to an earlier
    one (``sex == f`` and ``sex != m``): same fit, fewer variables.
    """
    design = build(data, rule_columns(data, cuts=cuts, max_thresholds=max_thresholds, negations=negations,
                                      min_level_rows=min_level_rows, levels=levels))
    n = design.X.shape[0]
    keep, seen = [], set()
    for j in range(design.X.shape[1]):
        hit = design.X[:, j] > 0
        key = np.packbits(hit).tobytes()
        if 0 < int(np.count_nonzero(hit)) < n and key not in seen:
            seen.add(key)
            keep.append(j)
    return Design(columns=tuple(design.columns[j] for j in keep), X=design.X[:, keep])
