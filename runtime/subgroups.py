"""The numbers of ``report --by COL`` and ``monitor --by COL``: a model's performance in each
group of rows. Standard library only.

TRIPOD+AI and ONC HTI-1 ask how a score performs for each group of patients (sex, race, site):
per group, and over all rows, :func:`group_numbers` gives the rows, the outcome rate, the AUC
with DeLong's interval, the true and false positive rates at the model's threshold with Wilson
intervals, calibration (observed outcome rate against the mean predicted risk, the calibration
slope and intercept of logistic recalibration) and the Brier score. An estimate that needs
rows of a class is given only when the group holds at least ``MIN_CLASS_ROWS`` scored rows of
it; otherwise :attr:`GroupNumbers.too_few` says, in words, what is lacking.

A group is one value of a column, as written in the data: numbers equal as numbers are one
group (``1`` and ``1.0``), text compares without its surrounding blanks, and a missing cell is
the group ``(missing)``. :func:`breakdowns` gives one table per column and, for several
columns, one of their combinations (``female, Black``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from .errors import DataError
from .names import visible
from .score import NUMBER, is_missing
from .stats import Interval, Recalibration, brier, confusion, delong, recalibrate, wilson

#: An estimate needing a class (AUC, calibration slope and intercept: both; the true positive
#: rate: rows with the outcome; the false positive rate: rows without) is given for a group
#: holding at least this many scored rows of it, and one needing rows (observed against
#: predicted, the Brier score) for a group of at least this many scored rows.
MIN_CLASS_ROWS = 10
#: The most groups one column (or one combination of columns) may make: a column of more
#: values (an age, an identifier) is refused, as its groups would be too small to read.
MAX_GROUPS = 30
#: The label of the group of rows whose cell is missing.
MISSING_GROUP = "(missing)"
#: The label of the row of every row, below each table.
ALL_ROWS = "all rows"


@dataclass(frozen=True)
class GroupNumbers:
    """One group's numbers. ``outcome`` is over every row of the group (like the report's
    outcome rate); the rest over its rows with a score. An estimate is None when the group is
    too small for it, with the reason in ``too_few`` (keyed by the estimate's name), or when
    the model has no risk map (``predicted``, ``recalibration``, ``brier``)."""

    label: str
    rows: int
    scored: int
    positives: int
    outcome: Interval
    auc: Interval | None
    tpr: Interval | None
    fpr: Interval | None
    predicted: float | None
    recalibration: Recalibration | None
    brier: float | None
    too_few: dict[str, str]

    @property
    def negatives(self) -> int:
        """Scored rows without the outcome."""
        return self.scored - self.positives

    @property
    def observed(self) -> float | None:
        """The outcome rate among the scored rows (None without one)."""
        return self.positives / self.scored if self.scored else None


def _lacking(what: str, have: int) -> str:
    return f"too few {what} ({have}; {MIN_CLASS_ROWS} needed)"


def group_numbers(label: str, labels: Sequence[int], scores: Sequence[object], predictions: Sequence[int | None],
                  risks: Sequence[float | None], has_risk: bool) -> GroupNumbers:
    """The numbers of one group from its rows' outcomes (1/0), scores, predictions and risks
    (one entry per row; a row without a score has None)."""
    kept = [k for k, s in enumerate(scores) if s is not None]
    y = [labels[k] for k in kept]
    positives = sum(y)
    negatives = len(y) - positives
    too_few: dict[str, str] = {}
    both = None
    if positives < MIN_CLASS_ROWS:
        both = _lacking("rows with the outcome", positives)
    elif negatives < MIN_CLASS_ROWS:
        both = _lacking("rows without the outcome", negatives)
    enough = None if len(kept) >= MIN_CLASS_ROWS else _lacking("rows with a score", len(kept))
    matrix = confusion([predictions[k] for k in kept], y)  # type: ignore[misc]
    auc = tpr = fpr = predicted = recal = score_brier = None
    if both is None:
        auc = delong([scores[k] for k in kept], y)  # type: ignore[misc]
    else:
        too_few["auc"] = both
    if positives >= MIN_CLASS_ROWS:
        tpr = matrix.sensitivity
    else:
        too_few["tpr"] = _lacking("rows with the outcome", positives)
    if negatives >= MIN_CLASS_ROWS:
        fpr = wilson(matrix.fp, matrix.fp + matrix.tn)
    else:
        too_few["fpr"] = _lacking("rows without the outcome", negatives)
    if has_risk:
        r = [risks[k] for k in kept]
        if enough is None:
            predicted = math.fsum(r) / len(r)  # type: ignore[arg-type]
            score_brier = brier(r, y)  # type: ignore[arg-type]
        else:
            too_few["predicted"] = too_few["brier"] = enough
        if both is None:
            recal = recalibrate(r, y)  # type: ignore[arg-type]
        else:
            too_few["recalibration"] = both
    return GroupNumbers(label=label, rows=len(labels), scored=len(kept), positives=positives,
                        outcome=wilson(sum(labels), len(labels)), auc=auc, tpr=tpr, fpr=fpr, predicted=predicted,
                        recalibration=recal, brier=score_brier, too_few=too_few)


# ---------------------------------------------------------------------------- groups


def group_key(cell: object) -> object:
    """The group a cell belongs to: a number as a number, text without its blanks, None when
    missing."""
    if is_missing(cell):
        return None
    if isinstance(cell, bool):
        return str(cell).lower()
    if isinstance(cell, (int, float)):
        return float(cell)
    text = str(cell).strip()
    match = NUMBER.fullmatch(text)
    return float(match.group(1)) if match else text


def group_order(key: object) -> tuple:
    """Numbers first (ascending), then text, the missing group last."""
    if key is None:
        return (2, 0.0, "")
    if isinstance(key, float):
        return (0, key, "")
    return (1, 0.0, str(key))


def group_labels(column: list[object]) -> tuple[list[object], dict[object, str]]:
    """Each cell's group key, and each key's label (the first cell of it, stripped; pages show
    it through ``names.visible``)."""
    keys, shown = [], {}
    for cell in column:
        key = group_key(cell)
        keys.append(key)
        if key not in shown:
            shown[key] = MISSING_GROUP if key is None else str(cell).strip()
    return keys, shown


@dataclass(frozen=True)
class Breakdown:
    """The numbers of each group of one column, or of a combination of columns (``columns``),
    in the groups' order, then the row of all rows. ``refused``: why a combination was not
    broken down (too many groups), in which case ``groups`` is empty."""

    columns: tuple[str, ...]
    groups: tuple[GroupNumbers, ...]
    overall: GroupNumbers
    refused: str = ""


def _numbers_of(keys: list[tuple], shown: dict[tuple, str], labels, scores, predictions, risks,
                has_risk: bool) -> tuple[GroupNumbers, ...]:
    rows: dict[tuple, list[int]] = {}
    for k, key in enumerate(keys):
        rows.setdefault(key, []).append(k)
    out = []
    for key in sorted(rows, key=lambda key: tuple(group_order(part) for part in key)):
        index = rows[key]
        out.append(group_numbers(shown[key], [labels[k] for k in index], [scores[k] for k in index],
                                 [predictions[k] for k in index], [risks[k] for k in index], has_risk))
    return tuple(out)


def breakdowns(columns: dict[str, list[object]], by: Sequence[str], source: str, labels: Sequence[int],
               scores: Sequence[object], predictions: Sequence[int | None], risks: Sequence[float | None],
               has_risk: bool) -> tuple[Breakdown, ...]:
    """One :class:`Breakdown` per column of ``by`` (its cells in ``columns``) and, for two or
    more, one of their combinations. Refuses (DataError, naming ``source``) a column the data
    lacks and one of more than ``MAX_GROUPS`` values; a combination of more than that many is
    given with ``refused`` saying so."""
    names = list(dict.fromkeys(by))
    for name in names:
        if name not in columns:
            raise DataError(f"{source}: no column {name!r} to break the numbers down by (--by)")
    overall = group_numbers(ALL_ROWS, labels, scores, predictions, risks, has_risk)
    keyed = {}
    for name in names:
        keys, shown = group_labels(columns[name])
        if len(shown) > MAX_GROUPS:
            raise DataError(f"{source}: column {name!r} holds {len(shown)} values; --by takes a column of at most "
                            f"{MAX_GROUPS} groups (bands of a number go in a column of their own)")
        keyed[name] = (keys, shown)
    out = []
    for name in names:
        keys, shown = keyed[name]
        out.append(Breakdown((name,), _numbers_of([(k,) for k in keys], {(k,): v for k, v in shown.items()},
                                                  labels, scores, predictions, risks, has_risk), overall))
    if len(names) > 1:
        combined = list(zip(*(keyed[name][0] for name in names)))
        shown = {key: ", ".join(keyed[name][1][part] for name, part in zip(names, key)) for key in set(combined)}
        if len(shown) > MAX_GROUPS:
            refused = (f"the {len(shown)} combinations of {', '.join(visible(n) for n in names)} are more than "
                       f"{MAX_GROUPS} groups")
            out.append(Breakdown(tuple(names), (), overall, refused))
        else:
            out.append(Breakdown(tuple(names), _numbers_of(combined, shown, labels, scores, predictions, risks,
                                                           has_risk), overall))
    return tuple(out)
