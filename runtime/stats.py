"""The statistics of ``scorecard report`` and ``scorecard monitor``. Standard library only.

What TRIPOD (the reporting guideline for clinical prediction models) asks of a validation,
each with its uncertainty, and the population stability index of a drift monitor:

- :func:`auc` (the area under the ROC curve, the Mann-Whitney count of positive/negative
  pairs the score orders correctly, ties counting one half) and :func:`delong`, its 95 %
  interval from DeLong's variance (DeLong, DeLong & Clarke-Pearson 1988; the structural
  components of Sun & Xu 2014, computed by sorting, so O(n log n));
- :func:`roc_points`, the ROC curve of "predict positive when score >= s" over every
  distinct score;
- :func:`wilson`, the Wilson score interval of a proportion (observed risk, sensitivity, ...);
- :func:`recalibrate`, logistic recalibration (Cox 1958): the calibration slope (the
  outcome's log-odds on the predicted log-odds) and the calibration intercept with the slope
  fixed at 1 (calibration-in-the-large), each with a Wald 95 % interval, by Newton's method;
- :func:`confusion`, the confusion table at the model's own threshold;
- :func:`brier`, the Brier score (the mean squared difference of risk and outcome);
- :func:`net_benefit`, the net benefit of a decision rule at a threshold probability
  (Vickers & Elkin 2006, decision curve analysis), and :func:`treat_all`, that of treating
  every row;
- :func:`psi`, the population stability index of two distributions over the same bins.

Inputs are plain lists (one entry per row with a score); nothing here reads files.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054
#: PSI bands (the usual rule of thumb): below 0.1 no shift, 0.1 to 0.25 a moderate shift,
#: 0.25 and more a major shift.
PSI_BANDS = (0.1, 0.25)
#: Predicted risks are kept this far from 0 and 1 before their log-odds are taken (a risk
#: table of an old model file may hold 0 or 1, whose log-odds are infinite).
RISK_FLOOR = 1e-6


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95 % interval ``[low, high]``."""

    value: float
    low: float
    high: float


def auc(scores: Sequence[float], labels: Sequence[int]) -> float:
    """P(score of a random positive > score of a random negative) + P(tie) / 2.

    ``labels`` are 1 (positive) and 0; both classes must occur (ValueError otherwise)."""
    return delong(scores, labels).value


def _midranks(values: Sequence[float]) -> list[float]:
    """Rank of each value among ``values`` (1-based), ties sharing their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    k = 0
    while k < len(order):
        j = k
        while j + 1 < len(order) and values[order[j + 1]] == values[order[k]]:
            j += 1
        for i in order[k:j + 1]:
            ranks[i] = (k + j) / 2 + 1
        k = j + 1
    return ranks


def _variance(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    mean = math.fsum(values) / len(values)
    return math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)


def delong(scores: Sequence[float], labels: Sequence[int]) -> Interval:
    """The AUC and its 95 % interval, ``AUC ± 1.96 SE`` clipped to [0, 1], with DeLong's
    variance ``var(V10) / m + var(V01) / n`` (``V10`` of a positive: the share of negatives
    it outscores, ties one half; ``V01`` of a negative: the share of positives outscoring it)."""
    pos = [s for s, y in zip(scores, labels) if y == 1]
    neg = [s for s, y in zip(scores, labels) if y == 0]
    m, n = len(pos), len(neg)
    if m == 0 or n == 0:
        raise ValueError("the AUC needs rows of both classes")
    both, own_pos, own_neg = _midranks(pos + neg), _midranks(pos), _midranks(neg)
    v10 = [(both[i] - own_pos[i]) / n for i in range(m)]  # negatives below, ties one half
    v01 = [1 - (both[m + j] - own_neg[j]) / m for j in range(n)]  # positives above, ties one half
    value = math.fsum(v10) / m
    se = math.sqrt(_variance(v10) / m + _variance(v01) / n)
    return Interval(value, max(0.0, value - Z95 * se), min(1.0, value + Z95 * se))


def roc_points(scores: Sequence[float], labels: Sequence[int]) -> list[tuple[float, float, float]]:
    """(threshold s, false positive rate, true positive rate) of "positive when score >= s",
    from the highest score down, starting at (inf, 0, 0) and ending at (lowest score, 1, 1)."""
    m = sum(1 for y in labels if y == 1)
    n = len(labels) - m
    by_score: dict[float, list[int]] = {}
    for s, y in zip(scores, labels):
        counts = by_score.setdefault(s, [0, 0])
        counts[y] += 1
    points = [(math.inf, 0.0, 0.0)]
    tp = fp = 0
    for s in sorted(by_score, reverse=True):
        fp += by_score[s][0]
        tp += by_score[s][1]
        points.append((s, fp / n if n else 0.0, tp / m if m else 0.0))
    return points


def wilson(k: int, n: int, z: float = Z95) -> Interval:
    """The proportion ``k / n`` and its Wilson score interval (0 to 1 when ``n`` is 0)."""
    if n == 0:
        return Interval(math.nan, 0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def logit(p: float) -> float:
    """The log-odds of ``p``, kept within ``RISK_FLOOR`` of 0 and 1."""
    p = min(max(p, RISK_FLOOR), 1 - RISK_FLOOR)
    return math.log(p / (1 - p))


def _sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))


@dataclass(frozen=True)
class Recalibration:
    """Logistic recalibration ``logit P(y=1) = a + b * logit(risk)``.

    ``slope``: b of the two-parameter fit (1 when the spread of the risks is right, below 1
    when they are too extreme); ``intercept``: a with b fixed at 1 (0 when the risks are right
    on average, above 0 when they are too low). None where the fit does not exist (one class
    only, or every row with the same risk for the slope)."""

    slope: Interval | None
    intercept: Interval | None


def _newton(groups: dict[tuple[float, float], list[int]], fit_slope: bool) -> tuple[list[float], list[list[float]]] | None:
    """Maximum likelihood of ``logit P(y) = a + b x + offset`` (b only if ``fit_slope``) over
    rows grouped by ``(x, offset)`` into ``[rows, positives]`` (a score takes few values, so
    this is fast): the parameters and their covariance (the inverse Fisher information); None
    if it does not converge (separation) or the information is singular."""
    k = 2 if fit_slope else 1
    beta = [0.0] * k
    for _ in range(100):
        grad = [0.0] * k
        info = [[0.0] * k for _ in range(k)]
        for (x, o), (n, positives) in groups.items():
            p = _sigmoid(beta[0] + (beta[1] * x if fit_slope else 0.0) + o)
            w = n * p * (1 - p)
            row = (1.0, x) if fit_slope else (1.0,)
            for i in range(k):
                grad[i] += (positives - n * p) * row[i]
                for j in range(k):
                    info[i][j] += w * row[i] * row[j]
        if k == 1:
            if info[0][0] <= 0:
                return None
            cov = [[1 / info[0][0]]]
        else:
            det = info[0][0] * info[1][1] - info[0][1] * info[1][0]
            if det <= 1e-12 * max(1.0, info[0][0] * info[1][1]):
                return None
            cov = [[info[1][1] / det, -info[0][1] / det], [-info[1][0] / det, info[0][0] / det]]
        step = [sum(cov[i][j] * grad[j] for j in range(k)) for i in range(k)]
        beta = [b + s for b, s in zip(beta, step)]
        if any(abs(b) > 1e6 for b in beta):
            return None
        if max(abs(s) for s in step) < 1e-10:
            return beta, cov
    return None


def recalibrate(risks: Sequence[float], labels: Sequence[int]) -> Recalibration:
    """The calibration slope and intercept of predicted ``risks`` against 0/1 ``labels``."""
    if len(set(labels)) < 2:
        return Recalibration(None, None)
    by_risk: dict[float, list[int]] = {}
    for r, y in zip(risks, labels):
        tally = by_risk.setdefault(logit(r), [0, 0])
        tally[0] += 1
        tally[1] += y
    slope = intercept = None
    fitted = _newton({(x, 0.0): t for x, t in by_risk.items()}, fit_slope=True) if len(by_risk) > 1 else None
    if fitted is not None:
        b, var = fitted[0][1], fitted[1][1][1]
        slope = Interval(b, b - Z95 * math.sqrt(var), b + Z95 * math.sqrt(var))
    fitted = _newton({(0.0, x): t for x, t in by_risk.items()}, fit_slope=False)
    if fitted is not None:
        a, var = fitted[0][0], fitted[1][0][0]
        intercept = Interval(a, a - Z95 * math.sqrt(var), a + Z95 * math.sqrt(var))
    return Recalibration(slope, intercept)


@dataclass(frozen=True)
class Confusion:
    """The confusion table of predictions against outcomes (1 positive, 0 negative)."""

    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def sensitivity(self) -> Interval:
        """True positive rate: of the rows with the outcome, the share predicted positive."""
        return wilson(self.tp, self.tp + self.fn)

    @property
    def specificity(self) -> Interval:
        """True negative rate: of the rows without the outcome, the share predicted negative."""
        return wilson(self.tn, self.tn + self.fp)

    @property
    def ppv(self) -> Interval:
        """Positive predictive value: of the rows predicted positive, the share with the outcome."""
        return wilson(self.tp, self.tp + self.fp)

    @property
    def npv(self) -> Interval:
        """Negative predictive value: of the rows predicted negative, the share without it."""
        return wilson(self.tn, self.tn + self.fn)

    @property
    def accuracy(self) -> Interval:
        return wilson(self.tp + self.tn, self.tp + self.fp + self.fn + self.tn)


def confusion(predictions: Sequence[int], labels: Sequence[int]) -> Confusion:
    """Count the four cells of predictions (1/0) against labels (1/0)."""
    cells = {(1, 1): 0, (1, 0): 0, (0, 1): 0, (0, 0): 0}
    for p, y in zip(predictions, labels):
        cells[(p, y)] += 1
    return Confusion(tp=cells[(1, 1)], fp=cells[(1, 0)], fn=cells[(0, 1)], tn=cells[(0, 0)])


def brier(risks: Sequence[float], labels: Sequence[int]) -> float:
    """The Brier score: the mean of ``(risk - outcome)^2`` over the rows (0 is perfect; a
    model that predicts the outcome rate for every row scores ``rate * (1 - rate)``)."""
    if not risks:
        raise ValueError("the Brier score needs rows")
    return math.fsum((r - y) ** 2 for r, y in zip(risks, labels)) / len(risks)


def net_benefit(tp: int, fp: int, n: int, threshold: float) -> float:
    """The net benefit of a rule that treats ``tp`` rows with the outcome and ``fp`` without,
    out of ``n``, at threshold probability ``threshold`` (Vickers & Elkin 2006):
    ``tp / n - fp / n * threshold / (1 - threshold)``. A threshold probability ``p`` says how a
    decision maker weighs the harms: a false positive costs ``p / (1 - p)`` of a true
    positive's benefit (treat when the risk is at least ``p``)."""
    if n <= 0 or not 0 < threshold < 1:
        raise ValueError("net benefit needs rows and a threshold strictly between 0 and 1")
    return tp / n - fp / n * threshold / (1 - threshold)


def treat_all(positives: int, n: int, threshold: float) -> float:
    """The net benefit of treating every row: ``net_benefit(positives, n - positives, n, threshold)``."""
    return net_benefit(positives, n - positives, n, threshold)


#: An empty bin counts as this many rows in :func:`psi`, so one empty bin gives a large but
#: finite index instead of infinity.
EMPTY_BIN = 0.5


def psi(baseline: Sequence[int], current: Sequence[int]) -> float:
    """Population stability index of two count vectors over the same bins:
    ``sum((c_i - b_i) * ln(c_i / b_i))`` of the shares ``b_i``, ``c_i``; a bin empty on one
    side counts ``EMPTY_BIN`` rows there (shares stay as counted elsewhere)."""
    if len(baseline) != len(current):
        raise ValueError("psi needs the same bins on both sides")
    nb, nc = sum(baseline), sum(current)
    if nb == 0 or nc == 0:
        raise ValueError("psi needs rows on both sides")
    total = 0.0
    for b, c in zip(baseline, current):
        if b == 0 and c == 0:
            continue
        pb, pc = max(b, EMPTY_BIN) / nb, max(c, EMPTY_BIN) / nc
        total += (pc - pb) * math.log(pc / pb)
    return total


def psi_band(value: float) -> str:
    """The rule-of-thumb reading of a PSI: "no shift", "moderate shift" or "major shift"."""
    low, high = PSI_BANDS
    return "no shift" if value < low else "moderate shift" if value < high else "major shift"
