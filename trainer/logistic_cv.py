"""The logistic-loss candidates of ``--c0 auto``: the logistic path's card of each size
(``search/logistic_cards.py``, FasterRisk's method), cross-validated on the same stratified
folds as the 0-1-loss grid, so the one-standard-error rule (``folds.one_standard_error``)
chooses among cards of both losses by the same measure, the misclassification error on rows
a card did not see.

Why both losses. The 0-1 loss is the error itself, and its optimum can be proven; the
logistic loss is its smooth surrogate, which spreads points over several conditions where
the 0-1 loss, with C0 per item, often keeps one or two: on small noisy data (pima: 372
rows) the exact 0-1 cards of the grid were worse on new rows than FasterRisk's logistic
card (benchmarks/RESULTS.md, "Raw data"). The paper (Ustun & Rudin 2016, Section 4.1) trains
its scoring systems under either loss; which generalizes better on a given data set is an
empirical question, so cross-validation answers it, as it answers the choice of C0.

Why repeated folds. The cross-validated error of a card on a few hundred rows depends on how
the folds were dealt (pima's one-item card: 24.0 % to 26.4 % over four dealings): a
selection among many candidates then follows that chance. Repeating the K-fold
cross-validation R times with new dealings and averaging lowers that variance (Kohavi 1995;
Kim 2009, "Estimating classification error rate: repeated cross-validation, repeated
hold-out and bootstrap"); the standard error is then that of the mean over the K x R fold
errors (standard deviation / sqrt(K R)), the convention of caret's one-standard-error rule
(Kuhn 2008, ``oneSE``). A logistic card costs milliseconds, so its candidates get REPEATS
dealings (the first is the 0-1 grid's own); fewer when one dealing's work (rows x columns)
is large (:func:`repeats_for`), so the count depends on the data only, never on the clock.
The 0-1 cards are exact searches whose time is the command's budget: they get one dealing.
"""
from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass

import numpy as np

from .data.design import Design, build
from .data.families import design_for
from .data.prepare import LabeledData
from .folds import EMPTY, LOGISTIC, GridPoint, standard_error, stratified_folds, weighted_error
from .options.config import TrainConfig
from .problem.constrained import constrained_problem
from .problem.slim import SlimProblem
from .search.beam import Budget
from .search.logistic_cards import LogisticCard, logistic_cards, scaled_fit
from .solvers.options import Deadline

#: Dealings of the K folds the logistic cards are cross-validated on (seeds seed, seed + 1, ...).
REPEATS = 5
#: Work of all the dealings together, in rows x design columns x folds: fewer dealings (at
#: least one) when one costs more (pima, 372 rows x 93 columns: five dealings; default,
#: 7,000 x 34: three; credit, 3,117 x 117: two).
REPEAT_WORK = 4e6


@dataclass(frozen=True)
class LogisticFit:
    """The logistic card of ``items`` items trained on all rows, with its design."""

    design: Design
    problem: SlimProblem
    card: LogisticCard


def offered(data: LabeledData, config: TrainConfig) -> SlimProblem | None:
    """The problem of all of ``data`` when ``--c0 auto`` offers logistic cards beside the 0-1
    grid, else None: plain SLIM under the 0-1 loss (the default), no ``--reduce`` (a request
    about how the 0-1 problem is solved), and no constraint the path cannot keep (only the
    coefficient box and signs: no value sets, feature counts, rate limits or composition
    rules). ``config``'s c0 is a number (it prices nothing on the path)."""
    if config.model != "slim" or config.loss != "zero-one" or config.reduce:
        return None
    problem = constrained_problem(design_for(data, config), data, config)
    plain = problem.constraints is None and config.max_features is None and config.min_features is None
    return problem if plain else None


def repeats_for(rows: int, columns: int, folds: int) -> int:
    """Dealings of the folds: REPEATS, fewer when one dealing's work exceeds REPEAT_WORK / REPEATS."""
    per_dealing = max(1, rows) * max(1, columns) * folds
    return max(1, min(REPEATS, int(REPEAT_WORK // per_dealing)))


def fit_card(data: LabeledData, config: TrainConfig, deadline: Deadline) -> tuple[Design, SlimProblem,
                                                                                 list[LogisticCard]]:
    """The design, problem and logistic cards of sizes 1..``config.max_items`` of ``data`` (``config``'s
    c0 a number: it prices nothing here but the problem needs one)."""
    design = design_for(data, config)
    problem = constrained_problem(design, data, config)
    return design, problem, logistic_cards(problem, config.max_items, Budget(math.inf, time.monotonic()
                                                                       + deadline.remaining()))


def final_card(data: LabeledData, config: TrainConfig, items: int, deadline: Deadline) -> LogisticFit | None:
    """The logistic card of ``items`` items trained on every row (None if the path stops short)."""
    design, problem, cards = fit_card(data, config, deadline)
    return LogisticFit(design, problem, cards[items - 1]) if len(cards) >= items else None


def row_risk(fit: LogisticFit, data: LabeledData) -> tuple[float, float]:
    """(scale, center) of ``fit``'s card's logistic risk refitted on ``data``'s rows as they
    are (each row its count, no class weight). Under --w-pos the path fits the curve with the
    class weights that chose the points: its "risk" is the weighted odds (a rare outcome's risk
    shown as 58 % where 8 % of such rows have it), not the risk of a row."""
    card = fit.card
    scores = (fit.design.X @ card.coef.astype(np.float64))[:, None]
    weight = np.ones(len(data.y)) if data.counts is None else data.counts.astype(np.float64)
    offset = -card.scale * card.center if math.isfinite(card.center) else 0.0
    _, a, b = scaled_fit(scores, (data.y > 0).astype(np.float64), weight, np.array([card.scale]), np.array([offset]))
    if not a[0] > 0:
        return card.scale, card.center
    return float(a[0]), float(-b[0] / a[0])


def cross_validate(data: LabeledData, config: TrainConfig, folds: int, deadline: Deadline,
                   columns: int | None = None) -> list[GridPoint]:
    """One point per card size: its mean test error over the folds of every dealing, the
    standard error of that mean, mean items and mean training error, and the mean test
    logistic loss of its risks (each fold's card with the risk curve it was fitted with), its
    standard error and the mean test AUC. A dealing not finished by ``deadline`` (a safety
    net) is left out; a size some fold's path did not reach too. ``columns``: the design's
    columns on all rows, when the caller has them (they set the number of dealings,
    :func:`repeats_for`)."""
    columns = len(design_for(data, config).columns) if columns is None else columns
    repeats = repeats_for(len(data.y), columns, folds)
    everything = np.arange(len(data.y))
    found: dict[int, list[Fold]] = {}
    for r in range(repeats):
        dealt: dict[int, list[Fold]] = {}
        for test in stratified_folds(data.y, folds, config.seed + r):
            if deadline.expired():
                return _points(found)
            fit_data = data.subset(np.setdiff1d(everything, test)).impute_with()
            test_data = data.subset(test).impute_with(fit_data.imputed)
            fit_design, _, cards = fit_card(fit_data, config, deadline)
            test_X = build(test_data, list(fit_design.columns)).X
            for size, card in enumerate(cards, start=1):
                dealt.setdefault(size, []).append(_fold(card, test_X, test_data, fit_design.X, fit_data,
                                                        config.w_pos))
        for size, rows in dealt.items():
            found.setdefault(size, []).extend(rows)
    return _points(found)


@dataclass(frozen=True)
class Fold:
    """A card's numbers on one fold: test and training error (weighted as the 0-1 grid's),
    items, and the test rows' logistic loss and AUC of its risk."""

    test_error: float
    train_error: float
    size: int
    log_loss: float
    auc: float


def _fold(card: LogisticCard, test_X: np.ndarray, test: LabeledData, fit_X: np.ndarray, fit: LabeledData,
          w_pos: float) -> Fold:
    total = test_X @ card.coef.astype(np.float64)
    risk = logistic_risk(total, card.scale, card.center)
    return Fold(_error(card, test_X, test, w_pos), _error(card, fit_X, fit, w_pos), card.size,
                log_loss(risk, test), auc(total, test))


def logistic_risk(total: np.ndarray, scale: float, center: float) -> np.ndarray:
    """``1 / (1 + exp(-scale (total - center)))``, the card's risk at each points total."""
    if not math.isfinite(center):
        return np.full(len(total), 0.0 if center > 0 else 1.0)
    return 1.0 / (1.0 + np.exp(-np.clip(scale * (total - center), -700, 700)))


#: Risks are kept this far from 0 and 1 in the logistic loss (a card that is certain and
#: wrong costs -log(1e-12), not infinity).
RISK_FLOOR = 1e-12


def log_loss(risk: np.ndarray, data: LabeledData) -> float:
    """The mean logistic loss of ``risk`` on ``data``'s rows (each row its count)."""
    p = np.clip(risk, RISK_FLOOR, 1 - RISK_FLOOR)
    positive = data.y > 0
    loss = np.where(positive, -np.log(p), -np.log1p(-p))
    weight = np.ones(len(p)) if data.counts is None else data.counts.astype(np.float64)
    return float((loss * weight).sum() / weight.sum())


def auc(total: np.ndarray, data: LabeledData) -> float:
    """The area under the ROC curve of ``total`` on ``data``'s rows (Mann-Whitney: a tie counts
    one half; each row its count); 0.5 when a class is absent."""
    weight = np.ones(len(total)) if data.counts is None else data.counts.astype(np.float64)
    positive = data.y > 0
    pos, neg = weight[positive].sum(), weight[~positive].sum()
    if pos == 0 or neg == 0:
        return 0.5
    values, inverse = np.unique(total, return_inverse=True)
    pos_at = np.bincount(inverse, weights=weight * positive, minlength=len(values))
    neg_at = np.bincount(inverse, weights=weight * ~positive, minlength=len(values))
    below = np.cumsum(neg_at) - neg_at  # negatives with a lower total
    return float((pos_at * (below + 0.5 * neg_at)).sum() / (pos * neg))


def _error(card: LogisticCard, X: np.ndarray, data: LabeledData, w_pos: float) -> float:
    """Share of ``data``'s rows the card gets wrong (the runtime's rule: intercept + points > 0;
    grouped rows counted as the rows they stand for), weighted as the 0-1 grid's errors are
    (``folds.weighted_error``)."""
    wrong = (X @ card.coef.astype(np.float64) + card.intercept > 0) != (data.y > 0)
    return weighted_error(wrong, data, w_pos)


def _points(found: dict[int, list[Fold]]) -> list[GridPoint]:
    """The grid points of the sizes every fold reached."""
    if not found:
        return []
    folds = max(len(rows) for rows in found.values())
    points = []
    for size, rows in sorted(found.items()):
        if len(rows) < folds:
            continue
        tests, losses = [r.test_error for r in rows], [r.log_loss for r in rows]
        points.append(GridPoint(None, statistics.fmean(tests), standard_error(tests),
                                statistics.fmean(r.size for r in rows), statistics.fmean(r.train_error for r in rows),
                                loss=LOGISTIC, items=size, log_loss=statistics.fmean(losses),
                                log_loss_se=standard_error(losses), auc=statistics.fmean(r.auc for r in rows)))
    return points


def empty_point(data: LabeledData, folds: int, seed: int, w_pos: float) -> GridPoint:
    """The empty card on the same folds: each fold's training rows' majority class (by the
    class weights of --w-pos) for every test row, and their base rate as its risk."""
    everything = np.arange(len(data.y))
    rows = []
    for test in stratified_folds(data.y, folds, seed):
        fit, held = data.subset(np.setdiff1d(everything, test)), data.subset(test)
        weight = np.ones(len(fit.y)) if fit.counts is None else fit.counts.astype(np.float64)
        rate = float(weight[fit.y > 0].sum() / weight.sum())
        positive = w_pos * rate > (1 - w_pos) * (1 - rate)
        error = weighted_error(np.full(len(held.y), positive) != (held.y > 0), held, w_pos)
        train = weighted_error(np.full(len(fit.y), positive) != (fit.y > 0), fit, w_pos)
        rows.append(Fold(error, train, 0, log_loss(np.full(len(held.y), rate), held), 0.5))
    tests, losses = [r.test_error for r in rows], [r.log_loss for r in rows]
    return GridPoint(None, statistics.fmean(tests), standard_error(tests), 0.0, statistics.fmean(r.train_error for r in rows),
                     loss=EMPTY, items=0, log_loss=statistics.fmean(losses), log_loss_se=standard_error(losses), auc=0.5)
