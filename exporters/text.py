"""The scorecard as plain text: what ``scorecard show`` prints (and the ``text`` export).

It draws the same :class:`~scorecard.exporters.layout.Card` as the HTML and LaTeX exports,
in columns padded by display width (so accented and CJK names line up in a terminal), and
adds how the model was trained: the solver's certificate that makes "optimal" checkable.
Control characters and invisible format characters (bidirectional controls among them) in
names are shown as ``[U+XXXX]`` (runtime/names.py), so a column name cannot drive the
terminal and a category stored as ``"\\u202eder"`` does not read "red".
"""
from __future__ import annotations

import unicodedata
from typing import Any, Mapping

from scorecard.runtime import Model, Training
from scorecard.runtime.limits import limit_from_dict

from .layout import Card, card, result_text, visible
from .registry import Exporter, register

BLANK = "......"
WIDTH = 78


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal (wide East Asian characters take two)."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


def pad(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


def _rows(c: Card) -> list[str]:
    numbers = [f"{row.number}." for row in c.rows]
    conditions = [visible(row.condition() + (f"  [{row.raw}]" if row.raw else "")) for row in c.rows]
    num_w = max((len(n) for n in numbers), default=2)
    cond_w = max([width(t) for t in conditions] + [width(c.total_label)])
    indent = "  "
    lines = []
    if c.is_rules:
        for n, cond in zip(numbers, conditions):
            lines.append(f"{indent}{n.rjust(num_w)}  {pad(cond, cond_w)}  [ ]")
        lines.append(f"{indent}{' ' * num_w}  {'-' * (cond_w + 5)}")
        lines.append(f"{indent}{' ' * num_w}  {pad(c.total_label, cond_w)}  = {BLANK}")
        return lines
    points = [row.points_text for row in c.rows]
    pts_w = max([width(p) for p in points] + [len("SCORE")])
    for k, (n, cond, pts) in enumerate(zip(numbers, conditions, points)):
        plus = " " if k == 0 else "+"
        lines.append(f"{indent}{n.rjust(num_w)}  {pad(cond, cond_w)}  {pad(pts, pts_w)}  {plus} {BLANK}")
    lines.append(f"{indent}{' ' * num_w}  {'-' * (cond_w + pts_w + 4 + 2 + len(BLANK))}")
    lines.append(f"{indent}{' ' * num_w}  {pad(c.total_label, cond_w)}  {pad('SCORE', pts_w)}  = {BLANK}")
    return lines


def _risk_lines(c: Card) -> list[str]:
    lines = ["RISK BY SCORE"]
    if c.risk_formula:
        lines.append(f"  {c.risk_formula}")
    if not c.risks:
        return lines
    col = max(max(len(r.score_text), len(r.risk_text)) for r in c.risks) + 2
    for chunk in c.risk_lines(max(1, (WIDTH - 10) // col)):
        lines.append("  score   " + "".join(r.score_text.rjust(col) for r in chunk))
        lines.append("  risk    " + "".join(r.risk_text.rjust(col) for r in chunk))
    return lines


def _training_lines(t: Training, defaults: Mapping[str, Any] | None = None) -> list[str]:
    def g(x: float) -> str:
        return f"{x:.6g}"

    def shown(key: str, value: Any) -> str:
        if key == "limits" and isinstance(value, list):  # each limit in its own words
            return "[" + "; ".join(limit_from_dict(v, f"limits[{k}]").text for k, v in enumerate(value)) + "]"
        return f"{value}"

    if defaults is None:
        params = ", ".join(f"{k}={shown(k, v)}" for k, v in sorted(t.params.items())) or "(none)"
    else:  # only the options that differ from the defaults
        changed = {k: v for k, v in t.params.items() if k not in defaults or defaults[k] != v}
        params = ", ".join(f"{k}={shown(k, v)}" for k, v in sorted(changed.items()))
        params = f"{params} (the rest default)" if changed else "(all default)"
    fields = [
        ("result", result_text(t)), ("solver", t.solver), ("status", t.status), ("objective", g(t.objective)),
        ("lower bound", g(t.lower_bound)), ("gap", f"{g(t.gap)} ({t.gap * 100:.2f}%)"), ("time", f"{t.seconds:.1f} s"),
        ("train error", f"{g(t.train_error)} ({t.train_error * 100:.1f}%)"), ("rows", str(t.n_rows)),
        ("params", params),
    ]
    for record in t.limits:  # each --limit and its value on the training rows
        value = "n/a" if record.get("value") is None else f"{record['value']:.4g}"
        verdict = {True: "met", False: "NOT met"}.get(record.get("met"), "n/a")
        fields.append(("limit", f"{record['limit']}: {value} on the training rows ({verdict})"))
    return ["HOW IT WAS TRAINED"] + [f"  {name:<12} {visible(value)}" for name, value in fields]


def selection_lines(s: Mapping[str, Any]) -> list[str]:
    """The ``--c0 auto`` candidates of a selection (the model file's ``training.selection``;
    ``show`` and ``cv`` print them): the measure that chose (mean on the held-out folds +- its
    standard error), size, train error; the chosen one marked. A candidate is a C0 of the 0-1
    grid, ("logistic k") the logistic-loss card of k items, or the empty card."""
    grid = s.get("grid", [])
    logistic = any(point.get("loss") == "logistic" for point in grid)
    by_log_loss = s.get("measure") == "log-loss"
    weighted = "w_pos" in s

    def label(point: dict) -> str:
        if point.get("loss") == "empty":
            return "empty"
        return f"logistic {point['items']}" if point.get("loss") == "logistic" else f"{point['c0']:.4g}"

    def chosen(point: dict) -> bool:
        if s.get("loss") in ("logistic", "empty"):
            return point.get("loss") == s.get("loss") and point.get("items") == s.get("items")
        return "loss" not in point and point.get("c0") == s.get("chosen")

    what, column = ("THE CARD", "card") if logistic else ("C0", "C0")
    width = max([10] + [len(label(point)) for point in grid])
    error = "weighted error" if weighted else "test error"
    head = f"  {column:>{width}}  "
    head += f"{'test log-loss':>16}  {'test AUC':>8}  " if by_log_loss else ""
    head += f"{error:>16}  {'size':>5}  {'train ' + error.replace('test ', ''):>14}"
    lines = [f"HOW {what} WAS CHOSEN ({s.get('folds')}-fold cross-validation, the {s.get('rule')} rule)", head]
    for point in grid:
        mark = "  <- chosen" if chosen(point) else ""
        test = f"{100 * point['test_error']:.1f}% ± {100 * point['se']:.1f}%"
        risk = ""
        if by_log_loss:
            risk = (f"{point['log_loss']:.4f} ± {point['log_loss_se']:.4f}  {point['auc']:>8.3f}  "
                    if point.get("log_loss") is not None else f"{'':>16}  {'':>8}  ")
        lines.append(f"  {label(point):>{width}}  {risk}{test:>16}  {point['size']:>5.1f}  "
                     f"{100 * point['train_error']:>13.1f}%{mark}")
    if by_log_loss:
        why = ("no card beat the majority class's error" if any("c0" in point for point in grid) else
               "a rare outcome, whose error rate cannot tell a risk score from the majority class")
        lines.append(f"  {why}: the cards compete on the logistic loss of their risks on the rows they did not see "
                     "(chosen: the smallest card within one standard error of the best)")
    else:
        lines.append("  the smallest card whose mean test error is within one standard error of the best")
    lines.append("  empty: no item, the majority class for every row; chosen only when no card beats it")
    if weighted:
        lines.append(f"  errors weighted by class (--w-pos): a positive row weighs {s['w_pos']:g}, a negative one "
                     f"{1 - s['w_pos']:g}; show's train error is the share of rows wrong, unweighted")
    if logistic:
        lines.append("  a C0: the 0-1-loss card at that C0; logistic k: the logistic-loss card of k items "
                     "(FasterRisk's method), on more dealings of the folds")
    return lines


def render_text(model: Model, defaults: Mapping[str, Any] | None = None) -> str:
    """The scorecard of ``model`` as plain text, with how it was trained when known.

    ``defaults``: the training options' default values (``TrainConfig().to_params()``, which
    the caller passes, as exporters do not import the trainer); when given, the training block
    lists only the options that differ from them instead of every option.
    """
    c = card(model)
    head = [visible(text) for text in (c.heading, c.description) if text]
    blocks = [head + [visible(c.title), ""] + _rows(c)]
    notes = [visible(f"{name}: {text}") for name, text in c.glossary]
    if c.missing_note:
        notes.append(visible(c.missing_note))
    notes.append(c.score_note)
    blocks.append(notes)
    if c.risks or c.risk_formula:
        blocks.append(_risk_lines(c))
    if model.training is not None:
        blocks.append(_training_lines(model.training, defaults))
        if model.training.selection:
            blocks.append(selection_lines(model.training.selection))
    if model.history:
        blocks.append(history_lines(model.history))
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def history_lines(history: tuple[dict, ...]) -> list[str]:
    """``show``'s HISTORY block: what was done to the model after training, oldest first (a
    recalibration: when, on which rows of which data and site, the refitted curve's intercept
    and slope, and how the risks it replaced were calibrated on those rows)."""
    def shown(i: dict | None) -> str:
        return "n/a" if i is None else f"{i['value']:.3g} (95% CI {i['low']:.3g} to {i['high']:.3g})"

    lines = ["HISTORY"]
    for entry in history:
        site = f", site {entry['site']}" if entry.get("site") else ""
        lines.append(f"  {entry['at']}  {entry['event']} on {entry.get('scored', entry['rows'])} rows of "
                     f"{entry['data']}{site} (SHA-256 {str(entry.get('sha256', ''))[:12]}...)")
        fit = entry.get("fit") or {}
        if "intercept" in fit:
            lines.append(f"    risk = 1 / (1 + exp(-(a + b (score - T)))), T = {fit['center']:g}: a {shown(fit['intercept'])}, "
                         f"b {shown(fit['slope'])}")
        before = entry.get("before")
        if before:
            lines.append(f"    the risks it replaced, on those rows: calibration slope {shown(before['slope'])}, "
                         f"intercept {shown(before['intercept'])}")
    return [visible(line) for line in lines]


register(Exporter("text", ".txt", render_text, "the scorecard as plain text, as `scorecard show` prints it"))
