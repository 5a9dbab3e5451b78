"""The constraint language: a practitioner's requirements as data, checked once.

"At most 10 items, false-positive rate at most 20 %, hypertension only adds risk" is
written once (TOML, CLI flags or Python) and every model trained with it obeys it exactly
on the training data. This module holds the vocabulary and its parsing; the integer
program side is ``formulation/constraints.py``. The pieces, with the paper's sections
(Ustun & Rudin, "Methods and Models for Interpretable Linear Classification"):

- coefficient sets per input and for the intercept, as ranges, lists or named presets
  such as "two significant digits" (Section 2.2);
- sign constraints (2.3, already ``TrainConfig.signs``); per-input C0 preferences and the
  missing-data penalty C0 + M/N (2.4);
- composition: ``max_features``/``min_features`` (in ``TrainConfig``), at-most-one-of
  groups, if-then requirements and hierarchies (2.5);
- PILM tiers of coefficient sets with their own penalties (3.2); cut points and negations
  for M-of-N and TILM rules, and TILM's C_f, C_t, R_max (3.3);
- limits on a rate in groups of rows (``--limit "fpr[sex=female] <= 0.15"``, ``"tpr[race] gap
  <= 0.05"``): :func:`parse_limit` turns the text or a table into a ``runtime.limits.Limit``
  (the wording, the model file's form and the test on counts live there).

Constraints name *raw* input columns (as in the data); a categorical input's constraint
applies to all of its one-hot columns. :func:`check_names` refuses unknown names and
suggests the closest one.

The TOML schema (every key is also a ``TrainConfig`` field, so ``TrainConfig(**toml)``
works; plain dicts and lists are turned into the dataclasses below):

    max_features = 10
    max_fpr = 0.20
    intercept_set = [-20, -10, -5, 0]
    [signs]
    hypertension = "+"
    [coefficients]            # per input: a range, a list or a preset
    age = { min = 0, max = 5 }
    income = "two_significant_digits"
    bmi = [0, 1, 2, 5]
    [c0_by_input]             # accuracy you give up to use this input (default: c0)
    smoking = 0.05
    [[at_most_one]]
    of = ["male", "female"]
    [[requires]]
    if_any = ["heart_attack", "hypertension"]
    then = "stroke"
    [[hierarchy]]
    leaf = "diabetes_type2"
    ancestors = ["diabetes"]
    [[tiers]]                 # PILM: first tier = most interpretable, smallest c0
    values = { min = -10, max = 10 }
    c0 = 0.01
    [cuts]                    # M-of-N / TILM rule thresholds
    age = [40, 60]

and, as a top-level key before the tables, limits in groups of rows (text, or tables):

    limits = ["fpr[sex=female] <= 0.15", {rate = "tpr", column = "race", gap = 0.05}]
"""
from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

import re

from scorecard.runtime.errors import ConfigError, ModelError
from scorecard.runtime.limits import RATES, Limit, limit_from_dict

from .spec import is_finite_number, is_int

Number = int | float


# ------------------------------------------------------------------ coefficient sets


def _significant_digits(digits: int, largest: int) -> tuple[int, ...]:
    """0 and the integers up to ``largest`` in magnitude with at most ``digits`` significant digits.

    Section 2.2's set: lambda = d1 * 10**E1 + d2 * 10**(E1 - 1), digits d in -9..9 and
    E1 in 0..3, whose integers are exactly the two-significant-digit ones in +-9900.
    """
    values = {0}
    for mantissa in range(1, 10 ** digits):
        scale = 1
        while mantissa * scale <= largest:
            values.update({mantissa * scale, -mantissa * scale})
            scale *= 10
    return tuple(sorted(values))


#: Named coefficient sets (Section 2.2): readable magnitudes when inputs differ in scale.
PRESETS: dict[str, tuple[int, ...]] = {
    "two_significant_digits": _significant_digits(2, 9900),
    "one_significant_digit": _significant_digits(1, 9000),
}


@dataclass(frozen=True)
class CoefSet:
    """The values a coefficient may take (Section 2.2's Lset_j), sorted and distinct.

    A feature's set always holds 0 (the paper's assumption (ii): any input can be left
    out); the intercept's set need not.
    """

    values: tuple[Number, ...]

    def __post_init__(self) -> None:
        if not self.values or not all(is_finite_number(v) for v in self.values):
            raise ConfigError(f"coefficient set {list(self.values)!r} is not valid; use a non-empty list of numbers")
        object.__setattr__(self, "values", tuple(sorted(set(_as_int_if_whole(v) for v in self.values))))

    @classmethod
    def range(cls, low: int, high: int) -> "CoefSet":
        """All integers in ``[low, high]``."""
        return cls(tuple(range(low, high + 1)))

    @property
    def low(self) -> Number:
        return self.values[0]

    @property
    def high(self) -> Number:
        return self.values[-1]

    @property
    def is_integer_range(self) -> bool:
        """True when the set is every integer between its ends (bounds suffice, no u binaries)."""
        return all(isinstance(v, int) for v in self.values) and len(self.values) == self.high - self.low + 1

    def with_zero(self) -> "CoefSet":
        return self if 0 in self.values else CoefSet(self.values + (0,))

    def signed(self, sign: str | None) -> "CoefSet":
        """The part of the set allowed by a sign constraint ``+`` (>= 0) or ``-`` (<= 0)."""
        if sign == "+":
            return CoefSet(tuple(v for v in self.values if v >= 0) or (0,))
        if sign == "-":
            return CoefSet(tuple(v for v in self.values if v <= 0) or (0,))
        return self

    def describe(self) -> str:
        if self.is_integer_range and len(self.values) > 3:
            return f"integers {self.low}..{self.high}"
        if len(self.values) > 12:
            return f"{len(self.values)} values from {self.low} to {self.high}"
        return "{" + ", ".join(str(v) for v in self.values) + "}"


def parse_coef_set(spec: Any, where: str) -> CoefSet:
    """A coefficient set from its TOML/CLI form.

    ``"two_significant_digits"`` (a preset), ``"-5..5"`` (an integer range), ``"0,1,2,5"``
    or ``[0, 1, 2, 5]`` (a list), or a table ``{min, max, values | preset}`` where
    ``min``/``max`` bound the integers, the list or the preset.
    """
    if isinstance(spec, CoefSet):
        return spec
    if isinstance(spec, str):
        text = spec.strip()
        if text in PRESETS:
            return CoefSet(PRESETS[text])
        if ".." in text:
            low, _, high = text.partition("..")
            return parse_coef_set({"min": _number(low, where), "max": _number(high, where)}, where)
        if "," in text or _is_number_text(text):
            return parse_coef_set([_number(part, where) for part in text.split(",") if part.strip()], where)
        raise ConfigError(f"{where}: {spec!r} is not a coefficient set; use a range like '-5..5', "
                          f"a list like '0,1,2,5' or a preset ({_closest_hint(text, PRESETS)})")
    if isinstance(spec, (list, tuple)):
        if not spec or not all(is_finite_number(v) for v in spec):
            raise ConfigError(f"{where}: {list(spec)!r} is not valid; use a non-empty list of numbers")
        return CoefSet(tuple(spec))
    if isinstance(spec, Mapping):
        unknown = set(spec) - {"min", "max", "values", "preset"}
        if unknown:
            raise ConfigError(f"{where}: unknown key {sorted(unknown)[0]!r}; use min, max, values or preset")
        if "values" in spec and "preset" in spec:
            raise ConfigError(f"{where}: give either values or preset, not both")
        low, high = spec.get("min"), spec.get("max")
        for key, v in (("min", low), ("max", high)):
            if v is not None and not is_finite_number(v):
                raise ConfigError(f"{where}.{key}: {v!r} is not a number")
        if "values" in spec or "preset" in spec:
            base = parse_coef_set(spec.get("values", spec.get("preset")), where)
            kept = tuple(v for v in base.values if (low is None or v >= low) and (high is None or v <= high))
            if not kept:
                raise ConfigError(f"{where}: no value of {base.describe()} lies in [{low}, {high}]")
            return CoefSet(kept)
        if not (is_int(low) and is_int(high) and low <= high):
            raise ConfigError(f"{where}: {{min = {low!r}, max = {high!r}}} is not valid; use integers with min <= max")
        return CoefSet.range(low, high)
    raise ConfigError(f"{where}: {spec!r} is not a coefficient set; use a range, a list or a preset name")


# ------------------------------------------------------------------ composition (2.5)


@dataclass(frozen=True)
class AtMostOne:
    """At most one of these inputs is used: alpha_male + alpha_female <= 1 (Section 2.5)."""

    of: tuple[str, ...]

    def describe(self) -> str:
        return f"at_most_one of {list(self.of)}"


@dataclass(frozen=True)
class Requires:
    """If any input of ``if_any`` is used, every input of ``then`` is used too (Section 2.5).

    The paper's alpha_heart_attack + alpha_hypertension <= 2 alpha_stroke.
    """

    if_any: tuple[str, ...]
    then: tuple[str, ...]

    def describe(self) -> str:
        return f"requires {list(self.then)} if any of {list(self.if_any)}"


@dataclass(frozen=True)
class Hierarchy:
    """``leaf`` is used only together with all of its ``ancestors`` (a partial order, 2.5)."""

    leaf: str
    ancestors: tuple[str, ...]

    def describe(self) -> str:
        return f"hierarchy {self.leaf} under {list(self.ancestors)}"


@dataclass(frozen=True)
class Tier:
    """A PILM interpretability set and its penalty (Section 3.2): using a coefficient from
    ``values`` costs ``c0`` of training accuracy. Tiers are listed from the most
    interpretable; a tier's set excludes the values of earlier tiers.
    """

    values: CoefSet
    c0: float


# ------------------------------------------------------------------ limits in groups of rows

#: What follows a limit's brackets: ``<= R``, ``>= R`` or ``gap <= R`` (R a rate, or a percentage).
_LIMIT_TAIL = re.compile(r"(gap\s*)?(<=|>=)\s*([^\s%]+)\s*(%?)")
LIMIT_FORMS = ("RATE[COL=VALUE] <= R, RATE[COL] >= R or RATE[COL] gap <= R, RATE one of "
               f"{', '.join(RATES)} and R a rate (e.g. 'fpr[sex=female] <= 0.15', 'tpr[race] gap <= 0.05')")


def parse_limit(spec: Any, where: str) -> Limit:
    """A limit from ``--limit`` text or a ``--config`` table (``runtime.limits.Limit``).

    Text: ``RATE[COL=VALUE] <= R`` (a group's rate at most R; ``>=``: at least), ``RATE[COL]
    <= R`` (every group's), ``RATE[COL] gap <= R`` (the largest difference between two groups);
    the column is everything before the last ``=`` in the brackets (as in ``--sign``), R a rate
    in [0, 1] or a percentage (``15%``). A table: ``{rate, column, group?, max | min | gap}``,
    for names the text cannot hold. The group's value is read against the data later (a number
    for a column of numbers)."""
    if isinstance(spec, Limit):
        return spec
    if isinstance(spec, Mapping):
        try:
            return limit_from_dict(dict(spec), where)
        except ModelError as exc:
            raise ConfigError(str(exc)) from None
    if not isinstance(spec, str):
        raise ConfigError(f"{where}: {spec!r} is not a limit; write {LIMIT_FORMS}")
    text = spec.strip()
    start, end = text.find("["), text.rfind("]")
    tail = _LIMIT_TAIL.fullmatch(text[end + 1:].strip()) if 0 < start < end else None
    if tail is None:
        raise ConfigError(f"{where}: {spec!r} is not a limit; write {LIMIT_FORMS}")
    rate, inside = text[:start].strip(), text[start + 1:end]
    column, eq, group = inside.rpartition("=")
    if not eq:
        column, group = inside, None
    gap, sense, number, percent = tail.groups()
    try:
        bound = float(number) / (100 if percent else 1)
    except ValueError:
        raise ConfigError(f"{where}: {number!r} in {spec!r} is not a number") from None
    if gap and sense != "<=":
        raise ConfigError(f"{where}: {spec!r}: a gap has an upper limit only; write gap <= R")
    raw = {"rate": rate, "column": column.strip(), ("gap" if gap else "max" if sense == "<=" else "min"): bound}
    if group is not None:
        raw["group"] = group.strip()
    if rate not in RATES:
        raise ConfigError(f"{where}: {rate!r} in {spec!r} is not a rate; use one of {', '.join(RATES)}")
    if not raw["column"] or raw.get("group") == "":
        raise ConfigError(f"{where}: {spec!r} names no {'column' if not raw['column'] else 'value'}; write {LIMIT_FORMS}")
    if not 0 <= bound <= 1:
        raise ConfigError(f"{where}: {spec!r}: {number}{percent} is not a rate; use a number between 0 and 1 (or 0% to 100%)")
    return parse_limit(raw, where)


# ------------------------------------------------------------------ normalization


def normalize_config(values: Mapping[str, Any]) -> dict[str, Any]:
    """The constraint fields of a ``TrainConfig``, turned into the dataclasses and checked.

    A pure function of the option values (``values``: field name -> value): it returns the
    normalized ``coefficients``, ``intercept_set``, ``c0_by_input``, ``at_most_one``,
    ``requires``, ``hierarchy``, ``tiers`` and ``cuts``, which ``TrainConfig.__post_init__``
    applies. Accepts the plain values TOML gives (dicts, lists, strings) and the dataclasses
    themselves (so it is idempotent), and raises ``ConfigError`` naming the option and how
    to fix it. The plain options (``--max-thresholds``, ``--c-rule`` ...) are checked by the
    spec (``spec.py``) before this runs.
    """
    out: dict[str, Any] = {}
    out["coefficients"] = {str(k): parse_coef_set(v, f"coefficients.{k}")
                           for k, v in _table(values["coefficients"], "coefficients").items()}
    intercept_set = values["intercept_set"]
    out["intercept_set"] = None if intercept_set is None else parse_coef_set(intercept_set, "intercept_set")
    c0s = _table(values["c0_by_input"], "c0_by_input")
    for name, v in c0s.items():
        if not (is_finite_number(v) and v >= 0):
            raise ConfigError(f"c0_by_input.{name}: {v!r} is not valid; use a number >= 0 (e.g. 0.05)")
    out["c0_by_input"] = dict(c0s)
    out["at_most_one"] = tuple(_at_most_one(g, f"at_most_one[{k}]")
                               for k, g in enumerate(_list(values["at_most_one"], "at_most_one")))
    out["requires"] = tuple(_requires(r, f"requires[{k}]") for k, r in enumerate(_list(values["requires"], "requires")))
    out["hierarchy"] = tuple(_hierarchy(h, f"hierarchy[{k}]")
                             for k, h in enumerate(_list(values["hierarchy"], "hierarchy")))
    out["tiers"] = _tiers(_list(values["tiers"], "tiers"))
    if values["model"] == "pilm" and not out["tiers"]:
        raise ConfigError("tiers: --model pilm needs at least one tier, e.g. "
                          "[[tiers]] values = {min = -10, max = 10}, c0 = 0.01")
    cuts = {}
    for name, given in _table(values["cuts"], "cuts").items():
        vals = given if isinstance(given, (list, tuple)) else [given]
        if not vals or not all(is_finite_number(v) for v in vals):
            raise ConfigError(f"cuts.{name}: {given!r} is not valid; use a list of numbers, e.g. [40, 60]")
        cuts[str(name)] = tuple(sorted(set(_as_int_if_whole(v) for v in vals)))
    out["cuts"] = cuts
    limits = values["limits"]
    if isinstance(limits, (str, Mapping)):
        limits = (limits,)
    out["limits"] = tuple(parse_limit(v, "--limit" if isinstance(v, str) else f"limits[{k}]")
                          for k, v in enumerate(_list(limits, "limits")))
    return out


def _tiers(raw: Sequence[Any]) -> tuple[Tier, ...]:
    tiers: list[Tier] = []
    taken: set[Number] = {0}
    for k, t in enumerate(raw):
        where = f"tiers[{k}]"
        if isinstance(t, Tier):
            values, c0 = t.values, t.c0
        elif isinstance(t, Mapping) and set(t) == {"values", "c0"}:
            values, c0 = parse_coef_set(t["values"], f"{where}.values"), t["c0"]
        else:
            raise ConfigError(f"{where}: {t!r} is not a tier; use {{values = {{min = -10, max = 10}}, c0 = 0.01}}")
        if not (is_finite_number(c0) and c0 >= 0):
            raise ConfigError(f"{where}.c0: {c0!r} is not valid; use a number >= 0")
        if tiers and not c0 > tiers[-1].c0:
            raise ConfigError(f"{where}.c0: {c0} must be larger than the previous tier's c0 ({tiers[-1].c0}); "
                              "list tiers from the most interpretable (cheapest) to the least")
        fresh = tuple(v for v in values.values if v not in taken)
        if not fresh:
            raise ConfigError(f"{where}.values: every value is already in an earlier tier; widen the set")
        taken.update(fresh)
        tiers.append(Tier(CoefSet(fresh), float(c0)))
    return tuple(tiers)


def _at_most_one(g: Any, where: str) -> AtMostOne:
    if isinstance(g, AtMostOne):
        return g
    if isinstance(g, Mapping) and set(g) == {"of"}:
        of = _names(g["of"], f"{where}.of")
        if len(of) >= 2:
            return AtMostOne(of)
    raise ConfigError(f"{where}: {g!r} is not valid; use {{of = [\"male\", \"female\"]}} with two or more inputs")


def _requires(r: Any, where: str) -> Requires:
    if isinstance(r, Requires):
        return r
    if isinstance(r, Mapping) and set(r) == {"if_any", "then"}:
        return Requires(_names(r["if_any"], f"{where}.if_any"), _names(r["then"], f"{where}.then"))
    raise ConfigError(f"{where}: {r!r} is not valid; use {{if_any = [\"heart_attack\"], then = \"stroke\"}}")


def _hierarchy(h: Any, where: str) -> Hierarchy:
    if isinstance(h, Hierarchy):
        return h
    if isinstance(h, Mapping) and set(h) == {"leaf", "ancestors"} and isinstance(h["leaf"], str):
        return Hierarchy(h["leaf"], _names(h["ancestors"], f"{where}.ancestors"))
    raise ConfigError(f"{where}: {h!r} is not valid; use {{leaf = \"diabetes_type2\", ancestors = [\"diabetes\"]}}")


def _names(v: Any, where: str) -> tuple[str, ...]:
    items = [v] if isinstance(v, str) else v
    if not isinstance(items, (list, tuple)) or not items or not all(isinstance(s, str) and s for s in items):
        raise ConfigError(f"{where}: {v!r} is not valid; use an input name or a list of input names")
    return tuple(dict.fromkeys(items))


def _table(v: Any, where: str) -> Mapping:
    if not isinstance(v, Mapping):
        raise ConfigError(f"{where}: {v!r} is not valid; use a table of input name = value")
    return v


def _list(v: Any, where: str) -> Sequence:
    if isinstance(v, Mapping) or not isinstance(v, (list, tuple)):
        raise ConfigError(f"{where}: {v!r} is not valid; use a list of tables ([[{where}]] in TOML)")
    return v


def plain_params(config: Any) -> dict:
    """The constraint fields of a ``TrainConfig`` as plain JSON values, in their TOML form
    (so ``training.params`` of a model file can be read back as a config)."""
    return {
        "coefficients": {k: list(v.values) for k, v in config.coefficients.items()},
        "intercept_set": list(config.intercept_set.values) if config.intercept_set is not None else None,
        "at_most_one": [{"of": list(g.of)} for g in config.at_most_one],
        "requires": [{"if_any": list(r.if_any), "then": list(r.then)} for r in config.requires],
        "hierarchy": [{"leaf": h.leaf, "ancestors": list(h.ancestors)} for h in config.hierarchy],
        "tiers": [{"values": list(t.values.values), "c0": t.c0} for t in config.tiers],
        "cuts": {k: list(v) for k, v in config.cuts.items()},
        "limits": [limit.to_dict() for limit in config.limits],
    }


# ------------------------------------------------------------------ names against data


def constrained_names(config: Any) -> dict[str, list[str]]:
    """Every input name a constraint of ``config`` mentions -> where it is mentioned."""
    seen: dict[str, list[str]] = {}

    def add(name: str, where: str) -> None:
        seen.setdefault(name, []).append(where)

    for option in ("signs", "coefficients", "c0_by_input", "cuts", "numeric_by_input"):
        for name in getattr(config, option):
            add(name, f"{option}.{name}")
    for k, g in enumerate(config.at_most_one):
        for name in g.of:
            add(name, f"at_most_one[{k}].of")
    for k, r in enumerate(config.requires):
        for name in r.if_any:
            add(name, f"requires[{k}].if_any")
        for name in r.then:
            add(name, f"requires[{k}].then")
    for k, h in enumerate(config.hierarchy):
        add(h.leaf, f"hierarchy[{k}].leaf")
        for name in h.ancestors:
            add(name, f"hierarchy[{k}].ancestors")
    for limit in config.limits:
        add(limit.column, f"--limit {limit.text!r}")
    return seen


def check_names(config: Any, input_names: Sequence[str]) -> None:
    """Refuse a constraint on an input the data does not have, suggesting the closest name."""
    known = set(input_names)
    for name, places in constrained_names(config).items():
        if name not in known:
            raise ConfigError(f"{places[0]}: the data has no input column {name!r}; "
                              f"{_closest_hint(name, input_names)}")


def _closest_hint(name: str, choices: Iterable[str]) -> str:
    choices = list(choices)
    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.5)
    if close:
        return f"did you mean {close[0]!r}?"
    lowered = {c.lower(): c for c in choices}
    if name.lower() in lowered:
        return f"did you mean {lowered[name.lower()]!r}?"
    shown = ", ".join(repr(c) for c in choices[:8])
    return f"known: {shown}{', ...' if len(choices) > 8 else ''}"


# ------------------------------------------------------------------ small helpers


def _as_int_if_whole(v: Number) -> Number:
    return int(v) if isinstance(v, float) and v.is_integer() else v


def _is_number_text(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _number(text: str, where: str) -> Number:
    t = text.strip()
    try:
        return int(t)
    except ValueError:
        try:
            value = float(t)
        except ValueError:
            raise ConfigError(f"{where}: {text!r} is not a number") from None
        if not math.isfinite(value):
            raise ConfigError(f"{where}: {text!r} is not a finite number")
        return value
