"""The model file: the one definition of MODEL.json (docs/contract.md, "The model file").

Frozen dataclasses mirror the JSON; :func:`loads` validates strictly and every error
names the field it is about, so a corrupt or hand-edited file is refused with a message
a user can act on, never accepted half-read. Standard library only.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Union

from .errors import ModelError
from .files import write_atomic
from .limits import limit_from_dict
from .names import name_problem
from .risk import check_probability

FORMAT = "scorecard-model"
#: The version this code writes. Version 1 files (``score`` = intercept + points) still read:
#: :func:`_from_version_1` turns their golden scores and risk map into version 2's score,
#: the card's points total (docs/contract.md, "The model file").
VERSION = 2
READS = (1, 2)

INPUT_TYPES = ("numeric", "binary", "categorical")
OPS = ("linear", ">=", "<", "==", "in", "missing")
#: The missing-value policies named by a string (the third is ``{"impute": {...}}``).
POLICIES = ("null", "unmet")
KINDS = ("linear", "m_of_n")

Number = Union[int, float]
Value = Union[int, float, str]


@dataclass(frozen=True)
class Target:
    """The outcome column and which of its values is the positive class (prediction 1);
    ``rest``: every other value is the negative class (a column of more than two values,
    trained with ``--positive``), else the column holds exactly two."""

    name: str
    positive: Value
    rest: bool = False


@dataclass(frozen=True)
class Input:
    """One column of the data the model reads, by its exact name in the data.

    ``categories`` lists the levels seen in training for a categorical input (informative:
    an unseen level simply matches no ``==``/``in`` term).
    """

    name: str
    type: str
    categories: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Term:
    """One row of the scorecard: ``points`` when the condition holds.

    ``op`` is ``linear`` (contributes ``points * value_of_input``), ``>=`` / ``<`` (a
    threshold on a numeric input), ``==`` (one category or number), ``in`` (a set of
    categories) or ``missing`` (``value`` null: "the input is unknown", met exactly when the
    input is missing; only in a model whose ``missing`` policy is ``"unmet"``). ``label`` is
    how the row reads on paper.
    """

    input: str
    op: str
    value: Value | tuple[str, ...] | None
    points: Number
    label: str


#: ``training.status`` of a logistic-loss card chosen by ``--c0 auto``: the best its search
#: found, with no proof sought (its ``gap`` is 1 and its ``lower_bound`` 0).
BEST_FOUND = "best_found"


@dataclass(frozen=True)
class Training:
    """How the model was trained: the certificate that makes "optimal" checkable.

    ``selection``: how the card was chosen under ``--c0 auto`` (None when C0 was given):
    ``{"method": "cv", "folds": K, "rule": "one standard error", "grid": [{"c0", "test_error",
    "se", "size", "train_error"}, ...], "chosen": c0}``; a grid point of a logistic-loss card
    has ``"loss": "logistic", "items": k`` in place of ``c0``, and a selection that chose one
    ``"loss": "logistic", "items": k`` in place of ``chosen``.
    """

    solver: str
    status: str
    objective: float
    lower_bound: float
    gap: float
    seconds: float
    train_error: float
    n_rows: int
    params: dict = field(default_factory=dict)
    selection: dict | None = None
    #: The group limits trained under (``train --limit``, ``runtime/limits.py``), each with its
    #: value on the training rows: ``{"limit": text, "rate", "column", "group"?, "max" | "min" |
    #: "gap", "groups": [{"group", "count", "rows"}], "value", "met"}``.
    limits: tuple[dict, ...] = ()


@dataclass(frozen=True)
class InputMeta:
    """How an input reads for a person: ``label`` ("Plasma glucose"), ``unit`` ("mg/dL"),
    ``description`` (a sentence); each "" when not given. Display only: scoring reads the
    input by its exact name."""

    label: str = ""
    unit: str = ""
    description: str = ""

    @property
    def shown(self) -> str:
        """The label with its unit, "Plasma glucose (mg/dL)"; "" without a label."""
        if not self.label:
            return ""
        return f"{self.label} ({self.unit})" if self.unit else self.label


@dataclass(frozen=True)
class Meta:
    """What a model is for, in words (the model file's optional ``meta``): a ``title``, a
    ``description`` (population and purpose), the names of the two classes (``negative``,
    ``positive``: what prediction 0 and 1 mean) and per input its :class:`InputMeta`. Cards
    show them; the code exports carry them as comments (ONNX: metadata). Scoring never reads
    them."""

    title: str = ""
    description: str = ""
    negative: str = ""
    positive: str = ""
    inputs: tuple[tuple[str, InputMeta], ...] = ()

    def input(self, name: str) -> InputMeta:
        """The metadata of input ``name`` (empty when none was given)."""
        return dict(self.inputs).get(name, InputMeta())

    def __bool__(self) -> bool:
        return any((self.title, self.description, self.negative, self.positive, self.inputs))


META_TEXTS = ("title", "description")
INPUT_META = ("label", "unit", "description")


@dataclass(frozen=True)
class GoldenRow:
    """A row with the score and prediction every export must reproduce exactly."""

    row: dict
    score: Number | None
    prediction: int | None


@dataclass(frozen=True)
class Model:
    """A trained scoring system: ``score = sum(points of terms that apply)`` (the card's
    points total), ``prediction = 1`` when ``score > threshold`` (``threshold = -intercept``).

    ``missing`` is ``"null"`` (a row lacking a used input has no score),
    ``{"impute": {input: value}}`` (the stated training-time value is used instead) or
    ``"unmet"`` (a missing value meets no condition on its input, 0 points, except a
    ``missing`` term, which it meets; a row missing an input of a ``linear`` term still has
    no score).
    """

    kind: str
    target: Target
    inputs: tuple[Input, ...]
    terms: tuple[Term, ...]
    intercept: Number
    missing: str | dict = "null"
    probability: dict | None = None
    training: Training | None = None
    golden: tuple[GoldenRow, ...] = ()
    meta: Meta = Meta()
    #: What was done to the model after training, oldest first (``scorecard recalibrate``): each
    #: ``{"event": "recalibrated", "at": ISO time, "data", "sha256", "rows", "site"?, "fit",
    #: "before", "previous": the risk map it replaced, ...}``.
    history: tuple[dict, ...] = ()

    def __post_init__(self) -> None:
        _check_model(self)
        object.__setattr__(self, "_int_limits", _int_limits(self))

    @property
    def int_limits(self) -> dict[str, int]:
        """Input name -> the largest magnitude at which its integral values are held as ints,
        for the inputs of ``linear`` terms (every other input: 2^53). Within it no integer
        sum of the score can leave 2^53, so int arithmetic gives the very double every export
        computes; beyond, the runtime reads the value as a float (runtime/score.py)."""
        return self._int_limits  # type: ignore[attr-defined]

    def input(self, name: str) -> Input:
        for inp in self.inputs:
            if inp.name == name:
                return inp
        raise KeyError(name)

    @property
    def used_inputs(self) -> tuple[Input, ...]:
        """The inputs some term reads, in the order of ``inputs``."""
        used = {t.input for t in self.terms}
        return tuple(i for i in self.inputs if i.name in used)

    @property
    def imputed(self) -> dict:
        """Input name -> value used when the input is missing (empty under ``"null"``)."""
        return dict(self.missing["impute"]) if isinstance(self.missing, dict) else {}

    @property
    def unmet(self) -> bool:
        """True under the ``"unmet"`` policy: a missing value meets no condition but ``missing``."""
        return self.missing == "unmet"

    @property
    def needs_value(self) -> tuple[Input, ...]:
        """The used inputs a row cannot be scored without (after imputation): every one under
        ``"null"``, those a ``linear`` term reads under ``"unmet"``, none imputed ones."""
        if self.unmet:
            linear = {t.input for t in self.terms if t.op == "linear"}
            return tuple(i for i in self.used_inputs if i.name in linear)
        imputed = self.imputed
        return tuple(i for i in self.used_inputs if i.name not in imputed)

    @property
    def whole_scores(self) -> bool:
        """Whether every score is a whole number whatever a row holds: every term adds int
        points and none is ``linear`` (its input may hold a fraction, which the runtime reads as
        it is, 0.95 of the points). Exports index a risk table by such a score, and compare it
        with the threshold, without a floor."""
        return all(isinstance(t.points, int) and t.op != "linear" for t in self.terms)

    @property
    def threshold(self) -> Number:
        """Predict positive when the score (the points total, no intercept) exceeds this
        number: ``-intercept``, the one number the card states."""
        return -self.intercept

    @property
    def rules_needed(self) -> int:
        """For an M-of-N table: M, the number of true rules that predicts positive."""
        return int(math.floor(-self.intercept)) + 1


#: Every integer a double holds exactly lies within +-EXACT (2^53 = 9007199254740992).
EXACT = 2**53


def _int_limits(m: Model) -> dict[str, int]:
    linear = [t for t in m.terms if t.op == "linear"]
    if not linear:
        return {}
    fixed = abs(m.intercept) + sum(abs(t.points) for t in m.terms if t.op != "linear")
    per_unit = sum(abs(t.points) for t in linear)
    limit = EXACT if per_unit == 0 else min(EXACT, max(0, int((EXACT - fixed) // per_unit)))
    return {t.input: limit for t in linear}


def _check_exact(m: Model) -> None:
    """docs/contract.md, "Score semantics", numbers beyond 2^53: |intercept| + the sum of |points| is at most
    2^53, so every export adds the points of conditions exactly (doubles, 64-bit integers)
    and no sum overflows; a number compared with or standing for an input value (a
    threshold, an ``==`` value, an imputed value) is one a double holds exactly (an integer
    beyond +-2^53 only when it is a double, as 4 * 10^17 is)."""
    bound = f"2^53 = {EXACT}, the largest total every export adds exactly"
    if abs(m.intercept) > EXACT:
        _fail("intercept", f"{m.intercept!r} is beyond +-{bound}")
    total = abs(m.intercept)
    for k, t in enumerate(m.terms):
        total += abs(t.points)
        if total > EXACT:
            _fail(f"terms[{k}].points", f"{t.points!r} takes |intercept| + |points| to {float(total):.6g} "
                  f"(up to this term), beyond {bound}")
    numbers = [(f"terms[{k}].value", t.value) for k, t in enumerate(m.terms)]
    numbers += [(f"missing.impute.{name}", v) for name, v in m.imputed.items()]
    for where, value in numbers:
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > EXACT and int(float(value)) != value:
            _fail(where, f"the integer {value} is beyond +-2^53 = {EXACT} and no double holds it (every export "
                  f"compares doubles); write one that a double holds, e.g. {int(float(value))}")


def _fail(where: str, what: str) -> None:
    raise ModelError(f"{where}: {what}")


def _check_name(where: str, text: str) -> None:
    """Refuse a name or category no command can use (runtime/names.py: a NUL character)."""
    problem = name_problem(text)
    if problem is not None:
        _fail(where, f"{text!r} {problem}")


def _is_number(v: Any) -> bool:
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return False
    try:
        return math.isfinite(v)
    except OverflowError:  # an int no double holds (10^309 and more)
        return False


def _check_meta(meta: Meta, names: Mapping[str, Input]) -> None:
    """Every text a string without NUL; every input named one of the model's."""
    texts = [("meta.title", meta.title), ("meta.description", meta.description),
             ("meta.classes.negative", meta.negative), ("meta.classes.positive", meta.positive)]
    for name, info in meta.inputs:
        if name not in names:
            _fail(f"meta.inputs.{name}", "is not one of the model's inputs")
        texts += [(f"meta.inputs.{name}.{key}", getattr(info, key)) for key in INPUT_META]
    for where, text in texts:
        if not isinstance(text, str):
            _fail(where, f"must be a string, got {text!r}")
        _check_name(where, text)


def _check_model(m: Model) -> None:
    if m.kind not in KINDS:
        _fail("kind", f"must be one of {', '.join(KINDS)}, got {m.kind!r}")
    if not isinstance(m.target.name, str) or not m.target.name:
        _fail("target.name", "must be a non-empty string")
    positive = m.target.positive
    if not (isinstance(positive, str) or isinstance(positive, bool) or _is_number(positive)):
        _fail("target.positive", f"must be a string or a finite number, got {positive!r}")
    names: dict[str, Input] = {}
    for k, inp in enumerate(m.inputs):
        where = f"inputs[{k}]"
        if not isinstance(inp.name, str) or inp.name == "":
            _fail(f"{where}.name", "must be a non-empty string")
        if inp.name in names:
            _fail(f"{where}.name", f"duplicate input {inp.name!r}")
        _check_name(f"{where}.name", inp.name)
        if inp.type not in INPUT_TYPES:
            _fail(f"{where}.type", f"must be one of {', '.join(INPUT_TYPES)}, got {inp.type!r}")
        if inp.categories is not None and not all(isinstance(c, str) for c in inp.categories):
            _fail(f"{where}.categories", "must be a list of strings")
        for category in inp.categories or ():
            _check_name(f"{where}.categories", category)
        names[inp.name] = inp
    if not _is_number(m.intercept):
        _fail("intercept", f"must be a finite number, got {m.intercept!r}")
    for k, t in enumerate(m.terms):
        where = f"terms[{k}]"
        if t.input not in names:
            _fail(f"{where}.input", f"{t.input!r} is not one of the model's inputs")
        if t.op not in OPS:
            _fail(f"{where}.op", f"must be one of {', '.join(OPS)}, got {t.op!r}")
        if not _is_number(t.points):
            _fail(f"{where}.points", f"must be a finite number, got {t.points!r}")
        if not isinstance(t.label, str):
            _fail(f"{where}.label", "must be a string")
        for value in t.value if isinstance(t.value, tuple) else (t.value,):
            if isinstance(value, str):
                _check_name(f"{where}.value", value)
        kind = names[t.input].type
        if t.op == "linear":
            if kind == "categorical":
                _fail(f"{where}.op", f"'linear' needs a numeric or binary input, {t.input!r} is categorical")
            if t.value is not None:
                _fail(f"{where}.value", "must be null for a 'linear' term")
        elif t.op in (">=", "<"):
            if kind == "categorical":
                _fail(f"{where}.op", f"{t.op!r} needs a numeric or binary input, {t.input!r} is categorical")
            if not _is_number(t.value):
                _fail(f"{where}.value", f"must be a finite number, got {t.value!r}")
        elif t.op == "==":
            ok = isinstance(t.value, str) if kind == "categorical" else _is_number(t.value)
            if not ok:
                _fail(f"{where}.value", f"{t.value!r} does not fit the {kind} input {t.input!r}")
        elif t.op == "in":
            if kind != "categorical":
                _fail(f"{where}.op", f"'in' needs a categorical input, {t.input!r} is {kind}")
            if not isinstance(t.value, tuple) or not t.value or not all(isinstance(v, str) for v in t.value):
                _fail(f"{where}.value", "must be a non-empty list of category strings")
        elif t.op == "missing":
            if m.missing != "unmet":
                _fail(f"{where}.op", "'missing' (the input is unknown) needs the model's missing policy \"unmet\", "
                      f"the model's is {m.missing!r}")
            if t.value is not None:
                _fail(f"{where}.value", f"must be null for a 'missing' term, got {t.value!r}")
    if m.kind == "m_of_n":
        for k, t in enumerate(m.terms):
            if t.points != 1 or t.op == "linear":
                _fail(f"terms[{k}]", "an m_of_n model holds rules (not 'linear') worth exactly 1 point")
    if isinstance(m.missing, dict):
        if set(m.missing) != {"impute"} or not isinstance(m.missing["impute"], dict):
            _fail("missing", 'must be "null", "unmet" or {"impute": {input: value}}')
        for name, value in m.missing["impute"].items():
            if name not in names:
                _fail(f"missing.impute.{name}", "is not one of the model's inputs")
            ok = isinstance(value, str) if names[name].type == "categorical" else _is_number(value)
            if not ok:
                _fail(f"missing.impute.{name}", f"{value!r} does not fit the {names[name].type} input")
            if isinstance(value, str):
                _check_name(f"missing.impute.{name}", value)
    elif m.missing not in POLICIES:
        _fail("missing", f'must be "null", "unmet" or {{"impute": {{...}}}}, got {m.missing!r}')
    _check_exact(m)
    _check_meta(m.meta, names)
    check_probability(m.probability)
    if m.probability is not None and m.probability.get("method") == "table":
        for k, row in enumerate(m.probability.get("table", ())):
            value = row.get("score") if isinstance(row, dict) else None
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > EXACT \
                    and int(float(value)) != value:
                _fail(f"probability.table[{k}].score", f"the integer {value} is beyond +-2^53 = {EXACT} "
                      "and no double holds it")
    for k, g in enumerate(m.golden):
        if not isinstance(g.row, dict):
            _fail(f"golden[{k}].row", "must be an object")
        if g.score is not None and not _is_number(g.score):
            _fail(f"golden[{k}].score", f"must be a number or null, got {g.score!r}")
        if g.prediction not in (0, 1, None) or isinstance(g.prediction, bool):
            _fail(f"golden[{k}].prediction", f"must be 0, 1 or null, got {g.prediction!r}")


# ---------------------------------------------------------------------------- JSON


def to_dict(model: Model) -> dict:
    """The model as the JSON-ready dict of the file format."""

    def term(t: Term) -> dict:
        value = list(t.value) if isinstance(t.value, tuple) else t.value
        return {"input": t.input, "op": t.op, "value": value, "points": t.points, "label": t.label}

    def inp(i: Input) -> dict:
        d: dict = {"name": i.name, "type": i.type}
        if i.categories is not None:
            d["categories"] = list(i.categories)
        return d

    out = {
        "format": FORMAT,
        "version": VERSION,
        "kind": model.kind,
        "target": {"name": model.target.name, "positive": model.target.positive,
                   **({"rest": True} if model.target.rest else {})},
        "inputs": [inp(i) for i in model.inputs],
        "terms": [term(t) for t in model.terms],
        "intercept": model.intercept,
        "missing": model.missing,
        "probability": model.probability,
        "training": None,
        "golden": [{"row": g.row, "score": g.score, "prediction": g.prediction} for g in model.golden],
    }
    if model.training is not None:
        t = model.training
        out["training"] = {
            "solver": t.solver, "status": t.status, "objective": t.objective,
            "lower_bound": t.lower_bound, "gap": t.gap, "seconds": t.seconds,
            "train_error": t.train_error, "n_rows": t.n_rows, "params": t.params,
        }
        if t.selection is not None:  # absent, not null, when C0 was given: older files read the same
            out["training"]["selection"] = t.selection
        if t.limits:  # absent without limits
            out["training"]["limits"] = list(t.limits)
    if model.meta:  # absent when there is none: files without it read the same
        out["meta"] = meta_dict(model.meta)
    if model.history:  # absent when nothing was done after training
        out["history"] = list(model.history)
    return out


def meta_dict(meta: Meta) -> dict:
    """``meta`` as the model file writes it (only the texts given)."""
    out: dict = {key: getattr(meta, key) for key in META_TEXTS if getattr(meta, key)}
    classes = {key: getattr(meta, key) for key in ("negative", "positive") if getattr(meta, key)}
    if classes:
        out["classes"] = classes
    inputs = {name: {key: getattr(info, key) for key in INPUT_META if getattr(info, key)} for name, info in meta.inputs}
    inputs = {name: info for name, info in inputs.items() if info}
    if inputs:
        out["inputs"] = inputs
    return out


def meta_from_dict(raw: Any) -> Meta:
    """The ``meta`` object of a model file (or a ``[meta]`` TOML table), checked for shape;
    names are checked against the model's inputs when the Model is built."""
    if raw is None:
        return Meta()
    if not isinstance(raw, dict):
        _fail("meta", "must be an object")
    for key in raw:
        if key not in META_TEXTS + ("classes", "inputs"):
            _fail(f"meta.{key}", "is not a meta field (title, description, classes, inputs)")
    classes = _get(raw, "classes", "meta.", dict, optional=True) or {}
    for key in classes:
        if key not in ("negative", "positive"):
            _fail(f"meta.classes.{key}", "must be negative or positive")
    inputs = []
    for name, info in (_get(raw, "inputs", "meta.", dict, optional=True) or {}).items():
        if not isinstance(info, dict):
            _fail(f"meta.inputs.{name}", "must be an object of label, unit, description")
        for key in info:
            if key not in INPUT_META:
                _fail(f"meta.inputs.{name}.{key}", "is not one of label, unit, description")
        inputs.append((name, InputMeta(**{key: _get(info, key, f"meta.inputs.{name}.", str, optional=True) or ""
                                          for key in INPUT_META})))
    return Meta(title=_get(raw, "title", "meta.", str, optional=True) or "",
                description=_get(raw, "description", "meta.", str, optional=True) or "",
                negative=_get(classes, "negative", "meta.classes.", str, optional=True) or "",
                positive=_get(classes, "positive", "meta.classes.", str, optional=True) or "",
                inputs=tuple(sorted(inputs)))


def dumps(model: Model) -> str:
    """Canonical JSON text: sorted keys, two-space indent, shortest round-trip floats."""
    return json.dumps(to_dict(model), sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def dump(model: Model, path: str) -> None:
    """Write the model file all or nothing (a failed write leaves no partial file)."""
    write_atomic(path, dumps(model))


def _get(d: Mapping, key: str, where: str, types: type | tuple, optional: bool = False) -> Any:
    if key not in d:
        if optional:
            return None
        _fail(f"{where}{key}", "is missing")
    value = d[key]
    if optional and value is None:
        return None
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in _as_tuple(types)):
        _fail(f"{where}{key}", f"has the wrong type ({type(value).__name__})")
    return value


def _as_tuple(types: type | tuple) -> tuple:
    return types if isinstance(types, tuple) else (types,)


GRID_KEYS = ("test_error", "se", "size", "train_error")
#: ``loss`` of a selection's logistic-loss candidates and choice (absent: the 0-1 loss, a C0),
#: and of the empty card (no item: the majority class; ``items`` 0).
LOGISTIC_CARD = "logistic"
EMPTY_CARD = "empty"
#: ``measure`` of a selection: what its rule compared (absent: the error).
MEASURES = ("error", "log-loss")


def _selection(raw: dict | None) -> dict | None:
    """``training.selection`` checked: method, folds, rule, grid of numbers (each point a
    ``c0``, or a logistic card's ``items``), and the choice: ``chosen`` (a C0) or, with
    ``loss`` "logistic", ``items``."""
    if raw is None:
        return None
    w = "training.selection."
    _get(raw, "method", w, str)
    _get(raw, "rule", w, str)
    _get(raw, "folds", w, int)
    if raw.get("measure", "error") not in MEASURES:
        _fail(f"{w}measure", f"must be one of {', '.join(MEASURES)}, got {raw.get('measure')!r}")
    for k, point in enumerate(_get(raw, "grid", w, list)):
        if not isinstance(point, dict):
            _fail(f"{w}grid[{k}]", "must be an object")
        card = _card_loss(point, f"{w}grid[{k}].") != "zero-one"
        risky = ("log_loss", "log_loss_se", "auc") if "log_loss" in point else ()
        for key in GRID_KEYS + risky + (() if card else ("c0",)):
            if not _is_number(_get(point, key, f"{w}grid[{k}].", (int, float))):
                _fail(f"{w}grid[{k}].{key}", "must be a finite number")
        if card:
            _get(point, "items", f"{w}grid[{k}].", int)
    if _card_loss(raw, w) != "zero-one":
        _get(raw, "items", w, int)
    elif not _is_number(_get(raw, "chosen", w, (int, float))):
        _fail(f"{w}chosen", "must be a finite number")
    return raw


def _limits(raw: list) -> tuple[dict, ...]:
    """``training.limits`` checked: each a limit (``runtime/limits.py``) with its wording, its
    groups' counts on the training rows, its value and verdict."""
    for k, item in enumerate(raw):
        w = f"training.limits[{k}]"
        limit_from_dict(item, w, extra=("limit", "groups", "value", "met"))
        _get(item, "limit", f"{w}.", str)
        for j, g in enumerate(_get(item, "groups", f"{w}.", list)):
            where = f"{w}.groups[{j}]"
            if not isinstance(g, dict) or not (isinstance(g.get("group"), str) or _is_number(g.get("group"))):
                _fail(where, "must be {\"group\": a value of the column, \"count\": rows, \"rows\": rows}")
            count, rows = _get(g, "count", f"{where}.", int), _get(g, "rows", f"{where}.", int)
            if not 0 <= count <= rows:
                _fail(where, f"count {count} and rows {rows} must be 0 <= count <= rows")
        if item.get("value") is not None and not _is_number(item["value"]):
            _fail(f"{w}.value", f"must be a number or null, got {item['value']!r}")
        _get(item, "met", f"{w}.", bool, optional=True)
    return tuple(raw)


#: The events of ``history``.
EVENTS = ("recalibrated",)


def _history(raw: list) -> tuple[dict, ...]:
    """``history`` checked: each entry an object with a known ``event``, its time ``at`` (text),
    and, for a recalibration, the data it was refitted on (``data``, ``rows``), the ``fit`` and
    the risk map it replaced (``previous``: null or a valid map); other fields are kept as they are."""
    for k, entry in enumerate(raw):
        w = f"history[{k}]"
        if not isinstance(entry, dict):
            _fail(w, "must be an object")
        event = _get(entry, "event", f"{w}.", str)
        if event not in EVENTS:
            _fail(f"{w}.event", f"must be one of {', '.join(EVENTS)}, got {event!r}")
        _get(entry, "at", f"{w}.", str)
        _get(entry, "data", f"{w}.", str)
        _get(entry, "rows", f"{w}.", int)
        _get(entry, "fit", f"{w}.", dict)
        if "previous" not in entry:
            _fail(f"{w}.previous", "is missing (the risk map the refit replaced, or null)")
        try:
            check_probability(entry["previous"])
        except ModelError as exc:
            _fail(f"{w}.previous", str(exc))
    return tuple(raw)


def _card_loss(raw: dict, where: str) -> str:
    """A selection's or grid point's ``loss``: "zero-one" when absent, else "logistic" or "empty"."""
    loss = raw.get("loss", "zero-one")
    if loss not in ("zero-one", LOGISTIC_CARD, EMPTY_CARD):
        _fail(f"{where}loss", f"must be zero-one, {LOGISTIC_CARD} or {EMPTY_CARD}, got {loss!r}")
    return loss


def _from_version_1(d: dict) -> dict:
    """A version 1 file's fields in version 2's meaning. Version 1's score was ``intercept +
    points``; version 2's is the points total, so each golden score and risk table score
    loses the intercept, and the logistic map (``1 / (1 + exp(-s * (intercept + points)))``)
    gains ``center = -intercept``. An integer score converts exactly (every trained model on
    integer-valued conditions); a fractional one by one subtraction."""
    intercept = d.get("intercept")
    if not _is_number(intercept):
        return d  # from_dict names the field
    out = dict(d)
    golden = d.get("golden")
    if isinstance(golden, list):
        out["golden"] = [dict(g, score=g["score"] - intercept) if isinstance(g, dict) and _is_number(g.get("score"))
                         else g for g in golden]
    probability = d.get("probability")
    if isinstance(probability, dict) and probability.get("method") == "logistic":
        out["probability"] = dict(probability, center=-intercept)
    elif isinstance(probability, dict) and isinstance(probability.get("table"), list):
        out["probability"] = dict(probability, table=[
            dict(row, score=row["score"] - intercept) if isinstance(row, dict) and _is_number(row.get("score"))
            else row for row in probability["table"]])
    return out


def from_dict(d: Any) -> Model:
    """Build a :class:`Model` from parsed JSON, validating every field."""
    if not isinstance(d, dict):
        _fail("model", "the file must hold a JSON object")
    if d.get("format") != FORMAT:
        _fail("format", f"must be {FORMAT!r}; this is not a scorecard model file")
    version = d.get("version")
    if version not in READS or isinstance(version, bool):
        _fail("version", f"this scorecard reads versions {', '.join(map(str, READS))}, the file is version "
              f"{version!r}; upgrade scorecard or retrain the model")
    if version == 1:
        d = _from_version_1(d)
    target = _get(d, "target", "", dict)
    inputs = []
    for k, raw in enumerate(_get(d, "inputs", "", list)):
        if not isinstance(raw, dict):
            _fail(f"inputs[{k}]", "must be an object")
        cats = _get(raw, "categories", f"inputs[{k}].", list, optional=True)
        inputs.append(Input(_get(raw, "name", f"inputs[{k}].", str), _get(raw, "type", f"inputs[{k}].", str),
                            tuple(cats) if cats is not None else None))
    terms = []
    for k, raw in enumerate(_get(d, "terms", "", list)):
        if not isinstance(raw, dict):
            _fail(f"terms[{k}]", "must be an object")
        if "value" not in raw:
            _fail(f"terms[{k}].value", "is missing")
        value = raw["value"]
        terms.append(Term(
            input=_get(raw, "input", f"terms[{k}].", str), op=_get(raw, "op", f"terms[{k}].", str),
            value=tuple(value) if isinstance(value, list) else value,
            points=_get(raw, "points", f"terms[{k}].", (int, float)),
            label=_get(raw, "label", f"terms[{k}].", str)))
    training = None
    raw_t = _get(d, "training", "", dict, optional=True)
    if raw_t is not None:
        w = "training."
        training = Training(
            solver=_get(raw_t, "solver", w, str), status=_get(raw_t, "status", w, str),
            objective=_get(raw_t, "objective", w, (int, float)),
            lower_bound=_get(raw_t, "lower_bound", w, (int, float)),
            gap=_get(raw_t, "gap", w, (int, float)), seconds=_get(raw_t, "seconds", w, (int, float)),
            train_error=_get(raw_t, "train_error", w, (int, float)), n_rows=_get(raw_t, "n_rows", w, int),
            params=_get(raw_t, "params", w, dict, optional=True) or {},
            selection=_selection(_get(raw_t, "selection", w, dict, optional=True)),
            limits=_limits(_get(raw_t, "limits", w, list, optional=True) or []))
    golden = []
    for k, raw in enumerate(_get(d, "golden", "", list, optional=True) or []):
        if not isinstance(raw, dict):
            _fail(f"golden[{k}]", "must be an object")
        golden.append(GoldenRow(row=_get(raw, "row", f"golden[{k}].", dict), score=raw.get("score"),
                                prediction=raw.get("prediction")))
    if "positive" not in target:
        _fail("target.positive", "is missing")
    return Model(
        kind=_get(d, "kind", "", str),
        target=Target(_get(target, "name", "target.", str), target["positive"],
                      bool(_get(target, "rest", "target.", bool, optional=True))),
        inputs=tuple(inputs), terms=tuple(terms),
        intercept=_get(d, "intercept", "", (int, float)),
        missing=d.get("missing", "null"),
        probability=_get(d, "probability", "", dict, optional=True),
        training=training, golden=tuple(golden), meta=meta_from_dict(d.get("meta")),
        history=_history(_get(d, "history", "", list, optional=True) or []))


#: The most digits an integer in a model file may have: beyond, it is no finite double.
MAX_INT_DIGITS = 309


def _parse_int(text: str) -> int:
    """A JSON integer, refused (ModelError) when no finite double holds it (10^309 and more;
    Python would raise OverflowError later, or ValueError past 4,300 digits)."""
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise ModelError(f"the integer {text[:12]}... ({digits} digits) is beyond the range of a number "
                         f"(at most about 1.8e308)")
    value = int(text)
    try:
        float(value)
    except OverflowError:
        raise ModelError(f"the integer {text[:12]}... is beyond the range of a number (at most about 1.8e308)") from None
    return value


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ModelError(f"the number {text[:24]} is beyond the range of a number (at most about 1.8e308)")
    return value


def _refuse_constant(name: str) -> None:
    raise ModelError(f"{name} is not a number JSON allows; a model file holds finite numbers only")


def loads(text: str) -> Model:
    """Parse and validate model JSON text (strict JSON: no NaN or Infinity, finite numbers)."""
    try:
        data = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise ModelError(f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except ModelError as exc:
        raise ModelError(f"not valid JSON: {exc}") from None
    except RecursionError:
        raise ModelError("not a model file: its JSON is nested too deeply") from None
    try:
        return from_dict(data)
    except RecursionError:
        raise ModelError("not a model file: a value is nested too deeply") from None


def load(path: str) -> Model:
    """Read and validate a model file; errors start with the file's path."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        raise ModelError(f"{path}: no such model file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelError(f"{path}: cannot read the model file ({exc})") from None
    try:
        return loads(text)
    except ModelError as exc:
        raise ModelError(f"{path}: {exc}") from None
