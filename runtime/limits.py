"""Limits on a rate in groups of rows (``train --limit``): their one wording, their form in the
model file, and their value on any rows. Standard library only.

A limit bounds a rate of the card's predictions within the groups of one column of the data
(which need not be an input of the card):

- ``fpr[sex=female] <= 0.15``: the false positive rate (of the rows without the outcome, the
  share predicted positive) of the group ``sex = female`` is at most 0.15;
- ``tpr[race] >= 0.6``: the true positive rate of every group of ``race`` is at least 0.6;
- ``tpr[race] gap <= 0.05``: the largest difference of the true positive rate between any two
  groups of ``race`` is at most 0.05 (equal opportunity, within 5 points);
- rates: ``fpr``, ``tpr`` and ``positive_rate`` (the share of the group predicted positive).

Training (``trainer/problem/group_limits.py``) meets each limit exactly on the training rows,
counted with the runtime's rule (score > threshold); this module holds the test of a limit on
counts (:func:`holds`, the same integer rule the integer program writes) and its value on rows
(:func:`evaluate`), which training records in the model file (``training.limits``) and
``report`` computes on its data.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .errors import ModelError

#: rate -> (which rows it counts, in words; the class it counts: 0 negatives, 1 positives,
#: None every row).
RATES: dict[str, tuple[str, int | None]] = {
    "fpr": ("the false positive rate (of the rows without the outcome, the share predicted positive)", 0),
    "tpr": ("the true positive rate (of the rows with the outcome, the share predicted positive)", 1),
    "positive_rate": ("the share of the rows predicted positive", None),
}
#: The bound's key in the dict form: at most, at least, largest difference between groups.
SENSES = {"max": "<=", "min": ">=", "gap": "gap"}
#: Rounding room when a bound times a count is turned into a whole number of rows.
SLACK = 1e-9

Group = str | int | float


@dataclass(frozen=True)
class Limit:
    """One limit: ``rate`` of ``column``'s group ``group`` (None: of every group of the column)
    at most (``sense`` "<="), at least (">=") ``bound``, or, for "gap", the largest
    difference of the rate between two groups at most ``bound``."""

    rate: str
    column: str
    group: Group | None
    sense: str
    bound: float

    @property
    def text(self) -> str:
        """The one wording: ``fpr[sex=female] <= 0.15``, ``tpr[race] gap <= 0.05``."""
        where = self.column if self.group is None else f"{self.column}={_shown(self.group)}"
        sense = "gap <=" if self.sense == "gap" else self.sense
        return f"{self.rate}[{where}] {sense} {self.bound:g}"

    def to_dict(self) -> dict:
        """The dict form (a ``--config`` table, the model file): rate, column, group (absent:
        every group), and one of max, min, gap."""
        out: dict = {"rate": self.rate, "column": self.column}
        if self.group is not None:
            out["group"] = self.group
        out[next(k for k, v in SENSES.items() if v == self.sense)] = self.bound
        return out


def _shown(value: Group) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def limit_from_dict(raw: Any, where: str, extra: Sequence[str] = ()) -> Limit:
    """A limit from its dict form, checked (``ModelError`` naming ``where``); ``extra``: other
    keys the dict may hold (the model file's record adds ``limit``, ``groups``, ``value``)."""
    if not isinstance(raw, dict):
        raise ModelError(f"{where}: must be an object of rate, column, group and max, min or gap")
    for key in raw:
        if key not in ("rate", "column", "group", *SENSES, *extra):
            raise ModelError(f"{where}.{key}: is not a field of a limit (rate, column, group, max, min, gap)")
    rate, column, group = raw.get("rate"), raw.get("column"), raw.get("group")
    if rate not in RATES:
        raise ModelError(f"{where}.rate: must be one of {', '.join(RATES)}, got {rate!r}")
    if not isinstance(column, str) or not column:
        raise ModelError(f"{where}.column: must be a column name, got {column!r}")
    if group is not None and not (isinstance(group, str) or _number(group)):
        raise ModelError(f"{where}.group: must be a value of the column (text or a number), got {group!r}")
    bounds = [key for key in SENSES if key in raw]
    if len(bounds) != 1:
        raise ModelError(f"{where}: must hold one of max, min or gap, got {', '.join(bounds) or 'none'}")
    bound = raw[bounds[0]]
    if not _number(bound) or not 0 <= bound <= 1:
        raise ModelError(f"{where}.{bounds[0]}: must be a rate between 0 and 1, got {bound!r}")
    if bounds[0] == "gap" and group is not None:
        raise ModelError(f"{where}: a gap is between the groups of a column; leave out group")
    return Limit(rate, column, group, SENSES[bounds[0]], float(bound))


# ---------------------------------------------------------------------------- counting


def at_most(bound: float, rows: int) -> int:
    """The most of ``rows`` a rate at most ``bound`` allows: ``floor(bound * rows)``."""
    return math.floor(bound * rows + SLACK)


def at_least(bound: float, rows: int) -> int:
    """The fewest of ``rows`` a rate at least ``bound`` needs: ``ceil(bound * rows)``."""
    return math.ceil(bound * rows - SLACK)


def gap_at_most(bound: float, rows_a: int, rows_b: int) -> int:
    """The largest ``rows_b * count_a - rows_a * count_b`` a gap of at most ``bound`` between
    the rates ``count_a / rows_a`` and ``count_b / rows_b`` allows: their difference times
    ``rows_a * rows_b``, in whole numbers."""
    return math.floor(bound * rows_a * rows_b + SLACK)


@dataclass(frozen=True)
class GroupRate:
    """A group's rate: ``count`` of its ``rows`` (the rows the rate counts: without the
    outcome for fpr, with it for tpr, all for positive_rate)."""

    group: Group
    count: int
    rows: int

    @property
    def rate(self) -> float:
        return self.count / self.rows


def holds(limit: Limit, groups: Sequence[GroupRate]) -> bool:
    """Whether the counts meet the limit, in whole numbers (as the integer program writes it)."""
    if limit.sense == "<=":
        return all(g.count <= at_most(limit.bound, g.rows) for g in groups)
    if limit.sense == ">=":
        return all(g.count >= at_least(limit.bound, g.rows) for g in groups)
    return all(b.rows * a.count - a.rows * b.count <= gap_at_most(limit.bound, a.rows, b.rows)
               for a in groups for b in groups if a is not b)


def value(limit: Limit, groups: Sequence[GroupRate]) -> float | None:
    """The number a limit bounds: the group's rate; over every group the highest rate (at
    most) or the lowest (at least); for a gap, the highest less the lowest. None without a
    group that has rows."""
    rates = [g.rate for g in groups if g.rows]
    if not rates:
        return None
    if limit.sense == "gap":
        return max(rates) - min(rates)
    return max(rates) if limit.sense == "<=" else min(rates)


@dataclass(frozen=True)
class LimitValue:
    """A limit on some rows: each group's rate, the value the limit bounds, and whether it holds
    (None when no group has rows the rate counts, or a gap has fewer than two groups)."""

    limit: Limit
    groups: tuple[GroupRate, ...]
    value: float | None
    met: bool | None


def rates(limit: Limit, rows: Iterable[tuple[Group | None, int, int, int]]) -> tuple[GroupRate, ...]:
    """Each group's rate from ``(group, label 1/0, prediction 1/0, how many rows)`` tuples (a
    row of no group, or without a prediction, has group None and is left out): the named group,
    or every group met, in the order groups are first met; a group with no row the rate counts
    is left out (it has no rate)."""
    counted = RATES[limit.rate][1]
    tally: dict[Group, list[int]] = {}
    for group, label, prediction, n in rows:
        if group is None or (limit.group is not None and group != limit.group):
            continue
        t = tally.setdefault(group, [0, 0])
        if counted is None or label == counted:
            t[1] += n
            t[0] += n * prediction
    return tuple(GroupRate(g, count, total) for g, (count, total) in tally.items() if total)


def evaluate(limit: Limit, groups: Sequence[GroupRate]) -> LimitValue:
    """The limit's value and verdict on the groups' counts."""
    decided = bool(groups) and (limit.sense != "gap" or len(groups) >= 2)
    return LimitValue(limit, tuple(groups), value(limit, groups), holds(limit, groups) if decided else None)

