"""Every training option, once: name, type, default, check, help text, flags, TOML, estimator.

:data:`OPTIONS` is the one table the rest reads:

- ``TrainConfig`` (``config.py``) is generated from it (its fields and defaults) and
  validated by :func:`validate`, one loop over the checks here and the :data:`RULES` between
  options, run once when a ``TrainConfig`` is built;
- the ``train`` and ``cv`` flags of ``scorecard/cli.py`` (``with_train_options``): flag
  spellings, help text and the default shown by ``--help``;
- the keys a ``--config FILE.toml`` may hold (:func:`toml_keys`, ``config.load_toml``);
- ``SLIMClassifier``'s parameters (:func:`estimator_options`; a test holds its explicit
  ``__init__`` to them);
- README.md's options table under "## Training" (:func:`markdown_table`; a test holds the
  README to it).

A check is a callable ``check(value) -> None | expected | (shown, expected)``: None when the
value is good, else what to use instead; the message is always
``"--c0: -1 is not valid; use a number >= 0 (e.g. 0.01)"``. :class:`Choices` and
:class:`Number` are the declarative ones. An option whose default is None, or whose type is Optional, accepts None.
The constraint language (coefficient sets, tiers, at_most_one, ...) is checked and turned
into its dataclasses by ``constraints.normalize_config``; those options have ``check=None``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Union

from scorecard.runtime.errors import ConfigError

MODELS = ("slim", "mofn", "pilm", "tilm")
LOSSES = ("zero-one", "logistic", "hinge", "exponential", "quadratic")
SOLVERS = ("auto", "cbc", "highs", "cplex", "gurobi", "cpsat")
MISSING = ("unmet", "null", "drop", "impute")
NUMERIC = ("cuts", "linear")
#: ``--numeric-for`` takes one more: ``levels``, a column of codes read as one condition per value.
NUMERIC_FOR = NUMERIC + ("levels",)

#: README groups, in the order the table shows them.
SECTIONS = ("data", "model", "coefficients", "features", "constraints", "rules", "solver", "file")

SAME = object()  # Option.estimator_default: the same as the option's default


# ------------------------------------------------------------------ checks


def is_finite_number(v: Any) -> bool:
    """A finite int or float (a bool is not a number here)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def is_int(v: Any) -> bool:
    """An int (a bool is not)."""
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class Choices:
    """One of a few words."""

    values: tuple[str, ...]

    def __call__(self, v: Any) -> Optional[str]:
        return None if v in self.values else f"one of {', '.join(self.values)}"


@dataclass(frozen=True)
class Number:
    """A finite number (``integer``: an int) within optional bounds (``*_open``: strict).

    ``kind`` names it in the message ("a number", "an integer", "a rate", "a number of
    seconds"), ``note`` follows in parentheses (an example, or what the number is).
    """

    low: Optional[float] = None
    high: Optional[float] = None
    low_open: bool = False
    high_open: bool = False
    integer: bool = False
    kind: str = ""
    note: str = ""

    def __call__(self, v: Any) -> Optional[str]:
        ok = is_int(v) if self.integer else is_finite_number(v)
        if ok and self.low is not None:
            ok = v > self.low if self.low_open else v >= self.low
        if ok and self.high is not None:
            ok = v < self.high if self.high_open else v <= self.high
        return None if ok else self.expected()

    def expected(self) -> str:
        kind = self.kind or ("an integer" if self.integer else "a number")
        if self.low is not None and self.high is not None:
            strictly = "strictly " if self.low_open and self.high_open else ""
            text = f"{kind} {strictly}between {self.low:g} and {self.high:g}"
        elif self.low is not None:
            text = f"{kind} {'>' if self.low_open else '>='} {self.low:g}"
        elif self.high is not None:
            text = f"{kind} {'<' if self.high_open else '<='} {self.high:g}"
        else:
            text = kind
        return f"{text} ({self.note})" if self.note else text


def Rate() -> Number:
    return Number(low=0, high=1, kind="a rate")


def _flag(v: Any) -> Optional[str]:
    return None if isinstance(v, bool) else "true or false"


AUTO = "auto"  # --c0 auto: chosen by cross-validation (trainer/select.py)
#: The most items (rows) a card has unless ``--max-items`` asks for more.
CARD_ITEMS = 10
#: ``--work-limit``'s default: the budget of deterministic work that decides every step of the
#: default command (trainer/solvers/options.py), so the same file gives the same card on any
#: machine, idle or busy; ``--time-limit`` is the hard cap that ends the command.
DEFAULT_WORK = 1.0
_C0_NUMBER = Number(low=0, note="e.g. 0.01")


def _c0(v: Any) -> Optional[str]:
    return None if v == AUTO or _C0_NUMBER(v) is None else f"{_C0_NUMBER.expected()} or auto"


def _number_list(v: Any) -> Optional[str]:
    ok = isinstance(v, (list, tuple)) and len(v) > 0 and all(is_finite_number(x) for x in v)
    return None if ok else "a non-empty list of finite numbers"


def _signs(v: Any):
    if not isinstance(v, Mapping):
        return v, "COL=+ or COL=- (a table of column = sign in TOML)"
    for col, sign in v.items():
        if sign not in ("+", "-"):
            return f"{col}={sign}", "COL=+ or COL=-"
    return None


def _numeric_modes(v: Any):
    if not isinstance(v, Mapping):
        return v, "COL=cuts, COL=linear or COL=levels (a table of column = \"cuts\", \"linear\" or \"levels\" in TOML)"
    for col, mode in v.items():
        if mode not in NUMERIC_FOR:
            return f"{col}={mode}", "COL=cuts, COL=linear or COL=levels"
    return None


#: Units of a --memory-limit size (powers of 1024).
UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def size_bytes(text: Any) -> Optional[int]:
    """``"2G"`` -> 2147483648, ``"512M"``, ``"1.5GB"``, a plain number of bytes; None when not a size > 0."""
    if not isinstance(text, str):
        return None
    t = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = t[-1:] if t[-1:] in UNITS and t[-1:] else ""
    try:
        value = float(t[:len(t) - len(unit)])
    except ValueError:
        return None
    return int(value * UNITS[unit]) if math.isfinite(value) and value > 0 else None


# ------------------------------------------------------------------ the table


@dataclass(frozen=True)
class Option:
    """One training option.

    name: the ``TrainConfig`` field (and TOML key, and estimator parameter).
    type: its Python type (the dataclass annotation).
    default: its default (a dict default becomes a ``default_factory``).
    check: see the module docstring; None: not checked here.
    help: the one-line ``--help`` text; ``doc`` the README's longer one (default ``help``).
    flags: the CLI spellings (``("--c0",)``, ``("--reduce/--no-reduce",)``); () for TOML only.
    cli_type: the flag's value type as typer reads it (``list[str]`` for a repeatable flag).
    cli_form: how ``_configure`` turns the flag into the value: "value" (as is), "numbers"
      (``-5,0,5``), "number_or_auto" (a number, or the word ``auto``), or "per_column" (repeatable ``COL=VALUE``; ``cli_read`` reads VALUE:
      "text", "number" or "numbers").
    metavar: what the README shows after the flag.
    default_text: how ``--help`` and the README show the default (None: shown from ``default``
      unless it is None).
    field: a ``TrainConfig`` field (False: ``--target``, ``--positive``, ``--config``).
    toml: a key a config file may hold.
    estimator: a ``SLIMClassifier`` parameter; ``estimator_default`` its own default.
    section: its group in README's table (:data:`SECTIONS`).
    """

    name: str
    type: Any
    default: Any
    check: Optional[Callable[[Any], Any]]
    help: str
    flags: tuple[str, ...] = ()
    cli_type: Any = None
    cli_form: str = "value"
    cli_read: str = "text"
    metavar: str = ""
    default_text: Optional[str] = None
    doc: str = ""
    field: bool = True
    toml: bool = True
    estimator: bool = False
    estimator_default: Any = SAME
    section: str = "model"

    @property
    def accepts_none(self) -> bool:
        """None is a value of its own: the default is None, or the type is Optional (``work_limit``:
        None from the Python API leaves the steps to the clock alone)."""
        return self.default is None or type(None) in getattr(self.type, "__args__", ())

    @property
    def flag(self) -> str:
        """The name messages use: ``--c0``, ``--sign``, ``--negations``; the key without a flag."""
        return self.flags[0].split("/")[0] if self.flags else self.name

    @property
    def cli_name(self) -> str:
        """The parameter name of the CLI command (``--c0-for`` -> ``c0_for``)."""
        return self.flag.lstrip("-").replace("-", "_")

    @property
    def shown_default(self) -> Optional[str]:
        """The default as ``--help`` and the README show it; None: nothing to show."""
        if self.default_text is not None:
            return self.default_text
        if self.default is None or isinstance(self.default, (dict, tuple)):
            return None
        if isinstance(self.default, bool):
            on, _, off = self.flags[0].partition("/") if self.flags else (self.name, "", "")
            return (on if self.default else off) if self.flags else str(self.default).lower()
        return f"{self.default:g}" if isinstance(self.default, float) else str(self.default)

    @property
    def dataclass_default(self) -> Any:
        return field(default_factory=dict) if isinstance(self.default, dict) else self.default

    @property
    def param_default(self) -> Any:
        """The default of ``SLIMClassifier``'s parameter."""
        return self.default if self.estimator_default is SAME else self.estimator_default


OPTIONS: tuple[Option, ...] = (
    # -------------------------------------------------------- data (not TrainConfig fields)
    Option("target", Optional[str], None, None, "The outcome column.", ("--target",), str, metavar="COL",
           field=False, section="data", doc="the outcome column (required: a flag or `target` in --config)"),
    Option("positive", Optional[str], None, None, "The target value of the positive class.", ("--positive",), str,
           metavar="VALUE", field=False, section="data",
           doc="the target value of the positive class (required unless the coding makes it plain); on a target "
               "of more than two values, that value against all the others"),
    Option("missing", str, "unmet", Choices(MISSING), "unmet (a blank meets no condition), null (refuse), drop or "
           "impute.", ("--missing",), str, metavar="{unmet,null,drop,impute}", estimator=True, section="data",
           doc="missing (empty) cells: `unmet` keeps their rows, a missing value meets no condition on its column "
               "(0 points) and a column with missing cells is offered one more condition `COL unknown`, used where "
               "it helps; such a numeric column enters as cut-offs, never linear (a note says so where --numeric "
               "or the whole-number rule would make it linear), as points times a value cannot score a blank; the "
               "model records `\"missing\": \"unmet\"` and scores a blank by this rule even when training had none. "
               "`null` refuses empty cells, `drop` drops those rows, `impute` fills the median / most frequent "
               "value, recorded in the model"),
    Option("memory_limit", Optional[str], None, lambda v: None if size_bytes(v) is not None else
           "a size such as 2G, 512M or 1.5GB", "Memory the data may take in this process: above it, train streams "
           "its row groups (the file is never held whole).", ("--memory-limit",), str, metavar="SIZE",
           default_text="a sixteenth of the RAM", section="data",
           doc="memory the data may take in this process (`2G`, `512M`): a Parquet or CSV file, or a folder of "
               "Parquet/CSV files, whose in-memory reading would need more is streamed in row groups instead (CSV "
               "text parsed once, its row groups kept as read in a temporary file for the later passes): convex losses "
               "pass the row groups through the loss oracle, the 0-1 loss groups identical rows (their counts as "
               "weights) and reduces the data (Section 4.2), saying so when the grouped rows are still too many for "
               "the exact problem; the typing, cut-offs and levels come from a scan of every row, the cut-off "
               "quantiles from a sample of 100,000 rows. `training.params.stream` records the decision"),
    # -------------------------------------------------------- model
    Option("model", str, "slim", Choices(MODELS), "slim, mofn, pilm or tilm.", ("--model",), str,
           metavar="{slim,mofn,pilm,tilm}", doc="model family"),
    Option("loss", str, "zero-one", Choices(LOSSES), "zero-one, logistic, hinge, exponential or quadratic.",
           ("--loss",), str, metavar="{zero-one,logistic,hinge,exponential,quadratic}",
           doc="the loss minimised (`zero-one`, the exact error of Section 3.1); a convex loss trains by cutting "
               "planes (Section 4.1: the integer program holds only the coefficients), which scales to millions "
               "of rows; logistic models carry `probability` (risk = 1/(1+e^-score))"),
    Option("c0", Union[float, str], "auto", _c0, "Accuracy given up per feature (L0 penalty), or auto: chosen by "
           "5-fold cross-validation.", ("--c0",), str, "number_or_auto", metavar="{X,auto}", estimator=True,
           estimator_default=0.01,
           doc="training accuracy given up to use one more feature, the L0 penalty; `auto` chooses the card by "
               "stratified 5-fold cross-validation among the 0-1-loss cards of a C0 grid from about 1/N to 0.05, for "
               "plain SLIM the logistic-loss cards of 1 to --max-items items, and the empty card: the smallest card "
               "within one standard error of the best mean test error (for a rare outcome, the smaller class under "
               "20 % of the rows, the logistic loss of its risks), the empty card only when no card beats it; a "
               "chosen logistic-loss card then gets the exact program of its loss (a proof or a bound); recorded in "
               "`training.selection` (`SLIMClassifier`: 0.01)"),
    Option("w_pos", float, 0.5, Number(low=0, high=1, low_open=True, high_open=True),
           "Weight of the positive class, in (0, 1).", ("--w-pos",), float, metavar="W", estimator=True,
           doc="weight of the positive class in (0, 1); negatives get 1 - W, in training's 0-1 loss and in the "
               "error `--c0 auto`'s cross-validation compares (a rare outcome weighted up, `--w-pos 0.9`, gets a "
               "card that flags the rows most at risk); a card's risk is that of the rows as they are, unweighted"),
    Option("numeric", str, "cuts", Choices(NUMERIC), "cuts (conditions COL >= t) or linear (points x COL).",
           ("--numeric",), str, metavar="{cuts,linear}", estimator=True,
           doc="how a numeric (non-binary) column enters SLIM and PILM: `cuts`, as cut-off conditions `COL >= t` "
               "each worth its own points (--max-cuts per column at quantiles of the training rows and half as many "
               "at quantiles of each class, "
               "rounded to 2 significant digits or the column's own precision: `glu >= 150`; --cuts gives "
               "them), except a column of whole numbers within +-10 (a grade, a count), which stays linear; "
               "`linear`, as points times the value, the paper's Section 3.1 design. A binary column is "
               "one condition and a text column one per level either way"),
    Option("numeric_by_input", Mapping[str, str], {}, _numeric_modes, "COL=cuts, COL=linear or COL=levels: COL's own "
           "--numeric; levels: a column of codes, one condition COL = v per value (repeat).", ("--numeric-for",),
           list[str], "per_column", metavar="COL=linear",
           doc="COL's own --numeric, or `levels` for a column of numeric codes (race 1/2/3, a clinic number): one "
               "condition `COL = v` per value held by --min-level-rows rows, as a text column's levels, where "
               "cut-offs or points times the code would rank codes that have no order (repeat the flag; "
               "`[numeric_by_input]` table in TOML)"),
    Option("max_cuts", int, 8, Number(low=1, integer=True), "Cut-off conditions per numeric column at quantiles of "
           "the rows, and N/2 more at quantiles of each class (--numeric cuts).",
           ("--max-cuts",), int, metavar="N",
           doc="cut-off conditions per numeric column at quantiles of the training rows, plus N/2 at quantiles "
               "of each class (--numeric cuts)"),
    Option("min_level_rows", int, 10, Number(low=1, integer=True), "Rows a level of a text column needs to be a "
           "condition of its own.", ("--min-level-rows",), int, metavar="N",
           doc="rows a level of a text column (or a value of a `--numeric-for COL=levels` column) needs to be a "
               "condition of its own (`ward = 4B`); a rarer level's "
               "rows meet none of its column's conditions, as the points of a handful of rows are noise and a "
               "column of hundreds of such levels (diagnosis codes, postcodes) swamps the search; a note names "
               "the columns that have such levels"),
    # -------------------------------------------------------- coefficients
    Option("coef_min", int, -10, Number(integer=True), "Smallest coefficient.", ("--coef-min",), int, metavar="N",
           estimator=True, section="coefficients", doc="smallest coefficient (an integer <= --coef-max)"),
    Option("coef_max", int, 10, Number(integer=True), "Largest coefficient.", ("--coef-max",), int, metavar="N",
           estimator=True, section="coefficients", doc="largest coefficient"),
    Option("coef_set", Optional[tuple], None, _number_list, "Allowed coefficients, e.g. -5,-1,0,1,5.",
           ("--coef-set",), str, "numbers", metavar="-5,-1,0,1,5", section="coefficients",
           doc="an explicit list of allowed coefficients instead of a range"),
    Option("intercept_min", int, -100, Number(integer=True), "Smallest intercept.", ("--intercept-min",), int,
           metavar="N", estimator=True, section="coefficients", doc="smallest intercept"),
    Option("intercept_max", int, 100, Number(integer=True), "Largest intercept.", ("--intercept-max",), int,
           metavar="N", estimator=True, section="coefficients", doc="largest intercept"),
    Option("intercept_set", Any, None, None, "Allowed intercepts, e.g. -10,-5,0.", ("--intercept-set",), str,
           "numbers", metavar="-10,-5,0", section="coefficients",
           doc="an explicit list of allowed intercepts (Section 2.2)"),
    Option("coefficients", Mapping[str, Any], {}, None,
           "COL=SET: COL's allowed coefficients, e.g. Age=0..5, Age=0,1,2,5 or Income=two_significant_digits "
           "(repeat for more columns).", ("--coefficients",), list[str], "per_column", metavar="COL=SET",
           section="coefficients",
           doc="COL's own coefficient set: a range `0..5`, a list `0,1,2,5` or a preset "
               "`two_significant_digits` (repeat the flag; `[coefficients]` table in TOML)"),
    Option("signs", Mapping[str, str], {}, _signs, "COL=+ or COL=- (repeat for more columns).", ("--sign",),
           list[str], "per_column", metavar="COL=+ or COL=-", estimator=True, estimator_default=None,
           section="coefficients",
           doc="the coefficient of COL is >= 0 / <= 0, on each of its cut-off conditions too, so the points "
               "rise (fall) with COL (repeat the flag; `[signs]` table in TOML)"),
    # -------------------------------------------------------- features
    Option("max_features", Optional[int], None, Number(low=0, integer=True),
           "At most this many features (SLIM/PILM: data columns, each with all its conditions).",
           ("--max-features",), int, metavar="N", estimator=True, section="features",
           doc="at most this many features (Section 2.5); in SLIM and PILM a feature is a column of the data, "
               "however many conditions (cut-offs, levels) of it the card shows"),
    Option("max_items", int, CARD_ITEMS, Number(low=1, integer=True, note=f"the default is {CARD_ITEMS}"),
           "At most this many items (rows of the card: conditions and points x value).", ("--max-items",), int,
           metavar="N", estimator=True, section="features",
           doc="at most this many items, the rows of the card (each condition with its points, each `points x "
               "value`), in every model and in every candidate `--c0 auto` compares: a card a person reads at a "
               "glance; more only when asked for"),
    Option("min_features", Optional[int], None, Number(low=0, integer=True),
           "At least this many features (counted as --max-features does).", ("--min-features",), int,
           metavar="N", estimator=True, section="features", doc="at least this many features (counted as --max-features)"),
    Option("c0_by_input", Mapping[str, float], {}, None, "COL=X: COL's own C0 (repeat).", ("--c0-for",), list[str],
           "per_column", "number", metavar="COL=X", section="features",
           doc="COL's own C0 (Section 2.4; repeat the flag; `[c0_by_input]` table in TOML)"),
    Option("impute_penalty", bool, True, _flag, "An imputed column costs C0 + M/N (M imputed of N rows).",
           ("--impute-penalty/--no-impute-penalty",), bool, section="features"),
    Option("at_most_one", tuple, (), None, "Groups of inputs of which at most one is used (Section 2.5).",
           section="features", doc="groups of inputs of which at most one is used (Section 2.5; "
                                   "`[[at_most_one]] of = [...]`, TOML only)"),
    Option("requires", tuple, (), None, "If any of these inputs is used, then those are too (Section 2.5).",
           section="features", doc="if any of these inputs is used, then those are too (Section 2.5; "
                                   "`[[requires]] if_any = [...], then = ...`, TOML only)"),
    Option("hierarchy", tuple, (), None, "A leaf input only with its ancestors (Section 2.5).", section="features",
           doc="a leaf input only with its ancestors (Section 2.5; `[[hierarchy]] leaf = ..., ancestors = [...]`, "
               "TOML only)"),
    # -------------------------------------------------------- hard limits
    Option("max_fpr", Optional[float], None, Rate(), "Highest false positive rate on training data.",
           ("--max-fpr",), float, metavar="R", section="constraints",
           doc="highest false positive rate on the training data (Section 2.6)"),
    Option("min_tpr", Optional[float], None, Rate(), "Lowest true positive rate on training data.", ("--min-tpr",),
           float, metavar="R", section="constraints", doc="lowest true positive rate on the training data"),
    Option("max_positive_rate", Optional[float], None, Rate(), "Highest share predicted positive.",
           ("--max-positive-rate",), float, metavar="R", section="constraints",
           doc="highest share of training rows predicted positive"),
    Option("limits", tuple, (), None, "A limit on a rate in groups of a column: 'fpr[sex=female] <= 0.15', "
           "'tpr[race] >= 0.6', 'tpr[race] gap <= 0.05' (rates fpr, tpr, positive_rate; repeat).", ("--limit",),
           list[str], metavar="'RATE[COL=VALUE] <= R'", section="constraints",
           doc="a limit on a rate of the predictions in groups of rows, met exactly on the training data (the "
               "0-1 loss's integer program, proven optimal under it): `fpr[sex=female] <= 0.15` (that group's false "
               "positive rate), `tpr[race] >= 0.6` (every group's true positive rate), `tpr[race] gap <= 0.05` "
               "(the largest difference between two groups' rates); rates `fpr`, `tpr`, `positive_rate`, `<=` or "
               "`>=` a rate or percentage; COL a column of the data, an input of the card or not (`--coefficients "
               "COL=0` keeps it off the card); repeat the flag, or `limits = [...]` in TOML (text, or tables "
               "`{rate, column, group, max / min / gap}`); recorded in `training.limits` with each group's rate"),
    # -------------------------------------------------------- rule models (PILM, M-of-N, TILM)
    Option("tiers", tuple, (), None, "PILM coefficient sets with their own C0 (Section 3.2).", section="rules",
           doc="PILM: coefficient sets with their own C0, from the most interpretable (Section 3.2; "
               "`[[tiers]] values = ..., c0 = ...`, TOML only)"),
    Option("cuts", Mapping[str, Any], {}, None, "COL=40,60: thresholds of COL's cut-offs and M-of-N/TILM rules "
           "(repeat).", ("--cuts",), list[str], "per_column", "numbers", metavar="COL=40,60", section="rules",
           doc="thresholds of COL's cut-off conditions (--numeric cuts) and M-of-N/TILM rules (repeat the flag; "
               "`[cuts]` table in TOML)"),
    Option("max_thresholds", int, 16, Number(low=1, integer=True),
           "Automatic thresholds per numeric column (M-of-N, TILM).", ("--max-thresholds",), int, metavar="N",
           section="rules"),
    Option("negations", bool, True, _flag, "M-of-N: offer each rule's negation.", ("--negations/--no-negations",),
           bool, section="rules"),
    Option("c_feature", Optional[float], None, Number(low=0), "TILM: price of each column used.", ("--c-feature",),
           float, metavar="X", default_text="--c0", section="rules"),
    Option("c_rule", Optional[float], None, Number(low=0), "TILM: price of each extra rule on a column.",
           ("--c-rule",), float, metavar="X", default_text="--c-feature / 2", section="rules",
           doc="TILM: price of each extra rule on a column (at most --c-feature)"),
    Option("max_rules_per_feature", int, 3, Number(low=1, integer=True), "TILM: rules per column at most.",
           ("--max-rules-per-feature",), int, metavar="N", section="rules"),
    # -------------------------------------------------------- solver
    Option("solver", str, "auto", Choices(SOLVERS), "auto, cbc, highs, cplex, gurobi or cpsat.", ("--solver",), str,
           metavar="{auto,cbc,highs,cplex,gurobi,cpsat}", estimator=True, section="solver",
           doc="how to solve: `auto` starts from a warm start found in milliseconds, proves the optimum by "
               "exhaustive search with valid bounds where that is cheap (first over all models, then over models "
               "of at most 1, 2, ... features), where one avoidable error costs more than a feature first searches "
               "the models that make none (at the smallest C0s that is the whole search: mushroom's 7-feature "
               "zero-error model; elsewhere it hands the next step a strong model, or proves in under a second that "
               "none exists), and otherwise solves the integer program (CP-SAT when OR-Tools is installed and the "
               "columns are integers, decimals, or at most two other real-valued ones, encoded exactly; else HiGHS "
               "or CBC); the others name one backend (`cbc` is bundled with PuLP; the rest when their Python "
               "package is installed). `training.solver` records which one proved the result"),
    Option("time_limit", float, 300.0, Number(low=0, low_open=True, kind="a number of seconds"),
           "Seconds for the whole command: all phases and folds, start-up, reading and writing included.",
           ("--time-limit",), float, metavar="S", estimator=True, estimator_default=60.0, section="solver",
           doc="time budget in seconds for the whole command: every phase, every C0 and fold of `cv`, "
               "start-up, reading and writing included (`SLIMClassifier`: 60, for `fit`)"),
    Option("work_limit", Optional[float], DEFAULT_WORK, Number(low=0, low_open=True, kind="a number",
                                                               note="units of deterministic work, e.g. 10"),
           "Deterministic work per solve: the same model on any machine, under any load.",
           ("--work-limit",), float, metavar="W", estimator=True, section="solver",
           doc="the budget of deterministic work that decides every step, so that the same data and options give "
               "the same model on any machine, idle or busy: CP-SAT stops after W of its deterministic seconds (one "
               "worker), CBC and HiGHS after 100 W branch-and-bound nodes (one thread), the cutting planes after "
               "20 W rounds, and the heuristics (local search, exhaustive search's plan, the warm start) count their "
               "work; the final solve gets W, each fit of `--c0 auto`'s and `cv`'s folds a twentieth of it. A solve "
               "that ends on W has status `work_limit`; `--time-limit` stays the hard cap: a run it cuts short has "
               "status `time_limit` and says that another run may give another card. One unit is about a second of "
               "one core"),
    Option("threads", int, 1, Number(low=1, integer=True), "Solver threads.", ("--threads",), int, metavar="N",
           estimator=True, section="solver"),
    Option("seed", int, 0, Number(low=0, integer=True), "Random seed (solver, folds).", ("--seed",), int,
           metavar="N", estimator=True, section="solver"),
    Option("reduce", bool, False, _flag, "Data reduction before solving (Section 4.2).", ("--reduce/--no-reduce",),
           bool, section="solver",
           doc="data reduction before solving (Section 4.2, Algorithm 2) with a hinge-loss proxy, exact by a check "
               "(a removed row the reduced optimum mislabels is put back); reported in "
               "`training.params.reduction` and by `show`"),
    Option("reduce_width", Optional[float], None, Number(low=0, note="the level-set width of --reduce"),
           "Level-set width eps of --reduce.", ("--reduce-width",), float, metavar="EPS",
           default_text="warm start's objective - proxy optimum", section="solver"),
    Option("verbose", bool, False, _flag, "Show the solver's log.", ("--verbose/--quiet",), bool, section="solver"),
    # -------------------------------------------------------- the file of options
    Option("config", Optional[str], None, None, "TOML file of these options; flags win.", ("--config",), str,
           metavar="FILE.toml", field=False, toml=False, section="file",
           doc="any of these options in a TOML file (`max_features = 3`, `[signs]` table, `target = \"...\"`); "
               "flags on the command line win"),
)

BY_NAME: dict[str, Option] = {o.name: o for o in OPTIONS}


def config_options() -> tuple[Option, ...]:
    """The ``TrainConfig`` fields, in order."""
    return tuple(o for o in OPTIONS if o.field)


def cli_options() -> tuple[Option, ...]:
    """The flags of ``scorecard train`` and ``scorecard cv``."""
    return tuple(o for o in OPTIONS if o.flags)


def toml_keys() -> tuple[str, ...]:
    """Every key a ``--config`` file may hold."""
    return tuple(o.name for o in OPTIONS if o.toml)


def per_column() -> tuple[str, ...]:
    """Options that are tables of column -> value (merged per column, file under flags)."""
    return tuple(o.name for o in config_options() if isinstance(o.default, dict))


def estimator_options() -> tuple[Option, ...]:
    """``SLIMClassifier``'s parameters."""
    return tuple(o for o in OPTIONS if o.estimator)


# ------------------------------------------------------------------ validation


def _c_rule(v: Mapping[str, Any]):
    if v["model"] != "tilm":
        return None
    if v["c_feature"] is None and v["c0"] == AUTO:
        if v["c_rule"] is None:
            return None
        return v["c_rule"], "it with --c-feature, or a number for --c0 (under --c0 auto, C0 varies)"
    c_feature = v["c0"] if v["c_feature"] is None else v["c_feature"]
    c_rule = c_feature / 2 if v["c_rule"] is None else v["c_rule"]
    if c_rule > c_feature:
        return c_rule, (f"at most --c-feature ({c_feature}): an extra rule on an input should not cost more "
                        "than the input")
    return None


def _convex_model(v: Mapping[str, Any]):
    if v["loss"] != "zero-one" and v["model"] not in ("slim", "pilm"):
        return v["model"], f"slim with --loss {v['loss']} (cutting planes train linear models only), or --loss zero-one"
    return None


def _cuts_read_otherwise(v: Mapping[str, Any]):
    """--cuts gives a column cut-offs; --numeric-for COL=linear or COL=levels would leave them unused."""
    for col, mode in v["numeric_by_input"].items():
        if mode != "cuts" and col in v["cuts"]:
            return f"{col}={mode}", f"{col}=cuts for a column --cuts names, or drop --cuts {col}=..."
    return None


@dataclass(frozen=True)
class Rule:
    """A check between options: ``check(values)`` gives None or ``(shown, expected)``."""

    label: str
    check: Callable[[Mapping[str, Any]], Any]


RULES: tuple[Rule, ...] = (
    Rule("--coef-min/--coef-max", lambda v: None if v["coef_min"] <= v["coef_max"]
         else ((v["coef_min"], v["coef_max"]), "integers with min <= max")),
    Rule("--intercept-min/--intercept-max", lambda v: None if v["intercept_min"] <= v["intercept_max"]
         else ((v["intercept_min"], v["intercept_max"]), "integers with min <= max")),
    Rule("--min-features", lambda v: None if v["max_features"] is None or v["min_features"] is None
         or v["min_features"] <= v["max_features"]
         else (v["min_features"], f"at most --max-features ({v['max_features']})")),
    Rule("--min-features", lambda v: None if v["min_features"] is None or v["min_features"] <= v["max_items"]
         else (v["min_features"], f"at most --max-items ({v['max_items']}): each feature is at least one item")),
    Rule("--c-rule", _c_rule),
    Rule("--model", _convex_model),
    Rule("--numeric-for", _cuts_read_otherwise),
)


def fail(option: str, value: Any, expected: str) -> None:
    """Raise the one form of option error: ``--c0: -1 is not valid; use a number >= 0``."""
    raise ConfigError(f"{option}: {value!r} is not valid; use {expected}")


def validate(values: Mapping[str, Any]) -> None:
    """Check every option's own value, then the rules between them (ConfigError on the first
    bad one). ``values`` holds every ``TrainConfig`` field."""
    for option in config_options():
        value = values[option.name]
        if option.check is None or (value is None and option.accepts_none):
            continue
        problem = option.check(value)
        if problem is not None:
            shown, expected = problem if isinstance(problem, tuple) else (value, problem)
            fail(option.flag, shown, expected)
    for rule in RULES:
        problem = rule.check(values)
        if problem is not None:
            fail(rule.label, *problem)


# ------------------------------------------------------------------ README


def _cell(option: Option) -> str:
    if not option.flags:
        return f"`{option.name}` (TOML)"
    flag = option.flags[0]
    return f"`{flag} {option.metavar}`" if option.metavar else f"`{flag}`"


def markdown_table() -> str:
    """README.md's options table (under "## Training"), one row per option, by section."""
    lines = ["| for | option | meaning | default |", "|---|---|---|---|"]
    for section in SECTIONS:
        rows = [o for o in OPTIONS if o.section == section]
        for k, option in enumerate(rows):
            text = option.doc or option.help.rstrip(".")
            text = text[0].lower() + text[1:] if text[1:2].islower() else text
            default = option.shown_default
            default = "" if default is None else f"`{default}`"
            lines.append(f"| {section if k == 0 else ''} | {_cell(option)} | {text.replace('|', '/')} | {default} |")
    return "\n".join(lines) + "\n"
