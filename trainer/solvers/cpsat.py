"""OR-Tools CP-SAT for the SLIM problem: exact integer arithmetic, no big-M, hinted.

Why CP-SAT: the 0-1 loss is an implication (``z_k`` -> score_k >= 1, not ``z_k`` -> score_k
<= 0), which CP-SAT propagates and learns from directly instead of through a weak LP
relaxation of big-M rows; with two workers it proves the hard small instances (haberman,
breastcancer) several times faster than CBC or HiGHS on the big-M IP.

Exactness (:func:`encode`): a column whose values are decimals k / 10^d (d <= 6) is scaled to
integers, each distinct row by 10^d of its own most decimals (1 for integer rows), so
"score > 0" is "scaled score >= 1". Up to two real-valued columns (e.g. heart's heart-rate
ratio) are handled by a per-row threshold: with integer coefficient w_r in a finite range,
the row's real term takes finitely many values, so "S_k + v_k(w_r) > 0" is "S_k >=
table_k[w_r]", looked up by an element constraint. Thresholds are computed in exact rational
arithmetic from the floats, with a bound on the float evaluation's rounding, so the encoded
prediction is the runtime's float "score > 0" (a row whose float score could round to the
other side of 0 is left free: a relaxation, reported as a gap, never a wrong certificate).
The objective is scaled to integers with enough resolution that the rounding of C0, the row
weights and epsilon cannot reorder two models (``RESOLUTION`` steps per epsilon).
"""
from __future__ import annotations

import itertools
import math
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np

from ..problem.bounds import size_limit
from ..problem.slim import SlimProblem
from ..search.warm_start import Incumbent
from .options import TINY, SolveOptions
from .progress import Progress, relative_gap

# Integer steps of the scaled objective per epsilon (the L1 unit).
RESOLUTION = 1000
# Most decimals of a column whose values count as exact decimals (k / 10^d).
MAX_DECIMALS = 6
# Real-valued columns (neither integer nor decimal) a row's threshold may depend on, and the
# most entries of one threshold table (the product of their coefficient ranges).
MAX_REAL_COLUMNS = 2
MAX_TABLE = 10_000
# Most share of the row weight whose prediction a score of exactly 0 leaves free (rows with
# several fractional decimals, whose float sum may round either way): beyond it the
# relaxation is worthless (spambase: the all-zero model would "prove" a bound of 0.02 in a
# second) and the data go to the big-M IP instead (heart: 7.6 %).
MAX_FREE_SHARE = 0.1
# Scaled scores stay below this: exact in CP-SAT's int64 and in a float sum.
MAX_SCALED_SCORE = 2.0 ** 53
UNIT_ROUNDOFF = 2.0 ** -53


def available() -> bool:
    """Whether OR-Tools is installed."""
    try:
        from ortools.sat.python import cp_model  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass(frozen=True)
class CpsatResult:
    """The best model found, the proven lower bound and how the solve ended ("optimal",
    "time_limit", "interrupted", or "infeasible": no model and none exists)."""

    incumbent: Incumbent | None
    lower_bound: float
    status: str


def column_decimals(values: np.ndarray) -> int | None:
    """The fewest decimals d <= MAX_DECIMALS such that every value is a multiple of 10^-d
    (within 1e-9 relative, the slack of a float read from text), None for a real column."""
    for d in range(MAX_DECIMALS + 1):
        scaled = values * 10.0 ** d
        if np.all(np.abs(scaled - np.round(scaled)) <= 1e-9 * np.maximum(1.0, np.abs(scaled))):
            return d
    return None


@dataclass(frozen=True)
class Encoding:
    """Each distinct row's prediction in integer arithmetic.

    With S_k = multiplier[k] * intercept + scaled[k] @ coef (decimal columns only, as exact
    decimals scaled to integers) and e the index of the real columns' coefficients in the
    product of their ranges (row-major; a single entry without real columns), the runtime's
    float score of row k is > 0 whenever S_k >= high[k][e] and <= 0 whenever S_k < low[k][e].
    ``low == high`` on every row whose float score cannot land on the other side of 0 by
    rounding (all rows of integer and one-decimal data); elsewhere S_k in [low, high) leaves
    the prediction free, a relaxation that keeps the lower bound valid.
    """

    multiplier: list[int]
    scaled: np.ndarray
    real: list[int]
    ranges: list[range]
    low: list[tuple[int, ...]]
    high: list[tuple[int, ...]]


def encode(problem: SlimProblem) -> Encoding | None:
    """The integer encoding of ``problem`` (None beyond MAX_REAL_COLUMNS real-valued columns,
    MAX_TABLE entries per threshold table, scores beyond exact integer arithmetic or
    MAX_FREE_SHARE of the weight in rows a zero score leaves free)."""
    X = problem.X
    decimals = [column_decimals(X[:, j]) for j in range(problem.n_columns)]
    real = [j for j, d in enumerate(decimals) if d is None]
    ranges = [range(int(problem.coef_lo[j]), int(problem.coef_hi[j]) + 1) for j in real]
    if len(real) > MAX_REAL_COLUMNS or math.prod(len(r) for r in ranges) > MAX_TABLE:
        return None
    exact_cols = [j for j, d in enumerate(decimals) if d is not None]
    if any(float(np.abs(X[:, j]).max(initial=0.0)) * 10.0 ** decimals[j] >= MAX_SCALED_SCORE for j in exact_cols):
        return None  # before any int64 below could overflow
    digits = np.zeros(X.shape, dtype=np.int64)  # x = units / 10^digits, exactly as a decimal
    units = np.zeros(X.shape, dtype=np.int64)
    for j in exact_cols:
        digits[:, j], units[:, j] = _least_decimals(X[:, j], decimals[j])
    row_digits = digits.max(axis=1)
    multiplier = [10 ** int(d) for d in row_digits]
    scaled = units * 10 ** (row_digits[:, None] - digits)
    widest = np.maximum(np.abs(problem.coef_lo), np.abs(problem.coef_hi)).astype(float)
    reach = max(abs(problem.intercept_lo), abs(problem.intercept_hi))
    if float((10.0 ** row_digits * (reach + np.abs(X) @ widest)).max(initial=0.0)) >= MAX_SCALED_SCORE:
        return None
    delta = _rounding_bound(problem, digits, units, exact_cols, widest, reach)
    zero_exact = _exact_at_zero(problem, digits, units, exact_cols)
    weight = problem.pos_w + problem.neg_w
    if float(weight[~zero_exact].sum()) > MAX_FREE_SHARE * float(weight.sum()):
        return None  # the all-zero model would leave those rows free: a bound near 0
    tables: dict[tuple, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    low, high = [], []
    for k in range(X.shape[0]):
        key = (multiplier[k], tuple(float(X[k, j]) for j in real), zero_exact[k])
        if key not in tables:
            tables[key] = _thresholds(multiplier[k], key[1], ranges, Fraction(delta) * multiplier[k], zero_exact[k])
        low.append(tables[key][0])
        high.append(tables[key][1])
    return Encoding(multiplier, scaled, real, ranges, low, high)


def _least_decimals(values: np.ndarray, most: int) -> tuple[np.ndarray, np.ndarray]:
    """Per value of a column of ``most`` decimals: its own fewest decimals and its integer
    units (value = units / 10^decimals)."""
    units = np.round(values * 10.0 ** most).astype(np.int64)
    digits = np.full(len(values), most, dtype=np.int64)
    for _ in range(most):
        whole = (units % 10 == 0) & (digits > 0)
        units = np.where(whole, units // 10, units)
        digits -= whole
    return digits, units


def _rounding_bound(problem: SlimProblem, digits: np.ndarray, units: np.ndarray, exact_cols: list[int],
                    widest: np.ndarray, reach: int) -> float:
    """An upper bound, over rows and models, on |float score - score with exact decimals|:
    the float evaluation's rounding (at most 2P + 4 roundings of terms below the row's
    largest possible magnitude) plus the distance of each decimal value from its decimal,
    doubled for the rounding of this very computation."""
    X = problem.X
    magnitude = reach + np.abs(X) @ widest
    drift = np.zeros(X.shape[0])
    for j in exact_cols:
        decimal = units[:, j] / 10.0 ** digits[:, j]
        drift += widest[j] * np.abs(X[:, j] - decimal)
    per_row = (2 * problem.n_columns + 4) * UNIT_ROUNDOFF * magnitude + drift
    return 2.0 * float(per_row.max(initial=0.0))


def _exact_at_zero(problem: SlimProblem, digits: np.ndarray, units: np.ndarray, exact_cols: list[int]) -> np.ndarray:
    """Per row, whether a model whose exact-decimal score is 0 also gets float score 0 when its
    real-column terms are integers: true when at most one decimal column has a non-integer
    value in the row and float multiplies that value by each allowed coefficient to the
    exact integer whenever the decimal product is one (then every term is an exact integer
    and so is their float sum)."""
    fractional = np.zeros(digits.shape, dtype=bool)
    fractional[:, exact_cols] = digits[:, exact_cols] > 0
    exact = fractional.sum(axis=1) <= 1
    checked: dict[tuple[int, float], bool] = {}
    for k, j in zip(*np.nonzero(fractional & exact[:, None])):
        key = (int(j), float(problem.X[k, j]))
        if key not in checked:
            checked[key] = _products_exact(problem, int(j), key[1], int(units[k, j]), int(digits[k, j]))
        exact[k] = checked[key]
    return exact


def _products_exact(problem: SlimProblem, j: int, value: float, unit: int, digits: int) -> bool:
    """Whether float w * value is exactly the integer w * unit / 10^digits for every allowed
    coefficient w of column j that makes the decimal product an integer."""
    scale = 10 ** digits
    return all(float(np.int64(w) * value) == w * unit // scale
               for w in range(int(problem.coef_lo[j]), int(problem.coef_hi[j]) + 1) if w * unit % scale == 0)


def _thresholds(multiplier: int, reals: tuple[float, ...], ranges: list[range], delta: Fraction,
                zero_exact: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For each coefficient vector w of the real columns: the least S that may make the float
    score positive and the least S that surely does, where the score is (S + v) / multiplier
    with v = multiplier * w . reals exactly (floats are dyadic rationals) and ``delta``
    bounds the float rounding in units of 1/multiplier: S + v > delta is surely positive,
    S + v < -delta surely not, and S + v = 0 is not positive when ``zero_exact`` and each
    real term is an integer (the float score is then exactly 0)."""
    ratios = [x.as_integer_ratio() for x in reals]
    den = max((b for _, b in ratios), default=1)  # powers of two: the largest is their lcm
    dn, dd = delta.numerator, delta.denominator
    low, high = [], []
    for ws in itertools.product(*ranges):
        num = multiplier * sum(w * a * (den // b) for w, (a, b) in zip(ws, ratios))  # v = num / den
        surely = (dn * den - num * dd) // (dd * den) + 1  # floor(delta - v) + 1
        maybe = -((num * dd + dn * den) // (dd * den))  # least S with S + v >= -delta
        if (zero_exact and dn < dd and num % den == 0
                and all((w * a) % b == 0 for w, (a, b) in zip(ws, ratios))):
            maybe = -(num // den) + 1  # S = -v scores exactly 0: not positive
        low.append(maybe)
        high.append(surely)
    return tuple(low), tuple(high)


def solve(problem: SlimProblem, incumbent: Incumbent | None, options: SolveOptions,
          progress: Callable[[Progress], None] | None = None,
          predictions: np.ndarray | None = None) -> CpsatResult | None:
    """Solve ``problem`` exactly (None when :func:`encode` refuses the data) by
    ``options.deadline``, with ``options.threads`` workers and ``options.seed``; with a
    ``options.work_limit``, one worker stops after that much deterministic time (status
    "time_limit"), the same answer on any machine and under any load.

    ``predictions`` (1 positive, 0 negative, -1 free, per distinct row) restricts the search
    to the models that predict so (:mod:`..search.no_error`); status "infeasible" when none does.

    Ctrl-C during the solve stops the search and returns the best model with status
    "interrupted" instead of losing it.
    """
    from ortools.sat.python import cp_model

    encoding = encode(problem)
    if encoding is None:
        return None
    start = time.monotonic()
    upper = incumbent.objective if incumbent is not None else math.inf
    limit = size_limit(problem, upper)
    p = problem.n_columns
    scale = RESOLUTION / problem.epsilon if problem.epsilon > 0 else RESOLUTION / _smallest_weight(problem)

    model = cp_model.CpModel()
    coef, alpha, absolute = [], [], []
    for j in range(p):
        lo, hi = int(problem.coef_lo[j]), int(problem.coef_hi[j])
        if limit == 0 or not np.any(problem.X[:, j] != 0):
            lo = hi = 0
        coef.append(model.NewIntVar(lo, hi, f"coef_{j}"))
        alpha.append(model.NewBoolVar(f"alpha_{j}"))
        model.Add(coef[j] == 0).OnlyEnforceIf(alpha[j].Not())
        model.Add(coef[j] != 0).OnlyEnforceIf(alpha[j])
        absolute.append(model.NewIntVar(0, max(abs(lo), abs(hi)), f"abs_{j}"))
        model.AddAbsEquality(absolute[j], coef[j])
    intercept = model.NewIntVar(int(problem.intercept_lo), int(problem.intercept_hi), "intercept")
    if limit is not None and limit < p:
        model.Add(sum(alpha) <= max(limit, 0))
    if problem.min_features:
        model.Add(sum(alpha) >= problem.min_features)

    threshold = Thresholds(model, encoding, coef, problem.coef_lo)
    terms, z = [], []
    for k in range(problem.X.shape[0]):
        zk = model.NewBoolVar(f"z_{k}")
        z.append(zk)
        if predictions is not None and predictions[k] >= 0:
            model.Add(zk == int(predictions[k]))
        score = encoding.multiplier[k] * intercept + sum(int(encoding.scaled[k, j]) * coef[j]
                                                         for j in np.flatnonzero(encoding.scaled[k]))
        if problem.pos_w[k] > 0:
            model.Add(score >= threshold(encoding.low[k])).OnlyEnforceIf(zk)
            terms.append(int(round(problem.pos_w[k] * scale)) * (1 - zk))
        if problem.neg_w[k] > 0:
            model.Add(score <= threshold(encoding.high[k]) - 1).OnlyEnforceIf(zk.Not())
            terms.append(int(round(problem.neg_w[k] * scale)) * zk)
    terms += [int(round(problem.c0[j] * scale)) * alpha[j] for j in range(p)]
    terms += [int(round(problem.epsilon * scale)) * absolute[j] for j in range(p)]
    model.Minimize(sum(terms))
    if incumbent is not None:
        _hint(model, problem, incumbent, coef, alpha, absolute, intercept, z)
        threshold.hint(incumbent.coef)

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = options.deadline.limit()
    threads = max(1, options.threads) if options.work_limit is None else 1  # one worker is deterministic
    if options.work_limit is not None:
        solver.parameters.max_deterministic_time = max(TINY, options.work_limit)
    solver.parameters.num_workers = threads
    # Every worker runs a full-problem search (with 2: core-guided search, which raises the
    # lower bound, beside the default LP search; LNS interleaves): heart's bound at 120 s
    # 0.073 instead of 0.030, and mammo, haberman, breastcancer proven faster.
    solver.parameters.num_full_subsolvers = threads
    solver.parameters.random_seed = options.seed
    # Rounding each coefficient of the scaled objective errs by at most half a step per term
    # (the L1 terms are exact: epsilon * scale = RESOLUTION), so the true objective of any
    # model is within ``slack`` of its scaled value.
    slack = (len(terms) + 1) / scale
    best = {"incumbent": incumbent}

    class Watch(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            c = np.array([self.Value(v) for v in coef], dtype=np.int64)
            found = Incumbent(c, int(self.Value(intercept)), problem.objective(c, int(self.Value(intercept))))
            if best["incumbent"] is None or found.objective < best["incumbent"].objective:
                best["incumbent"] = found
            if progress is not None:
                bound = self.BestObjectiveBound() / scale - slack
                progress(Progress(elapsed=time.monotonic() - start, incumbent=found.objective, bound=bound,
                                  gap=relative_gap(found.objective, bound), message="cpsat"))

    interrupted = threading.Event()
    status = _solve_interruptibly(solver, model, Watch(), interrupted)
    found = best["incumbent"]
    if status == cp_model.INFEASIBLE:
        if incumbent is None:
            return CpsatResult(None, math.inf, "infeasible")
        return CpsatResult(incumbent, incumbent.objective, "optimal")  # nothing beats it
    bound = solver.BestObjectiveBound() / scale - slack
    if found is not None:
        bound = min(bound, found.objective)
    if status == cp_model.OPTIMAL and found is not None:
        # The true optimum is within the rounding slack of the solver's, unless a relaxed row
        # (see Encoding) made the solver's objective optimistic: a gap remains, as at a time limit.
        return CpsatResult(found, bound, "optimal" if found.objective <= bound + 2 * slack else "time_limit")
    # Ctrl-C is seen by _solve_interruptibly itself (not guessed from an early return: CP-SAT
    # also returns early when presolve ends close to its time limit).
    return CpsatResult(found, bound, "interrupted" if interrupted.is_set() else "time_limit")


@dataclass
class Thresholds:
    """The integer or CP-SAT variable each row's threshold table selects: one element
    constraint per distinct table, indexed by the real columns' coefficients (row-major)."""

    model: object
    encoding: Encoding
    coef: list
    coef_lo: np.ndarray
    index: object = 0
    chosen: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        real, ranges = self.encoding.real, self.encoding.ranges
        if len(real) == 1:
            self.index = self.coef[real[0]] - int(self.coef_lo[real[0]])
        elif real:
            self.index = self.model.NewIntVar(0, len(ranges[0]) * len(ranges[1]) - 1, "real_index")
            self.model.Add(self.index == self._entry(self.coef))

    def __call__(self, table: tuple[int, ...]):
        if min(table) == max(table):
            return table[0]
        if table not in self.chosen:
            self.chosen[table] = self.model.NewIntVar(min(table), max(table), f"threshold_{len(self.chosen)}")
            self.model.AddElement(self.index, list(table), self.chosen[table])
        return self.chosen[table]

    def _entry(self, coef):
        """The table index of coefficient values (or variables): row-major over the real columns."""
        entry = 0
        for j, values in zip(self.encoding.real, self.encoding.ranges):
            entry = entry * len(values) + coef[j] - int(self.coef_lo[j])
        return entry

    def hint(self, coef: np.ndarray) -> None:
        """Hint every threshold (and the 2-D index) at the values ``coef`` selects, so that a
        hinted incumbent is a complete solution for CP-SAT to start from."""
        entry = int(self._entry([int(c) for c in coef]))
        if len(self.encoding.real) > 1:
            self.model.AddHint(self.index, entry)
        for table, var in self.chosen.items():
            self.model.AddHint(var, table[entry])


def _solve_interruptibly(solver, model, callback, interrupted: threading.Event) -> int:
    """``solver.Solve`` with Ctrl-C turned into ``StopSearch`` and recorded in ``interrupted``.

    In the main thread, CP-SAT's own SIGINT catch is off and Python's signal wake-up fd is
    a pipe: Python's C-level handler writes the signal number to it the moment Ctrl-C
    arrives, while CP-SAT runs, and a watcher thread stops the search. Elsewhere (no signal
    handling outside the main thread) CP-SAT catches Ctrl-C itself.
    """
    if threading.current_thread() is not threading.main_thread():
        return solver.Solve(model, callback)
    solver.parameters.catch_sigint_signal = False
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)

    def watch() -> None:
        while True:
            got = os.read(read_end, 64)
            if not got or WATCH_DONE in got:
                return
            if signal.SIGINT in got:
                interrupted.set()
                solver.StopSearch()

    def stop(signum, frame) -> None:
        interrupted.set()
        solver.StopSearch()

    previous = signal.signal(signal.SIGINT, stop)
    previous_fd = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        return solver.Solve(model, callback)
    finally:
        signal.set_wakeup_fd(previous_fd)
        signal.signal(signal.SIGINT, previous)
        os.write(write_end, bytes([WATCH_DONE]))
        watcher.join()
        os.close(read_end)
        os.close(write_end)


#: The byte that tells the Ctrl-C watcher of _solve_interruptibly to end (no signal has it).
WATCH_DONE = 255


def _hint(model, problem: SlimProblem, incumbent: Incumbent, coef, alpha, absolute, intercept, z) -> None:
    scores = problem.scores(incumbent.coef, incumbent.intercept)
    for j, var in enumerate(coef):
        value = int(incumbent.coef[j])
        model.AddHint(var, value)
        model.AddHint(alpha[j], int(value != 0))
        model.AddHint(absolute[j], abs(value))
    model.AddHint(intercept, int(incumbent.intercept))
    for k, zk in enumerate(z):
        model.AddHint(zk, int(scores[k] > 0))


def _smallest_weight(problem: SlimProblem) -> float:
    weights = np.concatenate((problem.pos_w[problem.pos_w > 0], problem.neg_w[problem.neg_w > 0]))
    return float(weights.min()) if len(weights) else 1.0
