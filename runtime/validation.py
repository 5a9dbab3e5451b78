"""A model on data: what ``scorecard report`` and ``scorecard monitor`` show. Standard library only.

:func:`read_sample` scores the rows of one data file (header, and records ``(where, cells)``,
``where`` naming the row in a message: as ``predict`` reads the file) with the runtime:
score and prediction through ``runtime.score`` (``score``, ``decide``) and risk through
``runtime.risk``, the outcome from the model's target column, and the missing cells of each
used input. :func:`validate` turns
one sample into the report's numbers (TRIPOD: data summary, discrimination, calibration,
the confusion table at the threshold, the score distribution by class); :func:`drift`
compares two samples (the population stability index of the score and of each used input,
missing-value rates, and outcome rate and calibration when the outcome is there).

Bins of the monitor: the score's own values (at most ``MAX_VALUES``; otherwise ten groups of
the baseline's scores), and per input the model's own cut-offs (``< 3``, ``3 to < 5``,
``>= 5``), the values or categories its conditions name (plus "other"), or for an input read
only as ``points x value`` ten groups of the baseline's values; "missing" (and "no score") is
a bin of its own.
"""
from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from .errors import DataError, RowError
from .limits import GroupRate, Limit, LimitValue, evaluate, limit_from_dict, rates
from .model import Input, Model, Number
from .risk import risk_function
from .score import EXACT, NUMBER, coerce, decide, format_number, is_missing, score
from .stats import (Confusion, Interval, Recalibration, brier, confusion, delong, net_benefit, psi, psi_band,
                    recalibrate, roc_points, treat_all, wilson)
from .subgroups import MAX_GROUPS, Breakdown, GroupNumbers, breakdowns, group_labels, group_numbers, group_order

#: At most this many distinct scores are each a group (a bin) of their own.
MAX_VALUES = 30
#: Otherwise the scores (or a linear input's values) fall into this many groups of about
#: equal size.
GROUPS = 10
MISSING = "missing"
NO_SCORE = "no score"
OTHER = "other"
KNOWN = "any value"


@dataclass
class Sample:
    """The rows of one data file, scored by the runtime.

    ``scores``/``predictions``/``risks`` hold one entry per row (None without a score or a
    risk map); ``labels`` one per row (1 positive, 0 negative) when the file has the outcome
    column, else None; ``values`` the cells of each used input, as read."""

    source: str
    scores: list[Number | None] = field(default_factory=list)
    predictions: list[int | None] = field(default_factory=list)
    risks: list[float | None] = field(default_factory=list)
    labels: list[int] | None = None
    values: dict[str, list[object]] = field(default_factory=dict)
    #: The cells of other columns asked for (``read_sample``'s ``columns``: groups to break the
    #: numbers down by, a limit's group column), those the file has.
    columns: dict[str, list[object]] = field(default_factory=dict)

    @property
    def rows(self) -> int:
        return len(self.scores)

    @property
    def scored(self) -> list[int]:
        """Indexes of the rows with a score."""
        return [k for k, s in enumerate(self.scores) if s is not None]

    def missing(self, name: str) -> int:
        """How many cells of input ``name`` are missing."""
        return sum(1 for v in self.values[name] if is_missing(v))


def _number(text: str) -> float | None:
    match = NUMBER.fullmatch(text)
    return float(match.group(1)) if match else None


def _outcome_key(text: str) -> object:
    """One class, however it is written: "1" and "1.0" are one number, text compares stripped."""
    number = _number(text)
    return number if number is not None else text.strip()


#: Outcome words read without regard to case, as training reads them.
BOOLEANS = ("true", "false")


def _positive_key(positive: object) -> object:
    """``target.positive`` as :func:`read_sample` keys a class."""
    if isinstance(positive, bool):
        return "true" if positive else "false"
    if isinstance(positive, (int, float)):
        return float(positive)
    key = _outcome_key(str(positive))
    return key.lower() if isinstance(key, str) and key.lower() in BOOLEANS else key


def _where(line: object) -> str:
    """A record's place in a message: ``line N`` for csv_records' line number, else the
    locator as it reads (``line N`` or ``row N``, trainer/data/columnar.py)."""
    return f"line {line}" if isinstance(line, int) else str(line)


def read_sample(model: Model, header: list[str], records: Iterable[tuple[object, list]], source: str,
                outcome: str = "optional", columns: Sequence[str] = ()) -> Sample:
    """Score every record; ``outcome`` is "required" (the file must hold the model's target
    column), "optional" (labels when it does) or "ignored"; the cells of ``columns`` the file
    has are kept as read (``Sample.columns``). Refuses, naming ``source`` and the
    line: a missing used input column, a value the model cannot read, an empty outcome cell,
    a third outcome value (unless the model's negative class is the rest, ``target.rest``), and
    a file without rows."""
    lacking = [i.name for i in model.used_inputs if i.name not in header]
    if lacking:
        raise RowError(f"{source}: the model needs column {lacking[0]!r}, which the data lacks")
    target = model.target.name
    with_outcome = outcome != "ignored" and target in header
    if outcome == "required" and not with_outcome:
        raise DataError(f"{source}: no column {target!r} (the model's outcome), which the report needs")
    inputs = model.used_inputs
    sample = Sample(source=source, labels=[] if with_outcome else None, values={i.name: [] for i in inputs},
                    columns={name: [] for name in dict.fromkeys(columns) if name in header})
    to_risk = risk_function(model.probability)
    positive = _positive_key(model.target.positive)
    classes: dict[object, str] = {}
    for line, cells in records:
        row = dict(zip(header, cells))
        try:
            value = score(model, row)  # reads every used input, unless one it needs is missing:
            for inp in inputs if value is None else ():  # then a bad value of the others is still refused
                cell = row[inp.name]
                if not is_missing(cell):
                    coerce(inp, cell)
        except RowError as exc:
            raise RowError(f"{source}: {_where(line)}: {exc}") from None
        sample.scores.append(value)
        sample.predictions.append(decide(value, model.threshold))
        sample.risks.append(to_risk(value))
        for inp in inputs:
            sample.values[inp.name].append(row[inp.name])
        for name, cells in sample.columns.items():
            cells.append(row[name])
        if sample.labels is not None:
            cell = row[target]
            if is_missing(cell):
                raise DataError(f"{source}: {_where(line)}: the outcome {target!r} is empty; every row needs one")
            key = _outcome_key(cell)
            if isinstance(key, str) and key.lower() in BOOLEANS:  # True, TRUE and true are one class
                key = key.lower()
            classes.setdefault(key, cell.strip())
            if len(classes) > 2 and not model.target.rest:  # rest: every value but the positive is negative
                shown = ", ".join(repr(v) for v in classes.values())
                raise DataError(f"{source}: {_where(line)}: the outcome {target!r} holds a third value ({shown}); "
                                "it must hold the model's two classes")
            sample.labels.append(1 if key == positive else 0)
    if not sample.rows:
        raise DataError(f"{source}: the file has no rows")
    return sample


# ---------------------------------------------------------------------------- groups of scores


@dataclass(frozen=True)
class Group:
    """Scores from ``low`` to ``high`` (one value when equal)."""

    low: Number
    high: Number

    @property
    def label(self) -> str:
        if self.low == self.high:
            return _short(self.low)
        return f"{_short(self.low)} to {_short(self.high)}"

    def holds(self, value: Number) -> bool:
        return self.low <= value <= self.high


def _short(value: Number) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.4g}"
    return format_number(int(value) if isinstance(value, float) and abs(value) < EXACT else value)


def score_groups(values: Sequence[Number], most: int = MAX_VALUES, groups: int = GROUPS) -> list[Group]:
    """Each distinct value its own group when there are at most ``most``, else ``groups``
    runs of consecutive values holding about equal numbers of ``values``."""
    counts: dict[Number, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    distinct = sorted(counts)
    if len(distinct) <= most:
        return [Group(v, v) for v in distinct]
    out: list[Group] = []
    start, seen, n = 0, 0, len(values)
    for k, v in enumerate(distinct):
        seen += counts[v]
        if seen >= n * (len(out) + 1) / groups or k == len(distinct) - 1:
            out.append(Group(distinct[start], v))
            start = k + 1
    return out


def _group_of(groups: list[Group]) -> Callable[[Number], int]:
    highs = [g.high for g in groups]
    return lambda value: min(bisect.bisect_left(highs, value), len(groups) - 1)


# ---------------------------------------------------------------------------- the report


@dataclass(frozen=True)
class ScoreGroup:
    """One group of scores: rows, rows with the outcome, the observed risk (Wilson interval)
    and the mean predicted risk (None without a risk map)."""

    group: Group
    negatives: int
    positives: int
    observed: Interval
    predicted: float | None


@dataclass(frozen=True)
class InputSummary:
    name: str
    missing: int
    rows: int

    @property
    def share(self) -> float:
        return self.missing / self.rows if self.rows else 0.0


@dataclass(frozen=True)
class Validation:
    """The numbers of ``scorecard report`` for one data file (labels required)."""

    source: str
    rows: int
    scored: int
    outcome: Interval
    inputs: tuple[InputSummary, ...]
    auc: Interval
    roc: list[tuple[float, float, float]]
    #: (false positive rate, true positive rate) of the model's own predictions.
    operating_point: tuple[float, float]
    confusion: Confusion
    groups: tuple[ScoreGroup, ...]
    recalibration: Recalibration | None
    #: Mean predicted risk over the scored rows (None without a risk map).
    predicted: float | None
    #: Net benefit over a range of threshold probabilities (decision curve analysis).
    decision: tuple["DecisionPoint", ...] = ()
    #: The numbers by group of each ``--by`` column (and of their combination).
    subgroups: tuple[Breakdown, ...] = ()
    #: Each limit the model was trained under, on the training rows and on these.
    limits: tuple["LimitCheck", ...] = ()
    #: For a model whose risks were refitted (``scorecard recalibrate``): the calibration of the
    #: risks before and after the latest refit, on these rows.
    refit: "RefitCheck | None" = None

    @property
    def unscored(self) -> int:
        return self.rows - self.scored


def _score_groups(scores: list[Number], labels: list[int], risks: list[float | None]) -> tuple[ScoreGroup, ...]:
    groups = score_groups(scores)
    where = _group_of(groups)
    tallies = [[0, 0, 0.0, 0] for _ in groups]  # negatives, positives, sum of risks, risks
    for s, y, r in zip(scores, labels, risks):
        t = tallies[where(s)]
        t[y] += 1
        if r is not None:
            t[2] += r
            t[3] += 1
    return tuple(ScoreGroup(g, neg, pos, wilson(pos, neg + pos), total / k if k else None)
                 for g, (neg, pos, total, k) in zip(groups, tallies))


#: The threshold probabilities of the decision curve: 1% to 99%.
DECISION_THRESHOLDS = tuple(k / 100 for k in range(1, 100))


@dataclass(frozen=True)
class DecisionPoint:
    """Net benefit at one threshold probability (Vickers & Elkin 2006) over the scored rows:
    treating every row, treating the rows the card predicts positive (score > threshold: one
    decision, whatever the threshold probability), and, for a model with a risk map, treating
    the rows whose predicted risk is at least the threshold probability (None without one).
    Treating no row is 0 at every threshold."""

    threshold: float
    treat_all: float
    card: float
    risk: float | None


def decision_curve(labels: Sequence[int], predictions: Sequence[int], risks: Sequence[float] | None,
                   thresholds: Sequence[float] = DECISION_THRESHOLDS) -> tuple[DecisionPoint, ...]:
    """The decision curve of the scored rows: ``labels`` 1/0, ``predictions`` the card's 1/0 and
    ``risks`` the predicted risks (None: no risk map)."""
    n = len(labels)
    positives = sum(labels)
    tp = sum(1 for p, y in zip(predictions, labels) if p == 1 and y == 1)
    fp = sum(1 for p, y in zip(predictions, labels) if p == 1 and y == 0)
    by_class = ([], []) if risks is None else (sorted(r for r, y in zip(risks, labels) if y == 0),
                                                  sorted(r for r, y in zip(risks, labels) if y == 1))
    out = []
    for t in thresholds:
        risk = None
        if risks is not None:  # treat when the risk is at least t
            treated = [len(rows) - bisect.bisect_left(rows, t) for rows in by_class]
            risk = net_benefit(treated[1], treated[0], n, t)
        out.append(DecisionPoint(t, treat_all(positives, n, t), net_benefit(tp, fp, n, t), risk))
    return tuple(out)


# ---------------------------------------------------------------------------- limits in groups


@dataclass(frozen=True)
class LimitCheck:
    """A limit the model was trained under (``training.limits``): its value and verdict on the
    training rows, as recorded, and on the sample's scored rows (None when the sample lacks the
    limit's column)."""

    limit: Limit
    training: LimitValue
    data: LimitValue | None


def limit_columns(model: Model) -> list[str]:
    """The columns the model's limits read (for ``read_sample``'s ``columns``)."""
    return list(dict.fromkeys(record["column"] for record in (model.training.limits if model.training else ())))


def cell_group(cell: object, numeric: bool) -> object:
    """A cell as a group of a limit's column: a number (``score.NUMBER``) for a column of
    numbers, else the text as written; None when missing, or not a number where one is due."""
    if is_missing(cell):
        return None
    if not numeric:
        return cell if isinstance(cell, str) else str(cell)
    if isinstance(cell, (int, float)) and not isinstance(cell, bool):
        number = float(cell)
    else:
        match = NUMBER.fullmatch(str(cell))
        if match is None:
            return None
        number = float(match.group(1))
    return int(number) if number.is_integer() and abs(number) <= EXACT else number


def limit_checks(model: Model, sample: Sample) -> tuple[LimitCheck, ...]:
    """Each limit of ``model.training.limits`` on the training rows (recorded) and on the
    sample's scored rows with their outcome."""
    out = []
    for k, record in enumerate(model.training.limits if model.training else ()):
        limit = limit_from_dict(record, f"training.limits[{k}]", extra=("limit", "groups", "value", "met"))
        trained = tuple(GroupRate(g["group"], g["count"], g["rows"]) for g in record["groups"])
        data = None
        if limit.column in sample.columns and sample.labels is not None:
            numeric = any(not isinstance(g.group, str) for g in trained) or (
                limit.group is not None and not isinstance(limit.group, str))
            cells = sample.columns[limit.column]
            rows = ((cell_group(cells[r], numeric), sample.labels[r], sample.predictions[r], 1) for r in sample.scored)
            data = evaluate(limit, rates(limit, rows))
        out.append(LimitCheck(limit, LimitValue(limit, trained, record.get("value"), record.get("met")), data))
    return tuple(out)


# ---------------------------------------------------------------------------- recalibrated risks


@dataclass(frozen=True)
class Calibration:
    """One risk map on the scored rows: the mean predicted risk, logistic recalibration (slope
    and intercept), the Brier score and the observed against predicted risk by score."""

    predicted: float
    recalibration: Recalibration
    brier: float
    groups: tuple[ScoreGroup, ...]


@dataclass(frozen=True)
class RefitCheck:
    """The latest refit of the model's risks (its ``history`` entry) and the calibration on
    the sample of the map it replaced (``before``; None when the model had none) and of the
    model's own (``after``)."""

    entry: dict
    before: Calibration | None
    after: Calibration


def last_refit(model: Model) -> dict | None:
    """The model's latest recalibration (``history``), None when its risks were never refitted."""
    return next((e for e in reversed(model.history) if e.get("event") == "recalibrated"), None)


def _calibration(scores: list, labels: list[int], risks: list[float]) -> Calibration:
    return Calibration(math.fsum(risks) / len(risks), recalibrate(risks, labels), brier(risks, labels),
                       _score_groups(scores, labels, risks))  # type: ignore[arg-type]


def refit_check(model: Model, scores: list, labels: list[int], risks: list) -> RefitCheck | None:
    """Before and after the latest refit of ``model``'s risks on the scored rows (None when
    never refitted, or when the model now has no map)."""
    entry = last_refit(model)
    if entry is None or model.probability is None:
        return None
    before = None
    if entry["previous"] is not None:
        old = risk_function(entry["previous"])
        before = _calibration(scores, labels, [old(s) for s in scores])  # type: ignore[misc]
    return RefitCheck(entry, before, _calibration(scores, labels, risks))


def validate(model: Model, sample: Sample, by: Sequence[str] = ()) -> Validation:
    """The report's numbers; ``by``: columns of ``sample.columns`` to break them down by.
    Refuses (DataError) a sample without the outcome, without a scored row, or whose scored
    rows hold one class only (no AUC without both)."""
    if sample.labels is None:
        raise DataError(f"{sample.source}: no column {model.target.name!r} (the model's outcome), "
                        "which the report needs")
    labels_all = sample.labels
    scored = sample.scored
    if not scored:
        raise DataError(f"{sample.source}: no row has a score (every row lacks a value the model needs)")
    scores = [sample.scores[k] for k in scored]
    labels = [labels_all[k] for k in scored]
    if len(set(labels)) < 2:
        which = "every one" if labels[0] == 1 else "none"
        raise DataError(f"{sample.source}: the rows with a score hold one class of {model.target.name!r} only "
                        f"({which} of them {model.target.positive!r}, the positive class); discrimination and "
                        "calibration need both")
    risks = [sample.risks[k] for k in scored]
    matrix = confusion([sample.predictions[k] for k in scored], labels)  # type: ignore[misc]
    has_risk = model.probability is not None
    return Validation(
        source=sample.source, rows=sample.rows, scored=len(scored),
        outcome=wilson(sum(labels_all), len(labels_all)),
        inputs=tuple(InputSummary(i.name, sample.missing(i.name), sample.rows) for i in model.used_inputs),
        auc=delong(scores, labels), roc=roc_points(scores, labels),  # type: ignore[arg-type]
        operating_point=(1 - matrix.specificity.value, matrix.sensitivity.value),
        confusion=matrix, groups=_score_groups(scores, labels, risks),  # type: ignore[arg-type]
        recalibration=recalibrate(risks, labels) if has_risk else None,  # type: ignore[arg-type]
        predicted=math.fsum(risks) / len(risks) if has_risk else None,  # type: ignore[arg-type]
        decision=decision_curve(labels, [sample.predictions[k] for k in scored],  # type: ignore[misc]
                                risks if has_risk else None),  # type: ignore[arg-type]
        subgroups=breakdowns(sample.columns, by, sample.source, labels_all, sample.scores, sample.predictions,
                             sample.risks, has_risk) if by else (),
        limits=limit_checks(model, sample), refit=refit_check(model, scores, labels, risks))


# ---------------------------------------------------------------------------- the monitor


@dataclass(frozen=True)
class Bins:
    """How values fall into bins: ``labels`` in order, ``index(value)`` of a present value
    (as the runtime reads it); missing values go to the last bin, labelled ``MISSING``."""

    labels: tuple[str, ...]
    index: Callable[[object], int]


def _interval_bins(cuts: list[Number], read: Callable[[object], Number]) -> Bins:
    """``< c1``, ``c1 to < c2``, ..., ``>= ck``, then missing: the bins of ``>=`` cut-offs."""
    shown = [_short(c) for c in cuts]
    labels = [f"< {shown[0]}"] + [f"{a} to < {b}" for a, b in zip(shown, shown[1:])] + [f"\u2265 {shown[-1]}"]
    return Bins(tuple(labels) + (MISSING,), lambda v: bisect.bisect_right(cuts, read(v)))


def _quantile_cuts(values: list[Number]) -> list[Number]:
    """The starts of ``score_groups``' runs after the first: cut-offs of about equal groups."""
    groups = score_groups(values, most=GROUPS)
    return [g.low for g in groups[1:]] or [groups[0].low]


def input_bins(model: Model, inp: Input, baseline: list[object]) -> Bins:
    """The monitor's bins of one used input (module docstring); ``baseline`` its cells in
    the baseline file (for an input read only as ``points x value``)."""
    terms = [t for t in model.terms if t.input == inp.name and t.op != "missing"]

    def read(cell: object) -> object:
        return coerce(inp, cell)

    cuts = sorted({t.value for t in terms if t.op in (">=", "<")})  # type: ignore[type-var]
    if cuts:
        return _interval_bins(cuts, read)  # type: ignore[arg-type]
    named: list[object] = []
    for t in terms:
        for v in t.value if t.op == "in" else (t.value,) if t.op == "==" else ():  # type: ignore[union-attr]
            if v not in named:
                named.append(v)
    if not named and inp.type == "binary":
        named = [0, 1]
    if named:
        def index(cell: object) -> int:
            value = read(cell)
            return named.index(value) if value in named else len(named)

        labels = tuple(v if isinstance(v, str) else _short(v) for v in named)  # type: ignore[arg-type]
        return Bins(labels + (OTHER, MISSING), index)
    if inp.type == "categorical":  # only its "unknown" row: known or not is all the model reads
        return Bins((KNOWN, MISSING), lambda v: 0)
    present = [read(v) for v in baseline if not is_missing(v)]
    return _interval_bins(_quantile_cuts(present) if present else [0], read)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Shift:
    """One monitored item: counts per bin in the baseline and the current data, and the PSI."""

    name: str
    kind: str  # "score" or "input"
    labels: tuple[str, ...]
    baseline: tuple[int, ...]
    current: tuple[int, ...]
    psi: float

    @property
    def band(self) -> str:
        return psi_band(self.psi)


@dataclass(frozen=True)
class Outcome:
    """The outcome in one file: its rate, the mean predicted risk over the scored rows,
    logistic recalibration, the AUC and the observed/predicted risk by score group."""

    rate: Interval
    predicted: float | None
    recalibration: Recalibration | None
    auc: Interval | None
    groups: tuple[ScoreGroup, ...]


@dataclass(frozen=True)
class GroupDrift:
    """One group of a ``monitor --by`` column: its rows in the baseline and the current data,
    the PSI of its scores (over the monitor's score bins; None when a side has none of its
    rows) and its numbers in each file that has the outcome and rows of the group."""

    column: str
    label: str
    rows: tuple[int, int]
    psi: float | None
    outcomes: tuple[GroupNumbers | None, GroupNumbers | None]


@dataclass(frozen=True)
class Drift:
    """The numbers of ``scorecard monitor``."""

    baseline: str
    current: str
    rows: tuple[int, int]
    shifts: tuple[Shift, ...]
    #: input -> (missing in the baseline, missing in the current data)
    missing: dict[str, tuple[int, int]]
    #: (baseline, current); a side is None when its file has no outcome column.
    outcomes: tuple[Outcome | None, Outcome | None]
    #: The groups of each ``--by`` column, column by column.
    groups: tuple[GroupDrift, ...] = ()


def _shift(name: str, kind: str, bins: Bins, a: list[object], b: list[object]) -> Shift:
    counts = []
    seen: dict[object, int] = {}  # cell -> bin: a column holds few distinct cells
    for cells in (a, b):
        tally = [0] * len(bins.labels)
        for cell in cells:
            k = seen.get(cell)
            if k is None:
                k = seen[cell] = len(bins.labels) - 1 if is_missing(cell) else bins.index(cell)
            tally[k] += 1
        counts.append(tally)
    keep = [k for k in range(len(bins.labels)) if counts[0][k] or counts[1][k]]
    return Shift(name, kind, tuple(bins.labels[k] for k in keep), tuple(counts[0][k] for k in keep),
                 tuple(counts[1][k] for k in keep), psi(counts[0], counts[1]))


def _score_bins(a: list[Number | None], b: list[Number | None]) -> Bins:
    both = [s for s in a + b if s is not None]
    if not both:
        return Bins((NO_SCORE,), lambda v: 0)
    distinct = sorted(set(both))
    if len(distinct) <= MAX_VALUES:
        return Bins(tuple(_short(v) for v in distinct) + (NO_SCORE,), lambda v: distinct.index(v))
    base = [s for s in a if s is not None] or both
    bins = _interval_bins(_quantile_cuts(base), lambda v: v)  # type: ignore[arg-type, return-value]
    return Bins(bins.labels[:-1] + (NO_SCORE,), bins.index)


def _outcome(model: Model, sample: Sample) -> Outcome | None:
    if sample.labels is None:
        return None
    scored = sample.scored
    labels = [sample.labels[k] for k in scored]
    scores = [sample.scores[k] for k in scored]
    risks = [sample.risks[k] for k in scored]
    has_risk = model.probability is not None and bool(scored)
    both = len(set(labels)) == 2
    return Outcome(rate=wilson(sum(sample.labels), len(sample.labels)),
                   predicted=math.fsum(risks) / len(risks) if has_risk else None,  # type: ignore[arg-type]
                   recalibration=recalibrate(risks, labels) if has_risk else None,  # type: ignore[arg-type]
                   auc=delong(scores, labels) if both else None,  # type: ignore[arg-type]
                   groups=_score_groups(scores, labels, risks) if scored else ())  # type: ignore[arg-type]


def _group_drift(model: Model, baseline: Sample, current: Sample, name: str, bins: Bins) -> list[GroupDrift]:
    """The groups of column ``name`` in both files (module docstring of ``runtime.subgroups``)."""
    for sample in (baseline, current):
        if name not in sample.columns:
            raise DataError(f"{sample.source}: no column {name!r} to break the numbers down by (--by)")
    (keys_a, shown_a), (keys_b, shown_b) = group_labels(baseline.columns[name]), group_labels(current.columns[name])
    shown = {**shown_b, **shown_a}
    if len(shown) > MAX_GROUPS:
        raise DataError(f"{current.source}: column {name!r} holds {len(shown)} values in the two files; --by takes "
                        f"a column of at most {MAX_GROUPS} groups (bands of a number go in a column of their own)")
    has_risk = model.probability is not None
    out = []
    for key in sorted(shown, key=group_order):
        sides = []
        for sample, keys in ((baseline, keys_a), (current, keys_b)):
            index = [k for k, other in enumerate(keys) if other == key]
            numbers = None
            if sample.labels is not None and index:
                numbers = group_numbers(shown[key], [sample.labels[k] for k in index],
                                        [sample.scores[k] for k in index], [sample.predictions[k] for k in index],
                                        [sample.risks[k] for k in index], has_risk)
            sides.append((index, numbers))
        (a, numbers_a), (b, numbers_b) = sides
        cells = [[s if s is not None else "" for s in (sample.scores[k] for k in index)]
                 for sample, index in ((baseline, a), (current, b))]
        value = _shift("score", "score", bins, *cells).psi if a and b else None
        out.append(GroupDrift(name, shown[key], (len(a), len(b)), value, (numbers_a, numbers_b)))
    return out


def drift(model: Model, baseline: Sample, current: Sample, by: Sequence[str] = ()) -> Drift:
    """The monitor's numbers: the score first, then each used input in the model's order;
    ``by``: columns of both samples' ``columns`` to break the score's shift and the outcome's
    numbers down by."""
    score_bins = _score_bins(baseline.scores, current.scores)
    groups = [g for name in dict.fromkeys(by) for g in _group_drift(model, baseline, current, name, score_bins)]
    shifts = [_shift("score", "score", score_bins,
                     [s if s is not None else "" for s in baseline.scores],
                     [s if s is not None else "" for s in current.scores])]
    for inp in model.used_inputs:
        a, b = baseline.values[inp.name], current.values[inp.name]
        shifts.append(_shift(inp.name, "input", input_bins(model, inp, a), a, b))
    return Drift(baseline=baseline.source, current=current.source, rows=(baseline.rows, current.rows),
                 shifts=tuple(shifts),
                 missing={i.name: (baseline.missing(i.name), current.missing(i.name)) for i in model.used_inputs},
                 outcomes=(_outcome(model, baseline), _outcome(model, current)), groups=tuple(groups))
