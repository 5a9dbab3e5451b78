"""Data reduction (Section 4.2, Algorithm 2): drop the rows every near-optimal model agrees on.

Proxy (Eq. ReductionProxy): the hinge loss at the IP's margin ``gamma``, with the L0 penalty
replaced by its convex envelope over the same coefficient box (the SLIM IP's ``alpha``
constraints of Section 3.1 with ``alpha`` relaxed to [0, 1]) and the same L1 tie-break::

    Z~(lam) = sum_k pos_w[k] max(0, 1 - s_k/gamma) + neg_w[k] max(0, s_k/gamma)
              + sum_j c0[j] alpha_j + epsilon |lam_j|,   lo_j alpha_j <= lam_j <= hi_j alpha_j,

``s_k = lam_0 + X[k] @ lam`` over the box. On the integer lattice (exact ``gamma``) each hinge
term is 0 exactly where the 0-1 term is and at least 1 where it is not, so near a good model
the proxy tracks the 0-1 loss row by row. (The LP relaxation of the big-M IP, the paper's
"off-the-shelf" proxy of Section 4.2.1, divides each row's loss by its big-M: forcing a row to
the other label then costs almost nothing and no row leaves.)

Stage 1 solves the proxy (``Z~(f~*)``, labels ``y~ = sign f~*(x)``). Stage 2 solves it again
per distinct row forced to the other label (Eq. DataReductionConvexVariant: ``s_k <= 0`` or
``s_k >= gamma``); a row whose variant costs more than ``Z~(f~*) + eps`` leaves. The width is
the paper's ``eps(f^) = Z(f^) - Z~(f~*)`` (Section 4.2.1) for the warm start ``f^``, at least 0,
or the width given (``--reduce-width``). Only rows that the proxy optimum and the warm start
both give their (majority) true label are candidates. A variant solution inside the level set
keeps every candidate row it also labels the other way, so those rows need no LP of their own.

With this proxy no width is proven to meet Theorem 4.1's level-set condition, and even a width
that meets it is not enough: the theorem's proof takes the removed rows' loss as constant over
all of F, but it is constant only on the level set, and a model outside it can beat the true
optimum on the kept rows (bankruptcy at eps_min = Z~(f*) - Z~(f~*): the reduced optimum costs
0.004 on the kept rows and 0.572 on all, against 0.0241). Exactness rests on a check instead.
A removed row costs every model at least its minority weight, so
``Z(f; all rows) >= Z(f; kept rows) + sum_removed min(w+, w-)`` for every model ``f``, with
equality for a model that gives each removed row its majority label. Hence if the optimum
on the kept rows does that, it is optimal on all rows, and its lower bound plus the
constant is a lower bound for the full problem. :func:`fit_reduced` puts back any removed
row the reduced optimum mislabels and solves again (at most ``ROUNDS`` times, then whole).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Optional

import numpy as np

from ..convex.cutting_planes import quiet_highs
from ..problem.constrained import violations
from ..problem.slim import SlimProblem
from ..search.no_error import majority
from ..search.warm_start import warm_start
from .fit import fit_problem
from .options import SolveOptions
from .progress import Progress, ProgressCallback, relative_gap

LP_SLACK = 1e-7      # a row leaves only when its variant beats the level set by more than this
ROUNDS = 3           # reduced solves before solving the whole problem
STAGE2_SHARE = 0.2   # of the time left, at most, for Stage 2; rows not reached by then stay
WARM_START_SHARE = 0.1  # of the time left (at most WARM_START_MAX s) for the local search
WARM_START_MAX = 5.0


@dataclass(frozen=True)
class Reduction:
    """What Algorithm 2 did to a problem.

    problem: the reduced problem (its distinct rows are the kept ones).
    kept: per distinct row of the original problem, whether it stays.
    labels: per distinct row, the proxy optimum's label (+1/-1); removed rows keep it in
      every model of the level set.
    width: the level-set width eps; proxy: the proxy's optimum Z~(f~*).
    removed_rows: data rows removed (with their duplicates).
    variants: Stage 2 LPs solved (the others were settled by a variant's solution).
    unchecked: candidate rows kept because Stage 2 ran out of time.
    """

    problem: SlimProblem
    kept: np.ndarray
    labels: np.ndarray
    width: float
    proxy: float
    removed_rows: int
    variants: int
    unchecked: int
    seconds: float


@dataclass(frozen=True)
class _Sparse:
    """Rows of a constraint matrix in compressed form, with their bounds."""

    lower: np.ndarray
    upper: np.ndarray
    starts: np.ndarray
    index: np.ndarray
    value: np.ndarray


def _rows(lower, upper, index: list[np.ndarray], value: list[np.ndarray]) -> _Sparse:
    lengths = np.array([len(i) for i in index], dtype=np.int32)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int32)
    flat = (lambda parts, kind: np.concatenate(parts).astype(kind) if parts else np.zeros(0, kind))
    return _Sparse(np.asarray(lower, float), np.asarray(upper, float), starts, flat(index, np.int32),
                   flat(value, np.float64))


class HingeProxy:
    """The hinge-loss proxy of the module doc over a problem's distinct rows, as one HiGHS LP.

    Columns: ``lam`` (intercept first), ``alpha``, ``beta = |lam|``, then one hinge column per
    nonzero class weight of each distinct row.
    """

    def __init__(self, problem: SlimProblem) -> None:
        import highspy

        self.h = quiet_highs()
        self.h.setOptionValue("presolve", "off")  # the variants start from the stage-1 basis
        self.inf = highspy.kHighsInf
        K, P = problem.X.shape
        self.Xb = np.hstack([np.ones((K, 1)), problem.X.astype(np.float64)])
        self.gamma = problem.gamma
        lo = np.concatenate([[problem.intercept_lo], problem.coef_lo]).astype(np.float64)
        hi = np.concatenate([[problem.intercept_hi], problem.coef_hi]).astype(np.float64)
        self.lam = self._columns(lo, hi, np.zeros(P + 1))
        alpha = self._columns(np.zeros(P), np.ones(P), problem.c0)
        beta = self._columns(np.zeros(P), np.full(P, self.inf), np.full(P, problem.epsilon))
        self._add(self._penalty_rows(problem, self.lam[1:], alpha, beta, lo[1:], hi[1:]))
        self._add(self._hinge_rows(problem))
        self.base = None

    def _columns(self, lower, upper, cost) -> np.ndarray:
        start, n = self.h.getNumCol(), len(lower)
        self.h.addVars(n, np.asarray(lower, float), np.asarray(upper, float))
        idx = np.arange(start, start + n, dtype=np.int32)
        self.h.changeColsCost(n, idx, np.asarray(cost, float))
        return idx

    def _add(self, rows: _Sparse) -> None:
        if len(rows.lower):
            self.h.addRows(len(rows.lower), rows.lower, rows.upper, len(rows.index), rows.starts, rows.index,
                           rows.value)

    def _penalty_rows(self, problem: SlimProblem, lam, alpha, beta, lo, hi) -> _Sparse:
        """``lo_j alpha_j <= lam_j <= hi_j alpha_j``, ``beta_j >= |lam_j|``, ``sum alpha <= max_features``."""
        lower, upper, index, value = [], [], [], []
        for j in range(len(lam)):
            pair, both = np.array([lam[j], alpha[j]]), np.array([beta[j], lam[j]])
            for lb, ub, cols, coefs in ((-self.inf, 0.0, pair, [1.0, -hi[j]]), (0.0, self.inf, pair, [1.0, -lo[j]]),
                                        (0.0, self.inf, both, [1.0, -1.0]), (0.0, self.inf, both, [1.0, 1.0])):
                lower.append(lb), upper.append(ub), index.append(cols), value.append(np.array(coefs))
        if problem.max_features is not None:
            lower.append(-self.inf), upper.append(float(problem.max_features))
            index.append(alpha), value.append(np.ones(len(alpha)))
        return _rows(lower, upper, index, value)

    def _hinge_rows(self, problem: SlimProblem) -> _Sparse:
        """Positives: ``xi + s/gamma >= 1``; negatives: ``xi - s/gamma >= 0`` (``xi >= 0`` its hinge)."""
        sides = [(k, 1.0, w) for k, w in enumerate(problem.pos_w) if w > 0]
        sides += [(k, -1.0, w) for k, w in enumerate(problem.neg_w) if w > 0]
        xi = self._columns(np.zeros(len(sides)), np.full(len(sides), self.inf), [w for _, _, w in sides])
        lower = [1.0 if sign > 0 else 0.0 for _, sign, _ in sides]
        used = [np.flatnonzero(self.Xb[k]) for k, _, _ in sides]
        index = [np.append(self.lam[nz], xi[i]) for i, nz in enumerate(used)]
        value = [np.append(sign * self.Xb[k, nz] / self.gamma, 1.0) for (k, sign, _), nz in zip(sides, used)]
        return _rows(lower, np.full(len(sides), self.inf), index, value)

    def solve(self, seconds: float = np.inf) -> tuple[float, np.ndarray] | None:
        """Stage 1: ``Z~(f~*)`` and ``f~*`` (intercept first); None if HiGHS fails or takes
        more than ``seconds`` (on 10^5 distinct rows the LP can take minutes)."""
        import highspy

        if np.isfinite(seconds):
            self.h.setOptionValue("time_limit", max(float(seconds), 0.01))
        self.h.run()
        self.h.setOptionValue("time_limit", self.inf)
        if self.h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        self.base = self.h.getBasis()
        return self.h.getInfo().objective_function_value, np.asarray(self.h.getSolution().col_value)[self.lam]

    def variant(self, k: int, label: int, level: float) -> tuple[float, np.ndarray | None]:
        """Stage 2 (Eq. DataReductionConvexVariant): the proxy with distinct row ``k`` forced to
        ``-label`` (``s_k <= 0`` or ``s_k >= gamma``), by dual simplex from the stage-1 basis.
        Dual simplex raises a lower bound as it goes and stops once that passes ``level``; the
        value is then that bound and the solution None (also when HiGHS fails: value -inf)."""
        import highspy

        row = self.h.getNumRow()
        self.h.setBasis(self.base)
        self.h.setOptionValue("objective_bound", level)
        lower, upper = (-self.inf, 0.0) if label > 0 else (self.gamma, self.inf)
        nz = np.flatnonzero(self.Xb[k])
        self.h.addRow(lower, upper, len(nz), self.lam[nz], self.Xb[k, nz])
        self.h.run()
        status = self.h.getModelStatus()
        if status == highspy.HighsModelStatus.kOptimal:
            result = self.h.getInfo().objective_function_value, np.asarray(self.h.getSolution().col_value)[self.lam]
        elif status == highspy.HighsModelStatus.kObjectiveBound:
            result = max(self.h.getInfo().objective_function_value, level + LP_SLACK), None
        elif status == highspy.HighsModelStatus.kInfeasible:  # no model in the box labels row k otherwise
            result = np.inf, None
        else:  # not solved: the row stays
            result = -np.inf, None
        self.h.deleteRows(1, np.array([row], np.int32))
        self.h.setOptionValue("objective_bound", self.inf)
        return result

    def forced(self, lam: np.ndarray, labels: np.ndarray) -> np.ndarray:
        """Rows a solution ``lam`` gives the other label (meets their variant's constraint)."""
        s = self.Xb @ lam
        return np.where(labels > 0, s <= LP_SLACK, s >= self.gamma - LP_SLACK)


def reduce_problem(problem: SlimProblem, coef: np.ndarray, intercept: int, width: float | None = None,
                   seconds: float = np.inf) -> Reduction:
    """Algorithm 2 on ``problem`` with the hinge proxy; ``(coef, intercept)`` is a feasible model ``f^``.

    width: the level-set width eps; None uses the paper's ``eps(f^) = Z(f^) - Z~(f~*)``
    (Section 4.2.1), at least 0. Smaller widths remove more rows; any width is safe when
    the result goes through :func:`fit_reduced`. seconds: Stage 1 gives up (no row removed)
    and Stage 2 stops (keeping the rows it has not reached) after this long.
    """
    start = time.monotonic()
    proxy = HingeProxy(problem)
    stage1 = proxy.solve(seconds)
    kept = np.ones(len(problem.X), dtype=bool)
    if stage1 is None:
        return Reduction(problem=problem, kept=kept, labels=np.zeros(len(kept), dtype=np.int64), width=0.0,
                         proxy=np.nan, removed_rows=0, variants=0, unchecked=0, seconds=time.monotonic() - start)
    best, lam = stage1
    if width is None:
        width = max(problem.objective(coef, intercept) - best, 0.0)
    labels = np.where(proxy.Xb @ lam > 0, 1, -1)
    warm = np.where(problem.scores(coef, intercept) > 0, 1, -1)
    undecided = (majority(problem) == (labels > 0)) & (warm == labels)
    level, variants = best + width + LP_SLACK, 0
    for k in np.flatnonzero(undecided):
        if time.monotonic() - start > seconds:
            break
        if not undecided[k]:
            continue
        value, solution = proxy.variant(k, int(labels[k]), level)
        variants += 1
        undecided[k] = False
        if value > level:
            kept[k] = False
        elif solution is not None:  # a model of the level set: every row it flips stays
            undecided &= ~proxy.forced(solution, labels)
    return Reduction(problem=subset(problem, kept), kept=kept, labels=labels, width=width, proxy=best,
                     removed_rows=removed_rows(problem, kept), variants=variants, unchecked=int(undecided.sum()),
                     seconds=time.monotonic() - start)


def removed_rows(problem: SlimProblem, kept: np.ndarray) -> int:
    """How many data rows the removed distinct rows stand for."""
    return int(np.isin(problem.row_of, np.flatnonzero(~kept)).sum())


def subset(problem: SlimProblem, kept: np.ndarray) -> SlimProblem:
    """The problem over the kept distinct rows (data rows of removed ones map to -1)."""
    index = np.full(len(kept), -1, dtype=np.int64)
    index[kept] = np.arange(int(kept.sum()))
    constraints = problem.constraints
    if constraints is not None:
        constraints = replace(constraints, pos_n=constraints.pos_n[kept], neg_n=constraints.neg_n[kept])
    return replace(problem, X=problem.X[kept], pos_w=problem.pos_w[kept], neg_w=problem.neg_w[kept],
                   row_of=index[problem.row_of], constraints=constraints)


def mislabelled(problem: SlimProblem, kept: np.ndarray, coef: np.ndarray, intercept: int) -> np.ndarray:
    """Removed distinct rows the model does not give their majority label (bool per distinct row)."""
    positive = problem.scores(coef, intercept) > 0
    wrong = np.where(positive, problem.neg_w > problem.pos_w, problem.pos_w > problem.neg_w)
    return ~kept & wrong


def fit_reduced(problem: SlimProblem, options: SolveOptions, width: float | None = None,
                progress: Optional[ProgressCallback] = None):
    """``fit.fit_problem`` on the problem reduced with level-set width ``width`` (None: the
    paper's), checked (see the module doc); every round runs until ``options.deadline``.

    Returns ``(coef, intercept, result, info)`` with the result's lower bound raised to one
    for the full problem, and ``info`` the reduction's report for ``training.params``. Rate
    limits (max FPR, min TPR, ...) count every row: with them the problem is solved whole.
    """
    limits = problem.constraints is not None and any(
        k in problem.constraints.present for k in ("max_fpr", "min_tpr", "max_positive_rate", "limits"))
    deadline = options.deadline
    start = warm_start(problem, seconds=options.phase(WARM_START_SHARE, WARM_START_MAX).clock,
                       max_features=problem.max_features, until=deadline.at)
    if limits or violations(problem, start.coef, start.intercept):
        coef, intercept, result = fit_problem(problem, options, progress)
        return coef, intercept, result, {"rows_removed": 0, "reason": "rate limits or no feasible warm start"}
    # Stage 2 looks at every undecided row under a work limit (the deadline a safety net)
    reduction = reduce_problem(problem, start.coef, start.intercept, width, seconds=options.phase(STAGE2_SHARE).seconds)
    kept = reduction.kept.copy()
    for round_ in range(1, ROUNDS + 1):
        floor = float(np.minimum(problem.pos_w, problem.neg_w)[~kept].sum())
        coef, intercept, result = fit_problem(subset(problem, kept), options, raised(progress, floor))
        wrong = mislabelled(problem, kept, coef, intercept)
        if not wrong.any():
            if result.bound is not None:
                result = replace(result, bound=result.bound + floor)
            return coef, intercept, result, report(problem, reduction, kept, round_)
        kept |= wrong
    coef, intercept, result = fit_problem(problem, options, progress)
    return coef, intercept, result, report(problem, reduction, np.ones_like(kept), ROUNDS + 1) | {
        "reason": "the reduced optimum kept mislabelling removed rows"}


def raised(progress: Optional[ProgressCallback], floor: float) -> Optional[ProgressCallback]:
    """``progress`` in the full problem's units: the removed rows' least loss added back."""
    if progress is None:
        return None

    def report_full(event: Progress) -> None:
        incumbent = None if event.incumbent is None else event.incumbent + floor
        bound = None if event.bound is None else event.bound + floor
        progress(replace(event, incumbent=incumbent, bound=bound, gap=relative_gap(incumbent, bound)))

    return report_full


def report(problem: SlimProblem, reduction: Reduction, kept: np.ndarray, solves: int) -> dict:
    """``training.params.reduction``: rows Algorithm 2 removed, those the check put back, the
    rows left out of the final solve, and the level set it used."""
    removed = removed_rows(problem, kept)
    optimum = round(reduction.proxy, 9) if np.isfinite(reduction.proxy) else None  # None: stage 1 failed
    return {"rows_removed": removed, "distinct_rows_removed": int((~kept).sum()),
            "rows_put_back": reduction.removed_rows - removed, "solves": solves,
            "proxy": "hinge", "width": round(reduction.width, 9), "proxy_optimum": optimum,
            "variants": reduction.variants, "unchecked": reduction.unchecked, "seconds": round(reduction.seconds, 3)}
