"""TrainConfig: every training option in one frozen, validated object.

The CLI flags, the ``--config FILE.toml`` file and the Python API all build one of these;
``__post_init__`` is the one place options are checked, and each message says how to fix
the value (scikit-learn's way: validate once, at the boundary).
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping

from scorecard.runtime.errors import ConfigError

from .constraints import is_finite_number, is_int, normalize_config, plain_params

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

MODELS = ("slim", "mofn", "pilm", "tilm")
LOSSES = ("zero-one", "logistic", "hinge", "exponential", "quadratic")
SOLVERS = ("auto", "cbc", "highs", "cplex", "gurobi", "cpsat")
MISSING = ("null", "drop", "impute")
DATA_KEYS = ("target", "positive")  # what a config file may say about the data besides TrainConfig


@dataclass(frozen=True)
class TrainConfig:
    """Options of ``scorecard train`` (names match the CLI flags, with ``_`` for ``-``).

    c0: price of one feature in training accuracy (the L0 penalty C0 of Eq. 3.1).
    coef_min/coef_max: integer range of each coefficient (Lset_j = Z cap [min, max]).
    coef_set: an explicit list of allowed coefficient values, overriding the range.
    intercept_min/intercept_max: integer range of the intercept (Lset_0).
    signs: column -> "+" or "-" (Section 2.3, monotonicity constraints).
    max_features: hard limit on the number of non-zero coefficients (Section 2.5).
    max_fpr/min_tpr/max_positive_rate: hard limits on training rates (Section 2.6).
    w_pos: weight of the positive class in (0, 1); negatives get 1 - w_pos (Section 2.6).
    missing: "null" refuses rows with missing values in training (error), "drop" drops
      them (reported), "impute" fills the median / most frequent level and records it.
    """

    model: str = "slim"
    loss: str = "zero-one"
    c0: float = 0.01
    coef_min: int = -10
    coef_max: int = 10
    coef_set: tuple[float, ...] | None = None
    intercept_min: int = -100
    intercept_max: int = 100
    max_features: int | None = None
    min_features: int | None = None
    signs: Mapping[str, str] = field(default_factory=dict)
    max_fpr: float | None = None
    min_tpr: float | None = None
    max_positive_rate: float | None = None
    w_pos: float = 0.5
    missing: str = "null"
    solver: str = "auto"
    time_limit: float = 300.0
    threads: int = 1
    seed: int = 0
    verbose: bool = False
    reduce: bool = False  # data reduction before the IP (Section 4.2, Algorithm 2; trainer/reduce.py)
    reduce_width: float | None = None  # its level-set width eps; None: Z(warm start) - Z~(proxy optimum)
    # The constraint language (trainer/options/constraints.py, docs/constraints.md): plain TOML
    # values are turned into its dataclasses and checked by constraints.normalize_config.
    coefficients: Mapping[str, Any] = field(default_factory=dict)  # input -> coefficient set
    intercept_set: Any = None  # explicit values of the intercept (Section 2.2)
    c0_by_input: Mapping[str, float] = field(default_factory=dict)  # per-input C0 (Section 2.4)
    impute_penalty: bool = True  # imputed input j costs C0 + M_j/N (Section 2.4)
    at_most_one: tuple = ()  # groups of inputs, at most one used (Section 2.5)
    requires: tuple = ()  # if any of these inputs is used, then those are too (Section 2.5)
    hierarchy: tuple = ()  # a leaf input only with its ancestors (Section 2.5)
    tiers: tuple = ()  # PILM coefficient sets with their own C0 (Section 3.2)
    cuts: Mapping[str, Any] = field(default_factory=dict)  # M-of-N/TILM thresholds per input
    max_thresholds: int = 16  # automatic thresholds per numeric input (M-of-N, TILM)
    negations: bool = True  # M-of-N: offer each rule's negation too
    c_feature: float | None = None  # TILM C_f, price of each input used (default: c0)
    c_rule: float | None = None  # TILM C_t, price of each extra rule on an input (default: c0 / 2)
    max_rules_per_feature: int = 3  # TILM R_max

    def __post_init__(self) -> None:
        _check(self.model in MODELS, "--model", self.model, f"one of {', '.join(MODELS)}")
        _check(self.loss in LOSSES, "--loss", self.loss, f"one of {', '.join(LOSSES)}")
        _check(self.solver in SOLVERS, "--solver", self.solver, f"one of {', '.join(SOLVERS)}")
        _check(self.missing in MISSING, "--missing", self.missing, f"one of {', '.join(MISSING)}")
        _check(is_finite_number(self.c0) and self.c0 >= 0, "--c0", self.c0, "a number >= 0 (e.g. 0.01)")
        _check(is_int(self.coef_min) and is_int(self.coef_max) and self.coef_min <= self.coef_max,
               "--coef-min/--coef-max", (self.coef_min, self.coef_max), "integers with min <= max")
        _check(is_int(self.intercept_min) and is_int(self.intercept_max) and self.intercept_min <= self.intercept_max,
               "--intercept-min/--intercept-max", (self.intercept_min, self.intercept_max),
               "integers with min <= max")
        if self.coef_set is not None:
            _check(len(self.coef_set) > 0 and all(is_finite_number(v) for v in self.coef_set),
                   "--coef-set", self.coef_set, "a non-empty list of finite numbers")
        for name in ("max_features", "min_features"):
            v = getattr(self, name)
            _check(v is None or (is_int(v) and v >= 0), f"--{name.replace('_', '-')}", v, "an integer >= 0")
        if self.max_features is not None and self.min_features is not None:
            _check(self.min_features <= self.max_features, "--min-features", self.min_features,
                   f"at most --max-features ({self.max_features})")
        _check(isinstance(self.signs, Mapping), "--sign", self.signs, "COL=+ or COL=- (a table of column = sign in TOML)")
        for col, sign in self.signs.items():
            _check(sign in ("+", "-"), "--sign", f"{col}={sign}", "COL=+ or COL=-")
        for name in ("max_fpr", "min_tpr", "max_positive_rate"):
            v = getattr(self, name)
            _check(v is None or (is_finite_number(v) and 0 <= v <= 1), f"--{name.replace('_', '-')}", v,
                   "a rate between 0 and 1")
        _check(is_finite_number(self.w_pos) and 0 < self.w_pos < 1, "--w-pos", self.w_pos, "a number strictly between 0 and 1")
        _check(is_finite_number(self.time_limit) and self.time_limit > 0, "--time-limit", self.time_limit,
               "a number of seconds > 0")
        _check(is_int(self.threads) and self.threads >= 1, "--threads", self.threads, "an integer >= 1")
        _check(is_int(self.seed) and self.seed >= 0, "--seed", self.seed, "an integer >= 0")
        _check(self.reduce_width is None or (is_finite_number(self.reduce_width) and self.reduce_width >= 0), "--reduce-width",
               self.reduce_width, "a number >= 0 (the level-set width of --reduce)")
        normalize_config(self)

    def with_options(self, **changes: Any) -> "TrainConfig":
        """A copy with some options changed (validated again)."""
        return replace(self, **changes)

    def to_params(self) -> dict:
        """The options as plain JSON values, for ``training.params`` in the model file."""
        out = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = dict(v) if isinstance(v, Mapping) else list(v) if isinstance(v, tuple) else v
        out.update(plain_params(self))
        return out


def _check(ok: bool, option: str, value: Any, expected: str) -> None:
    if not ok:
        raise ConfigError(f"{option}: {value!r} is not valid; use {expected}")


def option_names() -> tuple[str, ...]:
    """Every key a config file may hold: the TrainConfig fields and the data keys."""
    return tuple(f.name for f in fields(TrainConfig)) + DATA_KEYS


def load_toml(path: str) -> dict:
    """The options of a ``--config FILE.toml``, keys as TrainConfig names (``-`` read as ``_``).

    Refuses an unreadable file and an unknown key (naming the closest known one); values
    are checked where every option is, in :class:`TrainConfig`. Lists become tuples.
    """
    try:
        with open(path, "rb") as fh:
            raw = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the config file ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    known = option_names()
    options: dict = {}
    for key, value in raw.items():
        name = key.replace("-", "_")
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f" (known: {', '.join(known)})"
            raise ConfigError(f"{path}: unknown option {key!r}{hint}")
        options[name] = tuple(value) if isinstance(value, list) else value
    return options


PER_COLUMN = ("signs", "coefficients", "c0_by_input", "cuts")


def merge(file_options: Mapping[str, Any], flags: Mapping[str, Any]) -> dict:
    """Config-file options overridden by the command-line flags that were given (not None).

    Per-column tables (``signs``, ``coefficients``, ``c0_by_input``, ``cuts``) merge per column,
    so ``--sign A=-`` changes A and keeps the file's other signs.
    """
    merged = dict(file_options)
    for name, value in flags.items():
        if value is None:
            continue
        if name in PER_COLUMN:
            value = {**dict(merged.get(name) or {}), **value}
        merged[name] = value
    return merged
