"""The constraints of a config, resolved against a design: column indices and row counts.

``options/constraints.py`` speaks in raw input names; the integer program speaks in design
columns and merged rows. :func:`constrained_problem` bridges the two: it builds the
:class:`~.slim.SlimProblem` of a design with every coefficient set, sign and per-input
price applied to the box and ``c0`` arrays, and a :class:`ColumnConstraints` holding what a
box cannot say (value lists, composition, rate limits, limits in groups of rows, PILM tiers,
TILM blocks). Backends
read :attr:`ColumnConstraints.present` to know which of these they must enforce; the MIP
(``solvers/ip/constraints.py``) enforces all of them. :func:`violations` checks an integer
model against every constraint with the runtime's rule (score > 0), the check every
trained model and every warm start passes.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from scorecard.runtime.errors import ConfigError

from ..data.design import Design
from ..data.prepare import LabeledData
from ..options.config import TrainConfig
from ..options.constraints import CoefSet, check_names
from .column_constraints import ColumnConstraints, Tilm
from .group_limits import resolve
from .slim import SlimProblem, build_problem

Number = int | float


def used_inputs(cc: ColumnConstraints, coef: np.ndarray) -> set[str]:
    """Raw inputs with a non-zero coefficient on any of their columns."""
    return {name for name, cols in cc.columns_of.items() if np.any(coef[list(cols)] != 0)}


def violations(problem: SlimProblem, coef: np.ndarray, intercept: Number) -> list[str]:
    """Every hard constraint the integer model breaks on the training rows (empty: feasible).

    Uses the runtime's rule (positive iff score > 0) on the merged rows, so a model that
    passes obeys the limits exactly as ``scorecard predict`` will score the training data.
    """
    out = []
    coef = np.asarray(coef)
    bad = np.flatnonzero((coef < problem.coef_lo) | (coef > problem.coef_hi))
    out += [f"coefficient {j} = {coef[j]} outside [{problem.coef_lo[j]}, {problem.coef_hi[j]}]" for j in bad]
    if not problem.intercept_lo <= intercept <= problem.intercept_hi:
        out.append(f"intercept {intercept} outside [{problem.intercept_lo}, {problem.intercept_hi}]")
    size = int(np.count_nonzero(coef))
    if problem.max_features is not None and size > problem.max_features:
        out.append(f"max_features = {problem.max_features}: the model has {size}")
    if problem.min_features is not None and size < problem.min_features:
        out.append(f"min_features = {problem.min_features}: the model has {size}")
    cc = problem.constraints
    if cc is None:
        return out
    for j, values in cc.coef_values.items():
        if coef[j] not in values:
            out.append(f"coefficient {j} = {coef[j]} not in its set")
    if cc.intercept_values is not None and intercept not in cc.intercept_values:
        out.append(f"intercept_set: {intercept} is not one of {list(cc.intercept_values)}")
    used = used_inputs(cc, coef)
    if cc.max_inputs is not None and len(used) > cc.max_inputs:
        out.append(f"max_features = {cc.max_inputs}: the model uses {len(used)} columns ({sorted(used)})")
    if cc.min_inputs is not None and len(used) < cc.min_inputs:
        out.append(f"min_features = {cc.min_inputs}: the model uses {len(used)} columns ({sorted(used)})")
    for group in cc.at_most_one:
        both = [g for g in group if g in used]
        if len(both) > 1:
            out.append(f"at_most_one of {list(group)}: the model uses {both}")
    for a, b, source in cc.implications:
        if a in used and b not in used:
            out.append(f"{source}: the model uses {a!r} without {b!r}")
    positive = problem.scores(coef, intercept) > 0
    counts = {"max_fpr": int(cc.neg_n[positive].sum()), "min_tpr": int(cc.pos_n[positive].sum()),
              "max_positive_rate": int((cc.pos_n + cc.neg_n)[positive].sum())}
    for name, (sense, bound) in cc.limits().items():
        if (sense == "<=" and counts[name] > bound) or (sense == ">=" and counts[name] < bound):
            out.append(f"{name} = {getattr(cc, name)}: {counts[name]} rows where the limit allows {sense} {bound}")
    for group_limit in cc.group_limits:
        for name, terms, sense, bound in group_limit.constraints():
            total = sum(coefficient * int(per_row[positive].sum()) for coefficient, per_row in terms)
            if (sense == "<=" and total > bound) or (sense == ">=" and total < bound):
                out.append(f"{name}: {total} where the limit allows {sense} {bound}")
    if cc.tilm is not None:
        for name, cols in cc.tilm.rules_of.items():
            c = coef[list(cols)]
            if np.count_nonzero(c) > cc.tilm.max_rules:
                out.append(f"max_rules_per_feature = {cc.tilm.max_rules}: {name!r} has {np.count_nonzero(c)} rules")
            if name in cc.tilm.one_sign and np.any(c > 0) and np.any(c < 0):
                out.append(f"TILM: the rules of {name!r} disagree in sign")
    return out


# ------------------------------------------------------------------ building


def _base_set(config: TrainConfig, name: str) -> CoefSet:
    if config.model == "mofn":
        return CoefSet((0, 1))
    if config.model == "pilm":
        return CoefSet(tuple(v for t in config.tiers for v in t.values.values) + (0,))
    if name in config.coefficients:
        return config.coefficients[name].with_zero()
    if config.coef_set is not None:
        return CoefSet(tuple(config.coef_set)).with_zero()
    return CoefSet.range(min(config.coef_min, 0), max(config.coef_max, 0))


def _prices(design: Design, data: LabeledData, config: TrainConfig) -> tuple[np.ndarray, dict[str, float]]:
    """Per column ``c0`` and, for TILM, the extra price of each input (see :class:`Tilm`).

    A column costs its input's ``c0_by_input`` (default ``c0``); an input with M imputed
    cells out of N rows costs M/N more (Section 2.4), so it is used only if it is worth
    more than the rows it made up. PILM columns cost their first tier's price (higher tiers
    add theirs in :attr:`ColumnConstraints.tiers`); TILM rules cost C_t each and the input
    C_f once.
    """
    n = len(data.frame) + data.dropped_rows

    def missing(name: str) -> float:
        if config.impute_penalty and name in data.imputed:
            return data.missing_counts.get(name, 0) / n
        return 0.0

    c0 = np.zeros(len(design.columns))
    extra: dict[str, float] = {}
    c_feature = c_rule = 0.0
    if config.model == "tilm":  # (PILM ignores c0, which may still read "auto" there)
        c_feature = config.c0 if config.c_feature is None else config.c_feature
        c_rule = c_feature / 2 if config.c_rule is None else config.c_rule  # <= c_feature (checked in TrainConfig)
    for j, col in enumerate(design.columns):
        own = config.c0_by_input.get(col.input)
        if config.model == "pilm":
            c0[j] = config.tiers[0].c0 + (own or 0.0) + missing(col.input)
        elif config.model == "tilm":
            c0[j] = c_rule
            extra[col.input] = (own if own is not None else c_feature) + missing(col.input) - c_rule
        else:
            c0[j] = (own if own is not None else config.c0) + missing(col.input)
    return c0, extra


def constrained_problem(design: Design, data: LabeledData, config: TrainConfig) -> SlimProblem:
    """The problem of ``design`` under every constraint of ``config`` (raw names resolved).

    Refuses (``ConfigError``) a constraint naming an input the data lacks (suggesting the
    closest), ``--numeric-for`` cuts or linear on a text column, and a non-integer coefficient
    set. A sign keeps the part of a set with that sign (at least 0, which leaves the input out).
    """
    reads_c0 = config.model in ("slim", "mofn") or (config.model == "tilm" and config.c_feature is None)
    if config.c0 == "auto" and reads_c0:
        raise ConfigError("c0: 'auto' is chosen by cross-validation in train(); a problem needs a number "
                          "(e.g. TrainConfig(c0=0.01))")
    check_names(config, [i.name for i in data.inputs])
    text = {inp.name for inp in data.inputs if inp.type == "categorical"}
    for name, mode in config.numeric_by_input.items():
        if name in text and mode != "levels":
            raise ConfigError(f"numeric_by_input.{name}: {name!r} is a text column, one condition per level; "
                              f"--numeric-for {name}={mode} reads numbers (drop it for this column)")
    columns_of: dict[str, list[int]] = {}
    for j, col in enumerate(design.columns):
        columns_of.setdefault(col.input, []).append(j)
    p = len(design.columns)
    lo, hi = np.zeros(p, dtype=np.int64), np.zeros(p, dtype=np.int64)
    coef_values: dict[int, tuple[Number, ...]] = {}
    for j, col in enumerate(design.columns):
        # a sign orders the points along COL's values; "COL unknown" is not on that scale
        allowed = _base_set(config, col.input).signed(None if col.op == "missing" else config.signs.get(col.input))
        if not all(isinstance(v, int) for v in allowed.values):
            where = f"coefficients.{col.input}" if col.input in config.coefficients else "--coef-set"
            raise ConfigError(f"{where}: {allowed.describe()} holds non-integers; scorecards use integer points")
        lo[j], hi[j] = allowed.low, allowed.high
        if not allowed.is_integer_range or config.model == "pilm":  # PILM prices values by tier
            coef_values[j] = allowed.values
    c0, tilm_extra = _prices(design, data, config)

    intercept_values = None
    b_lo, b_hi = config.intercept_min, config.intercept_max
    if config.model == "mofn":
        b_lo, b_hi = -p, 0
    if config.intercept_set is not None:
        iset = config.intercept_set
        if not all(isinstance(v, int) for v in iset.values):
            raise ConfigError(f"intercept_set: {iset.describe()} holds non-integers; use integers")
        b_lo, b_hi = iset.low, iset.high
        intercept_values = None if iset.is_integer_range else iset.values

    base = build_problem(design.X, data.y, w_pos=config.w_pos, coef_lo=lo, coef_hi=hi, intercept_lo=b_lo,
                         intercept_hi=b_hi, c0=c0, max_features=config.max_features,
                         min_features=config.min_features, counts=data.counts)
    # --max-features/--min-features count data columns in SLIM and PILM: where an input has
    # several design columns (cut-offs, levels) the count is a composition constraint on the
    # inputs used, and the box keeps only what it implies on columns (a valid relaxation).
    by_input = config.model in ("slim", "pilm") and any(len(v) > 1 for v in columns_of.values()) and (
        config.max_features is not None or config.min_features is not None)
    if by_input and config.max_features is not None:
        widest_inputs = sorted((len(v) for v in columns_of.values()), reverse=True)
        base = replace(base, max_features=sum(widest_inputs[:config.max_features]))
    # --max-items: at most that many non-zero points on the card (its rows), whatever else counts features
    if base.max_features is None or base.max_features > config.max_items:
        base = replace(base, max_features=config.max_items)
    positive = data.y > 0
    counts = np.ones(len(data.y)) if data.counts is None else data.counts
    pos_n = np.bincount(base.row_of, weights=positive * counts, minlength=len(base.X)).astype(np.int64)
    neg_n = np.bincount(base.row_of, weights=~positive * counts, minlength=len(base.X)).astype(np.int64)

    implications = [(a, t, r.describe()) for r in config.requires for a in r.if_any for t in r.then]
    implications += [(h.leaf, a, h.describe()) for h in config.hierarchy for a in h.ancestors]
    named = {n for g in config.at_most_one for n in g.of} | {n for a, b, _ in implications for n in (a, b)}
    tiers = tuple((t.values.values, t.c0 - config.tiers[0].c0) for t in config.tiers[1:]) \
        if config.model == "pilm" else ()
    tilm = None
    if config.model == "tilm":
        numeric = {i.name for i in data.inputs if i.type == "numeric"}
        tilm = Tilm(rules_of={k: tuple(v) for k, v in columns_of.items()}, feature_extra=tilm_extra,
                    max_rules=config.max_rules_per_feature, one_sign=tuple(sorted(numeric & set(columns_of))))
    cc = ColumnConstraints(
        coef_values=coef_values, intercept_values=intercept_values,
        columns_of={k: tuple(v) for k, v in columns_of.items() if k in named or tilm is not None or by_input},
        at_most_one=tuple(g.of for g in config.at_most_one), implications=tuple(implications),
        pos_n=pos_n, neg_n=neg_n, max_fpr=config.max_fpr, min_tpr=config.min_tpr,
        max_positive_rate=config.max_positive_rate, tiers=tiers, tilm=tilm,
        max_inputs=config.max_features if by_input else None, min_inputs=config.min_features if by_input else None,
        group_limits=resolve(config.limits, data, base.row_of, len(base.X)))
    return replace(base, constraints=cc if cc.present else None)


