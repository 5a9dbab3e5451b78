"""The exact SLIM objective of many integer scoring systems at once, each with its best intercept.

For fixed coefficients the best integer intercept is a one-dimensional search: with the
threshold ``t = -intercept``, a positive row is an error when ``ceil(score) <= t`` and a
negative row when ``ceil(score) > t`` (the prediction is 1 when ``score + intercept > 0``).
So one signed histogram of ``ceil(score)`` per candidate (positives add their weight,
negatives subtract theirs), clipped to the intercept range, and its cumulative sum give the
error at every allowed intercept; the minimum is exact. When the rows are few next to the
intercept range, sorting each candidate's scores gives the same answer for less work.
This is the workhorse of the warm start and of the exhaustive search: it evaluates
thousands of candidate coefficient vectors per call, vectorised with numpy.
"""
from __future__ import annotations

import numpy as np

# Entries (candidates x rows) evaluated per numpy call; bounds the temporary memory (~8 bytes each).
CHUNK = 2_000_000


class Sweeper:
    """Evaluates candidate coefficient vectors of a :class:`~..problem.slim.SlimProblem` (or any
    object with its ``X``, ``pos_w``, ``neg_w``, ``intercept_lo``, ``intercept_hi``) on all
    of its distinct rows or on a ``subset`` of them (see the module doc).

    With a ``margin`` gamma, a row is predicted positive when ``score + intercept >= gamma``
    (the integer program's rule, up to 1e-9) instead of ``> 0``: the same on data whose
    margin is exact, and what makes a model one the IP can represent where it is not."""

    def __init__(self, rows, subset: np.ndarray | None = None, margin: float | None = None) -> None:
        self._margin = margin
        keep = np.arange(rows.X.shape[0]) if subset is None else np.asarray(subset)
        pos = keep[rows.pos_w[keep] > 0]
        neg = keep[rows.neg_w[keep] > 0]
        # One column per (row, label) present: a positive adds its weight to the error once
        # the threshold reaches its score, a negative removes its weight.
        self._X = np.ascontiguousarray(np.hstack([rows.X[pos].T, rows.X[neg].T]))
        self._delta = np.concatenate([rows.pos_w[pos], -rows.neg_w[neg]])
        self._total_neg = float(rows.neg_w[neg].sum())
        # Thresholds t = -intercept run over [t_lo, t_hi]; two extra bins hold clipped scores.
        self._t_lo = -int(rows.intercept_hi)
        self._t_hi = -int(rows.intercept_lo)
        self._bins = self._t_hi - self._t_lo + 3

    def best_intercepts(self, coefs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each row of ``coefs`` (M, P): the least weighted error and an intercept reaching it."""
        coefs = np.atleast_2d(np.asarray(coefs, dtype=np.float64))
        m = coefs.shape[0]
        width = max(1, self._X.shape[1])
        step = max(1, CHUNK // width)
        loss = np.empty(m)
        intercept = np.empty(m, dtype=np.int64)
        by_sorting = self._X.shape[1] * 4 < self._bins
        for start in range(0, m, step):
            part = coefs[start:start + step]
            if by_sorting:
                loss[start:start + step], intercept[start:start + step] = self._sorted(part)
                continue
            err = self._errors(part)
            k = np.argmin(err, axis=1)
            loss[start:start + step] = err[np.arange(len(part)), k]
            intercept[start:start + step] = -(self._t_lo + k)
        return loss, intercept

    def one_column(self, coef: np.ndarray, column: int, values: np.ndarray,
                   base: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`best_intercepts` of ``coef`` with ``coef[column]`` set to each of ``values``,
        at the cost of the rows where the column is non-zero (the others keep their score:
        one histogram of them is shared). ``base`` is ``coef``'s score per row
        (:meth:`scores`) when the caller has it."""
        values = np.asarray(values, dtype=np.float64)
        m = len(values)
        if self._X.shape[1] == 0 or self._X.shape[1] * 4 < self._bins:
            coefs = np.repeat(np.asarray(coef, dtype=np.float64)[None, :], m, axis=0)
            coefs[:, column] = values
            return self.best_intercepts(coefs)
        base = self.scores(coef) if base is None else base
        x = self._X[column]
        nz = np.flatnonzero(x)
        rest = base[nz] - float(coef[column]) * x[nz]
        index = np.clip(self._levels(base), self._t_lo - 1, self._t_hi + 1).astype(np.int64) - (self._t_lo - 1)
        shared = np.bincount(index, weights=self._delta, minlength=self._bins)
        shared -= np.bincount(index[nz], weights=self._delta[nz], minlength=self._bins)
        score = self._levels(rest[None, :] + values[:, None] * x[nz][None, :])
        np.clip(score, self._t_lo - 1, self._t_hi + 1, out=score)
        moved = score.astype(np.int64) - (self._t_lo - 1) + (np.arange(m, dtype=np.int64) * self._bins)[:, None]
        weights = np.broadcast_to(self._delta[nz], moved.shape).ravel()
        hist = np.bincount(moved.ravel(), weights=weights, minlength=m * self._bins).reshape(m, self._bins)
        hist = hist.astype(np.float64, copy=False) + shared  # (integer when the column has no non-zero row)
        err = np.cumsum(hist[:, :-1], axis=1)[:, 1:] + self._total_neg
        k = np.argmin(err, axis=1)
        return err[np.arange(m), k], -(self._t_lo + k)

    def scores(self, coef: np.ndarray) -> np.ndarray:
        """The score of each (row, label) column for one coefficient vector."""
        return np.asarray(coef, dtype=np.float64) @ self._X

    def column(self, j: int) -> np.ndarray:
        """Column ``j``'s value on each (row, label) pair."""
        return self._X[j]

    @property
    def width(self) -> int:
        """How many (row, label) pairs a candidate is scored on."""
        return self._X.shape[1]

    def _levels(self, score: np.ndarray) -> np.ndarray:
        """The integer each score is compared with: positive iff level > -intercept, i.e.
        ``ceil(score)`` for the rule score + intercept > 0, ``floor(score - gamma) + 1`` for
        score + intercept >= gamma."""
        if self._margin is None:
            return np.ceil(score)
        return np.floor(score - self._margin + 1e-9) + 1

    def _sorted(self, coefs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The same answer as the histogram for few rows: sort each candidate's ceil(score)
        (clipped to [t_lo, t_hi + 1], which changes no error at an allowed threshold) and read
        the error after each run of equal values; before the first run it is the negatives' weight."""
        m = coefs.shape[0]
        if self._X.shape[1] == 0:
            return np.zeros(m), np.full(m, -self._t_lo, dtype=np.int64)
        c = np.clip(self._levels(coefs @ self._X), self._t_lo, self._t_hi + 1)
        order = np.argsort(c, axis=1, kind="stable")
        c = np.take_along_axis(c, order, axis=1)
        err = self._total_neg + np.cumsum(self._delta[order], axis=1)
        end = np.ones(c.shape, dtype=bool)
        end[:, :-1] = c[:, 1:] != c[:, :-1]
        err = np.where(end & (c <= self._t_hi), err, np.inf)
        k = np.argmin(err, axis=1)
        loss = err[np.arange(m), k]
        threshold = c[np.arange(m), k]
        before = c[:, 0] > self._t_lo
        better = before & (self._total_neg <= loss)
        loss = np.where(better, self._total_neg, loss)
        threshold = np.where(better, self._t_lo, threshold)
        return loss, -threshold.astype(np.int64)

    def _errors(self, coefs: np.ndarray) -> np.ndarray:
        """(M, number of thresholds) weighted error at each allowed threshold: one signed
        histogram of ceil(score) per candidate, accumulated."""
        m = coefs.shape[0]
        if self._X.shape[1] == 0:
            return np.full((m, self._bins - 2), self._total_neg)
        score = self._levels(coefs @ self._X)
        np.clip(score, self._t_lo - 1, self._t_hi + 1, out=score)
        index = score.astype(np.int64) - (self._t_lo - 1)
        index += (np.arange(m, dtype=np.int64) * self._bins)[:, None]
        weights = np.broadcast_to(self._delta, index.shape).ravel()
        hist = np.bincount(index.ravel(), weights=weights, minlength=m * self._bins).reshape(m, self._bins)
        err = np.cumsum(hist[:, :-1], axis=1)
        err += self._total_neg
        return err[:, 1:]
