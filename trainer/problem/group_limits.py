"""Limits in groups of rows (``--limit``) resolved against the training data, as whole-number
constraints on the merged rows' predictions.

``runtime/limits.py`` words a limit and tests it on counts; here each limit's column is read
from the training data (an input of the card or not: ``--coefficients COL=0`` keeps it off the
card), its group value typed as the column is (a number for a column of numbers, else one of
its texts), and every group becomes an array of how many of each merged row's data rows it
counts (rows without the outcome for ``fpr``, with it for ``tpr``, all for ``positive_rate``).
:meth:`GroupLimit.constraints` writes the limit as linear constraints on the rows' predictions
``z`` in whole numbers, the same rule ``runtime.limits.holds`` applies to counts:

- a group's rate at most R: ``sum_k c_k z_k <= floor(R N)``; at least R: ``>= ceil(R N)``;
- a gap of at most R between the groups' rates: for every ordered pair (a, b),
  ``N_b sum_k a_k z_k - N_a sum_k b_k z_k <= floor(R N_a N_b)``.

A cell of the column that is missing (or was imputed) belongs to no group.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scorecard.runtime.errors import ConfigError
from scorecard.runtime.limits import RATES, GroupRate, Limit, at_least, at_most, evaluate, gap_at_most

from ..data.prepare import LabeledData

#: The most groups a limit over every group of a column may have (a column of more values, a
#: number or an identifier, would make groups of a row or two).
MAX_GROUPS = 30

Constraint = tuple[str, list[tuple[int, np.ndarray]], str, int]


@dataclass(frozen=True)
class GroupLimit:
    """A limit on the merged rows: each group's value and, per merged row, how many data rows
    of the group the rate counts."""

    limit: Limit
    groups: tuple[tuple[object, np.ndarray], ...]

    def constraints(self) -> list[Constraint]:
        """The limit as ``(name, [(coefficient, counts per merged row), ...], sense, bound)``
        constraints on the predictions: ``sum coefficient * counts . z`` ``sense`` ``bound``."""
        limit, out = self.limit, []
        totals = [int(c.sum()) for _, c in self.groups]
        for (group, counts), n in zip(self.groups, totals):
            if limit.sense == "<=":
                out.append((f"{limit.text}: {group}", [(1, counts)], "<=", at_most(limit.bound, n)))
            elif limit.sense == ">=":
                out.append((f"{limit.text}: {group}", [(1, counts)], ">=", at_least(limit.bound, n)))
        if limit.sense == "gap":
            for (a, ca), na in zip(self.groups, totals):
                for (b, cb), nb in zip(self.groups, totals):
                    if a != b:
                        out.append((f"{limit.text}: {a} - {b}", [(nb, ca), (-na, cb)], "<=",
                                    gap_at_most(limit.bound, na, nb)))
        return out

    def rates(self, positive: np.ndarray) -> tuple[GroupRate, ...]:
        """Each group's rate when the merged rows ``positive`` are predicted positive."""
        return tuple(GroupRate(g, int(counts[positive].sum()), int(counts.sum())) for g, counts in self.groups)


def _typed(limit: Limit, numeric: bool, levels: list[str], where: str) -> object:
    """The limit's group value as the column holds it."""
    value = limit.group
    if numeric:
        try:
            number = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ConfigError(f"{where}: column {limit.column!r} holds numbers; {value!r} is not one") from None
        return int(number) if number.is_integer() else number
    text = value if isinstance(value, str) else (f"{value:g}" if isinstance(value, float) else str(value))
    if text not in levels:
        folded = {level.lower(): level for level in levels}
        close = [folded[text.lower()]] if text.lower() in folded else difflib.get_close_matches(text, levels, n=1,
                                                                                                 cutoff=0.5)
        hint = f"did you mean {close[0]!r}?" if close else f"its values: {', '.join(repr(v) for v in levels[:8])}"
        raise ConfigError(f"{where}: column {limit.column!r} has no value {text!r}; {hint}")
    return text


def _members(data: LabeledData, limit: Limit, where: str) -> tuple[pd.Series, list[object]]:
    """(each row's value of the limit's column, missing where it is no group; the groups: the
    one the limit names, typed as the column holds it, or every value, in order)."""
    column = data.frame[limit.column]
    imputed = data.missing_cells.get(limit.column)
    if imputed is not None:
        column = column.where(~imputed)  # an imputed cell is not a group
    numeric = column.dtype.kind == "f"
    present = sorted(column.dropna().unique().tolist(), key=float if numeric else str)
    if numeric:
        present = [int(v) if float(v).is_integer() else float(v) for v in present]
    if limit.group is not None:
        return column, [_typed(limit, numeric, [str(v) for v in present], where)]
    if len(present) > MAX_GROUPS:
        raise ConfigError(f"{where}: column {limit.column!r} holds {len(present)} values; a limit over its groups takes "
                          f"at most {MAX_GROUPS} (name one group, {limit.rate}[{limit.column}=VALUE], or make a column "
                          "of bands)")
    return column, present


def resolve(limits: tuple[Limit, ...], data: LabeledData, row_of: np.ndarray, merged: int) -> tuple[GroupLimit, ...]:
    """Each limit on the merged rows (``row_of``: each data row's merged row, of ``merged``).

    Refuses (ConfigError, naming the limit): a column the data lacks as an input, a group value
    the column does not hold, a group without a row the rate counts, a gap with fewer than two
    groups that have such rows."""
    names = [inp.name for inp in data.inputs]
    counts = np.ones(len(data.y)) if data.counts is None else data.counts
    out = []
    for limit in limits:
        where = f"--limit {limit.text!r}"
        if limit.column not in names:
            close = difflib.get_close_matches(limit.column, names, n=1, cutoff=0.5)
            raise ConfigError(f"{where}: the data has no column {limit.column!r} among its inputs"
                              + (f"; did you mean {close[0]!r}?" if close else ""))
        members, groups = _members(data, limit, where)
        counted = RATES[limit.rate][1]
        rows = np.ones(len(data.y), dtype=bool) if counted is None else (data.y > 0) == bool(counted)
        made = []
        for group in groups:
            mask = (members == group).to_numpy(dtype=bool) & rows
            per_row = np.bincount(row_of, weights=mask * counts, minlength=merged).astype(np.int64)
            if per_row.sum() == 0:
                if limit.group is not None:
                    raise ConfigError(f"{where}: group {limit.column} = {group} has no row the rate counts "
                                      f"({RATES[limit.rate][0]})")
                continue
            made.append((group, per_row))
        if limit.sense == "gap" and len(made) < 2:
            raise ConfigError(f"{where}: a gap needs two groups with rows the rate counts; column {limit.column!r} "
                              f"has {len(made)}")
        if not made:
            raise ConfigError(f"{where}: no group of column {limit.column!r} has a row the rate counts")
        out.append(GroupLimit(limit, tuple(made)))
    return tuple(out)


def record(limits: tuple[GroupLimit, ...], positive: np.ndarray) -> tuple[dict, ...]:
    """``training.limits``: each limit's dict form, its wording, each group's count and rows,
    its value and whether it holds, for the merged rows ``positive`` predicted positive."""
    out = []
    for g in limits:
        checked = evaluate(g.limit, g.rates(positive))
        out.append({**g.limit.to_dict(), "limit": g.limit.text, "value": checked.value, "met": checked.met,
                    "groups": [{"group": r.group, "count": r.count, "rows": r.rows} for r in checked.groups]})
    return tuple(out)

