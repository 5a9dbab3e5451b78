"""The curvature certificate: proving the integer optimum of a smooth loss in a few data passes.

Algorithm 1 (``convex/cutting_planes.py``) proves optimality with linear cuts only, and a linear model
of a smooth convex loss is loose around its minimum: the paper needs 43 rounds at N = 10^7
(Appendix "Progress of Decomposition Algorithm"). For a loss with curvature (logistic,
exponential, quadratic) this module proves the same optimum with about five passes over
the data, from two facts:

1. *A quadratic lower bound on an ellipsoid.* Around a point ``o``, on the ellipsoid
   ``E = {o + d : d' M d <= kappa}`` every margin moves by at most
   ``rho_i = sqrt(kappa z_i' M^-1 z_i)``, so with ``g`` the gradient at ``o``
       L(o + d) >= Q(d) = L(o) + g . d + 0.5 d' F d,   F = sum_i w_i min_{|s|<=rho_i} l''(m_i + s) z_i z_i' / W
   (Taylor with the smallest curvature each row can have on E; ``losses.curvature_floor``).
2. *Convexity along rays.* If ``Q >= L(o)`` on the boundary of E, every point ``x``
   outside E has ``L(x) >= min_boundary Q``: the segment from ``o`` to ``x`` leaves E at
   ``b`` with ``L(b) >= L(o)``, and a convex function keeps rising past ``b``. On the
   boundary, ``Q >= L(o) - |g|_{M^-1} sqrt(kappa) + 0.5 mu kappa`` with ``mu`` the smallest
   eigenvalue of ``F`` relative to ``M`` (closed form).

With ``o`` the optimum of the convex relaxation (Newton's method on a subsample, then on
all rows), ``M`` the Hessian there and ``kappa`` just large enough for the boundary bound to
pass the best objective found, the few lattice points inside E are bounded by ``Q`` (only
those it cannot rule out are evaluated) and all others by the boundary bound. When both
reach the best objective, the optimum is proven; otherwise nothing is lost: every
evaluation is a valid cut for Algorithm 1, which carries on from there.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from .lattice import CoefficientSpace

MAX_BOX_POINTS = 50_000


@dataclass(frozen=True)
class Evaluation:
    """One oracle answer at a point: a cut for the master, and a candidate if on the lattice."""

    point: np.ndarray
    value: float
    grad: np.ndarray


@dataclass(frozen=True)
class Relaxation:
    """The convex relaxation's solution (same box, no L0) and the passes made to find it.

    value/grad: at ``point`` (measured, or the Newton model's prediction for a last step).
    hessian: the last Hessian computed, the shape of the certificate's ellipsoid.
    """

    point: np.ndarray
    value: float
    grad: np.ndarray
    hessian: np.ndarray
    evaluations: tuple[Evaluation, ...]


@dataclass(frozen=True)
class Certificate:
    """A lower bound on the objective over the whole lattice and the evaluations behind it.

    best/best_objective/best_loss: the best lattice point evaluated (None if none was).
    lower_bound: no lattice point has a smaller objective (-inf when the bound failed).
    """

    best: np.ndarray | None
    best_objective: float
    best_loss: float
    lower_bound: float
    evaluations: tuple[Evaluation, ...]


def newton(oracle, space: CoefficientSpace, start: np.ndarray, steps: int,
           tolerance: float = 1e-12) -> Relaxation:
    """Projected Newton steps on ``min L(lam)`` over the box hull of the coefficient set.

    Variables at a bound whose gradient pushes outward are held; a backtracking (Armijo)
    line search on loss values keeps each step a decrease. The Hessian returned is the last
    one computed (the ellipsoid shape for :func:`certify`). Every pass is a valid cut.
    """
    lo, hi = space.hull()
    lam = np.clip(np.asarray(start, dtype=np.float64), lo, hi)
    value, grad, H = oracle.curvature(lam)
    evaluations = [Evaluation(lam, value, grad)]
    for step in range(steps):
        free = ~(((lam <= lo) & (grad > 0)) | ((lam >= hi) & (grad < 0)))
        if not free.any() or np.max(np.abs(grad[free])) <= tolerance:
            break
        d = np.zeros_like(lam)
        Hf = H[np.ix_(free, free)]
        d[free] = -np.linalg.solve(Hf + 1e-12 * max(np.trace(Hf), 1e-12) * np.eye(int(free.sum())), grad[free])
        t = 1.0
        while True:
            new = np.clip(lam + t * d, lo, hi)
            new_value, new_grad = oracle(new)
            evaluations.append(Evaluation(new, new_value, new_grad))
            if new_value <= value + 1e-4 * float(grad @ (new - lam)) or t < 1e-6:
                break
            t *= 0.5
        if new_value >= value:
            break
        lam, value, grad = new, new_value, new_grad
        if step + 1 < steps:
            value, grad, H = oracle.curvature(lam)
    return Relaxation(lam, value, grad, H, tuple(evaluations))


def relax(oracle, space: CoefficientSpace, sample_rows: int = 100_000) -> Relaxation:
    """The convex relaxation's optimum: Newton to convergence on a subsample, then on all rows.

    Steps on the subsample cost little. From its optimum, one full pass gives the gradient
    and Hessian for a last projected Newton step (quadratic convergence) whose value and
    gradient are the quadratic model's prediction: :func:`certify`'s curvature pass measures
    them there anyway, so no pass is spent on a line search. Only full passes are cuts.
    """
    if not (hasattr(oracle, "subsample") and getattr(oracle, "n_rows", 0) > 4 * sample_rows):
        return newton(oracle, space, np.zeros(space.size), steps=30)
    start = newton(oracle.subsample(sample_rows), space, np.zeros(space.size), steps=30).point
    value, grad, H = oracle.curvature(start)
    lo, hi = space.hull()
    free = ~(((start <= lo) & (grad > 0)) | ((start >= hi) & (grad < 0)))
    d = np.zeros_like(start)
    if free.any():
        Hf = H[np.ix_(free, free)]
        d[free] = -np.linalg.solve(Hf + 1e-12 * max(np.trace(Hf), 1e-12) * np.eye(int(free.sum())), grad[free])
    point = np.clip(start + d, lo, hi)
    d = point - start
    predicted = value + grad @ d + 0.5 * d @ H @ d
    return Relaxation(point, float(predicted), grad + H @ d, H, (Evaluation(start, value, grad),))


def lattice_points(space: CoefficientSpace, low: np.ndarray, high: np.ndarray) -> np.ndarray | None:
    """The feasible lattice points in the box ``[low, high]`` (None: more than the cap)."""
    axes = []
    for j in range(space.size):
        allowed = space.allowed(j)
        if allowed is None:
            vals = np.arange(max(math.ceil(low[j]), space.lower[j]), min(math.floor(high[j]), space.upper[j]) + 1)
        else:
            vals = np.array(sorted(v for v in allowed if low[j] <= v <= high[j]))
        if vals.size == 0:
            return np.empty((0, space.size))
        axes.append(vals.astype(np.float64))
    if math.prod(v.size for v in axes) > MAX_BOX_POINTS:
        return None
    grid = np.array(list(itertools.product(*axes)), dtype=np.float64).reshape(-1, space.size)
    counted = np.array([space.counted(j) for j in range(space.size)])
    used = (grid[:, counted] != 0).sum(axis=1)
    keep = np.ones(len(grid), bool)
    if space.max_features is not None:
        keep &= used <= space.max_features
    if space.min_features is not None:
        keep &= used >= space.min_features
    return grid[keep]


def _quadratic(points: np.ndarray, center: np.ndarray, value: float, grad: np.ndarray, A: np.ndarray) -> np.ndarray:
    d = points - center
    return value + d @ grad + 0.5 * np.einsum("ij,jk,ik->i", d, A, d)


def certify(oracle, space: CoefficientSpace, relaxation: Relaxation, tolerance: float,
            max_evaluations: int = 12, attempts: int = 3) -> Certificate:
    """Bound the objective over the whole lattice from the relaxation's optimum (module doc).

    Evaluates the lattice point the quadratic model likes best, sizes the ellipsoid from
    its objective and makes a curvature pass (again, larger, up to ``attempts`` times while
    the floor is too flat for the boundary bound to reach it), then evaluates, in order of their lower bound,
    the points inside the ellipsoid the bound cannot rule out (at most ``max_evaluations``).
    """
    o, M = relaxation.point, relaxation.hessian
    lo, hi = space.hull()
    evaluations: list[Evaluation] = []
    failed = Certificate(None, math.inf, math.inf, -math.inf, ())
    near = lattice_points(space, o - 1.0, o + 1.0)
    try:
        chol = np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        return failed
    if near is None or near.size == 0:
        return failed
    guess = _quadratic(near, o, relaxation.value, relaxation.grad, M) + np.array([space.penalty(p) for p in near])
    first = near[int(np.argmin(guess))]
    v, g = oracle(first)
    evaluations.append(Evaluation(first, v, g))
    best, best_obj, best_loss = first, v + space.penalty(first), v
    held = ((o <= lo) & (relaxation.grad > 0)) | ((o >= hi) & (relaxation.grad < 0))
    inv_chol = np.linalg.inv(chol)
    mu, outside = 0.5, -math.inf
    for _ in range(attempts):
        gnorm = float(np.linalg.norm(inv_chol @ np.where(held, 0.0, relaxation.grad)))
        target = 1.2 * (max(best_obj - space.min_penalty() - relaxation.value, 0.0) + tolerance)
        kappa = ((gnorm + math.sqrt(gnorm * gnorm + 2.0 * mu * target)) / mu) ** 2
        value, grad, F = oracle.curvature(o, math.sqrt(kappa) * inv_chol.T)
        F = F * (1.0 - 1e-6)  # room for the float32 rounding of the sums
        mu = max(float(np.linalg.eigvalsh(inv_chol @ F @ inv_chol.T)[0]), 1e-12)
        gnorm = float(np.linalg.norm(inv_chol @ np.where(held, 0.0, grad)))
        rise = 0.5 * mu * kappa - gnorm * math.sqrt(kappa)
        outside = value + rise + space.min_penalty() if rise >= 0 else -math.inf
        if outside >= best_obj - tolerance:
            break
    half = np.sqrt(kappa * np.diag(np.linalg.inv(M)))
    points = lattice_points(space, o - half, o + half)
    if points is None:
        return Certificate(best, best_obj, best_loss, -math.inf, tuple(evaluations))
    d = points - o
    points = points[np.einsum("ij,jk,ik->i", d, M, d) <= kappa]
    bounds = _quadratic(points, o, value, grad, F) + np.array([space.penalty(p) for p in points])
    inside, spent = math.inf, 0
    for k in np.argsort(bounds, kind="stable"):
        if bounds[k] >= best_obj - tolerance:
            inside = bounds[k]
            break
        if np.array_equal(points[k], first):
            continue
        if spent >= max_evaluations:
            return Certificate(best, best_obj, best_loss, -math.inf, tuple(evaluations))
        v, g = oracle(points[k])
        spent += 1
        evaluations.append(Evaluation(points[k], v, g))
        if v + space.penalty(points[k]) < best_obj:
            best, best_obj, best_loss = points[k], v + space.penalty(points[k]), v
    return Certificate(best, best_obj, best_loss, min(best_obj, inside, outside), tuple(evaluations))
