"""Cutting planes: integer scoring systems trained with any convex loss (Algorithm 1).

The problem (Section 4.1, Eq. 4.3 for the logistic loss) is

    min  L(lam) + sum_j C0_j [lam_j != 0] + epsilon * sum_j |lam_j|     s.t. lam in Lset,

with ``L`` the aggregate convex loss of ``losses.py`` and ``Lset`` the integer coefficient
set of SLIM (ranges or explicit value sets, signs, a cap on the number of features).
Benders' decomposition never puts a row of data into the integer program: the *master*
holds only the coefficients and one loss variable ``theta``, which stays above every cut
``theta >= L(lam_k) + grad L(lam_k) . (lam - lam_k)`` (Eq. 4.1) that the oracle returns.
Each round solves the master (its optimum is a lower bound ``LB`` on the true optimum,
Eq. 4.4), asks the oracle for ``L`` and its gradient at the master's coefficients (their
true objective is an upper bound ``UB``, Eq. 4.5) and adds the cut; it stops when
``UB - LB <= tolerance`` or when the master proposes coefficients it already has a cut at
(then the cut is tight there and ``LB = UB``: the optimum is proven).

What makes it fast:
  * Before any master round, the curvature certificate (``curvature.py``) solves the convex
    relaxation (Newton, first on a subsample) and tries to prove the optimum from a
    quadratic lower bound; on the paper's simulation it needs about five passes over the
    data at any N, and no master at all. Whatever it evaluated seeds the master as cuts
    and incumbent when it cannot close the gap (small N, hinge loss, loose curvature).
  * The master is one persistent HiGHS model (highspy): each round adds rows and
    re-solves, nothing is rebuilt. The loss variable is shifted by a reference loss so the
    master's tolerances act on loss differences, not on the loss itself.
  * In-out stabilization: each round also cuts at the midpoint between the master's point
    and the relaxation's optimum, which halves the rounds Kelley's method needs here.
"""
from __future__ import annotations

import math
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from scorecard.runtime.errors import InfeasibleError, NoModelInTimeError

from ..solvers.pulp_mip import HIGHS_NO_SUB_MIP
from .curvature import Evaluation, certify, newton, relax
from .lattice import CoefficientSpace
from .losses import Oracle


def quiet_highs():
    """A silent ``highspy.Highs``. Its constructor prints a banner to standard output (once
    per process) before any option can be set; it is sent to the null device, so it never
    lands in the middle of a command's output."""
    import highspy

    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            h = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    h.setOptionValue("output_flag", False)
    # HiGHS keeps one thread pool per process, sized by the first run: a later run asking for
    # another number of threads (PuLP's HiGHS runs with --threads, this one with HiGHS's
    # default) fails with model status "Not Set". Start this one from a fresh pool.
    highspy.Highs.resetGlobalScheduler(True)
    return h


@dataclass(frozen=True)
class Round:
    """One round of Algorithm 1, as reported to a progress callback."""

    iteration: int
    lower_bound: float
    upper_bound: float
    gap: float
    seconds: float
    cuts: int


@dataclass(frozen=True)
class CuttingPlaneResult:
    """What Algorithm 1 found and the certificate of how good it is.

    coefficients: the best lattice point found (the optimum when ``status == "optimal"``).
    objective: its true objective ``L + penalty`` (the upper bound).
    lower_bound: the master's optimum at the last round (no lattice point does better).
    gap: ``objective - lower_bound`` (absolute, in objective units).
    status: "optimal", "time_limit", "iteration_limit" or "interrupted" (Ctrl-C during a master
      solve: the best point so far).
    iterations: rounds (master solves); cuts: oracle answers used as cuts.
    passes: passes over all the rows (oracle and curvature calls; subsample passes not counted).
    proof: "curvature" (the certificate closed the gap) or "cuts" (Algorithm 1's master did).
    """

    coefficients: np.ndarray
    objective: float
    loss: float
    lower_bound: float
    gap: float
    status: str
    iterations: int
    cuts: int
    passes: int
    proof: str
    seconds: float
    oracle_seconds: float
    master_seconds: float
    history: tuple[Round, ...] = field(default=(), repr=False)

    @property
    def relative_gap(self) -> float:
        return self.gap / max(abs(self.objective), 1e-12)


class Master:
    """The master problem of Algorithm 1 as one persistent HiGHS model.

    Columns: ``lam_j`` (integer, or continuous for the relaxation), ``theta`` (the shifted
    loss), ``alpha_j`` (binary, ``lam_j != 0``) for priced or counted columns, ``beta_j``
    (``|lam_j|``) when epsilon > 0, and one binary per allowed value for columns with an
    explicit value set. Cuts are rows ``theta - g . lam >= L_k - shift - g . lam_k``.
    ``gap``: the absolute gap each solve may leave (its dual bound stays a valid lower bound).
    """

    def __init__(self, space: CoefficientSpace, shift: float, threads: int = 1, gap: float = 0.0) -> None:
        import highspy

        self.space = space
        self.shift = shift
        self.h = h = quiet_highs()
        for name, value in (("mip_rel_gap", 0.0), ("mip_abs_gap", gap), ("threads", threads),
                            ("primal_feasibility_tolerance", 1e-9), ("dual_feasibility_tolerance", 1e-9),
                            ("mip_feasibility_tolerance", 1e-9), ("random_seed", 0),
                            *HIGHS_NO_SUB_MIP.items()):
            h.setOptionValue(name, value)
        self._inf = highspy.kHighsInf
        self._integer = highspy.HighsVarType.kInteger
        P = space.size
        self.lam = list(range(P))
        self._add_cols([float(v) for v in space.lower], [float(v) for v in space.upper], [0.0] * P)
        self._set_integer([j for j in self.lam if j not in space.continuous])
        self.theta = self._add_cols([-shift], [self._inf], [1.0])[0]
        alphas = []
        for j in range(P):
            allowed = space.allowed(j)
            priced = space.counted(j) and (space.c0[j] > 0 or space.max_features is not None
                                           or space.min_features is not None)
            alpha = None
            if priced:
                alpha = self._add_cols([0.0], [1.0], [float(space.c0[j])])[0]
                self._set_integer([alpha])
                alphas.append(alpha)
            if allowed is not None:
                nonzero = [float(a) for a in allowed if a != 0]
                u = self._add_cols([0.0] * len(nonzero), [1.0] * len(nonzero), [0.0] * len(nonzero))
                self._set_integer(u)
                self._row(0.0, 0.0, [j] + u, [1.0] + [-a for a in nonzero])       # lam_j = sum a u_a
                has_zero = any(a == 0 for a in allowed)
                if alpha is not None:
                    self._row(0.0, 0.0, [alpha] + u, [1.0] + [-1.0] * len(u))      # alpha_j = sum u_a
                if not has_zero:
                    self._row(1.0, 1.0, u, [1.0] * len(u))
                else:
                    self._row(0.0, 1.0, u, [1.0] * len(u))
            elif alpha is not None:
                if space.upper[j] > 0:
                    self._row(-self._inf, 0.0, [j, alpha], [1.0, -float(space.upper[j])])
                if space.lower[j] < 0:
                    self._row(0.0, self._inf, [j, alpha], [1.0, -float(space.lower[j])])
            if space.epsilon > 0 and space.counted(j):
                beta = self._add_cols([0.0], [self._inf], [float(space.epsilon)])[0]
                self._row(0.0, self._inf, [beta, j], [1.0, -1.0])
                self._row(0.0, self._inf, [beta, j], [1.0, 1.0])
        if space.max_features is not None or space.min_features is not None:
            lo = -self._inf if space.min_features is None else float(space.min_features)
            hi = self._inf if space.max_features is None else float(space.max_features)
            self._row(lo, hi, alphas, [1.0] * len(alphas))
        self.cuts = 0

    def _add_cols(self, lower: list[float], upper: list[float], cost: list[float]) -> list[int]:
        start = self.h.getNumCol()
        n = len(lower)
        self.h.addVars(n, np.array(lower), np.array(upper))
        idx = np.arange(start, start + n, dtype=np.int32)
        self.h.changeColsCost(n, idx, np.array(cost, dtype=np.float64))
        return idx.tolist()

    def _set_integer(self, cols: list[int]) -> None:
        if cols:
            self.h.changeColsIntegrality(len(cols), np.array(cols, dtype=np.int32),
                                         np.array([self._integer] * len(cols)))

    def _row(self, lo: float, hi: float, cols: list[int], vals: list[float]) -> None:
        self.h.addRow(lo, hi, len(cols), np.array(cols, dtype=np.int32), np.array(vals, dtype=np.float64))

    def add_cut(self, lam: np.ndarray, value: float, grad: np.ndarray) -> None:
        """``theta >= value - shift + grad . (lam' - lam)`` (Eq. 4.1, shifted)."""
        rhs = value - self.shift - float(np.dot(grad, lam))
        cols = [self.theta] + self.lam
        self._row(rhs, self._inf, cols, [1.0] + [-float(g) for g in grad])
        self.cuts += 1

    def solve(self, incumbent: np.ndarray | None = None, seconds: float = math.inf,
              max_nodes: int | None = None, cutoff: float | None = None) -> tuple[np.ndarray | None, float] | None:
        """The master's optimal coefficients and its optimum (a lower bound, unshifted); None
        when its time ran out before it had a point. ``max_nodes``: branch-and-bound nodes
        (a deterministic budget; the best point and the dual bound so far when it is reached).
        ``cutoff``: only points whose master objective is below it are of use (the incumbent's
        objective): branch and bound prunes by it, and a master with none below it returns
        ``(None, cutoff)``, a proof that nothing beats the incumbent.
        InfeasibleError when it has no solution (the coefficient set is empty or contradictory)."""
        import highspy

        self.h.setOptionValue("time_limit", max(float(seconds), 0.01))
        if max_nodes is not None:
            self.h.setOptionValue("mip_max_nodes", int(max_nodes))
        self.h.setOptionValue("objective_bound", math.inf if cutoff is None else cutoff - self.shift)
        if incumbent is not None:
            sol = highspy.HighsSolution()
            n = self.h.getNumCol()
            values = np.zeros(n)
            values[: self.space.size] = incumbent
            sol.col_value = values.tolist()
            sol.value_valid = True
            self.h.setSolution(sol)
        self.h.run()
        status = self.h.getModelStatus()
        if cutoff is not None and status in (highspy.HighsModelStatus.kInfeasible,
                                             highspy.HighsModelStatus.kObjectiveBound):
            return None, cutoff  # no point of the master below the cutoff
        stopped = status in (highspy.HighsModelStatus.kTimeLimit, highspy.HighsModelStatus.kSolutionLimit,
                             highspy.HighsModelStatus.kIterationLimit)
        stopped_with_point = stopped and self.h.getInfo().primal_solution_status == 2
        if stopped and not stopped_with_point:
            return None
        if status != highspy.HighsModelStatus.kOptimal and not stopped_with_point:
            raise InfeasibleError("the coefficient set admits no model "
                                  f"(master status: {self.h.modelStatusToString(status)})")
        values = np.asarray(self.h.getSolution().col_value)[: self.space.size]
        info = self.h.getInfo()
        bound = info.mip_dual_bound if math.isfinite(info.mip_dual_bound) else info.objective_function_value
        point = np.round(values)
        continuous = list(self.space.continuous)
        point[continuous] = values[continuous]
        return point, float(bound) + self.shift


def default_tolerance(space: CoefficientSpace, loss: float) -> float:
    """A tenth of the smallest positive C0 (no feature decision left open), at most 1e-6 x the loss."""
    prices = [c for j, c in enumerate(space.c0) if c > 0 and space.counted(j)]
    return min([0.1 * min(prices)] * bool(prices) + [1e-6 * max(loss, 1e-3)])


class _Timed:
    """The oracle with the seconds spent in it counted (value/gradient and curvature passes)."""

    def __init__(self, oracle: Oracle) -> None:
        self.oracle, self.seconds, self.passes = oracle, 0.0, 0
        self.loss, self.n_cols = oracle.loss, oracle.n_cols
        self.n_rows = getattr(oracle, "n_rows", 0)

    def __call__(self, lam: np.ndarray) -> tuple[float, np.ndarray]:
        t = time.perf_counter()
        value, grad = self.oracle(lam)
        self.seconds += time.perf_counter() - t
        self.passes += 1
        if not (math.isfinite(value) and np.all(np.isfinite(grad))):
            raise ValueError(f"the {self.loss} loss overflows at coefficients {np.asarray(lam).tolist()}; "
                             "narrow the coefficient ranges or scale the data")
        return value, grad

    def curvature(self, lam: np.ndarray, spread: np.ndarray | None = None):
        t = time.perf_counter()
        out = self.oracle.curvature(lam, spread)
        self.seconds += time.perf_counter() - t
        self.passes += 1
        return out

    def subsample(self, rows: int):
        return self.oracle.subsample(rows)


def cutting_planes(oracle: Oracle, space: CoefficientSpace, *, tolerance: float | None = None,
                   time_limit: float = 300.0, max_iterations: int = 10_000,
                   progress: Callable[[Round], None] | None = None, threads: int = 1,
                   certificate: bool = True, start: np.ndarray | None = None,
                   max_nodes: int | None = None) -> CuttingPlaneResult:
    """Algorithm 1 (Benders' decomposition) until ``UB - LB <= tolerance``, curvature first.

    tolerance: absolute gap in objective units (None: :func:`default_tolerance`).
    certificate: for losses with curvature and oracles with a ``curvature`` pass, first try
      the curvature certificate (``curvature.py``); its evaluations seed the master either way.
    progress: called after every round with a :class:`Round`.
    start: a lattice point to start from (a warm start, as RiskSLIM starts from a rounded
      solution): its cut seeds the master and it is the first incumbent.
    max_nodes: branch-and-bound nodes of each master solve (None: no limit); with
      ``max_iterations`` the run's work is bounded, the same on any machine.
    """
    t0 = time.perf_counter()
    timed = _Timed(oracle)
    evaluations: list[Evaluation] = []
    if start is not None:
        start = np.asarray(start, dtype=np.float64)
        evaluations.append(Evaluation(start, *timed(start)))
    best, best_obj, best_loss = None, math.inf, math.inf
    lower, proof, center = -math.inf, "cuts", None
    history: list[Round] = []
    if certificate and oracle.loss != "hinge" and hasattr(oracle, "curvature"):
        relaxation = relax(timed, space)
        tol = default_tolerance(space, relaxation.value) if tolerance is None else tolerance
        for polish in (True, False):  # one more full Newton step when the first proof fails
            cert = certify(timed, space, relaxation, tol)
            evaluations += list(relaxation.evaluations + cert.evaluations)
            if cert.best_objective < best_obj:
                best, best_obj, best_loss = cert.best, cert.best_objective, cert.best_loss
            lower = max(lower, min(cert.lower_bound, best_obj))
            if best_obj - lower <= tol or not polish:
                break
            relaxation = newton(timed, space, relaxation.point, steps=1)
        center = relaxation.point
        history.append(Round(0, lower, best_obj, max(best_obj - lower, 0.0), time.perf_counter() - t0, len(evaluations)))
        if progress is not None:
            progress(history[-1])
    if center is None and start is not None:
        center = start  # in-out stabilization around the warm start when there is no relaxation
    if not evaluations:
        first = space.project(np.zeros(space.size))
        value, grad = timed(first)
        evaluations.append(Evaluation(first, value, grad))
    tolerance = default_tolerance(space, evaluations[-1].value) if tolerance is None else tolerance
    seen = {tuple(e.point): e.value for e in evaluations if space.feasible(e.point)}
    for point, value in seen.items():  # the start and every lattice point evaluated so far
        if value + space.penalty(np.array(point)) < best_obj:
            best, best_obj, best_loss = np.array(point), value + space.penalty(np.array(point)), value
    status, iterations, master_seconds, cuts = "optimal", 0, 0.0, len(evaluations)
    if best is None or best_obj - lower > tolerance:
        proof, status = "cuts", "iteration_limit"
        master = Master(space, shift=min(e.value for e in evaluations), threads=threads, gap=0.25 * tolerance)
        for e in evaluations:
            master.add_cut(e.point, e.value, e.grad)
        while iterations < max_iterations:
            if time.perf_counter() - t0 > time_limit:
                status = "time_limit"
                break
            t = time.perf_counter()
            try:
                solved = master.solve(best, time_limit - (t - t0), max_nodes,
                                      cutoff=None if best is None else best_obj - 0.5 * tolerance)
            except KeyboardInterrupt:  # Ctrl-C: the best point so far, status "interrupted"
                if best is None:
                    raise
                status = "interrupted"
                break
            master_seconds += time.perf_counter() - t
            if solved is None:  # the time ran out inside the master, before it had a point
                status = "time_limit"
                break
            lam, bound = solved
            iterations += 1
            lower = max(lower, bound)
            if lam is None:  # nothing below the incumbent: proven
                lower = max(lower, best_obj)
                status = "optimal"
                history.append(Round(iterations, lower, best_obj, 0.0, time.perf_counter() - t0, master.cuts))
                break
            key = tuple(lam)
            repeated = key in seen
            if not repeated:
                value, grad = timed(lam)
                master.add_cut(lam, value, grad)
                if center is not None:
                    inner = center + 0.5 * (lam - center)
                    master.add_cut(inner, *timed(inner))
                seen[key] = value
                objective = value + space.penalty(lam)
                if objective < best_obj:
                    best, best_obj, best_loss = lam, objective, value
            history.append(Round(iterations, lower, best_obj, max(best_obj - lower, 0.0),
                                 time.perf_counter() - t0, master.cuts))
            if progress is not None:
                progress(history[-1])
            if best_obj - lower <= tolerance or repeated:
                status = "optimal"
                break
        cuts = master.cuts
    else:
        proof = "curvature"
    if best is None:
        raise NoModelInTimeError("the time limit stopped the search before any feasible model was found; "
                                 "give the solver more time or relax the constraints")
    lower = min(lower, best_obj) if status == "optimal" else lower
    return CuttingPlaneResult(
        coefficients=np.asarray(best, dtype=np.float64), objective=best_obj, loss=best_loss,
        lower_bound=lower, gap=max(best_obj - lower, 0.0), status=status, iterations=iterations,
        cuts=cuts, passes=timed.passes, proof=proof, seconds=time.perf_counter() - t0, oracle_seconds=timed.seconds,
        master_seconds=master_seconds, history=tuple(history))
