"""A strong integer scoring system in a second or two: the incumbent every backend starts from
(``--solver auto`` and CP-SAT, the integer program of ``solvers/fit.py``, data reduction and
the repair of constrained warm starts all call :func:`warm_start`).

Its objective is an upper bound that tightens the exact search and the IP (fewer features
allowed, smaller big-M constants, a cutoff) and its model seeds the solver. Every step is
judged on the exact objective (weighted 0-1 error + C0 per feature + epsilon L1), each
coefficient vector with its optimal intercept from the sweep (:mod:`.sweep`):
1. rounding (milliseconds, reported at once): the class-mean difference and a ridge-logistic
   fit on the distinct rows, each scaled so its largest coefficient is 1, 2, ..., max|coef|,
   rounded and truncated to its k largest weights for every k, plus the empty model;
2. beam search over supports (:mod:`.beam`, after FasterRisk): a path of supports grown one
   feature at a time on the logistic loss, the best few kept per size, each rounded along
   its ray at every scale;
3. local search from the best rounded model and the best models of the best few supports:
   single-coefficient changes (all values of a column when its range has at most
   MAX_CANDIDATES, else the small ones and a geometric spread up to its bounds; each
   column's moves cost only its non-zero rows) until none improves; then, from the best
   model (from every start on tiny problems), also swaps of one feature for another and
   (small problems) changes of two coefficients at once.
Steps 2 and 3 run to the end of a work budget counted in candidate x row entries, never
timed, so the model depends only on the problem and ``work`` (the clock is a safety net).
Then, when ``seconds`` allow, the same moves again until ``seconds`` have passed (the
local search that ``--solver auto`` runs after its first exhaustive plan).
Predictions follow the IP's margin rule (score + intercept >= gamma) where the problem's
margin is not exact, so the model is always one the IP can represent (elsewhere that rule
is the runtime's, score > 0). Constraints beyond the box, max_features and min_features
are not searched over: the objective of the model returned counts their prices
(:meth:`SlimProblem.objective`), and :mod:`.repair` makes a model meet them.
Each improvement is reported through ``on_improve`` so a caller can show (and keep) it.
Why: exact search proves optimality much faster from a near-optimal incumbent (it prunes),
and a user who interrupts still gets a good model.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from ..problem.slim import SlimProblem
from .beam import Budget, beam_candidates
from .sweep import Sweeper

# Two-coefficient moves are tried only when rows x features, and their number, are at most this.
PAIR_MOVE_LIMIT = 2e5
# Candidate-by-row entries evaluated between two looks at the clock (and before the first report).
ENTRIES_PER_CALL = 1e6
# Default work of the deterministic phases (candidate x row entries, see beam.Budget), about 1-2 s
# on adult, and the clock's safety net for them.
WORK = 4e7
PAIR_SHARE = 0.25  # two-coefficient moves only when a full pass of them costs at most this share of the work left
TINY_PAIR_SHARE = 0.002  # ... and from every start (not only the best model) below this share
BEAM_SHARE = 0.5  # of the work, at most, for the beam search (the local search has the rest)
SAFETY_SECONDS = 20.0
LOCAL_STARTS = 5  # supports whose best model the deterministic local search starts from
MAX_CANDIDATES = 41  # values a single move tries per column (all of them for [-20, 20])
# Entries (candidates x columns) of the rounded copies of one direction: on wide data (thousands
# of columns) they keep the k largest weights for the smallest k only, so memory grows with the
# columns, not their square (every k up to about 316 columns at 10 scales).
ROUNDING_ENTRIES = 1e6
# Columns of the logistic direction's Newton steps (a square system in them): on wider data,
# those with the largest mean difference, the others at 0.
LOGISTIC_COLUMNS = 300


@dataclass(frozen=True)
class Incumbent:
    """An integer model and its true objective (:meth:`SlimProblem.objective`)."""

    coef: np.ndarray
    intercept: int
    objective: float


def objective(problem: SlimProblem, loss: np.ndarray, coefs: np.ndarray) -> np.ndarray:
    """The exact objective of each row of ``coefs`` given its loss; +inf where it breaks
    ``max_features`` or ``min_features``."""
    coefs = np.atleast_2d(coefs)
    obj = loss + problem.penalty(coefs)
    size = (coefs != 0).sum(axis=1)
    if problem.max_features is not None:
        obj = np.where(size > problem.max_features, np.inf, obj)
    if problem.min_features is not None:
        obj = np.where(size < problem.min_features, np.inf, obj)
    return obj


def warm_start(problem: SlimProblem, seconds: float = 0.5,
               on_improve: Callable[[Incumbent], None] | None = None,
               start: Incumbent | None = None, max_features: int | None = None,
               work: float | None = None, until: float | None = None) -> Incumbent:
    """The best scoring system found by rounding, beam search and local search (see the
    module doc). Without ``start``, the rounding, the beam search and the local search of its
    best models always run, to the end of ``work`` (candidate x row entries; ``WORK`` by
    default, 0 for the rounding alone): their result depends on the problem and ``work``
    only, the clock stopping them only after ``max(seconds, SAFETY_SECONDS)``. Then, until
    ``seconds`` have passed, more local search (two-coefficient moves on small problems).
    With ``start``, only that last local search runs, from that model: until ``seconds`` have
    passed, or given ``work``, to the end of that many entries (a reproducible run's local
    search, ``solvers/options.py``). ``max_features``
    caps the model's size below the problem's own limit. ``until`` (a ``time.monotonic()``
    instant: the command's deadline) stops every phase, work budget or not."""
    if max_features is not None and (problem.max_features is None or max_features < problem.max_features):
        problem = replace(problem, max_features=max_features)
    began = time.monotonic()
    until = math.inf if until is None else until
    deadline = min(began + seconds, until)
    sweeper = Sweeper(problem, margin=None if problem.gamma_exact else problem.gamma)
    chunk = max(16, int(ENTRIES_PER_CALL // max(1, problem.X.shape[0])))
    best = start
    if start is None:
        budget = Budget(WORK if work is None else float(work), min(began + max(seconds, SAFETY_SECONDS), until))
        pool = _Pool(sweeper, problem, on_improve)
        w = _mean_difference(problem)  # the empty model and the direction rounded at full scale: at once
        pool.add(_candidates(problem, w, scales=(_top(problem),), sizes=(0, problem.n_columns)))
        for direction in (w, _logistic_direction(problem)) if budget.entries > 0 else (w,):
            candidates = _candidates(problem, direction)  # a few per column, whatever the budget
            for first in range(0, candidates.shape[0], chunk):
                pool.add(candidates[first:first + chunk])
        rounded = pool.best  # where the local search of the previous warm start began
        rows = max(1, problem.X.shape[0])
        if budget.entries > 0:
            def evaluate(coefs: np.ndarray) -> float:
                budget.spend(coefs.shape[0] * rows)
                return pool.add(coefs)
            beam_candidates(problem, _top(problem), pool.best.objective, evaluate, budget, share=BEAM_SHARE)
        best = pool.best
        for begin in [rounded, *pool.starts()] if budget.entries > 0 else ():
            found = _descend(sweeper, problem, begin, chunk, budget, wide=_pairs_cheap(problem, budget, TINY_PAIR_SHARE))
            if found.objective < best.objective - 1e-12:
                best = found
                if on_improve is not None:
                    on_improve(best)
        if budget.entries > 0:
            best = _descend(sweeper, problem, best, chunk, budget, on_improve)
    if start is not None and work is not None:
        best = _descend(sweeper, problem, best, chunk, Budget(float(work), until), on_improve)
    elif time.monotonic() < deadline:
        best = _descend(sweeper, problem, best, chunk, Budget(math.inf, deadline), on_improve)
    return best


class _Pool:
    """The best model evaluated so far (reported through ``on_improve``) and the best model
    of each support, whose best few start the local search."""

    def __init__(self, sweeper: Sweeper, problem: SlimProblem, on_improve) -> None:
        self.sweeper, self.problem, self.on_improve = sweeper, problem, on_improve
        self.best: Incumbent | None = None
        self.by_support: dict[bytes, tuple[float, bytes, np.ndarray]] = {}

    def add(self, coefs: np.ndarray) -> float:
        """Evaluate ``coefs``; the best objective among them."""
        if coefs.shape[0] == 0:
            return float("inf")
        loss, intercept = self.sweeper.best_intercepts(coefs)
        obj = objective(self.problem, loss, coefs)
        for k in np.flatnonzero(np.isfinite(obj)):
            key = (coefs[k] != 0).tobytes()
            value = (float(obj[k]), coefs[k].astype(np.int64).tobytes(), coefs[k])
            if key not in self.by_support or value[:2] < self.by_support[key][:2]:
                self.by_support[key] = value
        k = int(np.argmin(obj))
        if self.best is None or obj[k] < self.best.objective - 1e-12:
            coef = coefs[k].astype(np.int64)
            value = problem_objective(self.problem, coef, int(intercept[k]), obj[k])
            self.best = Incumbent(coef, int(intercept[k]), value)
            if self.on_improve is not None:
                self.on_improve(self.best)
        return float(obj[k])

    def starts(self) -> list[Incumbent]:
        """The best models of the LOCAL_STARTS best supports (ties by their integers)."""
        chosen = sorted(self.by_support.values(), key=lambda v: v[:2])[:LOCAL_STARTS]
        return [_evaluate(self.sweeper, self.problem, v[2][None, :]) for v in chosen]


def problem_objective(problem: SlimProblem, coef: np.ndarray, intercept: int, value: float) -> float:
    """The true objective of a model (+inf stays +inf: a model breaking the size limits)."""
    return problem.objective(coef, intercept) if np.isfinite(value) else float("inf")


def _descend(sweeper: Sweeper, problem: SlimProblem, best: Incumbent, chunk: int, budget: Budget,
             on_improve: Callable[[Incumbent], None] | None = None, wide: bool = True) -> Incumbent:
    """Local search from ``best`` until no move improves or the budget is spent. Moves: one
    coefficient changed (the values of :func:`_values`, columns in order: the best move of the
    first block of columns, about ``chunk`` moves, holding an improving one is taken); when
    none improves, one feature swapped for another at any weight (the best swap of the
    first dropped feature that has an improving one); on small problems, when neither does,
    two coefficients changed at once if a pass of those costs at most PAIR_SHARE of the
    budget left (swaps and pairs only when ``wide``). Each column's moves cost its non-zero
    rows (:meth:`Sweeper.one_column`); every model taken is checked on the exact objective."""
    while not budget.spent:
        coef = best.coef.astype(np.float64)
        pick = _best_single(sweeper, problem, coef, best.objective, chunk, budget)
        if pick is None and wide:
            pick = _best_swap(sweeper, problem, coef, best.objective, budget)
        if pick is None and wide and _pairs_cheap(problem, budget):
            pick = _best_pair(sweeper, problem, best, chunk, budget)
        if pick is None:
            break
        found = _evaluate(sweeper, problem, pick[None, :])
        if found.objective >= best.objective - 1e-12:
            break  # the float scores disagreed with the exact objective: stop here
        best = found
        if on_improve is not None:
            on_improve(best)
    return best


def _pairs_affordable(problem: SlimProblem) -> bool:
    """Whether two-coefficient moves are cheap enough to try (rows x columns and their number
    at most PAIR_MOVE_LIMIT)."""
    return problem.X.shape[0] * problem.n_columns <= PAIR_MOVE_LIMIT and _pair_count(problem) <= PAIR_MOVE_LIMIT


def _pairs_cheap(problem: SlimProblem, budget: Budget, share: float = 0.0) -> bool:
    """Whether a pass of two-coefficient moves is affordable and costs at most ``share``
    (PAIR_SHARE by default) of the work left."""
    share = share or PAIR_SHARE
    return _pairs_affordable(problem) and _pair_count(problem) * problem.X.shape[0] <= share * budget.entries


def _best_pair(sweeper: Sweeper, problem: SlimProblem, best: Incumbent, chunk: int,
               budget: Budget) -> np.ndarray | None:
    """The best two-coefficient move of the first block that holds one beating ``best``."""
    moves = _pair_moves(best.coef, problem)
    rows = max(1, problem.X.shape[0])
    for first in range(0, moves.shape[0], chunk):
        trial = _evaluate(sweeper, problem, moves[first:first + chunk])
        budget.spend(min(chunk, moves.shape[0] - first) * rows)
        if trial.objective < best.objective - 1e-12:
            return trial.coef.astype(np.float64)
        if budget.spent:
            break
    return None


def _column_objectives(sweeper: Sweeper, problem: SlimProblem, coef: np.ndarray, base: np.ndarray, j: int,
                       values: np.ndarray, budget: Budget) -> np.ndarray:
    """The objective of ``coef`` with ``coef[j]`` set to each of ``values`` (+inf where the
    size limits are broken); ``base`` is ``coef``'s scores."""
    loss, _ = sweeper.one_column(coef, j, values, base)
    budget.spend(len(values) * max(1, np.count_nonzero(sweeper.column(j))) + sweeper.width)
    rest = float(problem.penalty(coef)) - (float(problem.c0[j]) + problem.epsilon * abs(coef[j]) if coef[j] else 0.0)
    obj = loss + rest + np.where(values != 0, problem.c0[j], 0.0) + problem.epsilon * np.abs(values)
    sizes = int(np.count_nonzero(coef)) - int(coef[j] != 0) + (values != 0)
    if problem.max_features is not None:
        obj = np.where(sizes > problem.max_features, np.inf, obj)
    if problem.min_features is not None:
        obj = np.where(sizes < problem.min_features, np.inf, obj)
    return obj


def _best_single(sweeper: Sweeper, problem: SlimProblem, coef: np.ndarray, bound: float, chunk: int,
                 budget: Budget) -> np.ndarray | None:
    """The best single-coefficient move below ``bound`` among the first block of columns
    (about ``chunk`` moves) that holds one; None if no column does."""
    base = sweeper.scores(coef)
    pick, count = None, 0
    for j in range(len(coef)):
        pick, tried = _better_value(sweeper, problem, coef, base, j, coef[j], bound, pick, budget)
        count += tried
        if (pick is not None and count >= chunk) or budget.spent:
            break
    if pick is None:
        return None
    moved = coef.copy()
    moved[pick[1]] = pick[2]
    return moved


def _better_value(sweeper: Sweeper, problem: SlimProblem, coef: np.ndarray, base: np.ndarray, j: int,
                  current: float, bound: float, pick: tuple | None, budget: Budget) -> tuple[tuple | None, int]:
    """``pick`` (objective, column, value), replaced by the best value of column ``j`` other
    than ``current`` when that is below ``bound`` and ``pick``; and how many values were tried."""
    values = _values(int(problem.coef_lo[j]), int(problem.coef_hi[j]))
    values = values[values != current]
    if not len(values):
        return pick, 0
    obj = _column_objectives(sweeper, problem, coef, base, int(j), values, budget)
    k = int(np.argmin(obj))
    if obj[k] < bound - 1e-12 and (pick is None or obj[k] < pick[0]):
        pick = (float(obj[k]), int(j), float(values[k]))
    return pick, len(values)


def _best_swap(sweeper: Sweeper, problem: SlimProblem, coef: np.ndarray, bound: float,
               budget: Budget) -> np.ndarray | None:
    """The best model below ``bound`` with one feature of ``coef`` dropped and a new one
    added at any value, for the first dropped feature that has one; None if none does."""
    base = sweeper.scores(coef)
    for j in np.flatnonzero(coef):
        dropped = coef.copy()
        dropped[j] = 0.0
        rest = base - coef[j] * sweeper.column(int(j))
        pick = None
        for k in np.flatnonzero(coef == 0):
            pick, _ = _better_value(sweeper, problem, dropped, rest, int(k), 0, bound, pick, budget)
            if budget.spent:
                return None
        if pick is not None:
            dropped[pick[1]] = pick[2]
            return dropped
    return None


def _evaluate(sweeper: Sweeper, problem: SlimProblem, coefs: np.ndarray) -> Incumbent:
    loss, intercept = sweeper.best_intercepts(coefs)
    obj = objective(problem, loss, coefs)
    k = int(np.argmin(obj))
    coef = coefs[k].astype(np.int64)
    if not np.isfinite(obj[k]):
        return Incumbent(coef, int(intercept[k]), float("inf"))
    return Incumbent(coef, int(intercept[k]), problem.objective(coef, int(intercept[k])))


def _top(problem: SlimProblem) -> int:
    """The largest coefficient magnitude the box allows."""
    return int(max(np.abs(problem.coef_lo).max(initial=0), np.abs(problem.coef_hi).max(initial=0), 1))


def _candidates(problem: SlimProblem, w: np.ndarray, scales: tuple[int, ...] | None = None,
                sizes: tuple[int, ...] | None = None) -> np.ndarray:
    """Copies of the direction ``w`` keeping its k largest weights (k in ``sizes``; by default
    every k, or as many of the smallest as ROUNDING_ENTRIES allows, and all of them; k = 0 is
    the empty model), scaled so the largest is m (m in ``scales``, 1 to the largest allowed by
    default) and rounded into the box."""
    p = problem.n_columns
    w = np.clip(w, np.minimum(problem.coef_lo, 0), np.maximum(problem.coef_hi, 0))  # sign constraints
    scale = np.max(np.abs(w)) if p else 0.0
    scales = tuple(range(1, _top(problem) + 1)) if scales is None else scales
    if sizes is None:
        smallest = max(1, int(ROUNDING_ENTRIES // (len(scales) * max(p, 1))))
        sizes = (p, *range(0, min(p, smallest)))
    out = [np.zeros(p)]
    if scale > 0:
        order = np.argsort(-np.abs(w))
        for k in sizes:
            kept = np.zeros(p)
            kept[order[:k]] = w[order[:k]] / scale
            for m in scales:
                out.append(np.clip(np.round(kept * m), problem.coef_lo, problem.coef_hi))
    return _unique_rows(np.array(out))


def _unique_rows(a: np.ndarray) -> np.ndarray:
    """``a`` without repeated rows, first occurrences kept in their order (rows hashed by
    their bytes: linear in the entries, where sorting the rows costs seconds on wide data)."""
    a = np.ascontiguousarray(a, dtype=np.float64) + 0.0  # + 0.0: -0.0 and 0.0 are one value
    seen: set[bytes] = set()
    first = []
    for i, row in enumerate(a):
        key = row.tobytes()
        if key not in seen:
            seen.add(key)
            first.append(i)
    return a[first]


def _mean_difference(problem: SlimProblem) -> np.ndarray:
    """Positive minus negative class mean of each column over its variance: a direction that
    costs one pass over the data, so the first model is ready at once."""
    total = problem.pos_w.sum(), problem.neg_w.sum()
    mean_pos = problem.pos_w @ problem.X / max(total[0], 1e-300)
    mean_neg = problem.neg_w @ problem.X / max(total[1], 1e-300)
    var = problem.X.var(axis=0)
    var[var == 0] = 1.0
    return (mean_pos - mean_neg) / var


def _logistic_direction(problem: SlimProblem, ridge: float = 1e-2, iterations: int = 6) -> np.ndarray:
    """Coefficients (in the data's units) of a ridge-penalised logistic regression on the rows
    (Newton steps until converged or ``iterations``), over at most LOGISTIC_COLUMNS columns:
    those of the largest mean difference when there are more (the others get 0)."""
    if problem.n_columns > LOGISTIC_COLUMNS:
        kept = np.sort(np.argsort(-np.abs(_mean_difference(problem)), kind="stable")[:LOGISTIC_COLUMNS])
        w = np.zeros(problem.n_columns)
        w[kept] = _logistic_fit(problem.X[:, kept], problem, ridge, iterations)
        return w
    return _logistic_fit(problem.X, problem, ridge, iterations)


def _logistic_fit(X: np.ndarray, problem: SlimProblem, ridge: float, iterations: int) -> np.ndarray:
    """:func:`_logistic_direction` on the columns ``X`` (the problem gives the class weights)."""
    mean = X.mean(axis=0)
    sd = X.std(axis=0)
    sd[sd == 0] = 1.0
    Z = np.hstack([(X - mean) / sd, np.ones((X.shape[0], 1))])
    total = problem.pos_w + problem.neg_w
    target = np.divide(problem.pos_w, total, out=np.zeros_like(total), where=total > 0)
    beta = np.zeros(Z.shape[1])
    reg = ridge * np.eye(Z.shape[1])
    reg[-1, -1] = 0.0
    for _ in range(iterations):
        prob = 1.0 / (1.0 + np.exp(-np.clip(Z @ beta, -30, 30)))
        grad = Z.T @ (total * (prob - target)) + reg @ beta
        hess = (Z * (total * prob * (1 - prob))[:, None]).T @ Z + reg + 1e-9 * np.eye(Z.shape[1])
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.max(np.abs(step)) < 1e-6:
            break
    return beta[:-1] / sd


def _values(lo: int, hi: int) -> np.ndarray:
    """Coefficient values a single move tries for a column: all of [lo, hi] when few, else
    the small ones and a geometric spread up to the bounds."""
    if hi - lo + 1 <= MAX_CANDIDATES:
        return np.arange(lo, hi + 1)
    spread = np.unique(np.round(np.geomspace(1, max(abs(lo), abs(hi), 1), 12)).astype(np.int64))
    values = np.concatenate((np.arange(-10, 11), spread, -spread, [lo, hi, 0]))
    return np.unique(values[(values >= lo) & (values <= hi)])


def _pair_count(problem: SlimProblem) -> int:
    """How many two-coefficient moves there are (about)."""
    sizes = (problem.coef_hi - problem.coef_lo).astype(np.float64)
    return int((sizes.sum() ** 2 - (sizes ** 2).sum()) / 2)


def _pair_moves(coefs: np.ndarray, problem: SlimProblem) -> np.ndarray:
    """Every vector that differs from ``coefs`` in exactly two coefficients."""
    p = len(coefs)
    out = []
    for i in range(p):
        vi = np.arange(problem.coef_lo[i], problem.coef_hi[i] + 1)
        vi = vi[vi != coefs[i]]
        for j in range(i + 1, p):
            vj = np.arange(problem.coef_lo[j], problem.coef_hi[j] + 1)
            vj = vj[vj != coefs[j]]
            a, b = np.meshgrid(vi, vj, indexing="ij")
            block = np.repeat(coefs[None, :].astype(np.float64), a.size, axis=0)
            block[:, i] = a.ravel()
            block[:, j] = b.ravel()
            out.append(block)
    return np.vstack(out) if out else np.empty((0, p))
