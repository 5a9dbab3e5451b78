"""The constraint language in the SLIM integer program: one function per paper section.

:func:`add` extends the PuLP model built by ``solvers/ip/slim.py`` with everything in
``problem.constraints`` (see ``problem/constrained.py``), reading the SLIM IP's own variables through
:class:`Handles`: coefficients lambda_j, their L0 indicators alpha_j, the intercept and the
prediction z_k of each merged row k (1 = positive).

- value sets (Section 2.2): u_{j,v} binaries, lambda_j = sum_v v u_{j,v}, sum_v u_{j,v} = alpha_j;
- composition (Section 2.5): an indicator per raw input (1 when any of its columns is used),
  sum <= 1 over an at-most-one group, used(a) <= used(b) for an if-then or a hierarchy, and
  the sum over all inputs within --max-features/--min-features when those count inputs;
- rate limits (Section 2.6), single shot on the predictions, counted in data rows:
  sum_k neg_n[k] z_k <= floor(max_fpr N-), sum_k pos_n[k] z_k >= ceil(min_tpr N+),
  sum_k (pos_n[k] + neg_n[k]) z_k <= floor(rate N). These are exact because the SLIM IP
  ties z_k to the score in the direction each count needs (z_k = 0 forces score <= 0 on a
  row with negatives, z_k = 1 forces score >= gamma on a row with positives); the budget
  also needs z_k = 0 => score <= 0 on rows holding only positives, added here;
- limits in groups of rows (``--limit``, ``problem/group_limits.py``): whole-number constraints on
  the z_k of each group's rows, made exact in both directions where they need it: a row whose
  count enters a constraint with a positive coefficient on its "at most" side (or a negative one
  on its "at least" side) must not read z_k = 0 while its score is > 0, so rows holding only
  positives get score <= 0 when z_k = 0 (rows with negatives have it); and one entering the
  other way must not read z_k = 1 while its score is <= 0, so rows holding only negatives get
  score >= gamma when z_k = 1 (rows with positives have it). A gap counts each group both ways;
- PILM tiers (Section 3.2, ``pilm.py``) and TILM blocks (Section 3.3, ``tilm.py``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pulp

from ...problem.slim import SlimProblem
from . import pilm, tilm


@dataclass
class Handles:
    """The SLIM IP variables constraints are written on (``coef[j]``/``z[k]`` None when fixed).

    ``s_min``/``s_max`` bound each merged row's score (the big-M of the loss constraints);
    ``scale`` multiplies the objective; ``start`` is the warm-start model, if any, whose
    values the new variables get too. ``values`` collects the u_{j,v} binaries by column.
    """

    lp: pulp.LpProblem
    coef: list
    alpha: dict
    intercept: pulp.LpVariable
    z: list
    s_min: np.ndarray
    s_max: np.ndarray
    gamma: float
    scale: float
    start: tuple[np.ndarray, int] | None = None
    values: dict = field(default_factory=dict)

    def z_expr(self, k: int):
        """Row k's prediction: its variable, or the constant the box fixes it to."""
        if self.z[k] is not None:
            return self.z[k]
        return 1 if self.s_min[k] >= self.gamma else 0

    def initial(self, var: pulp.LpVariable, value: float) -> None:
        if self.start is not None:
            var.setInitialValue(value)


def add(problem: SlimProblem, h: Handles) -> None:
    """Add every constraint of ``problem.constraints`` to the IP of ``h``."""
    cc = problem.constraints
    if cc is None:
        return
    for j, values in cc.coef_values.items():
        expand(h, j, values)
    if cc.intercept_values is not None:
        _intercept_set(h, cc.intercept_values)
    _composition(problem, h)
    _rates(problem, h)
    _group_limits(problem, h)
    pilm.add(problem, h)
    tilm.add(problem, h)


def expand(h: Handles, j: int, values) -> dict:
    """u_{j,v} binaries for the non-zero values v of column j (Section 2.2); idempotent."""
    if j in h.values or h.coef[j] is None:
        return h.values.get(j, {})
    var = h.coef[j]
    u = {v: h.lp.add_variable(f"u_{j}_{k}", cat=pulp.LpBinary)
         for k, v in enumerate(values) if v != 0 and var.lowBound <= v <= var.upBound}
    h.lp += var == pulp.lpSum(v * x for v, x in u.items()), f"coef_set_{j}"
    h.lp += pulp.lpSum(u.values()) == h.alpha[j], f"coef_set_one_{j}"
    if h.start is not None:
        for v, x in u.items():
            x.setInitialValue(int(h.start[0][j] == v))
    h.values[j] = u
    return u


def _intercept_set(h: Handles, values) -> None:
    """The intercept takes one of ``values`` (Section 2.2, with sum u = 1: it always exists).

    The SLIM IP keeps the intercept's full range [min, max] of the set (it does not clip it
    to where it changes a prediction), so every listed value is reachable.
    """
    u = {v: h.lp.add_variable(f"u_intercept_{k}", cat=pulp.LpBinary) for k, v in enumerate(values)
         if h.intercept.lowBound <= v <= h.intercept.upBound}
    h.lp += h.intercept == pulp.lpSum(v * x for v, x in u.items()), "intercept_set"
    h.lp += pulp.lpSum(u.values()) == 1, "intercept_set_one"
    if h.start is not None:
        for v, x in u.items():
            x.setInitialValue(int(h.start[1] == v))


def _composition(problem: SlimProblem, h: Handles) -> None:
    cc = problem.constraints
    used: dict[str, object] = {}

    def use(name: str):
        """1 when raw input ``name`` has a non-zero coefficient (0 when it cannot)."""
        if name not in used:
            alphas = [h.alpha[j] for j in cc.columns_of.get(name, ()) if j in h.alpha]
            if not alphas:
                used[name] = 0
            elif len(alphas) == 1:
                used[name] = alphas[0]
            else:
                w = h.lp.add_variable(f"used_{len(used)}", cat=pulp.LpBinary)
                for k, a in enumerate(alphas):
                    h.lp += a <= w, f"used_{len(used)}_{k}"
                h.lp += w <= pulp.lpSum(alphas), f"used_{len(used)}_any"
                if h.start is not None:
                    w.setInitialValue(int(np.any(h.start[0][list(cc.columns_of[name])] != 0)))
                used[name] = w
        return used[name]

    if cc.max_inputs is not None or cc.min_inputs is not None:  # --max/--min-features counted in inputs
        inputs = pulp.lpSum(use(name) for name in cc.columns_of)
        if cc.max_inputs is not None:
            h.lp += inputs <= cc.max_inputs, "max_features_inputs"
        if cc.min_inputs is not None:
            h.lp += inputs >= cc.min_inputs, "min_features_inputs"
    for g, group in enumerate(cc.at_most_one):
        terms = [use(name) for name in group]
        if any(isinstance(t, pulp.LpVariable) for t in terms):
            h.lp += pulp.lpSum(terms) <= 1, f"at_most_one_{g}"
    for i, (a, b, _source) in enumerate(cc.implications):
        left, right = use(a), use(b)
        if isinstance(left, pulp.LpVariable):
            h.lp += left <= right, f"requires_{i}"


def _rates(problem: SlimProblem, h: Handles) -> None:
    cc = problem.constraints
    limits = cc.limits()
    if not limits:
        return
    rows = range(len(problem.X))
    counts = {"max_fpr": cc.neg_n, "min_tpr": cc.pos_n, "max_positive_rate": cc.pos_n + cc.neg_n}
    for name, (sense, bound) in limits.items():
        total = pulp.lpSum(int(counts[name][k]) * h.z_expr(k) for k in rows if counts[name][k])
        h.lp += (total <= bound) if sense == "<=" else (total >= bound), name
    if "max_positive_rate" in limits:
        usable = [j for j, var in enumerate(h.coef) if var is not None]
        for k in rows:
            if h.z[k] is not None and problem.neg_w[k] == 0:
                score = h.intercept + pulp.lpSum(float(problem.X[k, j]) * h.coef[j] for j in usable if problem.X[k, j])
                h.lp += score <= float(h.s_max[k]) * h.z[k], f"budget_{k}"


def _group_limits(problem: SlimProblem, h: Handles) -> None:
    """Each ``--limit`` as its whole-number constraints on z (``GroupLimit.constraints``), and
    the ties of z to the score that make those counts the runtime's (module docstring)."""
    cc = problem.constraints
    up, down = set(), set()  # rows that must not undercount (z = 0, score > 0) / overcount (z = 1, score <= 0)
    usable = [j for j, var in enumerate(h.coef) if var is not None]
    made = 0
    for group_limit in cc.group_limits:
        for name, terms, sense, bound in group_limit.constraints():
            total = pulp.lpSum(coefficient * int(per_row[k]) * h.z_expr(k)
                               for coefficient, per_row in terms for k in np.flatnonzero(per_row))
            h.lp += (total <= bound) if sense == "<=" else (total >= bound), f"group_limit_{made}"
            made += 1
            for coefficient, per_row in terms:
                rows = np.flatnonzero(per_row).tolist()
                (up if (coefficient > 0) == (sense == "<=") else down).update(rows)
    for k in sorted(up | down):
        if h.z[k] is None:
            continue
        score = h.intercept + pulp.lpSum(float(problem.X[k, j]) * h.coef[j] for j in usable if problem.X[k, j])
        if k in up and problem.neg_w[k] == 0:  # no "neg_k" row: z = 0 must mean score <= 0
            h.lp += score <= float(h.s_max[k]) * h.z[k], f"group_limit_up_{k}"
        if k in down and problem.pos_w[k] == 0:  # no "pos_k" row: z = 1 must mean score >= gamma
            h.lp += score >= h.gamma - float(h.gamma - h.s_min[k]) * (1 - h.z[k]), f"group_limit_down_{k}"
