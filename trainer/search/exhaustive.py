"""Exact search: every integer scoring system that could beat the incumbent, checked.

For small problems (few columns, or an incumbent good enough to allow few features) this
certifies optimality faster than any MIP.

:func:`plan` lists the supports (sets of non-zero columns) that could hold a better model:
at most :func:`~..problem.bounds.size_limit` columns, and a support is dropped when its unavoidable
loss (rows that collide on it with both labels) plus its penalty already reaches the
incumbent. The listing is depth-first, each support's row groups refined from its parent's,
and a whole subtree is dropped when even the parent plus every later column collides too much.

:func:`search` then scores every non-zero coefficient vector of each support with its
optimal intercept (:class:`~.sweep.Sweeper`), in blocks: first on growing random subsets
of the rows (the error on a subset is a lower bound on the error on all rows, so a
candidate that already loses more than its budget there is dropped), on all rows only if it
survives. The result is a certificate by exhaustion with valid bounds: status "optimal"
means no model with a smaller objective exists.

On integer data a coefficient vector with a common divisor k > 1 makes exactly the
predictions of the vector divided by k (with the threshold divided and rounded down), at a
larger L1 norm, so only coprime vectors are scored there.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..problem.bounds import TOLERANCE, conflict_loss, size_limit, unavoidable_loss
from ..problem.slim import SlimProblem, free_columns, penalty as slim_penalty
from .warm_start import Incumbent
from .sweep import Sweeper

# Row-subset sizes of the cascade of lower bounds (then all rows).
CASCADE = (8, 24, 96, 384)
# Coefficient vectors scored per block (between two looks at the clock).
BLOCK = 1 << 16
# Supports with at least this many coefficient vectors are worth a conflict bound first.
CONFLICT_MIN_VECTORS = 20 ** 3
#: What looking at one support costs the plan's listing besides its rows, in row entries (the
#: per-call cost of refining its row groups: on heart, spambase and mammo the listing ran about
#: 2-5 x 10^7 of these per second on one core here, 2026-11-28).
LISTING_OVERHEAD = 400
#: Row entries of the listing per second of its budget, under a work limit (``solvers/auto.py``).
LISTING_PER_SECOND = 2e7


@dataclass(frozen=True)
class SearchResult:
    """The best model found, the proven lower bound on the optimum and how the search ended
    ("optimal" or "time_limit")."""

    incumbent: Incumbent
    lower_bound: float
    status: str


@dataclass(frozen=True)
class Plan:
    """The supports that may hold a model better than the incumbent, by size, and about how
    many (candidate, row) pairs the search will score (its cost)."""

    supports: tuple[tuple[int, ...], ...]
    work: float


def plan(problem: SlimProblem, upper_bound: float, max_work: float = math.inf,
         seconds: float = math.inf, conflicts: bool = False, listing: float = math.inf) -> Plan | None:
    """The supports to search to beat ``upper_bound``, smallest first; None when there is no
    finite size limit, or the work would exceed ``max_work``, or listing the supports takes
    more than ``seconds`` or ``listing`` row entries (each support looked at costs the rows plus
    ``LISTING_OVERHEAD``: the same stop on any machine) (then a MIP is the better tool).

    Supports are listed depth-first, each one's row groups refined from its parent's, so the
    collision bound of a support costs one pass over the distinct rows. With ``conflicts``
    (integer data), a support with many coefficient vectors is also dropped when disjoint
    four-row conflicts on it (:func:`~..problem.bounds.conflict_loss`) already cost more than its budget.
    """
    limit = size_limit(problem, upper_bound)
    if limit is None:
        return None
    deadline = time.monotonic() + seconds
    step = problem.X.shape[0] + LISTING_OVERHEAD
    free = free_columns(problem).tolist()
    codes, levels = _column_codes(problem)
    counts = {j: _nonzero_values(problem, j).size for j in free}
    price = problem.feature_price
    costs = problem.feature_costs.tolist()
    lowest = unavoidable_loss(problem)
    least = max(problem.min_features or 0, 0)
    suffix = _suffix_groups(codes, levels, free)
    conflicts = conflicts and bool(np.all(problem.X == np.round(problem.X)))
    found: list[tuple[int, ...]] = []
    total = 0.0
    # Stack of (support, row group ids, number of groups, next position in ``free``).
    stack = [((), np.zeros(problem.X.shape[0], dtype=np.int64), 1, 0)]
    if least == 0 and min(problem.pos_w.sum(), problem.neg_w.sum()) < upper_bound - TOLERANCE:
        found.append(())
    while stack and limit > 0:
        support, group, n_groups, start = stack.pop()
        fixed = problem.least_penalty(support)
        for position in range(len(free) - 1, start - 1, -1):
            listing -= step
            if listing < 0 or time.monotonic() > deadline:
                return None
            j = free[position]
            child = support + (j,)
            child_fixed = fixed + costs[j]
            if child_fixed + lowest >= upper_bound - TOLERANCE:
                continue
            ids, n_ids = _refine(group, n_groups, codes[:, j], int(levels[j]))
            if len(child) < limit and child_fixed + price + lowest < upper_bound - TOLERANCE:
                # Every descendant uses a subset of the later columns: its collisions are at
                # least those of the child plus all of them.
                rest_ids, n_rest = suffix[position + 1]
                widest, _ = _refine(ids, n_ids, rest_ids, n_rest)
                if _collision_loss(problem, widest) + child_fixed + price < upper_bound - TOLERANCE:
                    stack.append((child, ids, n_ids, position + 1))
            if len(child) < least:
                continue
            if _collision_loss(problem, ids) + child_fixed >= upper_bound - TOLERANCE:
                continue
            combos = math.prod(counts[c] for c in child)
            if conflicts and combos >= CONFLICT_MIN_VECTORS:
                budget = upper_bound - child_fixed - TOLERANCE
                if conflict_loss(_project(problem, np.array(child, dtype=np.int64)), budget) >= budget:
                    continue
            found.append(child)
            total += combos * _rows_scored(problem, upper_bound - child_fixed, n_ids)
            if total > max_work:
                return None
    found.sort(key=len)
    return Plan(tuple(found), total)


def search(problem: SlimProblem, incumbent: Incumbent, plan: Plan, deadline: float = math.inf,
           on_improve: Callable[[Incumbent], None] | None = None,
           on_bound: Callable[[float], None] | None = None) -> SearchResult:
    """Prove ``incumbent`` optimal or find the optimum, searching the supports of ``plan``
    (made for an upper bound at least ``incumbent.objective``; see the module doc).
    ``on_improve`` hears of each better model, ``on_bound`` of the proven lower bound each
    time all supports of one size are done."""
    best = incumbent
    integral = bool(np.all(problem.X == np.round(problem.X)))
    lowest = unavoidable_loss(problem)
    price = problem.feature_price
    size = None
    for support in plan.supports:
        if on_bound is not None and size is not None and len(support) > size:
            on_bound(min(best.objective, lowest + len(support) * price))
        size = len(support)
        if time.monotonic() > deadline:
            bound = min(best.objective, lowest + len(support) * price)
            return SearchResult(best, bound, "time_limit")
        found, finished = _search_support(problem, np.array(support, dtype=np.int64), best, integral, deadline)
        if found is not best:
            best = found
            if on_improve is not None:
                on_improve(best)
        if not finished:
            return SearchResult(best, min(best.objective, lowest + len(support) * price), "time_limit")
    return SearchResult(best, best.objective, "optimal")


def _rows_scored(problem: SlimProblem, budget: float, n_rows: int) -> int:
    """Rows the cascade scores per candidate, about: the first subset heavy enough to lose
    more than the loss budget (all rows when none is)."""
    mean = float((problem.pos_w + problem.neg_w).sum()) / max(1, len(problem.pos_w))
    for size in CASCADE:
        if size * 2 > n_rows:
            break
        if size * mean > budget:
            return size
    return n_rows


def _column_codes(problem: SlimProblem) -> tuple[np.ndarray, np.ndarray]:
    """(K, P) code of each value within its column (equal values, equal codes), and the
    number of distinct values of each column."""
    codes = np.empty(problem.X.shape, dtype=np.int64)
    levels = np.empty(problem.n_columns, dtype=np.int64)
    for j in range(problem.n_columns):
        values, inverse = np.unique(problem.X[:, j], return_inverse=True)
        codes[:, j] = inverse.reshape(-1)
        levels[j] = len(values)
    return codes, levels


def _suffix_groups(codes: np.ndarray, levels: np.ndarray, free: list[int]) -> list[tuple[np.ndarray, int]]:
    """For each position q in ``free``: row groups on the columns free[q:] (the last: one group)."""
    out = [(np.zeros(codes.shape[0], dtype=np.int64), 1)]
    for j in reversed(free):
        ids, n = out[-1]
        out.append(_refine(ids, n, codes[:, j], int(levels[j])))
    return out[::-1]


def _collision_loss(problem: SlimProblem, ids: np.ndarray) -> float:
    """Weight lost by rows sharing a group id with rows of the other label."""
    pos = np.bincount(ids, weights=problem.pos_w)
    neg = np.bincount(ids, weights=problem.neg_w)
    return float(np.minimum(pos, neg, out=pos).sum())


def _refine(group: np.ndarray, n_groups: int, code: np.ndarray, levels: int) -> tuple[np.ndarray, int]:
    """Row groups split by one more column: compact ids and their number."""
    key = group * levels + code
    if n_groups * levels <= 4 * len(key) + 1024:
        lookup = np.zeros(n_groups * levels, dtype=np.int64)
        lookup[key] = 1
        count = np.cumsum(lookup, out=lookup)
        return count[key] - 1, int(count[-1])
    _, ids = np.unique(key, return_inverse=True)
    ids = ids.reshape(-1)
    return ids, int(ids.max()) + 1 if len(ids) else 0


def _nonzero_values(problem: SlimProblem, j: int) -> np.ndarray:
    values = np.arange(problem.coef_lo[j], problem.coef_hi[j] + 1)
    return values[values != 0]


def _search_support(problem: SlimProblem, support: np.ndarray, best: Incumbent, integral: bool,
                    deadline: float = math.inf) -> tuple[Incumbent, bool]:
    """The best model with exactly this support if it beats ``best`` (else ``best``), and
    whether the support was searched to the end before ``deadline``."""
    if unavoidable_loss(problem, support) + problem.least_penalty(support) >= best.objective - TOLERANCE:
        return best, True
    rows = _project(problem, support)
    sweepers = _cascade(rows)
    grids = [_nonzero_values(problem, j) for j in support]
    total = math.prod(len(g) for g in grids)
    coprime_only = integral and len(support) > 1 and _scaling_is_safe(problem, support)
    for start in range(0, total, BLOCK):
        if time.monotonic() > deadline:
            return best, False
        combos = _block(grids, start, min(total, start + BLOCK))
        if coprime_only:
            combos = combos[np.gcd.reduce(np.abs(combos).astype(np.int64), axis=1) == 1]
        best = _search_block(problem, support, combos, rows, sweepers, best)
    return best, True


def _cascade(rows: "_Projected") -> list[tuple[float, Sweeper]]:
    """Sweepers on growing random subsets of the rows (with the subset's total weight: a
    subset lighter than a candidate's loss budget cannot rule it out), then on all rows."""
    order = np.random.default_rng(0).permutation(rows.X.shape[0])
    weight = rows.pos_w + rows.neg_w
    out = [(float(weight[order[:size]].sum()), Sweeper(rows, subset=order[:size]))
           for size in CASCADE if size * 2 <= rows.X.shape[0]]
    return out + [(float(weight.sum()), Sweeper(rows))]


def _search_block(problem: SlimProblem, support: np.ndarray, combos: np.ndarray,
                  rows: "_Projected", sweepers: list[tuple[float, Sweeper]], best: Incumbent) -> Incumbent:
    """The best of ``combos`` (coefficients on ``support``) if it beats ``best``, else ``best``."""
    penalty = slim_penalty(combos, problem.c0[support], problem.epsilon)  # zero off the support
    budget = best.objective - penalty - TOLERANCE
    keep = budget > 0
    combos, budget, penalty = combos[keep], budget[keep], penalty[keep]
    for weight, sweeper in sweepers[:-1]:
        if combos.shape[0] == 0:
            return best
        if weight <= budget.min():
            continue  # these rows cannot lose enough to rule anything out
        loss, _ = sweeper.best_intercepts(combos)
        keep = loss < budget
        combos, budget, penalty = combos[keep], budget[keep], penalty[keep]
    if combos.shape[0] == 0:
        return best
    loss, intercept = sweepers[-1][1].best_intercepts(combos)
    objective = loss + penalty
    k = int(np.argmin(objective))
    if objective[k] >= best.objective - TOLERANCE:
        return best
    coefs = np.zeros(problem.n_columns, dtype=np.int64)
    coefs[support] = combos[k]
    return Incumbent(coefs, int(intercept[k]), problem.objective(coefs, int(intercept[k])))


@dataclass(frozen=True)
class _Projected:
    """The distinct rows of the data restricted to a support (what the sweep reads)."""

    X: np.ndarray
    pos_w: np.ndarray
    neg_w: np.ndarray
    intercept_lo: int
    intercept_hi: int


def _project(problem: SlimProblem, support: np.ndarray) -> _Projected:
    X, group = np.unique(problem.X[:, support], axis=0, return_inverse=True)
    group = group.reshape(-1)
    return _Projected(X, np.bincount(group, weights=problem.pos_w, minlength=len(X)),
                      np.bincount(group, weights=problem.neg_w, minlength=len(X)),
                      problem.intercept_lo, problem.intercept_hi)


def _block(grids: list[np.ndarray], start: int, stop: int) -> np.ndarray:
    """Combinations number start..stop-1 of one value per grid (row-major), one per row
    (one empty row when there are no grids)."""
    if not grids:
        return np.zeros((1, 0))
    index = np.unravel_index(np.arange(start, stop), [len(g) for g in grids])
    return np.stack([g[i] for g, i in zip(grids, index)], axis=1).astype(np.float64)


def _scaling_is_safe(problem: SlimProblem, support: np.ndarray) -> bool:
    """Dividing a vector by a common divisor keeps it (and its intercept) in the box."""
    return bool(np.all(problem.coef_lo[support] <= 0) and np.all(problem.coef_hi[support] >= 0)
                and problem.intercept_lo <= 0 <= problem.intercept_hi)
