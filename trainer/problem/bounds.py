"""Valid bounds on the optimal SLIM model, derived from the data and an incumbent.

Every exact backend uses them to cut the search without losing the optimum:
- :func:`unavoidable_loss`: rows identical on the columns a model uses but labelled both ways
  get one prediction, so the lighter label's weight is lost whatever the coefficients;
- :func:`size_limit`: a model strictly better than the incumbent pays C0 + epsilon per
  non-zero coefficient on top of the unavoidable loss, which caps its number of features;
- :func:`conflict_loss`: four rows a, b (positive) and c, d (negative) with a + b = c + d
  cannot all be right, so disjoint such conflicts are errors no model avoids.
"""
from __future__ import annotations

import math

import numpy as np

from .slim import SlimProblem, free_columns

# Objective values are sums of row weights, C0s and epsilons; float noise is far below this.
TOLERANCE = 1e-12
# Conflicts are looked for only when the pairs of rows of one label are at most this many.
CONFLICT_MAX_PAIRS = 200_000


def unavoidable_loss(problem: SlimProblem, columns: np.ndarray | None = None) -> float:
    """Weighted error no model using only ``columns`` (all columns when None) can avoid."""
    if columns is None:  # the problem's rows are distinct already
        return float(np.minimum(problem.pos_w, problem.neg_w).sum())
    X = problem.X[:, np.asarray(columns, dtype=np.int64)]
    if X.shape[1] == 0:
        return float(min(problem.pos_w.sum(), problem.neg_w.sum()))
    _, group = np.unique(X, axis=0, return_inverse=True)
    group = group.reshape(-1)
    pos = np.bincount(group, weights=problem.pos_w)
    neg = np.bincount(group, weights=problem.neg_w)
    return float(np.minimum(pos, neg).sum())


def size_limit(problem: SlimProblem, upper_bound: float) -> int | None:
    """Most non-zero coefficients a model with objective < ``upper_bound`` can have: -1 when
    no model can, None when no finite limit follows (an infinite bound and no max_features)."""
    limit = problem.feature_cap
    price = problem.feature_price
    if price > 0 and math.isfinite(upper_bound):
        room = upper_bound - unavoidable_loss(problem) - TOLERANCE
        limit = min(limit, int(math.floor(room / price)) if room >= 0 else -1)
    elif problem.max_features is None and len(free_columns(problem)):
        return None
    return max(limit, -1)


def conflict_loss(rows, budget: float) -> float:
    """A lower bound on the loss of every linear model on ``rows`` (distinct integer rows:
    ``X``, ``pos_w``, ``neg_w``, e.g. a problem projected on a support), stopping once it
    exceeds ``budget`` (0 when the rows are too many to pair up).

    Two positive rows a, b and two negative rows c, d with a + b = c + d (a = b allowed)
    cannot all be right: the scores add up the same way, intercept included, so
    score(a) + score(b) > 0 >= score(c) + score(d) is impossible. Conflicts are packed
    greedily, least contested first, each using one unit of weight of each of its rows (a
    row wrong once pays its whole weight, so a row of weight w can settle at most w / unit
    conflicts); each adds the unit to the bound.
    """
    pos = np.flatnonzero(rows.pos_w > 0)
    neg = np.flatnonzero(rows.neg_w > 0)
    if len(pos) == 0 or len(neg) == 0 or (len(pos) ** 2 + len(neg) ** 2) / 2 > CONFLICT_MAX_PAIRS:
        return 0.0
    unit = float(min(rows.pos_w[pos].min(), rows.neg_w[neg].min()))
    pi, pj = np.triu_indices(len(pos))
    ni, nj = np.triu_indices(len(neg))
    sums = np.vstack([rows.X[pos[pi]] + rows.X[pos[pj]], rows.X[neg[ni]] + rows.X[neg[nj]]])
    key = row_keys(sums)
    pos_key, neg_key = key[:len(pi)], key[len(pi):]
    shared = np.intersect1d(pos_key, neg_key)
    if len(shared) == 0:
        return 0.0
    negatives: dict[int, list[tuple[int, int]]] = {}
    for k in np.flatnonzero(np.isin(neg_key, shared)):
        negatives.setdefault(int(neg_key[k]), []).append((int(neg[ni[k]]), int(neg[nj[k]])))
    found: list[tuple[tuple[str, int], ...]] = []
    for k in np.flatnonzero(np.isin(pos_key, shared)):
        a, b = int(pos[pi[k]]), int(pos[pj[k]])
        found += [(("+", a), ("+", b), ("-", c), ("-", d)) for c, d in negatives[int(pos_key[k])]]
        if len(found) > CONFLICT_MAX_PAIRS:
            break
    # Least contested conflicts first: a conflict whose rows sit in few others blocks little.
    contention: dict[tuple[str, int], int] = {}
    for conflict in found:
        for item in set(conflict):
            contention[item] = contention.get(item, 0) + 1
    found.sort(key=lambda conflict: sum(contention[item] for item in set(conflict)))
    room = {("+", int(i)): float(rows.pos_w[i]) for i in pos}
    room.update({("-", int(i)): float(rows.neg_w[i]) for i in neg})
    bound = 0.0
    for conflict in found:
        need: dict[tuple[str, int], float] = {}
        for item in conflict:
            need[item] = need.get(item, 0.0) + unit
        if all(room[item] >= amount - 1e-15 for item, amount in need.items()):
            for item, amount in need.items():
                room[item] -= amount
            bound += unit
            if bound > budget:
                break
    return bound


def row_keys(values: np.ndarray) -> np.ndarray:
    """One integer per row of an integer matrix, equal exactly for equal rows."""
    low = values.min(axis=0)
    spans = (values.max(axis=0) - low + 1).astype(np.int64)
    if np.prod(spans.astype(np.float64)) >= 2.0 ** 62:
        return np.unique(values, axis=0, return_inverse=True)[1].reshape(-1)
    key = np.zeros(values.shape[0], dtype=np.int64)
    for d in range(values.shape[1]):
        key = key * spans[d] + (values[:, d] - low[d]).astype(np.int64)
    return key
