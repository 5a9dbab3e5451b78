"""Which constraints conflict: a small set of hard constraints no model can meet together.

When the integer program is infeasible, "relax the constraints" does not help a clinician
who wrote ten of them. :func:`minimal_conflict` runs the classic deletion filter (Chinneck's
IIS search) over the *named* hard constraints of a config: drop one, re-solve briefly, and
keep it dropped if the rest is still infeasible. What remains is a conflicting set in which
every member matters (when each re-solve is decisive within its time slice; an undecided
one keeps the constraint, so the set is always a proven conflict, possibly not minimal).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np
import pulp

from ..data.design import Design
from ..data.prepare import LabeledData
from ..options.config import TrainConfig
from ..problem.constrained import constrained_problem
from ..search.repair import feasible_start
from .ip.slim import formulate
from .options import TINY, Deadline, SolveOptions

#: Seconds spent looking for the conflict, in total, at most (and never past the deadline).
BUDGET = 30.0


def hard_constraints(config: TrainConfig) -> list[tuple[str, TrainConfig]]:
    """Each named hard constraint of ``config`` and the config without it."""
    out: list[tuple[str, TrainConfig]] = []
    for name in ("max_features", "min_features", "max_fpr", "min_tpr", "max_positive_rate"):
        value = getattr(config, name)
        if value is not None:
            out.append((f"{name} = {value}", replace(config, **{name: None})))
    for col, sign in config.signs.items():
        out.append((f"sign {col} = {sign}", replace(config, signs={k: v for k, v in config.signs.items() if k != col})))
    for col, values in config.coefficients.items():
        out.append((f"coefficients.{col} = {values.describe()}",
                    replace(config, coefficients={k: v for k, v in config.coefficients.items() if k != col})))
    if config.intercept_set is not None:
        out.append((f"intercept_set = {config.intercept_set.describe()}", replace(config, intercept_set=None)))
    for option in ("at_most_one", "requires", "hierarchy"):
        items = getattr(config, option)
        for k, item in enumerate(items):
            out.append((item.describe(), replace(config, **{option: items[:k] + items[k + 1:]})))
    for k, limit in enumerate(config.limits):
        out.append((limit.text, replace(config, limits=config.limits[:k] + config.limits[k + 1:])))
    return out


#: The options a named hard constraint lives in.
FIELDS = ("max_features", "min_features", "max_fpr", "min_tpr", "max_positive_rate", "signs", "coefficients",
          "intercept_set", "at_most_one", "requires", "hierarchy", "limits")


def _without(config: TrainConfig, base: TrainConfig, dropped: set[str]) -> TrainConfig:
    """``config`` with every constraint named in ``dropped`` removed (names from ``base``): a
    list or table option loses the items dropped, each drop on top of the others."""
    for name, relaxed in hard_constraints(base):
        if name not in dropped:
            continue
        changes = {}
        for f in FIELDS:
            before, after, now = getattr(base, f), getattr(relaxed, f), getattr(config, f)
            if after == before:
                continue
            if isinstance(before, tuple):
                changes[f] = tuple(item for item in now if item in after)
            elif isinstance(before, dict):
                changes[f] = {key: value for key, value in now.items() if key in after}
            else:
                changes[f] = after
        config = replace(config, **changes)
    return config


def is_feasible(design: Design, data: LabeledData, config: TrainConfig, seconds: float,
                nodes: int | None = None) -> bool | None:
    """True if some model meets every constraint of ``config``, False if none does, None if
    undecided within ``seconds`` and ``nodes`` (a quick warm start is tried before the solver).
    Only the constraints of ``config`` are read: the solve is CBC's, on one thread."""
    problem = constrained_problem(design, data, config)
    if feasible_start(problem, np.zeros(problem.n_columns, dtype=int), 0) is not None:
        return True
    ip = formulate(problem, None)
    ip.lp.setObjective(pulp.LpAffineExpression())  # any feasible point answers the question
    if seconds <= 0:
        return None
    ip.lp.solve(pulp.PULP_CBC_CMD(msg=False, timeLimit=max(seconds, TINY), maxNodes=nodes, threads=1))
    if ip.lp.sol_status in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible):
        return True
    if ip.lp.status == pulp.LpStatusInfeasible or ip.lp.sol_status == pulp.LpSolutionInfeasible:
        return False
    return None


def minimal_conflict(config: TrainConfig, feasible: Callable[[TrainConfig], bool | None],
                     deadline: Deadline) -> tuple[list[str], bool] | None:
    """Hard constraints of ``config`` that cannot hold together, and whether that is proven.

    QuickXplain's linear form (Junker 2004): grow the conflict C one constraint at a time;
    each round adds constraints after C until no model is found, and the constraint that
    tipped it joins C. Each step mostly needs a *feasible* answer, which a warm start or a
    short solve gives fast; proving infeasibility is the slow part, so an undecided answer
    counts as "no model" and the result says whether the last answer was a proof.
    ``feasible(config)`` answers True/False/None (undecided). Returns None when even the
    config without its named constraints has no model.
    """
    names = [name for name, _ in hard_constraints(config)]

    def only(kept: list[str]) -> TrainConfig:
        return _without(config, config, set(names) - set(kept))

    if feasible(only([])) is not True:
        return None
    conflict: list[str] = []
    remaining = list(names)
    while remaining and not deadline.expired():
        tipped = None
        for k, name in enumerate(remaining):
            if name in conflict:
                continue
            if feasible(only(conflict + remaining[:k + 1])) is not True:
                tipped = k
                break
        if tipped is None:
            break
        conflict.append(remaining[tipped])
        remaining = [n for n in remaining[:tipped] if n not in conflict]
        verdict = feasible(only(conflict))
        if verdict is not True:
            return [n for n in names if n in conflict], verdict is False
    return [n for n in names if n in conflict], False


def explain(design: Design, data: LabeledData, config: TrainConfig, deadline: Deadline) -> str:
    """One sentence naming the conflicting constraints, for an ``InfeasibleError``: the
    search stops at ``deadline`` (or after BUDGET seconds), each re-solve gets an equal
    share of that time; under ``--work-limit`` each gets the work limit's nodes instead (the
    same sentence on any machine), the time left its safety net."""
    deadline = deadline.within(BUDGET)
    nodes = SolveOptions.of(config, deadline).max_nodes
    slice_ = deadline.remaining() / (1 if nodes is not None else len(hard_constraints(config)) + 2)

    def feasible(c: TrainConfig) -> bool | None:
        return is_feasible(design, data, c, min(slice_, deadline.remaining()), nodes)

    found = minimal_conflict(config, feasible, deadline)
    if found is None:
        return ("no model satisfies the constraints, even without the named ones; widen the coefficient "
                "or intercept ranges")
    conflict, proven = found
    if not conflict:
        return "no model satisfies the constraints (which ones conflict could not be told in time); relax them"
    together = "; ".join(conflict)
    if proven:
        return f"no model satisfies these constraints together: {together} (relax one of them)"
    return f"no model was found that meets these constraints together: {together} (relax one of them)"
