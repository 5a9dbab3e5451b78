"""The scorecard as display rows: the one place that decides how a model reads on paper.

Every human-facing format (``html``, ``latex``, the ``text`` of ``scorecard show``) draws
the same :class:`Card`, so a clinician sees the same numbered rows, points and threshold
whichever file they hold. Formats only choose symbols and escaping; what the rows *say*
is decided here:

- Title: ``PREDICT <target> = <positive value> IF SCORE > T`` with ``T = model.threshold``
  (``-intercept``), stated once: SCORE is the points total a reader adds up, the ``score`` of
  ``scorecard predict`` and of every export (``score_note`` says so); an M-of-N table reads ``PREDICT <outcome> IF AT
  LEAST M OF THE FOLLOWING N RULES ARE TRUE``.
- Rows keep the order of ``model.terms``: it is the order the model adds in (so every export
  numbers the rows alike) and the order the trainer or author chose.
- A condition term's ``label`` is its condition text when non-empty; otherwise the text is
  built from the term (``age >= 60``, ``odor = none``, ``snoring`` for a binary input equal
  to 1, ``glu unknown`` for a ``missing`` term).
- Under the ``"unmet"`` policy the card states the rule once (``missing_note``): an unknown
  value meets no condition on its input but its "unknown" rows; the inputs of ``linear``
  terms are named as needing a value.
- ``==``/``in`` terms on one categorical input with the same integer points and disjoint
  categories merge into one ``in`` row at the first term's place (a value matches at most
  one of them, so the sum is unchanged; integer points add exactly in any order). Fractional
  points never merge, so their sum follows the model's term order to the bit.
- A ``linear`` term on a numeric input reads ``<input> × points``: the exact name of what
  to measure (not the label, which often already holds the multiplier), times the points.
  On a binary input it is a plain row worth its points when the input is 1.
- ``probability`` (runtime/risk.py) is shown as card score (the points total, the ``score``
  of ``scorecard predict`` and of every export) -> risk, never as 0 % or 100 % (``< 0.1%``,
  ``> 99.9%``). A risk table, ``{"method": "table", "table": [{"score": s, "risk": r}, ...]}``,
  is a step function (a score reads the row at or below it). When its card scores are
  integers spanning at most ``MAX_RISKS`` totals it is shown at every total, as the paper's
  risk scorecards do; otherwise step by step, each column labelled with where it starts
  (``< s`` for the first, which also holds everything below, ``≥ s`` for the others; ``any``
  for a table of one row). The logistic map, ``{"method": "logistic", "scale": s, "center":
  c}``, is shown as its formula in card points (``risk = 1 / (1 + exp(-(SCORE - 19)))``) and, when the
  points are integers and every input takes finitely many card totals (no ``×`` row on a
  numeric input), as the risk at each total the card can reach (at most ``MAX_RISKS`` of
  them, evenly picked from the smallest to the largest when there are more).
- How it was trained reads in words (:func:`result_text`, :func:`trained_text`): "proven
  optimal", or "best found in 60 s; the optimum is at most 12.5% better (...)", never a bare
  status or gap; the numbers stay in the model file (and in ``show``'s training block).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from scorecard.runtime import Model, Term, Training, risk
from scorecard.runtime.model import BEST_FOUND, Number
from scorecard.runtime.names import visible  # noqa: F401  (the formats print names through it)
from scorecard.runtime.score import contribution, reachable_scores
from scorecard.runtime.validation import last_refit

from .registry import ExportError

#: The most columns a logistic model's risk table shows (the formula covers the rest).
MAX_RISKS = 40
#: Give up enumerating the card totals a logistic model can reach beyond this many.
MAX_TOTALS = 10_000



def number_text(value: Number) -> str:
    """A number as a reader writes it: ``17`` for 17 and 17.0, ``0.5`` for 0.5 (exact)."""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 2**53:
            return str(int(value))
        return repr(value)
    return str(value)


@dataclass(frozen=True)
class Row:
    """One numbered row of the card.

    The condition reads ``subject``, then ``op`` (``""``, ``">="``, ``"<"``, ``"="`` or
    ``"in"``; formats pick their own symbol), then ``value``. ``multiply`` rows are worth
    ``points × the input's value``; the others are worth ``points`` when the condition holds.
    ``terms`` are the model terms the row stands for (more than one when merged).
    """

    number: int
    input: str
    subject: str
    op: str
    value: str
    points: Number
    multiply: bool
    terms: tuple[Term, ...]
    #: The input's exact column name when a label (``meta``) stands in ``subject``, else "":
    #: cards print it small, so the raw name stays findable.
    raw: str = ""

    def condition(self, symbols: dict[str, str] | None = None) -> str:
        """The condition as one plain string, ops replaced through ``symbols`` if given."""
        op = (symbols or {}).get(self.op, self.op)
        return " ".join(part for part in (self.subject, op, self.value) if part)

    @property
    def points_text(self) -> str:
        """``× 4`` for a multiply row, else ``18 points`` / ``1 point`` / ``-1 point`` / ``-8 points``."""
        n = number_text(self.points)
        if self.multiply:
            return f"\u00d7 {n}"
        return f"{n} point" if n in ("1", "-1") else f"{n} points"


def percent_text(risk: float) -> str:
    """A risk as a card prints it: ``12.5%``, never ``0.0%`` or ``100.0%`` (``< 0.1%``, ``> 99.9%``,
    with a no-break space, so a narrow column never splits them)."""
    text = f"{risk * 100:.1f}"
    if text in ("0.0", "-0.0"):
        return "<\u00a00.1%"
    if text == "100.0":
        return ">\u00a099.9%"
    return text + "%"


@dataclass(frozen=True)
class Risk:
    """One column of the risk table: a card score (points total) and its risk in [0, 1]."""

    score: Number
    risk: float
    #: How the column is headed when it is a step of a risk table (``≥ 2.5``), else "".
    label: str = ""

    @property
    def score_text(self) -> str:
        return self.label or number_text(self.score)

    @property
    def risk_text(self) -> str:
        """The risk as a percentage with one decimal, e.g. ``12.5%``; ``< 0.1%`` / ``> 99.9%``
        where it would round to 0 % or 100 % (no card claims certainty)."""
        return percent_text(self.risk)


@dataclass(frozen=True)
class Card:
    """A model as a scorecard: title, rows, and the notes a reader needs."""

    kind: str
    outcome: str
    threshold: Number
    rules_needed: int
    rows: tuple[Row, ...]
    imputed: tuple[tuple[str, str], ...]
    risks: tuple[Risk, ...]
    #: The ``"unmet"`` policy: an unknown value meets no condition but its "unknown" row.
    unmet: bool = False
    #: Under ``"unmet"``, the inputs a row cannot be scored without (those of linear terms).
    needs_value: tuple[str, ...] = ()
    #: The logistic score -> risk formula in card points ("" for a risk table or none).
    risk_formula: str = ""
    #: True when ``risks`` are steps: a total reads the last column at or below it.
    risk_steps: bool = False
    #: How it was trained (and where its risks were refitted), in words: see :func:`trained_text`.
    trained: str = ""
    #: The model's title and description (``meta``; "" when not given).
    heading: str = ""
    description: str = ""
    #: Descriptions of the inputs (``meta``): (shown name, description), in row order.
    glossary: tuple[tuple[str, str], ...] = ()

    @property
    def is_rules(self) -> bool:
        """True for an M-of-N rule table (count true rules instead of adding points)."""
        return self.kind == "m_of_n"

    @property
    def title(self) -> str:
        if self.is_rules:
            return (f"PREDICT {self.outcome} IF AT LEAST {self.rules_needed} OF THE FOLLOWING "
                    f"{len(self.rows)} RULES ARE TRUE")
        return f"PREDICT {self.outcome} IF SCORE > {number_text(self.threshold)}"

    @property
    def score_note(self) -> str:
        """What SCORE is, said once: the number in the ``score`` column everywhere."""
        total = "the number of true rules" if self.is_rules else "the points total"
        return f"SCORE is {total}, the score column of `scorecard predict` and of every export."

    @property
    def total_label(self) -> str:
        """The caption of the last row, where the reader writes the total."""
        k = len(self.rows)
        if self.is_rules:
            return "COUNT THE RULES THAT ARE TRUE"
        if k == 0:
            return "NO ROWS: THE SCORE IS ALWAYS 0"
        return "ADD POINTS FROM ROW 1" if k == 1 else f"ADD POINTS FROM ROWS 1-{k}"

    def risk_at(self, total: Number | None) -> float | None:
        """The risk the card prints for a total: its column, or in a table of steps the last
        column at or below it (the first below them all); None when no column stands for it."""
        if total is None or not self.risks:
            return None
        if not self.risk_steps:
            return next((r.risk for r in self.risks if r.score == total), None)
        at_or_below = [r for r in self.risks if r.score <= total]
        return (at_or_below[-1] if at_or_below else self.risks[0]).risk

    def risk_lines(self, most: int = 10) -> list[tuple[Risk, ...]]:
        """The risk table cut into lines of at most ``most`` columns, as even as possible."""
        if not self.risks:
            return []
        count = -(-len(self.risks) // most)
        size = -(-len(self.risks) // count)
        return [self.risks[k:k + size] for k in range(0, len(self.risks), size)]

    @property
    def missing_note(self) -> str:
        """How to fill in an unknown value (empty under the ``"null"`` policy): the imputed
        values, or the ``"unmet"`` rule, stated once for the whole card."""
        if self.unmet:
            note = "An unknown value meets no condition on that input, except its 'unknown' rows."
            if self.needs_value:
                note += f" Without a value for {', '.join(self.needs_value)} there is no score."
            return note
        if not self.imputed:
            return ""
        uses = "; ".join(f"{name}: use {value}" for name, value in self.imputed)
        return f"If a value is unknown, use the value the model was trained with ({uses})."


def card_total(c: Card, values: dict[str, object] | None) -> Number | None:
    """The total a person adds up on card ``c`` for a row's values (``runtime.score.
    read_inputs``; None: no score): each row's points where its condition holds, a ``×``
    row's points times the value, from the top. Integer points only merge into one row, so
    this is the runtime's score whenever the card and the runtime mean the same SCORE."""
    if values is None:
        return None
    total: Number = 0
    for row in c.rows:
        parts = [contribution(t, values[t.input]) for t in row.terms]  # type: ignore[arg-type]
        total = total + (parts[0] if row.multiply else row.points if any(parts) else 0)
    return total


def meta_lines(model: Model) -> list[str]:
    """The model's ``meta`` as plain lines for the code exports' comments (each export escapes
    them for its comment syntax): title, description, classes, and each used input's label,
    unit and description."""
    meta = model.meta
    lines = [f"{key}: {text}" for key, text in (("title", meta.title), ("description", meta.description)) if text]
    classes = [f"{model.target.name} = {value}: {text}" for value, text in
               (("not " + str(model.target.positive), meta.negative), (str(model.target.positive), meta.positive)) if text]
    if classes:
        lines.append("classes: " + "; ".join(classes))
    for inp in model.used_inputs:
        info = meta.input(inp.name)
        said = "; ".join(part for part in (info.shown or (f"unit {info.unit}" if info.unit else ""), info.description)
                         if part)
        if said:
            lines.append(f"input {inp.name}: {said}")
    return lines


def outcome_text(model: Model) -> str:
    """What a positive prediction means, always naming the value predicted: ``survived = yes``,
    or with the positive class's name (``meta``) ``diabetic (type = Yes)``."""
    positive = model.target.positive
    value = ("true" if positive else "false") if isinstance(positive, bool) else \
        positive if isinstance(positive, str) else number_text(positive)
    coded = f"{model.target.name} = {value}"
    return f"{model.meta.positive} ({coded})" if model.meta.positive else coded


def _subject(model: Model, name: str) -> str:
    """How input ``name`` reads on the card: its label with unit ("Plasma glucose (mg/dL)"),
    or its exact name when ``meta`` gives no label."""
    return model.meta.input(name).shown or name


def _single(model: Model, term: Term) -> tuple[str, str, str, bool]:
    """(subject, op, value, multiply) for one term. A labelled input's conditions are built
    from the term (``Plasma glucose (mg/dL) >= 150``), as its stored label names the column."""
    kind = model.input(term.input).type
    multiply = term.op == "linear" and kind == "numeric"
    subject = _subject(model, term.input)
    if multiply:
        return subject, "", "", True
    if term.label and subject == term.input:
        return term.label, "", "", False
    if term.op == "missing":
        return subject, "", "unknown", False
    if term.op == "linear":
        return subject, "", "", False
    if term.op == "in":
        return subject, "in", "{" + ", ".join(term.value) + "}", False  # type: ignore[arg-type]
    if term.op == "==" and kind == "binary" and term.value == 1:
        return subject, "", "", False
    op = "=" if term.op == "==" else term.op
    value = term.value if isinstance(term.value, str) else number_text(term.value)  # type: ignore[arg-type]
    return subject, op, value, False


def _categories(term: Term) -> tuple[str, ...]:
    return term.value if term.op == "in" else (term.value,)  # type: ignore[return-value]


def _mergeable(model: Model, term: Term) -> bool:
    return (term.op in ("==", "in") and model.input(term.input).type == "categorical"
            and isinstance(term.points, int))


def _groups(model: Model) -> list[list[Term]]:
    """Terms grouped into rows, in term order; see the module docstring for the merge rule."""
    groups: list[list[Term]] = []
    for term in model.terms:
        home = None
        if _mergeable(model, term):
            for group in groups:
                first = group[0]
                seen = {c for t in group for c in _categories(t)}
                if (_mergeable(model, first) and first.input == term.input
                        and first.points == term.points and seen.isdisjoint(_categories(term))):
                    home = group
                    break
        if home is None:
            groups.append([term])
        else:
            home.append(term)
    return groups


def _row(model: Model, number: int, group: list[Term]) -> Row:
    first = group[0]
    if len(group) == 1:
        subject, op, value, multiply = _single(model, first)
    else:
        categories = [c for t in group for c in _categories(t)]
        subject, op, value, multiply = _subject(model, first.input), "in", "{" + ", ".join(categories) + "}", False
    return Row(number=number, input=first.input, subject=subject, op=op, value=value,
               points=first.points, multiply=multiply, terms=tuple(group),
               raw=first.input if model.meta.input(first.input).label else "")


def _logistic_formula(scale: Number, center: Number) -> str:
    """``risk = 1 / (1 + exp(-(SCORE - 19)))``: the logistic map in card points."""
    if center == 0:
        z = "SCORE"
    else:
        z = f"(SCORE {'+' if center < 0 else '-'} {number_text(abs(center))})"
    if scale != 1:
        z = f"{number_text(scale)} \u00d7 {z}"
    elif z.startswith("("):
        z = z[1:-1]
    return f"risk = 1 / (1 + exp(-({z})))" if " " in z else f"risk = 1 / (1 + exp(-{z}))"


def _logistic_risks(model: Model) -> tuple[Risk, ...]:
    totals = reachable_scores(model, MAX_TOTALS)
    if not totals:
        return ()
    if len(totals) > MAX_RISKS:
        picks = sorted({round(k * (len(totals) - 1) / (MAX_RISKS - 1)) for k in range(MAX_RISKS)})
        totals = [totals[k] for k in picks]
    return tuple(Risk(score=points, risk=risk(model, points)) for points in totals)  # type: ignore[arg-type]


def _risks(model: Model) -> tuple[Risk, ...]:
    """The risk table of ``model.probability`` (empty when it holds none)."""
    if not model.probability:
        return ()
    if model.probability.get("method") == "logistic":
        return _logistic_risks(model)
    if "table" not in model.probability:
        return ()
    table = model.probability["table"]
    if not isinstance(table, list):
        raise ExportError("probability.table: must be a list of {\"score\": s, \"risk\": r}")
    risks = []
    for k, entry in enumerate(table):
        ok = isinstance(entry, dict) and all(
            isinstance(entry.get(key), (int, float)) and not isinstance(entry.get(key), bool)
            and math.isfinite(entry[key]) for key in ("score", "risk"))
        if not ok or not 0 <= entry["risk"] <= 1:
            raise ExportError(f"probability.table[{k}]: must be {{\"score\": number, \"risk\": number in [0, 1]}}")
        risks.append(Risk(score=entry["score"], risk=float(entry["risk"])))
    risks.sort(key=lambda r: r.score)
    if _every_total(risks):
        first, last = int(risks[0].score), int(risks[-1].score)
        return tuple(Risk(score=points, risk=risk(model, points)) for points in range(first, last + 1))
    if len(risks) > MAX_RISKS:  # compact: a run of steps that print the same risk is one column
        risks = [r for k, r in enumerate(risks) if k == 0 or r.risk_text != risks[k - 1].risk_text]
    if len(risks) == 1:
        return (Risk(score=risks[0].score, risk=risks[0].risk, label="any"),)
    starts = [f"< {_short(risks[1].score)}"] + [f"\u2265 {_short(r.score)}" for r in risks[1:]]
    return tuple(Risk(score=r.score, risk=r.risk, label=text) for r, text in zip(risks, starts))


def _every_total(risks: list[Risk]) -> bool:
    """True when a risk table's card scores are integers spanning at most ``MAX_RISKS`` totals."""
    return (all(float(r.score).is_integer() for r in risks)
            and risks[-1].score - risks[0].score < MAX_RISKS)


def _short(score: Number) -> str:
    """A step's start as printed: six significant digits (the model file keeps the exact value)."""
    return number_text(score) if float(score).is_integer() else f"{score:.6g}"


def card(model: Model) -> Card:
    """The scorecard of ``model``: what every paper-like format draws."""
    rows = tuple(_row(model, k, group) for k, group in enumerate(_groups(model), start=1))
    risks = _risks(model)
    imputed = tuple((name, value if isinstance(value, str) else number_text(value))
                    for name, value in model.imputed.items())
    return Card(kind=model.kind, outcome=outcome_text(model), threshold=model.threshold,
                rules_needed=model.rules_needed, rows=rows, imputed=imputed, risks=risks,
                unmet=model.unmet, needs_value=tuple(i.name for i in model.needs_value) if model.unmet else (),
                risk_formula=risk_formula(model), risk_steps=any(r.label for r in risks),
                trained=trained_text(model), heading=model.meta.title, description=model.meta.description,
                glossary=_glossary(model, rows))


def _glossary(model: Model, rows: tuple[Row, ...]) -> tuple[tuple[str, str], ...]:
    """(shown name, description) of each input with a description, in the order of the rows."""
    names = dict.fromkeys(row.input for row in rows)
    return tuple((_subject(model, name), model.meta.input(name).description) for name in names
                 if model.meta.input(name).description)


#: A gap at most this is a proof of optimality whatever the status says.
PROVEN_GAP = 1e-9


def _seconds(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 10 else f"{seconds:.0f} s"


def result_text(t: Training, flags: bool = True) -> str:
    """Whether the model is proven optimal, in words a person reads.

    ``"proven optimal"``; or how the search ended ("best found in 60 s", "stopped by Ctrl-C
    after 12 s", "best found in 3.0 s under --work-limit 0.2": the same model on any machine,
    unless --time-limit stopped it first, which ``train`` warns of; ``flags`` False leaves the
    option out, for a card a clinician reads) and what the gap means: the gap is
    (objective - lower bound) / objective, so the best model possible has an objective
    (training error plus C0 per feature) at most that share lower than this one's.
    """
    if t.status == "optimal" or t.gap <= PROVEN_GAP:
        return "proven optimal"
    took = _seconds(t.seconds)
    work = t.params.get("work_limit")
    under = f" under --work-limit {work:g}" if work is not None and flags else ""
    if t.status == BEST_FOUND:
        return (f"best found in {took}{under} by the logistic-loss search, not proven optimal (no proof is sought "
                "for a logistic-loss card)")
    how = {"interrupted": f"stopped by Ctrl-C after {took}",
           "iteration_limit": f"stopped at its iteration limit after {took}{under}"}.get(t.status,
                                                                                         f"best found in {took}{under}")
    if t.gap >= 1 or t.lower_bound <= 0:
        return f"{how}, not proven optimal (no bound on the optimum was found)"
    x = f"{100 * t.gap:.1f}%"
    return (f"{how}, not proven optimal: the optimum is at most {x} better (its training error plus C0 per "
            f"feature could be up to {x} lower)")


def selection_text(t: Training) -> str:
    """How C0 (or the logistic-loss card) was chosen, in words ("" when C0 was given)."""
    s = t.selection
    if not s:
        return ""
    how = f"chosen by {s['folds']}-fold cross-validation (the {s['rule']} rule)"
    if s.get("measure") == "log-loss":
        how += (" on the logistic loss of the risks, as no card beat the majority class's error"
                if any("c0" in point for point in s.get("grid", [])) else
                " on the logistic loss of the risks, as the outcome is rare")
    if s.get("loss") == "empty":
        return f"the empty card: no card beat the majority class on the rows it did not see ({how[7:]})"
    if s.get("loss") == "logistic":
        among = "" if s.get("measure") == "log-loss" else " among 0-1-loss and logistic-loss cards"
        return (f"the logistic-loss card of {s['items']} item{'' if s['items'] == 1 else 's'} (FasterRisk's "
                f"method), {how}{among}")
    return f"C0 = {s['chosen']:.3g}, {how}"


def _gap_percent(gap: float) -> str:
    """A gap as a card prints it: whole percent from 10 % up (``12%``), else one decimal."""
    return f"{100 * gap:.0f}%" if gap >= 0.1 else f"{100 * gap:.1f}%"


def trained_text(model: Model) -> str:
    """The cards' footer, plain: "Proven optimal on 683 training rows (training error 3.2%)." or
    "Best found in 60 s on 683 training rows (training error 8.0%); the optimum is at most 12%
    better." ("" without a training record). No solver name, status or bare gap: those stay in
    the model file and in ``show``'s training block."""
    t = model.training
    if t is None:
        return refit_text(model)
    rows = f"on {t.n_rows} training rows (training error {100 * t.train_error:.1f}%)"
    result = result_text(t, flags=False)
    if result == "proven optimal":
        text = f"Proven optimal {rows}."
    else:
        how = result.split(",")[0]
        bound = ("not proven optimal" if t.gap >= 1 or t.lower_bound <= 0
                 else f"the optimum is at most {_gap_percent(t.gap)} better")
        text = f"{how[0].upper()}{how[1:]} {rows}; {bound}."
    chosen = selection_text(t)
    text = f"{text} {chosen[0].upper()}{chosen[1:]}." if chosen else text
    refit = refit_text(model)
    return f"{text} {refit}" if refit else text


def refit_text(model: Model) -> str:
    """"Risks refitted on 709 rows of local.csv (St Mary's), 2026-11-28." for a model whose risks
    ``scorecard recalibrate`` refitted (its latest history entry); "" otherwise."""
    entry = last_refit(model)
    if entry is None:
        return ""
    site = f" ({visible(entry['site'])})" if entry.get("site") else ""
    rows = entry.get("scored", entry["rows"])
    return f"Risks refitted on {rows} rows of {visible(entry['data'])}{site}, {entry['at'][:10]}."


def risk_formula(model: Model) -> str:
    """The logistic map's formula in card points, or "" when the model has none."""
    probability = model.probability
    if not probability or probability.get("method") != "logistic":
        return ""
    return _logistic_formula(probability["scale"], probability.get("center", 0))
