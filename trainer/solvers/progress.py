"""Progress of a running solve, for a terminal to show (the CLI stays quiet in pipes).

Backends report :class:`Progress` events to an optional callback: CBC's by tailing the log
file it writes (:class:`CbcLogWatcher`, a thread), HiGHS's from its MIP logging callback
(:func:`highs_event`). Objective values are in the model's objective units (see SlimProblem).
"""
from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass
from typing import Callable, Optional


@dataclass(frozen=True)
class Progress:
    """One progress report: seconds since the solve started, best objective found so far,
    best proven lower bound, relative gap (None when unknown) and a short message."""

    elapsed: float
    incumbent: float | None
    bound: float | None
    gap: float | None
    message: str
    #: A new step of the training begins (``message`` names it): shown even between two
    #: redraws (``scorecard train --verbose`` prints each on a line of its own).
    step: bool = False


ProgressCallback = Callable[[Progress], None]


def announce(progress: Optional[ProgressCallback], message: str) -> None:
    """Tell ``progress`` that the step ``message`` begins (nothing without a callback)."""
    if progress is not None:
        progress(Progress(elapsed=0.0, incumbent=None, bound=None, gap=None, message=message, step=True))

_NUMBER = r"(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"
_CBC_NODES = re.compile(rf"Cbc0010I After \d+ nodes, \d+ on tree, {_NUMBER} best solution, best possible {_NUMBER}")
_CBC_SOLUTION = re.compile(rf"Cbc00(?:04|12)I Integer solution of {_NUMBER}")
_CBC_ROOT = re.compile(rf"Continuous objective value is {_NUMBER}")


def relative_gap(incumbent: float | None, bound: float | None) -> float | None:
    """(incumbent - bound) / |incumbent|, 0 when both are 0, None when either is unknown."""
    if incumbent is None or bound is None:
        return None
    if incumbent == bound:
        return 0.0
    return max(0.0, (incumbent - bound) / max(abs(incumbent), 1e-12))


class CbcLogWatcher:
    """Tails a CBC log file while CBC runs and turns its lines into :class:`Progress` events.

    The log's objective values lack the objective's constant term (``offset``: solvers read
    the model without it) and are in the formulation's units (``scale`` divides them).
    Use as a context manager around the solve.
    """

    def __init__(self, path: str, callback: Optional[ProgressCallback], scale: float = 1.0, every: float = 0.5,
                 offset: float = 0.0):
        self.path, self.callback, self.scale, self.every, self.offset = path, callback, scale, every, offset
        self.incumbent: float | None = None
        self.bound: float | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._start = time.monotonic()

    def __enter__(self) -> "CbcLogWatcher":
        if self.callback is not None:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        offset = 0
        while True:
            stopping = self._stop.wait(self.every)
            try:
                with open(self.path, encoding="utf-8", errors="replace") as fh:
                    fh.seek(offset)
                    text = fh.read()
                    offset = fh.tell()
            except FileNotFoundError:
                text = ""
            changed = False
            for line in text.splitlines():
                changed |= self.read_line(line)
            if changed:
                self._emit()
            if stopping:
                return

    def read_line(self, line: str) -> bool:
        """Update the incumbent/bound from one log line; True when something changed."""
        m = _CBC_NODES.search(line)
        if m:
            self.incumbent, self.bound = self._objective(m.group(1)), self._objective(m.group(2))
            return True
        m = _CBC_SOLUTION.search(line)
        if m:
            self.incumbent = self._objective(m.group(1))
            return True
        m = _CBC_ROOT.search(line)
        if m and self.bound is None:
            self.bound = self._objective(m.group(1))
            return True
        return False

    def _objective(self, logged: str) -> float:
        return (float(logged) + self.offset) / self.scale

    def _emit(self) -> None:
        if self.callback is not None:
            self.callback(Progress(elapsed=time.monotonic() - self._start, incumbent=self.incumbent,
                                   bound=self.bound, gap=relative_gap(self.incumbent, self.bound),
                                   message="cbc"))


def highs_event(start: float, primal: float, dual: float, scale: float, offset: float = 0.0) -> Progress:
    """A :class:`Progress` from HiGHS's MIP callback data (its infinities read as unknown;
    ``offset`` and ``scale`` as for :class:`CbcLogWatcher`)."""
    incumbent = (primal + offset) / scale if abs(primal) < 1e30 else None
    bound = (dual + offset) / scale if abs(dual) < 1e30 else None
    return Progress(elapsed=time.monotonic() - start, incumbent=incumbent, bound=bound,
                    gap=relative_gap(incumbent, bound), message="highs")
