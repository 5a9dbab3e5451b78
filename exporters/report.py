"""The pages of ``scorecard report`` and ``scorecard monitor``, and the monitor's text lines.

Not an export format (it needs data besides the model, so it is not in the registry): the
numbers come from ``runtime.validation`` (``validate``, ``drift``), the card from the html
export itself (``render_html(model, fragment=True)``: the same card, calculator included,
never a second rendering of it), the charts from ``scorecard.svgplot`` as inline SVG. Each page
is one self-contained file (no network reference) that prints on one sheet of A4 or Letter.

Safety as in the html export: Jinja2 autoescaping, every name through
``runtime.names.visible`` first, and the SVG charts escape their own text.
"""
from __future__ import annotations

import bisect
import math
from typing import Callable

from markupsafe import Markup

from scorecard import __version__
from scorecard.runtime import Model
from scorecard.runtime.names import visible
from scorecard.runtime.limits import LimitValue
from scorecard.runtime.stats import PSI_BANDS, Interval, Recalibration, psi_band
from scorecard.runtime.subgroups import MIN_CLASS_ROWS, GroupNumbers
from scorecard.runtime.validation import Drift, Group, GroupDrift, Outcome, ScoreGroup, Validation
from scorecard.svgplot import bar_chart, calibration_chart, decision_chart, psi_chart, roc_chart

from .html import density, page_template, render_html
from .layout import card, outcome_text, result_text, selection_text

#: The height (inches) a printed page holds: Letter's 11in less two 0.5in margins, less a
#: little for rounding. Both pages are laid out 7.2in wide (A4's width holds that too).
PAGE_HEIGHT = 9.6
#: Estimated heights (inches, at zoom 1) of the parts of a page, from measured printouts.
CHART, HEADER = 2.1, 0.7
#: The drift page prints the distributions of the score and of at most this many inputs,
#: those with the largest PSI (the screen shows them all).
PRINTED_INPUTS = 8


def zoom(height: float) -> float:
    """The printout's zoom so that content about ``height`` inches tall fits one sheet."""
    return min(1.0, PAGE_HEIGHT / height)


def percent(value: float | None, digits: int = 1) -> str:
    """``12.5%``; a share that rounds to 0 or 100 but is not says ``< 0.1%`` / ``> 99.9%``."""
    if value is None or math.isnan(value):
        return "n/a"
    low = 10 ** -digits
    if 0 < 100 * value < low:
        return f"< {low:g}%"
    if 100 - low < 100 * value < 100:
        return f"> {100 - low:g}%"
    return f"{100 * value:.{digits}f}%"


def interval_text(i: Interval | None, as_percent: bool = False, digits: int = 3, label: str = "95% CI ") -> str:
    """``0.912 (95% CI 0.881 to 0.943)``, or as percentages; the pages pass ``label=""``
    (they state once that every interval is 95%)."""
    if i is None:
        return "n/a"
    if as_percent:
        return f"{percent(i.value)} ({label}{percent(i.low)} to {percent(i.high)})"

    def fixed(x: float) -> str:
        text = f"{x:.{digits}f}"
        return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.00"

    return f"{fixed(i.value)} ({label}{fixed(i.low)} to {fixed(i.high)})"


def page_interval(i: Interval | None, as_percent: bool = False, digits: int = 3) -> str:
    """:func:`interval_text` as the pages print it, without "95% CI"."""
    return interval_text(i, as_percent, digits, label="")


def _calibration_points(groups: tuple[ScoreGroup, ...]) -> list[tuple[float, float, float, float]]:
    return [(g.predicted, g.observed.value, g.observed.low, g.observed.high)
            for g in groups if g.predicted is not None]


def _recalibration_text(r: Recalibration | None, label: str = "95% CI ") -> tuple[str, str]:
    if r is None:
        return "n/a", "n/a"
    return interval_text(r.slope, digits=2, label=label), interval_text(r.intercept, digits=2, label=label)


def _training(model: Model) -> list[tuple[str, str]]:
    """How the model was trained, as (what, value) lines."""
    t = model.training
    if t is None:
        return [("training record", "none (a model written by hand)")]
    lines = [("solver", t.solver), ("result", result_text(t)),
             ("certificate", f"objective {t.objective:.6g}, lower bound {t.lower_bound:.6g}, gap {100 * t.gap:.2f}%"),
             ("training rows", f"{t.n_rows}"), ("training error", percent(t.train_error)),
             ("time", f"{t.seconds:.1f} s")]
    if t.selection:
        lines.append(("Card" if t.selection.get("loss") == "logistic" else "C0", selection_text(t)))
    elif "c0" in t.params:
        lines.append(("C0", f"{t.params['c0']:g} (given)"))
    return lines


#: The ROC curve is drawn through at most this many of its points (the AUC uses them all).
ROC_POINTS = 400


def _thin(points: list[tuple[float, float]], most: int = ROC_POINTS) -> list[tuple[float, float]]:
    """Every k-th point, the first and the last kept, so that at most about ``most`` remain."""
    step = -(-len(points) // most)
    return points if step <= 1 else points[::step] + ([points[-1]] if (len(points) - 1) % step else [])


def _lines(text: str, width: int) -> int:
    """How many lines ``text`` wraps to at about ``width`` characters a line."""
    return max(1, -(-len(text) // width))


def _report_height(model: Model, v: Validation) -> float:
    """About how tall the report's first sheet prints at zoom 1: the card beside the data and
    the confusion table, the charts in a row (ROC, calibration when the model has a risk map,
    score distribution, decision curve), then the numbers and the training record. The
    subgroup tables of ``--by`` print on the sheets after it."""
    c = card(model)
    line = {"normal": 0.17, "compact": 0.15, "dense": 0.12, "tiny": 0.12}[density(c)]
    rows = sum(0.1 + line * _lines(row.condition(), 22) for row in c.rows) + 0.3 + line * 2
    card_height = (0.2 + 0.22 * _lines(c.title, 40) + rows + 0.45 * len(c.risk_lines())
                   + 0.2 * _lines(c.missing_note + c.trained, 70))
    side = 3.3 + sum(0.06 + 0.15 * _lines(visible(i.name), 16) for i in v.inputs)
    side += 0.15 * _lines(visible(outcome_text(model)), 14)  # the confusion table's heading
    header = 0.25 * _lines(c.title, 55) + 0.13 * _lines(visible(outcome_text(model)), 100)
    charts = CHART * (0.62 if v.predicted is not None else 0.8)  # four charts in a row, or three
    limits = (0.45 + sum(0.15 * max(_lines(_limit_groups(c.training), 40), _lines(_limit_groups(c.data), 40))
                         for c in v.limits)) if v.limits else 0.0
    refit = 1.9 if v.refit is not None else 0.0
    return HEADER + header + max(card_height, side) + charts + 2.6 + limits + refit


def _model_interval(model: Model) -> Callable[[Group], str]:
    """The 95% interval of the model's own risk at a group of one score, as its risk table
    stores it (the row that applies at that score, ``trainer/calibrate.py``), in percent;
    empty where the table has none (a logistic-loss map, a group of several scores)."""
    probability = model.probability or {}
    table = probability.get("table") if probability.get("method") == "table" else None
    if not table or "low" not in table[0]:
        return lambda group: ""
    scores = [row["score"] for row in table]

    def text(group: Group) -> str:
        if group.low != group.high:
            return ""
        row = table[max(bisect.bisect_right(scores, group.low) - 1, 0)]
        return f"{percent(row['low'])} to {percent(row['high'])}"

    return text


#: The threshold probabilities the report's net benefit table lists (the chart shows 1% to 99%).
DECISION_TABLE = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


def _threshold_text(model: Model) -> str:
    t = model.threshold
    return f"{t:g}" if isinstance(t, float) else str(t)


def _decision(model: Model, v: Validation) -> tuple[Markup, list]:
    """The decision-curve chart and the rows of its table, (threshold probability, treat all,
    the card's prediction, the card's risk or None)."""
    card_name = f"card (score > {_threshold_text(model)})"
    series = {"treat all": [(p.threshold, p.treat_all) for p in v.decision],
              card_name: [(p.threshold, p.card) for p in v.decision]}
    if v.predicted is not None:
        series["risk \u2265 threshold"] = [(p.threshold, p.risk) for p in v.decision]
    chart = Markup(decision_chart(series, "Decision curve: net benefit"))
    at = {round(p.threshold, 6): p for p in v.decision}
    rows = [at[t] for t in DECISION_TABLE if t in at]
    return chart, rows


def _few(text: str) -> Markup:
    return Markup('<span class="few">') + text + Markup("</span>")


def _stacked(i: Interval | None, as_percent: bool = False, digits: int = 3) -> Markup:
    """An estimate over its interval, in two lines (a table of many columns stays narrow)."""
    if i is None:
        return Markup("n/a")
    both = page_interval(i, as_percent, digits)
    value, _, rest = both.partition(" (")
    return Markup("{}<br><span class=\"ci\">{}</span>").format(value, rest.rstrip(")"))


def group_cells(g: GroupNumbers) -> list:
    """One row of a subgroup table: rows, outcome rate, AUC, TPR, FPR, observed vs predicted,
    calibration slope and intercept, Brier score; an estimate the group is too small for says
    why (``GroupNumbers.too_few``), as a note."""
    def either(value, shown, key: str):
        if value is not None:
            return shown()
        return _few(g.too_few.get(key, "no risk map"))

    rows = Markup("{}").format(g.rows)
    if g.rows != g.scored:
        rows += Markup('<br><span class="ci">{} without a score</span>').format(g.rows - g.scored)
    r = g.recalibration
    return [visible(g.label), rows, _stacked(g.outcome, True),
            either(g.auc, lambda: _stacked(g.auc), "auc"),
            either(g.tpr, lambda: _stacked(g.tpr, True), "tpr"), either(g.fpr, lambda: _stacked(g.fpr, True), "fpr"),
            either(g.predicted, lambda: Markup("{}<br>vs {}").format(percent(g.observed), percent(g.predicted)),
                   "predicted"),
            either(r, lambda: _stacked(r.slope, digits=2), "recalibration"),
            either(r, lambda: _stacked(r.intercept, digits=2), "recalibration"),
            either(g.brier, lambda: f"{g.brier:.3f}", "brier")]


def _limit_value(checked: LimitValue | None, column: str) -> str:
    """``0.048 (met)``: a limit's value and verdict; each group's rate follows in the table."""
    if checked is None:
        return f"the data has no column {visible(repr(column))}"
    if checked.value is None:
        return "n/a (no group has rows the rate counts)"
    verdict = {True: "met", False: "NOT met", None: "n/a"}[checked.met]
    return f"{checked.value:.3f} ({verdict})"


def _limit_groups(checked: LimitValue | None) -> str:
    if checked is None:
        return ""
    return "; ".join(f"{visible(str(g.group))}: {percent(g.rate)} ({g.count} of {g.rows})" for g in checked.groups)


def limit_rows(v: Validation) -> list[tuple[str, str, str, str, str]]:
    """The report's limits: (limit, value on training, its groups, value on DATA, its groups)."""
    return [(visible(c.limit.text), _limit_value(c.training, c.limit.column), _limit_groups(c.training),
             _limit_value(c.data, c.limit.column), _limit_groups(c.data)) for c in v.limits]


def refit_rows(v: Validation) -> list[tuple[str, str, str]]:
    """The report's comparison of the risks before and after the latest refit on its data:
    (what, before, after) for the mean predicted risk, the calibration slope and intercept and
    the Brier score."""
    r = v.refit
    if r is None:
        return []
    b, a = r.before, r.after
    observed = percent((v.confusion.tp + v.confusion.fn) / v.scored)  # the outcome rate of the scored rows
    rows = [(f"mean predicted risk (observed {observed})", percent(b.predicted) if b else "no risks",
             percent(a.predicted))]
    for what, pick in (("calibration slope", lambda c: c.recalibration.slope),
                       ("calibration intercept", lambda c: c.recalibration.intercept)):
        rows.append((what, page_interval(pick(b), digits=2) if b else "", page_interval(pick(a), digits=2)))
    rows.append(("Brier score", f"{b.brier:.4f}" if b else "", f"{a.brier:.4f}"))
    return rows


def refit_heading(v: Validation) -> str:
    """"Refitted on 709 rows of local.csv (Third class) on 2026-11-28 (SHA-256 ...): risk = ..., a
    -1.72 (-1.96 to -1.47), b 1.68 (1.32 to 2.04).": the latest refit as its history entry
    records it."""
    e = v.refit.entry  # type: ignore[union-attr]
    site = f" ({visible(e['site'])})" if e.get("site") else ""
    fit = e["fit"]

    def shown(i: dict) -> str:
        return f"{i['value']:.2f} ({i['low']:.2f} to {i['high']:.2f})"

    return (f"Refitted on {e.get('scored', e['rows'])} rows of {visible(e['data'])}{site} on {e['at'][:10]} (SHA-256 "
            f"{str(e.get('sha256', ''))[:12]}...): risk = 1 / (1 + exp(\u2212(a + b (score \u2212 T)))), T = "
            f"{fit['center']:g} (the threshold), a {shown(fit['intercept'])}, b {shown(fit['slope'])}.")


def render_report(model: Model, v: Validation, data_name: str) -> str:
    """The validation report page of ``model`` on the data summarised in ``v``."""
    c = card(model)
    scores_label = [g.group.label for g in v.groups]
    negatives = sum(g.negatives for g in v.groups) or 1
    positives = sum(g.positives for g in v.groups) or 1
    outcome = visible(outcome_text(model))
    distribution = bar_chart(scores_label, {f"not {outcome}": [g.negatives / negatives for g in v.groups],
                                            outcome: [g.positives / positives for g in v.groups]},
                             "Score distribution by class", "share of the class", "score")
    has_risk = v.predicted is not None
    slope, intercept = _recalibration_text(v.recalibration, label="")
    decision, decision_rows = _decision(model, v)
    subgroups = [(", ".join(visible(c) for c in b.columns), b.refused,
                  [group_cells(g) for g in b.groups] + [group_cells(b.overall)]) for b in v.subgroups]
    return page_template("report.html.j2").render(
        model=model, card_title=c.title, v=v, data_name=data_name, version=__version__,
        outcome=outcome_text(model),
        card_html=Markup(render_html(model, fragment=True)),
        roc=Markup(roc_chart(_thin([(fpr, tpr) for _, fpr, tpr in v.roc]), v.operating_point,
                             f"ROC curve (AUC {v.auc.value:.3f})")),
        calibration=Markup(calibration_chart(
            {"observed": _calibration_points(v.groups)} if v.refit is None or v.refit.before is None else
            {"before the refit": _calibration_points(v.refit.before.groups),
             "after": _calibration_points(v.refit.after.groups)},
            "Observed vs predicted risk by score")) if has_risk else None,
        refit_rows=refit_rows(v), refit_heading=refit_heading(v) if v.refit else "",
        distribution=Markup(distribution), percent=percent, interval_text=page_interval,
        model_interval=_model_interval(model),
        decision=decision, decision_rows=decision_rows, card_name=f"card (score > {_threshold_text(model)})",
        subgroups=subgroups, min_rows=MIN_CLASS_ROWS, limits=limit_rows(v),
        slope=slope, intercept=intercept, training=_training(model), zoom=zoom(_report_height(model, v)))


# ---------------------------------------------------------------------------- monitor


def _rate_change(a: int, b: int, n: tuple[int, int]) -> str:
    return f"{percent(a / n[0] if n[0] else 0.0)} -> {percent(b / n[1] if n[1] else 0.0)}"


def _outcome_lines(outcomes: tuple[Outcome | None, Outcome | None]) -> list[str]:
    base, cur = outcomes
    if cur is None:
        return ["outcome: not in the current data (no outcome rate or calibration drift)"]
    rate = f"outcome rate: {interval_text(cur.rate, as_percent=True)}"
    rate = (f"outcome rate: {percent(base.rate.value)} -> {interval_text(cur.rate, as_percent=True)}"
            if base is not None else rate + " (the baseline has no outcome)")
    lines = [rate]
    if cur.predicted is not None:
        slope, intercept = _recalibration_text(cur.recalibration)
        ratio = f"{cur.rate.value / cur.predicted:.2f}" if cur.predicted else "n/a"
        text = (f"calibration: current observed {percent(cur.rate.value)} vs predicted {percent(cur.predicted)} "
                f"(O/E {ratio}); slope {slope}; intercept {intercept}")
        if base is not None and base.recalibration is not None and base.recalibration.slope is not None:
            text += f"; baseline slope {base.recalibration.slope.value:.2f}"
        lines.append(text)
    else:
        lines.append("calibration: the model has no score-to-risk map")
    if cur.auc is not None:
        auc = f"AUC: {interval_text(cur.auc)}"
        lines.append(f"{auc} (baseline {base.auc.value:.3f})" if base is not None and base.auc is not None else auc)
    return lines


def _estimate(g: GroupNumbers, name: str, text: str) -> str:
    return f"{name} {text}" if g.too_few.get(_KEYS[name]) is None else f"{name} {g.too_few[_KEYS[name]]}"


_KEYS = {"AUC": "auc", "TPR": "tpr", "FPR": "fpr", "slope": "recalibration", "intercept": "recalibration",
         "Brier": "brier", "observed": "predicted"}


def group_line(g: GroupDrift) -> str:
    """``monitor --by``'s line for one group: ``by sex = female: rows 170 -> 160; score PSI 0.031
    (no shift); outcome 30.0% -> 35.1% (...); AUC ... (baseline ...); TPR ...; FPR ...;
    observed ... vs predicted ...; slope ...; intercept ...; Brier ...``; an estimate the group
    is too small for says why."""
    parts = [f"rows {g.rows[0]} -> {g.rows[1]}"]
    parts.append(f"score PSI {g.psi:.3f} ({psi_band(g.psi)})" if g.psi is not None
                 else f"score PSI n/a (no rows in the {'baseline' if not g.rows[0] else 'current data'})")
    base, cur = g.outcomes
    if cur is None:
        parts.append("outcome: not in the current data" if g.rows[1] else "outcome: no current rows")
    else:
        before = f"{percent(base.outcome.value)} -> " if base is not None else ""
        parts.append(f"outcome {before}{interval_text(cur.outcome, as_percent=True)}")
        auc = _estimate(cur, "AUC", interval_text(cur.auc))
        if cur.auc is not None and base is not None and base.auc is not None:
            auc += f" (baseline {base.auc.value:.3f})"
        parts += [auc, _estimate(cur, "TPR", interval_text(cur.tpr, as_percent=True)),
                  _estimate(cur, "FPR", interval_text(cur.fpr, as_percent=True))]
        if "predicted" in cur.too_few or cur.predicted is not None:
            slope, intercept = _recalibration_text(cur.recalibration)
            parts += [_estimate(cur, "observed", f"{percent(cur.observed)} vs predicted {percent(cur.predicted)}"),
                      _estimate(cur, "slope", slope), _estimate(cur, "intercept", intercept),
                      _estimate(cur, "Brier", f"{cur.brier:.3f}" if cur.brier is not None else "")]
    return f"by {visible(g.column)} = {visible(g.label)}: " + "; ".join(parts)


def drift_lines(d: Drift) -> list[str]:
    """What ``scorecard monitor`` prints: one line per item (the PSI of the score and of each
    input with its band, each input's missing-value rate, then the outcome)."""
    lines = [f"rows: {d.rows[0]} baseline ({d.baseline}), {d.rows[1]} current ({d.current})"]
    for s in d.shifts:
        what = "score" if s.kind == "score" else f"input {visible(s.name)}"
        lines.append(f"{what}: PSI {s.psi:.3f} ({s.band})")
    for name, (a, b) in d.missing.items():
        lines.append(f"missing {visible(name)}: {_rate_change(a, b, d.rows)}")
    return lines + _outcome_lines(d.outcomes) + [group_line(g) for g in d.groups]


def render_drift(model: Model, d: Drift) -> str:
    """The drift page: the PSI chart and table, the distributions side by side, the outcome."""
    shares = []
    for s in d.shifts:
        na, nb = sum(s.baseline) or 1, sum(s.current) or 1
        title = "Score" if s.kind == "score" else visible(s.name)
        shares.append(Markup(bar_chart(list(s.labels), {"baseline": [c / na for c in s.baseline],
                                                        "current": [c / nb for c in s.current]},
                                       f"{title}: PSI {s.psi:.3f}", "share of rows")))
    base, cur = d.outcomes
    calibration = None
    series = {name: _calibration_points(o.groups) for name, o in (("baseline", base), ("current", cur))
              if o is not None and o.predicted is not None}
    if series:
        calibration = Markup(calibration_chart(series, "Observed vs predicted risk by score"))
    lines = _outcome_lines(d.outcomes)
    # on paper: the score and the inputs that shifted most (all of them on screen)
    by_shift = sorted(range(1, len(d.shifts)), key=lambda k: -d.shifts[k].psi)
    printed = {0, *by_shift[:PRINTED_INPUTS]}
    charts = len(printed) + (calibration is not None)
    names = sum(_lines(visible(s.name), 34) for s in d.shifts)
    height = (HEADER + 0.9 + 0.06 * len(d.shifts) + 0.16 * names
              + max(0.4 + 0.18 * len(d.shifts), 0.3 + 0.3 * sum(_lines(t, 60) for t in lines))
              + -(-charts // 3) * (CHART + 0.1))
    return page_template("drift.html.j2").render(
        model=model, card_title=card(model).title, d=d, version=__version__, bands=PSI_BANDS,
        psi=Markup(psi_chart([("score" if s.kind == "score" else visible(s.name), s.psi) for s in d.shifts],
                             PSI_BANDS, "Population stability index")),
        shares=shares, printed=printed, calibration=calibration, lines=lines, zoom=zoom(height), percent=percent,
        group_rows=[{"column": visible(g.column), "label": visible(g.label), "rows": g.rows, "psi": g.psi,
                     "band": psi_band(g.psi) if g.psi is not None else ""} for g in d.groups],
        group_lines=[group_line(g) for g in d.groups])
